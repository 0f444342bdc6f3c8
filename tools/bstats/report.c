/*
 * report.c - the Markdown report of bstats, written from the result
 * records: exclusions, primary and secondary tests in the §6.3 reporting
 * format with the distributions of §7.4 beside each effect size, BH tables
 * per family, clustering, subgroups, correlations, agreement and the §6.10
 * interpretation guide.  Not computable results print their reason.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static const char *
str(const json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : "";
}

static int
is(const json_t *r, const char *k, const char *v)
{
	return !strcmp(str(r, k), v);
}

static const char *
test_title(const json_t *r)
{
	const char *t = str(r, "test");

	if (!strcmp(t, "wilcoxon_signed_rank")) return "Wilcoxon signed-rank";
	if (!strcmp(t, "paired_t")) return "Paired t-test";
	if (!strcmp(t, "mcnemar_exact")) return "McNemar (exact binomial)";
	if (!strcmp(t, "kruskal_wallis")) return "Kruskal-Wallis";
	if (!strcmp(t, "mann_whitney_u")) return "Mann-Whitney U";
	if (!strcmp(t, "spearman")) return "Spearman";
	return t;
}

static const char *
measure_title(const char *m)
{
	if (!strcmp(m, "cliffs_delta")) return "Cliff's δ";
	if (!strcmp(m, "cohens_d")) return "Cohen's d";
	if (!strcmp(m, "odds_ratio")) return "OR";
	if (!strcmp(m, "rank_biserial")) return "rank-biserial r";
	return m;
}

/* "Wilcoxon signed-rank: W = 1,234, p = 0.003, Cliff's δ = 0.28 [0.15,
 * 0.41], n = 2,860 pairs" (001 §6.3), or the reason it is not computable. */
static void
result_line(FILE *fp, const json_t *r)
{
	char pb[32], pa[32];
	json_t *e = json_object_get(r, "effect");

	if (!json_is_true(json_object_get(r, "computable"))) {
		fprintf(fp, "%s: not computable (%s), n = %lld\n", test_title(r),
		    str(r, "reason"), (long long)num(r, "n"));
		return;
	}
	{
		double st = num(r, "statistic");

		/* rank sums and counts in full (the §6.3 "W = 1,234" format) */
		if (fabs(st) >= 1e4 && fabs(st) < 1e15 && st * 2 == floor(st * 2))
			fprintf(fp, "%s: %s = %.*f", test_title(r),
			    str(r, "statistic_name"), st == floor(st) ? 0 : 1, st);
		else
			fprintf(fp, "%s: %s = %.4g", test_title(r),
			    str(r, "statistic_name"), st);
	}
	if (json_is_number(json_object_get(r, "p")))
		fprintf(fp, ", p = %s", bstats_fmt_p(num(r, "p"), pb, sizeof pb));
	if (json_is_number(json_object_get(r, "p_adjusted")))
		fprintf(fp, " (BH-adjusted %s)",
		    bstats_fmt_p(num(r, "p_adjusted"), pa, sizeof pa));
	if (e) {
		if (json_is_number(json_object_get(e, "value"))) {
			fprintf(fp, ", %s = %.3f", measure_title(str(e, "measure")),
			    num(e, "value"));
			if (json_is_number(json_object_get(e, "ci_low")))
				fprintf(fp, " [%.3f, %.3f]", num(e, "ci_low"),
				    num(e, "ci_high"));
			if (json_object_get(e, "magnitude"))
				fprintf(fp, " (%s)", str(e, "magnitude"));
		} else {
			fprintf(fp, ", %s not computable (%s)",
			    measure_title(str(e, "measure")), str(e, "reason"));
		}
	}
	if (json_is_number(json_object_get(r, "n_nonzero")))
		fprintf(fp, ", n = %lld pairs (%lld non-zero differences)",
		    (long long)num(r, "n"), (long long)num(r, "n_nonzero"));
	else
		fprintf(fp, ", n = %lld", (long long)num(r, "n"));
	if (json_object_get(r, "alternative"))
		fprintf(fp, ", %s", str(r, "alternative"));
	if (json_object_get(r, "method"))
		fprintf(fp, ", %s", str(r, "method"));
	fputc('\n', fp);
}

