/*
 * report-read.c - the interpretation of the Markdown report: the 001 §6.10
 * guide, quoted as pre-registered, and around it what the data say, read
 * from each result's "reading" (reading.c): the observed direction and
 * size always; an effect that runs against the hypothesis named as such;
 * "no difference on any pair" when every pair ties; "too few pairs to
 * conclude" when the test cannot reach α; the §6.5 site-level check that
 * does not confirm a primary result (001 §7.4 L-SC-2); H2 "not assessed"
 * when no rating assessed hallucinations (000 §10); H6 with its
 * direction; the token-quality correlation read by its sign; and what each
 * subgroup test left out.  Calls report-fmt.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "report.h"

/* What H1-H3 mean when A is the better one (not pre-registered). */
static const char *const OTHER_WAY[] = {
	"higher factual accuracy from the HTML extraction (A) than from the "
	    "llms.txt Markdown (B)",
	"fewer hallucinations from the HTML extraction (A) than from the "
	    "llms.txt Markdown (B)",
	"fewer input tokens for the HTML extraction (A) than for the llms.txt "
	    "Markdown (B)",
};

static const json_t *
reading(const json_t *r)
{
	return json_object_get(r, "reading");
}

/* " (Cliff's δ = 0.280 [0.150, 0.410]; B better in 40.0 % of pairs, A
 * better in 12.0 %, n = 286)" */
static void
observed(FILE *fp, const json_t *r)
{
	const json_t *e = json_object_get(r, "effect");
	const json_t *d = json_object_get(r, "distribution");

	fputs(" (", fp);
	if (json_is_number(json_object_get(e, "value"))) {
		fprintf(fp, "%s = %.3f", rp_is(e, "measure", "cohens_d") ?
		    "Cohen's d" : "Cliff's δ", rp_num(e, "value"));
		if (json_is_number(json_object_get(e, "ci_low")))
			fprintf(fp, " [%.3f, %.3f]", rp_num(e, "ci_low"),
			    rp_num(e, "ci_high"));
		fputs("; ", fp);
	}
	fprintf(fp, "B better in %.1f %% of pairs, A better in %.1f %%, "
	    "n = %lld)", rp_num(d, "b_better_pct"), rp_num(d, "a_better_pct"),
	    (long long)rp_num(r, "n"));
}

/* An effect-size interval on fewer pairs than bstats(1) reads. */
static void
interval_floor(FILE *fp, const json_t *r)
{
	if (rp_true(reading(r), "too_few_for_interval"))
		fprintf(fp, "  The effect-size interval rests on %lld pair%s, "
		    "fewer than the %d bstats(1) requires to read one: too few "
		    "pairs to conclude on the size of the effect.\n",
		    (long long)rp_num(r, "n"), rp_num(r, "n") == 1 ? "" : "s",
		    (int)rp_num(reading(r), "min_interval_pairs"));
}

/*
 * The outcomes that come before the guide's rows: no result, every pair a
 * tie (then row, the guide's no-difference row, when there is one), not
 * computable, too few pairs.  Returns 1 when it wrote the line.
 */
static int
before_rows(FILE *fp, const char *hyp, const json_t *r, const char *row,
    double alpha)
{
	const json_t *rd = reading(r);
	char pb[32];

	if (!r) {
		fprintf(fp, "- %s: no result.\n", hyp);
		return 1;
	}
	if (rp_true(rd, "all_ties")) {
		if (rp_num(r, "n") == 1)
			fprintf(fp, "- **%s: no difference on any pair**: the one "
			    "pair scored the same under A and B", hyp);
		else
			fprintf(fp, "- **%s: no difference on any pair**: all %lld "
			    "pairs scored the same under A and B, the clearest "
			    "no-difference result", hyp, (long long)rp_num(r, "n"));
		fprintf(fp, "%s.\n", row ? row : "");
		return 1;
	}
	if (!rp_true(r, "computable")) {
		fprintf(fp, "- %s could not be computed (%s).\n", hyp,
		    rp_str(r, "reason"));
		return 1;
	}
	if (!rp_true(rd, "too_few_pairs"))
		return 0;
	fprintf(fp, "- **%s: too few pairs to conclude**: ", hyp);
	if (rp_is(r, "test", "mcnemar_exact"))
		fprintf(fp, "with %lld discordant pair%s", (long long)(rp_num(r,
		    "discordant_b_only") + rp_num(r, "discordant_a_only")),
		    rp_num(r, "discordant_b_only") + rp_num(r,
		    "discordant_a_only") == 1 ? "" : "s");
	else
		fprintf(fp, "with %lld non-zero difference%s", (long long)rp_num(r,
		    "n_nonzero"), rp_num(r, "n_nonzero") == 1 ? "" : "s");
	fprintf(fp, " the pre-registered %s test cannot reach p ≤ %g at all "
	    "(its smallest attainable p is %s), so the result is not a "
	    "finding either way", rp_test_title(r), alpha,
	    bst_fmt_p(rp_num(rd, "min_attainable_p"), pb, sizeof pb));
	observed(fp, r);
	fputs(".\n", fp);
	interval_floor(fp, r);
	return 1;
}

