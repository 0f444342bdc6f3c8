/*
 * hashing.h - the toolkit's one hash of bytes and one 64-bit mixer, inline
 * because lookup loops call them (common/words.c's string set, btok's
 * encoder).  btok's compiled images store these hashes (tools/btok/hash.h),
 * so neither may change without a new BTOK_FORMAT.
 */
#ifndef CTX_HASHING_H
#define CTX_HASHING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64's finaliser: every output bit depends on every input bit. */
static inline uint64_t
ctx_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * The hash of p[0..n): eight bytes a step, multiplied in and folded; the
 * last one to eight bytes read as one word (two overlapping halves of
 * four, or three single bytes: no copy of a variable length, which is a
 * call); the length taken in first; then ctx_mix64, so that the low bits a
 * table uses depend on every byte.
 */
static inline uint64_t
ctx_hash(const void *p, size_t n)
{
	const unsigned char *u = p;
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xff51afd7ed558ccdULL), w;

	for (; n > 8; u += 8, n -= 8) {
		memcpy(&w, u, 8);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
		h ^= h >> 29;
	}
	if (n == 8)
		memcpy(&w, u, 8);
	else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, u, 4);
		memcpy(&b, u + n - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (n > 0)
		w = (uint64_t)u[0] << 16 | (uint64_t)u[n >> 1] << 8 | u[n - 1];
	else
		w = 0;
	return ctx_mix64((h ^ w) * 0x9fb21c651e98df25ULL);
}

#endif
