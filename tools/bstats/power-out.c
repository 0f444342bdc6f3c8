/*
 * power-out.c - the report section of bstats --power, written from the
 * result records of bstats_power only (power_design, power, power_mde):
 * the design, the assumptions, the power of each target with its
 * Monte-Carlo interval, H1 with and without clustering, the minimum
 * detectable effect of H1, and the model in words.  Calls nothing of
 * bstats.
 */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "power.h"

static const json_t *
find(const json_t *res, const char *test, const char *scenario,
    const char *target)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r) {
		const char *t = json_string_value(json_object_get(r, "test"));
		const char *sc = json_string_value(json_object_get(r, "scenario"));
		const char *tg = json_string_value(json_object_get(r, "target"));

		if (t && !strcmp(t, test) && (!scenario || (sc &&
		    !strcmp(sc, scenario))) && (!target || (tg &&
		    !strcmp(tg, target))))
			return r;
	}
	return NULL;
}

static double
num(const json_t *r, const char *key)
{
	return json_number_value(json_object_get(r, key));
}

static void
design(const json_t *d, FILE *fp)
{
	const char *k;
	json_t *v;
	int first = 1;

	fprintf(fp, "Design: %lld sites, %lld questions, %lld models "
	    "(tiers:", (long long)num(d, "sites"), (long long)num(d,
	    "questions"), (long long)num(d, "models"));
	json_object_foreach(json_object_get(d, "tiers"), k, v) {
		fprintf(fp, "%s %s %lld", first ? "" : ",", k,
		    (long long)json_integer_value(v));
		first = 0;
	}
	fprintf(fp, "), %lld (site, question, model) pairs per metric.  "
	    "%lld simulated studies per scenario, seed %lld, α = %g; each "
	    "study runs the whole pre-registered analysis, BH within each "
	    "family as in the report.\n\n", (long long)num(d, "pairs"),
	    (long long)num(d, "sims"), (long long)num(d, "seed"),
	    num(d, "alpha"));
}

static void
assumptions(const json_t *d, FILE *fp)
{
	static const char *const ROWS[][2] = {
		{ "effect_accuracy", "factual accuracy effect (Cliff's δ)" },
		{ "effect_hallucinations", "hallucination effect (Cliff's δ)" },
		{ "effect_tokens", "input token effect (paired Cohen's d)" },
		{ "effect_completeness", "completeness effect (Cliff's δ)" },
		{ "effect_citation", "citation fidelity effect (Cliff's δ)" },
		{ "ties", "share of tied pairs at no effect" },
		{ "icc_site", "site random effect (share of variance)" },
		{ "icc_model", "model random effect (share of variance)" },
		{ "icc_question", "question random effect (share of variance)" },
		{ "tier_interaction", "H4: accuracy δ, small minus large tier" },
		{ "complexity_interaction", "H5: accuracy δ, complex minus "
		    "single-fact" },
		{ "exclusion", "share of ratings excluded" },
		{ "cite_na", "share of citation fidelity not applicable" },
	};
	const json_t *as = json_object_get(d, "assumptions");
	size_t i;

	fprintf(fp, "### Assumptions\n\n| assumption | value |\n|---|---|\n");
	for (i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++)
		fprintf(fp, "| %s | %g |\n", ROWS[i][1], num(as, ROWS[i][0]));
	fprintf(fp, "\n");
}

static void
table(const json_t *res, FILE *fp)
{
	size_t i;
	json_t *r;

	fprintf(fp, "### Power\n\n| target | criterion | power | 95 %% "
	    "Monte-Carlo interval |\n|---|---|---|---|\n");
	json_array_foreach(res, i, r) {
		const char *sc = json_string_value(json_object_get(r, "scenario"));

		if (!sc || strcmp(sc, "assumed"))
			continue;
		fprintf(fp, "| %s | %s | %.3f | [%.3f, %.3f] |\n",
		    json_string_value(json_object_get(r, "target")),
		    json_string_value(json_object_get(r, "criterion")),
		    num(r, "power"), num(r, "ci_low"), num(r, "ci_high"));
	}
	fprintf(fp, "\n");
}

static void
clustering(const json_t *res, const json_t *d, FILE *fp)
{
	const json_t *as = json_object_get(d, "assumptions");
	const json_t *c = find(res, "power", "assumed", "H1");
	const json_t *i = find(res, "power", "independent", "H1");

	if (!c || !i)
		return;
	fprintf(fp, "**H1 with and without clustering.**  At a factual "
	    "accuracy effect of Cliff's δ = %g, H1's power is %.3f [%.3f, "
	    "%.3f] with the site, model and question random effects assumed "
	    "(ICC %g, %g, %g) and %.3f [%.3f, %.3f] without site clustering "
	    "(every pair independent, all ICCs 0).  The primary tests treat the "
	    "pairs as exchangeable (001 §6.5); the random effects are what "
	    "shrinks the power the design can claim.\n\n",
	    num(as, "effect_accuracy"), num(c, "power"), num(c, "ci_low"),
	    num(c, "ci_high"), num(as, "icc_site"), num(as, "icc_model"),
	    num(as, "icc_question"), num(i, "power"), num(i, "ci_low"),
	    num(i, "ci_high"));
}

static void
mde(const json_t *res, FILE *fp)
{
	const json_t *m = find(res, "power_mde", NULL, NULL);

	if (!m)
		return;
	if (json_is_null(json_object_get(m, "mde"))) {
		fprintf(fp, "**Minimum detectable effect (H1, %.0f %% power):** "
		    "not reached: %s.\n\n", 100 * num(m, "target_power"),
		    json_string_value(json_object_get(m, "reason")));
		return;
	}
	fprintf(fp, "**Minimum detectable effect (H1, %.0f %% power):** "
	    "Cliff's δ = %.3f (power %.3f there; at %.3f it was not "
	    "reached), under the same assumptions.\n\n",
	    100 * num(m, "target_power"), num(m, "mde"), num(m, "power_at_mde"),
	    num(m, "bracket_low"));
}

static void
model(FILE *fp)
{
	fprintf(fp, "### The model\n\n"
	    "Each simulated study has every (site, question, model) of the "
	    "design rated under both conditions.  For each metric the paired "
	    "difference Δ (%s) comes from a latent normal z = θ + u_site + "
	    "u_model + u_question + e of variance 1, the random effects' "
	    "shares of that variance being the ICCs above.  Δ is 0 when |z| is "
	    "within the threshold that ties the stated share of pairs at no "
	    "effect, and grows by one scale point every 0.5 beyond it, up to "
	    "the scale's range; θ is solved so that the pairs' Cliff's δ is the "
	    "stated effect, which is the effect size the report prints.  Input "
	    "tokens differ by 500 z (θ the paired Cohen's d).  The tier and "
	    "complexity interactions add half their difference to factual "
	    "accuracy's δ in the small tier and the complex levels and take "
	    "half from the large tier and single-fact questions.  Ratings are "
	    "excluded at random at the stated rate.  A target's power is the "
	    "share of studies in which the analysis rejects it by the stated "
	    "criterion; the interval is Clopper-Pearson's.\n\n", BST_SIGN);
}

void
bstats_power_report(const json_t *res, FILE *fp)
{
	const json_t *d = find(res, "power_design", NULL, NULL);

	fprintf(fp, "## Power of the design (simulation)\n\n");
	if (!d)
		return;
	design(d, fp);
	assumptions(d, fp);
	table(res, fp);
	clustering(res, d, fp);
	mde(res, fp);
	model(fp);
}