static void
distribution(FILE *fp, const json_t *r)
{
	json_t *d = json_object_get(r, "distribution"), *tr;
	const char *c;
	const char *metric = str(r, "metric");
	int lower = json_is_true(json_object_get(d, "lower_is_better"));

	if (!d || num(json_object_get(d, "A"), "n") == 0)
		return;
	fprintf(fp, "\n| condition | median | IQR | mean |");
	{
		json_t *f = json_object_get(json_object_get(d, "A"), "frequency");
		json_t *fb = json_object_get(json_object_get(d, "B"), "frequency");
		const char *k;
		json_t *v;
		char keys[16][32];
		int nk = 0, i, j;

		/* union of the scale points seen in A and B, numeric order */
		json_object_foreach(f, k, v)
			if (nk < 16) snprintf(keys[nk++], 32, "%s", k);
		json_object_foreach(fb, k, v) {
			for (i = 0; i < nk && strcmp(keys[i], k); i++)
				;
			if (i == nk && nk < 16)
				snprintf(keys[nk++], 32, "%s", k);
		}
		for (i = 1; i < nk; i++)
			for (j = i; j > 0 && strtod(keys[j - 1], NULL) > strtod(keys[j], NULL); j--) {
				char t[32];

				memcpy(t, keys[j], 32);
				memcpy(keys[j], keys[j - 1], 32);
				memcpy(keys[j - 1], t, 32);
			}
		for (i = 0; i < nk; i++)
			fprintf(fp, " %s |", keys[i]);
		fprintf(fp, "\n|---|---|---|---|");
		for (i = 0; i < nk; i++)
			fprintf(fp, "---|");
		fputc('\n', fp);
		for (c = "AB"; *c; c++) {
			char cn[2] = { *c, 0 };
			json_t *s = json_object_get(d, cn);
			json_t *fr = json_object_get(s, "frequency");

			fprintf(fp, "| %s | %g | %g–%g | %.3f |", cn, num(s, "median"),
			    num(s, "q1"), num(s, "q3"), num(s, "mean"));
			for (i = 0; i < nk; i++)
				fprintf(fp, " %lld |", (long long)
				    json_integer_value(json_object_get(fr, keys[i])));
			fputc('\n', fp);
		}
	}
	fprintf(fp, "\nCondition B %s than Condition A in %.1f %% of pairs, %s in "
	    "%.1f %%, and equal in %.1f %%.", lower ? "was higher (worse)" :
	    "scored higher", num(d, "b_higher_pct"), lower ? "lower (better)" :
	    "lower", num(d, "b_lower_pct"), num(d, "equal_pct"));
	tr = json_object_get(d, "transitions_pct");
	if (tr && json_object_size(tr) > 0 && strcmp(metric, "hallucination_count")) {
		const char *k;
		json_t *v;

		fprintf(fp, " By scale point:");
		json_object_foreach(tr, k, v) {
			int a, b;

			if (sscanf(k, "A%d->B%d", &a, &b) == 2)
				fprintf(fp, " B scored %d where A scored %d in %.1f %% "
				    "of pairs;", b, a, json_number_value(v));
		}
	}
	fprintf(fp, "\n");
}

static void
family_table(FILE *fp, const json_t *res, const char *family,
    const char *title)
{
	size_t i;
	json_t *r;
	int any = 0;

	json_array_foreach(res, i, r) {
		char pb[32], pa[32];

		if (!is(r, "family", family))
			continue;
		if (!any)
			fprintf(fp, "\n**%s**\n\n| hypothesis | test | metric | subset "
			    "| n | p | BH-adjusted p |\n|---|---|---|---|---|---|---|\n",
			    title);
		any = 1;
		if (json_is_number(json_object_get(r, "p")))
			fprintf(fp, "| %s | %s | %s | %s | %lld | %s | %s |\n",
			    json_is_string(json_object_get(r, "hypothesis")) ?
			    str(r, "hypothesis") : "–", test_title(r), str(r, "metric"),
			    str(r, "subset"), (long long)num(r, "n"),
			    bstats_fmt_p(num(r, "p"), pb, sizeof pb),
			    bstats_fmt_p(num(r, "p_adjusted"), pa, sizeof pa));
		else
			fprintf(fp, "| %s | %s | %s | %s | %lld | not computable: %s | "
			    "– |\n", json_is_string(json_object_get(r, "hypothesis")) ?
			    str(r, "hypothesis") : "–", test_title(r), str(r, "metric"),
			    str(r, "subset"), (long long)num(r, "n"), str(r, "reason"));
	}
}

static const json_t *
find(const json_t *res, const char *group,
    const char *hyp, const char *test)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (is(r, "group", group) && (!hyp || is(r, "hypothesis", hyp)) &&
		    (!test || is(r, "test", test)))
			return r;
	return NULL;
}

static int
significant(const json_t *r)
{
	if (!r || !json_is_true(json_object_get(r, "computable")))
		return 0;
	if (json_is_number(json_object_get(r, "p_adjusted")))
		return num(r, "p_adjusted") < 0.05;
	return json_is_number(json_object_get(r, "p")) && num(r, "p") < 0.05;
}

