/*
 * utf8.h - UTF-8 validation and decoding (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF).
 */
#ifndef CTX_UTF8_H
#define CTX_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Return 1 when s[0..n) is valid UTF-8, else 0 and *bad (if not NULL) set to
 * the byte offset of the first invalid sequence.  NUL bytes are valid UTF-8;
 * callers that forbid them check separately.
 */
int utf8_valid(const char *s, size_t n, size_t *bad);

/*
 * Decode one code point at s (n bytes available).  Returns its length in
 * bytes (1-4) and stores it in *cp; returns 0 for an invalid or truncated
 * sequence (and *cp = 0xFFFD).
 */
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * Encode cp into out (at least 4 bytes); returns the length, 0 if invalid.
 * The function's symbol is ctx_utf8_encode: jansson's static archive, which
 * btok links, defines a utf8_encode of its own.
 */
int ctx_utf8_encode(uint32_t cp, char *out);

static inline int
utf8_encode(uint32_t cp, char *out)
{
	return ctx_utf8_encode(cp, out);
}

/* Number of code points in a valid UTF-8 string (invalid bytes count 1). */
size_t utf8_count(const char *s, size_t n);

/*
 * Copy s into a new malloc'd string with every invalid sequence replaced by
 * U+FFFD (the WHATWG decoder's maximal-subpart rule).  *outlen receives the length.
 */
char *utf8_sanitize(const char *s, size_t n, size_t *outlen);

#endif
