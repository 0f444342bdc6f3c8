/*
 * groups.c - the clustering checks (001 §6.5) and the subgroup analyses
 * (§6.6): the primary tests within each tier and complexity level, the
 * Kruskal-Wallis interaction on per-(site, question) accuracy Δ within each
 * group, Mann-Whitney follow-ups only after a significant Kruskal-Wallis,
 * one-tailed in the direction H4 and H5 state, and per-sector effect sizes.
 * Calls paired.c, results.c, stats.c and obs.c.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sort.h"
#include "bstats.h"
#include "analysis.h"

static const char *const TIERS[] = { "small", "medium", "large" };
static const char *const LEVELS[] = { "single-fact",
    "multi-section-synthesis", "conceptual-relationship" };

static const char *
group_of(const struct bst_pair *p, enum bst_grouping which)
{
	return which == BST_G_TIER ? p->b->tier : which == BST_G_COMPLEXITY ?
	    p->b->complexity : p->b->sector;
}

static int
by_tier(const struct bst_pair *p, const void *arg)
{
	return !bst_cmp_str(p->b->tier, arg);
}

static int
by_complexity(const struct bst_pair *p, const void *arg)
{
	return !bst_cmp_str(p->b->complexity, arg);
}

static int
by_sector(const struct bst_pair *p, const void *arg)
{
	return !bst_cmp_str(p->b->sector, arg);
}

/* Position of v in the known order of its field (3 when unknown). */
static int
known_rank(enum bst_grouping which, const char *v)
{
	const char *const *known = which == BST_G_TIER ? TIERS :
	    which == BST_G_COMPLEXITY ? LEVELS : NULL;
	int k;

	for (k = 0; known && k < 3; k++)
		if (!strcmp(v, known[k]))
			return k;
	return 3;
}

/* Values of one field (which: *arg): known order, then natural. */
static int
cmp_group(const void *x, const void *y, void *arg)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	enum bst_grouping which = *(const enum bst_grouping *)arg;
	int ka = known_rank(which, a), kb = known_rank(which, b);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return bst_natcmp(a, b);
}

/* Distinct values of a field over the pairs: known order, then natural. */
static size_t
distinct(const struct bst_study *s, enum bst_grouping which, const char ***out)
{
	const char **v = xreallocarray(NULL, s->npairs + 4, sizeof *v);
	json_t *seen = json_object();
	size_t n = 0, i;

	for (i = 0; i < s->npairs; i++) {
		const char *x = group_of(&s->pairs[i], which);

		if (x && !json_object_get(seen, x)) {
			json_object_set_new(seen, x, json_true());
			v[n++] = x;
		}
	}
	json_decref(seen);
	ctx_sort(v, n, sizeof *v, cmp_group, &which);
	*out = v;
	return n;
}

/*
 * The accuracy Δ per (site, question) within one group (001 §6.6: "Δ for
 * each (site, question) pair within each tier"): the mean Δ over the
 * group's models.  The pairs are sorted by site, question, model.
 */
