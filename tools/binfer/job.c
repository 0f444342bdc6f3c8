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

/*
 * A completed request of the cache: 1 with the answer and the request that
 * obtained it in p, else 0.  An entry that holds no request (written before
 * binfer stored them) gets the request this run built, which has the same
 * hash: it differs at most in what only changes the transport (stream).
 */
static int
from_cache(const struct binfer_run *R, const struct job *j, struct job_prep *p)
{
	char *name;

	if (!R->o->cache_dir || R->o->refresh)
		return 0;
	if (!binfer_cache_load(R->o->cache_dir, j->hash, &p->answer, &p->endpoint,
	    &p->origin))
		return 0;
	if (p->endpoint) {	/* an entry of an older binfer may hold it */
		name = http_url_public(p->endpoint);
		free(p->endpoint);
		p->endpoint = name;
	}
	if (!p->origin.stored) {
		job_origin(R, j, 0, &p->origin);
		p->origin.sent = 1;
		if (p->endpoint)
			p->origin.url = binfer_mask(xasprintf("%s%s", p->endpoint,
			    R->o->api_path), R->secret);
	}
	p->origin.hit = 1;
	return 1;
}

void
job_prepare(const struct binfer_run *R, struct job *j, struct job_prep *p)
{
	assert(j->rec != NULL && j->body == NULL);
	memset(p, 0, sizeof(*p));
	binfer_result_init(&p->answer);
	binfer_origin_init(&p->origin);
	p->status = R->o->judge ? judge_prepare(R, j) : record_prepare(R, j, p);
	if (p->status == JOB_SEND && from_cache(R, j, p))
		p->status = JOB_CACHED;
}

long long
job_work(const struct binfer_run *R, const json_t *rec)
{
	if (R->o->judge || R->o->engine == BINFER_EXTRACTIVE)
		return -1;
	return record_work(R->o, rec);
}

void
job_prep_release(struct job_prep *p)
{
	binfer_result_release(&p->answer);
	binfer_origin_release(&p->origin);
	free(p->endpoint);
	free(p->error);
	memset(p, 0, sizeof(*p));
}

void
job_put_answer(struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const struct binfer_origin *g)
{
	enum binfer_reason why;

	assert(j->rec != NULL && j->state != J_DONE);
	if (R->o->judge)
		why = judge_put(R, j, endpoint, r, NULL, g);
	else
		why = record_put_answer(R, j, endpoint, r, g);
	if (why != REASON_N)
		R->n.nreason[why]++;
	else
		R->n.answered++;
}

void
job_put_error(struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why)
{
	struct binfer_origin g;

	assert(j->rec != NULL && j->state != J_DONE && why < REASON_N);
	job_origin(R, j, endpoint != NULL, &g);
	free(g.obtained);	/* a failure obtained no answer */
	g.obtained = NULL;
	if (R->o->judge)
		judge_put(R, j, endpoint, NULL, err, &g);
	else
		record_put_error(R, j, endpoint, err, why, &g);
	binfer_origin_release(&g);
	R->n.nreason[why]++;
}
