/*
 * report-ablation.c - the report's exploratory section (issue 30, the
 * follow-up studies of 001 §7): for each comparison of condition variants
 * X:Y, what it isolates, its BH family, and per metric a sentence true to
 * the numbers: which condition did better (Cliff's δ, or the odds ratio
 * of completeness, with its interval), whether the interval excludes the
 * null value, the BH-adjusted p, and the share of the primary A→B
 * difference in means the contrast accounts for.  Reads the "comparison"
 * and "exploratory" result records of compare.c and the primary ones;
 * calls report-fmt.c only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

/* Each metric: its name in the records, and what "better" means. */
static const struct {
	const char *metric, *title, *better;
} METRIC[] = {
	{ "factual_accuracy", "Factual accuracy", "scored higher on factual "
	    "accuracy" },
	{ "hallucination_count", "Hallucinations", "had fewer hallucinations" },
	{ "input_token_count", "Input tokens", "used fewer input tokens" },
	{ "completeness", "Completeness", "was complete more often" },
	{ "citation_fidelity", "Citation fidelity", "scored higher on citation "
	    "fidelity" },
};
#define NMETRIC (sizeof METRIC / sizeof METRIC[0])

/* The orientation of a contrast: which side is the variant (v) of the
 * other (w), and whether the record's Δ is w − v (flip). */
struct contrast {
	const char *x, *y, *v, *w;
	int related, flip, of_b;
};

/* The test record of metric m of a group (NULL comparison: the primary
 * or secondary analysis), the chi-square McNemar left aside. */
static const json_t *
find_test(const json_t *res, const char *cmp, const char *m)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r) {
		if (!rp_is(r, "metric", m) || rp_is(r, "test", "mcnemar_chi2"))
			continue;
		if (cmp && rp_is(r, "group", "exploratory") &&
		    rp_is(r, "comparison", cmp))
			return r;
		if (!cmp && (rp_is(r, "group", "primary") ||
		    rp_is(r, "group", "secondary")))
			return r;
	}
	return NULL;
}

/* The mean of the oriented Δ (positive: B, or X, better) from a test
 * record's distribution; 0 with *ok 0 when it has no pairs. */
static double
mean_delta(const json_t *r, int *ok)
{
	const json_t *d = json_object_get(r, "distribution");
	const json_t *a = json_object_get(d, "A"), *b = json_object_get(d, "B");

	*ok = r && rp_num(a, "n") > 0;
	if (!*ok)
		return 0;
	if (rp_true(d, "lower_is_better"))
		return rp_num(a, "mean") - rp_num(b, "mean");
	return rp_num(b, "mean") - rp_num(a, "mean");
}

/* ------------------------------------------------------------ the words */

/* A difference in means: three significant digits, whole numbers from
 * 1000 (token counts), never "-0". */
static void
num(FILE *fp, double v)
{
	v += 0.0;	/* -0 + 0 is +0 */
	if (fabs(v) >= 1000)
		fprintf(fp, "%.0f", v);
	else
		fprintf(fp, "%.3g", v == 0 ? 0 : v);
}

/* What the contrast isolates, in words (issue 30's four kinds). */
static void
isolates(FILE *fp, const struct contrast *c)
{
	if (!c->related) {
		fputs("two conditions neither of which varies the other: the "
		    "contrast mixes every way they differ and isolates no single "
		    "factor", fp);
	} else if (!strcmp(c->v, "B-plain")) {
		fputs("Condition B's documents with and without the `<project>`/"
		    "`<section>`/`<doc>` wrapping, the same text otherwise: the "
		    "structure the XML tags add (001 §7 L-IV-3)", fp);
	} else if (!strcmp(c->v, "A-markdown")) {
		fputs("Condition A's extraction with its structure kept as Markdown "
		    "(headings, lists, fences, tables) against the plain text: "
		    "format against content, how much is the form of the text "
		    "rather than what it says", fp);
	} else if (!strcmp(c->v, "A-whole")) {
		fputs("the page's whole visible text against the readability "
		    "extraction: what the extractor contributes (001 §7 L-IV-2, "
		    "Condition A as an upper bound on extraction quality)", fp);
	} else {
		fputs("the same content as ", fp);
		bst_md(fp, c->w);
		fputs(" under a second prompt template: how much the prompt "
		    "favours one format (001 §7 L-IV-4)", fp);
	}
}

/* Whether a test record's effect interval excludes the null value (1 for
 * an odds ratio, zero otherwise); 0 without an interval. */
