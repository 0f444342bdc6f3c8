/*
 * words.h - what a word is, once for the whole toolkit: the tokenisation
 * and the stop-word list that gold coverage (bctx), the A<->B parity measure
 * (bctx), the extractive engine (binfer) and the scoring hints
 * (bscore-merge) share, so that they cannot disagree on the same text.
 *
 * A word is a maximal run of Unicode letters, combining marks and digits
 * (general categories L*, Mn, Mc, Nd, Nl, No), lower-cased with utf8proc's
 * simple case mapping.  Everything else separates words, the underscore
 * included ("max_tokens" is "max" and "tokens"); an invalid UTF-8 byte
 * separates too.  A content word is a word that is not a stop word and has
 * at least two characters, or consists of digits only ("2", "42").
 *
 * Two optional normalisations, each one consumer's matching rule:
 * WORDS_STEM removes a final plural "s" from a word of four characters or
 * more not ending in "ss" (the extractive engine), WORDS_PREFIX5 keeps the
 * first five characters (the hints' prefix match).
 */
#ifndef CTX_WORDS_H
#define CTX_WORDS_H

#include <stddef.h>

#define WORDS_CONTENT	0x1	/* content words only */
#define WORDS_STEM	0x2	/* drop a final plural "s" */
#define WORDS_PREFIX5	0x4	/* keep the first five characters */

/*
 * A multiset of words in first-insertion order: word i is v[i].word with
 * v[i].count occurrences.  Zero-initialise or use WORDSET_INIT; release
 * with wordset_release.  Lookups are hashed: adding n words is O(n).
 */
struct wordent {
	char *word;		/* NUL-terminated, owned by the set */
	size_t len;
	size_t count;
};
struct wordset {
	struct wordent *v;
	size_t n, cap;		/* distinct words */
	size_t total;		/* sum of the counts */
	size_t *tab;		/* open addressing: index + 1, 0 empty */
	size_t tabcap;		/* a power of two, or 0 */
};
#define WORDSET_INIT { NULL, 0, 0, 0, NULL, 0 }

void wordset_release(struct wordset *ws);
/* Add one occurrence of w[0..len); returns the word's count after it. */
size_t wordset_add(struct wordset *ws, const char *w, size_t len);
/* Occurrences of the NUL-terminated w (0 when absent). */
size_t wordset_count(const struct wordset *ws, const char *w);
/*
 * Position + 1 of w[0..len) (any bytes, NULs included) in ws's insertion
 * order, or 0 when absent: a hashed index of strings for any caller.
 */
size_t wordset_find(const struct wordset *ws, const char *w, size_t len);

/*
 * Add the words of text[0..len) (any bytes; not NUL-terminated) to ws,
 * filtered and normalised by flags (WORDS_*).  Returns how many were added.
 */
size_t words_add(struct wordset *ws, const char *text, size_t len, int flags);

/* 1 when code point c belongs to a word (the categories above). */
int words_is_char(long c);

/* 1 when the lower-case word w is on the stop list. */
int words_is_stop(const char *w);

#endif
