/*
 * unit-vectors.c - bstats' statistics against the scipy / statsmodels /
 * scikit-learn vectors of tests/bstats/vectors.ndjson (gen-vectors.py).
 *
 * Usage: unit-vectors VECTORS.ndjson.  One TAP line per vector.  Agreement:
 * relative error <= 1e-9 (exact zero only matches below 1e-300);
 * Shapiro-Wilk, which scipy runs in single precision: |dW| <= 1e-5 and
 * |dp| <= 1e-2 p + 1e-5 (scipy's
 * float32 arithmetic loses that much in 1 - W at n in the thousands).  A null reference value means the reference
 * returned NaN: bstats must report the case as not computable.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tap.h"
#include "err.h"
#include "../../tools/bstats/stats.h"

static double *
arr(json_t *a, size_t *n)
{
	size_t i;
	double *v;

	*n = json_array_size(a);
	v = xcalloc(*n + 1, sizeof *v);
	for (i = 0; i < *n; i++)
		v[i] = json_number_value(json_array_get(a, i));
	return v;
}

static enum bst_alt
alt_of(json_t *rec)
{
	const char *s = json_string_value(json_object_get(rec, "alt"));

	if (s && strcmp(s, "greater") == 0)
		return BST_GREATER;
	if (s && strcmp(s, "less") == 0)
		return BST_LESS;
	return BST_TWO_SIDED;
}

static enum bst_method
method_of(json_t *rec)
{
	const char *s = json_string_value(json_object_get(rec, "method"));

	if (s && strcmp(s, "exact") == 0)
		return BST_EXACT;
	if (s && (strcmp(s, "approx") == 0 || strcmp(s, "asymptotic") == 0))
		return BST_APPROX;
	return BST_AUTO;
}

static double worst;

static int close_rel(double got, double want, double rel);

/*
 * The exact conditional Wilcoxon p-value by brute force, written apart from
 * stats.c: midranks of |d| by counting (O(m^2)), then every one of the 2^m
 * sign assignments enumerated.
 */
static double
brute_wilcoxon_p(const double *d, size_t n, enum bst_alt alt)
{
	double a[24], r[24], obs = 0, le = 0, ge = 0, tot;
	size_t m = 0, i, j;
	unsigned long mask;
	int pos[24];

	for (i = 0; i < n; i++)
		if (d[i] != 0) {
			pos[m] = d[i] > 0;
			a[m++] = fabs(d[i]);
		}
	for (i = 0; i < m; i++) {
		double below = 0, same = 0;

		for (j = 0; j < m; j++) {
			below += a[j] < a[i];
			same += a[j] == a[i];
		}
		r[i] = below + (same + 1) / 2;
		if (pos[i])
			obs += r[i];
	}
	for (mask = 0; mask < 1UL << m; mask++) {
		double s = 0;

		for (i = 0; i < m; i++)
			if (mask >> i & 1)
				s += r[i];
		le += s <= obs;
		ge += s >= obs;
	}
	tot = (double)(1UL << m);
	if (alt == BST_GREATER)
		return ge / tot;
	if (alt == BST_LESS)
		return le / tot;
	return fmin(1, 2 * fmin(le, ge) / tot);
}

/* Random small samples with ties and zeros: bst_wilcoxon against the brute
 * force, one TAP line per sample and alternative. */
static void
brute_force_checks(void)
{
	unsigned long seed = 20260226;
	int k, alt;

	for (k = 0; k < 40; k++) {
		double d[20];
		size_t n = 2 + (size_t)(k % 15), i;

		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			d[i] = (double)((long)(seed >> 33) % 9 - 4) / (k % 3 ? 1 : 2);
		}
		for (alt = BST_TWO_SIDED; alt <= BST_LESS; alt++) {
			struct bst_test r;
			double want = brute_wilcoxon_p(d, n, (enum bst_alt)alt);

			bst_wilcoxon(d, n, (enum bst_alt)alt, 0, BST_AUTO, &r);
			if (!r.ok) {
				tap_ok(want == 1 || n == 0, "brute force %d: all zero",
				    k);
				continue;
			}
			if (!tap_ok(r.exact && close_rel(r.p, want, 1e-12),
			    "brute force %d n=%zu %s: exact conditional p", k, n,
			    bst_alt_name((enum bst_alt)alt)))
				printf("#   p %.17g want %.17g\n", r.p, want);
		}
	}
}

