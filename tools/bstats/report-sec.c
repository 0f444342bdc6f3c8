/*
 * report-sec.c - sections 5 to 9 of the Markdown report: the clustering
 * checks, the subgroups, token efficiency per site and across models, A<->B
 * parity with its sensitivity analysis, and the correlations.  Calls
 * report-fmt.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

void
rp_clustering(FILE *fp, const json_t *res)
{
	size_t i;
	json_t *r;

	fprintf(fp, "\n## 5. Clustering checks (001 §6.5)\n\n"
	    "Δ per (site, model) and per model, %s.\n\n", BST_SIGN);
	json_array_foreach(res, i, r) {
		if (rp_is(r, "group", "clustering_site")) {
			fprintf(fp, "- site level, %s: ", rp_str(r, "metric"));
			rp_result_line(fp, r);
		} else if (rp_is(r, "group", "clustering_model") &&
		    !rp_true(r, "computable")) {
			fprintf(fp, "- model level, %s: not computable (%s)\n",
			    rp_str(r, "metric"), rp_str(r, "reason"));
		} else if (rp_is(r, "group", "clustering_model")) {
			fprintf(fp, "- model level, %s: %lld of %lld models favour B, "
			    "%lld favour A, %lld show no difference\n",
			    rp_str(r, "metric"), (long long)rp_num(r, "models_favouring_b"),
			    (long long)rp_num(r, "n"),
			    (long long)rp_num(r, "models_favouring_a"),
			    (long long)rp_num(r, "models_no_difference"));
		}
	}
}

static void
kruskal_line(FILE *fp, const json_t *r)
{
	const char *k;
	json_t *g;

	fputs("- ", fp);
	bst_md(fp, rp_str(r, "subset"));
	fprintf(fp, " (%s, the interaction): ", rp_str(r, "hypothesis"));
	rp_result_line(fp, r);
	fprintf(fp, "  - median accuracy Δ (B − A) per (site, question):");
	json_object_foreach(json_object_get(r, "groups"), k, g) {
		fputc(' ', fp);
		bst_md(fp, k);
		fprintf(fp, " %.3f (n = %lld);", rp_num(g, "median"),
		    (long long)rp_num(g, "n"));
	}
	fprintf(fp, "\n  - follow-ups: %s\n", rp_true(r, "followups_run") ?
	    "run (the test is significant after BH), see the follow-up tables "
	    "and below" : !rp_true(r, "computable") ? "not run: the "
	    "Kruskal-Wallis test is not computable" : "not run: the "
	    "Kruskal-Wallis test is not significant after BH (001 §6.6)");
}

void
rp_subgroups(FILE *fp, const json_t *res)
{
	size_t i;
	json_t *r;

	fprintf(fp, "\n## 6. Subgroups (001 §6.6)\n\n");
	json_array_foreach(res, i, r) {
		json_t *ef = json_object_get(r, "effect");

		if (!rp_is(r, "group", "tier") && !rp_is(r, "group", "complexity") &&
		    !rp_is(r, "group", "sector"))
			continue;
		if (rp_is(r, "test", "kruskal_wallis")) {
			kruskal_line(fp, r);
			continue;
		}
		fputs("- ", fp);
		bst_md(fp, rp_str(r, "subset"));
		fprintf(fp, ", %s: ", rp_str(r, "metric"));
		if (!rp_is(r, "group", "sector"))
			rp_result_line(fp, r);
		else if (json_is_number(json_object_get(ef, "value")))
			fprintf(fp, "Cliff's δ = %.3f [%.3f, %.3f], n = %lld "
			    "(descriptive; Δ = B − A, positive: B better)\n", rp_num(ef, "value"),
			    rp_num(ef, "ci_low"), rp_num(ef, "ci_high"),
			    (long long)rp_num(r, "n"));
		else
			fprintf(fp, "not computable (%s)\n", rp_str(ef, "reason"));
	}
}

static void
token_site_table(FILE *fp, const json_t *r)
{
	json_t *d = json_object_get(r, "delta_pct_across_sites"), *st;
	size_t j;

	fprintf(fp, "\n### Token efficiency per site (001 §2.6, 000 §4)\n\n"
	    "Counts: %s.  Δ = A − B of the mean tokens, and as a percentage of "
	    "A; positive means Condition B (llms.txt) uses fewer tokens.  (000 "
	    "§4 writes B − A; the sign is turned round here so that one "
	    "convention holds throughout.)", rp_str(r, "metric"));
	if (rp_num(d, "n") > 0) {
		fprintf(fp, "  Across %lld site%s the median Δ is ", (long long)
		    rp_num(d, "n"), rp_num(d, "n") == 1 ? "" : "s");
		rp_median_iqr(fp, d, 1, " %");
		fputc('.', fp);
	}
	fprintf(fp, "\n\n| site | pairs | mean A | mean B | median A | median B "
	    "| Δ (A − B) | Δ %% |\n|---|---|---|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(r, "sites"), j, st) {
		fputs("| ", fp);
		bst_md(fp, rp_str(st, "site_id"));
		fprintf(fp, " | %lld | %.1f | %.1f | %.1f | %.1f | %.1f | ",
		    (long long)rp_num(st, "n"), rp_num(st, "mean_a"),
		    rp_num(st, "mean_b"), rp_num(st, "median_a"),
		    rp_num(st, "median_b"), rp_num(st, "delta"));
		if (json_is_number(json_object_get(st, "delta_pct")))
			fprintf(fp, "%.1f %% |\n", rp_num(st, "delta_pct"));
		else
			fprintf(fp, "not computable (A has no tokens) |\n");
	}
}

static void
token_model_table(FILE *fp, const json_t *r)
{
	json_t *m;
	size_t j;
	int ref = rp_true(r, "reference_counts");

	fprintf(fp, "\n### Token variation across models (001 §2.6, level 2)\n\n"
	    "Per model (its tokenizer): the per-pair reduction 100 (A − B) / A "
	    "(positive: B uses fewer tokens)%s.  Descriptive.\n\n"
	    "| model | family | pairs | median reduction (IQR) |%s\n"
	    "|---|---|---|---|%s\n", ref ? ", and its tokens per reference "
	    "(Llama 3) token under each condition" : "", ref ?
	    " tokens/ref. token A | tokens/ref. token B |" : "",
	    ref ? "---|---|" : "");
	json_array_foreach(json_object_get(r, "models"), j, m) {
		fputs("| ", fp);
		bst_md(fp, rp_str(m, "model_id"));
		fputs(" | ", fp);
		bst_md(fp, json_is_string(json_object_get(m, "model_family")) ?
		    rp_str(m, "model_family") : "–");
		fprintf(fp, " | %lld | ", (long long)rp_num(m, "n"));
		rp_median_iqr(fp, json_object_get(m, "reduction_pct"), 1, " %");
		if (ref && json_object_get(m, "median_tokens_per_ref_a"))
			fprintf(fp, " | %.3f | %.3f", rp_num(m,
			    "median_tokens_per_ref_a"), rp_num(m,
			    "median_tokens_per_ref_b"));
		else if (ref)
			fputs(" | – | –", fp);
		fputs(" |\n", fp);
	}
}

void
rp_tokens(FILE *fp, const json_t *res)
{
	const json_t *r;

	fprintf(fp, "\n## 7. Token efficiency (001 §2.6, 000 §4)\n");
	if ((r = rp_find(res, "tokens", NULL, "token_summary")))
		token_site_table(fp, r);
	if ((r = rp_find(res, "tokens", NULL, "token_variation")) &&
	    rp_true(r, "computable"))
		token_model_table(fp, r);
}

static void
share_cell(FILE *fp, const json_t *sm)
{
	fputs(" | ", fp);
	if (rp_num(sm, "n") == 0)
		fputs("–", fp);
	else
		fprintf(fp, "%.3f", rp_num(sm, "median"));
}

static void
parity_table(FILE *fp, const json_t *r)
{
	json_t *st;
	size_t j;

	fprintf(fp, "| site | pairs | with parity | drift | B in A | A in B | "
	    "code B in A | code A in B | gold cov. A | gold cov. B | B lower "
	    "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(r, "sites"), j, st) {
		fputs("| ", fp);
		bst_md(fp, rp_str(st, "site_id"));
		fprintf(fp, " | %lld | %lld | %lld", (long long)rp_num(st, "pairs"),
		    (long long)rp_num(st, "with_parity"),
		    (long long)rp_num(st, "drift"));
		share_cell(fp, json_object_get(st, "b_in_a"));
		share_cell(fp, json_object_get(st, "a_in_b"));
		share_cell(fp, json_object_get(st, "code_b_in_a"));
		share_cell(fp, json_object_get(st, "code_a_in_b"));
		if (rp_num(st, "gold_n") > 0)
			fprintf(fp, " | %.3f | %.3f | %.1f %% |\n",
			    rp_num(st, "gold_coverage_a"), rp_num(st, "gold_coverage_b"),
			    rp_num(st, "gold_b_lower_pct"));
		else
			fputs(" | – | – | – |\n", fp);
	}
}

void
rp_parity(FILE *fp, const json_t *res)
{
	const json_t *r = rp_find(res, "parity", NULL, "parity_summary");
	size_t i;
	json_t *t;

	fprintf(fp, "\n## 8. A↔B content parity (001 §7.1 L-IV-1)\n\n");
	if (!r || !rp_true(r, "computable")) {
		fprintf(fp, "Not reported: %s.  The sensitivity analysis without "
		    "drifted pairs cannot be run on these data.\n",
		    r ? rp_str(r, "reason") : "no result");
		return;
	}
	fprintf(fp, "Medians per site of the share of one condition's content "
	    "words (and code lines) found in the other, as bctx measures them; "
	    "drift: pairs bctx flagged `pair_drift`.  Beside them the "
	    "gold-coverage asymmetry: mean gold coverage of A and of B, and the "
	    "share of pairs where B's is lower.  %lld of %lld pairs carry parity; "
	    "flagged: %lld.\n\n", (long long)rp_num(r, "pairs_with_parity"),
	    (long long)rp_num(r, "n"), (long long)rp_num(r, "pairs_drift"));
	parity_table(fp, r);
	fprintf(fp, "\n**Sensitivity analysis**: the primary tests again without "
	    "the flagged pairs (not BH-adjusted; compare with section 2).\n\n");
	json_array_foreach(res, i, t)
		if (rp_is(t, "group", "sensitivity_parity")) {
			fprintf(fp, "- %s, %s: ", rp_str(t, "hypothesis"),
			    rp_str(t, "metric"));
			rp_result_line(fp, t);
		}
}

void
rp_correlations(FILE *fp, const json_t *res)
{
	size_t i;
	json_t *r;

	fprintf(fp, "\n## 9. Correlations (001 §6.7, §6.8)\n\n"
	    "Δtokens = A − B and Δaccuracy = B − A (%s).\n\n", BST_SIGN);
	json_array_foreach(res, i, r)
		if (rp_is(r, "group", "correlation")) {
			fprintf(fp, "- %s (%s): ", rp_str(r, "metric"),
			    rp_str(r, "subset"));
			rp_result_line(fp, r);
		}
}
