/*
 * bctx_parity.c - libFuzzer target for the A<->B parity measure
 * (tools/bctx/parity.c) over common/words.c and common/mdcode.c: the input
 * is split at its first NUL (or in half) into the two contents.  Invariants
 * checked: every share is -1 or within 0..1; a content compared with
 * itself has word shares of 1 (or -1 without content words) and code
 * shares of 1 or -1, fact shares of 1 or -1, no changed fact and no drift;
 * drift is set when a fact changed, and only then or when a fact share
 * is below the threshold; the code-line classifier gives a class to every line.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "ctx.h"
#include "mdcode.h"
#include "words.h"
#include "../../tools/bctx/bctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
share_ok(double v)
{
	return v == -1 || (v >= 0 && v <= 1);
}

static int
below(double v)
{
	return v >= 0 && v < BCTX_FACTS_MIN;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nul;
	size_t alen, boff, pos, zero = 0;
	struct bctx_parity p;
	struct md_code st = MD_CODE_INIT;

	if (size > 65536)
		return 0;
	nul = memchr(s, '\0', size);
	alen = nul ? (size_t)(nul - s) : size / 2;
	boff = nul ? alen + 1 : alen;
	bctx_parity(s, alen, s + boff, size - boff, &zero, 1,
	    "By default 3 requests (warmup_prompt_count) of 128 tokens.", &p);
	assert(share_ok(p.b_in_a) && share_ok(p.a_in_b));
	assert(share_ok(p.code_b_in_a) && share_ok(p.code_a_in_b));
	assert(share_ok(p.facts_b_in_a) && share_ok(p.facts_a_in_b));
	assert(!p.drift || p.nchanged > 0 || below(p.facts_b_in_a) ||
	    below(p.facts_a_in_b));
	assert(p.nchanged == 0 || p.drift);
	assert(json_array_size(p.changed) == (p.nchanged < BCTX_FACTS_SHOWN ?
	    p.nchanged : BCTX_FACTS_SHOWN));
	bctx_parity_release(&p);
	bctx_parity(s, alen, s, alen, &zero, 1, NULL, &p);
	assert(p.b_in_a == -1 || p.b_in_a == 1);
	assert(p.a_in_b == p.b_in_a);
	assert(p.code_b_in_a == -1 || p.code_b_in_a == 1);
	bctx_parity_release(&p);
	for (pos = 0; pos < size;) {
		const char *nl = memchr(s + pos, '\n', size - pos);
		size_t e = nl ? (size_t)(nl - s) : size, body;
		enum md_line c = md_code_line(&st, s + pos, e - pos, &body);

		assert(c <= MD_CODE && body <= e - pos);
		pos = e + 1;
	}
	return 0;
}
