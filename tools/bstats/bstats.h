/*
 * bstats.h - the study analysis of bstats: scored records in, test results
 * (NDJSON), a Markdown report, SVG figures with their data as CSV, and an
 * HTML results browser out (spec 001 §6, 000 §4 and §8).
 *
 * Files: records.c takes the scored records in; analysis.c pairs them, runs
 * the primary and secondary tests and the BH adjustment; groups.c the
 * clustering checks and subgroups; tokens.c the token analyses and the
 * correlations; agreement.c inter-rater reliability; parity.c the A<->B
 * content parity and its sensitivity analysis; conformance.c the corpus
 * conformance findings of `bctx check --json`; report.c and report-sec.c
 * the Markdown report; svg.c the figures; html.c the results browser.
 */
#ifndef BSTATS_BSTATS_H
#define BSTATS_BSTATS_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/*
 * THE SIGN CONVENTION of every paired difference and effect size bstats
 * reports, defined here once: positive means Condition B (the llms.txt
 * Markdown) is better.  Higher is better for factual accuracy, completeness
 * and citation fidelity, so there Δ = B - A (001 §6.2); lower is better for
 * hallucination counts and input tokens, so there Δ = A - B (001 §6.2's
 * Δ_tokens; 000 §4 writes token deltas as B - A, which this report turns
 * round so that one sign holds everywhere).  Cliff's δ is the mean sign of
 * that Δ, Cohen's d its standardised mean, W+ the rank sum of its positive
 * values.  bst_delta() computes it; BST_SIGN is the sentence the report,
 * the figure captions, the CSV files and the records repeat.
 */
#define BST_SIGN "positive = Condition B better (higher score, fewer " \
	"hallucinations, fewer tokens)"

enum bst_metric { M_ACC, M_HALL, M_TOK, M_COMP, M_CITE };

/* One scored record (one rater's scores of one response). */
struct bst_obs {
	char *site, *question, *model, *complexity, *tier, *sector, *lm;
	char *family;		/* model_family, or NULL */
	char *rater, *rater_kind, *reason;
	char cond;		/* 'A' or 'B' */
	int excluded;
	int fa, hc, comp, cf;	/* cf -1: not applicable */
	unsigned cats;		/* hallucination categories present (bits) */
	double tok, reftok;	/* input_token_count, ref_token_count */
	int has_reftok;
	double gold_cov;	/* gold_coverage 0..1, or -1 when absent */
	/* A<->B parity (bctx, issue 16): -1 when absent or null */
	double par_b_in_a, par_a_in_b, par_code_b_in_a, par_code_a_in_b;
	int drift;		/* pair_drift: 1, 0, or -1 when absent or null */
	int rubric;		/* BST_R000, BST_R002 or BST_R004 */
	int primary;
	int self_check;		/* bscore-merge's self_check flag */
	double q, t1, t2;	/* 002 quality_score; 004 tracks 1 and 2 */
	json_t *rec;		/* the whole record, kept for --html only */
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
	int keep_records;	/* keep whole records (for --html) */
};

struct bst_study {
	struct bst_opts opt;
	struct bst_obs *obs;	/* primary ratings */
	size_t nobs, capobs;
	struct bst_obs *sec;	/* other ratings (second rater, self-check, judge) */
	size_t nsec, capsec;
	struct bst_obs *alt;	/* ratings under the 002 and 004 rubrics */
	size_t nalt, capalt;
	const struct bst_obs **idx;	/* primary ratings sorted by tuple */
	struct bst_pair *pairs;
	size_t npairs;
	json_t *results;	/* array of result records, in report order */
	json_t *exclusions;	/* exclusion accounting (object) */
	json_t *conformance;	/* corpus conformance summary, or NULL */
};

/* Take one scored record (borrowed); dies on invalid fields. */
void bstats_add_record(struct bst_study *s, json_t *rec);
/* Read the findings of `bctx check --json` from path into s->conformance. */
void bstats_conformance(struct bst_study *s, const char *path);
/* Pair the ratings and run every analysis into s->results. */
void bstats_analyse(struct bst_study *s);
/* Write the Markdown report. */
void bstats_report(const struct bst_study *s, FILE *fp);
/* Write the SVG figures and their CSV data into dir (created). */
void bstats_figures(const struct bst_study *s, const char *dir);
/* The figures one by one (for the browser): name, and the SVG element. */
#define BST_NFIGURES 4
const char *bstats_figure_name(size_t i);
void bstats_figure_svg(const struct bst_study *s, size_t i, FILE *fp);
/* Write the self-contained HTML results browser. */
void bstats_html(const struct bst_study *s, FILE *fp);
void bstats_free(struct bst_study *s);

/* ------------------------------------------------ shared by the files */

/* Δ of one pair's metric under THE SIGN CONVENTION above. */
double bst_delta(enum bst_metric m, const struct bst_obs *a,
    const struct bst_obs *b);
double bst_metric_val(const struct bst_obs *o, enum bst_metric m);
extern const char *const BST_METRIC_NAME[];
/* "B − A" or "A − B": how Δ of metric m is formed. */
const char *bst_delta_def(enum bst_metric m);

const char *bstats_magnitude(const char *measure, double v);
char *bstats_fmt_p(double p, char *out, size_t len);
/* strcmp that orders digit runs by value (T9 before T10); NULL as "". */
int bstats_natcmp(const char *a, const char *b);
int bstats_cmp_str(const char *a, const char *b);

/* Result records (analysis.c). */
json_t *bst_res_new(struct bst_study *s, const char *test, const char *group,
    const char *hyp, const char *family, const char *metric,
    const char *subset);
struct bst_test;
void bst_res_test(json_t *r, const struct bst_test *t, const char *statname,
    int alt, int has_alt);
void bst_res_effect(json_t *r, const char *measure, int ok, double v,
    double lo, double hi, double level, const char *why);
void bst_res_note(json_t *r, const char *note);
json_t *bst_summary(const double *v, size_t n, int freq);
void bst_cliff_effect(struct bst_study *s, json_t *r, const double *d,
    size_t n);

/* Which pairs a test uses: NULL for all. */
typedef int (*bst_pair_filter)(const struct bst_pair *p, const void *arg);
/* The oriented Δ of metric m over the pairs passing f (caller frees). */
size_t bst_collect(const struct bst_study *s, enum bst_metric m,
    bst_pair_filter f, const void *arg, double **bv, double **av,
    double **dv);
/* The §6.2 test of metric m over the pairs passing f; its result record. */
json_t *bst_metric_test(struct bst_study *s, enum bst_metric m,
    bst_pair_filter f, const void *arg, const char *group, const char *hyp,
    const char *family, const char *subset);
/* BH within one family (adj <= alpha rejects, as statsmodels). */
void bst_adjust(struct bst_study *s, const char *family);

/* The analyses in the other files. */
void bst_clustering(struct bst_study *s);
void bst_subgroup(struct bst_study *s, int which, const char *hyp,
    const char *family, const char *label);
void bst_followups(struct bst_study *s, int which, const char *hyp,
    const char *label);
void bst_sectors(struct bst_study *s);
void bst_token_sites(struct bst_study *s);
void bst_token_models(struct bst_study *s);
void bst_correlations(struct bst_study *s);
void bst_agreement(struct bst_study *s);
void bst_rubric_agreement(struct bst_study *s);
void bst_parity(struct bst_study *s);

/* Markdown: s with |, *, _, `, [, ], <, >, &, #, \ escaped (report.c). */
void bst_md(FILE *fp, const char *s);

#endif
