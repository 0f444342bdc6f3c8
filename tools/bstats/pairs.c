/*
 * pairs.c - from ratings to pairs: the primary ratings sorted in the order
 * of tuples (obs.c), a second primary rating of one tuple refused, and each
 * (site, question, model) scored under both conditions paired (001 §6.2);
 * and the exclusion accounting of 001 §2.5 over every tuple, with the sites
 * that lost more than half of their tuples under A or B flagged.  What did
 * not pair, and why, is counted here.  Calls obs.c.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* ---------------------------------------------------------------- pairing */

void
bst_pair_up(struct bst_study *s)
{
	const struct bst_obs **idx = xreallocarray(NULL, s->nobs + 1, sizeof *idx);
	size_t i, np = 0;

	bst_keys(s);
	for (i = 0; i < s->nobs; i++)
		idx[i] = &s->obs[i];
	qsort(idx, s->nobs, sizeof *idx, bst_obs_cmp);
	for (i = 1; i < s->nobs; i++)
		if (bst_same_triple(idx[i - 1], idx[i]) &&
		    idx[i - 1]->cond == idx[i]->cond) {
			const struct bst_obs *a = idx[i - 1], *b = idx[i];

			free(idx);	/* nothing left behind for the leak checker */
			diex(EXIT_DATA, "%s:%lu: a second primary rating of (%s, %s, %s, "
			    "%c) (first at line %lu)", b->file, b->line,
			    b->site, b->question, b->model, b->cond, a->line);
		}
	s->pairs = xreallocarray(NULL, s->nobs / 2 + 1, sizeof *s->pairs);
	for (i = 0; i + 1 < s->nobs; i++)
		if (idx[i]->cond == 'A' && idx[i + 1]->cond == 'B' &&
		    bst_same_triple(idx[i], idx[i + 1]) && !idx[i]->excluded &&
		    !idx[i + 1]->excluded) {
			assert(np <= s->nobs / 2);
			s->pairs[np].a = idx[i];
			s->pairs[np].b = idx[i + 1];
			np++;
		}
	s->npairs = np;
	s->idx = idx;
}

/* ------------------------------------------------------------ exclusions */

/* o[k] += n, an absent count being 0. */
static void
bump(json_t *o, const char *k, json_int_t n)
{
	json_set_int(o, k, json_integer_value(json_object_get(o, k)) + n);
}

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
	bump(st, ka, 1);
	bump(st, kx, o->excluded);
	cs = json_object_get(conds, key);
	if (!cs) {
		cs = json_object();
		json_set_int(cs, "attempted", 0);
		json_set_int(cs, "excluded", 0);
		json_object_set_new(conds, key, cs);
	}
	bump(cs, "attempted", 1);
	if (o->excluded) {
		bump(cs, "excluded", 1);
		bump(reasons, o->reason, 1);
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

void
bst_exclusions(struct bst_study *s)
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

