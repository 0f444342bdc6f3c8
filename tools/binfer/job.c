/*
 * job.c - one job's life cycle, for the scheduler: preparing it (a response
 * record in record.c, a judge request in judge.c, then the cache) says what
 * the job needs, and the scheduler acts on that; putting an answer or an
 * error writes the record's fields through the same two files and counts
 * what the run reports.  Neither step changes a job's state: that is the
 * scheduler's.  record.c and judge.c never call back into this file.
 */
#include <assert.h>
#include <string.h>

#include "ctx.h"
#include "run.h"

/* A completed request of the cache: 1 with the answer in p, else 0. */
static int
from_cache(const struct binfer_run *R, const struct job *j, struct job_prep *p)
{
	if (!R->o->cache_dir || R->o->refresh)
		return 0;
	return binfer_cache_load(R->o->cache_dir, j->hash, &p->answer, &p->endpoint);
}

void
job_prepare(const struct binfer_run *R, struct job *j, struct job_prep *p)
{
	assert(j->rec != NULL && j->body == NULL);
	memset(p, 0, sizeof(*p));
	binfer_result_init(&p->answer);
	p->status = R->o->judge ? judge_prepare(R, j) : record_prepare(R, j, p);
	if (p->status == JOB_SEND && from_cache(R, j, p))
		p->status = JOB_CACHED;
}

void
job_prep_release(struct job_prep *p)
{
	binfer_result_release(&p->answer);
	free(p->endpoint);
	free(p->error);
	memset(p, 0, sizeof(*p));
}

void
job_put_answer(struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r)
{
	enum binfer_reason why;

	assert(j->rec != NULL && j->state != J_DONE);
	if (R->o->judge) {
		why = judge_put(R, j, endpoint, r, NULL);
	} else {
		why = record_put_answer(R, j, endpoint, r);
		/* the progress line's tok/s: the responses' output */
		if (r->eval_count > 0)
			R->tokens_out += (unsigned long long)r->eval_count;
	}
	if (why != REASON_N)
		R->nreason[why]++;
}

void
job_put_error(struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why)
{
	assert(j->rec != NULL && j->state != J_DONE && why < REASON_N);
	if (R->o->judge)
		judge_put(R, j, endpoint, NULL, err);
	else
		record_put_error(R, j, endpoint, err, why);
	R->nreason[why]++;
}
