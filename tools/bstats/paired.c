/*
 * paired.c - the paired test of one metric over a set of pairs (001 §6.2)
 * with its effect size (§6.3) and the distributions beside it (§7.4
 * L-SC-4): the Wilcoxon signed-rank test for factual accuracy,
 * hallucinations and citation fidelity, Shapiro-Wilk then the paired t-test
 * or the Wilcoxon fallback for tokens, McNemar for completeness.  The
 * driver runs it over all pairs (H1-H3, H6); groups.c within each tier and
 * complexity level; parity.c without the drifted pairs; compare.c over a
 * comparison of condition variants, two-sided (bst_explore_test).  Calls
 * results.c, stats.c and obs.c.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* What names one test's result record (bst_res_new), and whether its
 * Wilcoxon and t tests are two-sided (the exploratory comparisons). */
struct res_key {
	const char *group, *hyp, *family, *subset;
	int two_sided;
};

size_t
bst_collect(const struct bst_study *s, enum bst_metric m, bst_pair_filter f,
    const void *arg, double **bv, double **av, double **dv)
{
	size_t i, n = 0;

	*bv = xreallocarray(NULL, s->npairs + 1, sizeof **bv);
	*av = xreallocarray(NULL, s->npairs + 1, sizeof **av);
	*dv = xreallocarray(NULL, s->npairs + 1, sizeof **dv);
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];

		if (f && !f(p, arg))
			continue;
		if (m == M_CITE && (p->a->cf < 0 || p->b->cf < 0))
			continue;
		(*bv)[n] = bst_metric_val(p->b, m);
		(*av)[n] = bst_metric_val(p->a, m);
		(*dv)[n] = bst_delta(m, p->a, p->b);
		n++;
	}
	assert(n <= s->npairs);
	return n;
}

/* ------------------------------------------------------ the three tests */

/*
 * H6: McNemar's exact test with the paired odds ratio, and the chi-square
 * version as its own record beside it (same hypothesis, not a second member
 * of the BH family).
 */
static json_t *
completeness_test(struct bst_study *s, const double *bv, const double *av,
    size_t n, const struct res_key *k)
{
	long b = 0, c = 0;
	double o = 0, lo = 0, hi = 0;
	const char *why = NULL;
	struct bst_test t;
	json_t *r, *chi;
	size_t i;

	for (i = 0; i < n; i++) {
		b += av[i] == 0 && bv[i] == 1;
		c += av[i] == 1 && bv[i] == 0;
	}
	bst_mcnemar(b, c, 1, 1, &t);
	r = bst_res_new(s, "mcnemar_exact", k->group, k->hyp, k->family,
	    BST_METRIC_NAME[M_COMP], k->subset);
	bst_res_test(r, &t, "min(b, c)", BST_TWO_SIDED, 1);
	json_set_int(r, "n", (long long)n);
	json_set_int(r, "discordant_b_only", b);
	json_set_int(r, "discordant_a_only", c);
	if (b + c == 0)
		bst_res_note(r, "no discordant pairs: statsmodels' exact McNemar "
		    "gives statistic 0, p = 1, and so does bstats");
	if (bst_paired_or(b, c, s->opt.level, &o, &lo, &hi, &why))
		bst_res_effect(r, "odds_ratio", 1, o, lo, hi, s->opt.level, NULL);
	else
		bst_res_effect(r, "odds_ratio", 0, 0, 0, 0, 0, why);
	bst_mcnemar(b, c, 0, 1, &t);
	chi = bst_res_new(s, "mcnemar_chi2", k->group, k->hyp, NULL,
	    BST_METRIC_NAME[M_COMP], k->subset);
	bst_res_test(chi, &t, "chi2", BST_TWO_SIDED, 1);
	json_set_int(chi, "n", (long long)n);
	bst_res_note(chi, "chi-square McNemar with continuity correction, "
	    "reported beside the exact test; not a member of the BH family");
	return r;
}

static int
all_equal(const double *d, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (d[i] != d[0])
			return 0;
	return 1;
}

/* H3 when Shapiro-Wilk does not reject normality: t-test and Cohen's d. */
static json_t *
token_t_test(struct bst_study *s, const double *d, size_t n,
    const struct res_key *k)
{
	double es = 0, lo = 0, hi = 0;
	const char *why = NULL;
	struct bst_test t;
	json_t *r;
	int ok;

	enum bst_alt alt = k->two_sided ? BST_TWO_SIDED : BST_GREATER;

	bst_ttest_rel(d, n, alt, &t);
	r = bst_res_new(s, "paired_t", k->group, k->hyp, k->family,
	    BST_METRIC_NAME[M_TOK], k->subset);
	bst_res_test(r, &t, "t", alt, 1);
	ok = bst_cohen_d_paired(d, n, s->opt.level, &es, &lo, &hi, &why);
	/* no bootstrap interval: off the progress line's total */
	s->boot_progress.total -= s->boot_progress.total > 0;
	progress_add(&s->boot_progress, 0, "bootstrap intervals");
	bst_res_effect(r, "cohens_d", ok, es, lo, hi, s->opt.level, why);
	return r;
}

/*
 * The Wilcoxon signed-rank test on Δ with Cliff's δ: H1, H2 and citation
 * fidelity, and H3 when Shapiro-Wilk rejects normality.
 */
