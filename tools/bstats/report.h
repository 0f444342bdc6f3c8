/*
 * report.h - the floors of the Markdown report behind bstats_report()
 * (bstats.h has the map of every file):
 *
 *   report.c        the driver: the head, then each section in order
 *   report-tests.c  sections 1-4: data and exclusions, the primary
 *                   hypotheses and secondary metrics, the BH tables
 *   report-sec.c    sections 5-9: clustering, subgroups, tokens, A<->B
 *                   parity, correlations
 *   report-guide.c  section 10 (inter-rater reliability), the corpus
 *                   conformance, the methods
 *   report-drift.c  the content drift between two snapshots (bctx drift)
 *   report-read.c   the §6.10 interpretation with what the data say
 *                   beside it (the results' "reading", reading.c)
 *   report-ablation.c  the exploratory comparisons of condition variants
 *                   (issue 30, compare.c's records)
 *   report-fmt.c    the primitives every section uses
 *
 * A section file calls report-fmt.c only; report-fmt.c calls none of them.
 * Sections read the result records of bstats_analyse() (res: s->results,
 * borrowed) and write to fp; every string from the data goes through
 * bst_md so that a site_id holding HTML or Markdown prints as text.
 */
#ifndef BSTATS_REPORT_H
#define BSTATS_REPORT_H

#include <stdio.h>
#include <jansson.h>

/* ------------------------------------------ the sections (report.c's) */

/* report-tests.c */
void rp_exclusions(FILE *fp, const json_t *exclusions);
void rp_hypotheses(FILE *fp, const json_t *res);
void rp_families(FILE *fp, const json_t *res, double alpha);
/* report-sec.c */
void rp_clustering(FILE *fp, const json_t *res);
void rp_subgroups(FILE *fp, const json_t *res);
void rp_tokens(FILE *fp, const json_t *res);
void rp_parity(FILE *fp, const json_t *res);
void rp_correlations(FILE *fp, const json_t *res);
/* report-guide.c */
void rp_agreement(FILE *fp, const json_t *res);
void rp_conformance(FILE *fp, const json_t *conformance);
void rp_methods(FILE *fp, size_t nboot, unsigned long seed);

/* report-drift.c: the drift between two snapshots (bstats_drift's d) */
void rp_drift(FILE *fp, const json_t *d);

/* report-read.c */
void rp_interpretation(FILE *fp, const json_t *res, double alpha);
/* report-ablation.c: the exploratory comparisons of condition variants
 * (nothing when there are none) */
void rp_ablation(FILE *fp, const json_t *res, double alpha);

/* ------------------------------------ report-fmt.c: the primitives */

/* Member k of o as a number (0 when absent or not a number), a string (""
 * when absent or not a string, borrowed), compared with v, or true. */
double rp_num(const json_t *o, const char *k);
const char *rp_str(const json_t *o, const char *k);
int rp_is(const json_t *r, const char *k, const char *v);
int rp_true(const json_t *o, const char *k);
/* The first record of res with this group, hypothesis and test (NULL
 * hyp or test: any), or NULL; borrowed. */
const json_t *rp_find(const json_t *res, const char *group, const char *hyp,
    const char *test);
/* Text from the data as Markdown text: |, *, _, `, [, ], #, !, ~ and \
 * escaped, <, > and & as entities, line breaks and tabs as spaces. */
void bst_md(FILE *fp, const char *s);
/* "p = 0.0312", "p = 1.23e-05" or "p < 1e-300". */
void rp_p(FILE *fp, double p);
/* The name of r's test for a reader ("Wilcoxon signed-rank"). */
const char *rp_test_title(const json_t *r);
/* "Wilcoxon signed-rank: W+ = ..., p = ..., Cliff's δ = ..." (001 §6.3),
 * or the reason r is not computable; one line. */
void rp_result_line(FILE *fp, const json_t *r);
/* A summary object {n, median, q1, q3, mean} as "median (IQR q1 to q3)",
 * or "–" when n is 0. */
void rp_median_iqr(FILE *fp, const json_t *sm, int prec, const char *unit);

#endif
