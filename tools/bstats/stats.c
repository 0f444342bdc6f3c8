/*
 * stats.c - the statistical procedures of bstats.  Each function names the
 * reference call it reproduces (see stats.h); GSL provides the special
 * functions (incomplete beta and gamma, normal quantile, RNG), and the tails
 * GSL's cdf functions approximate (Student's t for df > 30 uses a
 * Cornish-Fisher expansion there) are computed from the special functions
 * directly.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "err.h"
#include "stats.h"

static void
gsl_off(void)
{
	gsl_set_error_handler_off();
}

/* GSL's error handler is its one global: turned off once, also when
 * simulated studies are analysed on several threads (power.c). */
static void
gsl_quiet(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, gsl_off);
}

static void
not_computable(struct bst_test *r, size_t n, const char *why)
{
	memset(r, 0, sizeof *r);
	r->ok = 0;
	r->reason = why;
	r->n = n;
}

static void
result_init(struct bst_test *r, size_t n)
{
	memset(r, 0, sizeof *r);
	r->ok = 1;
	r->n = n;
}

const char *
bst_alt_name(enum bst_alt alt)
{
	switch (alt) {
	case BST_GREATER: return "greater";
	case BST_LESS: return "less";
	default: return "two-sided";
	}
}

/* ---------------------------------------------------------- distributions */

double
bst_norm_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

double
bst_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Regularised incomplete beta I_x(a, b) with GSL errors turned into limits. */
static double
beta_inc(double a, double b, double x)
{
	gsl_sf_result res;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	gsl_quiet();
	if (gsl_sf_beta_inc_e(a, b, x, &res) != GSL_SUCCESS)
		return res.val > 0 ? res.val : 0;
	return res.val;
}

/*
 * P(T > t) for Student's t: 0.5 * I_{df/(df+t^2)}(df/2, 1/2) for t > 0, the
 * formula of cephes' stdtr that scipy uses (GSL's beta_inc picks the
 * accurate side of the symmetry itself).
 */
double
bst_t_sf(double t, double df)
{
	double t2, tail;

	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	if (t == 0)
		return 0.5;
	t2 = t * t;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t2));
	return t > 0 ? tail : 1.0 - tail;
}

double
bst_chi2_sf(double x, double df)
{
	gsl_sf_result res;

	if (x <= 0)
		return 1.0;
	if (df == 1)
		return erfc(sqrt(x / 2));
	if (df == 2)
		return exp(-x / 2);
	gsl_quiet();
	if (gsl_sf_gamma_inc_Q_e(df / 2, x / 2, &res) != GSL_SUCCESS)
		return res.val > 0 ? res.val : 0;
	return res.val;
}

/* The p-value of t on df degrees of freedom under the alternative. */
static double
t_p(double t, double df, enum bst_alt alt)
{
	if (alt == BST_TWO_SIDED)
		return 2 * bst_t_sf(fabs(t), df);
	if (alt == BST_GREATER)
		return bst_t_sf(t, df);
	return bst_t_sf(-t, df);
}

/* ----------------------------------------------------------------- ranks */

struct idx_val { double v; size_t i; };

/*
 * Stable bottom-up merge sorts, ascending: the comparison inlined instead
 * of qsort's call per comparison (the analysis sorts samples of up to
 * 286,000 values many times, and a simulated study all of them again).
 * Stable as glibc's qsort merge sort is, so equal values (0 and -0) keep
 * their order and the results do not change.
 */
#define MERGE_SORT(name, type, less)					\
static void								\
name(type *v, size_t n)							\
{									\
	type *tmp, *src = v, *dst;					\
	size_t w, i;							\
									\
	if (n < 2)							\
		return;							\
	tmp = xreallocarray(NULL, n, sizeof *tmp);			\
	dst = tmp;							\
	for (w = 1; w < n; w *= 2) {					\
		type *t;						\
									\
		for (i = 0; i < n; i += 2 * w) {			\
			size_t a = i, am = i + w < n ? i + w : n, b = am; \
			size_t bm = i + 2 * w < n ? i + 2 * w : n, k = i; \
									\
			while (a < am && b < bm)			\
				dst[k++] = less(src[b], src[a]) ?	\
				    src[b++] : src[a++];		\
			while (a < am)					\
				dst[k++] = src[a++];			\
			while (b < bm)					\
				dst[k++] = src[b++];			\
		}							\
		t = src;						\
		src = dst;						\
		dst = t;						\
	}								\
	if (src != v)							\
		memcpy(v, src, n * sizeof *v);				\
	free(tmp);							\
}

