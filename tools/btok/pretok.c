/*
 * pretok.c - the split patterns of the tokenizers, as hand-written matchers.
 *
 * Each matcher is equivalent to the backtracking regular expression the
 * tokenizer file names (Oniguruma in Hugging Face tokenizers, fancy-regex in
 * tiktoken), evaluated the way find_iter does: at each position the
 * alternatives are tried in order and the first that matches wins; a position
 * where none matches joins a gap, and gaps are emitted as pieces of their own
 * (Split behaviour "Isolated").  Every matcher looks at a bounded number of
 * characters beyond the match it returns, so the whole split is linear.
 *
 * Llama 3 (BTOK_PRE_LLAMA3) and Qwen 2/3 (BTOK_PRE_QWEN2):
 *   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
 *   | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * (Qwen: \p{N} instead of \p{N}{1,3}).
 * GPT-2 (BTOK_PRE_GPT2, ByteLevel use_regex):
 *   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * Tekken (BTOK_PRE_TEKKEN):
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+
 *   |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*
 *   |\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "btok.h"

struct cur {
	const unsigned char *s;
	size_t n;
};

/* Class bits of the character at i plus its length; i < n. */
#define CR_LF 0x100u
#define APOS 0x200u
#define SPACE 0x400u
#define SLASH 0x800u

/* The bits above the classes of the ASCII characters that have them. */
static const unsigned short ascii_bits[128] = {
	['\r'] = CR_LF, ['\n'] = CR_LF, ['\''] = APOS, [' '] = SPACE,
	['/'] = SLASH
};

static inline unsigned
cls(const struct cur *c, size_t i, size_t *len)
{
	uint32_t cp;

	if (c->s[i] < 0x80) {
		*len = 1;
		return btok_ascii_class[c->s[i]] | ascii_bits[c->s[i]];
	}
	*len = btok_u8dec(c->s + i, c->n - i, &cp);
	return btok_uclass(cp);
}

/* End of the run of characters with any bit of want, from i. */
static inline __attribute__((always_inline)) size_t
run(const struct cur *c, size_t i, unsigned want)
{
	size_t l;
	while (i < c->n && (cls(c, i, &l) & want))
		i += l;
	return i;
}

/* End of the run of characters having none of the bits in avoid. */
static inline __attribute__((always_inline)) size_t
run_not(const struct cur *c, size_t i, unsigned avoid)
{
	size_t l;
	while (i < c->n && !(cls(c, i, &l) & avoid))
		i += l;
	return i;
}

/*
 * Case-insensitive contractions (?i:'s|'t|'re|'ve|'m|'ll|'d): Oniguruma
 * folds case with Unicode CaseFolding.txt, so U+017F LATIN SMALL LETTER LONG S
 * matches 's' too.  Returns the end or 0.
 */
static size_t
fold1(const struct cur *c, size_t i, char *out)
{
	const unsigned char *s = c->s;
	if (i >= c->n)
		return 0;
	if (s[i] < 0x80) {
		unsigned char ch = s[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a');
		*out = (char)ch;
		return 1;
	}
	if (i + 1 < c->n && s[i] == 0xC5 && s[i + 1] == 0xBF) {	/* U+017F */
		*out = 's';
		return 2;
	}
	return 0;
}

static size_t
contraction(const struct cur *c, size_t i, int fold)
{
	char a, b;
	size_t la, lb;
	if (c->s[i] != '\'')
		return 0;
	if (fold)
		la = fold1(c, i + 1, &a);
	else if (i + 1 < c->n && c->s[i + 1] < 0x80)
		la = 1, a = (char)c->s[i + 1];
	else
		la = 0;
	if (!la)
		return 0;
	if (a == 's' || a == 't' || a == 'm' || a == 'd')
		return i + 1 + la;
	if (fold)
		lb = fold1(c, i + 1 + la, &b);
	else if (i + 1 + la < c->n && c->s[i + 1 + la] < 0x80)
		lb = 1, b = (char)c->s[i + 1 + la];
	else
		lb = 0;
	if (!lb)
		return 0;
	if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') ||
	    (a == 'l' && b == 'l'))
		return i + 1 + la + lb;
	return 0;
}

/*
 * The run of characters with a bit of want from i: returns its end, and in
 * *last the end of its last character with a bit of mark (0: none); in *k
 * and *l the class bits and length of the character it stopped at, when
 * the end is before n.
 */
