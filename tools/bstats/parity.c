/*
 * parity.c - A<->B content parity (001 §7.1 L-IV-1): how much of each
 * condition's content the other carries, per site, from the fields bctx
 * writes on every context record of a pair (parity_b_in_a, parity_a_in_b,
 * parity_code_b_in_a, parity_code_a_in_b, pair_drift; they pass through
 * btok, binfer and bscore-merge onto the scored records); beside it the
 * gold-coverage asymmetry (gold_coverage of B against A); and the primary
 * tests again without the pairs bctx flagged as drifted, as a sensitivity
 * analysis.  Data from before parity was recorded carries none of the
 * fields: the record says so and nothing is made up.  Calls paired.c and
 * results.c.
 */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* The pair's parity value (B's record, else A's); -1 when absent. */
static double
pv(const struct bst_pair *p, size_t off)
{
	double b = *(const double *)((const char *)p->b + off);

	return b >= 0 ? b : *(const double *)((const char *)p->a + off);
}

static int
drift_of(const struct bst_pair *p)
{
	return p->b->drift >= 0 ? p->b->drift : p->a->drift;
}

static int
has_parity(const struct bst_pair *p)
{
	return pv(p, offsetof(struct bst_obs, par_b_in_a)) >= 0 ||
	    pv(p, offsetof(struct bst_obs, par_a_in_b)) >= 0 ||
	    drift_of(p) >= 0;
}

/* The summary of one parity field over pairs [i, j) (absent ones skipped). */
static json_t *
field_summary(const struct bst_study *s, size_t i, size_t j, size_t off)
{
	double *v = xreallocarray(NULL, j - i + 1, sizeof *v);
	size_t k, n = 0;
	json_t *o;

	for (k = i; k < j; k++) {
		double x = pv(&s->pairs[k], off);

		if (x >= 0)
			v[n++] = x;
	}
	o = bst_summary(v, n, 0);
	free(v);
	return o;
}

/* Gold coverage of A and B over pairs [i, j) where both have it. */
static void
gold_asymmetry(const struct bst_study *s, size_t i, size_t j, json_t *o)
{
	double sa = 0, sb = 0;
	size_t k, n = 0, lower = 0;

	for (k = i; k < j; k++) {
		const struct bst_pair *p = &s->pairs[k];

		if (p->a->gold_cov < 0 || p->b->gold_cov < 0)
			continue;
		sa += p->a->gold_cov;
		sb += p->b->gold_cov;
		lower += p->b->gold_cov < p->a->gold_cov;
		n++;
	}
	json_set_int(o, "gold_n", (long long)n);
	if (n == 0)
		return;
	json_set_real(o, "gold_coverage_a", sa / (double)n);
	json_set_real(o, "gold_coverage_b", sb / (double)n);
	json_set_real(o, "gold_b_lower_pct", 100.0 * (double)lower / (double)n);
}

static json_t *
site_parity(const struct bst_study *s, size_t i, size_t j)
{
	json_t *o = json_object();
	size_t k, n = 0, drift = 0;

	for (k = i; k < j; k++) {
		n += has_parity(&s->pairs[k]);
		drift += drift_of(&s->pairs[k]) == 1;
	}
	json_set_str(o, "site_id", s->pairs[i].a->site);
	json_set_int(o, "pairs", (long long)(j - i));
	json_set_int(o, "with_parity", (long long)n);
	json_set_int(o, "drift", (long long)drift);
	json_set_new(o, "b_in_a", field_summary(s, i, j,
	    offsetof(struct bst_obs, par_b_in_a)));
	json_set_new(o, "a_in_b", field_summary(s, i, j,
	    offsetof(struct bst_obs, par_a_in_b)));
	json_set_new(o, "code_b_in_a", field_summary(s, i, j,
	    offsetof(struct bst_obs, par_code_b_in_a)));
	json_set_new(o, "code_a_in_b", field_summary(s, i, j,
	    offsetof(struct bst_obs, par_code_a_in_b)));
	gold_asymmetry(s, i, j, o);
	return o;
}

static int
no_drift(const struct bst_pair *p, const void *arg)
{
	(void)arg;
	return drift_of(p) != 1;
}

/* H1-H3 again without the drifted pairs: not a member of a BH family. */
static void
sensitivity(struct bst_study *s, size_t ndrift)
{
	static const enum bst_metric ms[3] = { M_ACC, M_HALL, M_TOK };
	static const char *const hyp[3] = { "H1", "H2", "H3" };
	char sub[96];
	size_t k;

	snprintf(sub, sizeof sub, "without the %zu pairs flagged pair_drift",
	    ndrift);
	for (k = 0; k < 3; k++) {
		json_t *r = bst_metric_test(s, ms[k], no_drift, NULL,
		    "sensitivity_parity", hyp[k], NULL, sub);

		bst_res_note(r, "sensitivity analysis (A<->B parity, 001 §7.1 "
		    "L-IV-1): the primary test without the drifted pairs; "
		    "not BH-adjusted");
	}
}

void
bst_parity(struct bst_study *s)
{
	json_t *r = bst_res_new(s, "parity_summary", "parity", NULL, NULL,
	    "parity_b_in_a, parity_a_in_b", "per site");
	json_t *sites = json_array();
	size_t i, j, with = 0, drift = 0;

	for (i = 0; i < s->npairs; i++) {
		with += has_parity(&s->pairs[i]);
		drift += drift_of(&s->pairs[i]) == 1;
	}
	for (i = 0; i < s->npairs; i = j) {
		for (j = i; j < s->npairs && !strcmp(s->pairs[j].a->site,
		    s->pairs[i].a->site); j++)
			;
		json_array_append_new(sites, site_parity(s, i, j));
	}
	json_set_int(r, "n", (long long)s->npairs);
	json_set_int(r, "pairs_with_parity", (long long)with);
	json_set_int(r, "pairs_drift", (long long)drift);
	json_set_bool(r, "computable", with > 0);
	if (with == 0)
		json_set_str(r, "reason", "the scored records carry no parity "
		    "fields (data from before bctx recorded A<->B parity)");
	json_set_new(r, "sites", sites);
	if (with > 0)
		sensitivity(s, drift);
}
