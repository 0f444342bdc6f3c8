/*
 * bfetch_manifest.c - libFuzzer target for bfetch's manifest reader
 * (tools/bfetch/manifest.c), which --resume and manifest.json read an
 * archive's manifest.ndjson with.  Invariants: a bad line is reported with
 * its line number and a message and never kills the process; on success
 * every record is a JSON object whose line lies inside the text, each job
 * key finds the last record of its job, and a job's earlier records chain
 * back in file order.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bfetch/bfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_records(const struct bfetch_manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		assert(json_is_object(m->recs[i]));
		assert(m->off[i] + m->llen[i] <= m->len);
		assert(m->prev[i] == SIZE_MAX || m->prev[i] < i);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bfetch_manifest m;
	char *text, *err = NULL;
	unsigned long line = 0;
	int rc;

	if (size > 65536)
		return 0;
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	rc = bfetch_manifest_parse(&m, text, size, &line, &err);
	if (rc < 0) {
		assert(err != NULL && *err != '\0');
		assert(line >= 1);
		free(err);
	} else {
		assert(err == NULL);
		check_records(&m);
	}
	bfetch_manifest_free(&m);
	return 0;
}
