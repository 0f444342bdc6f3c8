/*
 * added.h - the tries of the added tokens (added.c).  btok_attach builds
 * them from the image; the encoder only matches, so a trie is shared by
 * every thread that encodes with its tokenizer.
 */
#ifndef BTOK_ADDED_H
#define BTOK_ADDED_H

#include <stddef.h>
#include <stdint.h>

#include "btok.h"

struct btok_tedge { uint32_t node, child, byte; };

/* A trie over the bytes of some added tokens: edges in a hash table. */
struct btok_atrie {
	struct btok_tedge *e;	/* ecap slots, child 0: empty */
	uint32_t ecap, nnodes;	/* nnodes 1: no token (the root alone) */
	uint32_t *term;		/* node -> index in t->added, BTOK_NONE */
	unsigned char first[256];	/* bytes some token starts with */
};

/* The added tokens matched in the raw text, and those matched after the
   normaliser (BTOK_ADDED_NORMALIZED). */
struct btok_trie {
	struct btok_atrie raw, norm;
};

/* Build both tries of t's added tokens into tr (which the caller owns). */
void btok_trie_build(struct btok_trie *tr, const struct btok *t);
/* Free what btok_trie_build allocated (not tr itself). */
void btok_trie_free(struct btok_trie *tr);

/*
 * The longest added token of tr at s[0..n), n > 0: returns its length and
 * sets *which (its index in t->added), or returns 0.
 */
size_t btok_trie_match(const struct btok_atrie *tr, const unsigned char *s,
    size_t n, uint32_t *which);

#endif
