/*
 * analysis.c - the pre-registered analysis of spec 001 §6 and 000 §8 over
 * scored records: exclusion accounting (001 §2.5), pairing, the primary
 * tests (§6.2) with their effect sizes (§6.3), Benjamini-Hochberg within the
 * four families (§6.4), and the driver that runs the analyses of the other
 * files.  Every result is one JSON record in s->results; the report and
 * figures are written from those records.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "stats.h"

/* progress of the bootstrap intervals on stderr (a terminal only) */
static struct progress boot_progress;

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

/* --------------------------------------------------------------- helpers */

int
bstats_cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int
bstats_natcmp(const char *a, const char *b)
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

static int
cmp_obs_key(const void *x, const void *y)
{
	const struct bst_obs *a = *(const struct bst_obs *const *)x;
	const struct bst_obs *b = *(const struct bst_obs *const *)y;
	int c;

	if ((c = bstats_natcmp(a->site, b->site)) ||
	    (c = bstats_natcmp(a->question, b->question)) ||
	    (c = bstats_cmp_str(a->model, b->model)))
		return c;
	if (a->cond != b->cond)
		return a->cond - b->cond;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int
same_triple(const struct bst_obs *a, const struct bst_obs *b)
{
	return !bstats_cmp_str(a->site, b->site) &&
	    !bstats_cmp_str(a->question, b->question) &&
	    !bstats_cmp_str(a->model, b->model);
}

const char *
bstats_magnitude(const char *measure, double v)
{
	double a = fabs(v);

	if (strcmp(measure, "cohens_d") == 0)
		return a < 0.2 ? "negligible" : a < 0.5 ? "small" :
		    a < 0.8 ? "medium" : "large";
	if (strcmp(measure, "cliffs_delta") == 0)
		return a < 0.147 ? "negligible" : a < 0.33 ? "small" :
		    a < 0.474 ? "medium" : "large";
	return NULL;
}

char *
bstats_fmt_p(double p, char *out, size_t len)
{
	if (p == 0)	/* below the smallest double */
		snprintf(out, len, "< 1e-300");
	else if (p < 0.001)
		snprintf(out, len, "%.2e", p);
	else
		snprintf(out, len, "%.4f", p);
	return out;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------- result records */

json_t *
bst_res_new(struct bst_study *s, const char *test, const char *group,
    const char *hyp, const char *family, const char *metric,
    const char *subset)
{
	json_t *r = json_object();

	json_set_str(r, "test", test);
	json_set_str(r, "group", group);
	if (hyp)
		json_set_str(r, "hypothesis", hyp);
	else
		json_set_null(r, "hypothesis");
	if (family)
		json_set_str(r, "family", family);
	else
		json_set_null(r, "family");
	json_set_str(r, "metric", metric);
	json_set_str(r, "subset", subset);
	json_array_append_new(s->results, r);
	return r;
}

void
bst_res_test(json_t *r, const struct bst_test *t, const char *statname,
    int alt, int has_alt)
{
	json_set_int(r, "n", (long long)t->n);
	json_set_bool(r, "computable", t->ok);
	json_set_str(r, "statistic_name", statname);
	if (has_alt)
		json_set_str(r, "alternative", bst_alt_name((enum bst_alt)alt));
	if (t->ok) {
		json_set_real(r, "statistic", t->statistic);
		json_set_real(r, "p", t->p);
		if (t->df > 0)
			json_set_real(r, "df", t->df);
		json_set_null(r, "reason");
	} else {
		json_set_null(r, "statistic");
		json_set_null(r, "p");
		json_set_str(r, "reason", t->reason);
	}
	json_set_null(r, "p_adjusted");
}

void
bst_res_effect(json_t *r, const char *measure, int ok, double v, double lo,
    double hi, double level, const char *why)
{
	json_t *e = json_object();

	json_set_str(e, "measure", measure);
	if (ok) {
		const char *mag = bstats_magnitude(measure, v);

		json_set_real(e, "value", v);
		if (level > 0) {	/* level 0: no interval */
			json_set_real(e, "ci_low", lo);
			json_set_real(e, "ci_high", hi);
			json_set_real(e, "ci_level", level);
		}
		if (mag)
			json_set_str(e, "magnitude", mag);
	} else {
		json_set_null(e, "value");
		json_set_str(e, "reason", why);
	}
	json_set_str(e, "sign", BST_SIGN);
	json_set_new(r, "effect", e);
}

void
bst_res_note(json_t *r, const char *note)
{
	json_t *n = json_object_get(r, "notes");

	if (!n) {
		n = json_array();
		json_set_new(r, "notes", n);
	}
	json_array_append_new(n, json_string(note));
}

/* Paired Cliff's δ (the mean sign of the oriented Δ) with its interval. */
void
bst_cliff_effect(struct bst_study *s, json_t *r, const double *d, size_t n)
{
	long pos = 0, neg = 0, zero = 0;
	size_t i;
	double lo, hi;

	if (n == 0) {
		bst_res_effect(r, "cliffs_delta", 0, 0, 0, 0, 0, "no pairs");
		return;
	}
	for (i = 0; i < n; i++) {
		if (d[i] > 0)
			pos++;
		else if (d[i] < 0)
			neg++;
		else
			zero++;
	}
	bst_cliff_boot(pos, zero, neg, s->opt.seed, s->opt.nboot, s->opt.level,
	    &lo, &hi);
	progress_add(&boot_progress, 1, "bootstrap intervals");
	bst_res_effect(r, "cliffs_delta", 1, (double)(pos - neg) / (double)n,
	    lo, hi, s->opt.level, NULL);
}

/* Median, quartiles, mean and (for small integer scales) frequencies. */
json_t *
bst_summary(const double *v, size_t n, int freq)
{
	json_t *o = json_object();
	double *c, sum = 0;
	size_t i, j;

	json_set_int(o, "n", (long long)n);
	if (n == 0)
		return o;
	c = xreallocarray(NULL, n, sizeof *c);
	memcpy(c, v, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_dbl);
	json_set_real(o, "median", bst_quantile(c, n, 0.5));
	json_set_real(o, "q1", bst_quantile(c, n, 0.25));
	json_set_real(o, "q3", bst_quantile(c, n, 0.75));
	for (i = 0; i < n; i++)
		sum += c[i];
	json_set_real(o, "mean", sum / (double)n);
	if (freq) {
		json_t *f = json_object();

		for (i = 0; i < n; i = j) {
			char key[32];

			for (j = i; j < n && c[j] == c[i]; j++)
				;
			snprintf(key, sizeof key, "%.0f", c[i]);
			json_set_int(f, key, (long long)(j - i));
		}
		json_set_new(o, "frequency", f);
	}
	free(c);
	return o;
}

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

/* ---------------------------------------------------------- metric tests */

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

/*
 * H6: McNemar's exact test with the paired odds ratio, and the chi-square
 * version as its own record beside it (same hypothesis, not a second member
 * of the BH family).
 */
static json_t *
completeness_test(struct bst_study *s, const double *bv, const double *av,
    size_t n, const char *group, const char *hyp, const char *family,
    const char *subset)
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
	r = bst_res_new(s, "mcnemar_exact", group, hyp, family,
	    BST_METRIC_NAME[M_COMP], subset);
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
	chi = bst_res_new(s, "mcnemar_chi2", group, hyp, NULL,
	    BST_METRIC_NAME[M_COMP], subset);
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

/* H3: Shapiro-Wilk on Δ, then the paired t-test or the Wilcoxon fallback. */
static json_t *
token_test(struct bst_study *s, const double *d, size_t n, const char *group,
    const char *hyp, const char *family, const char *subset)
{
	struct bst_test t, sw;
	json_t *r, *nt = json_object();
	int normal;

	bst_shapiro(d, n, &sw);
	/* constant differences: scipy's Shapiro-Wilk says W = 1, p = 1, but
	 * the t statistic is undefined; the Wilcoxon fallback is not */
	normal = sw.ok && sw.p >= s->opt.alpha && !all_equal(d, n);
	if (normal) {
		double es = 0, lo = 0, hi = 0;
		const char *why = NULL;
		int ok;

		bst_ttest_rel(d, n, BST_GREATER, &t);
		r = bst_res_new(s, "paired_t", group, hyp, family,
		    BST_METRIC_NAME[M_TOK], subset);
		bst_res_test(r, &t, "t", BST_GREATER, 1);
		ok = bst_cohen_d_paired(d, n, s->opt.level, &es, &lo, &hi, &why);
		bst_res_effect(r, "cohens_d", ok, es, lo, hi, s->opt.level, why);
	} else {
		bst_wilcoxon(d, n, BST_GREATER, 0, BST_AUTO, &t);
		r = bst_res_new(s, "wilcoxon_signed_rank", group, hyp, family,
		    BST_METRIC_NAME[M_TOK], subset);
		bst_res_test(r, &t, "W+", BST_GREATER, 1);
		json_set_str(r, "method", !t.exact ? "approx" : t.conditional ?
		    "exact conditional" : "exact");
		json_set_int(r, "n_nonzero", (long long)t.n);
		json_set_int(r, "n", (long long)n);
		bst_cliff_effect(s, r, d, n);
	}
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

/* H1, H2 and citation fidelity: the Wilcoxon signed-rank test on Δ. */
static json_t *
ordinal_test(struct bst_study *s, enum bst_metric m, const double *d,
    size_t n, const char *group, const char *hyp, const char *family,
    const char *subset)
{
	/* H1 and H2 are one-tailed (B better: Δ > 0); citation two-tailed */
	enum bst_alt alt = m == M_CITE ? BST_TWO_SIDED : BST_GREATER;
	struct bst_test t;
	json_t *r;

	bst_wilcoxon(d, n, alt, 0, BST_AUTO, &t);
	r = bst_res_new(s, "wilcoxon_signed_rank", group, hyp, family,
	    BST_METRIC_NAME[m], subset);
	bst_res_test(r, &t, alt == BST_TWO_SIDED ? "min(W+, W-)" : "W+", alt, 1);
	if (t.ok)
		json_set_str(r, "method", !t.exact ? "approx" : t.conditional ?
		    "exact conditional" : "exact");
	json_set_int(r, "n_nonzero", (long long)t.n);
	json_set_int(r, "n", (long long)n);
	bst_cliff_effect(s, r, d, n);
	return r;
}

json_t *
bst_metric_test(struct bst_study *s, enum bst_metric m, bst_pair_filter f,
    const void *arg, const char *group, const char *hyp, const char *family,
    const char *subset)
{
	double *bv, *av, *d;
	size_t n = bst_collect(s, m, f, arg, &bv, &av, &d);
	json_t *r;
	char def[96];

	if (m == M_COMP)
		r = completeness_test(s, bv, av, n, group, hyp, family, subset);
	else if (m == M_TOK)
		r = token_test(s, d, n, group, hyp, family, subset);
	else
		r = ordinal_test(s, m, d, n, group, hyp, family, subset);
	snprintf(def, sizeof def, "Δ = %s", bst_delta_def(m));
	json_set_str(r, "delta", def);
	json_set_str(r, "sign", BST_SIGN);
	res_distribution(r, bv, av, d, n, m != M_TOK, m == M_HALL ||
	    m == M_TOK);
	free(bv);
	free(av);
	free(d);
	return r;
}

/* ------------------------------------------------------------ exclusions */

static void
count_exclusion(json_t *sites, json_t *conds, json_t *reasons,
    const struct bst_obs *o)
{
	json_t *st = json_object_get(sites, o->site), *cs;
	char key[2] = { o->cond, 0 }, ka[16], kx[16];

	if (!st) {
		st = json_object();
		json_object_set_new(sites, o->site, st);
	}
	snprintf(ka, sizeof ka, "%s_attempted", key);
	snprintf(kx, sizeof kx, "%s_excluded", key);
	json_set_int(st, ka, json_integer_value(json_object_get(st, ka)) + 1);
	json_set_int(st, kx, json_integer_value(json_object_get(st, kx)) +
	    o->excluded);
	cs = json_object_get(conds, key);
	if (!cs) {
		cs = json_object();
		json_set_int(cs, "attempted", 0);
		json_set_int(cs, "excluded", 0);
		json_object_set_new(conds, key, cs);
	}
	json_set_int(cs, "attempted",
	    json_integer_value(json_object_get(cs, "attempted")) + 1);
	if (o->excluded) {
		json_set_int(cs, "excluded",
		    json_integer_value(json_object_get(cs, "excluded")) + 1);
		json_set_int(reasons, o->reason,
		    json_integer_value(json_object_get(reasons, o->reason)) + 1);
	}
}

/* A site with more than half of its tuples excluded under A or B. */
static void
flag_sites(json_t *sites, json_t *flagged)
{
	const char *site;
	json_t *st;

	json_object_foreach(sites, site, st) {
		int flag = 0;
		const char *c;

		for (c = "AB"; *c; c++) {
			char ka[16], kx[16];
			json_int_t at, ex;

			snprintf(ka, sizeof ka, "%c_attempted", *c);
			snprintf(kx, sizeof kx, "%c_excluded", *c);
			at = json_integer_value(json_object_get(st, ka));
			ex = json_integer_value(json_object_get(st, kx));
			if (at > 0 && 2 * ex > at)
				flag = 1;
		}
		json_set_bool(st, "flagged", flag);
		if (flag)
			json_array_append_new(flagged, json_string(site));
	}
}

static void
exclusions(struct bst_study *s)
{
	json_t *e = json_object(), *reasons = json_object(), *sites = json_object(),
	    *conds = json_object(), *flagged = json_array();
	size_t i, excl = 0;

	/* in natural order of the sites (s->idx is sorted) */
	for (i = 0; i < s->nobs; i++) {
		count_exclusion(sites, conds, reasons, s->idx[i]);
		excl += s->idx[i]->excluded;
	}
	flag_sites(sites, flagged);
	json_set_str(e, "test", "exclusion_accounting");
	json_set_str(e, "group", "data");
	json_set_int(e, "tuples_attempted", (long long)s->nobs);
	json_set_int(e, "tuples_excluded", (long long)excl);
	json_set_int(e, "pairs", (long long)s->npairs);
	json_set_new(e, "by_reason", reasons);
	json_set_new(e, "by_condition", conds);
	json_set_new(e, "by_site", sites);
	json_set_new(e, "flagged_sites", flagged);
	s->exclusions = e;
	json_array_append(s->results, e);
}

/* ------------------------------------------------------------------- BH */

static int
in_family(json_t *r, const char *family)
{
	json_t *f = json_object_get(r, "family");

	return f && json_is_string(f) && !strcmp(json_string_value(f), family) &&
	    json_is_number(json_object_get(r, "p"));
}

void
bst_adjust(struct bst_study *s, const char *family)
{
	size_t i, n = 0, k = 0;
	double *p, *adj;
	json_t *r;

	json_array_foreach(s->results, i, r)
		n += in_family(r, family);
	if (n == 0)
		return;
	p = xreallocarray(NULL, n, sizeof *p);
	adj = xreallocarray(NULL, n, sizeof *adj);
	json_array_foreach(s->results, i, r)
		if (in_family(r, family))
			p[k++] = json_number_value(json_object_get(r, "p"));
	bst_bh(p, n, adj);
	k = 0;
	json_array_foreach(s->results, i, r)
		if (in_family(r, family)) {
			assert(k < n);
			json_set_real(r, "p_adjusted", adj[k]);
			json_set_int(r, "family_size", (long long)n);
			/* statsmodels multipletests rejects at adj <= alpha */
			json_set_bool(r, "significant", adj[k] <= s->opt.alpha);
			k++;
		}
	free(p);
	free(adj);
}

/* ---------------------------------------------------------------- driver */

/* Sort the primary ratings, refuse a second primary rating, pair A and B. */
static void
pair_up(struct bst_study *s)
{
	const struct bst_obs **idx = xreallocarray(NULL, s->nobs + 1, sizeof *idx);
	size_t i, np = 0;

	for (i = 0; i < s->nobs; i++)
		idx[i] = &s->obs[i];
	qsort(idx, s->nobs, sizeof *idx, cmp_obs_key);
	for (i = 1; i < s->nobs; i++)
		if (same_triple(idx[i - 1], idx[i]) && idx[i - 1]->cond == idx[i]->cond) {
			const struct bst_obs *a = idx[i - 1], *b = idx[i];

			free(idx);	/* nothing left behind for the leak checker */
			diex(EXIT_DATA, "%s:%lu: a second primary rating of (%s, %s, %s, "
			    "%c) (first at line %lu)", b->file, b->line,
			    b->site, b->question, b->model, b->cond, a->line);
		}
	s->pairs = xreallocarray(NULL, s->nobs / 2 + 1, sizeof *s->pairs);
	for (i = 0; i + 1 < s->nobs; i++)
		if (idx[i]->cond == 'A' && idx[i + 1]->cond == 'B' &&
		    same_triple(idx[i], idx[i + 1]) && !idx[i]->excluded &&
		    !idx[i + 1]->excluded) {
			assert(np <= s->nobs / 2);
			s->pairs[np].a = idx[i];
			s->pairs[np].b = idx[i + 1];
			np++;
		}
	s->npairs = np;
	s->idx = idx;
}

void
bstats_analyse(struct bst_study *s)
{
	s->results = json_array();
	pair_up(s);
	progress_start(&boot_progress, "bstats", 0);
	boot_progress.unit = "interval";
	exclusions(s);
	if (s->conformance)
		json_array_append(s->results, s->conformance);
	bst_metric_test(s, M_ACC, NULL, NULL, "primary", "H1", "primary",
	    "all pairs");
	bst_metric_test(s, M_HALL, NULL, NULL, "primary", "H2", "primary",
	    "all pairs");
	bst_metric_test(s, M_TOK, NULL, NULL, "primary", "H3", "primary",
	    "all pairs");
	bst_metric_test(s, M_COMP, NULL, NULL, "secondary", "H6", "secondary",
	    "all pairs");
	bst_metric_test(s, M_CITE, NULL, NULL, "secondary", NULL, "secondary",
	    "pairs where citation fidelity applies in both conditions");
	bst_clustering(s);
	bst_subgroup(s, 0, "H4", "tier", "tier");
	bst_subgroup(s, 1, "H5", "complexity", "complexity");
	bst_sectors(s);
	bst_token_sites(s);
	bst_token_models(s);
	bst_correlations(s);
	bst_parity(s);
	bst_agreement(s);
	bst_rubric_agreement(s);
	progress_end(&boot_progress);
	bst_adjust(s, "primary");
	bst_adjust(s, "tier");
	bst_adjust(s, "complexity");
	bst_adjust(s, "secondary");
	/* 001 §6.6: Mann-Whitney follow-ups only after a significant KW */
	bst_followups(s, 0, "H4", "tier");
	bst_followups(s, 1, "H5", "complexity");
	bst_adjust(s, "tier_followup");
	bst_adjust(s, "complexity_followup");
}
