/*
 * compare.c - the exploratory comparisons of condition variants (issue 30;
 * the follow-up studies of 001 §7: L-IV-2, L-IV-3, L-IV-4).  Each
 * comparison X:Y (X minus Y) pairs the (site, question, model) tuples
 * rated under both conditions and runs the tests of the primary analysis
 * (paired.c) over them, two-sided since no direction was pre-registered,
 * in a BH family of its own.  The primary analysis is untouched: its pairs
 * are set aside while a comparison's take their place (X in B's, Y in
 * A's), and the records follow every primary one.  Calls paired.c,
 * results.c and obs.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sort.h"
#include "bstats.h"
#include "analysis.h"

/* The metrics in the order of the primary analysis, with their subsets. */
static const struct {
	enum bst_metric m;
	const char *subset;
} METRICS[] = {
	{ M_ACC, "all pairs" },
	{ M_HALL, "all pairs" },
	{ M_TOK, "all pairs" },
	{ M_COMP, "all pairs" },
	{ M_CITE, "pairs where citation fidelity applies in both conditions" },
};
#define NMETRICS (sizeof METRICS / sizeof METRICS[0])

/* The order of tuples by their strings, whatever the condition. */
static int
triple_cmp(const void *x, const void *y, void *arg)
{
	const struct bst_obs *a = *(const struct bst_obs *const *)x;
	const struct bst_obs *b = *(const struct bst_obs *const *)y;
	int c;

	(void)arg;
	if ((c = bst_natcmp(a->site, b->site)) != 0 ||
	    (c = bst_natcmp(a->question, b->question)) != 0)
		return c;
	return bst_cmp_str(a->model, b->model);
}

static int
is_primary(const char *name)
{
	return !strcmp(name, "A") || !strcmp(name, "B");
}

/* What condition name varies: NULL for A and B (and for a name no record
 * and no config knows). */
static const char *
variant_of(const struct bst_study *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nvars; i++)
		if (!strcmp(s->vars[i].name, name))
			return s->vars[i].of;
	return NULL;
}

/* The primary condition name finally varies ("A" or "B"; "" when the
 * chain of variant_of leaves the known conditions or loops). */
static const char *
base_of(const struct bst_study *s, const char *name)
{
	size_t hops;

	for (hops = 0; hops <= s->nvars && name; hops++) {
		if (is_primary(name))
			return name;
		name = variant_of(s, name);
	}
	return "";
}

/*
 * The primary ratings of condition name in the order of tuples, into a
 * new array *out (the caller frees it); returns their number.  Dies naming
 * file and line on a second rating of one tuple (as pairs.c does for A and
 * B).
 */
static size_t
ratings(const struct bst_study *s, const char *name,
    const struct bst_obs ***out)
{
	int prim = is_primary(name);
	const struct bst_obs *v = prim ? s->obs : s->var;
	size_t i, k = 0, n = prim ? s->nobs : s->nvar;
	const struct bst_obs **l = xreallocarray(NULL, n + 1, sizeof *l);

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].cname, name))
			l[k++] = &v[i];
	ctx_sort(l, k, sizeof *l, triple_cmp, NULL);
	for (i = 1; i < k; i++)
		if (triple_cmp(&l[i - 1], &l[i], NULL) == 0) {
			const struct bst_obs *a = l[i - 1], *b = l[i];

			free(l);
			diex(EXIT_DATA, "%s:%lu: a second primary rating of (%s, %s, "
			    "%s, %s) (first at line %lu)", b->file, b->line, b->site,
			    b->question, b->model, b->cname, a->line);
		}
	*out = l;
	return k;
}

/* The pairs of x and y (both in tuple order, neither excluded) into p;
 * returns their number. */
static size_t
match(const struct bst_obs **x, size_t nx, const struct bst_obs **y,
    size_t ny, struct bst_pair *p)
{
	size_t i = 0, j = 0, n = 0;

	while (i < nx && j < ny) {
		int c = triple_cmp(&x[i], &y[j], NULL);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (!x[i]->excluded && !y[j]->excluded) {
				p[n].b = x[i];
				p[n].a = y[j];
				n++;
			}
			i++;
			j++;
		}
	}
	return n;
}

/* ------------------------------------------------------------ records */

/* The comparison's own record: which conditions, how many ratings and
 * pairs, and whether it ran. */
static json_t *
cmp_record(struct bst_study *s, const struct bst_cmp *c, size_t nx,
    size_t ny, size_t np)
{
	json_t *r = bst_res_new(s, "comparison", "exploratory", NULL,
	    c->family, "all metrics", "all pairs");
	char name[512];

	snprintf(name, sizeof name, "%s:%s", c->x, c->y);
	json_set_str(r, "comparison", name);
	json_set_str(r, "x", c->x);
	json_set_str(r, "y", c->y);
	json_set_new(r, "x_variant_of", json_str_or_null(variant_of(s, c->x)));
	json_set_new(r, "y_variant_of", json_str_or_null(variant_of(s, c->y)));
	json_set_str(r, "x_base", base_of(s, c->x));
	json_set_str(r, "y_base", base_of(s, c->y));
	json_set_int(r, "x_ratings", (long long)nx);
	json_set_int(r, "y_ratings", (long long)ny);
	json_set_int(r, "pairs", (long long)np);
	json_set_bool(r, "run", nx > 0 && ny > 0);
	if (nx == 0 || ny == 0) {
		snprintf(name, sizeof name, "no primary rating of condition %s: "
		    "the study did not run it", nx == 0 ? c->x : c->y);
		json_set_str(r, "reason", name);
	} else {
		json_set_null(r, "reason");
	}
	return r;
}

