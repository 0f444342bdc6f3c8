/*
 * jsonscan.h - the bytes of a JSON string that need care, found eight at
 * a time: the JSON readers' plain runs (bctx's flat reader) and the
 * compact writer's (ndjson.c) share this test; and the decoding of an
 * escape that the readers which decode strings themselves (bctx's flat
 * and questions.json readers) share.
 */
#ifndef CTX_JSONSCAN_H
#define CTX_JSONSCAN_H

#include "swar.h"

/*
 * The bytes of the eight at p that are '"', '\\', below 0x20, or 0x7F
 * when del: a mask (swar.h) whose lowest mark is exact; the byte at p is
 * the least significant.  0: all eight are plain.  The index of the first
 * is jscan_first(mask).
 */
static inline uint64_t
jscan_special8(const char *p, int del)
{
	uint64_t x = swar_load(p), m;

	m = swar_below(x, 0x20) | swar_eq(x, '"') | swar_eq(x, '\\');
	if (del)
		m |= swar_eq(x, 0x7F);
	return m;
}

/* The index of the first byte a mask of jscan_special8 (not 0) marks. */
static inline size_t
jscan_first(uint64_t m)
{
	return swar_first(m);
}

/* The byte the one-character escape \c stands for, 0 when none. */
static inline char
jscan_escape(char c)
{
	switch (c) {
	case '"': return '"';
	case '\\': return '\\';
	case '/': return '/';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	}
	return 0;
}

/* The code point of the four hex digits at p (a \\u escape's) in *cp;
   -1 when one is not a hex digit. */
static inline int
jscan_hex4(const char *p, uint32_t *cp)
{
	int i, d;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -1;
		*cp = *cp << 4 | (uint32_t)d;
	}
	return 0;
}

/*
 * The same test on a wider block where the machine has one (SSE2: sixteen
 * bytes), else on eight: jscan_wide(p, del) marks the special bytes of the
 * JSCAN_WIDE at p, its lowest mark exact (0: all plain), jscan_wide_first
 * gives that mark's index, jscan_wide_high(p) is not 0 when a byte of
 * the block is not ASCII, and jscan_cont(p, n) is the number of UTF-8
 * continuation bytes (10xxxxxx) of p[0..n).  JSCAN_GENERIC defined before
 * this header takes the eight-byte path everywhere (its unit test does).
 */
#if defined(__SSE2__) && !defined(JSCAN_GENERIC)
#include <emmintrin.h>
#define JSCAN_WIDE 16
typedef unsigned jscan_wide_t;

static inline jscan_wide_t
jscan_wide(const char *p, int del)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), m;

	/* below 0x20: the unsigned minimum with 0x1F is the byte itself */
	m = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_min_epu8(x,
	    _mm_set1_epi8(0x1F)), x));
	if (del)
		m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7F)));
	return (jscan_wide_t)_mm_movemask_epi8(m);
}

static inline size_t
jscan_wide_first(jscan_wide_t m)
{
	return (size_t)__builtin_ctz(m);
}

static inline int
jscan_wide_high(const char *p)
{
	return _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)
	    p));
}

static inline size_t
jscan_cont(const char *p, size_t n)
{
	const __m128i lim = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
	__m128i acc, sad;
	size_t i = 0, cont = 0, j;

	while (n - i >= 16) {
		/* 0x80..0xBF are the signed bytes below -64: each a -1
		 * taken from a byte's count, 255 blocks at most */
		acc = zero;
		for (j = 0; j < 255 && n - i >= 16; j++, i += 16)
			acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(_mm_loadu_si128(
			    (const __m128i *)(const void *)(p + i)), lim));
		sad = _mm_sad_epu8(acc, zero);
		cont += (size_t)_mm_cvtsi128_si32(sad) +
		    (size_t)_mm_extract_epi16(sad, 4);
	}
	for (; i < n; i++)
		cont += ((unsigned char)p[i] & 0xC0) == 0x80;
	return cont;
}
#else
#define JSCAN_WIDE 8
typedef uint64_t jscan_wide_t;

static inline jscan_wide_t
jscan_wide(const char *p, int del)
{
	return jscan_special8(p, del);
}

static inline size_t
jscan_wide_first(jscan_wide_t m)
{
	return jscan_first(m);
}

static inline int
jscan_wide_high(const char *p)
{
	return swar_high(swar_load(p)) != 0;
}

static inline size_t
jscan_cont(const char *p, size_t n)
{
	size_t i, cont = 0;

	for (i = 0; i < n; i++)
		cont += ((unsigned char)p[i] & 0xC0) == 0x80;
	return cont;
}
#endif

#endif
