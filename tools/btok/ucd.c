/*
 * ucd.c - the Unicode classes the split patterns use, and NFC, from utf8proc
 * (Debian libutf8proc; its Unicode version is btok_unicode_version()).
 *
 * \p{L} = Lu Ll Lt Lm Lo, \p{N} = Nd Nl No, \p{M} = Mn Mc Me (general
 * categories, as Oniguruma and the Rust regex crate define them).  \s is the
 * White_Space property of PropList.txt, which is exactly the code points of
 * categories Zs, Zl and Zp plus the controls U+0009..U+000D and U+0085; utf8proc
 * has no White_Space table, so the property is derived from the categories
 * that way (tests/btok/classes.t checks every code point against the
 * reference tokenizer's regex engine).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "ctx.h"
#include "btok.h"

/* A Hangul jamo that composes as the second of a pair (Unicode 3.12): a V,
   U+1161..U+1175, or a T, U+11A8..U+11C2 (U+11A7, the T base, is none). */
static int
jamo_second(uint32_t cp)
{
	return (cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2);
}

/*
 * A safe starter: a character before which NFC can cut the text, because
 * nothing before it reorders or composes with it or anything after it.  ASCII
 * (never the second of a composition), or a starter (canonical combining
 * class 0) without a decomposition that takes part in no composition pair
 * (utf8proc's comb_index), the Hangul that compose algorithmically excepted:
 * the syllables and the conjoining jamo L (U+1100..U+1112), V
 * (U+1161..U+1175) and T (U+11A8..U+11C2).  U+11A7, the T base, is no T and
 * composes with nothing (Unicode 3.12, "Hangul Syllable Composition"), so it
 * is a safe starter; being one also keeps it from utf8proc 2.8, which joins
 * it to a syllable LV before it and loses it.
 */
static int
nfc_safe(uint32_t cp, const utf8proc_property_t *p)
{
	if (cp < 0x80)
		return 1;
	if ((cp >= 0x1100 && cp <= 0x1112) || jamo_second(cp) ||
	    (cp >= 0xAC00 && cp <= 0xD7A3))
		return 0;
	return p->combining_class == 0 && p->decomp_seqindex == UINT16_MAX &&
	    p->comb_index == UINT16_MAX;
}

/* Code points of a run composed in a buffer on the stack. */
#define NFC_STACK 64

/*
 * A starter whose NFC_Quick_Check is Yes (UAX #15): not No, for its NFC is
 * itself, and not Maybe, for it is never the second character of a
 * composition (utf8proc marks those with a comb_index of 0x8000 and above;
 * the Hangul vowels and final consonants compose algorithmically).  A text
 * whose characters all are such starters is its own NFC (UAX #15, "Detecting
 * Normalization Forms").
 */
static int
nfc_yes(uint32_t cp, const utf8proc_property_t *p)
{
	const utf8proc_option_t opt = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
	utf8proc_int32_t cps[NFC_STACK];
	utf8proc_ssize_t r;
	int last;

	if (p->combining_class != 0 ||
	    (p->comb_index != UINT16_MAX && p->comb_index >= 0x8000) ||
	    jamo_second(cp))
		return 0;
	if (p->decomp_seqindex == UINT16_MAX)
		return 1;
	r = utf8proc_decompose_char((utf8proc_int32_t)cp, cps, NFC_STACK, opt, &last);
	if (r < 0 || r > NFC_STACK)
		return 0;
	r = utf8proc_normalize_utf32(cps, r, opt);
	return r == 1 && cps[0] == (utf8proc_int32_t)cp;
}

static unsigned
uclass_slow(uint32_t cp)
{
	const utf8proc_property_t *p;
	unsigned c = 0;
	if (cp > 0x10FFFF)
		return 0;
	p = utf8proc_get_property((utf8proc_int32_t)cp);
	switch (p->category) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LT:
		c = BTOK_UC_L | BTOK_UC_LU;
		break;
	case UTF8PROC_CATEGORY_LL:
		c = BTOK_UC_L | BTOK_UC_LL;
		break;
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
		c = BTOK_UC_L | BTOK_UC_LU | BTOK_UC_LL;
		break;
	case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
		c = BTOK_UC_M | BTOK_UC_LU | BTOK_UC_LL;
		break;
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		c = BTOK_UC_N;
		break;
	case UTF8PROC_CATEGORY_ZS:
	case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
		c = BTOK_UC_WS;
		break;
	default:
		break;
	}
	if ((cp >= 0x09 && cp <= 0x0D) || cp == 0x85)
		c |= BTOK_UC_WS;
	if (nfc_safe(cp, p))
		c |= BTOK_UC_NFC_CUT;
	if (nfc_yes(cp, p))
		c |= BTOK_UC_NFC_YES;
	return c;
}

/* uclass_slow of ASCII, the hot case: \t..\r and space white space, digits
   Nd, A..Z Lu, a..z Ll, everything else none of the classes. */
