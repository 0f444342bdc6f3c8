/*
 * report-tests.c - the first sections of the Markdown report: data and
 * exclusions (001 §2.5), the primary hypotheses and the secondary metrics
 * in the §6.3 reporting format with the distributions of §7.4 beside each
 * effect size, and the Benjamini-Hochberg tables of every family (§6.4).
 * Calls report-fmt.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

/* -------------------------------------------------------- distributions */

/* The union of the scale points of A and B, in numeric order. */
static int
scale_points(const json_t *d, char keys[16][32])
{
	const char *c, *k;
	json_t *v;
	int nk = 0, i, j;

	for (c = "AB"; *c; c++) {
		char cn[2] = { *c, 0 };

		json_object_foreach(json_object_get(json_object_get(d, cn),
		    "frequency"), k, v) {
			for (i = 0; i < nk && strcmp(keys[i], k); i++)
				;
			if (i == nk && nk < 16)
				snprintf(keys[nk++], 32, "%s", k);
		}
	}
	for (i = 1; i < nk; i++)
		for (j = i; j > 0 && strtod(keys[j - 1], NULL) >
		    strtod(keys[j], NULL); j--) {
			char t[32];

			memcpy(t, keys[j], 32);
			memcpy(keys[j], keys[j - 1], 32);
			memcpy(keys[j - 1], t, 32);
		}
	return nk;
}

static void
distribution_table(FILE *fp, const json_t *d)
{
	char keys[16][32];
	int nk = scale_points(d, keys), i;
	const char *c;

	fprintf(fp, "\n| condition | median | IQR | mean |");
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

		fprintf(fp, "| %s | %g | %g–%g | %.3f |", cn, rp_num(s, "median"),
		    rp_num(s, "q1"), rp_num(s, "q3"), rp_num(s, "mean"));
		for (i = 0; i < nk; i++)
			fprintf(fp, " %lld |", (long long)
			    json_integer_value(json_object_get(fr, keys[i])));
		fputc('\n', fp);
	}
}

static void
distribution(FILE *fp, const json_t *r)
{
	json_t *d = json_object_get(r, "distribution"), *tr, *v;
	const char *k, *sep = "";

	if (!d || rp_num(json_object_get(d, "A"), "n") == 0)
		return;
	distribution_table(fp, d);
	fprintf(fp, "\nCondition B was better in %.1f %% of pairs, Condition A "
	    "in %.1f %%, and they were equal in %.1f %%%s.",
	    rp_num(d, "b_better_pct"), rp_num(d, "a_better_pct"),
	    rp_num(d, "equal_pct"), rp_true(d, "lower_is_better") ?
	    " (lower is better here)" : "");
	tr = json_object_get(d, "transitions_pct");
	if (tr && json_object_size(tr) > 0 &&
	    !rp_is(r, "metric", "hallucination_count")) {
		fprintf(fp, "  By scale point:");
		json_object_foreach(tr, k, v) {
			int a, b;

			if (sscanf(k, "A%d->B%d", &a, &b) == 2) {
				fprintf(fp, "%s B scored %d where A scored %d in "
				    "%.1f %% of pairs", sep, b, a, json_number_value(v));
				sep = ";";
			}
		}
		fputc('.', fp);
	}
	fputc('\n', fp);
}

/* ------------------------------------------------------------ sections */

/* Models with tuples outside a pair: why, per model and condition. */
static void
unpaired_models(FILE *fp, const json_t *e)
{
	const char *k;
	json_t *m;

	json_object_foreach(json_object_get(e, "by_model"), k, m) {
		double a = rp_num(m, "A_only"), b = rp_num(m, "B_only");
		double x = rp_num(m, "partner_excluded");

		if (a + b + x == 0)
			continue;
		fputs("- model ", fp);
		bst_md(fp, k);
		fprintf(fp, ": %.0f pair%s", rp_num(m, "pairs"),
		    rp_num(m, "pairs") == 1 ? "" : "s");
		if (a > 0)
			fprintf(fp, "; %.0f tuple%s under A without a B response",
			    a, a == 1 ? "" : "s");
		if (b > 0)
			fprintf(fp, "; %.0f tuple%s under B without an A response",
			    b, b == 1 ? "" : "s");
		if (x > 0)
			fprintf(fp, "; %.0f tuple%s whose other condition was "
			    "excluded", x, x == 1 ? "" : "s");
		fputs(rp_num(m, "pairs") == 0 ? " — **no pair: this model is "
		    "absent from every paired analysis**\n" : "\n", fp);
	}
}