static int
close_rel(double got, double want, double rel)
{
	double err = fabs(got - want);
	int good = err <= rel * fabs(want) || err < 1e-300;

	if (good && want != 0 && err / fabs(want) > worst)
		worst = err / fabs(want);
	return good;
}

static void
check(int line, const char *fn, const char *note,
    const struct bst_test *r, json_t *rec, double rel_s, double rel_p)
{
	json_t *ws = json_object_get(rec, "statistic");
	json_t *wp = json_object_get(rec, "p");

	if (json_is_null(ws) || (wp && json_is_null(wp))) {
		if (!tap_ok(!r->ok && r->reason, "%d %s %s: not computable",
		    line, fn, note))
			printf("#   computed %.17g p %.17g\n", r->statistic, r->p);
		return;
	}
	if (!r->ok) {
		tap_ok(0, "%d %s %s: computable (got: %s)", line, fn, note,
		    r->reason);
		return;
	}
	if (!tap_ok(close_rel(r->statistic, json_number_value(ws), rel_s) &&
	    (!wp || close_rel(r->p, json_number_value(wp), rel_p)),
	    "%d %s %s", line, fn, note))
		printf("#   statistic %.17g want %.17g; p %.17g want %.17g\n",
		    r->statistic, json_number_value(ws), r->p,
		    wp ? json_number_value(wp) : NAN);
}

