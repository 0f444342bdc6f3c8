/*
 * accounting.c - where every record went, beside the exclusion counts of
 * pairs.c (001 §2.5): the tuples that were not excluded but found no
 * partner (per model and condition), those whose partner was excluded, the
 * models left without a single pair, the pairs that lack a grouping field
 * and so drop out of a subgroup analysis (tier, complexity, sector), and
 * the ratings by rater_kind with how many pairs had their hallucinations
 * assessed (bscore-merge autoscore does not assess them, 000 §10).  It adds
 * these to s->exclusions, so that section 1 of the report adds up.  Calls
 * obs.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* o[k] += n, an absent count being 0. */
static void
add(json_t *o, const char *k, json_int_t n)
{
	json_set_int(o, k, json_integer_value(json_object_get(o, k)) + n);
}

/* The object o[k], created empty when absent; borrowed. */
static json_t *
member(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v) {
		v = json_object();
		json_object_set_new(o, k, v);
	}
	return v;
}

/*
 * One (site, question, model) group of s->idx, [i, j): a pair, an
 * exclusion, a tuple whose partner was excluded, or an unpaired tuple.
 */
static void
count_triple(const struct bst_study *s, size_t i, size_t j, json_t *models,
    json_int_t *partner_excl, json_int_t *unpaired)
{
	json_t *m = member(models, s->idx[i]->model);
	size_t k, live = 0;
	char key[16];

	for (k = i; k < j; k++)
		live += !s->idx[k]->excluded;
	if (j - i == 2 && live == 2) {
		add(m, "pairs", 1);
		return;
	}
	for (k = i; k < j; k++) {
		if (s->idx[k]->excluded)
			continue;
		if (j - i == 2) {
			(*partner_excl)++;
			add(m, "partner_excluded", 1);
			continue;
		}
		(*unpaired)++;
		snprintf(key, sizeof key, "%c_only", s->idx[k]->cond);
		add(m, key, 1);
	}
}

/* Models that are in the data but in no pair, in natural order. */
static json_t *
pairless(json_t *models)
{
	json_t *out = json_array(), *m;
	const char *k;

	json_object_foreach(models, k, m)
		if (json_integer_value(json_object_get(m, "pairs")) == 0)
			json_array_append_new(out, json_string(k));
	return out;
}

static void
tuples(const struct bst_study *s, json_t *e)
{
	json_t *models = json_object();
	json_int_t pex = 0, unp = 0;
	size_t i, j;

	for (i = 0; i < s->nobs; i = j) {
		for (j = i + 1; j < s->nobs && bst_same_triple(s->idx[i],
		    s->idx[j]); j++)
			;
		count_triple(s, i, j, models, &pex, &unp);
	}
	json_set_int(e, "partner_excluded", (long long)pex);
	json_set_int(e, "unpaired", (long long)unp);
	json_set_new(e, "models_without_pairs", pairless(models));
	json_set_new(e, "by_model", models);
}

static void
grouping_fields(const struct bst_study *s, json_t *e)
{
	json_t *g = json_object();
	size_t i, t = 0, c = 0, sec = 0;

	/* the field the subgroup analyses read: B's record (groups.c) */
	for (i = 0; i < s->npairs; i++) {
		t += s->pairs[i].b->tier == NULL;
		c += s->pairs[i].b->complexity == NULL;
		sec += s->pairs[i].b->sector == NULL;
	}
	json_set_int(g, "tier", (long long)t);
	json_set_int(g, "complexity", (long long)c);
	json_set_int(g, "sector", (long long)sec);
	json_set_new(e, "pairs_missing", g);
}

static const char *
kind_of(const struct bst_obs *o)
{
	return o->rater_kind ? o->rater_kind : "unspecified";
}

/* Ratings by rater_kind, primary and other, and the hallucination check. */
static void
raters(const struct bst_study *s, json_t *e)
{
	json_t *r = json_object(), *pk = json_object(), *ok = json_object();
	size_t i, auto_pairs = 0;

	for (i = 0; i < s->nobs; i++)
		add(pk, kind_of(&s->obs[i]), 1);
	for (i = 0; i < s->nsec; i++)
		add(ok, kind_of(&s->sec[i]), 1);
	for (i = 0; i < s->npairs; i++)
		auto_pairs += !bst_cmp_str(s->pairs[i].a->rater_kind, "autoscore") ||
		    !bst_cmp_str(s->pairs[i].b->rater_kind, "autoscore");
	json_set_new(r, "primary", pk);
	json_set_new(r, "other", ok);
	json_set_int(r, "hallucinations_assessed_pairs",
	    (long long)(s->npairs - auto_pairs));
	/* 000 §10: a first pass without a human primary rating */
	json_set_bool(r, "first_pass_only", !json_object_get(pk, "human") &&
	    json_object_size(pk) > (json_object_get(pk, "unspecified") ? 1u :
	    0u));
	json_set_new(e, "ratings", r);
}

void
bst_accounting(struct bst_study *s)
{
	tuples(s, s->exclusions);
	grouping_fields(s, s->exclusions);
	raters(s, s->exclusions);
}
