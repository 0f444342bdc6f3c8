/*
 * pyuni.c - CPython string semantics needed to reproduce the llms.txt
 * reference implementation byte for byte (see pyuni.h).  The whitespace set
 * is CPython's Py_UNICODE_ISSPACE (Objects/unicodetype_db.h), the line
 * boundaries those of str.splitlines(), and lower() follows
 * Objects/unicodeobject.c: full case mapping (U+0130 lowers to two code
 * points) and handle_capital_sigma() for U+03A3.  Case data comes from
 * utf8proc.
 */
#include <string.h>
#include <utf8proc.h>

#include "ctx.h"
#include "pyuni.h"
#include "utf8.h"

int
bmd_py_isspace(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x20);
	switch (cp) {
	case 0x85: case 0xa0: case 0x1680: case 0x2028: case 0x2029:
	case 0x202f: case 0x205f: case 0x3000:
		return 1;
	default:
		return cp >= 0x2000 && cp <= 0x200a;
	}
}

/* Decode at s[i]; invalid bytes decode as a 1-byte non-character. */
static size_t
dec(const char *s, size_t n, size_t i, uint32_t *cp)
{
	int l = utf8_decode((const unsigned char *)s + i, n - i, cp);

	if (l <= 0) {
		*cp = 0xfffe;
		return 1;
	}
	return (size_t)l;
}

size_t
bmd_py_space_len(const char *s, size_t n, size_t i)
{
	unsigned char c;
	uint32_t cp;
	size_t l;

	if (i >= n)
		return 0;
	c = (unsigned char)s[i];
	if (c < 0x80)
		return ((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20)) ? 1 : 0;
	l = dec(s, n, i, &cp);
	return bmd_py_isspace(cp) ? l : 0;
}

size_t
bmd_py_skip_space(const char *s, size_t n, size_t i)
{
	size_t l;

	while (i < n && (l = bmd_py_space_len(s, n, i)) > 0)
		i += l;
	return i;
}

void
bmd_py_strip(const char *s, size_t n, size_t *b, size_t *e)
{
	size_t i = bmd_py_skip_space(s, n, 0), j = n;

	while (j > i) {
		size_t k = j - 1;

		/* back to the start of the code point ending at j */
		while (k > i && ((unsigned char)s[k] & 0xc0) == 0x80 && j - k < 4)
			k--;
		if (bmd_py_space_len(s, j, k) != j - k)
			break;
		j = k;
	}
	*b = i;
	*e = j;
}

size_t
bmd_py_linebreak_len(const char *s, size_t n, size_t i)
{
	unsigned char c, d;

	if (i >= n)
		return 0;
	c = (unsigned char)s[i];
	if (c == '\r')
		return (i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
	if (c == '\n' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d ||
	    c == 0x1e)
		return 1;
	if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0x85)
		return 2;
	if (c == 0xe2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80) {
		d = (unsigned char)s[i + 2];
		if (d == 0xa8 || d == 0xa9)
			return 3;
	}
	return 0;
}

/* Unicode "Cased" (Lu, Ll, Lt, or with a case mapping). */
static int
is_cased(uint32_t cp)
{
	utf8proc_category_t cat;

	if (cp > 0x10ffff)
		return 0;
	cat = utf8proc_category((utf8proc_int32_t)cp);
	if (cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL ||
	    cat == UTF8PROC_CATEGORY_LT)
		return 1;
	return utf8proc_tolower((utf8proc_int32_t)cp) != (utf8proc_int32_t)cp ||
	    utf8proc_toupper((utf8proc_int32_t)cp) != (utf8proc_int32_t)cp;
}

/* Unicode "Case_Ignorable": Mn, Me, Cf, Lm, Sk and the word-break MidLetter set. */
static int
is_case_ignorable(uint32_t cp)
{
	utf8proc_category_t cat;

	switch (cp) {
	case 0x27: case 0x2e: case 0x3a: case 0x5e: case 0x60: case 0xa8:
	case 0xad: case 0xaf: case 0xb4: case 0xb7: case 0xb8: case 0x2018:
	case 0x2019: case 0x2024: case 0x2027: case 0xfe13: case 0xfe52:
	case 0xfe55: case 0xff07: case 0xff0e: case 0xff1a:
		return 1;
	default:
		break;
	}
	if (cp > 0x10ffff)
		return 0;
	cat = utf8proc_category((utf8proc_int32_t)cp);
	return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_ME ||
	    cat == UTF8PROC_CATEGORY_CF || cat == UTF8PROC_CATEGORY_LM ||
	    cat == UTF8PROC_CATEGORY_SK;
}

/* CPython's handle_capital_sigma for the U+03A3 at s[i] (length 2). */
static uint32_t
lower_sigma(const char *s, size_t n, size_t i)
{
	uint32_t cp = 0;
	size_t j, l;
	int found = 0, final;

	j = i;
	while (j > 0) {
		size_t k = j - 1;

		while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80 && j - k < 4)
			k--;
		dec(s, n, k, &cp);
		j = k;
		if (!is_case_ignorable(cp)) {
			found = 1;
			break;
		}
	}
	final = found && is_cased(cp);
	if (final && i + 2 < n) {
		found = 0;
		for (j = i + 2; j < n; j += l) {
			l = dec(s, n, j, &cp);
			if (!is_case_ignorable(cp)) {
				found = 1;
				break;
			}
		}
		final = !found || !is_cased(cp);
	}
	return final ? 0x3c2 : 0x3c3;
}

char *
bmd_py_lower(const char *s, size_t n, size_t *outlen)
{
	struct buf b = BUF_INIT;
	size_t i, l;
	uint32_t cp;
	char enc[4];
	int el;

	buf_grow(&b, n + 1);
	for (i = 0; i < n; i += l) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x80) {
			buf_addc(&b, (c >= 'A' && c <= 'Z') ? c + 32 : c);
			l = 1;
			continue;
		}
		l = dec(s, n, i, &cp);
		if (cp == 0xfffe && l == 1) {	/* invalid byte: kept */
			buf_addc(&b, c);
			continue;
		}
		if (cp == 0x130) {		/* SpecialCasing: i + U+0307 */
			buf_adds(&b, "i\xcc\x87");
			continue;
		}
		if (cp == 0x3a3)
			cp = lower_sigma(s, n, i);
		else
			cp = (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp);
		el = utf8_encode(cp, enc);
		buf_add(&b, enc, (size_t)el);
	}
	return buf_detach(&b, outlen);
}
