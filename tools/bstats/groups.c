/*
 * groups.c - the clustering checks (001 §6.5) and the subgroup analyses
 * (§6.6): the primary tests within each tier and complexity level, the
 * Kruskal-Wallis interaction on per-(site, question) accuracy Δ within each
 * group, Mann-Whitney follow-ups only after a significant Kruskal-Wallis,
 * one-tailed in the direction H4 and H5 state, and per-sector effect sizes.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "stats.h"

enum { G_TIER, G_COMPLEXITY, G_SECTOR };

static const char *const TIERS[] = { "small", "medium", "large" };
static const char *const LEVELS[] = { "single-fact",
    "multi-section-synthesis", "conceptual-relationship" };

static const char *
group_of(const struct bst_pair *p, int which)
{
	return which == G_TIER ? p->b->tier : which == G_COMPLEXITY ?
	    p->b->complexity : p->b->sector;
}

static int
by_tier(const struct bst_pair *p, const void *arg)
{
	return !bstats_cmp_str(p->b->tier, arg);
}

static int
by_complexity(const struct bst_pair *p, const void *arg)
{
	return !bstats_cmp_str(p->b->complexity, arg);
}

static int
by_sector(const struct bst_pair *p, const void *arg)
{
	return !bstats_cmp_str(p->b->sector, arg);
}

/* Position of v in the known order of its field (3 when unknown). */
static int
known_rank(int which, const char *v)
{
	const char *const *known = which == G_TIER ? TIERS :
	    which == G_COMPLEXITY ? LEVELS : NULL;
	int k;

	for (k = 0; known && k < 3; k++)
		if (!strcmp(v, known[k]))
			return k;
	return 3;
}

static int distinct_which;

static int
cmp_group(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	int ka = known_rank(distinct_which, a), kb = known_rank(distinct_which, b);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return bstats_natcmp(a, b);
}

/* Distinct values of a field over the pairs: known order, then natural. */
static size_t
distinct(const struct bst_study *s, int which, const char ***out)
{
	const char **v = xreallocarray(NULL, s->npairs + 4, sizeof *v);
	size_t n = 0, i, j;

	for (i = 0; i < s->npairs; i++) {
		const char *x = group_of(&s->pairs[i], which);

		if (!x)
			continue;
		for (j = 0; j < n && strcmp(v[j], x) != 0; j++)
			;
		if (j == n)
			v[n++] = x;
	}
	distinct_which = which;
	qsort(v, n, sizeof *v, cmp_group);
	*out = v;
	return n;
}

/*
 * The accuracy Δ per (site, question) within one group (001 §6.6: "Δ for
 * each (site, question) pair within each tier"): the mean Δ over the
 * group's models.  The pairs are sorted by site, question, model.
 */
static size_t
per_question(const struct bst_study *s, int which, const char *val,
    double **out)
{
	double *v = xreallocarray(NULL, s->npairs + 1, sizeof *v);
	size_t i, n = 0, c = 0;
	double sum = 0;
	const struct bst_pair *last = NULL;

	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];

		if (bstats_cmp_str(group_of(p, which), val))
			continue;
		if (last && (bstats_cmp_str(last->a->site, p->a->site) ||
		    bstats_cmp_str(last->a->question, p->a->question))) {
			v[n++] = sum / (double)c;
			sum = 0;
			c = 0;
		}
		sum += bst_delta(M_ACC, p->a, p->b);
		c++;
		last = p;
	}
	if (c > 0)
		v[n++] = sum / (double)c;
	assert(n <= s->npairs);
	*out = v;
	return n;
}

static void
kruskal_record(struct bst_study *s, int which, const char *hyp,
    const char *family, const char *label, const char **vals, size_t nv)
{
	double **g = xcalloc(nv + 1, sizeof *g);
	size_t *gn = xcalloc(nv + 1, sizeof *gn), i;
	struct bst_test t;
	json_t *kw, *gs = json_object();
	char sub[160];

	for (i = 0; i < nv; i++)
		gn[i] = per_question(s, which, vals[i], &g[i]);
	bst_kruskal((const double *const *)g, gn, nv, &t);
	snprintf(sub, sizeof sub, "per (site, question) within each %s", label);
	kw = bst_res_new(s, "kruskal_wallis", label, hyp, family,
	    "factual_accuracy_delta", sub);
	bst_res_test(kw, &t, "H", BST_TWO_SIDED, 0);
	for (i = 0; i < nv; i++)
		json_set_new(gs, vals[i], bst_summary(g[i], gn[i], 0));
	json_set_new(kw, "groups", gs);
	json_set_str(kw, "delta", "Δ = B − A, mean over the group's models");
	json_set_str(kw, "sign", BST_SIGN);
	bst_res_note(kw, "the omnibus test of the interaction; its direction "
	    "is tested one-tailed by the Mann-Whitney follow-ups, run only when "
	    "it is significant after BH (001 §6.6)");
	for (i = 0; i < nv; i++)
		free(g[i]);
	free(g);
	free(gn);
}

