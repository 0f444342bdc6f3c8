/*
 * reading.c - what each pre-registered result over all pairs says, as data
 * the report and the browser read (the "reading" object of H1-H3, H6 and
 * citation fidelity): the observed direction; whether every pair was a
 * tie; the smallest p the test could reach with these pairs and so whether
 * there are too few pairs to conclude; the opposite one-sided test, not
 * pre-registered, when the effect runs against the hypothesis; the §6.5
 * site-level check beside the primary test (001 §7.4 L-SC-2); and for H2
 * whether the hallucinations were assessed at all (000 §10); and for
 * every other signed-rank or exact McNemar result, its power floor.  It runs
 * after Benjamini-Hochberg and changes no statistic.  Calls paired.c,
 * stats.c and obs.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

static const char *
str(const json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : "";
}

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/*
 * The smallest p the test can give on these pairs, or -1 when it has no
 * floor: a signed-rank test on k non-zero differences reaches at best
 * 2^-k one-sided (every difference on one side; ties do not change it), a
 * two-sided one twice that; McNemar's exact test on k discordant pairs
 * 2 * 2^-k.  The t-test has none.
 */
static double
min_p(const json_t *r)
{
	const char *t = str(r, "test");
	double k;

	if (!strcmp(t, "wilcoxon_signed_rank")) {
		k = num(r, "n_nonzero");
		return fmin(1, ldexp(1, -(int)k + (!strcmp(str(r, "alternative"),
		    "two-sided") ? 1 : 0)));
	}
	if (!strcmp(t, "mcnemar_exact")) {
		k = num(r, "discordant_b_only") + num(r, "discordant_a_only");
		return fmin(1, ldexp(1, 1 - (int)k));
	}
	return -1;
}

/* "B better", "A better" or "none", as the data fall. */
static const char *
direction(const json_t *r)
{
	const json_t *d = json_object_get(r, "distribution");
	double b = num(r, "discordant_b_only"), a = num(r, "discordant_a_only");

	if (!strcmp(str(r, "test"), "mcnemar_exact"))
		return b > a ? "B better" : a > b ? "A better" : "none";
	if (!strcmp(str(r, "test"), "paired_t")) {
		double v = num(json_object_get(r, "effect"), "value");

		return v > 0 ? "B better" : v < 0 ? "A better" : "none";
	}
	b = num(d, "b_better_pct");
	a = num(d, "a_better_pct");
	return b > a ? "B better" : a > b ? "A better" : "none";
}

/* The one-sided test against the hypothesis (Δ < 0), not pre-registered. */
static void
opposite(struct bst_study *s, json_t *r, json_t *rd, enum bst_metric m)
{
	double *bv, *av, *d;
	size_t n = bst_collect(s, m, NULL, NULL, &bv, &av, &d);
	struct bst_test t;

	if (!strcmp(str(r, "test"), "paired_t"))
		bst_ttest_rel(d, n, BST_LESS, &t);
	else
		bst_wilcoxon(d, n, BST_LESS, 0, BST_AUTO, &t);
	if (t.ok)
		json_set_real(rd, "opposite_p", t.p);
	free(bv);
	free(av);
	free(d);
}

/* The §6.5 site-level check of hypothesis hyp, or NULL. */
static const json_t *
site_check(const struct bst_study *s, const char *hyp)
{
	size_t i;
	json_t *r;

	json_array_foreach(s->results, i, r)
		if (!strcmp(str(r, "group"), "clustering_site") &&
		    !strcmp(str(r, "hypothesis"), hyp))
			return r;
	return NULL;
}

static void
robustness(const struct bst_study *s, const json_t *r, json_t *rd)
{
	const json_t *c = site_check(s, str(r, "hypothesis"));
	int confirms;

	if (!c)
		return;
	confirms = json_is_true(json_object_get(c, "computable")) &&
	    num(c, "p") <= s->opt.alpha;
	if (json_is_number(json_object_get(c, "p")))
		json_set_real(rd, "site_level_p", num(c, "p"));
	json_set_int(rd, "site_level_n", (long long)num(c, "n"));
	/* the check's own floor: 2^-k one-sided on k non-zero means */
	json_set_int(rd, "site_level_nonzero", (long long)num(c, "n_nonzero"));
	json_set_bool(rd, "site_level_too_few", ldexp(1, -(int)num(c,
	    "n_nonzero")) > s->opt.alpha);
	json_set_bool(rd, "site_level_confirms", confirms);
	/* 001 §7.4 L-SC-2: significant here, not at the site level */
	json_set_bool(rd, "possibly_inflated", json_is_true(json_object_get(r,
	    "significant")) && !confirms);
}

