/*
 * parity.c - A<->B content parity of one (site, question) pair: how much of
 * each condition's content the other also carries (ctxbench-records(5),
 * "Parity"; the content asymmetry of spec 001 §7.1 L-IV-1).
 *
 * Words: the multisets of content words (common/words.h) of the two
 * contents' visible text (a Markdown link's or image's destination "(...)"
 * after "]" is not read by anyone and is left out); parity_b_in_a is the size of their intersection (each word
 * counted min(count in A, count in B) times) over the size of B's
 * multiset, parity_a_in_b the same over A's: ROUGE-1 recall in each
 * direction (Lin, 2004).  A multiset, not a set, so that a table column or
 * a page present twice on one side only counts.
 *
 * Code: the lines of each side's Markdown code blocks (common/mdcode.h),
 * white space trimmed and its runs collapsed to one space, blank ones
 * left out; a code line counts as found when the other side has an equal
 * line, code or not (bread(1) keeps <pre> text as plain lines), again as
 * multisets.  Null when the side has no code line.
 */
#include <string.h>

#include "ctx.h"
#include "mdcode.h"
#include "words.h"
#include "bctx.h"

/* Add line s[0..n) normalised to set (nothing when blank). */
static void
add_line(struct wordset *set, const char *s, size_t n, struct buf *tmp)
{
	size_t i;
	int sp = 0;

	buf_reset(tmp);
	for (i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\f' ||
		    s[i] == '\v') {
			sp = tmp->len > 0;
			continue;
		}
		if (sp)
			buf_addc(tmp, ' ');
		sp = 0;
		buf_addc(tmp, s[i]);
	}
	if (tmp->len > 0)
		wordset_add(set, tmp->s, tmp->len);
}

/* The normalised lines of text (all) and of its code blocks (code). */
static void
lines_of(const char *text, size_t len, struct wordset *all,
    struct wordset *code)
{
	struct md_code st = MD_CODE_INIT;
	struct buf tmp = BUF_INIT;
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t e = nl ? (size_t)(nl - text) : len, body;

		add_line(all, text + pos, e - pos, &tmp);
		if (md_code_line(&st, text + pos, e - pos, &body) == MD_CODE)
			add_line(code, text + pos + body, e - pos - body, &tmp);
		pos = e + 1;
	}
	buf_release(&tmp);
}

/*
 * text without the destinations of inline links and images: "](url)" and
 * "](url "title")" keep their "]".  A destination ends at the first ')'
 * or white space; a scan that found neither is not repeated (linear).
 */
static void
visible(const char *s, size_t n, struct buf *out)
{
	size_t i = 0, scanned = 0, j;

	while (i < n) {
		if (s[i] == ']' && i + 1 < n && s[i + 1] == '(' && i + 2 >= scanned) {
			for (j = i + 2; j < n && s[j] != ')' && s[j] != ' ' &&
			    s[j] != '\t' && s[j] != '\n'; j++)
				;
			scanned = j;
			if (j < n && s[j] == ')') {
				buf_addc(out, ']');
				i = j + 1;
				continue;
			}
		}
		buf_addc(out, s[i++]);
	}
}

/* Sum over x's entries of min(count in x, count in y). */
static size_t
overlap(const struct wordset *x, const struct wordset *y)
{
	size_t i, n = 0;

	for (i = 0; i < x->n; i++) {
		size_t c = wordset_count(y, x->v[i].word);

		n += c < x->v[i].count ? c : x->v[i].count;
	}
	return n;
}

static double
share(size_t part, size_t whole)
{
	return whole ? (double)part / (double)whole : -1;
}

void
bctx_parity(const char *a, size_t alen, const char *b, size_t blen,
    struct bctx_parity *p)
{
	struct wordset wa = WORDSET_INIT, wb = WORDSET_INIT;
	struct wordset la = WORDSET_INIT, lb = WORDSET_INIT;
	struct wordset ca = WORDSET_INIT, cb = WORDSET_INIT;
	struct buf tmp = BUF_INIT;
	size_t both;

	visible(a, alen, &tmp);
	words_add(&wa, tmp.s, tmp.len, WORDS_CONTENT);
	buf_reset(&tmp);
	visible(b, blen, &tmp);
	words_add(&wb, tmp.s, tmp.len, WORDS_CONTENT);
	buf_release(&tmp);
	both = overlap(&wb, &wa);
	p->b_in_a = share(both, wb.total);
	p->a_in_b = share(both, wa.total);
	lines_of(a, alen, &la, &ca);
	lines_of(b, blen, &lb, &cb);
	p->code_b_in_a = share(overlap(&cb, &la), cb.total);
	p->code_a_in_b = share(overlap(&ca, &lb), ca.total);
	p->drift = (p->b_in_a >= 0 && p->b_in_a < BCTX_PARITY_MIN) ||
	    (p->a_in_b >= 0 && p->a_in_b < BCTX_PARITY_MIN) ||
	    (p->code_b_in_a >= 0 && p->code_b_in_a < BCTX_PARITY_MIN) ||
	    (p->code_a_in_b >= 0 && p->code_a_in_b < BCTX_PARITY_MIN);
	wordset_release(&wa);
	wordset_release(&wb);
	wordset_release(&la);
	wordset_release(&lb);
	wordset_release(&ca);
	wordset_release(&cb);
}