void
bst_subgroup(struct bst_study *s, int which, const char *hyp,
    const char *family, const char *label)
{
	const char **vals;
	size_t nv = distinct(s, which, &vals), i;
	bst_pair_filter f = which == G_TIER ? by_tier : by_complexity;
	char sub[160];

	for (i = 0; i < nv; i++) {
		snprintf(sub, sizeof sub, "%s=%s", label, vals[i]);
		bst_metric_test(s, M_ACC, f, vals[i], label, NULL, family, sub);
		bst_metric_test(s, M_HALL, f, vals[i], label, NULL, family, sub);
		bst_metric_test(s, M_TOK, f, vals[i], label, NULL, family, sub);
	}
	kruskal_record(s, which, hyp, family, label, vals, nv);
	free(vals);
}

/*
 * The direction of one follow-up: H4 expects a larger Δ for smaller tiers,
 * H5 for the two complex levels over single-fact.  Returns the alternative
 * for x = the group expected larger; swaps *x and *y to put it first.
 */
static enum bst_alt
followup_direction(int which, size_t *x, size_t *y, const char **vals)
{
	int kx = known_rank(which, vals[*x]), ky = known_rank(which, vals[*y]);

	if (kx == 3 || ky == 3)
		return BST_TWO_SIDED;
	if (which == G_COMPLEXITY && kx > 0 && ky > 0)
		return BST_TWO_SIDED;	/* the two complex levels: no direction */
	if (which == G_COMPLEXITY ? kx < ky : kx > ky) {
		size_t t = *x;

		*x = *y;
		*y = t;
	}
	return BST_GREATER;
}

static const json_t *
find_kw(const struct bst_study *s, const char *label)
{
	size_t i;
	json_t *r;

	json_array_foreach(s->results, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "test")),
		    "kruskal_wallis") && !strcmp(json_string_value(
		    json_object_get(r, "group")), label))
			return r;
	return NULL;
}

static void
followup_pair(struct bst_study *s, int which, const char *hyp,
    const char *label, const char **vals, size_t i, size_t j)
{
	double *gx, *gy;
	size_t nx, ny;
	enum bst_alt alt = followup_direction(which, &i, &j, vals);
	struct bst_test t;
	json_t *r;
	char sub[200];

	nx = per_question(s, which, vals[i], &gx);
	ny = per_question(s, which, vals[j], &gy);
	bst_mannwhitney(gx, nx, gy, ny, alt, 1, BST_AUTO, &t);
	snprintf(sub, sizeof sub, "%s=%s vs %s", label, vals[i], vals[j]);
	r = bst_res_new(s, "mann_whitney_u", label, hyp, which == G_TIER ?
	    "tier_followup" : "complexity_followup", "factual_accuracy_delta",
	    sub);
	bst_res_test(r, &t, "U1", alt, 1);
	if (t.ok) {
		json_set_str(r, "method", t.exact ? "exact" : "asymptotic");
		/* rank-biserial correlation 2 U1 / (n1 n2) - 1: positive when
		 * the first group's Δ (B better) is larger */
		bst_res_effect(r, "rank_biserial", 1, 2 * t.statistic /
		    ((double)nx * (double)ny) - 1, 0, 0, 0, NULL);
	}
	bst_res_note(r, alt == BST_GREATER ? "one-tailed in the direction the "
	    "hypothesis states (the first group's accuracy Δ larger)" :
	    "two-tailed: the hypothesis states no direction between these groups");
	free(gx);
	free(gy);
}

/* Pairwise Mann-Whitney U, after a significant Kruskal-Wallis only. */
void
bst_followups(struct bst_study *s, int which, const char *hyp,
    const char *label)
{
	json_t *kw = (json_t *)find_kw(s, label);
	const char **vals;
	size_t nv, i, j;

	if (!kw)
		return;
	if (!json_is_true(json_object_get(kw, "significant"))) {
		json_set_bool(kw, "followups_run", 0);
		bst_res_note(kw, "Mann-Whitney follow-ups not run: the "
		    "Kruskal-Wallis test is not significant after BH (or not "
		    "computable)");
		return;
	}
	json_set_bool(kw, "followups_run", 1);
	nv = distinct(s, which, &vals);
	for (i = 0; i < nv; i++)
		for (j = i + 1; j < nv; j++)
			followup_pair(s, which, hyp, label, vals, i, j);
	free(vals);
}

void
bst_sectors(struct bst_study *s)
{
	const char **vals;
	size_t nv = distinct(s, G_SECTOR, &vals), i;

	for (i = 0; i < nv; i++) {
		double *bv, *av, *d;
		size_t n = bst_collect(s, M_ACC, by_sector, vals[i], &bv, &av, &d);
		char sub[200];
		json_t *r;

		snprintf(sub, sizeof sub, "sector=%s", vals[i]);
		r = bst_res_new(s, "effect_size", "sector", NULL, NULL,
		    "factual_accuracy", sub);
		json_set_int(r, "n", (long long)n);
		json_set_bool(r, "computable", n > 0);
		if (n == 0)
			json_set_str(r, "reason", "no pairs");
		bst_cliff_effect(s, r, d, n);
		bst_res_note(r, "exploratory and descriptive (001 §6.6): no test");
		free(bv);
		free(av);
		free(d);
	}
	free(vals);
}