/* Ratings by rater_kind and what was assessed (000 §10). */
static void
ratings(FILE *fp, const json_t *e)
{
	const json_t *r = json_object_get(e, "ratings");
	const char *kind, *sep = "";
	json_t *v;

	fprintf(fp, "- primary ratings by rater_kind:");
	json_object_foreach(json_object_get(r, "primary"), kind, v) {
		fprintf(fp, "%s %s %lld", sep, kind, (long long)
		    json_integer_value(v));
		sep = ",";
	}
	fprintf(fp, "%s\n- other ratings (second rater, self-check, judge):",
	    *sep ? "" : " none");
	sep = "";
	json_object_foreach(json_object_get(r, "other"), kind, v) {
		fprintf(fp, "%s %s %lld", sep, kind, (long long)
		    json_integer_value(v));
		sep = ",";
	}
	fprintf(fp, "%s\n- hallucinations assessed on %lld of %lld pairs%s\n",
	    *sep ? "" : " none", (long long)rp_num(r,
	    "hallucinations_assessed_pairs"), (long long)rp_num(e, "pairs"),
	    rp_num(r, "hallucinations_assessed_pairs") < rp_num(e, "pairs") ?
	    " (bscore-merge autoscore does not assess them: its counts of 0 "
	    "are not observations)" : "");
}

/* Where every tuple went: the sum that section 1 adds up. */
static void
tuple_sum(FILE *fp, const json_t *e)
{
	const json_t *g = json_object_get(e, "pairs_missing");
	static const char *const f[][2] = { { "tier", "H4 and the per-tier "
	    "tests" }, { "complexity", "H5 and the per-complexity tests" },
	    { "sector", "the per-sector effect sizes" } };
	size_t i;

	fprintf(fp, "- where the %lld tuples went: %lld in the %lld pairs, "
	    "%lld excluded, %lld whose other condition was excluded, %lld "
	    "unpaired (the other condition is absent from the input)\n",
	    (long long)rp_num(e, "tuples_attempted"),
	    2 * (long long)rp_num(e, "pairs"), (long long)rp_num(e, "pairs"),
	    (long long)rp_num(e, "tuples_excluded"),
	    (long long)rp_num(e, "partner_excluded"),
	    (long long)rp_num(e, "unpaired"));
	unpaired_models(fp, e);
	for (i = 0; i < 3; i++)
		if (rp_num(g, f[i][0]) > 0)
			fprintf(fp, "- pairs without a `%s`: %lld, left out of %s\n",
			    f[i][0], (long long)rp_num(g, f[i][0]), f[i][1]);
	ratings(fp, e);
}

void
rp_exclusions(FILE *fp, const json_t *e)
{
	const char *k;
	json_t *v;

	fprintf(fp, "\n## 1. Data and exclusions (001 §2.5)\n\n"
	    "- tuples attempted: %lld\n- tuples excluded: %lld\n"
	    "- scored pairs (site, question, model): %lld\n",
	    (long long)rp_num(e, "tuples_attempted"),
	    (long long)rp_num(e, "tuples_excluded"), (long long)rp_num(e, "pairs"));
	tuple_sum(fp, e);
	if (json_object_size(json_object_get(e, "by_reason"))) {
		fprintf(fp, "\n| exclusion reason | tuples |\n|---|---|\n");
		json_object_foreach(json_object_get(e, "by_reason"), k, v) {
			fputs("| ", fp);
			bst_md(fp, k);
			fprintf(fp, " | %lld |\n", (long long)json_integer_value(v));
		}
	}
	fprintf(fp, "\n| condition | attempted | excluded | rate |\n|---|---|---|---|\n");
	json_object_foreach(json_object_get(e, "by_condition"), k, v) {
		double at = rp_num(v, "attempted"), ex = rp_num(v, "excluded");

		fprintf(fp, "| %s | %.0f | %.0f | %.1f %% |\n", k, at, ex,
		    at > 0 ? 100 * ex / at : 0);
	}
	fprintf(fp, "\n| site | A excluded | B excluded | flagged (> 50 %%) |\n"
	    "|---|---|---|---|\n");
	json_object_foreach(json_object_get(e, "by_site"), k, v) {
		fputs("| ", fp);
		bst_md(fp, k);
		fprintf(fp, " | %.0f/%.0f | %.0f/%.0f | %s |\n",
		    rp_num(v, "A_excluded"), rp_num(v, "A_attempted"),
		    rp_num(v, "B_excluded"), rp_num(v, "B_attempted"),
		    rp_true(v, "flagged") ? "**yes: limited data**" : "no");
	}
}

static void
notes(FILE *fp, const json_t *r)
{
	json_t *nv;
	size_t j;

	json_array_foreach(json_object_get(r, "notes"), j, nv)
		fprintf(fp, "\n_%s._\n", json_string_value(nv));
}

/* What the reading (reading.c) says before any number is read. */
static void
reading_note(FILE *fp, const json_t *r)
{
	const json_t *rd = json_object_get(r, "reading");
	char pb[32];

	if (json_is_false(json_object_get(rd, "assessed")))
		fprintf(fp, "\n_Not assessed: no pair's hallucinations were "
		    "assessed (bscore-merge autoscore, 000 §10); the counts are "
		    "not observations._\n");
	else if (rp_true(rd, "all_ties"))
		fprintf(fp, "\n_No difference on any pair: all %lld pairs scored "
		    "the same under A and B._\n", (long long)rp_num(r, "n"));
	else if (rp_true(r, "computable") && rp_true(rd, "too_few_pairs"))
		fprintf(fp, "\n_Too few pairs to conclude: the smallest p this "
		    "test can reach on these pairs is %s._\n", bst_fmt_p(rp_num(rd,
		    "min_attainable_p"), pb, sizeof pb));
}

