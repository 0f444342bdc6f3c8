/*
 * added.h - the tries of the added tokens (added.c).  btok_compile builds
 * them and stores their tables in the image; btok_attach points at them
 * there (after checking them, when it checks the whole image); the encoder
 * only matches, so a trie is shared by every thread that encodes with its
 * tokenizer.
 */
#ifndef BTOK_ADDED_H
#define BTOK_ADDED_H

#include <stddef.h>
#include <stdint.h>

#include "btok.h"

struct btok_tedge { uint32_t node, child, byte; };

/* A trie over the bytes of some added tokens: edges in a hash table.  In an
   attached tokenizer every table is the image's (borrowed). */
struct btok_atrie {
	const struct btok_tedge *e;	/* ecap slots, child 0: empty */
	const uint32_t *term;		/* node -> index in t->added, BTOK_NONE */
	const unsigned char *first;	/* [256]: bytes some token starts with */
	uint32_t ecap, nnodes;		/* nnodes 1: no token (the root alone) */
	/* The bytes of first, when at most BTOK_NFIRST (set at attach): the
	   text between two of them is skipped many bytes at a time. */
	unsigned char fb[8];
	unsigned nfb;			/* BTOK_NFIRST + 1: more */
};
#define BTOK_NFIRST 8

/* The added tokens matched in the raw text, and those matched after the
   normaliser (BTOK_ADDED_NORMALIZED). */
struct btok_trie {
	struct btok_atrie raw, norm;
};

/* A trie being built: its tables malloc'd, the builder's. */
struct btok_tbuild {
	struct btok_tedge *e;
	uint32_t *term;
	uint32_t ecap, nnodes;
	unsigned char first[256];
};

/*
 * Build into tb the trie of t's added tokens whose NORMALIZED flag is want
 * (0 or BTOK_ADDED_NORMALIZED); t needs only h, pool, tok and added.
 * Allocation failure dies; btok_tbuild_free frees the tables.
 */
void btok_trie_build(struct btok_tbuild *tb, const struct btok *t, unsigned want);
void btok_tbuild_free(struct btok_tbuild *tb);

/*
 * 1 when the tables of tr can be matched safely: every edge's nodes below
 * nnodes, every terminal an index below nadded, and a free slot (or a probe
 * never ends).  Reads every slot.
 */
int btok_trie_ok(const struct btok_atrie *tr, uint32_t nadded);

/*
 * The longest added token of tr at s[0..n), n > 0: returns its length and
 * sets *which (its index in t->added), or returns 0.
 */
size_t btok_trie_match(const struct btok_atrie *tr, const unsigned char *s,
    size_t n, uint32_t *which);

#endif