#define W_ BTOK_UC_WS
#define D_ BTOK_UC_N
#define U_ (BTOK_UC_L | BTOK_UC_LU)
#define L_ (BTOK_UC_L | BTOK_UC_LL)
const unsigned char btok_ascii_class[128] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, W_, W_, W_, W_, W_, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	W_, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, 0, 0, 0, 0, 0, 0,
	0, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_,
	U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, U_, 0, 0, 0, 0, 0,
	0, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_,
	L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, 0, 0, 0, 0, 0,
};
#undef W_
#undef D_
#undef U_
#undef L_

/*
 * The classes of the code points, by blocks of 256 filled on first use
 * (btok_uclass in btok.h reads them): utf8proc_category walks two tables
 * and a switch for each character, a text of a script other than Latin
 * asks for the same few hundred code points again and again, and a whole
 * table of the code space, filled at once, would cost the start-up of
 * every run.  A block is filled under the lock and published by its flag
 * (release, read with acquire), so threads may classify at once.
 */
unsigned char btok_uc_block[BTOK_UC_BLOCKS][256];
atomic_uchar btok_uc_ready[BTOK_UC_BLOCKS];
static pthread_mutex_t uc_lock = PTHREAD_MUTEX_INITIALIZER;

void
btok_uc_fill(uint32_t b)
{
	pthread_mutex_lock(&uc_lock);
	if (!atomic_load_explicit(&btok_uc_ready[b], memory_order_relaxed)) {
		for (uint32_t k = 0; k < 256; k++)
			btok_uc_block[b][k] = (unsigned char)uclass_slow(b << 8 | k);
		atomic_store_explicit(&btok_uc_ready[b], 1, memory_order_release);
	}
	pthread_mutex_unlock(&uc_lock);
}

const char *
btok_unicode_version(void)
{
	return utf8proc_unicode_version();
}

/* Append NFC of s[a..b): a run that is a safe starter and what follows it
   up to the next safe starter.  The steps of utf8proc_map (decompose, then
   reencode, which composes), in a buffer on the stack when the run's
   decomposition fits. */
static void
nfc_run(struct buf *o, const char *s, size_t a, size_t b)
{
	const utf8proc_option_t opt = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
	utf8proc_int32_t cps[NFC_STACK];
	utf8proc_uint8_t *out = NULL;
	utf8proc_ssize_t r;

	r = utf8proc_decompose((const utf8proc_uint8_t *)s + a,
	    (utf8proc_ssize_t)(b - a), cps, NFC_STACK, opt);
	if (r >= 0 && r <= NFC_STACK) {
		r = utf8proc_reencode(cps, r, opt);
		if (r >= 0) {
			buf_add(o, cps, (size_t)r);
			return;
		}
	}
	r = utf8proc_map((const utf8proc_uint8_t *)s + a, (utf8proc_ssize_t)(b - a), &out,
	    opt);
	if (r < 0)
		die("utf8proc: %s", utf8proc_errmsg(r));
	buf_add(o, out, (size_t)r);
	free(out);
}

/*
 * The text is cut into runs, each a safe starter (or the start of the text)
 * and what follows it up to the next safe starter.  A run whose characters
 * after its first all are starters of NFC_Quick_Check Yes is its own NFC:
 * such runs, most of a text (a run of its first character alone, a word of
 * Cyrillic, Greek, kana or Hangul), are copied together, and a run of ASCII
 * after a safe character is taken whole (each ASCII character is a safe
 * starter).  The others are composed by nfc_run.
 */
char *
btok_nfc(const char *s, size_t n, size_t *outlen)
{
	const unsigned char *u = (const unsigned char *)s;
	const unsigned both = BTOK_UC_NFC_CUT | BTOK_UC_NFC_YES;
	struct buf o;
	size_t i = 0, run = 0, verb = 0;
	int yes = 1;	/* s[run..i) is its own NFC */

	buf_init(&o);
	buf_grow(&o, n + 1);
	while (i < n) {
		uint32_t cp;
		size_t l = btok_u8dec(u + i, n - i, &cp);
		unsigned k = cp < 0x80 ? both : btok_uclass(cp);

		if ((k & BTOK_UC_NFC_CUT) && i > 0) {
			if (!yes) {
				buf_add(&o, s + verb, run - verb);
				nfc_run(&o, s, run, i);
				verb = i;
			}
			run = i;
			yes = 1;
		} else if (!(k & BTOK_UC_NFC_YES))
			yes = 0;
		i += l;
		if (cp < 0x80 && i < n && u[i] < 0x80) {
			/* one-character runs up to the last ASCII byte */
			while (i < n && u[i] < 0x80)
				i++;
			run = i - 1;
		}
	}
	if (!yes) {
		buf_add(&o, s + verb, run - verb);
		nfc_run(&o, s, run, n);
		verb = n;
	}
	buf_add(&o, s + verb, n - verb);
	return buf_detach(&o, outlen);
}

int
btok_uc_assigned(uint32_t cp)
{
	return cp <= 0x10FFFF &&
	    utf8proc_category((utf8proc_int32_t)cp) != UTF8PROC_CATEGORY_CN;
}