/* A non-significant one-sided result whose effect runs the other way. */
static void
other_way(FILE *fp, const json_t *r, int k, double alpha)
{
	const json_t *rd = reading(r), *e = json_object_get(r, "effect");
	int ci_below = json_is_number(json_object_get(e, "ci_high")) &&
	    rp_num(e, "ci_high") < 0;
	int opp = json_is_number(json_object_get(rd, "opposite_p")) &&
	    rp_num(rd, "opposite_p") <= alpha;

	if (rp_true(r, "significant") || (!ci_below && !opp))
		return;
	fprintf(fp, "  **The effect runs the other way**: these data show %s, "
	    "not \"no difference\"", OTHER_WAY[k]);
	if (json_is_number(json_object_get(rd, "opposite_p"))) {
		fputs("; the opposite one-sided test (A better), not "
		    "pre-registered, gives ", fp);
		rp_p(fp, rp_num(rd, "opposite_p"));
	}
	if (ci_below)
		fprintf(fp, "; the %s interval lies below 0",
		    rp_is(e, "measure", "cohens_d") ? "Cohen's d" : "Cliff's δ");
	fputs(".\n", fp);
}

/* The §6.5 check beside a significant primary result. */
static void
robustness(FILE *fp, const json_t *r)
{
	const json_t *rd = reading(r);

	if (!rp_true(r, "significant") || !json_object_get(rd,
	    "site_level_confirms"))
		return;
	if (rp_true(rd, "possibly_inflated")) {
		fprintf(fp, "  **Possibly inflated by non-independence**: the "
		    "site-level check of §6.5 (the one-sided Wilcoxon test on "
		    "%lld per-(site, model) mean Δ) ", (long long)rp_num(rd,
		    "site_level_n"));
		if (json_is_number(json_object_get(rd, "site_level_p"))) {
			fputs("gives ", fp);
			rp_p(fp, rp_num(rd, "site_level_p"));
			fputs(" and does not confirm it", fp);
		} else {
			fputs("is not computable", fp);
		}
		if (rp_true(rd, "site_level_too_few"))
			fprintf(fp, " (on %lld non-zero mean%s it cannot reach α "
			    "at all)", (long long)rp_num(rd, "site_level_nonzero"),
			    rp_num(rd, "site_level_nonzero") == 1 ? "" : "s");
		fputs(": by 001 §7.4 L-SC-2 the primary result is reported as "
		    "potentially inflated by within-site correlation.\n", fp);
		return;
	}
	fprintf(fp, "  The site-level check of §6.5 confirms it (");
	rp_p(fp, rp_num(rd, "site_level_p"));
	fprintf(fp, " on %lld per-(site, model) means).\n",
	    (long long)rp_num(rd, "site_level_n"));
}

static void
guide_h1(FILE *fp, const json_t *h1, double alpha)
{
	double d = rp_num(json_object_get(h1, "effect"), "value");

	if (before_rows(fp, "H1", h1, ": §6.10's row \"H1 not significant\" "
	    "applies — \"No detectable accuracy difference between "
	    "conditions\"", alpha))
		return;
	if (rp_true(h1, "significant") && d >= 0.33)
		fprintf(fp, "- **H1 significant, medium+ effect**: \"llms.txt "
		    "Markdown produces meaningfully better factual responses\" — "
		    "\"Strong practical case for llms.txt adoption\"");
	else if (rp_true(h1, "significant"))
		fprintf(fp, "- **H1 significant, small effect**%s: \"Statistically "
		    "detectable improvement but practically marginal\" — \"llms.txt "
		    "helps, but the benefit may not justify the maintenance cost for "
		    "all organizations\"", d < 0.147 ? " (negligible on the §6.3 "
		    "scale; mapped to this row, see Methods)" : "");
	else
		fprintf(fp, "- **H1 not significant**: the pre-registered row "
		    "reads \"No detectable accuracy difference between "
		    "conditions\" — \"Modern LLMs handle HTML-derived content "
		    "effectively; llms.txt does not measurably improve factual "
		    "accuracy\"");
	observed(fp, h1);
	fputs(".\n", fp);
	other_way(fp, h1, 0, alpha);
	robustness(fp, h1);
	interval_floor(fp, h1);
}

