/*
 * analysis.c - the pre-registered analysis of spec 001 §6 and 000 §8 over
 * scored records: exclusion accounting (001 §2.5), pairing, the primary
 * tests (§6.2), effect sizes (§6.3), Benjamini-Hochberg within the four
 * families (§6.4), clustering checks (§6.5), subgroups (§6.6), the token and
 * freshness correlations (§6.7, §6.8) and inter-rater agreement (000 §8).
 * Every result is one JSON record in s->results; the report and figures are
 * written from those records.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "bstats.h"
#include "stats.h"

/* progress of the bootstrap intervals on stderr (a terminal only) */
static struct progress boot_progress;

static const char *const CATS[] = { "H-FAB", "H-SRC", "H-EXT", "H-TMP" };

/* ------------------------------------------------------------ records in */

static char *
dup_opt(const json_t *rec, const char *key)
{
	const char *v = rec_str_opt(rec, key);

	return v ? xstrdup(v) : NULL;
}

static int
int_field(const json_t *rec, const char *key, long long lo,
    long long hi)
{
	long long v = rec_int(rec, key);

	if (v < lo || v > hi)
		ndj_die("%s: expected an integer from %lld to %lld, got %lld",
		    key, lo, hi, v);
	return (int)v;
}

void
bstats_add_record(struct bst_study *s, const json_t *rec)
{
	struct bst_obs o;
	const char *cond = rec_str(rec, "condition");
	int primary = rec_bool_opt(rec, "primary", 1);
	json_t *h;

	const char *rubric = rec_str_opt(rec, "rubric");

	memset(&o, 0, sizeof o);
	o.file = ndj_where_file();
	o.line = ndj_where_line();
	o.primary = primary;
	if (strcmp(cond, "A") != 0 && strcmp(cond, "B") != 0)
		ndj_die("condition: expected \"A\" or \"B\", got \"%s\"", cond);
	if (rubric && (!strcmp(rubric, "answer-quality") ||
	    !strcmp(rubric, "dual-track"))) {
		/* spec 002 / 004 ratings: agreement analysis only */
		o.rubric = rubric[0] == 'a' ? BST_R002 : BST_R004;
		o.cond = cond[0];
		o.site = xstrdup(rec_str(rec, "site_id"));
		o.question = xstrdup(rec_str(rec, "question_id"));
		o.model = xstrdup(rec_str(rec, "model_id"));
		o.rater = dup_opt(rec, "rater_id");
		o.rater_kind = dup_opt(rec, "rater_kind");
		o.reason = dup_opt(rec, "exclusion_reason");
		if (o.reason && !*o.reason) {
			free(o.reason);
			o.reason = NULL;
		}
		o.excluded = o.reason != NULL || rec_bool_opt(rec, "excluded", 0);
		if (!o.excluded && o.rubric == BST_R002) {
			o.q = rec_num(rec, "quality_score");
			if (o.q < 0 || o.q > 1)
				ndj_die("quality_score: expected a number from 0 to 1");
		} else if (!o.excluded) {
			o.t1 = rec_num(rec, "factual_accuracy_score");
			o.t2 = rec_num(rec, "reasoning_quality");
			if (o.t1 < 0 || o.t1 > 100 || o.t2 < 0 || o.t2 > 100)
				ndj_die("factual_accuracy_score, reasoning_quality: "
				    "expected numbers from 0 to 100");
		}
		if (s->nalt == s->capalt) {
			s->capalt = s->capalt ? 2 * s->capalt : 64;
			s->alt = xreallocarray(s->alt, s->capalt, sizeof *s->alt);
		}
		s->alt[s->nalt++] = o;
		return;
	}
	o.cond = cond[0];
	o.site = xstrdup(rec_str(rec, "site_id"));
	o.question = xstrdup(rec_str(rec, "question_id"));
	o.model = xstrdup(rec_str(rec, "model_id"));
	o.complexity = dup_opt(rec, "complexity");
	o.tier = dup_opt(rec, "tier");
	o.sector = dup_opt(rec, "sector");
	o.lm = dup_opt(rec, "last_modified");
	o.rater = dup_opt(rec, "rater_id");
	o.rater_kind = dup_opt(rec, "rater_kind");
	o.reason = dup_opt(rec, "exclusion_reason");
	if (o.reason && !*o.reason) {	/* "" is no reason (as bscore-merge) */
		free(o.reason);
		o.reason = NULL;
	}
	o.excluded = o.reason != NULL || rec_bool_opt(rec, "excluded", 0);
	o.self_check = rec_bool_opt(rec, "self_check", 0);
	if (o.excluded && !o.reason)
		o.reason = xstrdup("UNSPECIFIED");
	o.cf = -1;
	if (!o.excluded) {
		json_t *cf = json_object_get(rec, "citation_fidelity");

		o.fa = int_field(rec, "factual_accuracy", 0, 3);
		o.hc = int_field(rec, "hallucination_count", 0, 1000000);
		o.comp = int_field(rec, "completeness", 0, 1);
		if (cf && !json_is_null(cf))
			o.cf = int_field(rec, "citation_fidelity", 0, 2);
		o.tok = (double)rec_int(rec, "input_token_count");
		if (o.tok < 0)
			ndj_die("input_token_count: expected a count >= 0");
		if (json_object_get(rec, "ref_token_count") &&
		    !json_is_null(json_object_get(rec, "ref_token_count"))) {
			o.reftok = (double)rec_int(rec, "ref_token_count");
			o.has_reftok = 1;
		}
		h = rec_array_opt(rec, "hallucinations");
		if (h) {
			size_t i, k;

			for (i = 0; i < json_array_size(h); i++) {
				json_t *e = json_array_get(h, i);
				const char *c = json_is_object(e) ?
				    json_string_value(json_object_get(e, "category")) : NULL;

				if (!c)
					ndj_die("hallucinations[%zu]: expected an object "
					    "with a category", i);
				for (k = 0; k < 4; k++)
					if (strcmp(c, CATS[k]) == 0)
						o.cats |= 1u << k;
			}
		}
	}
	if (primary) {
		if (s->nobs == s->capobs) {
			s->capobs = s->capobs ? 2 * s->capobs : 256;
			s->obs = xreallocarray(s->obs, s->capobs, sizeof *s->obs);
		}
		s->obs[s->nobs++] = o;
	} else {
		if (s->nsec == s->capsec) {
			s->capsec = s->capsec ? 2 * s->capsec : 64;
			s->sec = xreallocarray(s->sec, s->capsec, sizeof *s->sec);
		}
		s->sec[s->nsec++] = o;
	}
}

