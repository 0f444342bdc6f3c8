/*
 * analysis.h - the floors of the analysis behind bstats_analyse()
 * (bstats.h has the map of every file):
 *
 *   analysis.c   the driver: calls the floor below, in report order
 *   pairs.c  accounting.c  groups.c  tokens.c  parity.c  agreement.c
 *   reading.c  compare.c
 *                the analyses: each writes its result records (or adds
 *                to them), and is called by the driver only
 *   paired.c     the §6.2 test of one metric over a set of pairs (the
 *                driver, groups.c, parity.c and compare.c call it;
 *                reading.c its bst_collect)
 *   results.c    the result records and their parts (the analyses but
 *                pairs.c, and paired.c)
 *   obs.c, stats.c  below all of them
 *
 * A file calls only the files listed below it.  The analyses, the tests
 * and bst_res_new take the study being analysed (s->pairs and s->idx as
 * bst_pair_up sets them) and append their records to s->results, which
 * owns them; a record returned is borrowed from s->results, for the caller
 * to add fields to.
 */
#ifndef BSTATS_ANALYSIS_H
#define BSTATS_ANALYSIS_H

#include <stddef.h>
#include <jansson.h>

#include "stats.h"

/* ----------------------------------------------- the analyses (driver's) */

/* pairs.c: sort the primary ratings into s->idx (bst_obs_cmp), die naming
 * file and line on a second primary rating of a tuple, pair A with B into
 * s->pairs (both not excluded). */
void bst_pair_up(struct bst_study *s);
/* pairs.c: the exclusion accounting (001 §2.5) into s->exclusions and a
 * reference in s->results. */
void bst_exclusions(struct bst_study *s);
/* accounting.c: where every tuple went beyond the exclusions (unpaired
 * tuples per model and condition, partners excluded, models without a
 * pair, pairs lacking a grouping field, ratings by rater_kind) added to
 * s->exclusions; after bst_exclusions. */
void bst_accounting(struct bst_study *s);

/* groups.c: the field a subgroup analysis splits the pairs by. */
enum bst_grouping { BST_G_TIER, BST_G_COMPLEXITY, BST_G_SECTOR };

/* groups.c: the clustering checks (001 §6.5). */
void bst_clustering(struct bst_study *s);
/* groups.c: H1-H3 within each value of g, and the Kruskal-Wallis
 * interaction test (hypothesis hyp, BH family family). */
void bst_subgroup(struct bst_study *s, enum bst_grouping g, const char *hyp,
    const char *family, const char *label);
/* groups.c: the Mann-Whitney follow-ups of one Kruskal-Wallis record
 * (group label), after BH: run only when it is significant. */
void bst_followups(struct bst_study *s, enum bst_grouping g, const char *hyp,
    const char *label);
/* groups.c: Cliff's δ of accuracy per sector (descriptive). */
void bst_sectors(struct bst_study *s);
/* tokens.c: per-site and per-model token summaries, and the token-quality
 * and freshness correlations (001 §2.6, §6.7, §6.8). */
void bst_token_sites(struct bst_study *s);
void bst_token_models(struct bst_study *s);
void bst_correlations(struct bst_study *s);
/* parity.c: A<->B parity per site and the sensitivity analysis. */
void bst_parity(struct bst_study *s);
/* agreement.c: inter-rater reliability (000 §8) per kind of second rating,
 * and the agreement under the rubrics of specs 002 and 004. */
void bst_agreement(struct bst_study *s);
void bst_rubric_agreement(struct bst_study *s);

/* compare.c: the exploratory comparisons (issue 30) of s->cmp, or, when
 * none is declared, of each variant with its variant_of (filling s->cmp):
 * per comparison a "comparison" record and the five metrics' tests, in
 * the BH family s->cmp[i].family, which the driver adjusts.  Dies naming
 * file and line on a second primary rating of a variant's tuple. */
void bst_comparisons(struct bst_study *s);

/* reading.c: the "reading" of each result over all pairs (H1-H3, H6,
 * citation fidelity): direction, ties, the power floor, the opposite
 * one-sided test, the §6.5 check beside it, H2's assessment; after BH.
 * BST_MIN_INTERVAL_PAIRS: fewer pairs than this and an effect-size
 * interval is not read as a finding (bstats(1)). */
#define BST_MIN_INTERVAL_PAIRS 10
void bst_readings(struct bst_study *s);

/* ------------------------------------------------ paired.c: one metric */

/* Which pairs a test uses: NULL for all. */
typedef int (*bst_pair_filter)(const struct bst_pair *p, const void *arg);
/* The values of metric m under B and A and the oriented Δ over the pairs
 * passing f (citation fidelity: where it applies in both); three new
 * arrays of s->npairs + 1 the caller frees; returns their length. */
size_t bst_collect(const struct bst_study *s, enum bst_metric m,
    bst_pair_filter f, const void *arg, double **bv, double **av,
    double **dv);
/* The §6.2 test of metric m over the pairs passing f, with its effect size
 * and distributions: its result record (for completeness, McNemar's exact
 * test; the chi-square version follows it in s->results). */
json_t *bst_metric_test(struct bst_study *s, enum bst_metric m,
    bst_pair_filter f, const void *arg, const char *group, const char *hyp,
    const char *family, const char *subset);

/* The same test over all pairs, two-sided (no hypothesis: an exploratory
 * comparison, compare.c). */
json_t *bst_explore_test(struct bst_study *s, enum bst_metric m,
    const char *group, const char *family, const char *subset);

/* ------------------------------------------- results.c: result records */

/* A new record {test, group, hypothesis, family, metric, subset} appended
 * to s->results (hyp, family: NULL gives null). */
json_t *bst_res_new(struct bst_study *s, const char *test, const char *group,
    const char *hyp, const char *family, const char *metric,
    const char *subset);
/* A test's outcome: n, computable, statistic_name, alternative (when
 * has_alt), statistic, p, df, reason, p_adjusted (null until BH). */
void bst_res_test(json_t *r, const struct bst_test *t, const char *statname,
    int alt, int has_alt);
/* r.effect: measure, value with its interval (level 0: none) and §6.3
 * magnitude, or null with the reason why; and the sign convention. */
void bst_res_effect(json_t *r, const char *measure, int ok, double v,
    double lo, double hi, double level, const char *why);
/* Append note to r.notes. */
void bst_res_note(json_t *r, const char *note);
/* r.delta (how Δ is formed; skipped when NULL) and r.sign (BST_SIGN). */
void bst_res_sign(json_t *r, const char *delta);
/* The method of a signed-rank result: "approx", "exact" or "exact
 * conditional". */
const char *bst_signrank_method(const struct bst_test *t);
/* Paired Cliff's δ of d[0..n) with its bootstrap interval as r.effect. */
void bst_cliff_effect(struct bst_study *s, json_t *r, const double *d,
    size_t n);
/* Spearman's ρ of x and y (two-sided) as a new record of test "spearman". */
json_t *bst_spearman_res(struct bst_study *s, const double *x,
    const double *y, size_t n, const char *group, const char *metric,
    const char *subset);
/* {n, median, q1, q3, mean} of v[0..n), with the frequency of each value
 * when freq; a new object. */
json_t *bst_summary(const double *v, size_t n, int freq);

#endif
