/*
 * html-compare.c - two runs of one study side by side in the results
 * browser (bstats --html OUT --compare OTHER): the primary ratings of the
 * other run indexed by (site, question, model, condition), and the compare
 * view's data: ratings whose scores or exclusion differ, pairs whose
 * outcome turned, test results whose verdict or effect differ, each list
 * with its differences first.  Below html-data.c and html.c; calls obs.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "html.h"

static void
tuple_key(const struct bst_obs *o, char cond, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "%s\x1f%s\x1f%s\x1f%c", o->site, o->question, o->model, cond);
}

void
bst_runidx_init(struct bst_runidx *x, const struct bst_study *s)
{
	struct buf k = BUF_INIT;
	size_t i;

	x->s = s;
	x->map = json_object();
	for (i = 0; s && i < s->nobs; i++) {
		tuple_key(&s->obs[i], s->obs[i].cond, &k);
		json_set_int(x->map, buf_str(&k), (long long)i);
	}
	buf_release(&k);
}

const struct bst_obs *
bst_runidx_get(const struct bst_runidx *x, const struct bst_obs *like,
    char cond)
{
	struct buf k = BUF_INIT;
	json_t *v;

	if (!x->s)
		return NULL;
	tuple_key(like, cond, &k);
	v = json_object_get(x->map, buf_str(&k));
	buf_release(&k);
	return v ? &x->s->obs[json_integer_value(v)] : NULL;
}

void
bst_runidx_release(struct bst_runidx *x)
{
	json_decref(x->map);
	x->map = NULL;
}

int
bst_html_unassessed(const struct bst_obs *o)
{
	return o->rater_kind != NULL && strcmp(o->rater_kind, "autoscore") == 0;
}

json_t *
bst_html_rating(const struct bst_obs *o)
{
	json_t *j;
	int in = o && !o->excluded;

	if (!o)
		return json_null();
	j = json_object();
	json_set_new(j, "excluded", o->excluded ? json_string(o->reason) :
	    json_null());
	json_set_new(j, "fa", in ? json_integer(o->fa) : json_null());
	/* autoscore records 0 hallucinations without looking (000 §10) */
	json_set_new(j, "hc", in && !bst_html_unassessed(o) ? json_integer(o->hc) :
	    json_null());
	json_set_new(j, "comp", in ? json_integer(o->comp) : json_null());
	json_set_new(j, "cf", in && o->cf >= 0 ? json_integer(o->cf) :
	    json_null());
	json_set_new(j, "rater", json_str_or_null(o->rater));
	json_set_new(j, "rater_kind", json_str_or_null(o->rater_kind));
	json_set_new(j, "notes", json_str_or_null(o->rec ?
	    json_get_str(o->rec, "scoring_notes") : NULL));
	return j;
}

/* The names of the fields in which ratings a and b differ (an array). */
static json_t *
rating_diff(const struct bst_obs *a, const struct bst_obs *b)
{
	json_t *d = json_array();

	if (a->excluded != b->excluded || (a->excluded &&
	    bst_cmp_str(a->reason, b->reason)))
		json_array_append_new(d, json_string("excluded"));
	if (a->excluded || b->excluded)
		return d;
	if (a->fa != b->fa)
		json_array_append_new(d, json_string("factual_accuracy"));
	if (a->hc != b->hc)
		json_array_append_new(d, json_string("hallucination_count"));
	if (a->comp != b->comp)
		json_array_append_new(d, json_string("completeness"));
	if (a->cf != b->cf)
		json_array_append_new(d, json_string("citation_fidelity"));
	return d;
}

static json_t *
tuple_ref(const struct bst_obs *o)
{
	json_t *t = json_object();

	json_set_str(t, "site", o->site);
	json_set_str(t, "question", o->question);
	json_set_str(t, "model", o->model);
	json_set_strn(t, "cond", &o->cond, 1);
	return t;
}

/* Ratings of s against other: changed ones listed, the rest counted. */
static void
ratings(json_t *c, const struct bst_study *s, const struct bst_runidx *x)
{
	json_t *changed = json_array(), *only = json_array();
	size_t i, same = 0;

	for (i = 0; i < s->nobs; i++) {
		const struct bst_obs *o = s->idx[i], *t;
		json_t *d, *e;

		if (!(t = bst_runidx_get(x, o, o->cond))) {
			json_array_append_new(only, tuple_ref(o));
			continue;
		}
		d = rating_diff(o, t);
		if (json_array_size(d) == 0) {
			same++;
			json_decref(d);
			continue;
		}
		e = tuple_ref(o);
		json_set_new(e, "fields", d);
		json_set_new(e, "this", bst_html_rating(o));
		json_set_new(e, "other", bst_html_rating(t));
		json_array_append_new(changed, e);
	}
	json_set_new(c, "changed", changed);
	json_set_int(c, "same", (long long)same);
	json_set_new(c, "only_this", only);
}

/* Ratings of other that s lacks. */
static json_t *
only_other(const struct bst_study *s, const struct bst_study *other)
{
	struct bst_runidx mine;
	json_t *only = json_array();
	size_t i;

	bst_runidx_init(&mine, s);
	for (i = 0; i < other->nobs; i++)
		if (!bst_runidx_get(&mine, &other->obs[i], other->obs[i].cond))
			json_array_append_new(only, tuple_ref(&other->obs[i]));
	bst_runidx_release(&mine);
	return only;
}

