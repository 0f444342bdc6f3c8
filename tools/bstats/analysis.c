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
	s->results = json_array();
	bst_pair_up(s);
	progress_start(&s->boot_progress, "bstats", 0);
	s->boot_progress.unit = "interval";
	if (s->opt.quiet)
		s->boot_progress.active = 0;
	bst_exclusions(s);
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
	progress_end(&s->boot_progress);
	adjust(s, "primary");
	adjust(s, "tier");
	adjust(s, "complexity");
	adjust(s, "secondary");
	/* 001 §6.6: Mann-Whitney follow-ups only after a significant KW */
	bst_followups(s, BST_G_TIER, "H4", "tier");
	bst_followups(s, BST_G_COMPLEXITY, "H5", "complexity");
	adjust(s, "tier_followup");
	adjust(s, "complexity_followup");
}
