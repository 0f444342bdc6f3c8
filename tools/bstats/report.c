/*
 * report.c - the driver of the Markdown report of bstats: its head (the
 * analysis' parameters and the sign convention) and its sections in
 * order, each written from the result records by report-tests.c,
 * report-sec.c or report-guide.c.  Calls down only; nothing in it is
 * called by another file of the report.
 */
#include <stdio.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

/* The title, the parameters of the analysis and the sign convention. */
static void
head(const struct bst_study *s, FILE *fp)
{
	double a = s->opt.alpha;

	fprintf(fp, "# ctxbench analysis report\n\n"
	    "Pre-registered analysis of spec 001 §6 (α = %g, BH q = %g, %g %% "
	    "intervals, %zu bootstrap resamples, seed %lu).\n\n"
	    "**Sign convention** (every Δ, effect size, table and figure): %s.  "
	    "Δ = B − A for factual accuracy, completeness and citation fidelity; "
	    "Δ = A − B for hallucination counts and tokens.\n",
	    a, a, 100 * s->opt.level, s->opt.nboot, s->opt.seed, BST_SIGN);
}

void
bstats_report(const struct bst_study *s, FILE *fp)
{
	const json_t *res = s->results;

	head(s, fp);
	rp_exclusions(fp, s->exclusions);
	if (s->conformance)
		rp_conformance(fp, s->conformance);
	rp_hypotheses(fp, res);
	rp_families(fp, res, s->opt.alpha);
	rp_clustering(fp, res);
	rp_subgroups(fp, res);
	rp_tokens(fp, res);
	rp_parity(fp, res);
	rp_correlations(fp, res);
	rp_agreement(fp, res);
	rp_interpretation(fp, res, s->opt.alpha);
	rp_methods(fp, s->opt.nboot, s->opt.seed);
}