static int
interval_excludes_null(const json_t *r)
{
	const json_t *e = json_object_get(r, "effect");
	double null = rp_is(e, "measure", "odds_ratio") ? 1 : 0;

	if (!json_is_number(json_object_get(e, "ci_low")) ||
	    !json_is_number(json_object_get(e, "ci_high")))
		return 0;
	return rp_num(e, "ci_low") > null || rp_num(e, "ci_high") < null;
}

/* "X scored higher ... than Y in more pairs than the reverse (Cliff's δ =
 * v [lo, hi]); the interval excludes zero". */
static void
direction(FILE *fp, const struct contrast *c, const json_t *r, size_t k)
{
	const json_t *e = json_object_get(r, "effect");
	int odds = rp_is(e, "measure", "odds_ratio");
	double v = rp_num(e, "value"), lo = rp_num(e, "ci_low"),
	    hi = rp_num(e, "ci_high"), null = odds ? 1 : 0;
	const char *name = odds ? "odds ratio" : rp_is(e, "measure",
	    "cohens_d") ? "Cohen's d" : "Cliff's δ";

	if (!json_is_number(json_object_get(e, "value"))) {
		fputs("no effect size (", fp);
		bst_md(fp, rp_str(e, "reason"));
		fputs(")", fp);
		return;
	}
	if (v == null) {
		fputs(rp_is(e, "measure", "cohens_d") ? "neither condition did "
		    "better on average" : "neither condition did better in more "
		    "pairs", fp);
	} else {
		bst_md(fp, v > null ? c->x : c->y);
		fprintf(fp, " %s than ", METRIC[k].better);
		bst_md(fp, v > null ? c->y : c->x);
		fputs(odds ? " in more discordant pairs than the reverse" :
		    rp_is(e, "measure", "cohens_d") ? " on average" :
		    " in more pairs than the reverse", fp);
	}
	/* a value that three decimals would print as the null one */
	fprintf(fp, v != null && fabs(v - null) < 0.0005 ? " (%s = %.1e" :
	    " (%s = %.3f", name, v);
	if (!json_is_number(json_object_get(e, "ci_low"))) {
		fputs(", no interval)", fp);
		return;
	}
	fprintf(fp, " [%.3f, %.3f]); the interval %s", lo, hi,
	    interval_excludes_null(r) ? (odds ? "excludes 1" : "excludes zero") :
	    (odds ? "includes 1, so the direction is not established" :
	    "includes zero, so the direction is not established"));
}

/* The share of the primary A→B difference in means. */
static void
share(FILE *fp, const struct contrast *c, const json_t *r, const json_t *pr)
{
	int ok, pok, lower;
	double d = mean_delta(r, &ok), p = mean_delta(pr, &pok), cv, sh;
	const char *first, *second;

	if (!c->related || !ok)
		return;
	cv = c->flip ? -d : d;		/* v better by cv (oriented) */
	first = c->of_b ? c->w : c->v;	/* o = first better than second by */
	second = c->of_b ? c->v : c->w;
	lower = rp_true(json_object_get(r, "distribution"), "lower_is_better");
	fputs("  In means, ", fp);
	bst_md(fp, lower ? second : first);	/* the Δ as bstats forms it */
	fputs(" − ", fp);
	bst_md(fp, lower ? first : second);
	fputs(" = ", fp);
	num(fp, c->of_b ? -cv : cv);
	if (!pok || !pr || p == 0 || !isfinite(p)) {
		fputs("; the primary A→B difference in means is zero or not "
		    "measured, so no share of it is given.", fp);
		return;
	}
	sh = (c->of_b ? -cv : cv) / p;
	fputs(lower ? " against A − B = " : " against B − A = ", fp);
	num(fp, p);
	/* A share of a difference the primary analysis did not find is a
	 * share of noise: with a small primary difference it reads as
	 * hundreds of per cent of nothing. */
	if (!rp_true(pr, "significant")) {
		fputs("; the primary A→B difference is not significant (", fp);
		if (json_is_number(json_object_get(pr, "p_adjusted"))) {
			fputs("BH-adjusted ", fp);
			rp_p(fp, rp_num(pr, "p_adjusted"));
		} else {
			fputs("no test", fp);
		}
		fputs("), so no share of it is given.", fp);
		return;
	}
	fputs(": ", fp);
	if (sh > 0)
		fprintf(fp, "this accounts for %.0f %% of the primary A→B "
		    "difference%s.", 100 * sh, 100 * sh >= 100.5 ?
		    " (more than all of it)" : "");
	else if (sh < 0)
		fprintf(fp, "this runs against the primary A→B difference, %.0f %% "
		    "of its size in the other direction.", -100 * sh);
	else
		fputs("this accounts for none of the primary A→B difference.", fp);
}

