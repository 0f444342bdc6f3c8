/*
 * report.c - the Markdown report of bstats, written from the result
 * records: the sign convention, exclusions, the primary and secondary tests
 * in the §6.3 reporting format with the distributions of §7.4 beside each
 * effect size, and the BH tables per family; report-sec.c writes the rest.
 * Not computable results print their reason; data strings are escaped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

double
rp_num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

const char *
rp_str(const json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : "";
}

int
rp_is(const json_t *r, const char *k, const char *v)
{
	return !strcmp(rp_str(r, k), v);
}

int
rp_true(const json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* Text from the data as Markdown text: no markup, no HTML, one line. */
void
bst_md(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '\n': case '\r': case '\t': fputc(' ', fp); break;
		case '\\': case '`': case '*': case '_': case '[': case ']':
		case '|': case '#': case '!': case '~':
			fputc('\\', fp);
			fputc(*s, fp);
			break;
		default:
			fputc(*s, fp);
		}
	}
}

const json_t *
rp_find(const json_t *res, const char *group, const char *hyp,
    const char *test)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (rp_is(r, "group", group) && (!hyp || rp_is(r, "hypothesis", hyp)) &&
		    (!test || rp_is(r, "test", test)))
			return r;
	return NULL;
}

const char *
rp_test_title(const json_t *r)
{
	static const char *const names[][2] = {
		{ "wilcoxon_signed_rank", "Wilcoxon signed-rank" },
		{ "paired_t", "Paired t-test" },
		{ "mcnemar_exact", "McNemar (exact binomial)" },
		{ "mcnemar_chi2", "McNemar (chi-square, continuity corrected)" },
		{ "kruskal_wallis", "Kruskal-Wallis" },
		{ "mann_whitney_u", "Mann-Whitney U" },
		{ "spearman", "Spearman" },
	};
	const char *t = rp_str(r, "test");
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(t, names[i][0]))
			return names[i][1];
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

void
rp_median_iqr(FILE *fp, const json_t *sm, int prec, const char *unit)
{
	if (rp_num(sm, "n") == 0) {
		fputs("–", fp);
		return;
	}
	fprintf(fp, "%.*f%s (IQR %.*f%s to %.*f%s)", prec, rp_num(sm, "median"),
	    unit, prec, rp_num(sm, "q1"), unit, prec, rp_num(sm, "q3"), unit);
}

static void
statistic(FILE *fp, const json_t *r)
{
	double st = rp_num(r, "statistic");

	/* rank sums and counts in full (the §6.3 "W = 1,234" format) */
	if (fabs(st) >= 1e4 && fabs(st) < 1e15 && st * 2 == floor(st * 2))
		fprintf(fp, "%s: %s = %.*f", rp_test_title(r),
		    rp_str(r, "statistic_name"), st == floor(st) ? 0 : 1, st);
	else
		fprintf(fp, "%s: %s = %.6g", rp_test_title(r),
		    rp_str(r, "statistic_name"), st);
}

static void
effect(FILE *fp, const json_t *e)
{
	if (json_is_number(json_object_get(e, "value"))) {
		fprintf(fp, ", %s = %.3f", measure_title(rp_str(e, "measure")),
		    rp_num(e, "value"));
		if (json_is_number(json_object_get(e, "ci_low")))
			fprintf(fp, " [%.3f, %.3f]", rp_num(e, "ci_low"),
			    rp_num(e, "ci_high"));
		if (json_object_get(e, "magnitude"))
			fprintf(fp, " (%s)", rp_str(e, "magnitude"));
	} else {
		fprintf(fp, ", %s not computable (%s)",
		    measure_title(rp_str(e, "measure")), rp_str(e, "reason"));
	}
}

/* "Wilcoxon signed-rank: W = 1,234, p = 0.003, Cliff's δ = 0.28 [0.15,
 * 0.41], n = 2,860 pairs" (001 §6.3), or the reason it is not computable. */
