/*
 * obs.c - what every other file of bstats knows of one rating (struct
 * bst_obs): its five metric values and THE SIGN CONVENTION of bstats.h
 * (bst_delta), the order of tuples (site and question in natural order,
 * model, condition) with its integer sort keys, a set of strings (the
 * ratings' strings held once), and the two small helpers of every output,
 * the natural order of ids and the printed p-value.  The lowest floor: it calls no other
 * file of bstats.
 */
#include <assert.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "hashing.h"
#include "sort.h"
#include "bstats.h"

const char *const BST_METRIC_NAME[] = { "factual_accuracy",
    "hallucination_count", "input_token_count", "completeness",
    "citation_fidelity" };

/* ------------------------------------------------- the sign convention */

double
bst_metric_val(const struct bst_obs *o, enum bst_metric m)
{
	switch (m) {
	case M_ACC: return o->fa;
	case M_HALL: return o->hc;
	case M_TOK: return o->tok;
	case M_COMP: return o->comp;
	default: return o->cf;
	}
}

/* Lower is better for hallucinations and tokens: there Δ = A - B. */
double
bst_delta(enum bst_metric m, const struct bst_obs *a, const struct bst_obs *b)
{
	if (m == M_HALL || m == M_TOK)
		return bst_metric_val(a, m) - bst_metric_val(b, m);
	return bst_metric_val(b, m) - bst_metric_val(a, m);
}

const char *
bst_delta_def(enum bst_metric m)
{
	return m == M_HALL || m == M_TOK ? "A − B" : "B − A";
}

/* ---------------------------------------------------------------- orders */