#define LESS_DOUBLE(x, y) ((x) < (y))
#define LESS_IV(x, y) ((x).v < (y).v || ((x).v == (y).v && (x).i < (y).i))
MERGE_SORT(sort_iv, struct idx_val, LESS_IV)
MERGE_SORT(sort_doubles, double, LESS_DOUBLE)

void
bst_sort_doubles(double *v, size_t n)
{
	sort_doubles(v, n);
}

double
bst_rankdata(const double *x, size_t n, double *ranks)
{
	struct idx_val *iv = xreallocarray(NULL, n ? n : 1, sizeof *iv);
	double tie = 0;
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		iv[i].v = x[i];
		iv[i].i = i;
	}
	sort_iv(iv, n);
	for (i = 0; i < n; i = j) {
		double avg, t;

		for (j = i + 1; j < n && iv[j].v == iv[i].v; j++)
			;
		/* ranks i+1 .. j averaged */
		avg = ((double)(i + 1) + (double)j) / 2.0;
		for (k = i; k < j; k++)
			ranks[iv[k].i] = avg;
		t = (double)(j - i);
		tie += t * t * t - t;
	}
	free(iv);
	return tie;
}

double
bst_quantile(const double *s, size_t n, double q)
{
	double h, frac;
	size_t lo;

	assert(n > 0);
	if (n == 1)
		return s[0];
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return s[n - 1];
	frac = h - (double)lo;
	/* numpy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) for t >= 0.5 */
	if (frac >= 0.5)
		return s[lo + 1] - (s[lo + 1] - s[lo]) * (1.0 - frac);
	return s[lo] + (s[lo + 1] - s[lo]) * frac;
}

/* -------------------------------------------------------------- Wilcoxon */

/*
 * Number of subsets of {1..n} with each rank sum s (0 <= s <= n(n+1)/2):
 * the null distribution of R+ times 2^n.  n <= 62 keeps it in 64 bits.
 */
static uint64_t *
signrank_counts(size_t n, size_t *len)
{
	size_t top = n * (n + 1) / 2, i, s;
	uint64_t *c = xcalloc(top + 1, sizeof *c);

	c[0] = 1;
	for (i = 1; i <= n; i++)
		for (s = i * (i + 1) / 2; s >= i; s--)
			c[s] += c[s - i];
	*len = top + 1;
	return c;
}

int
bst_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Counts of the sign-flip distribution of R+ given the ranks (scaled by 2, so
 * midranks are integers): c[s] is the number of the 2^m sign assignments
 * whose doubled positive rank sum is s.  This is the exact conditional
 * (permutation) distribution of scipy >= 1.15's method 'permutation', with
 * every one of the 2^m assignments counted instead of sampled.  m <= 62 keeps
 * the counts in 64 bits.
 */
static uint64_t *
signrank_counts_tied(const double *ranks, size_t m, size_t *len)
{
	size_t top = 0, i, s, hi = 0;
	uint64_t *c;

	for (i = 0; i < m; i++)
		top += (size_t)llround(2 * ranks[i]);
	c = xcalloc(top + 1, sizeof *c);
	c[0] = 1;
	for (i = 0; i < m; i++) {
		size_t r2 = (size_t)llround(2 * ranks[i]);

		assert(r2 >= 1 && hi + r2 <= top);
		hi += r2;
		for (s = hi; s >= r2; s--)
			c[s] += c[s - r2];
	}
	*len = top + 1;
	return c;
}

/* p-value of the observed rank sum obs from the counts c[0..len) over total. */
static double
signrank_p(const uint64_t *c, size_t len, size_t obs, long double total,
    enum bst_alt alt)
{
	long double le = 0, ge = 0, p;
	size_t s;

	for (s = 0; s < len; s++) {
		if (s <= obs)
			le += (long double)c[s];
		if (s >= obs)
			ge += (long double)c[s];
	}
	if (alt == BST_TWO_SIDED)
		p = 2 * fminl(le, ge) / total;
	else if (alt == BST_GREATER)
		p = ge / total;
	else
		p = le / total;
	return (double)fminl(p, 1.0L);
}

