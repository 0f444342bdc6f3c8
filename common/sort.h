/*
 * sort.h - a stable sort whose comparator takes a context argument, the
 * contract of qsort_r(3) without depending on which libc declares it how.
 *
 * Comparators that need more than the two elements (a key column, the run
 * they belong to) take it through arg instead of a file-scope variable, so
 * two sorts may run at once.  Equal elements keep their input order, which
 * keeps "output order equals input order" true for ties.
 */
#ifndef CTX_SORT_H
#define CTX_SORT_H

#include <stddef.h>

typedef int ctx_cmp_fn(const void *a, const void *b, void *arg);

/*
 * Sort n elements of size bytes at base with cmp(a, b, arg) (< 0, 0, > 0
 * as for qsort).  Stable; O(n log n) comparisons; allocates n * size bytes
 * of scratch (dies when that fails or overflows).
 */
void ctx_sort(void *base, size_t n, size_t size, ctx_cmp_fn *cmp, void *arg);

/*
 * The qsort(3) comparator of an array of strings (char *): strcmp order
 * of the strings pointed to.
 */
int ctx_cmp_strp(const void *a, const void *b);

#endif
