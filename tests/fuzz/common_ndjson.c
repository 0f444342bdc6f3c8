/*
 * common_ndjson.c - libFuzzer target for the NDJSON reader: arbitrary bytes
 * as input must give records or clean errors, never a crash, and every
 * record must survive a write/read round trip unchanged.  The input taken
 * whole as one line (when it is UTF-8 without a NUL, as the reader passes
 * lines on): a tree ndj_parse_plain makes of it must be the one json_loadb
 * makes, in the same compact form.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
plain_as_jansson(const char *s, size_t n)
{
	json_t *p, *j;
	char *a, *b;
	size_t la, lb;

	if (memchr(s, '\0', n) != NULL || !utf8_valid(s, n, NULL) ||
	    (p = ndj_parse_plain(s, n)) == NULL)
		return;
	j = json_loadb(s, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	if (j == NULL)
		abort();	/* taken by the plain reader, refused by jansson */
	a = json_compact(p, &la);
	b = json_compact(j, &lb);
	if (la != lb || memcmp(a, b, la) != 0)
		abort();
	free(a);
	free(b);
	json_decref(p);
	json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fmemopen((void *)data, size, "r");
	struct ndj_reader r;
	json_t *rec, *back;
	char *msg, *s;
	size_t len;
	json_error_t e;

	plain_as_jansson((const char *)data, size);
	if (fp == NULL || size == 0) {
		if (fp)
			fclose(fp);
		return 0;
	}
	ndj_reader_init(&r, fp, "fuzz");
	for (;;) {
		rec = ndj_next_err(&r, &msg);
		if (rec == NULL) {
			free(msg);
			break;
		}
		s = json_compact(rec, &len);
		back = json_loadb(s, len, 0, &e);
		if (back == NULL || !json_equal(rec, back))
			abort();
		json_decref(back);
		free(s);
		json_decref(rec);
	}
	ndj_reader_close(&r);
	fclose(fp);
	return 0;
}