/* The normal approximation of scipy's method 'approx' (tie-corrected). */
static void
signrank_approx(double T, double dm, double tie, enum bst_alt alt,
    int correction, struct bst_test *r)
{
	double mn = dm * (dm + 1) * 0.25;
	double se = dm * (dm + 1) * (2 * dm + 1);
	double cc = 0, z;

	se -= 0.5 * tie;
	se = sqrt(se / 24);
	if (correction) {
		if (alt == BST_TWO_SIDED)
			cc = 0.5 * (T > mn ? 1 : T < mn ? -1 : 0);
		else if (alt == BST_LESS)
			cc = -0.5;
		else
			cc = 0.5;
	}
	z = (T - mn - cc) / se;
	r->z = z;
	if (alt == BST_TWO_SIDED)
		r->p = 2 * bst_norm_sf(fabs(z));
	else if (alt == BST_GREATER)
		r->p = bst_norm_sf(z);
	else
		r->p = bst_norm_cdf(z);
}

void
bst_wilcoxon(const double *d, size_t n, enum bst_alt alt, int correction,
    enum bst_method method, struct bst_test *r)
{
	double *nz, *absd, *ranks, rplus = 0, rminus = 0, tie;
	size_t i, m = 0, nzero = 0;
	int exact, untied;

	if (n == 0) {
		not_computable(r, 0, "no pairs");
		return;
	}
	for (i = 0; i < n; i++)
		if (d[i] == 0)
			nzero++;
	if (nzero == n) {
		not_computable(r, n, "every paired difference is zero");
		return;
	}
	nz = xreallocarray(NULL, n, sizeof *nz);
	for (i = 0; i < n; i++)
		if (d[i] != 0)
			nz[m++] = d[i];
	absd = xreallocarray(NULL, m, sizeof *absd);
	ranks = xreallocarray(NULL, m, sizeof *ranks);
	for (i = 0; i < m; i++)
		absd[i] = fabs(nz[i]);
	tie = bst_rankdata(absd, m, ranks);
	for (i = 0; i < m; i++) {
		if (nz[i] > 0)
			rplus += ranks[i];
		else
			rminus += ranks[i];
	}
	untied = nzero == 0 && tie == 0;
	/* scipy >= 1.15 'auto': n (zeros included) <= 50; 64-bit counts: m <= 62 */
	if (method == BST_AUTO)
		exact = n <= 50;
	else
		exact = method == BST_EXACT && m <= 62;
	result_init(r, m);
	r->statistic = alt == BST_TWO_SIDED ? fmin(rplus, rminus) : rplus;
	r->exact = exact;
	r->conditional = exact && !untied;
	if (exact) {
		size_t len;
		uint64_t *c = untied ? signrank_counts(m, &len) :
		    signrank_counts_tied(ranks, m, &len);
		size_t obs = untied ? (size_t)rplus : (size_t)llround(2 * rplus);

		assert(obs < len);
		r->p = signrank_p(c, len, obs, ldexpl(1.0L, (int)m), alt);
		free(c);
	} else {
		signrank_approx(r->statistic, (double)m, tie, alt, correction, r);
	}
	free(nz);
	free(absd);
	free(ranks);
}

/* ---------------------------------------------------------------- t-test */

static void
mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

void
bst_ttest_rel(const double *d, size_t n, enum bst_alt alt,
    struct bst_test *r)
{
	double mean, sd, t, df;

	if (n < 2) {
		not_computable(r, n, "fewer than 2 pairs");
		return;
	}
	mean_sd(d, n, &mean, &sd);
	if (sd == 0) {
		not_computable(r, n, "the paired differences are all equal, "
		    "zero variance");
		return;
	}
	df = (double)(n - 1);
	t = mean / (sd / sqrt((double)n));
	result_init(r, n);
	r->statistic = t;
	r->df = df;
	r->p = t_p(t, df, alt);
}

/* --------------------------------------------------------- Shapiro-Wilk */

/* Algorithm AS 181.2: c[0] + c[1] x + ... + c[nord-1] x^(nord-1). */
static double
sw_poly(const double *c, int nord, double x)
{
	double res = c[0], p;
	int j;

	if (nord > 1) {
		p = x * c[nord - 1];
		for (j = nord - 2; j > 0; j--)
			p = (p + c[j]) * x;
		res += p;
	}
	return res;
}

