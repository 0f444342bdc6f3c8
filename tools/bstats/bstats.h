/*
 * bstats.h - the study analysis of bstats: scored records in, test results
 * (NDJSON), a Markdown report, SVG figures with their data as CSV, and an
 * HTML results browser out (spec 001 §6, 000 §4 and §8).
 *
 * THE FILES, in floors: a file calls only files on the floors below it, and
 * a file that calls its siblings exports nothing they call.
 *
 *   main.c          options, then the run: records.c, conformance.c,
 *                   analysis.c, and the outputs report.c, svg.c, html.c;
 *                   or power.c (--power)
 *   power.c         bstats_power: the power of the design by simulation,
 *                   above analysis.c (power.h maps power-sim.c and
 *                   power-out.c)
 *   html.c          bstats_html: the results browser, one self-contained
 *                   page; calls report.c (the report's Markdown), svg.c
 *                   (the figures inline) and the files of html.h:
 *     html-data.c     the page's data: pairs, transcripts, gold terms,
 *                     facts (calls html-compare.c)
 *     html-compare.c  a second run's ratings and the compare view
 *   records.c       bstats_add_record, bstats_free: scored records into
 *                   struct bst_obs, every field checked
 *   conformance.c   bstats_conformance: the findings of bctx check --json
 *   drift.c         bstats_drift: the records of bctx drift (two snapshots)
 *   analysis.c      bstats_analyse, the analysis' driver: runs the
 *                   analyses below in report order, BH by family
 *     pairs.c         pairing and the exclusion accounting (001 §2.5)
 *     accounting.c    where the other tuples went: unpaired, partner
 *                     excluded, lacking a grouping field; raters by kind
 *     groups.c        clustering checks (§6.5), subgroups and follow-ups
 *                     (§6.6), sectors
 *     tokens.c        token analyses and correlations (§2.6, §6.7, §6.8)
 *     parity.c        A<->B parity and its sensitivity analysis (§7.1)
 *     agreement.c     inter-rater reliability (000 §8), specs 002 and 004
 *     reading.c       what each result over all pairs says: direction,
 *                     ties, power floor, opposite test, §6.5 beside it
 *     compare.c       the exploratory comparisons of condition variants
 *                     (issue 30), each in its own BH family, after every
 *                     primary result
 *     paired.c        the §6.2 test of one metric over a set of pairs
 *                     (called by analysis.c, groups.c, parity.c,
 *                     reading.c)
 *     results.c       the result records and their parts (called by
 *                     paired.c and the analyses but pairs.c)
 *   report.c        bstats_report, the report's driver: head and sections
 *     report-tests.c  sections 1-4 (data, hypotheses, BH tables)
 *     report-sec.c    sections 5-9 (clustering to correlations)
 *     report-guide.c  agreement, conformance, methods
 *     report-ablation.c  the exploratory comparisons in words
 *     report-drift.c  the content drift between two snapshots
 *     report-read.c   the §6.10 interpretation and what the data say
 *     report-fmt.c    the primitives of every section
 *   svg.c           bstats_figures: the four figures and their CSV
 *   obs.c           below all of them: a rating's metric values and THE
 *                   SIGN CONVENTION (bst_delta), the order of tuples, the
 *                   natural order of ids, the printed p-value
 *   stats.c         the statistical procedures (stats.h); calls nothing
 *                   of bstats
 *
 * analysis.h and report.h declare what their floors share; this header
 * what main.c, the outputs and the fuzz target use, and obs.c.  Names:
 * bstats_* is the program's interface, bst_* shared inside it, rp_* the
 * report's.  Where new work goes: a new analysis is a file beside groups.c
 * called from bstats_analyse (with its BH family there), built on paired.c
 * and results.c; a new report section is an rp_* function in a report-*.c
 * file called from bstats_report, reading only result records; a new
 * output is a file beside svg.c and html.c called from main.c; work that
 * runs the whole analysis many times (a simulation) sits above analysis.c
 * and calls bstats_analyse, which keeps its state in the study (the only
 * global it touches is GSL's error handler, turned off once by stats.c).
 */
#ifndef BSTATS_BSTATS_H
#define BSTATS_BSTATS_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "progress.h"

