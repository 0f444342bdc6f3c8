/*
 * cputime.h - the process's CPU time (user + system), for the in-process
 * sides of the benchmarks (tests/bench/llmsbench.c, htmlparse.c).
 */
#ifndef BENCH_CPUTIME_H
#define BENCH_CPUTIME_H
#include <time.h>

/* Seconds of CPU time this process has used (CLOCK_PROCESS_CPUTIME_ID). */
static inline double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
#endif
