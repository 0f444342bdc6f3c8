/*
 * results.c - the result records every analysis of bstats writes into
 * s->results: a new record with its keys (test, group, hypothesis, family,
 * metric, subset), a test's outcome, an effect size with its interval and
 * magnitude label (001 §6.3), notes, the sign convention, the summary of a
 * sample, the paired Cliff's δ with its bootstrap interval, and a Spearman
 * correlation as one record.  The report, the figures and the browser are
 * written from these records only.  Calls stats.c and obs.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"
#include "analysis.h"

json_t *
bst_res_new(struct bst_study *s, const char *test, const char *group,
    const char *hyp, const char *family, const char *metric,
    const char *subset)
{
	json_t *r = json_object();

	json_set_str(r, "test", test);
	json_set_str(r, "group", group);
	json_set_new(r, "hypothesis", json_str_or_null(hyp));
	json_set_new(r, "family", json_str_or_null(family));
	json_set_str(r, "metric", metric);
	json_set_str(r, "subset", subset);
	json_array_append_new(s->results, r);
	return r;
}

void
bst_res_test(json_t *r, const struct bst_test *t, const char *statname,
    int alt, int has_alt)
{
	json_set_int(r, "n", (long long)t->n);
	json_set_bool(r, "computable", t->ok);
	json_set_str(r, "statistic_name", statname);
	if (has_alt)
		json_set_str(r, "alternative", bst_alt_name((enum bst_alt)alt));
	if (t->ok) {
		json_set_real(r, "statistic", t->statistic);
		json_set_real(r, "p", t->p);
		if (t->df > 0)
			json_set_real(r, "df", t->df);
		json_set_null(r, "reason");
	} else {
		json_set_null(r, "statistic");
		json_set_null(r, "p");
		json_set_str(r, "reason", t->reason);
	}
	json_set_null(r, "p_adjusted");
}

/* The §6.3 label of an effect size, or NULL for a measure without one. */
static const char *
magnitude(const char *measure, double v)
{
	double a = fabs(v);

	if (strcmp(measure, "cohens_d") == 0)
		return a < 0.2 ? "negligible" : a < 0.5 ? "small" :
		    a < 0.8 ? "medium" : "large";
	if (strcmp(measure, "cliffs_delta") == 0)
		return a < 0.147 ? "negligible" : a < 0.33 ? "small" :
		    a < 0.474 ? "medium" : "large";
	return NULL;
}

void
bst_res_effect(json_t *r, const char *measure, int ok, double v, double lo,
    double hi, double level, const char *why)
{
	json_t *e = json_object();

	json_set_str(e, "measure", measure);
	if (ok) {
		const char *mag = magnitude(measure, v);

		json_set_real(e, "value", v);
		if (level > 0) {	/* level 0: no interval */
			json_set_real(e, "ci_low", lo);
			json_set_real(e, "ci_high", hi);
			json_set_real(e, "ci_level", level);
		}
		if (mag)
			json_set_str(e, "magnitude", mag);
	} else {
		json_set_null(e, "value");
		json_set_str(e, "reason", why);
	}
	json_set_str(e, "sign", BST_SIGN);
	json_set_new(r, "effect", e);
}

void
bst_res_note(json_t *r, const char *note)
{
	json_t *n = json_object_get(r, "notes");

	if (!n) {
		n = json_array();
		json_set_new(r, "notes", n);
	}
	json_array_append_new(n, json_string(note));
}

void
bst_res_sign(json_t *r, const char *delta)
{
	if (delta)
		json_set_str(r, "delta", delta);
	json_set_str(r, "sign", BST_SIGN);
}

/* Paired Cliff's δ (the mean sign of the oriented Δ) with its interval. */
void
bst_cliff_effect(struct bst_study *s, json_t *r, const double *d, size_t n)
{
	long pos = 0, neg = 0, zero = 0;
	size_t i;
	double lo, hi;

	if (n == 0) {
		bst_res_effect(r, "cliffs_delta", 0, 0, 0, 0, 0, "no pairs");
		return;
	}
	for (i = 0; i < n; i++) {
		if (d[i] > 0)
			pos++;
		else if (d[i] < 0)
			neg++;
		else
			zero++;
	}
	bst_cliff_boot(pos, zero, neg, s->opt.seed, s->opt.nboot, s->opt.level,
	    &lo, &hi);
	progress_add(&s->boot_progress, 1, "bootstrap intervals");
	bst_res_effect(r, "cliffs_delta", 1, (double)(pos - neg) / (double)n,
	    lo, hi, s->opt.level, NULL);
}

const char *
bst_signrank_method(const struct bst_test *t)
{
	return !t->exact ? "approx" : t->conditional ? "exact conditional" :
	    "exact";
}

json_t *
bst_spearman_res(struct bst_study *s, const double *x, const double *y,
    size_t n, const char *group, const char *metric, const char *subset)
{
	struct bst_test t;
	json_t *r;

	bst_spearman(x, y, n, BST_TWO_SIDED, &t);
	r = bst_res_new(s, "spearman", group, NULL, NULL, metric, subset);
	bst_res_test(r, &t, "rho", BST_TWO_SIDED, 1);
	return r;
}

/* Frequencies of the values of sorted c[0..n) ({"0": 12, "1": 30, ...}). */
static json_t *
frequencies(const double *c, size_t n)
{
	json_t *f = json_object();
	size_t i, j;

	for (i = 0; i < n; i = j) {
		char key[32];

		for (j = i; j < n && c[j] == c[i]; j++)
			;
		snprintf(key, sizeof key, "%.0f", c[i]);
		json_set_int(f, key, (long long)(j - i));
	}
	return f;
}

/* Median, quartiles, mean and (for small integer scales) frequencies. */
json_t *
bst_summary(const double *v, size_t n, int freq)
{
	json_t *o = json_object();
	double *c, sum = 0;
	size_t i;

	json_set_int(o, "n", (long long)n);
	if (n == 0)
		return o;
	c = xreallocarray(NULL, n, sizeof *c);
	memcpy(c, v, n * sizeof *c);
	bst_sort_doubles(c, n);
	json_set_real(o, "median", bst_quantile(c, n, 0.5));
	json_set_real(o, "q1", bst_quantile(c, n, 0.25));
	json_set_real(o, "q3", bst_quantile(c, n, 0.75));
	for (i = 0; i < n; i++)
		sum += c[i];
	json_set_real(o, "mean", sum / (double)n);
	if (freq)
		json_set_new(o, "frequency", frequencies(c, n));
	free(c);
	return o;
}
