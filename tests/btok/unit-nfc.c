/*
 * unit-nfc.c - btok_nfc (ucd.c) against utf8proc's own NFC, utf8proc_map
 * with UTF8PROC_STABLE | UTF8PROC_COMPOSE, the normalisation btok's runs
 * stand for (less a bug of utf8proc 2.8 with U+11A7; see reference()).  btok_nfc copies the runs it finds to be their own NFC and
 * composes the others, so each test puts a character where a wrong
 * judgement would show:
 *  1. every assigned code point alone, after an ASCII letter,
 *     after a CJK ideograph, and followed by a character that composes with
 *     what came before (U+0301) or reorders (U+0316, U+0334);
 *  2. every pair of a character that begins a composition and one that ends
 *     one (utf8proc's comb_index), with and without a letter of a Latin,
 *     Cyrillic or Hangul word before it; the Hangul jamo L+V and syllables
 *     LV+T;
 *  3. 200,000 pseudo-random strings (fixed seed) of 1 to 16 characters from
 *     those, combining marks of several classes, precomposed letters,
 *     singletons and composition exclusions, Hangul, kana and ASCII.
 * Each check reports the first string that differs, as code points.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "tap.h"
#include "ctx.h"
#include "utf8.h"
#include "../../tools/btok/btok.h"

static unsigned long checked;
static char first_bad[256];

/* The longest string of the tests, in code points, and its UTF-8 room: NFC
   makes at most three times the bytes it is given (UAX #15). */
#define MAXCP 16
#define ROOM (MAXCP * 4 * 3)

/*
 * NFC of s[0..len) by utf8proc, into want (ROOM bytes).
 * The text is cut before each U+11A7, which composes with nothing (Unicode
 * 3.12): utf8proc 2.8 joins it to a syllable LV before it and loses it;
 * Hugging Face tokenizers keeps it.  -1 when utf8proc refuses the text.
 */
static long
reference(const char *s, size_t len, char *want)
{
	size_t a = 0, wl = 0;

	while (a < len) {
		size_t b = a + 1;
		utf8proc_uint8_t *o = NULL;
		utf8proc_ssize_t r;
		while (b < len && !(len - b >= 3 && memcmp(s + b, "\xE1\x86\xA7", 3) == 0))
			b++;
		r = utf8proc_map((const utf8proc_uint8_t *)s + a, (utf8proc_ssize_t)(b - a),
		    &o, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
		if (r < 0) {
			free(o);
			return -1;
		}
		if ((size_t)r > ROOM - wl)
			die("a test string's NFC is longer than %d bytes", ROOM);
		memcpy(want + wl, o, (size_t)r);
		wl += (size_t)r;
		free(o);
		a = b;
	}
	return (long)wl;
}

/* Compare btok_nfc with the reference on the n code points cps; 0 on a
   difference. */
static int
same(const uint32_t *cps, size_t n)
{
	char s[MAXCP * 4], want[ROOM];
	size_t len = 0, bl;
	long wl;
	char *got;
	int eq;

	assert(n <= MAXCP);
	for (size_t i = 0; i < n; i++)
		len += (size_t)utf8_encode(cps[i], s + len);
	wl = reference(s, len, want);
	if (wl < 0)
		return 1;	/* utf8proc refuses it: not a text btok sees */
	got = btok_nfc(s, len, &bl);
	eq = bl == (size_t)wl && memcmp(got, want, bl) == 0;
	checked++;
	if (!eq && !first_bad[0]) {
		size_t k = 0;
		for (size_t i = 0; i < n && k + 12 < sizeof first_bad; i++)
			k += (size_t)snprintf(first_bad + k, sizeof first_bad - k, "%sU+%04X",
			    i ? " " : "", (unsigned)cps[i]);
	}
	free(got);
	return eq;
}

static int
valid(uint32_t c)
{
	return c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF);
}

static void
report(const char *what, unsigned long bad)
{
	TAP_OK(bad == 0, "%s: btok_nfc is utf8proc's NFC (%lu strings)", what, checked);
	if (bad)
		printf("# %lu differ, first: %s\n", bad, first_bad);
	checked = 0;
	first_bad[0] = '\0';
}

static uint32_t firsts[1024], seconds[256];
static size_t nfirst, nsecond;