/* ------------------------------------------------------------ clustering */

/* Per-(site, model) mean Δ of metric m; pairs are sorted by site first. */
static size_t
site_model_means(const struct bst_study *s, enum bst_metric m, double *means)
{
	char *done = xcalloc(s->npairs + 1, 1);
	size_t i, j, nm = 0;

	for (i = 0; i < s->npairs; i++) {
		double sum = 0;
		size_t c = 0;

		if (done[i])
			continue;
		for (j = i; j < s->npairs; j++) {
			const struct bst_pair *p = &s->pairs[j];

			if (bstats_cmp_str(p->a->site, s->pairs[i].a->site))
				break;
			if (done[j] || bstats_cmp_str(p->a->model,
			    s->pairs[i].a->model))
				continue;
			done[j] = 1;
			sum += bst_delta(m, p->a, p->b);
			c++;
		}
		assert(c > 0);
		means[nm++] = sum / (double)c;
	}
	free(done);
	return nm;
}

static int
cmp_natp(const void *a, const void *b)
{
	return bstats_natcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The same object with its keys in natural order (steals o). */
static json_t *
sorted_object(json_t *o)
{
	const char **keys = xreallocarray(NULL, json_object_size(o) + 1,
	    sizeof *keys);
	json_t *out = json_object(), *v;
	const char *k;
	size_t n = 0, i;

	json_object_foreach(o, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof *keys, cmp_natp);
	for (i = 0; i < n; i++)
		json_object_set(out, keys[i], json_object_get(o, keys[i]));
	free(keys);
	json_decref(o);
	return out;
}

static void
model_directions(struct bst_study *s, enum bst_metric m, const char *hyp)
{
	json_t *r = bst_res_new(s, "direction_summary", "clustering_model", hyp,
	    NULL, BST_METRIC_NAME[m], "per-model mean Δ");
	json_t *models = json_object();
	size_t i, pos = 0, neg = 0, zero = 0;

	/* pairs are sorted by site, question, model: gather per model */
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];
		json_t *o = json_object_get(models, p->a->model);

		if (!o) {
			o = json_object();
			json_set_real(o, "sum", 0);
			json_set_int(o, "n", 0);
			json_object_set_new(models, p->a->model, o);
		}
		json_set_real(o, "sum", json_number_value(json_object_get(o,
		    "sum")) + bst_delta(m, p->a, p->b));
		json_set_int(o, "n", json_integer_value(json_object_get(o, "n")) + 1);
	}
	{
		const char *k;
		json_t *o;

		json_object_foreach(models, k, o) {
			double mean = json_number_value(json_object_get(o, "sum")) /
			    (double)json_integer_value(json_object_get(o, "n"));

			json_object_del(o, "sum");
			json_set_real(o, "mean_delta", mean);
			if (mean == 0)
				zero++;
			else if (mean > 0)
				pos++;
			else
				neg++;
		}
	}
	models = sorted_object(models);
	json_set_int(r, "n", (long long)json_object_size(models));
	json_set_bool(r, "computable", json_object_size(models) > 0);
	if (json_object_size(models) == 0)
		json_set_str(r, "reason", "no pairs");
	json_set_new(r, "models", models);
	json_set_int(r, "models_favouring_b", (long long)pos);
	json_set_int(r, "models_favouring_a", (long long)neg);
	json_set_int(r, "models_no_difference", (long long)zero);
	json_set_str(r, "sign", BST_SIGN);
	bst_res_note(r, "descriptive (too few models for a test, 001 §6.5)");
}

void
bst_clustering(struct bst_study *s)
{
	static const enum bst_metric ms[3] = { M_ACC, M_HALL, M_TOK };
	static const char *const hyp[3] = { "H1", "H2", "H3" };
	size_t k;

	for (k = 0; k < 3; k++) {
		double *means = xreallocarray(NULL, s->npairs + 1, sizeof *means);
		size_t nm = site_model_means(s, ms[k], means);
		struct bst_test t;
		json_t *r;

		bst_wilcoxon(means, nm, BST_GREATER, 0, BST_AUTO, &t);
		r = bst_res_new(s, "wilcoxon_signed_rank", "clustering_site",
		    hyp[k], NULL, BST_METRIC_NAME[ms[k]],
		    "per-(site, model) mean Δ");
		bst_res_test(r, &t, "W+", BST_GREATER, 1);
		json_set_int(r, "n_nonzero", (long long)t.n);
		json_set_int(r, "n", (long long)nm);
		if (t.ok)
			json_set_str(r, "method", !t.exact ? "approx" :
			    t.conditional ? "exact conditional" : "exact");
		json_set_str(r, "sign", BST_SIGN);
		bst_res_note(r, "robustness check for within-site clustering "
		    "(001 §6.5)");
		free(means);
	}
	for (k = 0; k < 3; k++)
		model_directions(s, ms[k], hyp[k]);
}