int
main(int argc, char **argv)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	const double REL = 1e-9;

	if (argc != 2) {
		fprintf(stderr, "usage: unit-vectors VECTORS\n");
		return 2;
	}
	fp = fopen(argv[1], "r");
	if (!fp) {
		perror(argv[1]);
		return 1;
	}
	while (getline(&line, &cap, fp) > 0) {
		json_error_t jerr;
		json_t *rec = json_loads(line, 0, &jerr);
		const char *fn, *note;
		struct bst_test r;
		size_t n = 0, m = 0;
		double *x = NULL, *y = NULL;

		lineno++;
		if (!rec) {
			tap_ok(0, "line %d parses: %s", lineno, jerr.text);
			continue;
		}
		fn = json_string_value(json_object_get(rec, "fn"));
		note = json_string_value(json_object_get(rec, "note"));
		if (!note)
			note = "";
		if (json_object_get(rec, "x"))
			x = arr(json_object_get(rec, "x"), &n);
		if (json_object_get(rec, "y"))
			y = arr(json_object_get(rec, "y"), &m);
		if (strcmp(fn, "wilcoxon") == 0) {
			bst_wilcoxon(x, n, alt_of(rec),
			    (int)json_integer_value(json_object_get(rec, "correction")),
			    method_of(rec), &r);
			check(lineno, fn, note, &r, rec, REL, REL);
		} else if (strcmp(fn, "ttest_rel") == 0) {
			bst_ttest_rel(x, n, alt_of(rec), &r);
			check(lineno, fn, note, &r, rec, REL, REL);
		} else if (strcmp(fn, "shapiro") == 0) {
			json_t *ws = json_object_get(rec, "statistic");
			double wp = json_number_value(json_object_get(rec, "p"));

			bst_shapiro(x, n, &r);
			if (json_is_null(ws))
				check(lineno, fn, note, &r, rec, 0, 0);
			else if (!tap_ok(r.ok && fabs(r.statistic -
			    json_number_value(ws)) <= 1e-5 && fabs(r.p - wp) <=
			    1e-2 * wp + 1e-5, "%d shapiro n=%zu", lineno, n))
				printf("#   W %.9g want %.9g; p %.9g want %.9g\n",
				    r.statistic, json_number_value(ws), r.p, wp);
		} else if (strcmp(fn, "mcnemar") == 0) {
			bst_mcnemar(
			    (long)json_integer_value(json_object_get(rec, "b")),
			    (long)json_integer_value(json_object_get(rec, "c")),
			    (int)json_integer_value(json_object_get(rec, "exact")),
			    (int)json_integer_value(json_object_get(rec, "correction")),
			    &r);
			check(lineno, fn, note, &r, rec, REL, REL);
		} else if (strcmp(fn, "paired_or") == 0) {
			double o = 0, lo = 0, hi = 0;
			const char *why;
			int ok = bst_paired_or(
			    (long)json_integer_value(json_object_get(rec, "b")),
			    (long)json_integer_value(json_object_get(rec, "c")),
			    0.95, &o, &lo, &hi, &why);

			tap_ok(ok && close_rel(o, json_number_value(json_object_get(rec, "statistic")), REL) &&
			    close_rel(lo, json_number_value(json_object_get(rec, "lo")), REL) &&
			    close_rel(hi, json_number_value(json_object_get(rec, "hi")), REL),
			    "%d paired odds ratio and CI", lineno);
		} else if (strcmp(fn, "cohen_d") == 0) {
			double es = 0, lo = 0, hi = 0;
			const char *why;
			int ok = bst_cohen_d_paired(x, n, 0.95, &es, &lo, &hi, &why);

			tap_ok(ok && close_rel(es, json_number_value(json_object_get(rec, "statistic")), REL) &&
			    close_rel(lo, json_number_value(json_object_get(rec, "lo")), REL) &&
			    close_rel(hi, json_number_value(json_object_get(rec, "hi")), REL),
			    "%d paired Cohen's d n=%zu", lineno, n);
		} else if (strcmp(fn, "bh") == 0) {
			size_t k, np_, na;
			double *p = arr(json_object_get(rec, "p_in"), &np_);
			double *want = arr(json_object_get(rec, "adj"), &na);
			double *adj = xcalloc(np_ + 1, sizeof *adj);
			int good = np_ == na;

			bst_bh(p, np_, adj);
			for (k = 0; good && k < np_; k++)
				good = close_rel(adj[k], want[k], REL);
			tap_ok(good, "%d Benjamini-Hochberg m=%zu", lineno, np_);
			free(p);
			free(want);
			free(adj);
		} else if (strcmp(fn, "kruskal") == 0) {
			json_t *g = json_object_get(rec, "groups");
			size_t k = json_array_size(g), i;
			double **gs = xcalloc(k, sizeof *gs);
			size_t *sz = xcalloc(k, sizeof *sz);

			for (i = 0; i < k; i++)
				gs[i] = arr(json_array_get(g, i), &sz[i]);
			bst_kruskal((const double *const *)gs, sz, k, &r);
			check(lineno, fn, note, &r, rec, REL, REL);
			for (i = 0; i < k; i++)
				free(gs[i]);
			free(gs);
			free(sz);
		} else if (strcmp(fn, "mannwhitneyu") == 0) {
			bst_mannwhitney(x, n, y, m, alt_of(rec),
			    (int)json_integer_value(json_object_get(rec, "continuity")),
			    method_of(rec), &r);
			check(lineno, fn, note, &r, rec, REL, REL);
		} else if (strcmp(fn, "spearman") == 0) {
			bst_spearman(x, y, n, alt_of(rec), &r);
			check(lineno, fn, note, &r, rec, REL, REL);
		} else if (strcmp(fn, "kappa") == 0) {
			const char *w = json_string_value(json_object_get(rec, "weights"));
			json_t *lj = json_object_get(rec, "labels");
			size_t nl = 0;
			double *lab = json_is_array(lj) ? arr(lj, &nl) : NULL;

			bst_kappa(x, y, n, lab, nl,
			    strcmp(w, "linear") == 0 ? BST_KAPPA_LINEAR :
			    strcmp(w, "quadratic") == 0 ? BST_KAPPA_QUADRATIC :
			    BST_KAPPA_NONE, &r);
			check(lineno, fn, note, &r, rec, REL, REL);
			free(lab);
		} else {
			tap_ok(0, "%d unknown function %s", lineno, fn);
		}
		free(x);
		free(y);
		json_decref(rec);
	}
	free(line);
	fclose(fp);
	brute_force_checks();
	printf("# worst relative error outside Shapiro-Wilk: %.3g\n", worst);
	return tap_done();
}
