/*
 * stats.h - the statistical procedures of bstats (spec 001 §6, 000 §8).
 *
 * Every procedure reproduces a named reference implementation (scipy 1.10,
 * statsmodels 0.13, scikit-learn 1.2: Debian 12's versions; the Wilcoxon
 * test follows scipy >= 1.15, see bst_wilcoxon) so a reviewer can check;
 * the comment on each function names the call it matches.  The committed
 * vectors in tests/bstats/vectors.ndjson (made by tests/bstats/gen-vectors.py)
 * hold the agreement to a relative error of 1e-9 (Shapiro-Wilk: see
 * bst_shapiro).
 *
 * Results come back in struct bst_test.  A procedure that is not defined for
 * its input (too few observations, every difference zero, a constant sample)
 * sets ok = 0 and reason to a static sentence; it never returns NaN.
 * Arrays passed in are not modified and stay owned by the caller.
 */
#ifndef BSTATS_STATS_H
#define BSTATS_STATS_H

#include <stddef.h>

enum bst_alt { BST_TWO_SIDED, BST_GREATER, BST_LESS };
enum bst_method { BST_AUTO, BST_EXACT, BST_APPROX };

struct bst_test {
	int ok;			/* 1: computed; 0: not computable */
	const char *reason;	/* why not computable (static), or NULL */
	double statistic;	/* the test statistic as the reference reports it */
	double p;		/* p-value */
	double z;		/* standardised statistic (approximate methods) */
	double df;		/* degrees of freedom (t, chi-square), else 0 */
	int exact;		/* 1 when the p-value is from the exact distribution */
	int conditional;	/* 1: exact given the observed ties and zeros */
	size_t n;		/* observations the test used */
};

const char *bst_alt_name(enum bst_alt alt);

/* Upper and lower tail of the standard normal, accurate far in the tails
 * (erfc based, as scipy's ndtr). */
double bst_norm_sf(double z);
double bst_norm_cdf(double z);
/* Upper tail of Student's t with df degrees of freedom (incomplete beta,
 * as scipy.special.stdtr(df, -t)). */
double bst_t_sf(double t, double df);
/* Upper tail of chi-square with df degrees of freedom. */
double bst_chi2_sf(double x, double df);

/*
 * Average ranks of x[0..n) (scipy.stats.rankdata, method 'average') into
 * ranks; returns the tie term sum(t^3 - t) over groups of tied values.
 */
double bst_rankdata(const double *x, size_t n, double *ranks);

/* qsort comparator of doubles, ascending. */
int bst_cmp_double(const void *a, const void *b);
/* Sort v[0..n) ascending, stable (what qsort with bst_cmp_double gives),
 * faster. */
void bst_sort_doubles(double *v, size_t n);

/* Quantile q in [0,1] of sorted[0..n) with linear interpolation (numpy's
 * default 'linear' method, R type 7). */
double bst_quantile(const double *sorted, size_t n, double q);

/*
 * Wilcoxon signed-rank test on the paired differences d[0..n) as
 * scipy.stats.wilcoxon(d, zero_method='wilcox', correction=correction,
 * alternative=alt, method=M) of scipy >= 1.15 (Debian 12 ships 1.10, whose
 * 'auto' took the normal approximation whenever there were ties or zeros).
 * Zeros are dropped first.  With BST_AUTO, M is exact when n (zeros
 * included) <= 50: without ties or zeros, the classic distribution of R+
 * (scipy's 'exact'); with ties or zeros, the exact conditional distribution
 * of R+ over the observed midranks, all 2^m sign flips counted (what scipy's
 * 'permutation' samples, and permutation_test(..., n_resamples=inf)
 * enumerates; r->conditional set).  Above n = 50, 'approx': the normal
 * approximation with the tie-corrected variance.  BST_EXACT forces the exact
 * (or conditional) distribution while m <= 62 (64-bit counts), BST_APPROX
 * the approximation.  statistic: min(R+, R-) for two-sided, R+ otherwise;
 * two-sided p = min(1, 2 min(P(R+ <= r), P(R+ >= r))).
 */
void bst_wilcoxon(const double *d, size_t n, enum bst_alt alt, int correction,
    enum bst_method method, struct bst_test *r);

/* Paired t-test on differences d as scipy.stats.ttest_rel(b, a,
 * alternative=alt) with d = b - a: statistic t, df = n - 1. */
void bst_ttest_rel(const double *d, size_t n, enum bst_alt alt,
    struct bst_test *r);

/*
 * Shapiro-Wilk W and p as scipy.stats.shapiro (Royston's algorithm AS R94,
 * scipy's swilk).  scipy runs swilk in single precision; this runs it in
 * double, so W agrees to a few 1e-6 and p to better than 1e-2 relative (the
 * tolerance the vector test holds: |dW| <= 1e-5, |dp| <= 1e-2 p + 1e-5;
 * scipy's single precision 1 - W is the less accurate side at large n).
 * n must be at least 3.  A sample of range zero gives W = 1, p = 1, as
 * scipy 1.10 returns it (with a warning).
 */