/*
 * Royston (1995), Algorithm AS R94, Appl. Statist. 44(4) 547-551, for a
 * complete sample, in its three steps: the coefficients a[] from normal
 * scores (sw_coefficients), W as the squared correlation of the sorted
 * sample with the antisymmetric coefficient vector (sw_one_minus_w), and
 * the normalising transformations of 1 - W for the p-value (sw_p).  The
 * polynomial constants are the algorithm's single precision ones (as
 * scipy's Fortran swilk holds them).
 */

/* The coefficients a[1..n/2] for a sample of n >= 3 (a new array of n/2 +
 * 1 the caller frees; a[0] unused). */
static double *
sw_coefficients(size_t n)
{
	static const double c1[6] = { 0.0f, 0.221157f, -0.147981f, -2.07119f,
	    4.434685f, -2.706056f };
	static const double c2[6] = { 0.0f, 0.042981f, -0.293762f, -1.752461f,
	    5.682633f, -3.582633f };
	double *a, an = (double)n, an25 = an + 0.25, summ2 = 0, ssumm2, rsn, a1,
	    a2, fac;
	size_t i, i1, nn2 = n / 2;

	a = xcalloc(nn2 + 1, sizeof *a);	/* 1-based a[1..nn2] */
	if (n == 3) {
		a[1] = 0.70710678f;
		return a;
	}
	for (i = 1; i <= nn2; i++) {
		a[i] = gsl_cdf_ugaussian_Pinv(((double)i - 0.375f) / an25);
		summ2 += a[i] * a[i];
	}
	summ2 *= 2;
	ssumm2 = sqrt(summ2);
	rsn = 1.0 / sqrt(an);
	a1 = sw_poly(c1, 6, rsn) - a[1] / ssumm2;
	if (n > 5) {
		i1 = 3;
		a2 = -a[2] / ssumm2 + sw_poly(c2, 6, rsn);
		fac = sqrt((summ2 - 2 * (a[1] * a[1]) - 2 * (a[2] * a[2]))
		    / (1 - 2 * (a1 * a1) - 2 * (a2 * a2)));
		a[2] = a2;
	} else {
		i1 = 2;
		fac = sqrt((summ2 - 2 * (a[1] * a[1]))
		    / (1 - 2 * (a1 * a1)));
	}
	a[1] = a1;
	for (i = i1; i <= nn2; i++)
		a[i] /= -fac;
	return a;
}

/* 1 - W of the sorted, median-centred sample y[0..n) of the given range
 * (> 0) with the coefficients a, computed so as to keep precision for W
 * near 1. */
static double
sw_one_minus_w(const double *y, size_t n, double range, const double *a)
{
	double *c = xcalloc(n, sizeof *c), an = (double)n, sa = 0, sx = 0,
	    ssa = 0, ssx = 0, sax = 0, ssassx;
	size_t i, nn2 = n / 2;

	/* the full antisymmetric coefficient vector over the sorted sample */
	for (i = 0; i < nn2; i++) {
		c[i] = -a[i + 1];
		c[n - 1 - i] = a[i + 1];
	}
	for (i = 0; i < n; i++) {
		sa += c[i];
		sx += y[i] / range;
	}
	sa /= an;
	sx /= an;
	for (i = 0; i < n; i++) {
		double asa = c[i] - sa, xsx = y[i] / range - sx;

		ssa += asa * asa;
		ssx += xsx * xsx;
		sax += asa * xsx;
	}
	free(c);
	ssassx = sqrt(ssa * ssx);
	return (ssassx - sax) * (ssassx + sax) / (ssa * ssx);
}

/* The p-value of W = 1 - w1 for a sample of n. */
static double
sw_p(double w1, size_t n)
{
	static const double c3[4] = { 0.544f, -0.39978f, 0.025054f, -6.714e-4f };
	static const double c4[4] = { 1.3822f, -0.77857f, 0.062767f, -0.0020322f };
	static const double c5[4] = { -1.5861f, -0.31082f, -0.083751f, 0.0038915f };
	static const double c6[3] = { -0.4803f, -0.082676f, 0.0030302f };
	static const double g[2] = { -2.273f, 0.459f };
	double w = 1 - w1, an = (double)n, yv, m, sd, pw;

	if (n == 3) {
		pw = 1.90985931710274 * (asin(sqrt(w)) - 1.04719755119660);
		return pw < 0 ? 0 : pw;
	}
	yv = log(w1);
	if (n <= 11) {
		double gamma = sw_poly(g, 2, an);

		if (yv >= gamma)
			return 1e-19;	/* AS R94's SMALL */
		yv = -log(gamma - yv);
		m = sw_poly(c3, 4, an);
		sd = exp(sw_poly(c4, 4, an));
	} else {
		double lx = log(an);

		m = sw_poly(c5, 4, lx);
		sd = exp(sw_poly(c6, 3, lx));
	}
	return bst_norm_sf((yv - m) / sd);
}

