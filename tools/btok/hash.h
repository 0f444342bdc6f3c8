/*
 * hash.h - the hash functions baked into compiled images (changing them
 * changes BTOK_FORMAT): common/hashing.h's ctx_hash for token bytes and
 * ctx_mix64; two multiplications for the pairs of ids of the merges; the
 * pair filter's bits; and the probes of an image's two hash tables (vtab,
 * mtab), inline because encode.c's inner loop uses them.  Both tables are
 * open addressing with linear probing and at least one free slot
 * (btok_attach checks it), so a probe ends.
 */
#ifndef BTOK_HASH_H
#define BTOK_HASH_H

#include <stdint.h>
#include <string.h>

#include "btok.h"
#include "hashing.h"

/* The model-vocabulary id of the bytes s[0..n), whose ctx_hash is hv, or
   BTOK_NONE. */
static inline uint32_t
btok_vtab_find_h(const struct btok *t, const char *s, size_t n, uint64_t hv)
{
	uint32_t m = t->h->vcap - 1, i = (uint32_t)hv & m, fp = BTOK_VSLOT(0, hv);
	for (;; i = (i + 1) & m) {
		uint32_t v = t->vtab[i], id = BTOK_VID(v);
		if (v == BTOK_NONE)
			return BTOK_NONE;
		if ((v & ~0xFFFFFFu) == fp && t->tok[id].len == n &&
		    memcmp(t->pool + t->tok[id].off, s, n) == 0)
			return id;
	}
}

/* The model-vocabulary id of the bytes s[0..n), or BTOK_NONE. */
static inline uint32_t
btok_vtab_find(const struct btok *t, const char *s, size_t n)
{
	return btok_vtab_find_h(t, s, n, ctx_hash(s, n));
}

/*
 * The hash of the pair of ids (a, b): two multiplications, whose high bits
 * depend on every bit of both ids (the merges table takes its slot from
 * bits 32 and up, encode.c's pair cache from the top).  A pair is hashed at
 * every lookup of the merges, so it costs a third of ctx_mix64.
 */
static inline uint64_t
btok_pair_hash(uint32_t a, uint32_t b)
{
	return (uint64_t)a * 0x9E3779B97F4A7C15ULL ^
	    (uint64_t)b * 0xC2B2AE3D27D4EB4FULL;
}

/* btok_pair_hash of the pair whose merges-table key is key (a << 32 | b). */
static inline uint64_t
btok_key_hash(uint64_t key)
{
	return btok_pair_hash((uint32_t)(key >> 32), (uint32_t)key);
}

/*
 * The pair filter of an image: a blocked Bloom filter of the pairs of its
 * merges table.  The pair whose btok_pair_hash is hv has the two bits
 * BTOK_PF_BITS(hv) of word BTOK_PF_WORD(hv, npf - 1); a pair with a merge
 * has both set.  Most pairs a piece not seen before asks for have no merge,
 * and the filter, of a few hundred kilobytes, tells most of them in one
 * read, where the merges table is megabytes and the pair cache a megabyte.
 * At least 8 bits a pair (btok_pf_words): of the pairs without a merge,
 * one in twenty or fewer passes (1.5 to 5 % on the bench's text).
 */
#define BTOK_PF_WORD(hv, m) ((uint32_t)((hv) >> 40) & (m))
#define BTOK_PF_BITS(hv) ((uint64_t)1 << ((hv) >> 20 & 63) | \
    (uint64_t)1 << ((hv) >> 26 & 63))

/* Words of the pair filter of n pairs: a power of two. */
static inline uint32_t
btok_pf_words(uint32_t n)
{
	uint32_t w = 1;

	while ((uint64_t)w * 64 < (uint64_t)n * 8)
		w *= 2;
	return w;
}

/* The pair whose btok_pair_hash is hv passes the filter pf of m + 1
   words: it may have a merge. */
static inline int
btok_pf_has(const uint64_t *pf, uint32_t m, uint64_t hv)
{
	uint64_t bits = BTOK_PF_BITS(hv);

	return (pf[BTOK_PF_WORD(hv, m)] & bits) == bits;
}

/* The first slot of a merge whose btok_pair_hash is hv in a merges table
   of m + 1 slots: the first of its group of four, which share a cache
   line. */
#define BTOK_MSLOT(hv, m) ((uint32_t)((hv) >> 32) & (m) & ~3u)

/* The merge of key = a << 32 | b, the pair of ids (a, b), whose
   btok_pair_hash is hv; or NULL. */
static inline const struct btok_merge *
btok_mtab_find_h(const struct btok *t, uint64_t key, uint64_t hv)
{
	uint32_t m = t->h->mcap - 1, i = BTOK_MSLOT(hv, m);
	for (;; i = (i + 1) & m) {
		if (t->mtab[i].key == key)
			return &t->mtab[i];
		if (t->mtab[i].key == UINT64_MAX)
			return NULL;
	}
}

/* The merge of the pair of ids (a, b), or NULL. */
static inline const struct btok_merge *
btok_mtab_find(const struct btok *t, uint32_t a, uint32_t b)
{
	uint64_t key = (uint64_t)a << 32 | b;

	return btok_mtab_find_h(t, key, btok_pair_hash(a, b));
}

#endif
