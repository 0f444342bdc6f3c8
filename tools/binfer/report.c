/*
 * report.c - the end of a run on stderr, terminal or not: the records
 * binfer excluded, per reason, and whether the run failed (the exit
 * status); then the one-line summary that closes every run, or says why it
 * stopped early.  Called by main.c; reads the run's tally (struct
 * binfer_tally) and calls only record.c's reason names.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ctx.h"
#include "run.h"

/* The records failed: every reason but the protocol's CONTEXT_OVERFLOW. */
static unsigned long long
failures(const struct binfer_run *R)
{
	unsigned long long failed = 0;
	int k;

	for (k = 0; k < REASON_N; k++)
		if (k != REASON_CONTEXT_OVERFLOW)
			failed += R->n.nreason[k];
	return failed;
}

/* What became of the records: "31 answered (4 from the cache), 5 excluded, 2 failed". */
static void
outcome(const struct binfer_run *R, unsigned long long failed, char *out, size_t len)
{
	const struct binfer_tally *n = &R->n;
	unsigned long long excluded = n->passed + n->nreason[REASON_CONTEXT_OVERFLOW];
	char cached[48] = "";

	if (n->cached)
		snprintf(cached, sizeof(cached), " (%llu from the cache)", n->cached);
	snprintf(out, len, "%llu answered%s, %llu excluded, %llu failed", n->answered, cached,
	    excluded, failed);
}

/* The servers' pace: "; 1520 tok/s in, 82.1 tok/s out", or "" when nothing was sent. */
static void
pace(const struct binfer_run *R, char *out, size_t len)
{
	double el = R->n.t_last - R->n.t_first;

	*out = '\0';
	if (R->n.t_first > 0 && el > 0)
		snprintf(out, len, "; %.0f tok/s in, %.1f tok/s out",
		    (double)R->n.sent_tokens / el, (double)R->n.tokens_out / el);
}

/*
 * The one line that ends every run on stderr, terminal or not: the records
 * and what became of them, the time and the servers' pace; for a run that
 * stopped early, why, what was done and that the output was not written.
 */
void
binfer_summary(const struct binfer_run *R)
{
	unsigned long long failed = failures(R);
	const char *out = R->o->output;
	char what[160], rates[80], took[24], *kept;

	outcome(R, failed, what, sizeof(what));
	pace(R, rates, sizeof(rates));
	progress_duration(now_seconds() - R->n.t_start, took, sizeof(took));
	if (R->stop == STOP_NONE) {
		warn("%llu record%s in %s: %s%s%s%s", R->n.records, R->n.records == 1 ? "" : "s",
		    took, what, rates, out ? "; wrote " : "", out ? out : "");
		return;
	}
	kept = out ? xasprintf("nothing written to %s", out) :
	    xasprintf("%llu record%s written", R->head, R->head == 1 ? "" : "s");
	if (R->stop == STOP_GONE)
		warn("%s: no server answers any more: stopped after %s with %llu record%s "
		    "done (%s%s); %s; run again to resume from the cache", R->stop_url, took,
		    R->head, R->head == 1 ? "" : "s", what, rates, kept);
	else
		warn("interrupted after %s with %llu record%s done (%s%s); %s; run again "
		    "to resume from the cache", took, R->head, R->head == 1 ? "" : "s", what,
		    rates, kept);
	free(kept);
}

/*
 * The records binfer excluded, per reason, on stderr, and whether too many
 * failed.  Returns the exit status: rc (the scheduler's), else EXIT_DATA
 * when no record was answered although some were asked, or when more
 * failed than --allow-failures.
 */
int
binfer_verdict(const struct binfer_run *R, int rc)
{
	const struct binfer_tally *n = &R->n;
	unsigned long long failed = failures(R);
	int k;

	for (k = 0; k < REASON_N; k++)
		if (n->nreason[k])
			warn("%llu record%s excluded as %s (see the error field)", n->nreason[k],
			    n->nreason[k] == 1 ? "" : "s", binfer_reason_name(k));
	if (rc == 0 && n->answered == 0 && failed + n->nreason[REASON_CONTEXT_OVERFLOW] > 0) {
		warn("no record was answered: every one asked failed or did not fit");
		rc = EXIT_DATA;
	} else if (rc == 0 && failed > 0 && (R->o->allow_failures < 0 ||
	    failed > (unsigned long long)R->o->allow_failures)) {
		warn("%llu of %llu records failed (--allow-failures %lld)", failed, n->records,
		    R->o->allow_failures);
		rc = EXIT_DATA;
	}
	return rc;
}

