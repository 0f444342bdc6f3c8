/*
 * sched.c - the request scheduler: reads context records as they are
 * needed, keeps a window of at most wcap of them, sends their requests
 * concurrently (at most --jobs in flight) over the endpoints, retries with
 * backoff, moves a dead endpoint's requests to the live ones, and writes
 * each record as soon as it and every record before it are done.  Memory
 * is bounded by the window, not by the input.  It keeps the run's tally
 * and the progress line (its ETA: the prompt tokens left over the rate the
 * servers get through them), and stops the run when no endpoint makes a
 * connection any more.
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "run.h"

#define MAX_BODY (64u << 20)	/* cap on a server's answer */
#define DEAD_MAX_S 30.0		/* longest pause of a dead endpoint */

static struct job *
slot(const struct binfer_run *R, unsigned long long seq)
{
	assert(seq >= R->head && seq < R->tail);
	return &R->win[seq % R->wcap];
}

/* Anything to do but wait for input? */
static int
busy(const struct binfer_run *R)
{
	unsigned long long s;

	if (R->inflight > 0)
		return 1;
	for (s = R->head; s < R->tail; s++)
		if (R->win[s % R->wcap].state == J_READY || R->win[s % R->wcap].state == J_DONE)
			return 1;
	return 0;
}

/* j is done: its record can be written once those before it are. */
static void
set_done(struct binfer_run *R, struct job *j)
{
	assert(j->state != J_DONE);
	j->state = J_DONE;
	if (j->expected > 0)
		R->n.work_done += (unsigned long long)j->expected;
}

/*
 * Prepare j and act on what it needs: a request to send (J_READY), or its
 * record written now (J_DONE) with the cache's answer, the extractive
 * engine's, an overflow's error, or as it came.
 */
static void
start(struct binfer_run *R, struct job *j)
{
	struct job_prep p;

	job_prepare(R, j, &p);
	switch (p.status) {
	case JOB_SEND:
		j->state = J_READY;
		break;
	case JOB_CACHED:
		R->n.cached++;
		/* FALLTHROUGH */
	case JOB_LOCAL:
		job_put_answer(R, j, p.endpoint, &p.answer, &p.origin);
		set_done(R, j);
		break;
	case JOB_OVERFLOW:
		job_put_error(R, j, NULL, p.error, REASON_CONTEXT_OVERFLOW);
		set_done(R, j);
		break;
	case JOB_PASS:
		R->n.passed++;
		set_done(R, j);
		break;
	}
	job_prep_release(&p);
}

/*
 * Read records into the window while there is room, without waiting for a
 * slow producer while requests are in flight or records wait to be written.
 */
static void
fill(struct binfer_run *R, struct binfer_input *in)
{
	while (!in->eof && R->tail - R->head < R->wcap && (input_ready(in) || !busy(R))) {
		json_t *rec = input_next(in);
		struct job *j;

		if (!rec)
			break;
		j = &R->win[R->tail % R->wcap];
		assert(j->state == J_FREE && j->rec == NULL && j->body == NULL);
		memset(j, 0, sizeof(*j));
		j->rec = rec;	/* the window owns the record now */
		j->expected = -1;
		j->num_ctx = -1;
		j->ep = -1;
		R->tail++;
		R->n.records++;
		start(R, j);
	}
}

/* ------------------------------------------------------------ transfers */

/* The endpoint for j: live ones first, the fewest requests, a retry elsewhere. */
static int
pick_endpoint(const struct binfer_run *R, const struct job *j, double now)
{
	int best = -1, i, k, live, best_live = 0;

	for (k = 0; k < R->nep; k++) {
		i = (k + (j->attempts > 0 && j->ep >= 0 ? j->ep + 1 : 0)) % R->nep;
		live = R->ep[i].dead_until <= now;
		if (best < 0 || (live && !best_live) || (live == best_live &&
		    (live ? R->ep[i].inflight < R->ep[best].inflight :
		    R->ep[i].dead_until < R->ep[best].dead_until))) {
			best = i;
			best_live = live;
		}
	}
	assert(best >= 0 && best < R->nep);
	return best;
}

static void request_done(struct http_req *req);

