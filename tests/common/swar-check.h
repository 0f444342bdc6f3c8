/*
 * swar-check.h - the body of unit-swar and unit-swar-generic: every test
 * of common/swar.h and common/jsonscan.h against the same test written
 * one byte at a time, on words that hold the bytes that matter (each
 * byte value, alone and in runs, at every position, beside 0x00, 0x1F,
 * 0x20, 0x7F, 0x80, 0xBF, 0xC0, 0xFF) and on pseudo-random ones.  Included
 * once with jsonscan.h's wide path (SSE2 here) and once with
 * JSCAN_GENERIC defined, so that the eight-byte path a machine without
 * SSE2 takes is run here too.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jsonscan.h"
#include "swar.h"
#include "tap.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t
rng(void)
{
	/* xorshift64*, a fixed seed: the same words on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static const unsigned char edges[] = {
	0x00, 0x01, 0x08, 0x1F, 0x20, 0x21, '"', ',', '<', '\\', 0x7E, 0x7F,
	0x80, 0x81, 0xBF, 0xC0, 0xFE, 0xFF,
};

/* The first index of b[0..8) where want(c) holds, 8 when none. */
static size_t
first_where(const unsigned char *b, int (*want)(unsigned char, unsigned char),
    unsigned char arg)
{
	size_t i;

	for (i = 0; i < 8 && !want(b[i], arg); i++)
		;
	return i;
}

static int is_eq(unsigned char c, unsigned char a) { return c == a; }
static int is_below(unsigned char c, unsigned char a) { return c < a; }
static int is_high(unsigned char c, unsigned char a) { (void)a; return c >= 0x80; }

static int
is_special(unsigned char c, unsigned char del)
{
	return c == '"' || c == '\\' || c < 0x20 || (del && c == 0x7F);
}

/* A mask's verdict: the first byte it marks, 8 when it is 0. */
static size_t
first_of(uint64_t m)
{
	return m == 0 ? 8 : swar_first(m);
}

static int
check_word(const unsigned char *b)
{
	static const unsigned char probes[] = { 0x00, 0x20, ' ', ',', '<', 0x7F, 0x80, 0xFF };
	uint64_t w = swar_load(b);
	size_t i, n, k;
	int ok = 1;

	ok &= first_of(swar_high(w)) == first_where(b, is_high, 0);
	for (k = 0; k < sizeof probes; k++) {
		ok &= first_of(swar_eq(w, probes[k])) == first_where(b, is_eq, probes[k]);
		if (probes[k] <= 0x80)
			ok &= first_of(swar_below(w, probes[k])) ==
			    first_where(b, is_below, probes[k]);
		for (i = 0, n = 0; i < 8; i++)
			n += b[i] == probes[k];
		ok &= swar_count(swar_eq_exact(w, probes[k])) == n;
		for (i = 0; i < 8; i++)
			ok &= !!((swar_eq_exact(w, probes[k]) >> (8 * i)) & 0x80) ==
			    (b[i] == probes[k]);
	}
	ok &= first_of(jscan_special8((const char *)b, 0)) ==
	    first_where(b, is_special, 0);
	ok &= first_of(jscan_special8((const char *)b, 1)) ==
	    first_where(b, is_special, 1);
	return ok;
}

/* jscan_wide and its helpers on the JSCAN_WIDE bytes at b. */
static int
check_block(const unsigned char *b)
{
	size_t i, first0 = JSCAN_WIDE, first1 = JSCAN_WIDE, cont = 0;
	int high = 0, ok = 1;
	jscan_wide_t m;

	for (i = JSCAN_WIDE; i-- > 0; ) {
		if (is_special(b[i], 0))
			first0 = i;
		if (is_special(b[i], 1))
			first1 = i;
		high |= b[i] >= 0x80;
		cont += (b[i] & 0xC0) == 0x80;
	}
	m = jscan_wide((const char *)b, 0);
	ok &= (m == 0 ? JSCAN_WIDE : jscan_wide_first(m)) == first0;
	m = jscan_wide((const char *)b, 1);
	ok &= (m == 0 ? JSCAN_WIDE : jscan_wide_first(m)) == first1;
	ok &= (jscan_wide_high((const char *)b) != 0) == high;
	ok &= jscan_cont((const char *)b, JSCAN_WIDE) == cont;
	return ok;
}

static int
run_checks(const char *label)
{
	unsigned char b[64];
	size_t e, f, pos, i, len, cont;
	int ok;

	/* one edge byte at each position of a plain word, then beside another */
	ok = 1;
	for (e = 0; e < sizeof edges; e++)
		for (pos = 0; pos < 8; pos++)
			for (f = 0; f < sizeof edges; f++) {
				memset(b, 'a', 8);
				b[pos] = edges[e];
				ok &= check_word(b);
				b[(pos + 3) % 8] = edges[f];
				ok &= check_word(b);
				b[7 - pos] = edges[f];
				ok &= check_word(b);
			}
	TAP_OK(ok, "%s: every edge byte at every position of a word, alone and with another", label);

	/* every byte value in a run from each position to the end */
	ok = 1;
	for (e = 0; e < 256; e++)
		for (pos = 0; pos < 8; pos++) {
			memset(b, 'x', 8);
			memset(b + pos, (int)e, 8 - pos);
			ok &= check_word(b);
		}
	TAP_OK(ok, "%s: every byte value in a run to the end of a word", label);

	ok = 1;
	for (i = 0; i < 200000; i++) {
		uint64_t r = rng(), s = rng();
		memcpy(b, &r, 8);
		/* half the bytes from the edge set, so that tests fire */
		for (pos = 0; pos < 8; pos++)
			if ((s >> pos) & 1)
				b[pos] = edges[(s >> (8 + 4 * pos)) % sizeof edges];
		ok &= check_word(b);
	}
	TAP_OK(ok, "%s: 200,000 pseudo-random words", label);

	ok = 1;
	for (e = 0; e < sizeof edges; e++)
		for (pos = 0; pos < JSCAN_WIDE; pos++) {
			memset(b, 'q', JSCAN_WIDE);
			b[pos] = edges[e];
			ok &= check_block(b);
			b[JSCAN_WIDE - 1 - pos] = '\\';
			ok &= check_block(b);
		}
	for (i = 0; i < 100000; i++) {
		uint64_t s = rng();
		for (pos = 0; pos < JSCAN_WIDE; pos++)
			b[pos] = ((s >> pos) & 1) ? edges[rng() % sizeof edges] :
			    (unsigned char)(0x21 + rng() % 0x5E);
		ok &= check_block(b);
	}
	TAP_OK(ok, "%s: jscan_wide (%d bytes) finds the first special byte, "
	    "the non-ASCII and the continuation bytes", label, JSCAN_WIDE);

	/* jscan_cont on long runs: the SSE2 path counts in blocks of 255 */
	ok = 1;
	{
		static unsigned char big[16 * 600 + 13];
		for (len = 0; len < sizeof big; len += 997) {
			for (i = 0, cont = 0; i < len; i++) {
				big[i] = (unsigned char)rng();
				cont += (big[i] & 0xC0) == 0x80;
			}
			ok &= jscan_cont((const char *)big, len) == cont;
		}
		memset(big, 0x80, sizeof big);
		ok &= jscan_cont((const char *)big, sizeof big) == sizeof big;
	}
	TAP_OK(ok, "%s: jscan_cont counts every continuation byte of long runs", label);
	return tap_done();
}
