/*
 * sched.c - the request scheduler: reads context records as they are
 * needed, keeps a window of at most wcap of them, sends their requests
 * concurrently (at most --jobs in flight) over the endpoints, retries with
 * backoff, moves a dead endpoint's requests to the live ones, and writes
 * each record as soon as it and every record before it are done.  Memory
 * is bounded by the window, not by the input.
 */
#include <assert.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"
#include "run.h"

#define MAX_BODY (64u << 20)	/* cap on a server's answer */
#define DEAD_MAX_S 30.0		/* longest pause of a dead endpoint */

/* The input: files in order, stdin when none. */
struct input {
	struct ndj_reader rd;
	char **files;
	int open, eof;
};

static struct job *
slot(const struct binfer_run *R, unsigned long long seq)
{
	assert(seq >= R->head && seq < R->tail);
	return &R->win[seq % R->wcap];
}

static double
jitter(struct binfer_run *R)
{
	/* xorshift64*: jitter needs spread, not quality */
	R->rng ^= R->rng >> 12;
	R->rng ^= R->rng << 25;
	R->rng ^= R->rng >> 27;
	return (double)((R->rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static json_t *
next_record(struct input *in)
{
	json_t *rec;

	while (!in->eof) {
		if (!in->open) {
			ndj_reader_open(&in->rd, *in->files ? *in->files : "-");
			in->open = 1;
		}
		if ((rec = ndj_next(&in->rd)) != NULL)
			return rec;
		ndj_reader_close(&in->rd);
		in->open = 0;
		if (!*in->files || !*++in->files)
			in->eof = 1;
	}
	return NULL;
}

/*
 * Can a record be read without waiting?  Bytes in the stdio buffer (as
 * gnulib's freadahead reads them on glibc), else the descriptor polls
 * readable (always so for a regular file, and at end of input).
 */
static int
input_ready(const struct input *in)
{
	struct pollfd pfd;

	if (!in->open)
		return 1;
#ifdef __GLIBC__
	if (in->rd.fp->_IO_read_ptr < in->rd.fp->_IO_read_end)
		return 1;
#endif
	pfd.fd = fileno(in->rd.fp);
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) > 0;
}

/* Anything to do but wait for input? */
static int
busy(const struct binfer_run *R)
{
	unsigned long long s;

	if (R->inflight > 0 || R->retry_head)
		return 1;
	for (s = R->head; s < R->tail; s++)
		if (R->win[s % R->wcap].state == J_READY || R->win[s % R->wcap].state == J_DONE)
			return 1;
	return 0;
}

/*
 * Read records into the window while there is room, without waiting for a
 * slow producer while requests are in flight or records wait to be written.
 */
static void
fill(struct binfer_run *R, struct input *in)
{
	while (!in->eof && R->tail - R->head < R->wcap && (input_ready(in) || !busy(R))) {
		json_t *rec = next_record(in);
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
		j->retry_after = -1;
		j->state = J_READY;
		R->tail++;
		job_prepare(R, j);
		R->records++;
	}
}

/* ------------------------------------------------------------ transfers */

static size_t
on_body(char *p, size_t size, size_t n, void *ud)
{
	struct job *j = ud;
	size_t len = size * n;

	if (j->resp.len + len > MAX_BODY) {
		j->too_big = 1;
		return 0;
	}
	buf_add(&j->resp, p, len);
	return len;
}

static size_t
on_header(char *p, size_t size, size_t n, void *ud)
{
	struct job *j = ud;
	size_t len = size * n;

	if (len > 12 && strncasecmp(p, "retry-after:", 12) == 0) {
		char v[64];
		size_t k = len - 12;
		long long secs;
		char *s = v, *e;

		if (k >= sizeof(v))
			k = sizeof(v) - 1;
		memcpy(v, p + 12, k);
		v[k] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' '))
			*--e = '\0';
		if (parse_int(s, &secs) == 0 && secs >= 0) {
			j->retry_after = secs > 300 ? 300 : (long)secs;
		} else {
			time_t t = curl_getdate(s, NULL);	/* an HTTP-date */

			if (t > 0) {
				long d = (long)(t - time(NULL));

				j->retry_after = d < 0 ? 0 : d > 300 ? 300 : d;
			}
		}
	}
	return len;
}

/* The endpoint for j: live ones first, the fewest in flight, a retry elsewhere. */
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