/*
 * THE SIGN CONVENTION of every paired difference and effect size bstats
 * reports, defined here once: positive means Condition B (the llms.txt
 * Markdown) is better.  Higher is better for factual accuracy, completeness
 * and citation fidelity, so there Δ = B - A (001 §6.2); lower is better for
 * hallucination counts and input tokens, so there Δ = A - B (001 §6.2's
 * Δ_tokens; 000 §4 writes token deltas as B - A, which this report turns
 * round so that one sign holds everywhere).  Cliff's δ is the mean sign of
 * that Δ, Cohen's d its standardised mean, W+ the rank sum of its positive
 * values.  bst_delta() (obs.c) computes it; BST_SIGN is the sentence the
 * report, the figure captions, the CSV files and the records repeat.
 */
#define BST_SIGN "positive = Condition B better (higher score, fewer " \
	"hallucinations, fewer tokens)"

enum bst_metric { M_ACC, M_HALL, M_TOK, M_COMP, M_CITE };

/* One scored record (one rater's scores of one response).  A 100-times
 * study holds 740,000 of them: pointers first, then the reals, then the
 * small counts and flags in a byte each, so that no padding is left. */
struct bst_obs {
	char *site, *question, *model, *complexity, *tier, *sector, *lm;
	char *family;		/* model_family, or NULL */
	char *rater, *rater_kind, *reason;
	const char *cname;	/* the condition's name ("A", "B", "B-plain") */
	char *fact_eg;		/* the first changed fact, "key: a -> b", or NULL */
	json_t *rec;		/* the whole record, kept for --html only */
	const char *file;
	unsigned long line;
	double tok, reftok;	/* input_token_count, ref_token_count */
	double gold_cov;	/* gold_coverage 0..1, or -1 when absent */
	/* A<->B parity (bctx, issue 16): -1 when absent or null */
	double par_b_in_a, par_a_in_b, par_code_b_in_a, par_code_a_in_b;
	/* fact parity (bctx, issue 28): -1 when absent or null */
	double facts_b_in_a, facts_a_in_b;
	double q, t1, t2;	/* 002 quality_score; 004 tracks 1 and 2 */
	long facts_changed;	/* facts_changed_count (or the list's length) */
	int hc;			/* hallucination_count */
	/* sort keys (bst_keys): the natural rank of site and question, the
	 * byte-order rank of model; 0 when not set */
	unsigned ksite, kquestion, kmodel;
	unsigned char cats;	/* hallucination categories present (bits) */
	char cond;		/* 'A', 'B', or 'V' for a variant condition */
	signed char fa, comp, cf;	/* cf -1: not applicable */
	signed char excluded, has_reftok;
	signed char drift;	/* pair_drift: 1, 0, or -1 when absent or null */
	signed char rubric;	/* BST_R000, BST_R002 or BST_R004 */
	signed char primary;
	signed char self_check;	/* bscore-merge's self_check flag */
};

enum { BST_R000, BST_R002, BST_R004 };

/* A set of strings by content (obs.c): each distinct string once, in v[]
 * in order of first addition; copies owned when own is set, else the
 * first pointer added is kept (borrowed). */
struct bst_strs {
	size_t *slot;		/* open addressing: index in v + 1, 0 empty */
	size_t cap;		/* slots, a power of two */
	const char **v;
	size_t n, capv;
	int own;
};

/* A scored (site, question, model) with both conditions. */
struct bst_pair {
	const struct bst_obs *a, *b;
};

/*
 * A condition other than A and B (issue 30: a variant), as the config
 * declares it or the records name it: its name and the condition it
 * varies (variant_of); strings held by the study's pool.
 */
struct bst_variant {
	const char *name, *of;
};

/* An exploratory comparison X:Y (X minus Y; X takes B's place in the
 * paired machinery, Y A's), its BH family "exploratory X:Y" (owned). */
struct bst_cmp {
	const char *x, *y;
	char *family;
};

struct bst_opts {
	unsigned long seed;	/* bootstrap seed */
	size_t nboot;		/* bootstrap resamples */
	double alpha;		/* significance level (also BH q) */
	double level;		/* confidence level of intervals */
	int keep_records;	/* keep whole records (for --html) */
	int quiet;		/* no progress line (a simulated study) */
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
	json_t *drift;		/* bctx drift's summaries (drift.c), or NULL */
	struct progress boot_progress;	/* the bootstrap intervals, on stderr */
	struct bst_strs pool;	/* the ratings' strings, each once (records.c) */
	/* variant conditions (issue 30): outside the primary analysis */
	struct bst_obs *var;	/* primary ratings of variant conditions */
	size_t nvar, capvar;
	size_t nvar_other;	/* variant ratings not used (not primary, or
				 * under another rubric) */
	struct bst_variant *vars;	/* declared (--config) or seen */
	size_t nvars, capvars;
	int declared;		/* vars come from --config: records must name
				 * one of them */
	struct bst_cmp *cmp;	/* the comparisons (compare.c fills the
				 * default when none is declared) */
	size_t ncmp;
};

