/*
 * swar.h - byte tests on eight bytes at once in one 64-bit word (SIMD
 * within a register), the one set the scanners share: the JSON readers
 * and writer (jsonscan.h), bread's text and comma runs, btok's space
 * count, the UTF-8 checker and bmdprep's line scan.
 *
 * A word is loaded with swar_load so that the byte at p is the least
 * significant on every machine.  A mask sets the high bit (0x80) of each
 * byte it marks.  swar_eq and swar_below, after Hacker's Delight 6-1, may
 * also mark some bytes after the first one they mean (a borrow moves up,
 * never down): their lowest mark is exact, so a nonzero test or
 * swar_first is right, a count is not.  swar_eq_exact marks only the bytes
 * it means, for swar_count.
 */
#ifndef CTX_SWAR_H
#define CTX_SWAR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SWAR_ONES ((uint64_t)0x0101010101010101ULL)
#define SWAR_HIGHS ((uint64_t)0x8080808080808080ULL)

/* The eight bytes at p, p[0] the least significant. */
static inline uint64_t
swar_load(const void *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The bytes of w that are 0x80 or above. */
static inline uint64_t
swar_high(uint64_t w)
{
	return w & SWAR_HIGHS;
}

/* The bytes of w below c (c at most 0x80); lowest mark exact. */
static inline uint64_t
swar_below(uint64_t w, unsigned char c)
{
	return (w - SWAR_ONES * c) & ~w & SWAR_HIGHS;
}

/* The bytes of w equal to c; lowest mark exact. */
static inline uint64_t
swar_eq(uint64_t w, unsigned char c)
{
	return swar_below(w ^ (SWAR_ONES * c), 1);
}

/*
 * The bytes of w equal to c, each exactly: a byte of v = w ^ c is zero
 * where w holds c, and its high bit is then the only one of its byte that
 * survives ((v & 7f) + 7f) | v | 7f, negated.  No carry crosses a byte.
 */
static inline uint64_t
swar_eq_exact(uint64_t w, unsigned char c)
{
	const uint64_t lo7 = SWAR_ONES * 0x7F;
	uint64_t v = w ^ (SWAR_ONES * c);

	return ~(((v & lo7) + lo7) | v | lo7);
}

/* The index of the byte of the lowest mark of m (not 0). */
static inline size_t
swar_first(uint64_t m)
{
	return (size_t)__builtin_ctzll(m) >> 3;
}

/* The number of marks of an exact mask: one bit per byte at its bottom,
   their sum gathered in the top byte. */
static inline size_t
swar_count(uint64_t m)
{
	return (size_t)((((m >> 7) * SWAR_ONES)) >> 56);
}

#endif