/* -1, 0, 1 or 2 (unpaired): the outcome of metric m of a pair. */
static int
outcome(const struct bst_obs *a, const struct bst_obs *b, enum bst_metric m)
{
	double d;

	if (!a || !b || a->excluded || b->excluded)
		return 2;
	d = bst_delta(m, a, b);
	return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* Pairs whose outcome (B better, A better, tie, unpaired) turned. */
static json_t *
turned(const struct bst_study *s, const struct bst_runidx *x)
{
	static const char *const name[] = { "A better", "tie", "B better",
	    "unpaired" };
	static const enum bst_metric ms[] = { M_ACC, M_HALL, M_TOK };
	json_t *out = json_array();
	size_t i, k;

	for (i = 0; i < s->nobs; i++) {
		const struct bst_obs *o = s->idx[i];
		const struct bst_obs *a, *b, *ta, *tb;

		if (i > 0 && bst_same_triple(s->idx[i - 1], o))
			continue;
		a = o->cond == 'A' ? o : NULL;
		b = o->cond == 'B' ? o : i + 1 < s->nobs &&
		    bst_same_triple(s->idx[i + 1], o) ? s->idx[i + 1] : NULL;
		ta = bst_runidx_get(x, o, 'A');
		tb = bst_runidx_get(x, o, 'B');
		for (k = 0; k < 3; k++) {
			int u = outcome(a, b, ms[k]), v = outcome(ta, tb, ms[k]);
			json_t *e;

			if (u == v || (!ta && !tb))
				continue;
			e = tuple_ref(o);
			json_object_del(e, "cond");
			json_set_str(e, "metric", BST_METRIC_NAME[ms[k]]);
			json_set_str(e, "this", name[u + 1]);
			json_set_str(e, "other", name[v + 1]);
			json_array_append_new(out, e);
		}
	}
	return out;
}

/* ------------------------------------------------------ test results */

/* A result's identity: its naming fields joined. */
static void
result_key(const json_t *r, struct buf *b)
{
	static const char *const f[] = { "test", "group", "hypothesis", "family",
	    "metric", "subset", "measure", "tier", "complexity", "sector",
	    "model_id", "variable", NULL };
	const char *const *p;

	buf_reset(b);
	for (p = f; *p; p++) {
		const char *v = json_get_str(r, *p);

		buf_addf(b, "%s\x1f", v ? v : "");
	}
}

/* {p_adjusted, effect, significant} of a result at level alpha. */
static json_t *
verdict(const json_t *r, double alpha)
{
	json_t *v = json_object(), *pa = json_object_get(r, "p_adjusted"),
	    *p = json_object_get(r, "p"), *ef = json_object_get(r, "effect");
	json_t *use = json_is_number(pa) ? pa : p;

	json_set_new(v, "p", json_is_number(use) ? json_incref(use) :
	    json_null());
	json_set_new(v, "effect", json_is_object(ef) &&
	    json_is_number(json_object_get(ef, "value")) ?
	    json_incref(json_object_get(ef, "value")) : json_null());
	json_set_new(v, "significant", json_is_number(use) ?
	    json_boolean(json_number_value(use) < alpha) : json_null());
	return v;
}

static int
same_number(const json_t *a, const json_t *b)
{
	if (json_is_null(a) || json_is_null(b))
		return json_is_null(a) && json_is_null(b);
	return fabs(json_number_value(a) - json_number_value(b)) < 1e-12;
}

/* One compared result; returns 1 when its verdict changed. */
static int
result_row(json_t *e, const json_t *r, const json_t *t, double alpha)
{
	json_t *u = verdict(r, alpha), *v = verdict(t, alpha);
	int turned = !json_equal(json_object_get(u, "significant"),
	    json_object_get(v, "significant"));
	int moved = !same_number(json_object_get(u, "effect"),
	    json_object_get(v, "effect")) || !same_number(json_object_get(u,
	    "p"), json_object_get(v, "p"));
	const char *n[] = { "test", "hypothesis", "metric", "subset", NULL };
	const char *const *p;

	for (p = n; *p; p++)
		json_set_new(e, *p, json_str_or_null(json_get_str(r, *p)));
	json_set_new(e, "this", u);
	json_set_new(e, "other", v);
	json_set_bool(e, "verdict_changed", turned);
	json_set_bool(e, "changed", turned || moved);
	return turned;
}

/* The tests both runs report with a p-value, verdict changes first. */
static json_t *
results(const struct bst_study *s, const struct bst_study *other)
{
	json_t *byk = json_object(), *first = json_array(), *rest = json_array(),
	    *r;
	struct buf k = BUF_INIT;
	size_t i;

	json_array_foreach(other->results, i, r) {
		result_key(r, &k);
		json_object_set(byk, buf_str(&k), r);
	}
	json_array_foreach(s->results, i, r) {
		json_t *t, *e;

		if (!json_object_get(r, "p"))
			continue;
		result_key(r, &k);
		if (!(t = json_object_get(byk, buf_str(&k))))
			continue;
		e = json_object();
		json_array_append_new(result_row(e, r, t, s->opt.alpha) ? first :
		    rest, e);
	}
	json_array_extend(first, rest);
	json_decref(rest);
	json_decref(byk);
	buf_release(&k);
	return first;
}

json_t *
bst_html_compare(const struct bst_study *s, const struct bst_study *other,
    const struct bst_runidx *x, const char *label)
{
	json_t *c = json_object();

	json_set_str(c, "label", label);
	json_set_real(c, "alpha", s->opt.alpha);
	ratings(c, s, x);
	json_set_new(c, "only_other", only_other(s, other));
	json_set_new(c, "turned", turned(s, x));
	json_set_new(c, "results", results(s, other));
	return c;
}