/* ------------------------------------------ the program's interface */

/* records.c: take one scored record (borrowed); dies naming file, line and
 * field on an invalid one. */
void bstats_add_record(struct bst_study *s, json_t *rec);
/* conformance.c: read the findings of `bctx check --json` from path into
 * s->conformance; dies naming file, line and field on an invalid one. */
void bstats_conformance(struct bst_study *s, const char *path);
/* drift.c: read the records of `bctx drift` from path into s->drift
 * ({pages, conditions, sites, changed}); dies naming file, line and field
 * on an invalid one, and when the file holds no drift_condition record. */
void bstats_drift(struct bst_study *s, const char *path);
/* analysis.c: pair the ratings and run every analysis into s->results (an
 * array s owns); dies on a second primary rating of a tuple. */
void bstats_analyse(struct bst_study *s);
/* report.c: write the Markdown report of an analysed study. */
void bstats_report(const struct bst_study *s, FILE *fp);
/* svg.c: stage the SVG figures and their CSV data in dir (made when
 * absent) as outputs of the group g, which the caller commits. */
struct atomic_group;
void bstats_figures(const struct bst_study *s, struct atomic_group *g,
    const char *dir);
/* svg.c: the figures one by one (for the browser): name, and the SVG
 * element. */
#define BST_NFIGURES 4
const char *bstats_figure_name(size_t i);
void bstats_figure_svg(const struct bst_study *s, size_t i, FILE *fp);
/* html.c: write the self-contained HTML results browser of s; with other
 * (analysed, its records kept; or NULL), the compare view of the two runs,
 * other named label on the page. */
void bstats_html(const struct bst_study *s, const struct bst_study *other,
    const char *label, FILE *fp);
/* records.c: declare the variant conditions and comparisons of a config
 * (bstats --config), before the records: the strings are copied into the
 * study (cmp's family is ignored); afterwards a record must name A, B or a
 * declared variant, with the declared variant_of. */
void bstats_declare(struct bst_study *s, const struct bst_variant *v,
    size_t nv, const struct bst_cmp *cmp, size_t nc);
/* records.c: release everything s holds. */
void bstats_free(struct bst_study *s);
/* records.c: release what bstats_analyse made (results, exclusions, the
 * index and the pairs), keeping the ratings, so that s can be analysed
 * again. */
void bstats_free_analysis(struct bst_study *s);

/* -------------------------------------------- obs.c: shared by all files */

/* The names of the metrics, by enum bst_metric. */
extern const char *const BST_METRIC_NAME[];
/* The value of metric m of rating o. */
double bst_metric_val(const struct bst_obs *o, enum bst_metric m);
/* Δ of one pair's metric under THE SIGN CONVENTION above. */
double bst_delta(enum bst_metric m, const struct bst_obs *a,
    const struct bst_obs *b);
/* "B − A" or "A − B": how Δ of metric m is formed. */
const char *bst_delta_def(enum bst_metric m);
/* The index in h->v of s (added when new; NULL is ""). */
size_t bst_strs_add(struct bst_strs *h, const char *s);
/* Release h's table (and its strings when owned). */
void bst_strs_free(struct bst_strs *h);
/* Set the sort keys of every rating of s (obs, sec, alt), so that
 * bst_tuple_cmp compares integers: the same order as the strings give. */
void bst_keys(struct bst_study *s);
/* strcmp with NULL as "". */
int bst_cmp_str(const char *a, const char *b);
/* strcmp that orders digit runs by value (T9 before T10); NULL as "". */
int bst_natcmp(const char *a, const char *b);
/* The order of tuples: site and question natural, model, condition. */
int bst_tuple_cmp(const struct bst_obs *a, const struct bst_obs *b);
/* qsort comparator of struct bst_obs pointers: bst_tuple_cmp, then the
 * input line (the order of s->idx). */
int bst_obs_cmp(const void *x, const void *y);
/* Same site, question and model (byte for byte). */
int bst_same_triple(const struct bst_obs *a, const struct bst_obs *b);
/* p as the report and figures print it ("0.0312", "1.23e-05", "< 1e-300")
 * into out[len]; returns out. */
char *bst_fmt_p(double p, char *out, size_t len);

#endif
