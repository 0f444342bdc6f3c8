/*
 * bfetch_classify.c - libFuzzer target for bfetch's response classification
 * (tools/bfetch/classify.c): the libxml2 visible-text count, the WAF
 * signatures over headers and body, and the Markdown-is-HTML sniffing.
 * The first byte picks the status and kind; the input is split at the first
 * NUL into headers ("name: value" lines) and body.  Invariants: a verdict
 * other than SUCCESS has a reason; only 2xx responses are stored.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bfetch/bfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long statuses[] = { 200, 403, 429, 503, 404, 204, 500, 201 };
	const char *h, *b;
	size_t hl, bl;
	const uint8_t *nul;
	struct bfetch_verdict v;
	long st;
	enum bfetch_kind kind;
	int shell;
	unsigned char sel;

	if (size < 1 || size > 65536)
		return 0;
	sel = data[0];
	st = statuses[sel & 7];
	kind = (enum bfetch_kind)((sel >> 3) % 3);
	data++;
	size--;
	nul = memchr(data, 0, size);
	h = (const char *)data;
	hl = nul ? (size_t)(nul - data) : 0;
	b = nul ? (const char *)nul + 1 : (const char *)data;
	bl = nul ? size - hl - 1 : size;
	v = bfetch_classify_response(kind, st, (sel & 0x80) ? "text/html" : NULL,
	    h, hl, b, bl, 50);
	assert(v.status == BF_SUCCESS || v.reason != NULL);
	assert(!v.store || (st >= 200 && st <= 299));
	free(v.reason);
	(void)bfetch_visible_chars(b, bl, &shell);
	free(bfetch_header(h, hl, "retry-after"));
	return 0;
}
