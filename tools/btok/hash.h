/*
 * hash.h - the hash functions baked into compiled images (changing them
 * changes BTOK_FORMAT): a word-at-a-time multiply/xor-shift hash for token
 * bytes and the splitmix64 finaliser for merge keys.
 */
#ifndef BTOK_HASH_H
#define BTOK_HASH_H

#include <stdint.h>
#include <string.h>

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

#endif
