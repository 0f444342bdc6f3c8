/*
 * report-guide.c - the end of the Markdown report: inter-rater reliability
 * and the 000 §8.2 decision, the corpus conformance summary, and the
 * methods, which state each choice the spec leaves open (the §6.10
 * interpretation is report-read.c's).  Calls report-fmt.c and obs.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

static void
kappa_decision(FILE *fp, const json_t *d)
{
	json_t *v;
	size_t i;

	fprintf(fp, "\n**000 §8.2 decision** (linear weighted kappa for the "
	    "ordinal metrics, kappa for the binary ones, threshold %.1f, %lld "
	    "items rated twice): ", rp_num(d, "threshold"),
	    (long long)rp_num(d, "n"));
	if (rp_is(d, "decision", "primary scores stand"))
		fprintf(fp, "every kappa is at least %.1f, so the primary "
		    "rater's scores stand for all responses.\n",
		    rp_num(d, "threshold"));
	else if (rp_is(d, "decision", "refine and re-score")) {
		fprintf(fp, "kappa is below %.1f on", rp_num(d, "threshold"));
		json_array_foreach(json_object_get(d, "below_threshold"), i, v)
			fprintf(fp, "%s %s", i ? "," : "", json_string_value(v));
		fprintf(fp, ": the raters discuss the disagreements, refine the "
		    "rubric and re-score the subset before these results are "
		    "final.\n");
	} else {
		fprintf(fp, "undetermined: kappa is not computable on");
		json_array_foreach(json_object_get(d, "not_computable"), i, v)
			fprintf(fp, "%s %s", i ? "," : "", json_string_value(v));
		fprintf(fp, " (see above).\n");
	}
}

/* 000 §8.1: a random 10-15 % subset is scored by the second rater. */
static void
subset_size(FILE *fp, const json_t *res)
{
	const json_t *fa = rp_find(res, "agreement", NULL, NULL);
	const json_t *ex = rp_find(res, "data", NULL, "exclusion_accounting");
	double n = 0, of = rp_num(ex, "tuples_attempted") - rp_num(ex,
	    "tuples_excluded"), pct;
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (rp_is(r, "group", "agreement") && rp_is(r, "subset",
		    "inter_rater") && rp_is(r, "metric", "factual_accuracy"))
			n = rp_num(r, "n");
	if (!fa || n == 0 || of <= 0)
		return;
	pct = 100 * n / of;
	fprintf(fp, "\nThe second rater (inter_rater) scored %.0f of the %.0f "
	    "scored responses (%.1f %%); 000 §8.1 asks for a random 10–15 %% "
	    "subset: %s.\n", n, of, pct, pct < 10 ? "**below it**, the "
	    "agreement rests on a smaller subset than the protocol asks" :
	    pct > 15 ? "above it" : "within it");
}

/*
 * What one agreement record means beyond its number: the pooling of the
 * hallucination categories (000 §8.1 against 001 §7.3 L-CV-2), and spec
 * 002's Phase 3 verdict on the PASS/FAIL kappa.
 */
static void
agreement_reading(FILE *fp, const json_t *r)
{
	double k = rp_num(r, "statistic");

	if (rp_is(r, "metric", "hallucination_categories"))
		fprintf(fp, "  - pooled over the four categories: each (response, "
		    "category) is one item, present or absent.  The seeds differ "
		    "here: 000 §8.1 measures hallucination agreement by Spearman's "
		    "ρ of the counts and kappa on the categories, 001 §7.3 L-CV-2 "
		    "by a weighted kappa on the counts; this list gives both, and "
		    "the 000 §8.2 decision reads 000 §8.1's.\n");
	if (!rp_true(r, "computable") || !rp_is(r, "subset",
	    "answer-quality raters"))
		return;
	fprintf(fp, "  - spec 002 Phase 3: %s\n", k >= 0.8 ? "κ ≥ 0.80, "
	    "excellent agreement: proceed to full evaluation" : k >= 0.6 ?
	    "κ 0.60–0.79, good agreement: discuss discrepancies, refine the "
	    "rubric, optionally re-pilot" : "κ < 0.60, **poor agreement: "
	    "revise the rubric**, conduct a training session, re-pilot");
}

void
rp_agreement(FILE *fp, const json_t *res)
{
	const json_t *d = rp_find(res, "agreement_decision", NULL, NULL);
	size_t i;
	json_t *r;
	int any = 0;

	fprintf(fp, "\n## 10. Inter-rater reliability (000 §8)\n\n");
	json_array_foreach(res, i, r) {
		if (!rp_is(r, "group", "agreement"))
			continue;
		any = 1;
		fprintf(fp, "- %s, %s, %s: ", rp_str(r, "subset"),
		    rp_str(r, "metric"), rp_str(r, "test"));
		if (!rp_true(r, "computable"))
			fprintf(fp, "not computable (%s), n = %lld\n",
			    rp_str(r, "reason"), (long long)rp_num(r, "n"));
		else if (json_is_number(json_object_get(r, "p")))
			rp_result_line(fp, r);
		else
			fprintf(fp, "%s = %.3f, n = %lld\n", rp_str(r,
			    "statistic_name"), rp_num(r, "statistic"),
			    (long long)rp_num(r, "n"));
		agreement_reading(fp, r);
	}
	if (!any)
		fprintf(fp, "No second ratings (records with primary: false) "
		    "were given: single-rater study, the limitation of 000 §8.3 "
		    "and 001 §7.4 L-SC-1 applies.\n");
	subset_size(fp, res);
	if (d)
		kappa_decision(fp, d);
	else
		fprintf(fp, "\n**000 §8.2 decision**: not applicable, no second "
		    "rater (inter_rater) scored a subset; 000 §8.3's single-rater "
		    "fallback applies.\n");
}