/* 001 §6.10, quoted per hypothesis. */
static void
interpretation(FILE *fp, const json_t *res)
{
	const json_t *h1 = find(res, "primary", "H1", NULL);
	const json_t *h3 = find(res, "primary", "H3", NULL);
	const json_t *h4 = find(res, "tier", "H4", "kruskal_wallis");
	const json_t *h5 = find(res, "complexity", "H5", "kruskal_wallis");
	const json_t *sp = find(res, "correlation", NULL, "spearman");

	fprintf(fp, "\n## Interpretation (001 §6.10)\n\n"
	    "The pre-registered guide, applied to the BH-adjusted results.\n\n");
	if (h1 && json_is_true(json_object_get(h1, "computable"))) {
		double d = fabs(num(json_object_get(h1, "effect"), "value"));

		if (significant(h1) && d >= 0.33)
			fprintf(fp, "- **H1 significant, medium+ effect**: \"llms.txt "
			    "Markdown produces meaningfully better factual responses\" — "
			    "\"Strong practical case for llms.txt adoption\".\n");
		else if (significant(h1))
			fprintf(fp, "- **H1 significant, small effect** (Cliff's δ = %.3f%s):"
			    " \"Statistically detectable improvement but practically "
			    "marginal\" — \"llms.txt helps, but the benefit may not "
			    "justify the maintenance cost for all organizations\".\n",
			    num(json_object_get(h1, "effect"), "value"),
			    d < 0.147 ? ", negligible on the §6.3 scale" : "");
		else
			fprintf(fp, "- **H1 not significant**: \"No detectable accuracy "
			    "difference between conditions\" — \"Modern LLMs handle "
			    "HTML-derived content effectively; llms.txt does not measurably "
			    "improve factual accuracy\".\n");
	} else {
		fprintf(fp, "- H1 could not be computed (%s): the guide does not "
		    "apply.\n", h1 ? str(h1, "reason") : "no result");
	}
	if (significant(h3))
		fprintf(fp, "- **H3 significant**: \"llms.txt content is measurably "
		    "smaller in tokens\" — \"Confirms the theoretical basis (less "
		    "noise) but token savings alone don't justify adoption unless "
		    "quality metrics also improve\".\n");
	else
		fprintf(fp, "- H3 not significant: the token reduction the plan "
		    "expects was not detected; the guide has no row for this "
		    "outcome.\n");
	if (significant(h4))
		fprintf(fp, "- **H4 significant (interaction)**: \"Small models "
		    "benefit more from llms.txt than large models\" — \"Suggests "
		    "llms.txt is most valuable when deploying smaller, cheaper "
		    "models\" (check the direction in the tier table).\n");
	else
		fprintf(fp, "- H4 not significant: no evidence that the accuracy "
		    "effect differs by model tier.\n");
	if (significant(h5))
		fprintf(fp, "- **H5 significant (interaction)**: \"Complex questions "
		    "benefit more\" — \"Suggests llms.txt's value scales with task "
		    "difficulty\" (check the direction in the complexity table).\n");
	else
		fprintf(fp, "- H5 not significant: no evidence that the accuracy "
		    "effect differs by question complexity.\n");
	if (sp && significant(sp))
		fprintf(fp, "- **Δ_tokens correlates with Δ_accuracy** (ρ = %.3f): "
		    "\"Token reduction predicts quality gain\" — \"The mechanism is "
		    "noise removal; sites with more HTML bloat benefit most\"%s.\n",
		    num(sp, "statistic"), num(sp, "statistic") < 0 ? " (the "
		    "correlation is negative, the surprising case of §6.7: pruning "
		    "may remove useful context)" : "");
	else if (sp && json_is_true(json_object_get(sp, "computable")))
		fprintf(fp, "- **Δ_tokens does NOT correlate with Δ_accuracy**: "
		    "\"Token reduction does not predict quality gain\" — \"The "
		    "mechanism is content curation quality, not just size "
		    "reduction\".\n");
	else
		fprintf(fp, "- The token-quality correlation is not computable (%s).\n",
		    sp ? str(sp, "reason") : "no result");
}