/* One metric's bullet. */
static void
metric_line(FILE *fp, const struct contrast *c, const json_t *res,
    const char *name, size_t k, double alpha)
{
	const json_t *r = find_test(res, name, METRIC[k].metric);
	long long n = (long long)rp_num(r, "n");

	fprintf(fp, "- **%s**: ", METRIC[k].title);
	if (!r || rp_true(r, "too_few_pairs")) {
		fprintf(fp, "%lld pair%s, too few to read (bstats(1): an interval "
		    "is not read as a finding below ten pairs): no direction is "
		    "claimed.\n", n, n == 1 ? "" : "s");
		return;
	}
	direction(fp, c, r, k);
	if (json_is_number(json_object_get(r, "p_adjusted"))) {
		fputs("; BH-adjusted ", fp);
		rp_p(fp, rp_num(r, "p_adjusted"));
		fprintf(fp, ", %ssignificant at %g within its family",
		    rp_true(r, "significant") ? "" : "not ", alpha);
	} else {
		fputs("; no test (", fp);
		bst_md(fp, rp_str(r, "reason"));
		fputs(")", fp);
	}
	fprintf(fp, "; n = %lld.", n);
	share(fp, c, r, find_test(res, NULL, METRIC[k].metric));
	fputc('\n', fp);
}

/* ------------------------------------------------------ one comparison */

static void
orient(struct contrast *c, const json_t *r)
{
	const char *xo = rp_str(r, "x_variant_of"), *yo = rp_str(r, "y_variant_of");

	c->x = rp_str(r, "x");
	c->y = rp_str(r, "y");
	c->related = 1;
	c->flip = 0;
	if (!strcmp(xo, c->y)) {
		c->v = c->x;
		c->w = c->y;
	} else if (!strcmp(yo, c->x)) {
		c->v = c->y;
		c->w = c->x;
		c->flip = 1;
	} else {
		c->related = 0;
		c->v = c->x;
		c->w = c->y;
	}
	c->of_b = !strcmp(rp_str(r, c->flip ? "y_base" : "x_base"), "B");
}

static void
comparison(FILE *fp, const json_t *res, const json_t *r, double alpha)
{
	const char *name = rp_str(r, "comparison");
	struct contrast c;
	size_t k;

	orient(&c, r);
	fputs("\n### ", fp);
	bst_md(fp, name);
	fputs(": ", fp);
	bst_md(fp, c.x);
	fputs(" minus ", fp);
	bst_md(fp, c.y);
	fputs("\n\n**What it isolates**: ", fp);
	isolates(fp, &c);
	fputs(".\n\n", fp);
	if (!rp_true(r, "run")) {
		fputs("**Not run**: ", fp);
		bst_md(fp, rp_str(r, "reason"));
		fputs(".\n", fp);
		return;
	}
	fputs("BH family: ", fp);
	bst_md(fp, rp_str(r, "family"));
	fprintf(fp, " (this comparison's tests only); %lld pairs from %lld "
	    "ratings of ", (long long)rp_num(r, "pairs"),
	    (long long)rp_num(r, "x_ratings"));
	bst_md(fp, c.x);
	fprintf(fp, " and %lld of ", (long long)rp_num(r, "y_ratings"));
	bst_md(fp, c.y);
	fputs(".\n\n", fp);
	for (k = 0; k < NMETRIC; k++)
		metric_line(fp, &c, res, name, k, alpha);
}

void
rp_ablation(FILE *fp, const json_t *res, double alpha)
{
	size_t i;
	json_t *r;
	int any = 0;

	json_array_foreach(res, i, r) {
		if (!rp_is(r, "test", "comparison"))
			continue;
		if (!any)
			fputs("\n## Exploratory: what explains the A→B difference "
			    "(001 §7)\n\n"
			    "Not pre-registered: these comparisons of condition "
			    "variants are exploratory.  Each comparison X:Y is X "
			    "minus Y (positive = X better: higher score, fewer "
			    "hallucinations, fewer tokens), tested two-sided over the "
			    "(site, question, model) tuples rated under both with the "
			    "tests of the primary analysis, and adjusted by "
			    "Benjamini-Hochberg within its own family.  A share sets "
			    "a contrast's difference in means against the primary "
			    "A→B difference in means (B − A, oriented as every Δ "
			    "here): what a change to Condition A recovers of it, or "
			    "what a change to Condition B takes away.  The shares "
			    "are not additive: the contrasts overlap, rest on "
			    "different pairs and may interact, so they need not sum "
			    "to 100 %.\n", fp);
		any = 1;
		comparison(fp, res, r, alpha);
	}
}
