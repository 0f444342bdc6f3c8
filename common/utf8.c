/*
 * utf8.c - UTF-8 validation, decoding and repair (RFC 3629; replacement of
 * ill-formed subsequences as the WHATWG Encoding standard's decoder does).
 */
#include <string.h>

#include "buf.h"
#include "swar.h"
#include "utf8.h"

/*
 * Length of the well-formed sequence at s, or 0.  On failure *sub receives the
 * length of the maximal ill-formed subpart (at least 1), which is what one
 * U+FFFD replaces.
 */
static int
seq(const unsigned char *s, size_t n, uint32_t *cp, size_t *sub)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	int len, i;
	uint32_t v;

	*sub = 1;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2; v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; v = c & 0x0F;
		if (c == 0xE0) lo = 0xA0;
		if (c == 0xED) hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; v = c & 0x07;
		if (c == 0xF0) lo = 0x90;
		if (c == 0xF4) hi = 0x8F;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((size_t)i >= n || s[i] < lo || s[i] > hi)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
		lo = 0x80; hi = 0xBF;
		*sub = (size_t)i + 1;
	}
	*cp = v;
	return len;
}

/* The end of the run of ASCII bytes at s[i], eight bytes at a time. */
static size_t
ascii_run(const unsigned char *s, size_t n, size_t i)
{
	for (; i + 8 <= n; i += 8)
		if (swar_high(swar_load(s + i)) != 0)
			break;
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

/*
 * The length of the valid sequence of two or three bytes at s[i] whose
 * continuation bytes may be any of 80..BF (the lead bytes of most scripts,
 * tested inline), or 0: seq then tells the others and the errors.
 */
static inline int
short_seq(const unsigned char *s, size_t n, size_t i)
{
	unsigned c = s[i];

	if (c >= 0xC2 && c <= 0xDF && i + 1 < n && (s[i + 1] & 0xC0) == 0x80)
		return 2;
	if (c >= 0xE1 && c <= 0xEF && c != 0xED && i + 2 < n &&
	    (s[i + 1] & 0xC0) == 0x80 && (s[i + 2] & 0xC0) == 0x80)
		return 3;
	return 0;
}

int
utf8_valid(const char *str, size_t n, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, sub;
	uint32_t cp;
	int l;

	while (i < n) {
		if (s[i] < 0x80) {
			i = ascii_run(s, n, i);
			continue;
		}
		if ((l = short_seq(s, n, i))) {
			i += (size_t)l;
			continue;
		}
		l = seq(s + i, n - i, &cp, &sub);
		if (l == 0) {
			if (bad)
				*bad = i;
			return 0;
		}
		i += (size_t)l;
	}
	return 1;
}

int
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t sub;
	int l;

	if (n == 0) {
		*cp = 0xFFFD;
		return 0;
	}
	l = seq(s, n, cp, &sub);
	if (l == 0)
		*cp = 0xFFFD;
	return l;
}

int
ctx_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return 0;
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	if (cp > 0x10FFFF)
		return 0;
	o[0] = (unsigned char)(0xF0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t
utf8_count(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, count = 0, sub;
	uint32_t cp;
	int l;

	while (i < n) {
		if (s[i] < 0x80) {	/* one code point a byte */
			sub = ascii_run(s, n, i);
			count += sub - i;
			i = sub;
			continue;
		}
		l = seq(s + i, n - i, &cp, &sub);
		i += l ? (size_t)l : sub;
		count++;
	}
	return count;
}

char *
utf8_sanitize(const char *str, size_t n, size_t *outlen)
{
	const unsigned char *s = (const unsigned char *)str;
	struct buf b = BUF_INIT;
	size_t i = 0, start = 0, sub;
	uint32_t cp;
	int l;

	buf_grow(&b, n);
	while (i < n) {
		if (s[i] < 0x80) {
			i = ascii_run(s, n, i);
			continue;
		}
		if ((l = short_seq(s, n, i))) {
			i += (size_t)l;
			continue;
		}
		l = seq(s + i, n - i, &cp, &sub);
		if (l) {
			i += (size_t)l;
			continue;
		}
		buf_add(&b, s + start, i - start);
		buf_add(&b, "\xEF\xBF\xBD", 3);
		i += sub;
		start = i;
	}
	buf_add(&b, s + start, n - start);
	return buf_detach(&b, outlen);
}
