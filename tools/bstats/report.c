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

/* 000 §10: automatic and LLM-judge scores are a first pass. */
static void
banner(const struct bst_study *s, FILE *fp)
{
	const json_t *r = json_object_get(s->exclusions, "ratings");
	const char *kind, *sep = "";
	json_t *v;

	if (!json_is_true(json_object_get(r, "first_pass_only")))
		return;
	fprintf(fp, "\n> **First-pass scores, not the study's result.**  No "
	    "primary rating is by a human rater (rater_kind:");
	json_object_foreach(json_object_get(r, "primary"), kind, v) {
		fprintf(fp, "%s %s %lld", sep, kind, (long long)
		    json_integer_value(v));
		sep = ",";
	}
	fprintf(fp, ").  Spec 000 §10 makes automatic and LLM-judge scores a "
	    "first pass that human raters confirm: read every result below as "
	    "a check of the pipeline, not as evidence about llms.txt.\n");
}

void
bstats_report(const struct bst_study *s, FILE *fp)
{
	const json_t *res = s->results;

	head(s, fp);
	banner(s, fp);
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
	rp_ablation(fp, res, s->opt.alpha);
	if (s->drift)
		rp_drift(fp, s->drift);
	rp_methods(fp, s->opt.nboot, s->opt.seed);
}
