/*
 * report-fmt.c - the primitives the sections of the Markdown report share:
 * typed reads of a result record (a missing field reads as 0 or ""), the
 * lookup of a record by group, hypothesis and test, Markdown escaping of
 * every string from the data, a median with its IQR, and the one-line
 * statement of a test's result in the §6.3 format.  The lowest floor of
 * the report: it calls only obs.c (the p-value format).
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
		fprintf(fp, ", p = %s", bst_fmt_p(rp_num(r, "p"), pb, sizeof pb));
	if (json_is_number(json_object_get(r, "p_adjusted")))
		fprintf(fp, " (BH-adjusted %s)",
		    bst_fmt_p(rp_num(r, "p_adjusted"), pa, sizeof pa));
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