void
bst_shapiro(const double *x, size_t n, struct bst_test *r)
{
	double *y, *a, med, range, w1;
	size_t i;

	if (n < 3) {
		not_computable(r, n, "fewer than 3 observations");
		return;
	}
	y = xreallocarray(NULL, n, sizeof *y);
	memcpy(y, x, n * sizeof *y);
	sort_doubles(y, n);
	med = bst_quantile(y, n, 0.5);
	for (i = 0; i < n; i++)
		y[i] -= med;	/* scipy.stats.shapiro centres on the median */
	range = y[n - 1] - y[0];
	if (range < 1e-19) {	/* scipy 1.10: W = 1, p = 1 (with a warning) */
		free(y);
		result_init(r, n);
		r->statistic = 1;
		r->p = 1;
		return;
	}
	a = sw_coefficients(n);
	w1 = sw_one_minus_w(y, n, range, a);
	result_init(r, n);
	r->statistic = 1 - w1;
	r->p = sw_p(w1, n);
	free(a);
	free(y);
}

/* --------------------------------------------------------------- McNemar */

/* P(X <= k) for X ~ Binomial(n, 1/2), summed from the largest term down. */
static double
binom_half_cdf(long k, long n)
{
	double term, sum;
	long i;

	if (k >= n)
		return 1.0;
	gsl_quiet();
	term = exp(gsl_sf_lnchoose((unsigned)n, (unsigned)k) - (double)n * M_LN2);
	sum = term;
	for (i = k; i > 0; i--) {
		term *= (double)i / (double)(n - i + 1);
		sum += term;
		if (term < sum * 1e-18)
			break;
	}
	return sum;
}

void
bst_mcnemar(long b, long c, int exact, int correction, struct bst_test *r)
{
	long n = b + c;

	assert(b >= 0 && c >= 0);
	if (n == 0 && !exact) {
		not_computable(r, 0, "no discordant pairs, so the chi-square "
		    "statistic divides by zero; statsmodels returns an infinite "
		    "statistic and p = 0");
		return;
	}
	result_init(r, (size_t)n);
	r->exact = exact;
	if (exact) {
		long k = b < c ? b : c;

		r->statistic = (double)k;
		r->p = fmin(1.0, 2 * binom_half_cdf(k, n));
	} else {
		double diff = fabs((double)(b - c)) - (correction ? 1 : 0);

		r->statistic = diff * diff / (double)n;
		r->df = 1;
		r->p = bst_chi2_sf(r->statistic, 1);
	}
}

int
bst_paired_or(long b, long c, double level, double *or_, double *lo,
    double *hi, const char **reason)
{
	double z, se, l;

	if (b <= 0 || c <= 0) {
		*reason = b <= 0 && c <= 0 ? "no discordant pairs" :
		    "a discordant cell is zero, so the odds ratio is 0 or infinite";
		return 0;
	}
	z = gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2);
	l = log((double)b / (double)c);
	se = sqrt(1.0 / (double)b + 1.0 / (double)c);
	*or_ = (double)b / (double)c;
	*lo = exp(l - z * se);
	*hi = exp(l + z * se);
	return 1;
}

/* ------------------------------------------------------------ effect sizes */

double
bst_cliff_paired(const double *x, const double *y, size_t n)
{
	long dom = 0;
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		dom += x[i] > y[i] ? 1 : x[i] < y[i] ? -1 : 0;
	return (double)dom / (double)n;
}

