/*
 * analysis.c - the driver of the pre-registered analysis of spec 001 §6 and
 * 000 §8: pair the ratings and account for the exclusions (pairs.c), run
 * the primary and secondary tests (paired.c) and the analyses of the other
 * files in the order the report reads them, adjust by Benjamini-Hochberg
 * within each family (§6.4), and run the subgroup follow-ups only where
 * their omnibus test is significant (§6.6).  Every result is one JSON
 * record in s->results; the report and the figures are written from those
 * records.  Calls down only; nothing in it is called by another file of
 * the analysis.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

/* ------------------------------------------------------------------- BH */

static int
in_family(json_t *r, const char *family)
{
	json_t *f = json_object_get(r, "family");

	return f && json_is_string(f) && !strcmp(json_string_value(f), family) &&
	    json_is_number(json_object_get(r, "p"));
}

/* BH within one family (adj <= alpha rejects, as statsmodels). */
static void
adjust(struct bst_study *s, const char *family)
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

static int
carries_parity(const struct bst_obs *o)
{
	return o->par_b_in_a >= 0 || o->par_a_in_b >= 0 || o->drift >= 0 ||
	    o->facts_changed >= 0 || o->facts_b_in_a >= 0 ||
	    o->facts_a_in_b >= 0;
}

/*
 * The bootstrap intervals the analysis will draw, for the progress line's
 * total: one per Wilcoxon test and per sector (paired.c, groups.c), that
 * is the four primary and secondary metrics but completeness, three per
 * tier and per complexity level, one per sector, three for the parity
 * sensitivity analysis (parity.c runs it when a pair carries parity), and
 * four per exploratory comparison.  A
 * test that draws none (no pairs; the t-test for tokens) takes itself off
 * the total.
 */
static unsigned long long
planned_intervals(const struct bst_study *s)
{
	json_t *tiers = json_object(), *levels = json_object(),
	    *sectors = json_object();
	unsigned long long n;
	size_t i;
	int par = 0;

	for (i = 0; i < s->npairs; i++) {
		const struct bst_obs *a = s->pairs[i].a, *b = s->pairs[i].b;

		if (b->tier)
			json_object_set_new(tiers, b->tier, json_true());
		if (b->complexity)
			json_object_set_new(levels, b->complexity, json_true());
		if (b->sector)
			json_object_set_new(sectors, b->sector, json_true());
		par |= carries_parity(a) || carries_parity(b);
	}
	n = 4 + 3 * (json_object_size(tiers) + json_object_size(levels)) +
	    json_object_size(sectors) + (par ? 3 : 0);
	/* four per exploratory comparison (compare.c): declared, or each
	 * variant against its variant_of */
	n += 4 * (s->declared || s->ncmp ? s->ncmp : s->nvars);
	json_decref(tiers);
	json_decref(levels);
	json_decref(sectors);
	return n;
}

/* H1-H3 (the primary family) and H6 with citation fidelity (secondary). */
static void
primary_tests(struct bst_study *s)
{
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
}

void
bstats_analyse(struct bst_study *s)
{
	size_t i;

	s->results = json_array();
	bst_pair_up(s);
	progress_start(&s->boot_progress, "bstats", planned_intervals(s));
	s->boot_progress.unit = "interval";
	if (s->opt.quiet)
		s->boot_progress.active = 0;
	bst_exclusions(s);
	bst_accounting(s);
	if (s->conformance)
		json_array_append(s->results, s->conformance);
	primary_tests(s);
	bst_clustering(s);
	bst_subgroup(s, BST_G_TIER, "H4", "tier", "tier");
	bst_subgroup(s, BST_G_COMPLEXITY, "H5", "complexity", "complexity");
	bst_sectors(s);
	bst_token_sites(s);
	bst_token_models(s);
	bst_correlations(s);
	bst_parity(s);
	bst_agreement(s);
	bst_rubric_agreement(s);
	adjust(s, "primary");
	adjust(s, "tier");
	adjust(s, "complexity");
	adjust(s, "secondary");
	/* 001 §6.6: Mann-Whitney follow-ups only after a significant KW */
	bst_followups(s, BST_G_TIER, "H4", "tier");
	bst_followups(s, BST_G_COMPLEXITY, "H5", "complexity");
	adjust(s, "tier_followup");
	adjust(s, "complexity_followup");
	bst_readings(s);
	/* issue 30: after every primary record, each in its own family */
	bst_comparisons(s);
	progress_end(&s->boot_progress);
	for (i = 0; i < s->ncmp; i++)
		adjust(s, s->cmp[i].family);
}
