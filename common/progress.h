/*
 * progress.h - one progress line on stderr for long work: count of total,
 * rate, ETA (the caller's estimate, else from the rate) and a
 * program-supplied note (per-status counts).  Silent when
 * stderr is not a terminal or CTXBENCH_PROGRESS=0; redrawn at most ten times
 * a second; cleared at progress_end so later messages start on a clean line.
 */
#ifndef CTX_PROGRESS_H
#define CTX_PROGRESS_H

#include <stddef.h>

struct progress {
	const char *label;
	unsigned long long done, total;	/* total 0: unknown */
	double t0, tlast;
	int active;
	int drawn;
	const char *unit;	/* rate unit, "rec" by default */
	double eta;		/* seconds left as the caller estimates them
				   (set before progress_add); < 0: from the
				   record rate and total */
};

void progress_start(struct progress *p, const char *label,
    unsigned long long total);
/* Advance by n and redraw if due; note may be NULL. */
void progress_add(struct progress *p, unsigned long long n, const char *note);
void progress_end(struct progress *p);
/* Format "N/T  R/s  ETA 0:12" into out (for tests); returns out. */
char *progress_format(const struct progress *p, double now, const char *note,
    char *out, size_t outlen);

/* A duration as "M:SS" or "H:MM:SS" (rounded to the second); returns out. */
char *progress_duration(double seconds, char *out, size_t outlen);

/* Monotonic time in seconds. */
double now_seconds(void);

#endif
