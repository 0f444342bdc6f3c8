/*
 * agreement.c - inter-rater reliability (000 §8): weighted and unweighted
 * kappa, the hallucination count correlation and category agreement, per
 * kind of second rating (another rater, the primary rater's self-check, an
 * LLM judge, the autoscorer); the 000 §8.2 decision; and the agreement
 * under the rubrics of specs 002 and 004.  Calls results.c, stats.c and
 * obs.c.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* The kappa threshold of 000 §8.2. */
#define KAPPA_MIN 0.6

static const char *const KINDS[] = { "inter_rater", "self_check",
    "human_vs_judge", "human_vs_autoscore" };

/* The primary rating of o's tuple and condition in s->idx, or NULL. */
static const struct bst_obs *
find_primary(const struct bst_study *s, const struct bst_obs *o)
{
	size_t lo = 0, hi = s->nobs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct bst_obs *m = s->idx[mid];
		int c = bst_tuple_cmp(m, o);	/* the order of s->idx */

		if (c == 0)
			return m;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static json_t *
kappa_res(struct bst_study *s, const char *kind, const char *metric,
    const double *x, const double *y, size_t n, const double *labels,
    size_t nl, enum bst_kappa_weights w)
{
	struct bst_test t;
	json_t *r = bst_res_new(s, w == BST_KAPPA_NONE ? "cohen_kappa" :
	    w == BST_KAPPA_LINEAR ? "weighted_kappa_linear" :
	    "weighted_kappa_quadratic", "agreement", NULL, NULL, metric, kind);

	/* a constant rater gives 0, both raters constant: undefined (sklearn) */
	bst_kappa(x, y, n, labels, nl, w, &t);
	bst_res_test(r, &t, "kappa", BST_TWO_SIDED, 0);
	json_object_del(r, "p");
	json_object_del(r, "p_adjusted");
	return r;
}

static int
is_kind(const struct bst_obs *o, const char *kind)
{
	return o->rater_kind && !strcmp(o->rater_kind, kind);
}

/*
 * 000 §8: a rating by an LLM judge (§10) or the autoscorer against the
 * other side; the primary rater's delayed re-scoring (§8.3, bscore-merge's
 * self_check, or the same rater_id); else a second rater (§8.1).
 */
static size_t
kind_of(const struct bst_obs *o, const struct bst_obs *p)
{
	if (is_kind(o, "llm_judge") || is_kind(p, "llm_judge"))
		return 2;
	if (is_kind(o, "autoscore") || is_kind(p, "autoscore"))
		return 3;
	if (o->self_check || (o->rater && p->rater && !strcmp(o->rater, p->rater)))
		return 1;
	return 0;
}

/* The paired ratings of one kind: 0 accuracy, 1 citation, 2 completeness,
 * 3 hallucination count, 4 category presence (four per response). */
struct ratings {
	double *x[5], *y[5];
	size_t n[5];
};

static void
gather(const struct bst_study *s, size_t kind, struct ratings *g)
{
	size_t i, c, j, cap = s->nsec * 4 + 1;

	memset(g, 0, sizeof *g);
	for (c = 0; c < 5; c++) {
		g->x[c] = xreallocarray(NULL, cap, sizeof **g->x);
		g->y[c] = xreallocarray(NULL, cap, sizeof **g->y);
	}
	for (i = 0; i < s->nsec; i++) {
		const struct bst_obs *o = &s->sec[i], *p;

		if (o->excluded || !(p = find_primary(s, o)) || p->excluded ||
		    kind_of(o, p) != kind)
			continue;
		g->x[0][g->n[0]] = p->fa;
		g->y[0][g->n[0]++] = o->fa;
		if (p->cf >= 0 && o->cf >= 0) {
			g->x[1][g->n[1]] = p->cf;
			g->y[1][g->n[1]++] = o->cf;
		}
		g->x[2][g->n[2]] = p->comp;
		g->y[2][g->n[2]++] = o->comp;
		g->x[3][g->n[3]] = p->hc;
		g->y[3][g->n[3]++] = o->hc;
		for (j = 0; j < 4; j++) {
			g->x[4][g->n[4]] = (p->cats >> j) & 1;
			g->y[4][g->n[4]++] = (o->cats >> j) & 1;
		}
		assert(g->n[4] <= cap);
	}
}

/*
 * 000 §8.2: "if weighted kappa < 0.6 on any metric" the raters refine the
 * rubric and re-score; at >= 0.6 the primary rater's scores stand.  The
 * metrics: linear weighted kappa for factual accuracy and citation fidelity,
 * kappa for completeness and the hallucination categories (binary, where
 * weighting changes nothing).
 */
static void
kappa_decision(struct bst_study *s, json_t *const k[4], size_t n)
{
	json_t *r = bst_res_new(s, "kappa_decision", "agreement_decision", NULL,
	    NULL, "weighted kappa >= 0.6 on every metric", "inter_rater");
	json_t *low = json_array(), *undef = json_array();
	size_t i;

	for (i = 0; i < 4; i++) {
		const char *m = json_string_value(json_object_get(k[i], "metric"));

		if (!json_is_true(json_object_get(k[i], "computable")))
			json_array_append_new(undef, json_string(m));
		else if (json_number_value(json_object_get(k[i], "statistic")) <
		    KAPPA_MIN)
			json_array_append_new(low, json_string(m));
	}
	json_set_int(r, "n", (long long)n);
	json_set_bool(r, "computable", 1);
	json_set_str(r, "decision", json_array_size(low) ? "refine and re-score" :
	    json_array_size(undef) ? "undetermined" : "primary scores stand");
	json_set_new(r, "below_threshold", low);
	json_set_new(r, "not_computable", undef);
	json_set_real(r, "threshold", KAPPA_MIN);
}

/* The kappas of one kind of second rating; in dec the four that 000 §8.2
 * reads (linear weighted for the ordinal metrics, plain for the binary). */
static void
kappas(struct bst_study *s, const char *kind, const struct ratings *g,
    json_t *dec[4])
{
	static const double acc_l[] = { 0, 1, 2, 3 }, cf_l[] = { 0, 1, 2 },
	    bin_l[] = { 0, 1 };

	dec[0] = kappa_res(s, kind, "factual_accuracy", g->x[0], g->y[0],
	    g->n[0], acc_l, 4, BST_KAPPA_LINEAR);
	kappa_res(s, kind, "factual_accuracy", g->x[0], g->y[0], g->n[0],
	    acc_l, 4, BST_KAPPA_QUADRATIC);
	kappa_res(s, kind, "factual_accuracy", g->x[0], g->y[0], g->n[0],
	    acc_l, 4, BST_KAPPA_NONE);
	dec[1] = kappa_res(s, kind, "citation_fidelity", g->x[1], g->y[1],
	    g->n[1], cf_l, 3, BST_KAPPA_LINEAR);
	kappa_res(s, kind, "citation_fidelity", g->x[1], g->y[1], g->n[1],
	    cf_l, 3, BST_KAPPA_QUADRATIC);
	dec[2] = kappa_res(s, kind, "completeness", g->x[2], g->y[2], g->n[2],
	    bin_l, 2, BST_KAPPA_NONE);
	dec[3] = kappa_res(s, kind, "hallucination_categories", g->x[4],
	    g->y[4], g->n[4], bin_l, 2, BST_KAPPA_NONE);
}

/* The share of items (n > 0) whose factual accuracy both raters scored
 * alike. */
static void
percent_agreement(struct bst_study *s, const char *kind,
    const struct ratings *g)
{
	json_t *r = bst_res_new(s, "percent_agreement", "agreement", NULL, NULL,
	    "factual_accuracy", kind);
	size_t i, same = 0;

	for (i = 0; i < g->n[0]; i++)
		same += g->x[0][i] == g->y[0][i];
	json_set_int(r, "n", (long long)g->n[0]);
	json_set_bool(r, "computable", 1);
	json_set_real(r, "statistic", 100.0 * (double)same / (double)g->n[0]);
	json_set_str(r, "statistic_name", "percent");
}

static void
agreement_kind(struct bst_study *s, size_t k)
{
	struct ratings g;
	json_t *dec[4];
	size_t c;

	gather(s, k, &g);
	if (g.n[0] > 0) {
		kappas(s, KINDS[k], &g, dec);
		bst_spearman_res(s, g.x[3], g.y[3], g.n[3], "agreement",
		    "hallucination_count", KINDS[k]);
		percent_agreement(s, KINDS[k], &g);
		if (k == 0)
			kappa_decision(s, dec, g.n[0]);
	}
	for (c = 0; c < 5; c++) {
		free(g.x[c]);
		free(g.y[c]);
	}
}

void
bst_agreement(struct bst_study *s)
{
	size_t k;

	for (k = 0; k < 4; k++)
		agreement_kind(s, k);
}

/* ------------------------------------------------- spec 002 and 004 */

static int
same_response(const struct bst_obs *a, const struct bst_obs *b)
{
	return bst_same_triple(a, b) && a->cond == b->cond;
}

/* The rating pairs of one rubric: the primary rater's score (x: PASS or
 * track 1; x2: track 2) against another rater's (y, y2). */
struct rubric_pairs {
	double *x, *y, *x2, *y2;
	size_t n, cap;
};

static void
rubric_push(struct rubric_pairs *pp, double x, double y, double x2, double y2)
{
	if (pp->n == pp->cap) {
		pp->cap = pp->cap ? 2 * pp->cap : 16;
		pp->x = xreallocarray(pp->x, pp->cap, sizeof *pp->x);
		pp->y = xreallocarray(pp->y, pp->cap, sizeof *pp->y);
		pp->x2 = xreallocarray(pp->x2, pp->cap, sizeof *pp->x2);
		pp->y2 = xreallocarray(pp->y2, pp->cap, sizeof *pp->y2);
	}
	pp->x[pp->n] = x;
	pp->y[pp->n] = y;
	pp->x2[pp->n] = x2;
	pp->y2[pp->n] = y2;
	pp->n++;
}

/*
 * The ratings idx[0..n) of one tuple: each primary rating under rubric rb
 * against each other rating of the same response, into pp.  Returns the
 * number of primary ratings under rb.
 */
static size_t
tuple_pairs(const struct bst_obs *const *idx, size_t n, int rb,
    struct rubric_pairs *pp)
{
	size_t i, j, any = 0;

	for (i = 0; i < n; i++) {
		const struct bst_obs *p = idx[i];

		if (p->rubric != rb || !p->primary || p->excluded)
			continue;
		any++;
		for (j = 0; j < n; j++) {
			const struct bst_obs *o = idx[j];

			if (o->rubric != rb || o->primary || o->excluded ||
			    !same_response(o, p))
				continue;
			rubric_push(pp, rb == BST_R002 ? p->q >= 0.70 : p->t1,
			    rb == BST_R002 ? o->q >= 0.70 : o->t1, p->t2, o->t2);
		}
	}
	return any;
}

/* Spec 004: each track between raters, and track 1 against track 2. */
static void
agreement_004(struct bst_study *s, const struct rubric_pairs *pp)
{
	double *x = xreallocarray(NULL, s->nalt + 1, sizeof *x);
	double *y = xreallocarray(NULL, s->nalt + 1, sizeof *y);
	size_t i, n = 0;
	json_t *r;

	bst_spearman_res(s, pp->x, pp->y, pp->n, "agreement",
	    "factual_accuracy_score", "dual-track raters");
	bst_spearman_res(s, pp->x2, pp->y2, pp->n, "agreement",
	    "reasoning_quality", "dual-track raters");
	for (i = 0; i < s->nalt; i++)
		if (s->alt[i].rubric == BST_R004 && s->alt[i].primary &&
		    !s->alt[i].excluded) {
			x[n] = s->alt[i].t1;
			y[n] = s->alt[i].t2;
			n++;
		}
	r = bst_spearman_res(s, x, y, n, "agreement",
	    "factual_accuracy_score~reasoning_quality", "dual-track tracks");
	bst_res_note(r, "spec 004: the two tracks are meant to be independent; "
	    "a strong correlation suggests they are not");
	free(x);
	free(y);
}

/* The agreement under rubric rb over idx (the alternative ratings sorted
 * in the order of tuples), when a primary rating under rb exists. */
static void
rubric_agreement(struct bst_study *s, const struct bst_obs *const *idx,
    int rb)
{
	static const double bin_l[] = { 0, 1 };
	struct rubric_pairs pp = { NULL, NULL, NULL, NULL, 0, 0 };
	size_t i, j, any = 0;

	for (i = 0; i < s->nalt; i = j) {
		for (j = i + 1; j < s->nalt && !bst_tuple_cmp(idx[i], idx[j]); j++)
			;
		any += tuple_pairs(idx + i, j - i, rb, &pp);
	}
	/* spec 002 Phase 3: kappa on PASS (quality_score >= 0.70) or FAIL */
	if (any && rb == BST_R002)
		kappa_res(s, "answer-quality raters",
		    "pass_fail (quality_score >= 0.70)", pp.x, pp.y, pp.n, bin_l,
		    2, BST_KAPPA_NONE);
	else if (any)
		agreement_004(s, &pp);
	free(pp.x);
	free(pp.y);
	free(pp.x2);
	free(pp.y2);
}

void
bst_rubric_agreement(struct bst_study *s)
{
	const struct bst_obs **idx;
	size_t i;

	if (s->nalt == 0)
		return;
	idx = xreallocarray(NULL, s->nalt, sizeof *idx);
	for (i = 0; i < s->nalt; i++)
		idx[i] = &s->alt[i];
	qsort(idx, s->nalt, sizeof *idx, bst_obs_cmp);
	rubric_agreement(s, idx, BST_R002);
	rubric_agreement(s, idx, BST_R004);
	free(idx);
}