static size_t
per_question(const struct bst_study *s, enum bst_grouping which,
    const char *val, double **out)
{
	double *v = xreallocarray(NULL, s->npairs + 1, sizeof *v);
	size_t i, n = 0, c = 0;
	double sum = 0;
	const struct bst_pair *last = NULL;

	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];

		if (bst_cmp_str(group_of(p, which), val))
			continue;
		if (last && (bst_cmp_str(last->a->site, p->a->site) ||
		    bst_cmp_str(last->a->question, p->a->question))) {
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
kruskal_record(struct bst_study *s, enum bst_grouping which, const char *hyp,
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
	bst_res_sign(kw, "Δ = B − A, mean over the group's models");
	bst_res_note(kw, "the omnibus test of the interaction; its direction "
	    "is tested one-tailed by the Mann-Whitney follow-ups, run only when "
	    "it is significant after BH (001 §6.6)");
	for (i = 0; i < nv; i++)
		free(g[i]);
	free(g);
	free(gn);
}

void
bst_subgroup(struct bst_study *s, enum bst_grouping which, const char *hyp,
    const char *family, const char *label)
{
	const char **vals;
	size_t nv = distinct(s, which, &vals), i;
	bst_pair_filter f = which == BST_G_TIER ? by_tier : by_complexity;
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
followup_direction(enum bst_grouping which, size_t *x, size_t *y,
    const char **vals)
{
	int kx = known_rank(which, vals[*x]), ky = known_rank(which, vals[*y]);

	if (kx == 3 || ky == 3)
		return BST_TWO_SIDED;
	if (which == BST_G_COMPLEXITY && kx > 0 && ky > 0)
		return BST_TWO_SIDED;	/* the two complex levels: no direction */
	if (which == BST_G_COMPLEXITY ? kx < ky : kx > ky) {
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
followup_pair(struct bst_study *s, enum bst_grouping which, const char *hyp,
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
	r = bst_res_new(s, "mann_whitney_u", label, hyp, which == BST_G_TIER ?
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
bst_followups(struct bst_study *s, enum bst_grouping which, const char *hyp,
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
	size_t nv = distinct(s, BST_G_SECTOR, &vals), i;

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

/*
 * The mean Δ of metric m per model over the pairs [i, j) of one site,
 * appended to means in the order the models first appear.
 */
static size_t
site_means(const struct bst_study *s, enum bst_metric m, size_t i, size_t j,
    double *means)
{
	double *sum = xcalloc(j - i + 1, sizeof *sum);
	size_t *cnt = xcalloc(j - i + 1, sizeof *cnt), k, nm = 0;
	json_t *slot = json_object();

	for (k = i; k < j; k++) {
		const struct bst_pair *p = &s->pairs[k];
		json_t *v = json_object_get(slot, p->a->model);
		size_t at = v ? (size_t)json_integer_value(v) : nm;

		if (!v)
			json_object_set_new(slot, p->a->model, json_integer(
			    (json_int_t)nm++));
		sum[at] += bst_delta(m, p->a, p->b);
		cnt[at]++;
	}
	for (k = 0; k < nm; k++)
		means[k] = sum[k] / (double)cnt[k];
	json_decref(slot);
	free(sum);
	free(cnt);
	return nm;
}

/* Per-(site, model) mean Δ of metric m; pairs are sorted by site first. */
static size_t
site_model_means(const struct bst_study *s, enum bst_metric m, double *means)
{
	size_t i, j, nm = 0;

	for (i = 0; i < s->npairs; i = j) {
		for (j = i; j < s->npairs && !bst_cmp_str(s->pairs[j].a->site,
		    s->pairs[i].a->site); j++)
			;
		nm += site_means(s, m, i, j, means + nm);
	}
	assert(nm <= s->npairs);
	return nm;
}

static int
cmp_natp(const void *a, const void *b)
{
	return bst_natcmp(*(const char *const *)a, *(const char *const *)b);
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

/* Per model, in the order models first appear: {"n", "sum" of Δ}. */
static json_t *
model_sums(const struct bst_study *s, enum bst_metric m)
{
	json_t *models = json_object();
	size_t i;

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
	return models;
}

/* Each model's sum replaced by its mean_delta; the count of models whose
 * mean favours B, A, or neither in dir[0], dir[1], dir[2]. */
static void
model_means(json_t *models, size_t dir[3])
{
	const char *k;
	json_t *o;

	json_object_foreach(models, k, o) {
		double mean = json_number_value(json_object_get(o, "sum")) /
		    (double)json_integer_value(json_object_get(o, "n"));

		json_object_del(o, "sum");
		json_set_real(o, "mean_delta", mean);
		dir[mean == 0 ? 2 : mean > 0 ? 0 : 1]++;
	}
}

static void
model_directions(struct bst_study *s, enum bst_metric m, const char *hyp)
{
	json_t *r = bst_res_new(s, "direction_summary", "clustering_model", hyp,
	    NULL, BST_METRIC_NAME[m], "per-model mean Δ");
	json_t *models = model_sums(s, m);
	size_t dir[3] = { 0, 0, 0 };

	model_means(models, dir);
	models = sorted_object(models);
	json_set_int(r, "n", (long long)json_object_size(models));
	json_set_bool(r, "computable", json_object_size(models) > 0);
	if (json_object_size(models) == 0)
		json_set_str(r, "reason", "no pairs");
	json_set_new(r, "models", models);
	json_set_int(r, "models_favouring_b", (long long)dir[0]);
	json_set_int(r, "models_favouring_a", (long long)dir[1]);
	json_set_int(r, "models_no_difference", (long long)dir[2]);
	bst_res_sign(r, NULL);
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
			json_set_str(r, "method", bst_signrank_method(&t));
		bst_res_sign(r, NULL);
		bst_res_note(r, "robustness check for within-site clustering "
		    "(001 §6.5)");
		free(means);
	}
	for (k = 0; k < 3; k++)
		model_directions(s, ms[k], hyp[k]);
}