static void
obs_free(struct bst_obs *o)
{
	free(o->site); free(o->question); free(o->model); free(o->complexity);
	free(o->tier); free(o->sector); free(o->lm); free(o->rater);
	free(o->rater_kind); free(o->reason);
}

void
bstats_free(struct bst_study *s)
{
	size_t i;

	for (i = 0; i < s->nobs; i++)
		obs_free(&s->obs[i]);
	for (i = 0; i < s->nsec; i++)
		obs_free(&s->sec[i]);
	for (i = 0; i < s->nalt; i++)
		obs_free(&s->alt[i]);
	free(s->alt);
	free(s->obs);
	free(s->sec);
	free(s->pairs);
	json_decref(s->results);
	json_decref(s->exclusions);
}

/* --------------------------------------------------------------- helpers */

static int
cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int
cmp_obs_key(const void *x, const void *y)
{
	const struct bst_obs *a = *(const struct bst_obs *const *)x;
	const struct bst_obs *b = *(const struct bst_obs *const *)y;
	int c;

	if ((c = cmp_str(a->site, b->site)) || (c = cmp_str(a->question, b->question)) ||
	    (c = cmp_str(a->model, b->model)))
		return c;
	if (a->cond != b->cond)
		return a->cond - b->cond;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int
same_triple(const struct bst_obs *a, const struct bst_obs *b)
{
	return !cmp_str(a->site, b->site) && !cmp_str(a->question, b->question) &&
	    !cmp_str(a->model, b->model);
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
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A result record with the common fields. */
static json_t *
res_new(struct bst_study *s, const char *test, const char *group,
    const char *hyp, const char *family, const char *metric, const char *subset)
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

static void
res_test(json_t *r, const struct bst_test *t, const char *statname,
    enum bst_alt alt, int has_alt)
{
	json_set_int(r, "n", (long long)t->n);
	json_set_bool(r, "computable", t->ok);
	json_set_str(r, "statistic_name", statname);
	if (has_alt)
		json_set_str(r, "alternative", bst_alt_name(alt));
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

static void
res_effect(json_t *r, const char *measure, int ok, double v,
    double lo, double hi, double level, const char *why)
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
	json_set_new(r, "effect", e);
}

static void
res_note(json_t *r, const char *note)
{
	json_t *n = json_object_get(r, "notes");

	if (!n) {
		n = json_array();
		json_set_new(r, "notes", n);
	}
	json_array_append_new(n, json_string(note));
}

/* Paired Cliff's delta with its bootstrap interval, from x (B side) and y. */
static void
cliff_effect(struct bst_study *s, json_t *r, const double *x,
    const double *y, size_t n)
{
	long pos = 0, neg = 0, zero = 0;
	size_t i;
	double lo, hi;

	if (n == 0) {
		res_effect(r, "cliffs_delta", 0, 0, 0, 0, 0, "no pairs");
		return;
	}
	for (i = 0; i < n; i++) {
		if (x[i] > y[i]) pos++;
		else if (x[i] < y[i]) neg++;
		else zero++;
	}
	bst_cliff_boot(pos, zero, neg, s->opt.seed, s->opt.nboot, s->opt.level,
	    &lo, &hi);
	progress_add(&boot_progress, 1, "bootstrap intervals");
	res_effect(r, "cliffs_delta", 1, bst_cliff_paired(x, y, n), lo, hi,
	    s->opt.level, NULL);
}

/* Median, quartiles and (for small integer scales) the frequency table. */
static json_t *
summary(const double *v, size_t n, int freq)
{
	json_t *o = json_object();
	double *c;
	size_t i;

	json_set_int(o, "n", (long long)n);
	if (n == 0)
		return o;
	c = xreallocarray(NULL, n, sizeof *c);
	memcpy(c, v, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_dbl);
	json_set_real(o, "median", bst_quantile(c, n, 0.5));
	json_set_real(o, "q1", bst_quantile(c, n, 0.25));
	json_set_real(o, "q3", bst_quantile(c, n, 0.75));
	{
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += c[i];
		json_set_real(o, "mean", sum / (double)n);
	}
	if (freq) {
		json_t *f = json_object();
		size_t j;

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

/* Distributions beside the effect size (001 §7.4 L-SC-4). */
static void
res_distribution(json_t *r, const double *b, const double *a,
    size_t n, int freq, int lower_better)
{
	json_t *d = json_object();
	size_t i, gt = 0, lt = 0;

	json_set_new(d, "A", summary(a, n, freq));
	json_set_new(d, "B", summary(b, n, freq));
	for (i = 0; i < n; i++) {
		if (b[i] > a[i]) gt++;
		else if (b[i] < a[i]) lt++;
	}
	json_set_real(d, "b_higher_pct", n ? 100.0 * (double)gt / (double)n : 0);
	json_set_real(d, "b_lower_pct", n ? 100.0 * (double)lt / (double)n : 0);
	json_set_real(d, "equal_pct", n ? 100.0 * (double)(n - gt - lt) / (double)n : 0);
	json_set_bool(d, "lower_is_better", lower_better);
	if (freq && n) {
		/* transitions A score -> B score, the §7.4 "B scored 3 where A
		 * scored 2 in X % of pairs" statements */
		json_t *tr = json_object();
		double lo = a[0], hi = a[0];
		long va, vb;

		for (i = 0; i < n; i++) {
			lo = fmin(lo, fmin(a[i], b[i]));
			hi = fmax(hi, fmax(a[i], b[i]));
		}
		if (hi - lo <= 10)
			for (va = (long)lo; va <= (long)hi; va++)
				for (vb = (long)lo; vb <= (long)hi; vb++) {
					size_t c = 0;
					char key[48];

					if (va == vb)
						continue;
					for (i = 0; i < n; i++)
						if (a[i] == (double)va && b[i] == (double)vb)
							c++;
					if (c == 0)
						continue;
					snprintf(key, sizeof key, "A%ld->B%ld", va, vb);
					json_set_real(tr, key, 100.0 * (double)c / (double)n);
				}
		json_set_new(d, "transitions_pct", tr);
	}
	json_set_new(r, "distribution", d);
}

/* ---------------------------------------------------------- metric tests */

enum metric { M_ACC, M_HALL, M_TOK, M_COMP, M_CITE };
static const char *const METRIC_NAME[] = { "factual_accuracy",
    "hallucination_count", "input_token_count", "completeness",
    "citation_fidelity" };

static double
metric_val(const struct bst_obs *o, enum metric m)
{
	switch (m) {
	case M_ACC: return o->fa;
	case M_HALL: return o->hc;
	case M_TOK: return o->tok;
	case M_COMP: return o->comp;
	default: return o->cf;
	}
}

/* Collect B and A values of the pairs matching filter (NULL: all). */
typedef int (*pair_filter)(const struct bst_pair *p, const void *arg);

static size_t
collect(const struct bst_study *s, enum metric m, pair_filter f,
    const void *arg, double **bv, double **av)
{
	size_t i, n = 0;

	*bv = xreallocarray(NULL, s->npairs + 1, sizeof **bv);
	*av = xreallocarray(NULL, s->npairs + 1, sizeof **av);
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];

		if (f && !f(p, arg))
			continue;
		if (m == M_CITE && (p->a->cf < 0 || p->b->cf < 0))
			continue;
		(*bv)[n] = metric_val(p->b, m);
		(*av)[n] = metric_val(p->a, m);
		n++;
	}
	return n;
}

/*
 * The §6.2 test for one metric over the pairs passing f.  Δ = B - A for the
 * scores, A - B for tokens; the alternative follows the hypothesis.
 */
static json_t *
metric_test(struct bst_study *s, enum metric m, pair_filter f,
    const void *arg, const char *group, const char *hyp, const char *family,
    const char *subset)
{
	double *bv, *av, *d;
	size_t n = collect(s, m, f, arg, &bv, &av), i;
	struct bst_test t;
	json_t *r;

	d = xreallocarray(NULL, n + 1, sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = m == M_TOK ? av[i] - bv[i] : bv[i] - av[i];
	if (m == M_COMP) {
		long b = 0, c = 0;
		double o = 0, lo = 0, hi = 0;
		const char *why = NULL;
		struct bst_test chi;
		char note[160];

		for (i = 0; i < n; i++) {
			if (av[i] == 0 && bv[i] == 1) b++;
			if (av[i] == 1 && bv[i] == 0) c++;
		}
		bst_mcnemar(b, c, 1, 1, &t);
		r = res_new(s, "mcnemar_exact", group, hyp, family,
		    METRIC_NAME[m], subset);
		res_test(r, &t, "min(b, c)", BST_TWO_SIDED, 1);
		json_set_int(r, "n", (long long)n);
		json_set_int(r, "discordant_b_only", b);
		json_set_int(r, "discordant_a_only", c);
		if (bst_paired_or(b, c, s->opt.level, &o, &lo, &hi, &why))
			res_effect(r, "odds_ratio", 1, o, lo, hi, s->opt.level, NULL);
		else
			res_effect(r, "odds_ratio", 0, 0, 0, 0, 0, why);
		bst_mcnemar(b, c, 0, 1, &chi);
		if (chi.ok) {
			snprintf(note, sizeof note, "chi-square with continuity "
			    "correction: %.4f, p = %.4g", chi.statistic, chi.p);
			res_note(r, note);
		}
		res_distribution(r, bv, av, n, 1, 0);
	} else if (m == M_TOK) {
		struct bst_test sw;
		int normal;

		bst_shapiro(d, n, &sw);
		normal = sw.ok && sw.p >= s->opt.alpha;
		if (normal) {
			double es = 0, lo = 0, hi = 0;
			const char *why = NULL;
			int ok;

			bst_ttest_rel(d, n, BST_GREATER, &t);
			r = res_new(s, "paired_t", group, hyp, family, METRIC_NAME[m],
			    subset);
			res_test(r, &t, "t", BST_GREATER, 1);
			ok = bst_cohen_d_paired(d, n, s->opt.level, &es, &lo, &hi, &why);
			res_effect(r, "cohens_d", ok, es, lo, hi, s->opt.level, why);
		} else {
			bst_wilcoxon(d, n, BST_GREATER, 0, BST_AUTO, &t);
			r = res_new(s, "wilcoxon_signed_rank", group, hyp, family,
			    METRIC_NAME[m], subset);
			res_test(r, &t, "W+", BST_GREATER, 1);
			json_set_str(r, "method", t.exact ? "exact" : "approx");
			json_set_int(r, "n_nonzero", (long long)t.n);
			json_set_int(r, "n", (long long)n);
			/* lower tokens in B is better: dominance of A over B */
			cliff_effect(s, r, av, bv, n);
		}
		{
			json_t *nt = json_object();

			json_set_bool(nt, "computable", sw.ok);
			if (sw.ok) {
				json_set_real(nt, "W", sw.statistic);
				json_set_real(nt, "p", sw.p);
			} else {
				json_set_str(nt, "reason", sw.reason);
			}
			json_set_bool(nt, "normality_rejected", !normal);
			json_set_new(r, "shapiro_wilk", nt);
		}
		res_note(r, normal ? "Shapiro-Wilk does not reject normality of "
		    "the token differences: paired t-test" : "Shapiro-Wilk rejects "
		    "normality of the token differences (or cannot be computed): "
		    "Wilcoxon signed-rank fallback, Cliff's delta");
		res_distribution(r, bv, av, n, 0, 1);
	} else {
		enum bst_alt alt = m == M_ACC ? BST_GREATER :
		    m == M_HALL ? BST_LESS : BST_TWO_SIDED;

		bst_wilcoxon(d, n, alt, 0, BST_AUTO, &t);
		r = res_new(s, "wilcoxon_signed_rank", group, hyp, family,
		    METRIC_NAME[m], subset);
		res_test(r, &t, alt == BST_TWO_SIDED ? "min(W+, W-)" : "W+", alt, 1);
		if (t.ok)
			json_set_str(r, "method", t.exact ? "exact" : "approx");
		json_set_int(r, "n_nonzero", (long long)t.n);
		json_set_int(r, "n", (long long)n);
		cliff_effect(s, r, bv, av, n);
		res_distribution(r, bv, av, n, 1, m == M_HALL);
	}
	free(bv);
	free(av);
	free(d);
	return r;
}

/* --------------------------------------------------------------- groups */

static int
by_tier(const struct bst_pair *p, const void *arg)
{
	return !cmp_str(p->b->tier, arg);
}

static int
by_complexity(const struct bst_pair *p, const void *arg)
{
	return !cmp_str(p->b->complexity, arg);
}

static int
by_sector(const struct bst_pair *p, const void *arg)
{
	return !cmp_str(p->b->sector, arg);
}

/* Distinct values of a field over the pairs, in a canonical order. */
static size_t
distinct(const struct bst_study *s, int which, const char ***out)
{
	static const char *const tiers[] = { "small", "medium", "large" };
	static const char *const cx[] = { "single-fact",
	    "multi-section-synthesis", "conceptual-relationship" };
	const char **v = xreallocarray(NULL, s->npairs + 4, sizeof *v);
	size_t n = 0, i, j, k;

	for (i = 0; i < s->npairs; i++) {
		const char *x = which == 0 ? s->pairs[i].b->tier :
		    which == 1 ? s->pairs[i].b->complexity : s->pairs[i].b->sector;

		if (!x)
			continue;
		for (j = 0; j < n && strcmp(v[j], x) != 0; j++)
			;
		if (j == n)
			v[n++] = x;
	}
	/* sort: known order first, then alphabetical */
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			const char *const *known = which == 0 ? tiers :
			    which == 1 ? cx : NULL;
			int ka = 99, kb = 99;

			for (k = 0; known && k < 3; k++) {
				if (!strcmp(v[j - 1], known[k])) ka = (int)k;
				if (!strcmp(v[j], known[k])) kb = (int)k;
			}
			if (ka < kb || (ka == kb && strcmp(v[j - 1], v[j]) <= 0))
				break;
			{
				const char *t = v[j];

				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		}
	*out = v;
	return n;
}

static void
subgroup(struct bst_study *s, int which, const char *hyp,
    const char *family, const char *label)
{
	const char **vals;
	size_t nv = distinct(s, which, &vals), i, j;
	pair_filter f = which == 0 ? by_tier : by_complexity;
	double **g = xcalloc(nv + 1, sizeof *g);
	size_t *gn = xcalloc(nv + 1, sizeof *gn);
	struct bst_test t;
	json_t *kw;
	char sub[160];

	for (i = 0; i < nv; i++) {
		snprintf(sub, sizeof sub, "%s=%s", label, vals[i]);
		metric_test(s, M_ACC, f, vals[i], label, NULL, family, sub);
		metric_test(s, M_HALL, f, vals[i], label, NULL, family, sub);
		metric_test(s, M_TOK, f, vals[i], label, NULL, family, sub);
	}
	/* the interaction: Kruskal-Wallis on the accuracy Δ across groups */
	for (i = 0; i < nv; i++) {
		double *bv, *av;

		gn[i] = collect(s, M_ACC, f, vals[i], &bv, &av);
		g[i] = xreallocarray(NULL, gn[i] + 1, sizeof **g);
		for (j = 0; j < gn[i]; j++)
			g[i][j] = bv[j] - av[j];
		free(bv);
		free(av);
	}
	bst_kruskal((const double *const *)g, gn, nv, &t);
	snprintf(sub, sizeof sub, "across %s", label);
	kw = res_new(s, "kruskal_wallis", label, hyp, family,
	    "factual_accuracy_delta", sub);
	res_test(kw, &t, "H", BST_TWO_SIDED, 0);
	{
		json_t *gs = json_object();

		for (i = 0; i < nv; i++) {
			json_t *o = summary(g[i], gn[i], 0);

			json_set_new(gs, vals[i], o);
		}
		json_set_new(kw, "groups", gs);
	}
	/* pairwise Mann-Whitney U follow-ups */
	for (i = 0; i < nv; i++)
		for (j = i + 1; j < nv; j++) {
			json_t *r;

			bst_mannwhitney(g[i], gn[i], g[j], gn[j], BST_TWO_SIDED, 1,
			    BST_AUTO, &t);
			snprintf(sub, sizeof sub, "%s=%s vs %s", label, vals[i],
			    vals[j]);
			r = res_new(s, "mann_whitney_u", label, hyp,
			    which == 0 ? "tier_followup" : "complexity_followup",
			    "factual_accuracy_delta", sub);
			res_test(r, &t, "U1", BST_TWO_SIDED, 1);
			if (t.ok)
				json_set_str(r, "method", t.exact ? "exact" : "asymptotic");
			if (t.ok) {
				/* rank-biserial correlation 2 U1 / (n1 n2) - 1 */
				res_effect(r, "rank_biserial", 1,
				    2 * t.statistic / ((double)gn[i] * (double)gn[j]) - 1,
				    0, 0, 0, NULL);
			}
			res_note(r, "follow-up of the Kruskal-Wallis test, read only "
			    "when it is significant; BH-adjusted among the pairwise tests");
		}
	for (i = 0; i < nv; i++)
		free(g[i]);
	free(g);
	free(gn);
	free(vals);
}

static void
sectors(struct bst_study *s)
{
	const char **vals;
	size_t nv = distinct(s, 2, &vals), i;

	for (i = 0; i < nv; i++) {
		double *bv, *av;
		size_t n = collect(s, M_ACC, by_sector, vals[i], &bv, &av);
		char sub[200];
		json_t *r;

		snprintf(sub, sizeof sub, "sector=%s", vals[i]);
		r = res_new(s, "effect_size", "sector", NULL, NULL,
		    "factual_accuracy", sub);
		json_set_int(r, "n", (long long)n);
		json_set_bool(r, "computable", n > 0);
		if (n == 0)
			json_set_str(r, "reason", "no pairs");
		cliff_effect(s, r, bv, av, n);
		res_note(r, "exploratory and descriptive (001 §6.6): no test");
		res_distribution(r, bv, av, n, 1, 0);
		free(bv);
		free(av);
	}
	free(vals);
}

/* ------------------------------------------------------------ clustering */

static void
clustering(struct bst_study *s)
{
	enum metric ms[3] = { M_ACC, M_HALL, M_TOK };
	enum bst_alt alts[3] = { BST_GREATER, BST_LESS, BST_GREATER };
	size_t k, i, j;

	/* pairs are sorted by site, question, model: group (site, model) */
	for (k = 0; k < 3; k++) {
		double *means = xreallocarray(NULL, s->npairs + 1, sizeof *means);
		size_t nm = 0;
		char *done = xcalloc(s->npairs + 1, 1);
		struct bst_test t;
		json_t *r;

		for (i = 0; i < s->npairs; i++) {
			double sum = 0;
			size_t c = 0;

			if (done[i])
				continue;
			for (j = i; j < s->npairs; j++) {
				const struct bst_pair *p = &s->pairs[j];

				if (cmp_str(p->a->site, s->pairs[i].a->site))
					break;
				if (done[j] || cmp_str(p->a->model, s->pairs[i].a->model))
					continue;
				done[j] = 1;
				sum += ms[k] == M_TOK ? p->a->tok - p->b->tok :
				    metric_val(p->b, ms[k]) - metric_val(p->a, ms[k]);
				c++;
			}
			means[nm++] = sum / (double)c;
		}
		bst_wilcoxon(means, nm, alts[k], 0, BST_AUTO, &t);
		r = res_new(s, "wilcoxon_signed_rank", "clustering_site",
		    k == 0 ? "H1" : k == 1 ? "H2" : "H3", NULL, METRIC_NAME[ms[k]],
		    "per-(site, model) mean differences");
		res_test(r, &t, "W+", alts[k], 1);
		json_set_int(r, "n_nonzero", (long long)t.n);
		json_set_int(r, "n", (long long)nm);
		if (t.ok)
			json_set_str(r, "method", t.exact ? "exact" : "approx");
		res_note(r, "robustness check for within-site clustering (001 §6.5)");
		free(means);
		free(done);
	}
	/* model level: direction per model */
	for (k = 0; k < 3; k++) {
		json_t *r = res_new(s, "direction_summary", "clustering_model",
		    k == 0 ? "H1" : k == 1 ? "H2" : "H3", NULL, METRIC_NAME[ms[k]],
		    "per-model mean differences");
		json_t *models = json_object();
		const char **names = xreallocarray(NULL, s->npairs + 1, sizeof *names);
		size_t nn = 0, pos = 0, neg = 0, zero = 0;

		for (i = 0; i < s->npairs; i++) {
			for (j = 0; j < nn && strcmp(names[j], s->pairs[i].a->model); j++)
				;
			if (j == nn)
				names[nn++] = s->pairs[i].a->model;
		}
		qsort(names, nn, sizeof *names, cmp_strp);
		for (j = 0; j < nn; j++) {
			double sum = 0, mean;
			size_t c = 0;
			json_t *o = json_object();

			for (i = 0; i < s->npairs; i++) {
				const struct bst_pair *p = &s->pairs[i];

				if (strcmp(p->a->model, names[j]))
					continue;
				sum += ms[k] == M_TOK ? p->a->tok - p->b->tok :
				    metric_val(p->b, ms[k]) - metric_val(p->a, ms[k]);
				c++;
			}
			mean = sum / (double)c;
			json_set_real(o, "mean_delta", mean);
			json_set_int(o, "n", (long long)c);
			json_set_new(models, names[j], o);
			/* "better for B": positive Δ, except hallucinations */
			if (mean == 0) zero++;
			else if ((mean > 0) == (ms[k] != M_HALL)) pos++;
			else neg++;
		}
		json_set_int(r, "n", (long long)nn);
		json_set_bool(r, "computable", nn > 0);
		if (nn == 0)
			json_set_str(r, "reason", "no pairs");
		json_set_new(r, "models", models);
		json_set_int(r, "models_favouring_b", (long long)pos);
		json_set_int(r, "models_favouring_a", (long long)neg);
		json_set_int(r, "models_no_difference", (long long)zero);
		res_note(r, "descriptive (too few models for a test, 001 §6.5)");
		free(names);
	}
}

/* ------------------------------------------------------ token efficiency */

/*
 * Per-site token comparison (001 §2.6, 000 §4): mean tokens per condition,
 * the delta B - A (negative: B uses fewer) in tokens and as a percentage of
 * A, and the distribution of the per-site percentages across sites.  The
 * reference (Llama 3) counts are used when every pair has them.
 */
static void
token_sites(struct bst_study *s)
{
	json_t *r, *sites = json_array();
	double *pct = xreallocarray(NULL, s->npairs + 1, sizeof *pct);
	size_t i, j, np = 0;
	int ref = s->npairs > 0;

	for (i = 0; i < s->npairs; i++)
		if (!s->pairs[i].a->has_reftok || !s->pairs[i].b->has_reftok)
			ref = 0;
	for (i = 0; i < s->npairs; i = j) {
		double sa = 0, sb = 0;
		json_t *o = json_object();

		for (j = i; j < s->npairs && !strcmp(s->pairs[j].a->site,
		    s->pairs[i].a->site); j++) {
			sa += ref ? s->pairs[j].a->reftok : s->pairs[j].a->tok;
			sb += ref ? s->pairs[j].b->reftok : s->pairs[j].b->tok;
		}
		sa /= (double)(j - i);
		sb /= (double)(j - i);
		json_set_str(o, "site_id", s->pairs[i].a->site);
		json_set_int(o, "n", (long long)(j - i));
		json_set_real(o, "mean_a", sa);
		json_set_real(o, "mean_b", sb);
		json_set_real(o, "delta", sb - sa);
		if (sa > 0) {
			json_set_real(o, "delta_pct", 100 * (sb - sa) / sa);
			pct[np++] = 100 * (sb - sa) / sa;
		} else {
			json_set_null(o, "delta_pct");
		}
		json_array_append_new(sites, o);
	}
	r = res_new(s, "token_summary", "tokens", NULL, NULL,
	    ref ? "ref_token_count" : "input_token_count", "per site");
	json_set_int(r, "n", (long long)json_array_size(sites));
	json_set_bool(r, "computable", np > 0);
	if (np == 0)
		json_set_str(r, "reason", "no site with scored pairs");
	json_set_new(r, "delta_pct_across_sites", summary(pct, np, 0));
	json_set_new(r, "sites", sites);
	res_note(r, "delta = B - A: negative means Condition B (llms.txt) uses "
	    "fewer tokens (000 §4)");
	free(pct);
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

static void
correlations(struct bst_study *s)
{
	double *x = xreallocarray(NULL, s->npairs + 1, sizeof *x);
	double *y = xreallocarray(NULL, s->npairs + 1, sizeof *y);
	size_t i, n = 0;
	struct bst_test t;
	json_t *r;

	for (i = 0; i < s->npairs; i++) {
		x[i] = s->pairs[i].a->tok - s->pairs[i].b->tok;
		y[i] = s->pairs[i].b->fa - s->pairs[i].a->fa;
	}
	bst_spearman(x, y, s->npairs, BST_TWO_SIDED, &t);
	r = res_new(s, "spearman", "correlation", NULL, NULL,
	    "delta_tokens~delta_accuracy", "all pairs");
	res_test(r, &t, "rho", BST_TWO_SIDED, 1);
	res_note(r, "token-quality correlation (001 §6.7, Figure 4): "
	    "Δtokens = A - B, Δaccuracy = B - A");
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];
		double ta, tb;

		if (!p->a->lm || !p->b->lm)
			continue;
		ta = parse_time(p->a->lm);
		tb = parse_time(p->b->lm);
		if (ta < 0 || tb < 0)
			continue;
		x[n] = (ta - tb) / 86400.0;
		y[n] = p->b->fa - p->a->fa;
		n++;
	}
	bst_spearman(x, y, n, BST_TWO_SIDED, &t);
	r = res_new(s, "spearman", "correlation", NULL, NULL,
	    "staleness_days~delta_accuracy", "pairs with Last-Modified in both");
	res_test(r, &t, "rho", BST_TWO_SIDED, 1);
	res_note(r, "freshness analysis (001 §6.8), exploratory: staleness = "
	    "Last-Modified(A) - Last-Modified(B) in days");
	free(x);
	free(y);
}

/* ------------------------------------------------------------- agreement */

static const struct bst_obs *
find_primary(const struct bst_study *s,
    const struct bst_obs **idx, const struct bst_obs *o)
{
	size_t lo = 0, hi = s->nobs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct bst_obs *m = idx[mid];
		int c;

		if (!(c = cmp_str(m->site, o->site)) &&
		    !(c = cmp_str(m->question, o->question)) &&
		    !(c = cmp_str(m->model, o->model)))
			c = m->cond - o->cond;
		if (c == 0)
			return m;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int
constant(const double *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return 0;
	return 1;
}

static void
kappa_res(struct bst_study *s, const char *kind, const char *metric,
    const double *x, const double *y, size_t n, const double *labels,
    size_t nl, enum bst_kappa_weights w)
{
	struct bst_test t;
	json_t *r = res_new(s, w == BST_KAPPA_NONE ? "cohen_kappa" :
	    w == BST_KAPPA_LINEAR ? "weighted_kappa_linear" :
	    "weighted_kappa_quadratic", "agreement", NULL, NULL, metric, kind);

	if (n > 0 && (constant(x, n) || constant(y, n))) {
		memset(&t, 0, sizeof t);
		t.n = n;
		t.reason = "a rater gives the same value to every item "
		    "; kappa is undefined for a constant rater";
	} else {
		bst_kappa(x, y, n, labels, nl, w, &t);
	}
	res_test(r, &t, "kappa", BST_TWO_SIDED, 0);
	json_object_del(r, "p");
	json_object_del(r, "p_adjusted");
	if (t.ok && w != BST_KAPPA_NONE && t.statistic < 0.6)
		res_note(r, "weighted kappa below 0.6: 000 §8.2 asks the raters to "
		    "discuss and refine the rubric before re-scoring");
}

static int
is_kind(const struct bst_obs *o, const char *kind)
{
	return o->rater_kind && !strcmp(o->rater_kind, kind);
}

static void
agreement(struct bst_study *s)
{
	static const char *const kinds[] = { "inter_rater", "self_check",
	    "human_vs_judge", "human_vs_autoscore" };
	static const double acc_l[] = { 0, 1, 2, 3 }, cf_l[] = { 0, 1, 2 },
	    bin_l[] = { 0, 1 };
	const struct bst_obs **idx = xreallocarray(NULL, s->nobs + 1, sizeof *idx);
	size_t i, k, c;

	for (i = 0; i < s->nobs; i++)
		idx[i] = &s->obs[i];
	qsort(idx, s->nobs, sizeof *idx, cmp_obs_key);
	for (k = 0; k < 4; k++) {
		double *x[6], *y[6];
		size_t n[6] = { 0 };
		size_t cap = s->nsec * 4 + 1;

		for (c = 0; c < 6; c++) {
			x[c] = xreallocarray(NULL, cap, sizeof **x);
			y[c] = xreallocarray(NULL, cap, sizeof **y);
		}
		for (i = 0; i < s->nsec; i++) {
			const struct bst_obs *o = &s->sec[i], *p;
			size_t kind, j;

			if (o->excluded || !(p = find_primary(s, idx, o)) || p->excluded)
				continue;
			/*
			 * 000 §8: a rating by an LLM judge (§10) or the autoscorer
			 * against the other side; the primary rater's delayed
			 * re-scoring (§8.3, bscore-merge's self_check, or the same
			 * rater_id); else a second rater (§8.1).
			 */
			if (is_kind(o, "llm_judge") || is_kind(p, "llm_judge"))
				kind = 2;
			else if (is_kind(o, "autoscore") || is_kind(p, "autoscore"))
				kind = 3;
			else if (o->self_check || (o->rater && p->rater &&
			    !strcmp(o->rater, p->rater)))
				kind = 1;
			else
				kind = 0;
			if (kind != k)
				continue;
			x[0][n[0]] = p->fa; y[0][n[0]++] = o->fa;
			if (p->cf >= 0 && o->cf >= 0) {
				x[1][n[1]] = p->cf; y[1][n[1]++] = o->cf;
			}
			x[2][n[2]] = p->comp; y[2][n[2]++] = o->comp;
			x[3][n[3]] = p->hc; y[3][n[3]++] = o->hc;
			for (j = 0; j < 4; j++) {
				x[4][n[4]] = (p->cats >> j) & 1;
				y[4][n[4]++] = (o->cats >> j) & 1;
			}
		}
		if (n[0] > 0) {
			struct bst_test t;
			json_t *r;

			kappa_res(s, kinds[k], "factual_accuracy", x[0], y[0], n[0],
			    acc_l, 4, BST_KAPPA_LINEAR);
			kappa_res(s, kinds[k], "factual_accuracy", x[0], y[0], n[0],
			    acc_l, 4, BST_KAPPA_QUADRATIC);
			kappa_res(s, kinds[k], "factual_accuracy", x[0], y[0], n[0],
			    acc_l, 4, BST_KAPPA_NONE);
			kappa_res(s, kinds[k], "citation_fidelity", x[1], y[1], n[1],
			    cf_l, 3, BST_KAPPA_LINEAR);
			kappa_res(s, kinds[k], "citation_fidelity", x[1], y[1], n[1],
			    cf_l, 3, BST_KAPPA_QUADRATIC);
			kappa_res(s, kinds[k], "completeness", x[2], y[2], n[2],
			    bin_l, 2, BST_KAPPA_NONE);
			kappa_res(s, kinds[k], "hallucination_categories", x[4], y[4],
			    n[4], bin_l, 2, BST_KAPPA_NONE);
			bst_spearman(x[3], y[3], n[3], BST_TWO_SIDED, &t);
			r = res_new(s, "spearman", "agreement", NULL, NULL,
			    "hallucination_count", kinds[k]);
			res_test(r, &t, "rho", BST_TWO_SIDED, 1);
			{
				size_t same = 0;

				for (i = 0; i < n[0]; i++)
					same += x[0][i] == y[0][i];
				r = res_new(s, "percent_agreement", "agreement", NULL,
				    NULL, "factual_accuracy", kinds[k]);
				json_set_int(r, "n", (long long)n[0]);
				json_set_bool(r, "computable", 1);
				json_set_real(r, "statistic", 100.0 * (double)same /
				    (double)n[0]);
				json_set_str(r, "statistic_name", "percent");
			}
		}
		for (c = 0; c < 6; c++) {
			free(x[c]);
			free(y[c]);
		}
	}
	free(idx);
}

/*
 * Agreement under the other rubrics: spec 002 Phase 3 (kappa on PASS, a
 * quality score of at least 0.70, versus FAIL between two raters of one
 * response) and spec 004 (the correlation between track 1 and track 2, and
 * each track between raters).
 */
static void
rubric_agreement(struct bst_study *s)
{
	const struct bst_obs **idx;
	size_t i, j, n;
	static const double bin_l[] = { 0, 1 };

	if (s->nalt == 0)
		return;
	idx = xreallocarray(NULL, s->nalt, sizeof *idx);
	for (i = 0; i < s->nalt; i++)
		idx[i] = &s->alt[i];
	qsort(idx, s->nalt, sizeof *idx, cmp_obs_key);
	for (int rb = BST_R002; rb <= BST_R004; rb++) {
		double *x = xreallocarray(NULL, s->nalt + 1, sizeof *x);
		double *y = xreallocarray(NULL, s->nalt + 1, sizeof *y);
		double *x2 = xreallocarray(NULL, s->nalt + 1, sizeof *x2);
		double *y2 = xreallocarray(NULL, s->nalt + 1, sizeof *y2);
		size_t m = 0, any = 0;
		struct bst_test t;
		json_t *r;

		/* primary rating against each other rating of the same tuple */
		for (i = 0; i < s->nalt; i++) {
			const struct bst_obs *p = idx[i];

			if (p->rubric != rb || !p->primary || p->excluded)
				continue;
			any++;
			for (j = 0; j < s->nalt; j++) {
				const struct bst_obs *o = idx[j];

				if (o->rubric != rb || o->primary || o->excluded ||
				    !same_triple(o, p) || o->cond != p->cond)
					continue;
				if (rb == BST_R002) {
					x[m] = p->q >= 0.70;
					y[m] = o->q >= 0.70;
				} else {
					x[m] = p->t1;
					y[m] = o->t1;
					x2[m] = p->t2;
					y2[m] = o->t2;
				}
				m++;
			}
		}
		if (!any) {
			free(x); free(y); free(x2); free(y2);
			continue;
		}
		if (rb == BST_R002) {
			r = res_new(s, "cohen_kappa", "agreement", NULL, NULL,
			    "pass_fail (quality_score >= 0.70)", "answer-quality raters");
			if (m > 0 && (constant(x, m) || constant(y, m))) {
				memset(&t, 0, sizeof t);
				t.n = m;
				t.reason = "a rater gives the same value to every item "
				    "; kappa is undefined for a constant rater";
			} else {
				bst_kappa(x, y, m, bin_l, 2, BST_KAPPA_NONE, &t);
			}
			res_test(r, &t, "kappa", BST_TWO_SIDED, 0);
			json_object_del(r, "p");
			json_object_del(r, "p_adjusted");
		} else {
			bst_spearman(x, y, m, BST_TWO_SIDED, &t);
			r = res_new(s, "spearman", "agreement", NULL, NULL,
			    "factual_accuracy_score", "dual-track raters");
			res_test(r, &t, "rho", BST_TWO_SIDED, 1);
			bst_spearman(x2, y2, m, BST_TWO_SIDED, &t);
			r = res_new(s, "spearman", "agreement", NULL, NULL,
			    "reasoning_quality", "dual-track raters");
			res_test(r, &t, "rho", BST_TWO_SIDED, 1);
			/* track 1 against track 2 over the primary ratings */
			n = 0;
			for (i = 0; i < s->nalt; i++)
				if (s->alt[i].rubric == rb && s->alt[i].primary &&
				    !s->alt[i].excluded) {
					x[n] = s->alt[i].t1;
					y[n] = s->alt[i].t2;
					n++;
				}
			bst_spearman(x, y, n, BST_TWO_SIDED, &t);
			r = res_new(s, "spearman", "agreement", NULL, NULL,
			    "factual_accuracy_score~reasoning_quality",
			    "dual-track tracks");
			res_test(r, &t, "rho", BST_TWO_SIDED, 1);
			res_note(r, "spec 004: the two tracks are meant to be "
			    "independent; a strong correlation suggests they are not");
		}
		free(x); free(y); free(x2); free(y2);
	}
	free(idx);
}

/* ------------------------------------------------------------ exclusions */

static void
exclusions(struct bst_study *s)
{
	json_t *e = json_object(), *reasons = json_object(), *sites = json_object(),
	    *conds = json_object(), *flagged = json_array();
	size_t i, excl = 0;

	for (i = 0; i < s->nobs; i++) {
		const struct bst_obs *o = &s->obs[i];
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
			excl++;
			json_set_int(cs, "excluded",
			    json_integer_value(json_object_get(cs, "excluded")) + 1);
			json_set_int(reasons, o->reason,
			    json_integer_value(json_object_get(reasons, o->reason)) + 1);
		}
	}
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

static void
adjust(struct bst_study *s, const char *family)
{
	size_t i, n = 0, k = 0;
	double *p, *adj;
	json_t *r;

	json_array_foreach(s->results, i, r) {
		json_t *f = json_object_get(r, "family");

		if (f && json_is_string(f) && !strcmp(json_string_value(f), family) &&
		    json_is_number(json_object_get(r, "p")))
			n++;
	}
	if (n == 0)
		return;
	p = xreallocarray(NULL, n, sizeof *p);
	adj = xreallocarray(NULL, n, sizeof *adj);
	json_array_foreach(s->results, i, r) {
		json_t *f = json_object_get(r, "family");

		if (f && json_is_string(f) && !strcmp(json_string_value(f), family) &&
		    json_is_number(json_object_get(r, "p")))
			p[k++] = json_number_value(json_object_get(r, "p"));
	}
	bst_bh(p, n, adj);
	k = 0;
	json_array_foreach(s->results, i, r) {
		json_t *f = json_object_get(r, "family");

		if (f && json_is_string(f) && !strcmp(json_string_value(f), family) &&
		    json_is_number(json_object_get(r, "p"))) {
			json_set_real(r, "p_adjusted", adj[k]);
			json_set_int(r, "family_size", (long long)n);
			json_set_bool(r, "significant", adj[k] < s->opt.alpha);
			k++;
		}
	}
	free(p);
	free(adj);
}

/* ---------------------------------------------------------------- driver */

void
bstats_analyse(struct bst_study *s)
{
	const struct bst_obs **idx = xreallocarray(NULL, s->nobs + 1, sizeof *idx);
	size_t i, np = 0;

	s->results = json_array();
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
			s->pairs[np].a = idx[i];
			s->pairs[np].b = idx[i + 1];
			np++;
		}
	s->npairs = np;
	free(idx);

	progress_start(&boot_progress, "bstats", 0);
	boot_progress.unit = "interval";
	exclusions(s);
	metric_test(s, M_ACC, NULL, NULL, "primary", "H1", "primary", "all pairs");
	metric_test(s, M_HALL, NULL, NULL, "primary", "H2", "primary", "all pairs");
	metric_test(s, M_TOK, NULL, NULL, "primary", "H3", "primary", "all pairs");
	metric_test(s, M_COMP, NULL, NULL, "secondary", "H6", "secondary",
	    "all pairs");
	metric_test(s, M_CITE, NULL, NULL, "secondary", NULL, "secondary",
	    "pairs where citation fidelity applies in both conditions");
	clustering(s);
	subgroup(s, 0, "H4", "tier", "tier");
	subgroup(s, 1, "H5", "complexity", "complexity");
	sectors(s);
	token_sites(s);
	correlations(s);
	agreement(s);
	rubric_agreement(s);
	progress_end(&boot_progress);
	adjust(s, "primary");
	adjust(s, "tier");
	adjust(s, "complexity");
	adjust(s, "secondary");
	adjust(s, "tier_followup");
	adjust(s, "complexity_followup");
}
