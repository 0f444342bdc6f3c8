/*
 * jsonscan.h - the bytes of a JSON string that need care, found eight at
 * a time: the JSON readers' plain runs (bctx's flat reader) and the
 * compact writer's (ndjson.c) share this test.
 */
#ifndef CTX_JSONSCAN_H
#define CTX_JSONSCAN_H

#include <stdint.h>
#include <string.h>

#define JSCAN_ONES ((uint64_t)0x0101010101010101ULL)
#define JSCAN_HIGHS ((uint64_t)0x8080808080808080ULL)
/* High bits of the zero bytes of y, and of some after the first (Hacker's
 * Delight 6-1: a borrow moves up, never down). */
#define JSCAN_ZERO8(y) (((y) - JSCAN_ONES) & ~(y))

/*
 * The bytes of the eight at p that are '"', '\\', below 0x20, or 0x7F
 * when del: a mask with the high bit of each such byte set and perhaps of
 * some after the first, so that its lowest set bit is exact; the byte at
 * p is the least significant.  0: all eight are plain.  The index of the
 * first is jscan_first(mask).
 */
static inline uint64_t
jscan_special8(const char *p, int del)
{
	uint64_t x, m;

	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	m = ((x - JSCAN_ONES * 0x20) & ~x) | JSCAN_ZERO8(x ^ (JSCAN_ONES * '"')) |
	    JSCAN_ZERO8(x ^ (JSCAN_ONES * '\\'));
	if (del)
		m |= JSCAN_ZERO8(x ^ (JSCAN_ONES * 0x7F));
	return m & JSCAN_HIGHS;
}

/* The index of the first byte a mask of jscan_special8 (not 0) marks. */
static inline size_t
jscan_first(uint64_t m)
{
	return (size_t)__builtin_ctzll(m) >> 3;
}

#endif