void
bstats_report(const struct bst_study *s, FILE *fp)
{
	const json_t *res = s->results, *e = s->exclusions;
	size_t i;
	json_t *r;
	const char *k;
	json_t *v;

	fprintf(fp, "# ctxbench analysis report\n\n"
	    "Pre-registered analysis of spec 001 §6 (α = %g, BH q = %g, %g %% "
	    "intervals, %zu bootstrap resamples, seed %lu).\n",
	    s->opt.alpha, s->opt.alpha, 100 * s->opt.level, s->opt.nboot,
	    s->opt.seed);

	fprintf(fp, "\n## 1. Data and exclusions (001 §2.5)\n\n"
	    "- tuples attempted: %lld\n- tuples excluded: %lld\n"
	    "- scored pairs (site, question, model): %lld\n",
	    (long long)num(e, "tuples_attempted"),
	    (long long)num(e, "tuples_excluded"), (long long)num(e, "pairs"));
	if (json_object_size(json_object_get(e, "by_reason"))) {
		fprintf(fp, "\n| exclusion reason | tuples |\n|---|---|\n");
		json_object_foreach(json_object_get(e, "by_reason"), k, v)
			fprintf(fp, "| %s | %lld |\n", k, (long long)json_integer_value(v));
	}
	fprintf(fp, "\n| condition | attempted | excluded | rate |\n|---|---|---|---|\n");
	json_object_foreach(json_object_get(e, "by_condition"), k, v) {
		double at = num(v, "attempted"), ex = num(v, "excluded");

		fprintf(fp, "| %s | %.0f | %.0f | %.1f %% |\n", k, at, ex,
		    at > 0 ? 100 * ex / at : 0);
	}
	fprintf(fp, "\n| site | A excluded | B excluded | flagged (> 50 %%) |\n"
	    "|---|---|---|---|\n");
	json_object_foreach(json_object_get(e, "by_site"), k, v)
		fprintf(fp, "| %s | %.0f/%.0f | %.0f/%.0f | %s |\n", k,
		    num(v, "A_excluded"), num(v, "A_attempted"), num(v, "B_excluded"),
		    num(v, "B_attempted"),
		    json_is_true(json_object_get(v, "flagged")) ? "**yes: limited data**" : "no");

	fprintf(fp, "\n## 2. Primary hypotheses (001 §6.2, §6.3)\n");
	json_array_foreach(res, i, r) {
		if (!is(r, "group", "primary") && !is(r, "group", "secondary"))
			continue;
		if (is(r, "group", "secondary") && is(r, "hypothesis", "H6"))
			fprintf(fp, "\n## 3. Secondary metrics\n");
		fprintf(fp, "\n### %s: %s\n\n",
		    json_is_string(json_object_get(r, "hypothesis")) ?
		    str(r, "hypothesis") : "citation fidelity", str(r, "metric"));
		result_line(fp, r);
		if (json_object_get(r, "shapiro_wilk")) {
			json_t *sw = json_object_get(r, "shapiro_wilk");

			if (json_is_true(json_object_get(sw, "computable")))
				fprintf(fp, "\nShapiro-Wilk on the differences: W = %.4f, "
				    "p = %.4g.\n", num(sw, "W"), num(sw, "p"));
			else
				fprintf(fp, "\nShapiro-Wilk not computable (%s).\n",
				    str(sw, "reason"));
		}
		{
			json_t *notes = json_object_get(r, "notes"), *nv;
			size_t j;

			json_array_foreach(notes, j, nv)
				fprintf(fp, "\n_%s._\n", json_string_value(nv));
		}
		distribution(fp, r);
	}

	fprintf(fp, "\n## 4. Multiple comparisons (001 §6.4)\n");
	family_table(fp, res, "primary", "Primary hypotheses");
	family_table(fp, res, "tier", "Subgroup: by model tier");
	family_table(fp, res, "complexity", "Subgroup: by complexity");
	family_table(fp, res, "secondary", "Secondary metrics");
	family_table(fp, res, "tier_followup", "Follow-up: pairwise tiers");
	family_table(fp, res, "complexity_followup",
	    "Follow-up: pairwise complexity levels");

	fprintf(fp, "\n## 5. Clustering checks (001 §6.5)\n\n");
	json_array_foreach(res, i, r) {
		if (is(r, "group", "clustering_site")) {
			fprintf(fp, "- site level, %s: ", str(r, "metric"));
			result_line(fp, r);
		} else if (is(r, "group", "clustering_model") &&
		    !json_is_true(json_object_get(r, "computable"))) {
			fprintf(fp, "- model level, %s: not computable (%s)\n",
			    str(r, "metric"), str(r, "reason"));
		} else if (is(r, "group", "clustering_model")) {
			fprintf(fp, "- model level, %s: %lld of %lld models favour B, "
			    "%lld favour A, %lld show no difference\n", str(r, "metric"),
			    (long long)num(r, "models_favouring_b"), (long long)num(r, "n"),
			    (long long)num(r, "models_favouring_a"),
			    (long long)num(r, "models_no_difference"));
		}
	}

	fprintf(fp, "\n## 6. Subgroups (001 §6.6)\n\n");
	json_array_foreach(res, i, r) {
		if (!is(r, "group", "tier") && !is(r, "group", "complexity") &&
		    !is(r, "group", "sector"))
			continue;
		fprintf(fp, "- %s, %s: ", str(r, "subset"), str(r, "metric"));
		if (is(r, "group", "sector")) {
			json_t *ef = json_object_get(r, "effect");

			if (json_is_number(json_object_get(ef, "value")))
				fprintf(fp, "Cliff's δ = %.3f [%.3f, %.3f], n = %lld "
				    "(descriptive)\n", num(ef, "value"), num(ef, "ci_low"),
				    num(ef, "ci_high"), (long long)num(r, "n"));
			else
				fprintf(fp, "not computable (%s)\n", str(ef, "reason"));
		} else {
			result_line(fp, r);
		}
	}

	json_array_foreach(res, i, r) {
		json_t *st, *d;
		size_t j;

		if (!is(r, "test", "token_summary"))
			continue;
		d = json_object_get(r, "delta_pct_across_sites");
		fprintf(fp, "\n### Token efficiency per site (001 §2.6, 000 §4)\n\n"
		    "Counts: %s.  Δ = B − A; negative means B (llms.txt) uses fewer "
		    "tokens.", str(r, "metric"));
		if (num(d, "n") > 0)
			fprintf(fp, "  Across %lld sites the median Δ is %.1f %% "
			    "(IQR %.1f %% to %.1f %%).", (long long)num(d, "n"),
			    num(d, "median"), num(d, "q1"), num(d, "q3"));
		fprintf(fp, "\n\n| site | pairs | mean A | mean B | Δ | Δ %% |\n"
		    "|---|---|---|---|---|---|\n");
		json_array_foreach(json_object_get(r, "sites"), j, st) {
			fprintf(fp, "| %s | %lld | %.1f | %.1f | %.1f | ",
			    str(st, "site_id"), (long long)num(st, "n"),
			    num(st, "mean_a"), num(st, "mean_b"), num(st, "delta"));
			if (json_is_number(json_object_get(st, "delta_pct")))
				fprintf(fp, "%.1f %% |\n", num(st, "delta_pct"));
			else
				fprintf(fp, "not computable (A has no tokens) |\n");
		}
	}

	fprintf(fp, "\n## 7. Correlations (001 §6.7, §6.8)\n\n");
	json_array_foreach(res, i, r)
		if (is(r, "group", "correlation")) {
			fprintf(fp, "- %s (%s): ", str(r, "metric"), str(r, "subset"));
			result_line(fp, r);
		}

	fprintf(fp, "\n## 8. Inter-rater reliability (000 §8)\n\n");
	{
		int any = 0;

		json_array_foreach(res, i, r)
			if (is(r, "group", "agreement")) {
				any = 1;
				fprintf(fp, "- %s, %s, %s: ", str(r, "subset"),
				    str(r, "metric"), str(r, "test"));
				if (!json_is_true(json_object_get(r, "computable")))
					fprintf(fp, "not computable (%s), n = %lld\n",
					    str(r, "reason"), (long long)num(r, "n"));
				else if (json_is_number(json_object_get(r, "p")))
					result_line(fp, r);
				else
					fprintf(fp, "%s = %.3f, n = %lld\n",
					    str(r, "statistic_name"), num(r, "statistic"),
					    (long long)num(r, "n"));
			}
		if (!any)
			fprintf(fp, "No second ratings (records with primary: false) "
			    "were given: single-rater study, the limitation of 000 §8.3 "
			    "and 001 §7.4 L-SC-1 applies.\n");
	}
	interpretation(fp, res);
	fprintf(fp, "\n## Methods\n\n"
	    "Δ = B − A for scores and A − B for tokens (positive favours B); "
	    "only (site, question, model) triples scored under both conditions "
	    "are paired.  The tests reproduce scipy.stats (wilcoxon with "
	    "zero_method 'wilcox', exact for n ≤ 50 without zeros or ties, else "
	    "the normal approximation with tie correction; ttest_rel; shapiro; "
	    "kruskal; mannwhitneyu with continuity correction; spearmanr), "
	    "statsmodels (mcnemar, multipletests 'fdr_bh') and scikit-learn "
	    "(cohen_kappa_score); see bstats(1).  Cliff's δ is the mean sign of "
	    "the paired differences (001 §6.9) with a %zu-resample percentile "
	    "bootstrap interval (GSL mt19937, seed %lu).\n", s->opt.nboot,
	    s->opt.seed);
}