static int
cmp_level(const void *x, const void *y)
{
	static const char *const order[] = { "MUST", "SHOULD", "NOTE" };
	const json_t *a = *(const json_t *const *)x, *b = *(const json_t *const *)y;
	int la = 0, lb = 0, k;

	for (k = 0; k < 3; k++) {
		if (rp_is(a, "level", order[k]))
			la = k;
		if (rp_is(b, "level", order[k]))
			lb = k;
	}
	if (la != lb)
		return la - lb;
	return bst_natcmp(rp_str(a, "rule"), rp_str(b, "rule"));
}

void
rp_conformance(FILE *fp, const json_t *c)
{
	json_t *lv = json_object_get(c, "by_level"), *r, *ex;
	size_t n = 0, i, j;
	const json_t **v = xreallocarray(NULL, json_object_size(json_object_get(c,
	    "rules")) + 1, sizeof *v);
	const char *k;

	fprintf(fp, "\n## Corpus conformance (001 §1, §3; `bctx check`)\n\n"
	    "What departed from the pre-registered design of the corpus: %lld "
	    "MUST, %lld SHOULD and %lld NOTE findings.\n",
	    (long long)rp_num(lv, "MUST"), (long long)rp_num(lv, "SHOULD"),
	    (long long)rp_num(lv, "NOTE"));
	json_object_foreach(json_object_get(c, "rules"), k, r)
		v[n++] = r;
	qsort(v, n, sizeof *v, cmp_level);
	if (n)
		fprintf(fp, "\n| rule | section | level | findings | e.g. |\n"
		    "|---|---|---|---|---|\n");
	for (i = 0; i < n; i++) {
		fputs("| ", fp);
		bst_md(fp, rp_str(v[i], "rule"));
		fputs(" | ", fp);
		bst_md(fp, rp_str(v[i], "section"));
		fprintf(fp, " | %s | %lld | ", rp_str(v[i], "level"),
		    (long long)rp_num(v[i], "findings"));
		json_array_foreach(json_object_get(v[i], "examples"), j, ex) {
			if (j)
				fputs(", ", fp);
			bst_md(fp, json_string_value(ex));
		}
		fputs(" |\n", fp);
	}
	free(v);
}

void
rp_methods(FILE *fp, size_t nboot, unsigned long seed)
{
	fprintf(fp, "\n## Methods\n\n"
	    "**Sign convention**: %s; Δ = B − A for scores, A − B for "
	    "hallucination counts and tokens; only (site, question, model) "
	    "triples scored under both conditions are paired.\n\n"
	    "**Tests** reproduce scipy.stats (wilcoxon with zero_method 'wilcox' "
	    "as scipy ≥ 1.15 computes it: exact for n ≤ 50, from the exact "
	    "conditional distribution over midranks when there are ties or "
	    "zeros, else the normal approximation with tie correction; ttest_rel; "
	    "shapiro; kruskal; mannwhitneyu with continuity correction; "
	    "spearmanr), statsmodels (mcnemar; multipletests 'fdr_bh', "
	    "significant at adjusted p ≤ α) and scikit-learn "
	    "(cohen_kappa_score), checked against Debian 12's scipy 1.10, "
	    "statsmodels 0.13 and scikit-learn 1.2; see bstats(1).  Degenerate "
	    "cases give what those references give (McNemar without discordant "
	    "pairs: p = 1; Mann-Whitney with every value tied: p = 1; kappa of a "
	    "constant rater: 0), and \"not computable\" with the reason where "
	    "they give no defined value.  Cliff's δ is the mean sign of the paired Δ (001 "
	    "§6.9) with a %zu-resample percentile bootstrap interval (GSL "
	    "mt19937, seed %lu).\n\n"
	    "**Choices where the spec is open**: (1) the secondary family "
	    "(§6.4 lists \"H6 + completeness + citation fidelity\", where H6 is "
	    "completeness) holds two tests, McNemar's exact test for H6 and the "
	    "Wilcoxon test on citation fidelity; the chi-square McNemar is "
	    "reported beside the exact one, outside the family.  (2) §6.10 has "
	    "no row for a significant H1 with a negligible δ (< 0.147); it is "
	    "read as the \"small effect\" row and marked.  (3) H4 and H5 are "
	    "one-tailed interactions (§6.1): Kruskal-Wallis on the accuracy Δ "
	    "per (site, question) within each group (§6.6; the mean over the "
	    "group's models) is the omnibus test in the BH family; only when it "
	    "is significant, Mann-Whitney follow-ups run one-tailed in the "
	    "stated direction (smaller tier > larger tier; "
	    "multi-section-synthesis and conceptual-relationship > single-fact; "
	    "two-tailed between the two complex levels), adjusted among "
	    "themselves, and the hypothesis is supported when one of them is "
	    "significant.  (4) 000 §8.2's \"weighted kappa\" is the linear "
	    "weighted kappa of factual accuracy and citation fidelity, and kappa "
	    "for completeness and the hallucination categories.  (5) The parity "
	    "sensitivity analysis drops the pairs bctx flags `pair_drift` and is "
	    "not BH-adjusted.\n", BST_SIGN, nboot, seed);
}