/* Hand j to the driver, to start after delay_ms, on the endpoint it picks. */
static void
submit(struct binfer_run *R, struct job *j, long delay_ms)
{
	struct http_req *q = &j->req;

	assert(j->state == J_READY || j->state == J_INFLIGHT);
	j->ep = pick_endpoint(R, j, now_seconds());
	free(j->url);
	j->url = xasprintf("%s%s", R->ep[j->ep].url, R->o->api_path);
	q->url = j->url;
	q->post = j->body;
	q->post_len = j->body_len;
	q->headers = R->headers;
	q->timeout_ms = R->o->timeout_s * 1000L;
	q->connect_timeout_ms = 10000;
	q->max_body = MAX_BODY;
	q->on_done = request_done;
	q->arg = R;
	if (j->state == J_READY)
		R->inflight++;
	if (R->n.t_first == 0)
		R->n.t_first = now_seconds();
	R->ep[j->ep].inflight++;
	j->state = J_INFLIGHT;
	http_submit(R->http, q, 0, delay_ms);
}

/* No connection was made: nobody listens there, or the name is unknown. */
static int
no_connection(const struct http_req *q)
{
	return q->err == HTTP_ECONNECT || q->err == HTTP_EDNS ||
	    q->err == HTTP_ECONNECT_TIMEOUT;
}

/*
 * Endpoint ep made no connection (q): said at once, the first time.  Is
 * another endpoint live?  Then the request moves there.
 */
static int
mark_dead(struct binfer_run *R, int ep, const struct http_req *q, double now)
{
	struct binfer_endpoint *e = &R->ep[ep];
	int i;

	e->dead++;
	e->dead_until = now + fmin(DEAD_MAX_S, ldexp(0.5, e->dead));
	if (e->dead == 1)
		warn("%s: no connection (%s); %s", e->name,
		    curl_easy_strerror((CURLcode)q->curl_code), R->nep > 1 ?
		    "its requests go to the other endpoints" :
		    "its requests are tried again (--retries)");
	for (i = 0; i < R->nep; i++)
		if (i != ep && R->ep[i].dead_until <= now)
			return 1;
	return 0;
}

/* Does any endpoint still answer (none failed to connect since it last did)? */
static int
any_answers(const struct binfer_run *R)
{
	int i;

	for (i = 0; i < R->nep; i++)
		if (R->ep[i].dead == 0)
			return 1;
	return 0;
}

/* The driver's answer parsed; BINFER_RETRY with *retry_after_s for a retry. */
static int
parse_answer(struct binfer_run *R, struct http_req *q, struct binfer_result *r,
    long *retry_after_s)
{
	char *ra;

	*retry_after_s = -1;
	if (q->err == HTTP_ETOOBIG || q->err == HTTP_ETOOBIG_DECODED) {
		r->error = xasprintf("answer larger than %u bytes", MAX_BODY);
		return BINFER_FAIL;
	}
	if (q->err != HTTP_OK) {
		r->error = xstrdup(curl_easy_strerror((CURLcode)q->curl_code));
		return BINFER_RETRY;
	}
	if ((ra = http_header(q->hdrs.s, q->hdrs.len, "retry-after")) != NULL) {
		*retry_after_s = http_retry_after(ra, time(NULL));
		free(ra);
	}
	return binfer_parse(R->o->engine, (int)q->status, buf_str(&q->body), q->body.len,
	    R->o->stream, r);
}

/* Write j's answer (and store it in the cache) or its failure: J_DONE. */
static void
finish(struct binfer_run *R, struct job *j, const char *endpoint, int st,
    const struct binfer_result *r)
{
	struct binfer_origin g;
	char *err;

	R->inflight--;
	R->n.t_last = now_seconds();
	if (j->expected > 0)
		R->n.sent_tokens += (unsigned long long)j->expected;
	if (r->eval_count > 0)
		R->n.tokens_out += (unsigned long long)r->eval_count;
	if (st == BINFER_OK) {
		/* the request that obtained r, stored with it */
		job_origin(R, j, 1, &g);
		if (R->o->cache_dir) {
			binfer_cache_store(R->o->cache_dir, j->hash, binfer_engine_name(R->o->engine),
			    R->o->model_tag, endpoint, r, &g);
		}
		job_put_answer(R, j, endpoint, r, &g);
		binfer_origin_release(&g);
	} else {
		err = j->attempts > 1 ? xasprintf("%s (after %d attempts)", r->error, j->attempts)
		    : xstrdup(r->error);
		job_put_error(R, j, endpoint, err, r->overflow ? REASON_CONTEXT_OVERFLOW :
		    REASON_INFERENCE_ERROR);
		free(err);
	}
	set_done(R, j);
}

