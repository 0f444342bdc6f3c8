/*
 * bmdprep_md.c - libFuzzer target for bmdprep's Markdown preparation and the
 * reference line filter: any bytes give valid UTF-8 with LF line ends, no
 * more blank lines in a row than allowed (outside code, which keeps its
 * blank lines: checked on inputs that cannot hold code), one final
 * newline, and the filter's output never holds a line that is only an HTML
 * comment.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bmdprep/mdprep.h"
#include "../../tools/bmdprep/llmsctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bmd_mdopts o;
	char *p;
	size_t n, i, run = 0, start;
	/* fences (` ~), indented code (a tab, four spaces) */
	int code = memchr(data, '`', size) || memchr(data, '~', size) ||
	    memchr(data, '\t', size) || memmem(data, size, "    ", 4);

	bmd_mdopts_default(&o);
	if (size > 0)
		o.max_blank = data[0] % 4;
	p = bmd_md_prepare((const char *)data, size, &o, &n);
	if (!utf8_valid(p, n, NULL) || memchr(p, '\r', n) || memchr(p, '\0', n))
		abort();
	if (n > 0 && (p[n - 1] != '\n' || p[0] == '\n'))
		abort();
	for (i = 0; i < n && !code; i++) {
		run = p[i] == '\n' ? run + 1 : 0;
		if (run > (size_t)o.max_blank + 1)
			abort();
	}
	free(p);

	p = bmd_ctx_doc_text((const char *)data, size, &n);
	if (!utf8_valid(p, n, NULL))
		abort();
	for (start = 0, i = 0; i <= n; i++)
		if (i == n || p[i] == '\n') {
			size_t l = i - start;

			if (l >= 7 && memcmp(p + start, "<!--", 4) == 0 &&
			    memcmp(p + i - 3, "-->", 3) == 0)
				abort();
			start = i + 1;
		}
	free(p);
	return 0;
}
