/*
 * bmdprep_llms.c - libFuzzer target for bmdprep's llms.txt parsers: the
 * lenient parser must accept any bytes; the reference parser must either
 * raise (with a line inside the input) or give a structure whose
 * create_ctx() rendering is well formed; URL resolution must not crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bmdprep/llms.h"
#include "../../tools/bmdprep/llmsctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *
body(const struct bmd_link *lk, size_t *n, void *arg)
{
	static const char b[] = "# Doc\n<!-- c -->\ntext <b>x</b>\n"
	    "<img src=\"data:image/png;base64,AA\">\n";

	(void)lk;
	(void)arg;
	*n = sizeof b - 1;
	return b;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *txt = (const char *)data;
	struct bmd_llms *l;
	struct bmd_ref_error e;
	struct buf out = BUF_INIT;
	const struct bmd_link *missing = NULL;
	unsigned long lines = 1, llines = 1;	/* llines: CR ends a line too */
	size_t i, j;

	for (i = 0; i < size; i++) {
		lines += txt[i] == '\n';
		llines += txt[i] == '\n' ||
		    (txt[i] == '\r' && (i + 1 == size || txt[i + 1] != '\n'));
	}
	l = bmd_llms_parse(txt, size);
	if (!l)
		abort();
	bmd_llms_resolve(l, "https://fuzz.example.com/docs/llms.txt");
	for (i = 0; i < l->nsecs; i++)
		for (j = 0; j < l->secs[i].nlinks; j++)
			if (l->secs[i].links[j].line == 0 ||
			    l->secs[i].links[j].line > llines)
				abort();
	bmd_llms_free(l);

	l = bmd_llms_parse_ref(txt, size, &e);
	if (!l) {
		if (e.line == 0 || e.line > lines)
			abort();
		bmd_ref_error_free(&e);
		return 0;
	}
	for (i = 0; i < l->nsecs; i++)
		for (j = 0; j < l->secs[i].nlinks; j++)
			if (l->secs[i].links[j].title.len == 0 ||
			    l->secs[i].links[j].url.len == 0)
				abort();
	if (bmd_ctx_render(&out, l, 1, body, NULL, &missing) != 0)
		abort();
	if (out.len < 19 || memcmp(out.s, "<project title=", 15) != 0 ||
	    memcmp(out.s + out.len - 10, "</project>", 10) != 0)
		abort();
	buf_release(&out);
	bmd_llms_free(l);
	return 0;
}