static inline __attribute__((always_inline)) size_t
run_last(const struct cur *c, size_t i, unsigned want, unsigned mark,
    size_t *last, unsigned *k, size_t *l)
{
	*last = 0;
	while (i < c->n && ((*k = cls(c, i, l)) & want)) {
		i += *l;
		if (*k & mark)
			*last = i;
	}
	return i;
}

/* \s*[\r\n]+ at i: the end after the last CR/LF of the white-space run. */
static size_t
ws_crlf(const struct cur *c, size_t i)
{
	size_t end, l;
	unsigned k;

	run_last(c, i, BTOK_UC_WS, CR_LF, &end, &k, &l);
	return end;
}

/* \s+(?!\S)|\s+ at i (a white-space character). */
static size_t
ws_tail(const struct cur *c, size_t i)
{
	size_t j = i, l, last = i;
	while (j < c->n && (cls(c, j, &l) & BTOK_UC_WS)) {
		last = j;
		j += l;
	}
	if (j == c->n)
		return j;
	/* \s+(?!\S): give back the last white space if one remains. */
	if (last > i)
		return last;
	return j;
}

/*
 * The last alternatives of the Llama 3 and Tekken patterns at i, whose
 * character has class k and length l: ' ?[^\s\p{L}\p{N}]+' and a run of
 * the characters of tail ([\r\n]* or [\r\n/]*), else white space:
 * \s*[\r\n]+|\s+(?!\S)|\s+.
 */
static size_t
punct_or_space(const struct cur *c, size_t i, unsigned k, size_t l,
    unsigned tail)
{
	size_t l2, e;

	if ((k & SPACE) && i + l < c->n &&
	    !(cls(c, i + l, &l2) & (BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N))) {
		e = run_not(c, i + l + l2, BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N);
		return run(c, e, tail);
	}
	if (!(k & (BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N))) {
		e = run_not(c, i + l, BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N);
		return run(c, e, tail);
	}
	/* Only white space is left. */
	if ((e = ws_crlf(c, i)))
		return e;
	return ws_tail(c, i);
}

static size_t
match_llama(const struct cur *c, size_t i, int qwen)
{
	size_t l, l2, e;
	unsigned k = cls(c, i, &l);

	if ((k & APOS) && (e = contraction(c, i, 1)))
		return e;
	/* [^\r\n\p{L}\p{N}]?\p{L}+ */
	if (k & BTOK_UC_L)
		return run(c, i + l, BTOK_UC_L);
	if (!(k & (CR_LF | BTOK_UC_N)) && i + l < c->n &&
	    (cls(c, i + l, &l2) & BTOK_UC_L))
		return run(c, i + l + l2, BTOK_UC_L);
	/* \p{N}{1,3} or \p{N} */
	if (k & BTOK_UC_N) {
		int m = 1;
		e = i + l;
		while (!qwen && m < 3 && e < c->n && (cls(c, e, &l2) & BTOK_UC_N)) {
			e += l2;
			m++;
		}
		return e;
	}
	return punct_or_space(c, i, k, l, CR_LF);
}

static size_t
match_gpt2(const struct cur *c, size_t i)
{
	size_t l, l2, e;
	unsigned k = cls(c, i, &l), k2;

	if ((k & APOS) && (e = contraction(c, i, 0)))
		return e;
	if ((k & SPACE) && i + l < c->n) {
		k2 = cls(c, i + l, &l2);
		if (k2 & BTOK_UC_L)
			return run(c, i + l, BTOK_UC_L);
		if (k2 & BTOK_UC_N)
			return run(c, i + l, BTOK_UC_N);
		if (!(k2 & BTOK_UC_WS))
			return run_not(c, i + l, BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N);
	}
	if (k & BTOK_UC_L)
		return run(c, i, BTOK_UC_L);
	if (k & BTOK_UC_N)
		return run(c, i, BTOK_UC_N);
	if (!(k & BTOK_UC_WS))
		return run_not(c, i, BTOK_UC_WS | BTOK_UC_L | BTOK_UC_N);
	return ws_tail(c, i);
}

/*
 * [U]*[W]+ from q (U = Lu Lt Lm Lo M, W = Ll Lm Lo M), with backtracking:
 * U* takes the longest run, then gives back until W+ can start; W+ then runs
 * as far as it can.  Returns the end, or 0 when it cannot match.
 */
