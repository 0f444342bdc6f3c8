/*
 * report.h - the helpers the two files of the Markdown report share
 * (report.c: the frame, data, primary and secondary tests, BH tables;
 * report-sec.c: the later sections, the interpretation and the methods).
 * Every string from the data goes through bst_md (or bst_md_cell) so that a
 * site_id holding HTML or Markdown prints as text.
 */
#ifndef BSTATS_REPORT_H
#define BSTATS_REPORT_H

#include <stdio.h>
#include <jansson.h>

double rp_num(const json_t *o, const char *k);
const char *rp_str(const json_t *o, const char *k);
int rp_is(const json_t *r, const char *k, const char *v);
int rp_true(const json_t *o, const char *k);
const json_t *rp_find(const json_t *res, const char *group, const char *hyp,
    const char *test);
/* "Wilcoxon signed-rank: W+ = ..., p = ..., Cliff's δ = ..." line. */
void rp_result_line(FILE *fp, const json_t *r);
const char *rp_test_title(const json_t *r);
/* A summary object {n, median, q1, q3, mean} as "median (IQR q1–q3)". */
void rp_median_iqr(FILE *fp, const json_t *sm, int prec, const char *unit);

void rp_clustering(FILE *fp, const json_t *res);
void rp_subgroups(FILE *fp, const json_t *res);
void rp_tokens(FILE *fp, const json_t *res);
void rp_parity(FILE *fp, const json_t *res);
void rp_correlations(FILE *fp, const json_t *res);
void rp_agreement(FILE *fp, const json_t *res);
void rp_conformance(FILE *fp, const json_t *c);
void rp_interpretation(FILE *fp, const json_t *res, double alpha);
void rp_methods(FILE *fp, size_t nboot, unsigned long seed);

#endif