void bst_shapiro(const double *x, size_t n, struct bst_test *r);

/*
 * McNemar's test on the discordant counts b (A no, B yes) and c (A yes, B no)
 * as statsmodels.stats.contingency_tables.mcnemar([[., c], [b, .]],
 * exact, correction): exact: statistic min(b, c), p = min(1, 2 *
 * binom.cdf(min, b + c, 0.5)); else chi-square (|b - c| - corr)^2 / (b + c)
 * on 1 df.  No discordant pair: the exact test gives statistic 0, p = 1 as
 * statsmodels does; the chi-square version is not computable (statsmodels
 * divides by zero: statistic inf, p = 0 with the correction, NaN without).
 */
void bst_mcnemar(long b, long c, int exact, int correction, struct bst_test *r);

/* Odds ratio b / c of paired binary data (conditional MLE) with the Wald
 * interval exp(log(b/c) +- z_{1-a/2} sqrt(1/b + 1/c)).  Returns 0 and sets
 * *reason when b or c is zero. */
int bst_paired_or(long b, long c, double level, double *or_, double *lo,
    double *hi, const char **reason);

/* Cliff's delta for paired data as spec 001 §6.9: (#(x>y) - #(x<y)) / n. */
double bst_cliff_paired(const double *x, const double *y, size_t n);

/*
 * Percentile bootstrap interval (numpy.percentile 'linear') of the paired
 * Cliff's delta from its sign counts: nboot resamples of the n pairs with
 * replacement.  The statistic depends on a resample only through the counts
 * of positive, zero and negative pairs, so each resample is drawn as one
 * multinomial(n; npos/n, nzero/n, nneg/n) vector (the exact distribution of
 * those counts under resampling) with GSL's mt19937 seeded with seed.
 */
void bst_cliff_boot(long npos, long nzero, long nneg, unsigned long seed,
    size_t nboot, double level, double *lo, double *hi);

/* Paired Cohen's d (d_z = mean(d) / sd(d), ddof 1) with the normal
 * approximation interval d +- z sqrt(1/n + d^2 / (2n)).  0 when undefined. */
int bst_cohen_d_paired(const double *d, size_t n, double level, double *es,
    double *lo, double *hi, const char **reason);

/* Benjamini-Hochberg adjusted p-values as statsmodels multipletests(p,
 * method='fdr_bh'); adj may alias p. */
void bst_bh(const double *p, size_t n, double *adj);

/* Kruskal-Wallis H over k groups (scipy.stats.kruskal: tie corrected, chi2
 * on k - 1 df).  groups[i] has sizes[i] values. */
void bst_kruskal(const double *const *groups, const size_t *sizes, size_t k,
    struct bst_test *r);

/*
 * Mann-Whitney U as scipy.stats.mannwhitneyu(x, y, use_continuity,
 * alternative, method): statistic U1 of x.  BST_AUTO: exact when either
 * sample has at most 8 values and there are no ties, else asymptotic with
 * the tie-corrected variance.  The exact distribution is counted in 128-bit
 * integers (Gaussian binomial coefficients), so it is exact, not rounded;
 * BST_EXACT falls back to the approximation when the smaller sample has
 * more than 64 values or the table would be very large.  Every value tied:
 * the variance is zero and scipy's z is -inf, so p = 1 (U1 = nx ny / 2).
 */
void bst_mannwhitney(const double *x, size_t nx, const double *y, size_t ny,
    enum bst_alt alt, int continuity, enum bst_method method,
    struct bst_test *r);

/* Spearman's rho and p as scipy.stats.spearmanr(x, y, alternative=alt)
 * (t distribution on n - 2 df).  statistic: rho. */
void bst_spearman(const double *x, const double *y, size_t n, enum bst_alt alt,
    struct bst_test *r);

enum bst_kappa_weights { BST_KAPPA_NONE, BST_KAPPA_LINEAR, BST_KAPPA_QUADRATIC };
/*
 * Cohen's kappa as sklearn.metrics.cohen_kappa_score(y1, y2, labels=labels,
 * weights=w).  labels: the categories in order (nlabels of them), or NULL
 * for the sorted union of observed values.  Items whose value is not among
 * the labels are ignored (as sklearn's confusion matrix does).  statistic:
 * kappa; a rater who gives one value to every item while the other does not
 * gives kappa 0 (as sklearn); not computable when the expected weighted
 * disagreement is zero (both raters constant: sklearn returns NaN).
 */
void bst_kappa(const double *y1, const double *y2, size_t n,
    const double *labels, size_t nlabels, enum bst_kappa_weights w,
    struct bst_test *r);

#endif
