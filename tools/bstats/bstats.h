/*
 * bstats.h - the study analysis of bstats: scored records in, test results
 * (NDJSON), a Markdown report and SVG figures out (spec 001 §6, 000 §8).
 */
#ifndef BSTATS_BSTATS_H
#define BSTATS_BSTATS_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* One scored record (one rater's scores of one response). */
struct bst_obs {
	char *site, *question, *model, *complexity, *tier, *sector, *lm;
	char *rater, *rater_kind, *reason;
	char cond;		/* 'A' or 'B' */
	int excluded;
	int fa, hc, comp, cf;	/* cf -1: not applicable */
	unsigned cats;		/* hallucination categories present (bits) */
	double tok, reftok;	/* input_token_count, ref_token_count */
	int has_reftok;
	int rubric;		/* BST_R000, BST_R002 or BST_R004 */
	int primary;
	int self_check;		/* bscore-merge's self_check flag */
	double q, t1, t2;	/* 002 quality_score; 004 tracks 1 and 2 */
	const char *file;
	unsigned long line;
};

enum { BST_R000, BST_R002, BST_R004 };

/* A scored (site, question, model) with both conditions. */
struct bst_pair {
	const struct bst_obs *a, *b;
};

struct bst_opts {
	unsigned long seed;	/* bootstrap seed */
	size_t nboot;		/* bootstrap resamples */
	double alpha;		/* significance level (also BH q) */
	double level;		/* confidence level of intervals */
};

struct bst_study {
	struct bst_opts opt;
	struct bst_obs *obs;	/* primary ratings */
	size_t nobs, capobs;
	struct bst_obs *sec;	/* other ratings (second rater, self-check, judge) */
	size_t nsec, capsec;
	struct bst_obs *alt;	/* ratings under the 002 and 004 rubrics */
	size_t nalt, capalt;
	struct bst_pair *pairs;
	size_t npairs;
	json_t *results;	/* array of result records, in report order */
	json_t *exclusions;	/* exclusion accounting (object) */
};

/* Take one scored record (borrowed); dies on invalid fields. */
void bstats_add_record(struct bst_study *s, const json_t *rec);
/* Pair the ratings and run every analysis into s->results. */
void bstats_analyse(struct bst_study *s);
/* Write the Markdown report. */
void bstats_report(const struct bst_study *s, FILE *fp);
/* Write the SVG figures into dir (created). */
void bstats_figures(const struct bst_study *s, const char *dir);
void bstats_free(struct bst_study *s);

/* helpers shared by the analysis, report and figure files */
const char *bstats_magnitude(const char *measure, double v);
char *bstats_fmt_p(double p, char *out, size_t len);

#endif
