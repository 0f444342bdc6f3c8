/*
 * words.c - the toolkit's one definition of a word and of a stop word (see
 * words.h), and a hashed multiset of words.
 *
 * The stop list is the union of the three lists that gold coverage, the
 * extractive engine and the scoring hints used to keep apart: English
 * function words, plus the framing words of documentation questions ("use",
 * "according", "documentation", "describe" ...) that say nothing about the
 * answer.  Number words ("one", "two", "three") are not on it: a spelled
 * number is a fact, as its digits are.
 */
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "buf.h"
#include "err.h"
#include "hashing.h"
#include "words.h"

/* Sorted (strcmp order) for bsearch. */
static const char *const stopwords[] = {
	"a", "about", "above", "according", "after", "again", "against", "all",
	"also", "am", "an", "and", "any", "are", "as", "at", "be", "because",
	"been", "before", "being", "below", "between", "both", "but", "by", "can",
	"could", "describe", "described", "did", "do", "docs", "documentation",
	"does", "doing", "done", "down", "during", "each", "either", "explain",
	"few", "for", "from", "further", "had", "has", "have", "having", "he",
	"her", "here", "hers", "him", "his", "how", "however", "i", "if", "in",
	"instead", "into", "is", "it", "its", "itself", "just", "like", "may",
	"me", "might", "more", "most", "must", "my", "no", "nor", "not", "now",
	"of", "off", "on", "once", "only", "onto", "or", "other", "our", "ours",
	"out", "over", "own", "per", "same", "shall", "she", "should", "so",
	"some", "such", "than", "that", "the", "their", "theirs", "them", "then",
	"there", "these", "they", "this", "those", "through", "thus", "to", "too",
	"under", "until", "up", "upon", "us", "use", "used", "uses", "using",
	"very", "via", "was", "we", "well", "were", "what", "when", "where",
	"whether", "which", "while", "who", "whom", "why", "will", "with",
	"within", "without", "would", "you", "your", "yours"
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(a, *(const char *const *)b);
}

int
words_is_stop(const char *w)
{
	return bsearch(w, stopwords, sizeof stopwords / sizeof stopwords[0],
	    sizeof stopwords[0], cmp_str) != NULL;
}

/* ---------------------------------------------------------------- the set */

/* Slot of w in the table: its own, or the empty one where it would go.
   Keys are URLs and words of tens of bytes, hashed at every lookup:
   ctx_hash takes eight bytes a step (a byte a step, FNV-1a, was a tenth
   of bctx assemble's time on small inputs). */
static size_t
slot(const struct wordset *ws, const char *w, size_t len)
{
	size_t m = ws->tabcap - 1, i = (size_t)ctx_hash(w, len) & m;

	while (ws->tab[i] != 0) {
		const struct wordent *e = &ws->v[ws->tab[i] - 1];

		if (e->len == len && memcmp(e->word, w, len) == 0)
			break;
		i = (i + 1) & m;
	}
	return i;
}

static void
rehash(struct wordset *ws)
{
	size_t i;

	free(ws->tab);
	ws->tabcap = ws->tabcap ? ws->tabcap * 2 : 64;
	ws->tab = xcalloc(ws->tabcap, sizeof *ws->tab);
	for (i = 0; i < ws->n; i++)
		ws->tab[slot(ws, ws->v[i].word, ws->v[i].len)] = i + 1;
}

size_t
wordset_add(struct wordset *ws, const char *w, size_t len)
{
	size_t i;

	if (2 * (ws->n + 1) > ws->tabcap)
		rehash(ws);
	i = slot(ws, w, len);
	ws->total++;
	if (ws->tab[i] != 0)
		return ++ws->v[ws->tab[i] - 1].count;
	if (ws->n == ws->cap) {
		ws->cap = ws->cap ? 2 * ws->cap : 16;
		ws->v = xreallocarray(ws->v, ws->cap, sizeof *ws->v);
	}
	ws->v[ws->n].word = xstrndup(w, len);
	ws->v[ws->n].len = len;
	ws->v[ws->n].count = 1;
	ws->tab[i] = ++ws->n;
	return 1;
}

size_t
wordset_find(const struct wordset *ws, const char *w, size_t len)
{
	if (ws->tabcap == 0)
		return 0;
	return ws->tab[slot(ws, w, len)];
}

size_t
wordset_count(const struct wordset *ws, const char *w)
{
	size_t i = wordset_find(ws, w, strlen(w));

	return i ? ws->v[i - 1].count : 0;
}

void
wordset_release(struct wordset *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->v[i].word);
	free(ws->v);
	free(ws->tab);
	memset(ws, 0, sizeof *ws);
}

/* ---------------------------------------------------------------- words */

int
words_is_char(long c)
{
	if (c < 0 || c > 0x10FFFF)
		return 0;
	switch (utf8proc_category(c)) {
	case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
	case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC:
		return 1;
	default:
		return 0;
	}
}

/* Filter and normalise the word w (nchars characters), then add it. */
static size_t
add_word(struct wordset *ws, struct buf *w, size_t nchars, int digits,
    int flags)
{
	size_t len = w->len;
	char *s = w->s;

	if ((flags & WORDS_CONTENT) && ((nchars < 2 && !digits) ||
	    words_is_stop(s)))
		return 0;
	if ((flags & WORDS_STEM) && nchars > 3 && s[len - 1] == 's' &&
	    s[len - 2] != 's')
		len--;
	if ((flags & WORDS_PREFIX5) && nchars > 5) {
		size_t i = 0, k;

		/* the byte length of the first five characters */
		for (k = 0; k < 5; k++)
			do
				i++;
			while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80);
		len = i;
	}
	wordset_add(ws, s, len);
	return 1;
}

size_t
words_add(struct wordset *ws, const char *text, size_t len, int flags)
{
	struct buf w = BUF_INIT;
	size_t i = 0, nchars = 0, added = 0;
	int digits = 1;

	for (;;) {
		utf8proc_int32_t c = 0;
		utf8proc_ssize_t r = 1;
		int word = 0;

		if (i < len) {
			r = utf8proc_iterate((const utf8proc_uint8_t *)text + i,
			    (utf8proc_ssize_t)(len - i), &c);
			if (r <= 0) {
				r = 1;
				c = 0xFFFD;
			}
			word = words_is_char(c);
		}
		if (word) {
			utf8proc_uint8_t tmp[4];
			utf8proc_ssize_t n = utf8proc_encode_char(
			    utf8proc_tolower(c), tmp);

			buf_add(&w, tmp, (size_t)n);
			nchars++;
			if (utf8proc_category(c) != UTF8PROC_CATEGORY_ND)
				digits = 0;
		} else if (w.len > 0) {
			added += add_word(ws, &w, nchars, digits, flags);
			buf_reset(&w);
			nchars = 0;
			digits = 1;
		}
		if (i >= len)
			break;
		i += (size_t)r;
	}
	buf_release(&w);
	return added;
}
