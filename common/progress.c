/*
 * progress.c - a progress line on a terminal's stderr (see progress.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
enabled(void)
{
	const char *e = getenv("CTXBENCH_PROGRESS");

	if (e && strcmp(e, "0") == 0)
		return 0;
	return isatty(STDERR_FILENO);
}

void
progress_start(struct progress *p, const char *label, unsigned long long total)
{
	memset(p, 0, sizeof(*p));
	p->label = label;
	p->total = total;
	p->t0 = now_seconds();
	p->active = enabled();
	p->unit = "rec";
	p->eta = -1;
}

char *
progress_duration(double s, char *out, size_t n)
{
	unsigned long t = !(s > 0) ? 0 : s > 1e9 ? 1000000000UL : (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(out, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, n, "%lu:%02lu", t / 60, t % 60);
	return out;
}

char *
progress_format(const struct progress *p, double now, const char *note,
    char *out, size_t outlen)
{
	double el = now - p->t0, rate = el > 0 ? (double)p->done / el : 0;
	char eta[32] = "";
	size_t used;

	if (p->eta >= 0 || (p->total && rate > 0 && p->done <= p->total)) {
		char t[24];

		progress_duration(p->eta >= 0 ? p->eta :
		    (double)(p->total - p->done) / rate, t, sizeof(t));
		snprintf(eta, sizeof(eta), "  ETA %s", t);
	}
	if (p->total)
		snprintf(out, outlen, "%s%s%llu/%llu  %.1f %s/s%s", p->label ? p->label : "",
		    p->label ? ": " : "", p->done, p->total, rate, p->unit, eta);
	else
		snprintf(out, outlen, "%s%s%llu  %.1f %s/s%s", p->label ? p->label : "",
		    p->label ? ": " : "", p->done, rate, p->unit, eta);
	used = strlen(out);
	if (note && *note && used + 2 < outlen)
		snprintf(out + used, outlen - used, "  %s", note);
	return out;
}

void
progress_add(struct progress *p, unsigned long long n, const char *note)
{
	double t;
	char line[256];

	p->done += n;
	if (!p->active)
		return;
	t = now_seconds();
	if (p->drawn && t - p->tlast < 0.1 && p->done != p->total)
		return;
	p->tlast = t;
	p->drawn = 1;
	progress_format(p, t, note, line, sizeof(line));
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

void
progress_end(struct progress *p)
{
	if (p->active && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->active = 0;
}