static void
start_job(struct binfer_run *R, struct job *j, double now)
{
	CURL *h;
	char *url;

	assert(j->state == J_READY || j->state == J_WAIT);
	j->ep = pick_endpoint(R, j, now);
	h = j->easy = R->npool ? R->pool[--R->npool] : curl_easy_init();
	if (!h)
		die("curl_easy_init failed");
	buf_reset(&j->resp);
	j->retry_after = -1;
	j->too_big = 0;
	url = xasprintf("%s%s", R->ep[j->ep].url, R->o->api_path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, j->body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)j->body_len);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, R->headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, j);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, j);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, R->o->timeout_s * 1000L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_PRIVATE, j);
	free(url);
	curl_multi_add_handle(R->multi, h);
	R->ep[j->ep].inflight++;
	R->inflight++;
	j->state = J_INFLIGHT;
}

static void
release_easy(struct binfer_run *R, struct job *j)
{
	assert(j->easy && j->ep >= 0 && j->ep < R->nep);
	curl_multi_remove_handle(R->multi, j->easy);
	curl_easy_reset(j->easy);
	R->pool = xreallocarray(R->pool, R->npool + 1, sizeof(*R->pool));
	R->pool[R->npool++] = j->easy;
	j->easy = NULL;
	R->ep[j->ep].inflight--;
	R->inflight--;
}

static void
schedule_retry(struct binfer_run *R, struct job *j, double delay)
{
	if (delay < 0 && j->retry_after >= 0) {
		delay = (double)j->retry_after;
	} else if (delay < 0) {
		delay = (double)R->o->retry_delay_ms / 1000.0 * ldexp(1.0, j->attempts - 1);
		delay *= 0.5 + jitter(R);	/* "full" spread around the step */
		if (delay > 60)
			delay = 60;
	}
	j->not_before = now_seconds() + delay;
	j->state = J_WAIT;
	j->next = R->retry_head;
	R->retry_head = j;
}

/* Is another endpoint live?  Then a refused connection moves the request. */
static int
mark_dead(struct binfer_run *R, int ep, double now)
{
	struct binfer_endpoint *e = &R->ep[ep];
	int i;

	e->dead++;
	e->dead_until = now + fmin(DEAD_MAX_S, ldexp(0.5, e->dead));
	if (e->dead == 1 && R->nep > 1)
		warn("%s: no connection; its requests go to the other endpoints", e->url);
	for (i = 0; i < R->nep; i++)
		if (i != ep && R->ep[i].dead_until <= now)
			return 1;
	return 0;
}

static int
connect_failed(CURLcode cc)
{
	return cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST;
}

static void
complete_job(struct binfer_run *R, struct job *j, CURLcode cc)
{
	long status = 0;
	struct binfer_result r;
	int st, ep = j->ep;
	char *err;
	const char *endpoint = R->ep[ep].url;
	double now = now_seconds();

	curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &status);
	binfer_result_init(&r);
	release_easy(R, j);
	if (cc != CURLE_OK && connect_failed(cc) && mark_dead(R, ep, now)) {
		schedule_retry(R, j, 0);	/* another endpoint, no attempt spent */
		return;
	}
	if (cc == CURLE_OK)
		R->ep[ep].dead = 0;
	j->attempts++;
	if (cc != CURLE_OK) {
		st = j->too_big ? BINFER_FAIL : BINFER_RETRY;
		r.error = j->too_big ? xasprintf("answer larger than %u bytes", MAX_BODY)
		    : xasprintf("%s", curl_easy_strerror(cc));
	} else {
		st = binfer_parse(R->o->engine, (int)status, buf_str(&j->resp), j->resp.len,
		    R->o->stream, &r);
	}
	buf_release(&j->resp);
	if (st == BINFER_OK) {
		if (R->o->cache_dir)
			binfer_cache_store(R->o->cache_dir, j->hash, binfer_engine_name(R->o->engine),
			    R->o->model_tag, endpoint, &r);
		job_finish_ok(R, j, endpoint, &r);
	} else if (st == BINFER_RETRY && j->attempts <= R->o->retries) {
		schedule_retry(R, j, -1);
	} else {
		err = j->attempts > 1 ? xasprintf("%s (after %d attempts)", r.error, j->attempts)
		    : xstrdup(r.error);
		job_finish_err(R, j, endpoint, err, r.overflow ? REASON_CONTEXT_OVERFLOW :
		    REASON_INFERENCE_ERROR);
		free(err);
	}
	binfer_result_release(&r);
}