/* The conclusion in a word or two, from the fields of rd. */
static const char *
conclusion(const struct bst_study *s, const json_t *r, const json_t *rd)
{
	int sig = json_is_true(json_object_get(r, "significant"));
	const char *dir = str(rd, "direction");
	double op = num(rd, "opposite_p");

	if (json_is_false(json_object_get(rd, "assessed")))
		return "not assessed";
	if (json_is_true(json_object_get(rd, "all_ties")))
		return "no difference on any pair";
	if (!json_is_true(json_object_get(r, "computable")))
		return "not computable";
	if (json_is_true(json_object_get(rd, "too_few_pairs")))
		return "too few pairs to conclude";
	if (sig)
		return dir;
	if (json_object_get(rd, "opposite_p") && op <= s->opt.alpha)
		return "A better (opposite test, not pre-registered)";
	return "no detectable difference";
}

static void
read_one(struct bst_study *s, json_t *r, enum bst_metric m)
{
	json_t *rd = json_object();
	const json_t *d = json_object_get(r, "distribution");
	double n = num(r, "n"), mp = min_p(r);

	json_set_str(rd, "direction", direction(r));
	json_set_bool(rd, "all_ties", n > 0 && num(d, "equal_pct") == 100);
	if (mp >= 0)
		json_set_real(rd, "min_attainable_p", mp);
	json_set_bool(rd, "too_few_pairs", n == 0 || mp > s->opt.alpha);
	json_set_bool(rd, "too_few_for_interval", n < BST_MIN_INTERVAL_PAIRS);
	json_set_int(rd, "min_interval_pairs", BST_MIN_INTERVAL_PAIRS);
	if (!strcmp(str(r, "alternative"), "greater") && n > 0)
		opposite(s, r, rd, m);
	if (m == M_HALL) {
		size_t k = (size_t)num(json_object_get(s->exclusions, "ratings"),
		    "hallucinations_assessed_pairs");

		json_set_int(rd, "assessed_pairs", (long long)k);
		json_set_bool(rd, "assessed", k > 0 || s->npairs == 0);
	}
	if (m == M_ACC || m == M_HALL || m == M_TOK)
		robustness(s, r, rd);
	json_set_str(rd, "conclusion", conclusion(s, r, rd));
	json_set_new(r, "reading", rd);
}

/* Any other signed-rank or exact McNemar result (subgroups, clustering,
 * sensitivity): its power floor only. */
static void
read_floor(const struct bst_study *s, json_t *r)
{
	json_t *rd = json_object();
	double mp = min_p(r);

	json_set_real(rd, "min_attainable_p", mp);
	json_set_bool(rd, "too_few_pairs", mp > s->opt.alpha);
	json_set_new(r, "reading", rd);
}

void
bst_readings(struct bst_study *s)
{
	static const char *const hyp[] = { "H1", "H2", "H3" };
	size_t i, k;
	json_t *r;

	json_array_foreach(s->results, i, r) {
		const char *g = str(r, "group"), *t = str(r, "test");

		if (!strcmp(g, "primary")) {
			for (k = 0; k < 3; k++)
				if (!strcmp(str(r, "hypothesis"), hyp[k]))
					read_one(s, r, (enum bst_metric)(M_ACC + k));
		} else if (!strcmp(g, "secondary") && !strcmp(t, "mcnemar_exact")) {
			read_one(s, r, M_COMP);
		} else if (!strcmp(g, "secondary") && strcmp(t, "mcnemar_chi2")) {
			read_one(s, r, M_CITE);
		} else if ((!strcmp(t, "wilcoxon_signed_rank") ||
		    !strcmp(t, "mcnemar_exact")) && json_is_true(json_object_get(r,
		    "computable"))) {
			read_floor(s, r);
		}
	}
}
