/*
 * bread_extract.c - libFuzzer target for bread's extractor: arbitrary bytes
 * as a page, with the first byte choosing the Content-Type and the options
 * (plain or Markdown, extraction or whole body).  Checks that the text is
 * valid UTF-8 without NUL and that its length is what was reported.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "../../tools/bread/bread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const types[] = {
		NULL, "text/html; charset=utf-8", "text/html; charset=iso-8859-1",
		"text/html; charset=gbk", "text/html; charset=shift_jis",
		"text/html; charset=utf-16", "text/html; charset=bogus", "text/html"
	};
	struct bread_opts o;
	struct bread_result r;
	unsigned sel = size ? data[0] : 0;

	if (size > 0) {
		data++;
		size--;
	}
	memset(&o, 0, sizeof o);
	o.style = (sel & 8) ? BREAD_MARKDOWN : BREAD_TEXT;
	o.whole = (sel & 16) != 0;
	bread_extract((const char *)data, size, types[sel & 7], &o, &r);
	if (r.text == NULL || r.title == NULL)
		abort();
	if (strlen(r.text) != r.text_len || !utf8_valid(r.text, r.text_len, NULL))
		abort();
	if (!utf8_valid(r.title, strlen(r.title), NULL))
		abort();
	bread_result_release(&r);
	return 0;
}
