/*
 * pyuni.h - the few pieces of CPython's string semantics that the llms.txt
 * reference implementation (AnswerDotAI/llms-txt, Python) relies on, over
 * UTF-8 byte strings: the whitespace class of `re`'s \s and str.strip()
 * (Py_UNICODE_ISSPACE), str.splitlines() line boundaries, and str.lower()
 * (full lowercase mapping with U+0130 and the final-sigma rule).
 *
 * Every function takes (s, n) byte ranges; strings need not be
 * NUL-terminated.  Positions are byte offsets.  Input is expected to be
 * valid UTF-8 (the reference only sees decoded text); an invalid byte is
 * treated as one non-space code point.
 */
#ifndef BMD_PYUNI_H
#define BMD_PYUNI_H

#include <stddef.h>
#include <stdint.h>

/* 1 when cp is whitespace for Python (str.isspace, re's \s). */
int bmd_py_isspace(uint32_t cp);

/* Length in bytes of the whitespace code point at s[i], 0 when none. */
size_t bmd_py_space_len(const char *s, size_t n, size_t i);

/* First position >= i (and <= n) that is not Python whitespace. */
size_t bmd_py_skip_space(const char *s, size_t n, size_t i);

/* str.strip(): *b and *e delimit s[0..n) without leading/trailing whitespace. */
void bmd_py_strip(const char *s, size_t n, size_t *b, size_t *e);

/*
 * Length of the line boundary of str.splitlines() at s[i] (\n, \r, \r\n,
 * \v, \f, \x1c, \x1d, \x1e, U+0085, U+2028, U+2029), 0 when none.
 */
size_t bmd_py_linebreak_len(const char *s, size_t n, size_t i);

/* str.lower() of s[0..n) appended to a new malloc'd string; *outlen set. */
char *bmd_py_lower(const char *s, size_t n, size_t *outlen);

#endif