static void
test_section(FILE *fp, const json_t *r)
{
	json_t *sw = json_object_get(r, "shapiro_wilk");

	if (rp_is(r, "test", "mcnemar_chi2"))
		fprintf(fp, "\nBeside it, ");
	else
		fprintf(fp, "\n### %s: %s\n\n",
		    json_is_string(json_object_get(r, "hypothesis")) ?
		    rp_str(r, "hypothesis") : "Citation fidelity", rp_str(r, "metric"));
	rp_result_line(fp, r);
	if (sw && rp_true(sw, "computable"))
		fprintf(fp, "\nShapiro-Wilk on the differences: W = %.4f, "
		    "p = %.4g.\n", rp_num(sw, "W"), rp_num(sw, "p"));
	else if (sw)
		fprintf(fp, "\nShapiro-Wilk not computable (%s).\n",
		    rp_str(sw, "reason"));
	reading_note(fp, r);
	notes(fp, r);
	distribution(fp, r);
}

static void
family_row(FILE *fp, const json_t *r)
{
	char pb[32], pa[32];

	fprintf(fp, "| %s | %s | %s | ", json_is_string(json_object_get(r,
	    "hypothesis")) ? rp_str(r, "hypothesis") : "–", rp_test_title(r),
	    rp_str(r, "metric"));
	bst_md(fp, rp_str(r, "subset"));
	fprintf(fp, " | %s | %lld | ", rp_str(r, "alternative")[0] ?
	    rp_str(r, "alternative") : "–", (long long)rp_num(r, "n"));
	if (json_is_number(json_object_get(r, "p_adjusted")))
		fprintf(fp, "%s | %s | %s |\n",
		    bst_fmt_p(rp_num(r, "p"), pb, sizeof pb),
		    bst_fmt_p(rp_num(r, "p_adjusted"), pa, sizeof pa),
		    rp_true(r, "significant") ? "**yes**" : "no");
	else if (json_is_number(json_object_get(r, "p")))
		/* outside the family: no BH verdict, neither yes nor no */
		fprintf(fp, "%s | – (not in the family) | – |\n",
		    bst_fmt_p(rp_num(r, "p"), pb, sizeof pb));
	else
		fprintf(fp, "not computable: %s | – (left out of the "
		    "adjustment) | – |\n", rp_str(r, "reason"));
}

static void
family_table(FILE *fp, const json_t *res, const char *family,
    const char *title, double alpha)
{
	size_t i, in = 0, out = 0;
	json_t *r;
	int any = 0;

	json_array_foreach(res, i, r) {
		/* the chi-square McNemar of H6 beside its family; an
		 * exploratory comparison's beside its own (report-ablation.c) */
		if (!rp_is(r, "family", family) && !(!strcmp(family, "secondary") &&
		    rp_is(r, "test", "mcnemar_chi2") &&
		    !rp_is(r, "group", "exploratory")))
			continue;
		if (!any)
			fprintf(fp, "\n**%s**\n\n| hypothesis | test | metric | subset "
			    "| alternative | n | p | BH-adjusted p | significant "
			    "(adj. p ≤ %g) |\n|---|---|---|---|---|---|---|---|---|\n",
			    title, alpha);
		any = 1;
		family_row(fp, r);
		if (rp_is(r, "family", family)) {
			in += json_is_number(json_object_get(r, "p"));
			out += !json_is_number(json_object_get(r, "p"));
		}
	}
	if (out)
		fprintf(fp, "\n%zu test%s of this family %s not computable and "
		    "left out of the adjustment: BH over %zu test%s.\n", out,
		    out == 1 ? "" : "s", out == 1 ? "is" : "are", in,
		    in == 1 ? "" : "s");
}

void
rp_hypotheses(FILE *fp, const json_t *res)
{
	size_t i;
	json_t *r;

	fprintf(fp, "\n## 2. Primary hypotheses (001 §6.2, §6.3)\n");
	json_array_foreach(res, i, r) {
		if (!rp_is(r, "group", "primary") && !rp_is(r, "group", "secondary"))
			continue;
		if (rp_is(r, "group", "secondary") && rp_is(r, "test",
		    "mcnemar_exact"))
			fprintf(fp, "\n## 3. Secondary metrics\n");
		test_section(fp, r);
	}
}

void
rp_families(FILE *fp, const json_t *res, double a)
{
	fprintf(fp, "\n## 4. Multiple comparisons (001 §6.4)\n\n"
	    "Benjamini-Hochberg within each family; a test is significant when "
	    "its adjusted p is at most %g (statsmodels' rule).\n", a);
	family_table(fp, res, "primary", "Primary hypotheses", a);
	family_table(fp, res, "tier", "Subgroup: by model tier", a);
	family_table(fp, res, "complexity", "Subgroup: by complexity", a);
	family_table(fp, res, "secondary", "Secondary metrics", a);
	family_table(fp, res, "tier_followup", "Follow-up: pairwise tiers", a);
	family_table(fp, res, "complexity_followup",
	    "Follow-up: pairwise complexity levels", a);
}
