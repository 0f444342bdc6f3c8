/*
 * bstats_stats.c - libFuzzer target for bstats' statistics (tools/bstats/
 * stats.c).  The input is read as small signed integers (ordinal scores
 * and differences with many ties and zeros, as the study produces) split into
 * two samples.  Invariants: every procedure either reports "not computable"
 * with a reason or gives a finite statistic and a p-value in [0, 1]; the
 * exact and approximate paths agree on what is computable; BH-adjusted
 * p-values are in [p, 1]; kappa is at most 1; Cliff's delta and its
 * bootstrap interval lie in [-1, 1].
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bstats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const struct bst_test *r)
{
	if (!r->ok) {
		assert(r->reason && *r->reason);
		return;
	}
	assert(isfinite(r->statistic));
	assert(r->p >= 0 && r->p <= 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *x, *y, *p, *adj, lo, hi, es;
	size_t n, nx, ny, i;
	struct bst_test r;
	const double *g[3];
	size_t gs[3];
	const char *why;
	long pos = 0, neg = 0, zero = 0;

	if (size < 2 || size > 2048)
		return 0;
	n = size - 1;
	x = malloc(n * sizeof *x);
	y = malloc(n * sizeof *y);
	p = malloc(n * sizeof *p);
	adj = malloc(n * sizeof *adj);
	for (i = 0; i < n; i++) {
		x[i] = (double)((int)(data[i + 1] % 9) - 4);
		y[i] = (double)((int)(data[i + 1] / 9 % 4));
		p[i] = (double)data[i + 1] / 255.0;
	}
	nx = data[0] % (n + 1);
	ny = n - nx;

	bst_wilcoxon(x, n, (enum bst_alt)(data[0] % 3), data[0] & 8, BST_AUTO, &r);
	check(&r);
	bst_wilcoxon(x, n, BST_GREATER, 0, BST_APPROX, &r);
	check(&r);
	if (n <= 50) {
		bst_wilcoxon(x, n, BST_LESS, 0, BST_EXACT, &r);
		check(&r);
	}
	bst_ttest_rel(x, n, BST_GREATER, &r);
	check(&r);
	bst_shapiro(x, n, &r);
	check(&r);
	bst_mannwhitney(x, nx, x + nx, ny, (enum bst_alt)(data[0] % 3), 1,
	    BST_AUTO, &r);
	check(&r);
	if (nx > 0 && nx <= 8) {
		bst_mannwhitney(x, nx, x + nx, ny, BST_TWO_SIDED, 1, BST_EXACT, &r);
		check(&r);
	}
	g[0] = x;
	g[1] = x + nx / 2;
	g[2] = x + nx;
	gs[0] = nx / 2;
	gs[1] = nx - nx / 2;
	gs[2] = ny;
	bst_kruskal(g, gs, 3, &r);
	check(&r);
	bst_spearman(x, y, n, BST_TWO_SIDED, &r);
	check(&r);
	bst_kappa(x, y, n, NULL, 0, (enum bst_kappa_weights)(data[0] % 3), &r);
	if (r.ok)
		assert(r.statistic <= 1 + 1e-12);
	bst_mcnemar((long)nx, (long)ny, data[0] & 1, 1, &r);
	check(&r);
	bst_bh(p, n, adj);
	for (i = 0; i < n; i++)
		assert(adj[i] >= p[i] - 1e-15 && adj[i] <= 1);
	for (i = 0; i < n; i++) {
		if (x[i] > 0) pos++;
		else if (x[i] < 0) neg++;
		else zero++;
	}
	bst_cliff_boot(pos, zero, neg, data[0], 200, 0.95, &lo, &hi);
	assert(lo >= -1 && hi <= 1 && lo <= hi);
	if (bst_cohen_d_paired(x, n, 0.95, &es, &lo, &hi, &why))
		assert(isfinite(es) && lo <= es && es <= hi);
	free(x);
	free(y);
	free(p);
	free(adj);
	return 0;
}
