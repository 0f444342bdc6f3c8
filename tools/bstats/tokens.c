/*
 * tokens.c - the three levels of token analysis of 001 §2.6 and 000 §4: per
 * site (mean and median tokens per condition, the reduction A - B in tokens
 * and as a percentage of A), across models (does one tokenizer see a larger
 * HTML-Markdown difference than another), and the token-quality and
 * freshness correlations (001 §6.7, §6.8).  Calls results.c and obs.c.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

static double
median_of(double *v, size_t n)
{
	json_t *o = bst_summary(v, n, 0);
	double m = json_number_value(json_object_get(o, "median"));

	json_decref(o);
	return m;
}

/* One site's row: pairs [i, j) of s->pairs. */
static json_t *
site_row(const struct bst_study *s, size_t i, size_t j, int ref, double *pct)
{
	json_t *o = json_object();
	double sa = 0, sb = 0, *va, *vb;
	size_t k, n = j - i;

	va = xreallocarray(NULL, n + 1, sizeof *va);
	vb = xreallocarray(NULL, n + 1, sizeof *vb);
	for (k = i; k < j; k++) {
		const struct bst_pair *p = &s->pairs[k];

		va[k - i] = ref ? p->a->reftok : p->a->tok;
		vb[k - i] = ref ? p->b->reftok : p->b->tok;
		sa += va[k - i];
		sb += vb[k - i];
	}
	sa /= (double)n;
	sb /= (double)n;
	json_set_str(o, "site_id", s->pairs[i].a->site);
	json_set_int(o, "n", (long long)n);
	json_set_real(o, "mean_a", sa);
	json_set_real(o, "mean_b", sb);
	json_set_real(o, "median_a", median_of(va, n));
	json_set_real(o, "median_b", median_of(vb, n));
	json_set_real(o, "delta", sa - sb);
	*pct = NAN;
	if (sa > 0) {
		*pct = 100 * (sa - sb) / sa;
		json_set_real(o, "delta_pct", *pct);
	} else {
		json_set_null(o, "delta_pct");
	}
	free(va);
	free(vb);
	return o;
}

/*
 * Per-site token comparison (001 §2.6 level 1, 000 §4): Δ = A - B
 * (positive: Condition B uses fewer tokens) of the mean, and its percentage
 * of A; the distribution of the per-site percentages across sites (000 §4
 * level 2).  The reference (Llama 3) counts are used when every pair has
 * them, as §2.6 asks.
 */
void
bst_token_sites(struct bst_study *s)
{
	json_t *r, *sites = json_array();
	double *pct = xreallocarray(NULL, s->npairs + 1, sizeof *pct);
	size_t i, j, np = 0;
	int ref = s->npairs > 0;

	for (i = 0; i < s->npairs; i++)
		if (!s->pairs[i].a->has_reftok || !s->pairs[i].b->has_reftok)
			ref = 0;
	for (i = 0; i < s->npairs; i = j) {
		double p;

		for (j = i; j < s->npairs && !strcmp(s->pairs[j].a->site,
		    s->pairs[i].a->site); j++)
			;
		json_array_append_new(sites, site_row(s, i, j, ref, &p));
		if (!isnan(p))
			pct[np++] = p;
	}
	r = bst_res_new(s, "token_summary", "tokens", NULL, NULL,
	    ref ? "ref_token_count" : "input_token_count", "per site");
	json_set_int(r, "n", (long long)json_array_size(sites));
	json_set_bool(r, "computable", np > 0);
	if (np == 0)
		json_set_str(r, "reason", "no site with scored pairs");
	json_set_new(r, "delta_pct_across_sites", bst_summary(pct, np, 0));
	json_set_new(r, "sites", sites);
	bst_res_sign(r, "Δ = A − B (mean tokens); Δ % = 100 (A − B) / A");
	bst_res_note(r, "000 §4 writes the delta as B − A (negative: B uses "
	    "fewer tokens); this report turns it round so that one sign holds "
	    "everywhere: positive means Condition B (llms.txt) uses fewer");
	free(pct);
}

/* ------------------------------------------------ cross-model variation */

static int
cmp_model(const void *x, const void *y)
{
	const struct bst_pair *a = *(const struct bst_pair *const *)x;
	const struct bst_pair *b = *(const struct bst_pair *const *)y;

	return bst_natcmp(a->a->model, b->a->model);
}

/* One model's row over its pairs pp[0..n). */
static json_t *
model_row(const struct bst_pair *const *pp, size_t n, int *withref)
{
	json_t *o = json_object();
	double *red = xreallocarray(NULL, n + 1, sizeof *red);
	double *ra = xreallocarray(NULL, n + 1, sizeof *ra);
	double *rb = xreallocarray(NULL, n + 1, sizeof *rb);
	size_t k, nr = 0, nref = 0;

	for (k = 0; k < n; k++) {
		const struct bst_pair *p = pp[k];

		if (p->a->tok > 0)
			red[nr++] = 100 * (p->a->tok - p->b->tok) / p->a->tok;
		if (p->a->has_reftok && p->b->has_reftok && p->a->reftok > 0 &&
		    p->b->reftok > 0) {
			ra[nref] = p->a->tok / p->a->reftok;
			rb[nref++] = p->b->tok / p->b->reftok;
		}
	}
	json_set_str(o, "model_id", pp[0]->a->model);
	json_set_new(o, "model_family", json_str_or_null(pp[0]->a->family));
	json_set_int(o, "n", (long long)n);
	json_set_new(o, "reduction_pct", bst_summary(red, nr, 0));
	if (nref > 0) {
		*withref = 1;
		json_set_real(o, "median_tokens_per_ref_a", median_of(ra, nref));
		json_set_real(o, "median_tokens_per_ref_b", median_of(rb, nref));
	}
	free(red);
	free(ra);
	free(rb);
	return o;
}