void
rp_result_line(FILE *fp, const json_t *r)
{
	char pb[32], pa[32];
	json_t *e = json_object_get(r, "effect");

	if (!rp_true(r, "computable")) {
		fprintf(fp, "%s: not computable (%s), n = %lld\n", rp_test_title(r),
		    rp_str(r, "reason"), (long long)rp_num(r, "n"));
		return;
	}
	statistic(fp, r);
	if (json_is_number(json_object_get(r, "p")))
		fprintf(fp, ", p = %s", bstats_fmt_p(rp_num(r, "p"), pb, sizeof pb));
	if (json_is_number(json_object_get(r, "p_adjusted")))
		fprintf(fp, " (BH-adjusted %s)",
		    bstats_fmt_p(rp_num(r, "p_adjusted"), pa, sizeof pa));
	if (e)
		effect(fp, e);
	if (json_is_number(json_object_get(r, "n_nonzero")))
		fprintf(fp, ", n = %lld pair%s (%lld non-zero difference%s)",
		    (long long)rp_num(r, "n"), rp_num(r, "n") == 1 ? "" : "s",
		    (long long)rp_num(r, "n_nonzero"), rp_num(r, "n_nonzero") == 1 ?
		    "" : "s");
	else
		fprintf(fp, ", n = %lld", (long long)rp_num(r, "n"));
	if (json_object_get(r, "alternative"))
		fprintf(fp, ", %s", rp_str(r, "alternative"));
	if (json_object_get(r, "method"))
		fprintf(fp, ", %s", rp_str(r, "method"));
	if (json_object_get(r, "delta"))
		fprintf(fp, "; %s (positive: B better)", rp_str(r, "delta"));
	fputc('\n', fp);
}

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

static void
exclusion_section(FILE *fp, const json_t *e)
{
	const char *k;
	json_t *v;

	fprintf(fp, "\n## 1. Data and exclusions (001 §2.5)\n\n"
	    "- tuples attempted: %lld\n- tuples excluded: %lld\n"
	    "- scored pairs (site, question, model): %lld\n",
	    (long long)rp_num(e, "tuples_attempted"),
	    (long long)rp_num(e, "tuples_excluded"), (long long)rp_num(e, "pairs"));
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
	if (json_is_number(json_object_get(r, "p")))
		fprintf(fp, "%s | %s | %s |\n",
		    bstats_fmt_p(rp_num(r, "p"), pb, sizeof pb),
		    json_is_number(json_object_get(r, "p_adjusted")) ?
		    bstats_fmt_p(rp_num(r, "p_adjusted"), pa, sizeof pa) :
		    "– (not in the family)", rp_true(r, "significant") ?
		    "**yes**" : "no");
	else
		fprintf(fp, "not computable: %s | – | – |\n", rp_str(r, "reason"));
}

static void
family_table(FILE *fp, const json_t *res, const char *family,
    const char *title, double alpha)
{
	size_t i;
	json_t *r;
	int any = 0;

	json_array_foreach(res, i, r) {
		if (!rp_is(r, "family", family) && !(!strcmp(family, "secondary") &&
		    rp_is(r, "test", "mcnemar_chi2")))
			continue;
		if (!any)
			fprintf(fp, "\n**%s**\n\n| hypothesis | test | metric | subset "
			    "| alternative | n | p | BH-adjusted p | significant "
			    "(adj. p ≤ %g) |\n|---|---|---|---|---|---|---|---|---|\n",
			    title, alpha);
		any = 1;
		family_row(fp, r);
	}
}

void
bstats_report(const struct bst_study *s, FILE *fp)
{
	const json_t *res = s->results;
	size_t i;
	json_t *r;
	double a = s->opt.alpha;

	fprintf(fp, "# ctxbench analysis report\n\n"
	    "Pre-registered analysis of spec 001 §6 (α = %g, BH q = %g, %g %% "
	    "intervals, %zu bootstrap resamples, seed %lu).\n\n"
	    "**Sign convention** (every Δ, effect size, table and figure): %s.  "
	    "Δ = B − A for factual accuracy, completeness and citation fidelity; "
	    "Δ = A − B for hallucination counts and tokens.\n",
	    a, a, 100 * s->opt.level, s->opt.nboot, s->opt.seed, BST_SIGN);
	exclusion_section(fp, s->exclusions);
	if (s->conformance)
		rp_conformance(fp, s->conformance);
	fprintf(fp, "\n## 2. Primary hypotheses (001 §6.2, §6.3)\n");
	json_array_foreach(res, i, r) {
		if (!rp_is(r, "group", "primary") && !rp_is(r, "group", "secondary"))
			continue;
		if (rp_is(r, "group", "secondary") && rp_is(r, "test",
		    "mcnemar_exact"))
			fprintf(fp, "\n## 3. Secondary metrics\n");
		test_section(fp, r);
	}
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
	rp_clustering(fp, res);
	rp_subgroups(fp, res);
	rp_tokens(fp, res);
	rp_parity(fp, res);
	rp_correlations(fp, res);
	rp_agreement(fp, res);
	rp_interpretation(fp, res, a);
	rp_methods(fp, s->opt.nboot, s->opt.seed);
}
