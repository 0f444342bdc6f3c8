/*
 * words.c - gold_coverage: the share of a gold answer's distinct content
 * words that occur in an assembled content (spec 001 §7.1 L-IV-1, "keyword
 * overlap between conditions").  Words and content words as common/words.h
 * defines them.
 */
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "bctx.h"

double
bctx_gold_coverage(const char *gold, const char *text)
{
	struct wordset g = WORDSET_INIT, t = WORDSET_INIT;
	size_t i, hit = 0;
	double r = -1;

	words_add(&g, gold, strlen(gold), WORDS_CONTENT);
	if (g.n > 0) {
		words_add(&t, text, strlen(text), 0);
		for (i = 0; i < g.n; i++)
			if (wordset_count(&t, g.v[i].word) > 0)
				hit++;
		r = (double)hit / (double)g.n;
	}
	wordset_release(&g);
	wordset_release(&t);
	return r;
}
