/*
 * hash.h - the hash functions baked into compiled images (changing them
 * changes BTOK_FORMAT): a word-at-a-time multiply/xor-shift hash for token
 * bytes and the splitmix64 finaliser for merge keys; and the probes of an
 * image's two hash tables (vtab, mtab), inline because encode.c's inner
 * loop uses them.  Both tables are open addressing with linear probing and
 * at least one free slot (btok_attach checks it), so a probe ends.
 */
#ifndef BTOK_HASH_H
#define BTOK_HASH_H

#include <stdint.h>
#include <string.h>

#include "btok.h"

static inline uint64_t
btok_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static inline uint64_t
btok_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xff51afd7ed558ccdULL);
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	if (n) {
		uint64_t w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
	}
	return btok_mix64(h);
}

/* The model-vocabulary id of the bytes s[0..n), or BTOK_NONE. */
static inline uint32_t
btok_vtab_find(const struct btok *t, const char *s, size_t n)
{
	uint32_t m = t->h->vcap - 1, i = (uint32_t)btok_hash(s, n) & m;
	for (;; i = (i + 1) & m) {
		uint32_t id = t->vtab[i];
		if (id == BTOK_NONE)
			return BTOK_NONE;
		if (t->tok[id].len == n && memcmp(t->pool + t->tok[id].off, s, n) == 0)
			return id;
	}
}

/* The merge of key = a << 32 | b, the pair of ids (a, b), whose
   btok_mix64 is hv; or NULL. */
static inline const struct btok_merge *
btok_mtab_find_h(const struct btok *t, uint64_t key, uint64_t hv)
{
	uint32_t m = t->h->mcap - 1, i = (uint32_t)hv & m;
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

	return btok_mtab_find_h(t, key, btok_mix64(key));
}

#endif