int
bst_cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int
bst_natcmp(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			if ((c = strncmp(a, b, la)) != 0)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* ------------------------------------------------------ sets of strings */

static size_t
hash(const char *s)
{
	return (size_t)ctx_hash(s, strlen(s));
}

static void
grow(struct bst_strs *h)
{
	size_t cap = h->cap ? 2 * h->cap : 256, i;

	free(h->slot);
	h->slot = xcalloc(cap, sizeof *h->slot);
	h->cap = cap;
	for (i = 0; i < h->n; i++) {
		size_t at = hash(h->v[i]) & (cap - 1);

		while (h->slot[at])
			at = (at + 1) & (cap - 1);
		h->slot[at] = i + 1;
	}
}

size_t
bst_strs_add(struct bst_strs *h, const char *s)
{
	size_t at;

	s = s ? s : "";
	if (2 * (h->n + 1) > h->cap)
		grow(h);
	for (at = hash(s) & (h->cap - 1); h->slot[at];
	    at = (at + 1) & (h->cap - 1)) {
		assert(h->slot[at] <= h->n && h->v != NULL);	/* a slot names a string */
		if (!strcmp(h->v[h->slot[at] - 1], s))
			return h->slot[at] - 1;
	}
	if (h->n == h->capv) {
		h->capv = h->capv ? 2 * h->capv : 64;
		h->v = xreallocarray(h->v, h->capv, sizeof *h->v);
	}
	h->v[h->n] = h->own ? xstrdup(s) : s;
	h->slot[at] = ++h->n;
	return h->n - 1;
}

void
bst_strs_free(struct bst_strs *h)
{
	size_t i;

	for (i = 0; h->own && i < h->n; i++)
		free((char *)h->v[i]);
	free(h->v);
	free(h->slot);
	memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------ sort keys */

struct rank_arg {
	const char **v;
	int natural;
};

static int
cmp_ix(const void *x, const void *y, void *arg)
{
	const struct rank_arg *r = arg;
	const char *a = r->v[*(const size_t *)x], *b = r->v[*(const size_t *)y];

	return r->natural ? bst_natcmp(a, b) : strcmp(a, b);
}

/* rank[i] of each distinct string v[i]: 1 + the number of classes below
 * it, strings the order calls equal sharing one rank. */
static unsigned *
ranks(const struct bst_strs *h, int natural)
{
	size_t *ix = xreallocarray(NULL, h->n + 1, sizeof *ix), i;
	unsigned *rank = xreallocarray(NULL, h->n + 1, sizeof *rank), r = 0;
	struct rank_arg arg = { h->v, natural };

	for (i = 0; i < h->n; i++)
		ix[i] = i;
	ctx_sort(ix, h->n, sizeof *ix, cmp_ix, &arg);
	for (i = 0; i < h->n; i++) {
		if (i == 0 || cmp_ix(&ix[i - 1], &ix[i], &arg) != 0)
			r++;
		rank[ix[i]] = r;
	}
	free(ix);
	return rank;
}

/* *k: the index of str in h; the previous rating's when it holds the same
 * pointer (a record's neighbours share site, question and model, and the
 * pool holds each string once), without hashing it again. */
static void
key_of(struct bst_strs *h, unsigned *k, const char *str, const char *pstr,
    unsigned pk)
{
	if (pstr != NULL && str == pstr)
		*k = pk;
	else
		*k = (unsigned)bst_strs_add(h, str);
}

/*
 * The sort keys of the ratings v[a][0..n[a]) of the three arrays, in two
 * passes over them: each rating's site, question and model as the index of
 * its string among the distinct ones of its kind, then as that string's
 * rank (natural for site and question, bytes for model).
 */
static void
key_fields(struct bst_obs *const v[3], const size_t n[3])
{
	struct bst_strs site = { 0 }, question = { 0 }, model = { 0 };
	unsigned *rs, *rq, *rm;
	struct bst_obs *o, *prev = NULL;
	size_t a, i;

	for (a = 0; a < 3; a++)
		for (i = 0; i < n[a]; i++) {
			o = &v[a][i];
			key_of(&site, &o->ksite, o->site, prev ? prev->site :
			    NULL, prev ? prev->ksite : 0);
			key_of(&question, &o->kquestion, o->question, prev ?
			    prev->question : NULL, prev ? prev->kquestion : 0);
			key_of(&model, &o->kmodel, o->model, prev ? prev->model :
			    NULL, prev ? prev->kmodel : 0);
			prev = o;
		}
	rs = ranks(&site, 1);
	rq = ranks(&question, 1);
	rm = ranks(&model, 0);
	for (a = 0; a < 3; a++)
		for (i = 0; i < n[a]; i++) {
			o = &v[a][i];
			o->ksite = rs[o->ksite];
			o->kquestion = rq[o->kquestion];
			o->kmodel = rm[o->kmodel];
		}
	free(rs);
	free(rq);
	free(rm);
	bst_strs_free(&site);
	bst_strs_free(&question);
	bst_strs_free(&model);
}

void
bst_keys(struct bst_study *s)
{
	struct bst_obs *const v[3] = { s->obs, s->sec, s->alt };
	const size_t n[3] = { s->nobs, s->nsec, s->nalt };

	key_fields(v, n);
}

/* ---------------------------------------------------------- the order */

int
bst_tuple_cmp(const struct bst_obs *a, const struct bst_obs *b)
{
	int c;

	if (a->ksite && b->ksite) {	/* keys set: the same order, faster */
		if (a->ksite != b->ksite)
			return a->ksite < b->ksite ? -1 : 1;
		if (a->kquestion != b->kquestion)
			return a->kquestion < b->kquestion ? -1 : 1;
		if (a->kmodel != b->kmodel)
			return a->kmodel < b->kmodel ? -1 : 1;
		return a->cond - b->cond;
	}
	if ((c = bst_natcmp(a->site, b->site)) ||
	    (c = bst_natcmp(a->question, b->question)) ||
	    (c = bst_cmp_str(a->model, b->model)))
		return c;
	return a->cond - b->cond;
}

int
bst_obs_cmp(const void *x, const void *y)
{
	const struct bst_obs *a = *(const struct bst_obs *const *)x;
	const struct bst_obs *b = *(const struct bst_obs *const *)y;
	int c;

	if ((c = bst_tuple_cmp(a, b)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Pointers first: the ratings' strings are held once (records.c). */
static int
same_str(const char *a, const char *b)
{
	return a == b || !bst_cmp_str(a, b);
}

int
bst_same_triple(const struct bst_obs *a, const struct bst_obs *b)
{
	return same_str(a->site, b->site) && same_str(a->question, b->question) &&
	    same_str(a->model, b->model);
}

/* ------------------------------------------------------------- printing */

char *
bst_fmt_p(double p, char *out, size_t len)
{
	if (p == 0)	/* below the smallest double */
		snprintf(out, len, "< 1e-300");
	else if (p < 0.001)
		snprintf(out, len, "%.2e", p);
	else
		snprintf(out, len, "%.4f", p);
	return out;
}