/*
 * The driver's callback: a refused connection moves the request to another
 * endpoint, a transient failure is tried again after a backoff, anything
 * else finishes the job, except that when no endpoint makes a connection
 * any more the run stops (STOP_GONE): the server is gone, not the answer.
 */
static void
request_done(struct http_req *q)
{
	struct binfer_run *R = q->arg;
	struct job *j = (struct job *)q;	/* req is the job's first member */
	const char *endpoint;
	struct binfer_result r;
	long retry_after;
	int st;

	assert((void *)&j->req == (void *)j);
	assert(j->state == J_INFLIGHT && j->ep >= 0 && j->ep < R->nep);
	endpoint = R->ep[j->ep].name;
	R->ep[j->ep].inflight--;
	if (no_connection(q) && mark_dead(R, j->ep, q, now_seconds())) {
		submit(R, j, 0);	/* another endpoint, no attempt spent */
		return;
	}
	if (q->err == HTTP_OK && R->ep[j->ep].dead > 0) {
		warn("%s: answers again", endpoint);
		R->ep[j->ep].dead = 0;
	}
	j->attempts++;
	binfer_result_init(&r);
	st = parse_answer(R, q, &r, &retry_after);
	http_req_release(q);
	if (st == BINFER_RETRY && j->attempts <= R->o->retries) {
		submit(R, j, http_backoff_ms(R->http, j->attempts, retry_after));
	} else if (no_connection(q) && !any_answers(R)) {
		R->inflight--;
		j->state = J_READY;	/* not done: asked again by the next run */
		R->stop = STOP_GONE;
		R->stop_url = endpoint;
	} else {
		finish(R, j, endpoint, st, &r);
	}
	binfer_result_release(&r);
}

/* The next job to send. */
static struct job *
next_job(struct binfer_run *R, unsigned long long *cursor)
{
	if (*cursor < R->head)
		*cursor = R->head;
	while (*cursor < R->tail && slot(R, *cursor)->state != J_READY)
		(*cursor)++;
	return *cursor < R->tail ? slot(R, (*cursor)++) : NULL;
}

/*
 * The seconds left: the prompt tokens of the records not done over the
 * rate at which the servers got through prompt tokens (the answers' output
 * included); -1 when either is unknown.
 */
static double
eta(const struct binfer_run *R, double now)
{
	const struct binfer_tally *n = &R->n;
	double el = now - n->t_first;

	if (n->work_total < 0 || n->t_first == 0 || n->sent_tokens == 0 || el <= 0)
		return -1;
	if ((unsigned long long)n->work_total <= n->work_done)
		return 0;
	return (double)((unsigned long long)n->work_total - n->work_done) /
	    ((double)n->sent_tokens / el);
}

/* The progress line's note: tokens/s in and out, failures; and its ETA. */
static void
progress_note(const struct binfer_run *R, struct progress *pg, char *note, size_t len)
{
	double now = now_seconds(), el = R->n.t_first > 0 ? now - R->n.t_first : 0;
	unsigned long long fails = 0;
	int k;

	for (k = 0; k < REASON_N; k++)
		if (k != REASON_CONTEXT_OVERFLOW)
			fails += R->n.nreason[k];
	pg->eta = eta(R, now);
	snprintf(note, len, "%.0f tok/s in  %.1f tok/s out  %llu failed",
	    el > 0 ? (double)R->n.sent_tokens / el : 0.0,
	    el > 0 ? (double)R->n.tokens_out / el : 0.0, fails);
}

/* Write the done records at the head of the window, in input order. */
static void
emit_ready(struct binfer_run *R, struct progress *pg)
{
	char note[128];
	unsigned long long head = R->head;

	while (R->head < R->tail && slot(R, R->head)->state == J_DONE) {
		struct job *j = slot(R, R->head);

		assert(j->rec != NULL && j->state == J_DONE);
		binfer_mask_json(j->rec, R->secret);
		ndj_emit(j->rec);	/* the record leaves the window here */
		json_decref(j->rec);
		free(j->body);
		free(j->url);
		http_req_release(&j->req);
		memset(j, 0, sizeof(*j));	/* J_FREE: the slot is reusable */
		R->head++;
		if (pg->active)
			progress_note(R, pg, note, sizeof(note));
		progress_add(pg, 1, pg->active ? note : NULL);
	}
	if (R->head != head)
		fflush(ndj_output());	/* written means readable downstream */
}