static inline __attribute__((always_inline)) size_t
tk_uw(const struct cur *c, size_t q)
{
	size_t l = 0, lastw, u;
	unsigned k = 0;

	/* The character the U run stops at is classified once, by the run. */
	u = run_last(c, q, BTOK_UC_LU, BTOK_UC_LL, &lastw, &k, &l);
	if (u < c->n && (k & BTOK_UC_LL))
		return run(c, u + l, BTOK_UC_LL);
	/* The last W inside the U run starts W+, which ends right after it
	   (the character after it is not W, or the run would go on). */
	return lastw;
}

/* [U]+[W]* from q; 0 when no U at q. */
static inline __attribute__((always_inline)) size_t
tk_u_w(const struct cur *c, size_t q)
{
	size_t u = run(c, q, BTOK_UC_LU);
	if (u == q)
		return 0;
	return run(c, u, BTOK_UC_LL);
}

static size_t
match_tekken(const struct cur *c, size_t i)
{
	size_t l, e;
	unsigned k = cls(c, i, &l);
	int pre = !(k & (CR_LF | BTOK_UC_L | BTOK_UC_N));

	/* First alternative: with the optional prefix, then without. */
	if (pre && i + l < c->n && (e = tk_uw(c, i + l)))
		return e;
	if ((e = tk_uw(c, i)))
		return e;
	if (pre && i + l < c->n && (e = tk_u_w(c, i + l)))
		return e;
	if ((e = tk_u_w(c, i)))
		return e;
	if (k & BTOK_UC_N)
		return i + l;
	return punct_or_space(c, i, k, l, CR_LF | SLASH);
}

/* Split " " MergedWithPrevious: each space ends its piece. */
static void
split_space(const char *s, size_t n, btok_piece_fn fn, void *ctx)
{
	size_t st = 0;
	const char *q;

	while (st < n && (q = memchr(s + st, ' ', n - st))) {
		size_t i = (size_t)(q - s);
		fn(s + st, i + 1 - st, ctx);
		st = i + 1;
	}
	if (st < n)
		fn(s + st, n - st, ctx);
}

/* The split of s[0..n) by the matcher of pre (not NONE or
   SPACE_MERGED_PREV); inlined once for each matcher, so that each loop
   calls its matcher directly and may inline it. */
static inline __attribute__((always_inline)) void
split_with(int pre, const char *s, size_t n, btok_piece_fn fn, void *ctx)
{
	struct cur c = { (const unsigned char *)s, n };
	size_t i = 0, e, gap = 0;
	int ingap = 0;

	while (i < n) {
		switch (pre) {
		case BTOK_PRE_LLAMA3: e = match_llama(&c, i, 0); break;
		case BTOK_PRE_QWEN2: e = match_llama(&c, i, 1); break;
		case BTOK_PRE_GPT2: e = match_gpt2(&c, i); break;
		default: e = match_tekken(&c, i); break;
		}
		if (e > i) {
			if (ingap) {
				fn(s + gap, i - gap, ctx);
				ingap = 0;
			}
			fn(s + i, e - i, ctx);
			i = e;
		} else {
			size_t l;
			uint32_t cp;
			if (!ingap) {
				gap = i;
				ingap = 1;
			}
			l = btok_u8dec(c.s + i, n - i, &cp);
			i += l;
		}
	}
	if (ingap)
		fn(s + gap, n - gap, ctx);
}

void
btok_pretokenize(int pre, const char *s, size_t n, btok_piece_fn fn,
    void *ctx)
{
	switch (pre) {
	case BTOK_PRE_NONE:
		if (n)
			fn(s, n, ctx);
		return;
	case BTOK_PRE_SPACE_MERGED_PREV:
		split_space(s, n, fn, ctx);
		return;
	case BTOK_PRE_LLAMA3: split_with(BTOK_PRE_LLAMA3, s, n, fn, ctx); return;
	case BTOK_PRE_QWEN2: split_with(BTOK_PRE_QWEN2, s, n, fn, ctx); return;
	case BTOK_PRE_GPT2: split_with(BTOK_PRE_GPT2, s, n, fn, ctx); return;
	default: split_with(BTOK_PRE_TEKKEN, s, n, fn, ctx); return;
	}
}
