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
 *
 * Facts (common/facts.h): A read as plain text (bread's lines), each of
 * B's documents as Markdown; the shares of distinct facts each side
 * states that the other states too, the changed facts, and the gold
 * answer's facts (its atoms: numbers, versions, identifiers, quoted
 * values) that one side states and the other does not.  The drift flag
 * is the facts' alone: the word shares describe, they do not decide.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "facts.h"
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

/* The word and code shares (the parity fields, unchanged since they came). */
static void
word_parity(const char *a, size_t alen, const char *b, size_t blen,
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
	wordset_release(&wa);
	wordset_release(&wb);
	wordset_release(&la);
	wordset_release(&lb);
	wordset_release(&ca);
	wordset_release(&cb);
}

json_t *
bctx_facts_changes(const struct facts *fa, const struct facts *fb,
    const struct facts_cmp *c, const char *ka, const char *kb)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < c->nchanged && i < BCTX_FACTS_SHOWN; i++) {
		struct fact_shown s;
		json_t *o = json_object();

		facts_change(fa, fb, c, i, &s);
		json_set_str(o, "kind", facts_kind_name(s.kind));
		json_set_str(o, "key", s.key);
		json_set_str(o, ka, s.a);
		json_set_str(o, kb, s.b);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* The gold answer's atoms that x states and y does not. */
static json_t *
gold_only(char *const *atoms, size_t n, const struct facts *x,
    const struct facts *y)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		if (facts_has_atom(x, atoms[i]) && !facts_has_atom(y, atoms[i]))
			json_array_append_new(arr, json_string(atoms[i]));
	return arr;
}

static void
gold_parity(const char *gold, const struct facts *fa, const struct facts *fb,
    struct bctx_parity *p)
{
	struct facts fg = FACTS_INIT;
	char **atoms;
	size_t i, n;

	facts_add(&fg, gold, strlen(gold), 0, 0);
	atoms = facts_atoms(&fg, &n);
	p->gold_only_a = gold_only(atoms, n, fa, fb);
	p->gold_only_b = gold_only(atoms, n, fb, fa);
	for (i = 0; i < n; i++)
		free(atoms[i]);
	free(atoms);
	facts_release(&fg);
}

/* A share below the threshold, with enough facts missing to count. */
static int
below(double share, size_t n, size_t shared)
{
	return share >= 0 && share < BCTX_FACTS_MIN && n - shared >=
	    BCTX_FACTS_MISSING;
}

void
bctx_parity(const char *a, size_t alen, const char *b, size_t blen,
    const size_t *bdocs, size_t nbdocs, const char *gold,
    struct bctx_parity *p)
{
	struct facts fa = FACTS_INIT, fb = FACTS_INIT;
	struct facts_cmp c;
	size_t i;

	memset(p, 0, sizeof *p);
	word_parity(a, alen, b, blen, p);
	facts_add(&fa, a, alen, 0, 0);
	for (i = 0; i < nbdocs; i++) {
		size_t end = i + 1 < nbdocs ? bdocs[i + 1] : blen;

		facts_add(&fb, b + bdocs[i], end - bdocs[i], bdocs[i],
		    FACTS_MARKDOWN);
	}
	facts_compare(&fa, &fb, &c);
	p->facts_b_in_a = c.b_in_a;
	p->facts_a_in_b = c.a_in_b;
	p->nchanged = c.nchanged;
	p->changed = bctx_facts_changes(&fa, &fb, &c, "a", "b");
	if (gold)
		gold_parity(gold, &fa, &fb, p);
	p->drift = c.nchanged > 0 || below(c.b_in_a, fb.nd, c.shared_b) ||
	    below(c.a_in_b, fa.nd, c.shared_a);
	facts_cmp_release(&c);
	facts_release(&fa);
	facts_release(&fb);
}

void
bctx_parity_release(struct bctx_parity *p)
{
	json_decref(p->changed);
	json_decref(p->gold_only_a);
	json_decref(p->gold_only_b);
	p->changed = p->gold_only_a = p->gold_only_b = NULL;
}