/* The first job that needs the network, for the warm-up's num_ctx. */
static const struct job *
first_ready(const struct binfer_run *R)
{
	unsigned long long s;

	for (s = R->head; s < R->tail; s++)
		if (slot(R, s)->state == J_READY)
			return slot(R, s);
	return NULL;
}

/* Interrupted: 1 to stop now.  The first interrupt lets requests finish. */
static int
interrupted(struct binfer_run *R, int *draining)
{
	if (ctx_interrupted) {
		ctx_interrupted = 0;
		if (*draining || R->inflight == 0)
			return 1;
		*draining = 1;
		warn("interrupted: finishing %d request%s in flight "
		    "(interrupt again to abandon them)", R->inflight,
		    R->inflight == 1 ? "" : "s");
	}
	return *draining && R->inflight == 0;
}

static void
run_loop(struct binfer_run *R, struct binfer_input *in, struct progress *pg)
{
	unsigned long long cursor = 0;
	int draining = 0;
	struct job *j;
	const struct job *f;

	for (;;) {
		if (interrupted(R, &draining)) {
			R->stop = STOP_INTERRUPT;
			return;
		}
		if (!draining)
			fill(R, in);
		if (!R->warmed && (f = first_ready(R)) != NULL) {
			binfer_warm_up(R, f);
			R->warmed = 1;
		}
		/* at most --jobs handed to the driver: an interrupt stops the rest */
		while (!draining && R->inflight < R->o->jobs && (j = next_job(R, &cursor)) != NULL)
			submit(R, j, 0);
		emit_ready(R, pg);
		if (in->eof && R->head == R->tail)
			return;
		http_step(R->http, R->inflight > 0 ? 200 : 0);
		emit_ready(R, pg);
		if (R->stop != STOP_NONE)
			return;
	}
}

/* The records ahead and their prompt tokens, for the progress line. */
static void
count_work(const json_t *rec, void *ud)
{
	struct binfer_run *R = ud;
	long long w = job_work(R, rec);

	if (w < 0)
		R->n.work_total = -1;
	else if (R->n.work_total >= 0)
		R->n.work_total += w;
}

/*
 * The progress line, on a terminal: its total and the tokens of the work
 * ahead, when the inputs can be read ahead (regular files).
 */
static void
progress_open(struct binfer_run *R, struct progress *pg)
{
	long long total;

	progress_start(pg, "binfer", 0);
	R->n.work_total = -1;
	if (!pg->active)
		return;
	R->n.work_total = 0;
	total = input_scan(R->o->inputs, count_work, R);
	if (total < 0)
		R->n.work_total = -1;
	else
		pg->total = R->n.total = (unsigned long long)total;
}

int
binfer_schedule(struct binfer_run *R)
{
	struct http_config hc;
	struct binfer_input in;
	struct progress pg;
	unsigned long long k;

	input_init(&in, R->o->inputs);
	R->wcap = (size_t)R->o->jobs * 4 + 60;
	R->win = xcalloc(R->wcap, sizeof(*R->win));
	memset(&hc, 0, sizeof(hc));
	hc.max_inflight = R->o->jobs;
	hc.per_host = R->o->jobs;
	hc.retry_base_ms = R->o->retry_delay_ms > 0 ? R->o->retry_delay_ms : 1;
	hc.retry_max_ms = 60000;
	R->http = http_new(&hc);
	progress_open(R, &pg);
	run_loop(R, &in, &pg);
	progress_end(&pg);
	http_free(R->http);	/* abandons what is still in flight */
	for (k = R->head; k < R->tail; k++) {
		struct job *j = slot(R, k);

		json_decref(j->rec);
		free(j->body);
		free(j->url);
		http_req_release(&j->req);
	}
	input_close(&in);
	free(R->win);
	return R->stop == STOP_INTERRUPT ? 130 : R->stop == STOP_GONE ? EXIT_DATA : 0;
}