static void
guide_h2(FILE *fp, const json_t *h2, double alpha)
{
	const json_t *rd = reading(h2);

	if (h2 && json_is_false(json_object_get(rd, "assessed"))) {
		fprintf(fp, "- **H2 not assessed**: no pair's hallucinations were "
		    "assessed (every pair has a rating by bscore-merge autoscore, "
		    "which does not assess them, 000 §10); the counts of 0 are not "
		    "observations and H2 is not tested on them.\n");
		return;
	}
	if (before_rows(fp, "H2", h2, NULL, alpha))
		return;
	fprintf(fp, "- H2 (fewer hallucinations with B, one-tailed) is %s "
	    "after BH", rp_true(h2, "significant") ? "**significant**" :
	    "not significant");
	observed(fp, h2);
	fprintf(fp, "; §6.10 has no row for H2.\n");
	if (rp_num(rd, "assessed_pairs") < rp_num(h2, "n"))
		fprintf(fp, "  Hallucinations were assessed on %lld of these %lld "
		    "pairs only; the others carry autoscore's unassessed 0.\n",
		    (long long)rp_num(rd, "assessed_pairs"),
		    (long long)rp_num(h2, "n"));
	other_way(fp, h2, 1, alpha);
	robustness(fp, h2);
	interval_floor(fp, h2);
}

static void
guide_h3(FILE *fp, const json_t *h3, double alpha)
{
	const json_t *dd = json_object_get(h3, "distribution");
	double ma = rp_num(json_object_get(dd, "A"), "mean");
	double mb = rp_num(json_object_get(dd, "B"), "mean");

	if (before_rows(fp, "H3", h3, NULL, alpha))
		return;
	if (rp_true(h3, "significant"))
		fprintf(fp, "- **H3 significant**: \"llms.txt content is measurably "
		    "smaller in tokens\" — \"Confirms the theoretical basis (less "
		    "noise) but token savings alone don't justify adoption unless "
		    "quality metrics also improve\"");
	else
		fprintf(fp, "- **H3 not significant**: Condition B did not use "
		    "fewer tokens; the guide has no row for this outcome");
	if (ma > 0)
		fprintf(fp, ".  On average B used %.1f %% %s tokens than A",
		    fabs(100 * (ma - mb) / ma), mb <= ma ? "fewer" : "more");
	observed(fp, h3);
	fputs(".\n", fp);
	other_way(fp, h3, 2, alpha);
	robustness(fp, h3);
	interval_floor(fp, h3);
}

/* H6, two-tailed: its direction is the finding (001 §6.1). */
static void
guide_h6(FILE *fp, const json_t *h6, double alpha)
{
	const json_t *e = json_object_get(h6, "effect");
	long long b = (long long)rp_num(h6, "discordant_b_only");
	long long a = (long long)rp_num(h6, "discordant_a_only");

	if (before_rows(fp, "H6", h6, NULL, alpha))
		return;
	if (!rp_true(h6, "significant"))
		fprintf(fp, "- H6 (completeness, two-tailed) not significant: no "
		    "detectable completeness difference, consistent with H6's "
		    "\"B equal or higher\"");
	else if (b > a)
		fprintf(fp, "- **H6 (completeness, two-tailed) significant: B is "
		    "more complete than A**, consistent with H6's \"B equal or "
		    "higher\"");
	else
		fprintf(fp, "- **H6 (completeness, two-tailed) significant: B is "
		    "less complete than A**: H6's \"B equal or higher\" is "
		    "contradicted; the llms.txt Markdown may omit content the HTML "
		    "carries (§6.1)");
	fprintf(fp, " (B complete where A was not in %lld pair%s, A where B "
	    "was not in %lld", b, b == 1 ? "" : "s", a);
	if (json_is_number(json_object_get(e, "value")))
		fprintf(fp, "; OR = %.3f [%.3f, %.3f]", rp_num(e, "value"),
		    rp_num(e, "ci_low"), rp_num(e, "ci_high"));
	fprintf(fp, ", n = %lld).\n", (long long)rp_num(h6, "n"));
}

/* H4 / H5: the omnibus test, the one-tailed follow-ups in the
 * hypothesised direction (001 §6.1), and the pairs left out. */