void
bst_cliff_boot(long npos, long nzero, long nneg, unsigned long seed,
    size_t nboot, double level, double *lo, double *hi)
{
	long n = npos + nzero + nneg;
	double p[3], *stat;
	unsigned int cnt[3];
	gsl_rng *rng;
	size_t b;

	if (n <= 0 || nboot == 0) {
		*lo = *hi = 0;
		return;
	}
	p[0] = (double)npos;
	p[1] = (double)nzero;
	p[2] = (double)nneg;
	gsl_quiet();
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		die("cannot allocate the random number generator");
	gsl_rng_set(rng, seed);
	stat = xreallocarray(NULL, nboot, sizeof *stat);
	for (b = 0; b < nboot; b++) {
		gsl_ran_multinomial(rng, 3, (unsigned)n, p, cnt);
		stat[b] = ((double)cnt[0] - (double)cnt[2]) / (double)n;
	}
	sort_doubles(stat, nboot);
	*lo = bst_quantile(stat, nboot, (1 - level) / 2);
	*hi = bst_quantile(stat, nboot, 1 - (1 - level) / 2);
	free(stat);
	gsl_rng_free(rng);
}

int
bst_cohen_d_paired(const double *d, size_t n, double level, double *es,
    double *lo, double *hi, const char **reason)
{
	double mean, sd, z, se;

	if (n < 2) {
		*reason = "fewer than 2 pairs";
		return 0;
	}
	mean_sd(d, n, &mean, &sd);
	if (sd == 0) {
		*reason = "the paired differences are all equal, zero variance";
		return 0;
	}
	*es = mean / sd;
	z = gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2);
	se = sqrt(1.0 / (double)n + (*es) * (*es) / (2.0 * (double)n));
	*lo = *es - z * se;
	*hi = *es + z * se;
	return 1;
}

/* -------------------------------------------------------------------- BH */

void
bst_bh(const double *p, size_t n, double *adj)
{
	struct idx_val *iv;
	double run = INFINITY;
	size_t k;

	if (n == 0)
		return;
	iv = xreallocarray(NULL, n, sizeof *iv);
	for (k = 0; k < n; k++) {
		iv[k].v = p[k];
		iv[k].i = k;
	}
	sort_iv(iv, n);
	for (k = n; k-- > 0;) {
		double v = iv[k].v * (double)n / (double)(k + 1);

		if (v < run)
			run = v;
		adj[iv[k].i] = run > 1 ? 1 : run;
	}
	free(iv);
}

/* -------------------------------------------------------- Kruskal-Wallis */

void
bst_kruskal(const double *const *groups, const size_t *sizes, size_t k,
    struct bst_test *r)
{
	size_t total = 0, i, j, off;
	double *all, *ranks, tie, tc, ssbn = 0, h, tn;

	for (i = 0; i < k; i++)
		total += sizes[i];
	if (k < 2) {
		not_computable(r, total, "fewer than 2 groups");
		return;
	}
	for (i = 0; i < k; i++)
		if (sizes[i] == 0) {
			not_computable(r, total, "a group is empty");
			return;
		}
	all = xreallocarray(NULL, total, sizeof *all);
	ranks = xreallocarray(NULL, total, sizeof *ranks);
	for (i = 0, off = 0; i < k; i++)
		for (j = 0; j < sizes[i]; j++)
			all[off++] = groups[i][j];
	tie = bst_rankdata(all, total, ranks);
	tn = (double)total;
	tc = total < 2 ? 1.0 : 1.0 - tie / (tn * tn * tn - tn);
	if (tc == 0) {
		free(all);
		free(ranks);
		not_computable(r, total, "all values are identical");
		return;
	}
	for (i = 0, off = 0; i < k; i++) {
		double s = 0;

		for (j = 0; j < sizes[i]; j++)
			s += ranks[off++];
		ssbn += s * s / (double)sizes[i];
	}
	h = 12.0 / (tn * (tn + 1)) * ssbn - 3 * (tn + 1);
	h /= tc;
	result_init(r, total);
	r->statistic = h;
	r->df = (double)(k - 1);
	r->p = bst_chi2_sf(h, r->df);
	free(all);
	free(ranks);
}

/* ---------------------------------------------------------- Mann-Whitney */

/*
 * Exact P(U >= u) for samples of sizes m and n without ties: the counts of U
 * are the coefficients of the Gaussian binomial [m+n choose m]_q =
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built in exact 128-bit integers.
 */