/* The next job to start: a due retry first, then the next fresh one. */
static struct job *
next_job(struct binfer_run *R, unsigned long long *cursor, double now, double *wait)
{
	struct job **pp, *j;

	for (pp = &R->retry_head; (j = *pp) != NULL; pp = &j->next)
		if (j->not_before <= now) {
			*pp = j->next;
			return j;
		} else if (j->not_before - now < *wait) {
			*wait = j->not_before - now;
		}
	if (*cursor < R->head)
		*cursor = R->head;
	while (*cursor < R->tail && slot(R, *cursor)->state != J_READY)
		(*cursor)++;
	if (*cursor < R->tail) {
		*wait = 0;
		return slot(R, (*cursor)++);
	}
	return NULL;
}

/* Write the done records at the head of the window, in input order. */
static void
emit_ready(struct binfer_run *R, struct progress *pg)
{
	char note[96];
	unsigned long long fails = 0, head = R->head;
	int k;

	for (k = 0; k < REASON_N; k++)
		fails += R->nreason[k];
	while (R->head < R->tail && slot(R, R->head)->state == J_DONE) {
		struct job *j = slot(R, R->head);
		double el = now_seconds() - pg->t0;

		binfer_mask_json(j->rec, R->secret);
		ndj_emit(j->rec);
		json_decref(j->rec);
		free(j->body);
		buf_release(&j->resp);
		memset(j, 0, sizeof(*j));	/* J_FREE: the slot is reusable */
		R->head++;
		snprintf(note, sizeof(note), "%.1f tok/s  %llu failed",
		    el > 0 ? (double)R->tokens_out / el : 0.0, fails);
		progress_add(pg, 1, note);
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

static void
drain_messages(struct binfer_run *R)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(R->multi, &left)) != NULL) {
		if (m->msg == CURLMSG_DONE) {
			CURLcode cc = m->data.result;
			void *pj = NULL;

			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &pj);
			assert(pj != NULL);
			complete_job(R, pj, cc);
		}
	}
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
run_loop(struct binfer_run *R, struct input *in, struct progress *pg, int *stopped)
{
	unsigned long long cursor = 0;
	int draining = 0, running;

	for (;;) {
		double now = now_seconds(), wait = 0.2;
		struct job *j;
		const struct job *f;

		if (interrupted(R, &draining)) {
			*stopped = 1;
			return;
		}
		if (!draining)
			fill(R, in);
		if (!R->warmed && (f = first_ready(R)) != NULL) {
			binfer_warm_up(R, f);
			R->warmed = 1;
		}
		while (!draining && R->inflight < R->o->jobs &&
		    (j = next_job(R, &cursor, now, &wait)) != NULL)
			start_job(R, j, now);
		curl_multi_perform(R->multi, &running);
		drain_messages(R);
		emit_ready(R, pg);
		if (in->eof && R->head == R->tail)
			return;
		if (R->inflight < R->o->jobs && !draining && R->tail - R->head < R->wcap && !in->eof)
			wait = 0;	/* more input to read */
		if (wait > 0 || R->inflight > 0)
			curl_multi_poll(R->multi, NULL, 0, (int)fmin(200, fmax(0, wait * 1000)), NULL);
	}
}

int
binfer_schedule(struct binfer_run *R)
{
	struct input in;
	struct progress pg;
	int stopped = 0;
	unsigned long long k;

	memset(&in, 0, sizeof(in));
	in.files = R->o->inputs;
	R->wcap = (size_t)R->o->jobs * 4 + 60;
	R->win = xcalloc(R->wcap, sizeof(*R->win));
	R->rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ULL;
	R->multi = curl_multi_init();
	curl_multi_setopt(R->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)R->o->jobs);
	progress_start(&pg, "binfer", 0);
	run_loop(R, &in, &pg, &stopped);
	progress_end(&pg);
	for (k = R->head; k < R->tail; k++) {
		struct job *j = slot(R, k);

		if (j->easy) {
			curl_multi_remove_handle(R->multi, j->easy);
			curl_easy_cleanup(j->easy);
		}
		json_decref(j->rec);
		free(j->body);
		buf_release(&j->resp);
	}
	if (in.open)
		ndj_reader_close(&in.rd);
	for (k = 0; k < R->npool; k++)
		curl_easy_cleanup(R->pool[k]);
	free(R->pool);
	free(R->win);
	curl_multi_cleanup(R->multi);
	if (stopped) {
		warn("interrupted: wrote %llu of %llu records; run again to resume "
		    "from the cache", R->head, R->records);
		return 130;
	}
	return 0;
}