/* A test record of comparison c: which conditions, and Δ and the sign
 * convention said in X and Y. */
static void
annotate(json_t *r, const struct bst_cmp *c, const char *name)
{
	const char *def = json_string_value(json_object_get(r, "delta"));
	json_t *e = json_object_get(r, "effect");
	char sign[512], delta[512];
	int xy = def && strstr(def, "B − A") != NULL;

	snprintf(sign, sizeof sign, "positive = %s better (higher score, fewer "
	    "hallucinations, fewer tokens)", c->x);
	json_set_str(r, "comparison", name);
	json_set_str(r, "x", c->x);
	json_set_str(r, "y", c->y);
	if (def) {
		snprintf(delta, sizeof delta, "Δ = %s − %s", xy ? c->x : c->y,
		    xy ? c->y : c->x);
		json_set_str(r, "delta", delta);
	}
	json_set_str(r, "sign", sign);
	/* as reading.c says of the primary results: no finding below it */
	json_set_bool(r, "too_few_pairs", json_integer_value(json_object_get(r,
	    "n")) < BST_MIN_INTERVAL_PAIRS);
	if (json_is_object(e) && json_object_get(e, "sign"))
		json_set_str(e, "sign", sign);
	bst_res_note(r, "exploratory comparison (issue 30), two-sided, not "
	    "pre-registered; in distribution and the discordant counts, B "
	    "stands for x and A for y");
}

/* The five tests of comparison c over its pairs p[0..np). */
static void
tests(struct bst_study *s, const struct bst_cmp *c, struct bst_pair *p,
    size_t np)
{
	struct bst_pair *keep = s->pairs;
	size_t nkeep = s->npairs, i, k, from;
	char name[512];

	snprintf(name, sizeof name, "%s:%s", c->x, c->y);
	s->pairs = p;
	s->npairs = np;
	for (k = 0; k < NMETRICS; k++) {
		from = json_array_size(s->results);
		bst_explore_test(s, METRICS[k].m, "exploratory", c->family,
		    METRICS[k].subset);
		for (i = from; i < json_array_size(s->results); i++)
			annotate(json_array_get(s->results, i), c, name);
	}
	s->pairs = keep;
	s->npairs = nkeep;
}

/* ---------------------------------------------------------- the entry */

static int
name_cmp(const void *x, const void *y, void *arg)
{
	(void)arg;
	return strcmp(((const struct bst_variant *)x)->name,
	    ((const struct bst_variant *)y)->name);
}

/* No config: each variant the records name against its variant_of, in
 * the order of their names. */
static void
default_comparisons(struct bst_study *s)
{
	struct bst_variant *v = xreallocarray(NULL, s->nvars + 1, sizeof *v);
	size_t i;

	memcpy(v, s->vars, s->nvars * sizeof *v);
	ctx_sort(v, s->nvars, sizeof *v, name_cmp, NULL);
	s->cmp = xreallocarray(NULL, s->nvars + 1, sizeof *s->cmp);
	for (i = 0; i < s->nvars; i++) {
		s->cmp[i].x = v[i].name;
		s->cmp[i].y = v[i].of;
		s->cmp[i].family = NULL;
	}
	s->ncmp = s->nvars;
	free(v);
}

static void
one_comparison(struct bst_study *s, struct bst_cmp *c)
{
	const struct bst_obs **x, **y;
	size_t nx, ny, np, len;
	struct bst_pair *p;

	if (!c->family) {
		len = strlen(c->x) + strlen(c->y) + 16;
		c->family = xmalloc(len);
		snprintf(c->family, len, "exploratory %s:%s", c->x, c->y);
	}
	nx = ratings(s, c->x, &x);
	ny = ratings(s, c->y, &y);
	p = xreallocarray(NULL, (nx < ny ? nx : ny) + 1, sizeof *p);
	np = match(x, nx, y, ny, p);
	cmp_record(s, c, nx, ny, np);
	if (nx > 0 && ny > 0) {
		tests(s, c, p, np);
	} else {
		/* no interval drawn: off the progress line's total */
		s->boot_progress.total -= s->boot_progress.total >= 4 ? 4 : 0;
		if (!s->opt.quiet)
			warn("comparison %s:%s not run: no primary rating of "
			    "condition %s", c->x, c->y, nx == 0 ? c->x : c->y);
	}
	free(p);
	free(x);
	free(y);
}

void
bst_comparisons(struct bst_study *s)
{
	size_t i;

	if (!s->declared && s->ncmp == 0 && s->nvars > 0)
		default_comparisons(s);
	for (i = 0; i < s->ncmp; i++)
		one_comparison(s, &s->cmp[i]);
}