static double
mwu_exact_sf(long u, size_t m, size_t n)
{
	size_t deg, i, j, top;
	__int128 *f, tail = 0, total = 0;
	double p;

	if (m > n) {
		size_t t = m;

		m = n;
		n = t;
	}
	top = m * n;
	if (u <= 0)
		return 1.0;
	if ((size_t)u > top)
		return 0.0;
	/* the product before a division reaches degree i n + i <= top + m */
	f = xcalloc(top + m + 1, sizeof *f);
	f[0] = 1;
	deg = 0;
	for (i = 1; i <= m; i++) {
		size_t k = n + i;

		/* multiply by (1 - q^k) */
		for (j = deg + k; j >= k; j--)
			f[j] -= f[j - k];
		deg += k;
		/* divide by (1 - q^i): exact, the quotient is a polynomial */
		for (j = i; j <= deg; j++)
			f[j] += f[j - i];
		deg -= i;
	}
	for (j = 0; j <= top; j++) {
		total += f[j];
		if (j >= (size_t)u)
			tail += f[j];
	}
	p = (double)((long double)tail / (long double)total);
	free(f);
	return p;
}

void
bst_mannwhitney(const double *x, size_t nx, const double *y, size_t ny,
    enum bst_alt alt, int continuity, enum bst_method method,
    struct bst_test *r)
{
	size_t n = nx + ny, i;
	double *all, *ranks, tie, r1 = 0, u1, u2, U, f, dn = (double)n;
	int exact;

	if (nx == 0 || ny == 0) {
		not_computable(r, n, "a sample is empty");
		return;
	}
	all = xreallocarray(NULL, n, sizeof *all);
	ranks = xreallocarray(NULL, n, sizeof *ranks);
	memcpy(all, x, nx * sizeof *all);
	memcpy(all + nx, y, ny * sizeof *all);
	tie = bst_rankdata(all, n, ranks);
	for (i = 0; i < nx; i++)
		r1 += ranks[i];
	u1 = r1 - (double)nx * ((double)nx + 1) / 2;
	u2 = (double)nx * (double)ny - u1;
	if (alt == BST_GREATER) {
		U = u1;
		f = 1;
	} else if (alt == BST_LESS) {
		U = u2;
		f = 1;
	} else {
		U = fmax(u1, u2);
		f = 2;
	}
	if (method == BST_AUTO)
		exact = !(nx > 8 && ny > 8) && tie == 0;
	else	/* C(m+n, m) must fit the 128-bit counts: min(m, n) <= 64 */
		exact = method == BST_EXACT && (nx <= 64 || ny <= 64) &&
		    (nx < ny ? nx : ny) * (nx + ny) <= 50000000;
	result_init(r, n);
	r->statistic = u1;
	r->exact = exact;
	if (exact) {
		r->p = mwu_exact_sf((long)U, nx, ny);
	} else {
		double mu = (double)nx * (double)ny / 2;
		double s = sqrt((double)nx * (double)ny / 12 *
		    ((dn + 1) - tie / (dn * (dn - 1))));
		double num = U - mu - (continuity ? 0.5 : 0);

		/* every value tied: s = 0, scipy's z = -inf and p = 1 */
		r->z = s > 0 ? num / s : -INFINITY;
		r->p = s > 0 ? bst_norm_sf(r->z) : 1;
	}
	r->p *= f;
	if (r->p > 1)
		r->p = 1;
	free(all);
	free(ranks);
}

/* -------------------------------------------------------------- Spearman */

void
bst_spearman(const double *x, const double *y, size_t n, enum bst_alt alt,
    struct bst_test *r)
{
	double *rx, *ry, mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0, rho, dof, t;
	size_t i;
	int cx = 1, cy = 1;