/*
 * 001 §2.6 level 2: for each model (its tokenizer), the per-pair token
 * reduction 100 (A - B) / A over the content blocks it was given, and, with
 * the reference counts, its tokens per reference token under A and under B
 * (a tokenizer more sensitive to HTML shows a larger A ratio).  Descriptive.
 */
void
bst_token_models(struct bst_study *s)
{
	const struct bst_pair **pp = xreallocarray(NULL, s->npairs + 1,
	    sizeof *pp);
	json_t *r, *models = json_array();
	size_t i, j;
	int withref = 0;

	for (i = 0; i < s->npairs; i++)
		pp[i] = &s->pairs[i];
	qsort(pp, s->npairs, sizeof *pp, cmp_model);
	for (i = 0; i < s->npairs; i = j) {
		for (j = i; j < s->npairs && !strcmp(pp[j]->a->model,
		    pp[i]->a->model); j++)
			;
		json_array_append_new(models, model_row(pp + i, j - i, &withref));
	}
	r = bst_res_new(s, "token_variation", "tokens", NULL, NULL,
	    "input_token_count", "per model (tokenizer)");
	json_set_int(r, "n", (long long)json_array_size(models));
	json_set_bool(r, "computable", json_array_size(models) > 0);
	if (json_array_size(models) == 0)
		json_set_str(r, "reason", "no scored pairs");
	json_set_bool(r, "reference_counts", withref);
	json_set_new(r, "models", models);
	bst_res_sign(r, "reduction % = 100 (A − B) / A per pair");
	bst_res_note(r, "cross-model token variation (001 §2.6, level 2): "
	    "descriptive, no test");
	free(pp);
}

/* ---------------------------------------------------------- correlations */

/* Seconds since the epoch of an HTTP date (RFC 9110 IMF-fixdate) or an ISO
 * 8601 UTC time; -1 when it is neither. */
static double
parse_time(const char *s)
{
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May",
	    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;
	char wd[4], mn[4];
	int d, y, H, M, S, i;

	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%3s, %d %3s %d %d:%d:%d", wd, &d, mn, &y, &H, &M, &S) == 7) {
		for (i = 0; i < 12 && strcmp(mn, mon[i]); i++)
			;
		if (i == 12)
			return -1;
		tm.tm_mon = i;
	} else if (sscanf(s, "%d-%d-%dT%d:%d:%d", &y, &i, &d, &H, &M, &S) == 6) {
		tm.tm_mon = i - 1;
	} else {
		return -1;
	}
	tm.tm_year = y - 1900;
	tm.tm_mday = d;
	tm.tm_hour = H;
	tm.tm_min = M;
	tm.tm_sec = S;
	return (double)timegm(&tm);
}

/* 001 §6.7: Δtokens against Δaccuracy over all pairs (Figure 4). */
static void
token_quality(struct bst_study *s, double *x, double *y)
{
	size_t i;
	json_t *r;

	for (i = 0; i < s->npairs; i++) {
		x[i] = bst_delta(M_TOK, s->pairs[i].a, s->pairs[i].b);
		y[i] = bst_delta(M_ACC, s->pairs[i].a, s->pairs[i].b);
	}
	r = bst_spearman_res(s, x, y, s->npairs, "correlation",
	    "delta_tokens~delta_accuracy", "all pairs");
	bst_res_sign(r, NULL);
	bst_res_note(r, "token-quality correlation (001 §6.7, Figure 4): "
	    "Δtokens = A − B, Δaccuracy = B − A");
}

/* parse_time of dates held once (the study's pool): each distinct string
 * read once, kept in a slot chosen by its address. */
#define TIME_SLOTS 256

struct time_memo {
	const char *s[TIME_SLOTS];
	double t[TIME_SLOTS];
};

static double
memo_time(struct time_memo *m, const char *s)
{
	size_t k = ((uintptr_t)s >> 4) % TIME_SLOTS;

	if (m->s[k] != s) {
		m->s[k] = s;
		m->t[k] = parse_time(s);
	}
	return m->t[k];
}

/* 001 §6.8: staleness of the Markdown against Δaccuracy, where both
 * conditions carry a Last-Modified date. */
static void
freshness(struct bst_study *s, double *x, double *y)
{
	struct time_memo *m = xcalloc(1, sizeof *m);
	size_t i, n = 0;
	json_t *r;

	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];
		double ta, tb;

		if (!p->a->lm || !p->b->lm)
			continue;
		ta = memo_time(m, p->a->lm);
		tb = memo_time(m, p->b->lm);
		if (ta < 0 || tb < 0)
			continue;
		x[n] = (ta - tb) / 86400.0;
		y[n] = bst_delta(M_ACC, p->a, p->b);
		n++;
	}
	free(m);
	r = bst_spearman_res(s, x, y, n, "correlation",
	    "staleness_days~delta_accuracy", "pairs with Last-Modified in both");
	bst_res_note(r, "freshness analysis (001 §6.8), exploratory: staleness = "
	    "Last-Modified(A) − Last-Modified(B) in days (positive: the Markdown "
	    "is older)");
}

void
bst_correlations(struct bst_study *s)
{
	double *x = xreallocarray(NULL, s->npairs + 1, sizeof *x);
	double *y = xreallocarray(NULL, s->npairs + 1, sizeof *y);

	token_quality(s, x, y);
	freshness(s, x, y);
	free(x);
	free(y);
}