static void
guide_interaction(FILE *fp, const json_t *res, const char *hyp,
    const char *group, const char *row, const char *impl)
{
	const json_t *kw = rp_find(res, group, hyp, "kruskal_wallis");
	const json_t *ex = rp_find(res, "data", NULL, "exclusion_accounting");
	double miss = rp_num(json_object_get(ex, "pairs_missing"), group);
	size_t i, dir = 0, found = 0;
	json_t *r;

	json_array_foreach(res, i, r)
		if (rp_is(r, "test", "mann_whitney_u") && rp_is(r, "group", group) &&
		    rp_is(r, "alternative", "greater")) {
			found++;
			dir += rp_true(r, "significant");
		}
	if (kw && !rp_true(kw, "computable") && strstr(rp_str(kw, "reason"),
	    "identical"))
		fprintf(fp, "- %s: no interaction: the accuracy Δ is the same in "
		    "every (site, question) of every %s (%s).\n", hyp, group,
		    rp_str(kw, "reason"));
	else if (!kw || !rp_true(kw, "computable"))
		fprintf(fp, "- %s could not be computed (%s).\n", hyp,
		    kw ? rp_str(kw, "reason") : "no result");
	else if (!rp_true(kw, "significant"))
		fprintf(fp, "- %s not significant: no evidence that the accuracy "
		    "effect differs by %s.\n", hyp, group);
	else if (dir > 0)
		fprintf(fp, "- **%s significant (interaction)**: \"%s\" — \"%s\" "
		    "(%zu of %zu one-tailed follow-ups in the hypothesised direction "
		    "significant after BH).\n", hyp, row, impl, dir, found);
	else
		fprintf(fp, "- %s: the accuracy effect differs by %s (Kruskal-Wallis "
		    "significant), but no one-tailed follow-up in the hypothesised "
		    "direction is significant: the one-tailed hypothesis is not "
		    "supported.\n", hyp, group);
	if (miss > 0)
		fprintf(fp, "  %lld pair%s without a `%s` %s left out of %s.\n",
		    (long long)miss, miss == 1 ? "" : "s", group, miss == 1 ?
		    "is" : "are", hyp);
}

static void
guide_correlation(FILE *fp, const json_t *sp, double alpha)
{
	double rho = rp_num(sp, "statistic");

	if (!sp || !rp_true(sp, "computable")) {
		fprintf(fp, "- The token-quality correlation is not computable "
		    "(%s).\n", sp ? rp_str(sp, "reason") : "no result");
		return;
	}
	if (rp_num(sp, "p") > alpha)
		fprintf(fp, "- **Δ_tokens does NOT correlate with Δ_accuracy** "
		    "(ρ = %.3f, ", rho);
	else if (rho > 0)
		fprintf(fp, "- **Δ_tokens correlates positively with Δ_accuracy** "
		    "(ρ = %.3f, ", rho);
	else
		fprintf(fp, "- **Δ_tokens correlates negatively with Δ_accuracy** "
		    "(ρ = %.3f, ", rho);
	rp_p(fp, rp_num(sp, "p"));
	fprintf(fp, ", n = %lld)", (long long)rp_num(sp, "n"));
	if (rp_num(sp, "p") > alpha)
		fprintf(fp, ": \"Token reduction does not predict quality gain\" — "
		    "\"The mechanism is content curation quality, not just size "
		    "reduction\".\n");
	else if (rho > 0)
		fprintf(fp, ": larger token savings go with larger accuracy gains "
		    "under B — \"Token reduction predicts quality gain\" — \"The "
		    "mechanism is noise removal; sites with more HTML bloat benefit "
		    "most\".\n");
	else
		fprintf(fp, ": larger token savings go with *worse* accuracy under "
		    "B, the surprising case of §6.7 (\"aggressive content pruning "
		    "in llms.txt actually removes useful context\").  Neither of "
		    "§6.10's rows applies: \"Token reduction predicts quality gain\" "
		    "reads a positive correlation.\n");
}

void
rp_interpretation(FILE *fp, const json_t *res, double alpha)
{
	fprintf(fp, "\n## Interpretation (001 §6.10)\n\n"
	    "The pre-registered guide, applied to the BH-adjusted results "
	    "(%s), with the observed direction and size of every effect beside "
	    "it.\n\n", BST_SIGN);
	guide_h1(fp, rp_find(res, "primary", "H1", NULL), alpha);
	guide_h2(fp, rp_find(res, "primary", "H2", NULL), alpha);
	guide_h3(fp, rp_find(res, "primary", "H3", NULL), alpha);
	guide_h6(fp, rp_find(res, "secondary", "H6", "mcnemar_exact"), alpha);
	guide_interaction(fp, res, "H4", "tier", "Small models benefit more "
	    "from llms.txt than large models", "Suggests llms.txt is most "
	    "valuable when deploying smaller, cheaper models");
	guide_interaction(fp, res, "H5", "complexity", "Complex questions "
	    "benefit more", "Suggests llms.txt's value scales with task "
	    "difficulty");
	guide_correlation(fp, rp_find(res, "correlation", NULL, "spearman"),
	    alpha);
}