static json_t *
signrank_test(struct bst_study *s, enum bst_metric m, const double *d,
    size_t n, const struct res_key *k)
{
	/* H1-H3 are one-tailed (B better: Δ > 0); citation two-tailed */
	enum bst_alt alt = m == M_CITE || k->two_sided ? BST_TWO_SIDED :
	    BST_GREATER;
	struct bst_test t;
	json_t *r;

	bst_wilcoxon(d, n, alt, 0, BST_AUTO, &t);
	r = bst_res_new(s, "wilcoxon_signed_rank", k->group, k->hyp, k->family,
	    BST_METRIC_NAME[m], k->subset);
	bst_res_test(r, &t, alt == BST_TWO_SIDED ? "min(W+, W-)" : "W+", alt, 1);
	/* H3's record has always named its method, computable or not */
	if (t.ok || m == M_TOK)
		json_set_str(r, "method", bst_signrank_method(&t));
	json_set_int(r, "n_nonzero", (long long)t.n);
	json_set_int(r, "n", (long long)n);
	bst_cliff_effect(s, r, d, n);
	return r;
}

/* H3: Shapiro-Wilk on Δ, then the paired t-test or the Wilcoxon fallback. */
static json_t *
token_test(struct bst_study *s, const double *d, size_t n,
    const struct res_key *k)
{
	struct bst_test sw;
	json_t *r, *nt = json_object();
	int normal;

	bst_shapiro(d, n, &sw);
	/* constant differences: scipy's Shapiro-Wilk says W = 1, p = 1, but
	 * the t statistic is undefined; the Wilcoxon fallback is not */
	normal = sw.ok && sw.p >= s->opt.alpha && !all_equal(d, n);
	r = normal ? token_t_test(s, d, n, k) : signrank_test(s, M_TOK, d, n, k);
	json_set_bool(nt, "computable", sw.ok);
	if (sw.ok) {
		json_set_real(nt, "W", sw.statistic);
		json_set_real(nt, "p", sw.p);
	} else {
		json_set_str(nt, "reason", sw.reason);
	}
	json_set_bool(nt, "normality_rejected", !normal);
	json_set_new(r, "shapiro_wilk", nt);
	bst_res_note(r, normal ? "Shapiro-Wilk does not reject normality of "
	    "the token differences: paired t-test" : n > 0 && all_equal(d, n) ?
	    "the token differences are all equal (zero variance, no t "
	    "statistic): Wilcoxon signed-rank fallback, Cliff's delta" :
	    "Shapiro-Wilk rejects normality of the token differences (or "
	    "cannot be computed): Wilcoxon signed-rank fallback, Cliff's delta");
	return r;
}

/* ------------------------------------------------------ distributions */

/* The §7.4 "B scored 3 where A scored 2 in X % of pairs" table. */
static json_t *
transitions(const double *b, const double *a, size_t n)
{
	json_t *tr = json_object();
	double lo = a[0], hi = a[0];
	long va, vb;
	size_t i;

	for (i = 0; i < n; i++) {
		lo = fmin(lo, fmin(a[i], b[i]));
		hi = fmax(hi, fmax(a[i], b[i]));
	}
	if (hi - lo > 10)
		return tr;
	for (va = (long)lo; va <= (long)hi; va++)
		for (vb = (long)lo; vb <= (long)hi; vb++) {
			size_t c = 0;
			char key[48];

			if (va == vb)
				continue;
			for (i = 0; i < n; i++)
				c += a[i] == (double)va && b[i] == (double)vb;
			if (c == 0)
				continue;
			snprintf(key, sizeof key, "A%ld->B%ld", va, vb);
			json_set_real(tr, key, 100.0 * (double)c / (double)n);
		}
	return tr;
}

/* Distributions beside the effect size (001 §7.4 L-SC-4). */
static void
res_distribution(json_t *r, const double *b, const double *a,
    const double *d, size_t n, int freq, int lower_better)
{
	json_t *o = json_object();
	size_t i, better = 0, worse = 0;
	double dn = n ? (double)n : 1;

	json_set_new(o, "A", bst_summary(a, n, freq));
	json_set_new(o, "B", bst_summary(b, n, freq));
	for (i = 0; i < n; i++) {
		better += d[i] > 0;
		worse += d[i] < 0;
	}
	json_set_real(o, "b_better_pct", 100.0 * (double)better / dn);
	json_set_real(o, "a_better_pct", 100.0 * (double)worse / dn);
	json_set_real(o, "equal_pct", n ? 100.0 * (double)(n - better - worse) /
	    dn : 0);
	json_set_bool(o, "lower_is_better", lower_better);
	if (freq && n)
		json_set_new(o, "transitions_pct", transitions(b, a, n));
	json_set_new(r, "distribution", o);
}

/* ----------------------------------------------------------- the entry */

static json_t *
metric_test(struct bst_study *s, enum bst_metric m, bst_pair_filter f,
    const void *arg, const struct res_key *k)
{
	double *bv, *av, *d;
	size_t n = bst_collect(s, m, f, arg, &bv, &av, &d);
	json_t *r;
	char def[96];

	if (m == M_COMP)
		r = completeness_test(s, bv, av, n, k);
	else if (m == M_TOK)
		r = token_test(s, d, n, k);
	else
		r = signrank_test(s, m, d, n, k);
	snprintf(def, sizeof def, "Δ = %s", bst_delta_def(m));
	bst_res_sign(r, def);
	res_distribution(r, bv, av, d, n, m != M_TOK, m == M_HALL ||
	    m == M_TOK);
	free(bv);
	free(av);
	free(d);
	return r;
}

json_t *
bst_metric_test(struct bst_study *s, enum bst_metric m, bst_pair_filter f,
    const void *arg, const char *group, const char *hyp, const char *family,
    const char *subset)
{
	const struct res_key k = { group, hyp, family, subset, 0 };

	return metric_test(s, m, f, arg, &k);
}

json_t *
bst_explore_test(struct bst_study *s, enum bst_metric m, const char *group,
    const char *family, const char *subset)
{
	const struct res_key k = { group, NULL, family, subset, 1 };

	return metric_test(s, m, NULL, NULL, &k);
}