int
main(void)
{
	static const uint32_t after[] = { 0x301, 0x316, 0x334 };
	static const uint32_t before[] = { 'a', 0x4E00, 0x0434, 0xD55C };
	uint32_t pool[4096];
	size_t npool = 0;
	unsigned long bad = 0;
	uint64_t x = 0x9E3779B97F4A7C15u;

	ctx_init("unit-nfc");
	for (uint32_t c = 0x80; c <= 0x10FFFF; c++) {
		if (!valid(c) || !btok_uc_assigned(c))
			continue;
		const uint32_t a[] = { c }, b[] = { 'a', c }, d[] = { 0x4E00, c };
		bad += !same(a, 1) + !same(b, 2) + !same(d, 2);
		for (size_t k = 0; k < 3; k++) {
			const uint32_t e[] = { 'a', c, after[k] };
			bad += !same(e, 3);
		}
	}
	report("every code point alone, after a letter or ideograph, before a mark", bad);

	bad = 0;
	for (uint32_t c = 0; c <= 0x10FFFF; c++) {
		const utf8proc_property_t *p;
		if (!valid(c))
			continue;
		p = utf8proc_get_property((utf8proc_int32_t)c);
		if (p->comb_index == UINT16_MAX)
			continue;
		if (p->comb_index >= 0x8000 && nsecond < 256)
			seconds[nsecond++] = c;
		else if (p->comb_index < 0x8000 && nfirst < 1024)
			firsts[nfirst++] = c;
	}
	for (size_t i = 0; i < nfirst; i++)
		for (size_t j = 0; j < nsecond; j++) {
			const uint32_t a[] = { firsts[i], seconds[j] };
			bad += !same(a, 2);
			for (size_t k = 0; k < 4; k++) {
				const uint32_t b[] = { before[k], firsts[i], seconds[j] };
				bad += !same(b, 3);
			}
		}
	for (uint32_t l = 0x1100; l <= 0x1112; l++)
		for (uint32_t v = 0x1161; v <= 0x1175; v++) {
			const uint32_t a[] = { l, v }, b[] = { 0xAC00, l, v, 0x11A8 };
			bad += !same(a, 2) + !same(b, 4);
		}
	for (uint32_t lv = 0xAC00; lv <= 0xD7A3; lv += 28)
		for (uint32_t t = 0x11A7; t <= 0x11C3; t++) {
			const uint32_t a[] = { lv, t }, b[] = { 'a', lv, lv, t };
			bad += !same(a, 2) + !same(b, 4);
		}
	TAP_OK(nfirst > 300 && nsecond > 50, "utf8proc lists %zu first and %zu second "
	    "characters of compositions", nfirst, nsecond);
	report("compositions: first and second, Hangul L+V and LV+T", bad);
	{
		/* U+11A7 after a syllable LV is kept, alone or in a run composed */
		static const char *in[] = { "\xEA\xB0\x80\xE1\x86\xA7",
		    "y\xCC\x81\xEA\xB0\x80\xE1\x86\xA7" };
		static const char *out[] = { "\xEA\xB0\x80\xE1\x86\xA7",
		    "\xC3\xBD\xEA\xB0\x80\xE1\x86\xA7" };
		for (size_t k = 0; k < 2; k++) {
			size_t bl;
			char *got = btok_nfc(in[k], strlen(in[k]), &bl);
			got = realloc(got, bl + 1);
			got[bl] = '\0';
			TAP_IS_STR(got, out[k], "U+11A7 after a syllable LV stays%s",
			    k ? ", in a run that composes" : "");
			free(got);
		}
	}

	/* The pool of the random strings. */
	for (size_t i = 0; i < nfirst; i++)
		pool[npool++] = firsts[i];
	for (size_t i = 0; i < nsecond; i++)
		pool[npool++] = seconds[i];
	{
		static const uint32_t more[] = {
			'a', 'e', ' ', '.', 0xE9, 0xC5, 0x212B, 0x2126, 0x0340, 0x0344,
			0x0958, 0x0915, 0x093C, 0x0F73, 0x0F77, 0x1E0A, 0x1E9B, 0x0323,
			0x0307, 0x0327, 0x05B0, 0x05B7, 0x0591, 0x302A, 0x3099, 0x309A,
			0x304B, 0x30AB, 0x30F0, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01,
			0xD7A3, 0x4E00, 0xF900, 0x2F800, 0x0435, 0x0418, 0x0406, 0x0301,
			0x0308, 0x0BC6, 0x0BBE, 0x0BD7, 0x0CC6, 0x0CD5, 0x0CC2, 0x1B05,
			0x1B35, 0x0627, 0x0653, 0x0654, 0x0655, 0x1F00, 0x1FBF, 0x03B1,
			0x0345, 0x0952, 0x0E33, 0x0EB3, 0xFB1D, 0x1D15E, 0x110BA, 0x11127,
			0x11A7, 0x1113, 0x1176, 0x11C3, 0x11FF, 0xD7B0, 0xD7CB, 0xA960,
		};
		for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
			pool[npool++] = more[i];
	}
	bad = 0;
	for (int r = 0; r < 200000; r++) {
		uint32_t s[MAXCP];
		size_t n;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		n = 1 + (size_t)(x % MAXCP);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s[i] = pool[x % npool];
		}
		bad += !same(s, n);
	}
	report("200,000 random strings of compositions, marks and Hangul", bad);
	return tap_done();
}
