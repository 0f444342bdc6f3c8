/*
 * sort.c - ctx_sort: a bottom-up merge sort over a scratch copy.
 *
 * Runs of 8 are first sorted by insertion, then merged pairwise, each pass
 * swapping the roles of the array and the scratch; a final copy lands the
 * result in base when the passes ended in the scratch.  Taking the left
 * element on equality makes the sort stable.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sort.h"

#define RUN 8

static void
insertion(char *v, size_t n, size_t size, ctx_cmp_fn *cmp, void *arg,
    char *tmp)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		memcpy(tmp, v + i * size, size);
		for (j = i; j > 0 && cmp(v + (j - 1) * size, tmp, arg) > 0; j--)
			memcpy(v + j * size, v + (j - 1) * size, size);
		memcpy(v + j * size, tmp, size);
	}
}

/* Merge src[lo, mid) and src[mid, hi) into dst[lo, hi). */
static void
merge(const char *src, char *dst, size_t lo, size_t mid, size_t hi,
    size_t size, ctx_cmp_fn *cmp, void *arg)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi) {
		if (cmp(src + j * size, src + i * size, arg) < 0)
			memcpy(dst + k++ * size, src + j++ * size, size);
		else
			memcpy(dst + k++ * size, src + i++ * size, size);
	}
	if (i < mid)
		memcpy(dst + k * size, src + i * size, (mid - i) * size);
	else if (j < hi)
		memcpy(dst + k * size, src + j * size, (hi - j) * size);
}

void
ctx_sort(void *base, size_t n, size_t size, ctx_cmp_fn *cmp, void *arg)
{
	char *a = base, *b, *t;
	size_t w, lo, mid, hi;

	if (n < 2 || size == 0)
		return;
	if (n > ((size_t)-1) / size)
		die("sort: %zu elements of %zu bytes overflow", n, size);
	b = xmalloc(n <= RUN ? size : n * size);
	for (lo = 0; lo < n; lo += RUN)
		insertion(a + lo * size, n - lo < RUN ? n - lo : RUN, size, cmp,
		    arg, b);
	for (w = RUN; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			merge(a, b, lo, mid, hi, size, cmp, arg);
		}
		t = a;
		a = b;
		b = t;
	}
	if (a != base) {
		memcpy(base, a, n * size);
		free(a);
	} else
		free(b);
}

int
ctx_cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