	if (n < 3) {
		not_computable(r, n, "fewer than 3 pairs");
		return;
	}
	for (i = 1; i < n; i++) {
		if (x[i] != x[0])
			cx = 0;
		if (y[i] != y[0])
			cy = 0;
	}
	if (cx || cy) {
		not_computable(r, n, "one variable is constant, so the correlation "
		    "is undefined");
		return;
	}
	rx = xreallocarray(NULL, n, sizeof *rx);
	ry = xreallocarray(NULL, n, sizeof *ry);
	bst_rankdata(x, n, rx);
	bst_rankdata(y, n, ry);
	for (i = 0; i < n; i++) {
		mx += rx[i];
		my += ry[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
		sxy += (rx[i] - mx) * (ry[i] - my);
	}
	rho = sxy / sqrt(sxx) / sqrt(syy);
	if (rho > 1)
		rho = 1;
	if (rho < -1)
		rho = -1;
	dof = (double)n - 2;
	result_init(r, n);
	r->statistic = rho;
	r->df = dof;
	if (rho == 1 || rho == -1) {
		t = rho * INFINITY;
	} else {
		double q = dof / ((rho + 1) * (1 - rho));

		t = rho * sqrt(q > 0 ? q : 0);
	}
	r->z = t;
	r->p = t_p(t, dof, alt);
	free(rx);
	free(ry);
}

/* ----------------------------------------------------------------- kappa */

/* The categories: labels[0..nlabels) when given, else the sorted union of
 * the values of y1 and y2.  A new array the caller frees; *nl its length. */
static double *
kappa_labels(const double *y1, const double *y2, size_t n,
    const double *labels, size_t nlabels, size_t *nl)
{
	double *lab;
	size_t i, k;

	if (labels) {
		lab = xreallocarray(NULL, nlabels ? nlabels : 1, sizeof *lab);
		memcpy(lab, labels, nlabels * sizeof *lab);
		*nl = nlabels;
		return lab;
	}
	lab = xreallocarray(NULL, 2 * n + 1, sizeof *lab);
	for (i = 0; i < n; i++) {
		lab[2 * i] = y1[i];
		lab[2 * i + 1] = y2[i];
	}
	sort_doubles(lab, 2 * n);
	for (i = 0, k = 0; i < 2 * n; i++)
		if (k == 0 || lab[k - 1] != lab[i])
			lab[k++] = lab[i];
	*nl = k;
	return lab;
}

/* The weight of the disagreement between categories i and j. */
static double
kappa_weight(enum bst_kappa_weights w, size_t i, size_t j)
{
	double di = (double)i - (double)j;

	if (w == BST_KAPPA_NONE)
		return i == j ? 0 : 1;
	if (w == BST_KAPPA_LINEAR)
		return fabs(di);
	return di * di;
}

/* The confusion table conf[nl][nl] of the items whose two ratings are both
 * among the labels, with its row sums s1 (rater 1) and column sums s0
 * (rater 2); returns the number of such items. */
static size_t
kappa_table(const double *y1, const double *y2, size_t n, const double *lab,
    size_t nl, double *conf, double *s0, double *s1)
{
	size_t i, j, used = 0;

	for (i = 0; i < n; i++) {
		size_t a = nl, b = nl;

		for (j = 0; j < nl; j++) {
			if (lab[j] == y1[i])
				a = j;
			if (lab[j] == y2[i])
				b = j;
		}
		if (a == nl || b == nl)
			continue;
		conf[a * nl + b] += 1;
		s1[a] += 1;
		s0[b] += 1;
		used++;
	}
	return used;
}

void
bst_kappa(const double *y1, const double *y2, size_t n,
    const double *labels, size_t nlabels, enum bst_kappa_weights w,
    struct bst_test *r)
{
	double *lab, *conf, *s0, *s1, tot, num = 0, den = 0;
	size_t nl, i, j, used;

	lab = kappa_labels(y1, y2, n, labels, nlabels, &nl);
	if (n == 0 || nl == 0) {
		free(lab);
		not_computable(r, n, "no rated items");
		return;
	}
	conf = xcalloc(nl * nl, sizeof *conf);
	s0 = xcalloc(nl, sizeof *s0);
	s1 = xcalloc(nl, sizeof *s1);
	used = kappa_table(y1, y2, n, lab, nl, conf, s0, s1);
	tot = (double)used;
	/* observed and expected weighted disagreement; sklearn: expected =
	 * outer(sum0, sum1) / sum */
	for (i = 0; used > 0 && i < nl; i++)
		for (j = 0; j < nl; j++) {
			num += kappa_weight(w, i, j) * conf[i * nl + j];
			den += kappa_weight(w, i, j) * (s0[i] * s1[j] / tot);
		}
	free(lab);
	free(conf);
	free(s0);
	free(s1);
	if (used == 0) {
		not_computable(r, n, "no item has both ratings among the "
		    "scale points");
	} else if (den == 0) {
		not_computable(r, used, "both raters give one and the same "
		    "value to every item, so kappa is undefined");
	} else {
		result_init(r, used);
		r->statistic = 1 - num / den;
	}
}
