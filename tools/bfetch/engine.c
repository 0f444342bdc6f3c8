/*
 * engine.c - the fetching engine: one libcurl multi handle with many
 * requests in flight across hosts, a bounded number per host and a delay
 * between request starts on the same host (start to start, as Scrapy's
 * DOWNLOAD_DELAY), robots.txt fetched once per origin before any page of
 * it, and the mapping of libcurl's results to fetch_status.
 *
 * A host here is an origin (scheme, host name, port), the unit RFC 9309
 * §2.3 gives a robots.txt to.  Jobs of a host are taken in input order; hosts
 * are served round-robin so one slow site does not hold the others.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "ctx.h"
#include "bfetch.h"

#define ROBOTS_CAP (512 * 1024)	/* RFC 9309 §2.5: parse at least 500 KiB */
#define HEADERS_CAP (256 * 1024)
#define RETRY_AFTER_MAX 300	/* seconds of Retry-After honoured by --retry */

enum robots_state { RB_NONE, RB_FETCHING, RB_READY };

struct host {
	char *origin;
	enum robots_state rstate;
	struct bfetch_robots *robots;	/* NULL with rstate READY: no check */
	struct bfetch_result *rfail;	/* robots.txt failure applied to jobs */
	long inflight;
	double next_ok;			/* monotonic seconds */
	size_t *q;			/* pending job indices */
	size_t qhead, qlen, qcap;
};

struct xfer {
	CURL *easy;
	long job;			/* -1: robots.txt of host */
	size_t host;
	struct buf body, hdrs;
	struct curl_slist *accept;
	size_t cap;
	int too_big;
	double t0;
	char ts[32];
	char err[CURL_ERROR_SIZE];
};

struct engine {
	const struct bfetch_opts *o;
	struct bfetch_job *jobs;
	CURLM *multi;
	struct host *hosts;
	size_t nhosts, hcap, rr;
	json_t *hostmap;		/* origin -> index */
	long active;
	size_t pending;			/* jobs not yet done */
	void (*done)(size_t, void *);
	void *ctx;
	struct progress prog;
	unsigned long counts[BF_NSTATUS];
	CURL **pool;			/* finished easy handles, for reuse */
	size_t npool, poolcap;
};

/* ------------------------------------------------------------ records */

void
bfetch_result_release(struct bfetch_result *r)
{
	free(r->content_type);
	free(r->last_modified);
	free(r->etag);
	free(r->final_url);
	free(r->retry_after);
	free(r->reason);
	free(r->sha);
	memset(r, 0, sizeof *r);
}

static void
set_str_or_null(json_t *o, const char *k, const char *v)
{
	if (v)
		json_set_str(o, k, v);
	else
		json_set_null(o, k);
}

json_t *
bfetch_make_record(const struct bfetch_job *j, const struct bfetch_result *r)
{
	json_t *o = json_copy(j->rec);

	if (o == NULL)
		die("out of memory");
	json_set_str(o, "url_hash", j->hash);
	json_set_str(o, "fetch_timestamp", r->ts);
	if (r->http_status > 0)
		json_set_int(o, "http_status", r->http_status);
	else
		json_set_null(o, "http_status");
	set_str_or_null(o, "content_type", r->content_type);
	json_set_int(o, "content_length_bytes", (long long)r->clen);
	set_str_or_null(o, "last_modified", r->last_modified);
	set_str_or_null(o, "etag", r->etag);
	json_set_str(o, "fetch_status", bfetch_status_names[r->status]);
	set_str_or_null(o, "failure_reason", r->reason);
	set_str_or_null(o, "final_url", r->final_url);
	json_set_int(o, "redirect_count", r->redirects);
	set_str_or_null(o, "content_sha256", r->sha);
	set_str_or_null(o, "archive_path", r->stored ? j->rel : NULL);
	json_set_int(o, "elapsed_ms", r->elapsed_ms);
	if (r->retry_after)
		json_set_str(o, "retry_after", r->retry_after);
	if (j->attempts > 1)
		json_set_int(o, "attempts", j->attempts);
	return o;
}

static void
finish(struct engine *e, size_t ji, struct bfetch_result *r)
{
	struct bfetch_job *j = &e->jobs[ji];
	char note[160];

	j->result = bfetch_make_record(j, r);
	e->counts[r->status]++;
	bfetch_result_release(r);
	e->pending--;
	snprintf(note, sizeof note, "ok %lu  http %lu  timeout %lu  dns %lu  "
	    "waf %lu  js %lu", e->counts[BF_SUCCESS], e->counts[BF_HTTP_ERROR],
	    e->counts[BF_TIMEOUT], e->counts[BF_DNS_FAILURE],
	    e->counts[BF_WAF_BLOCKED], e->counts[BF_JS_ONLY]);
	progress_add(&e->prog, 1, note);
	e->done(ji, e->ctx);
}

/* A job decided without a request (bad URL, robots.txt). */
static void
finish_now(struct engine *e, size_t ji, enum bfetch_status st, long http,
    char *reason)
{
	struct bfetch_result r;

	memset(&r, 0, sizeof r);
	ctx_utc_now(r.ts, sizeof r.ts);
	r.status = st;
	r.http_status = http;
	r.reason = reason;
	finish(e, ji, &r);
}

/* ------------------------------------------------------------ hosts */

static void
q_push(struct host *h, size_t ji, int front)
{
	if (front && h->qhead > 0) {
		h->q[--h->qhead] = ji;
		return;
	}
	if (h->qlen == h->qcap) {
		h->qcap = h->qcap ? h->qcap * 2 : 8;
		h->q = xreallocarray(h->q, h->qcap, sizeof *h->q);
	}
	if (front) {
		memmove(h->q + h->qhead + 1, h->q + h->qhead,
		    (h->qlen - h->qhead) * sizeof *h->q);
		h->q[h->qhead] = ji;
	} else {
		h->q[h->qlen] = ji;
	}
	h->qlen++;
}

/*
 * Parse the job's URL: http or https only; the origin names its host; the
 * path and query are what robots.txt rules match.  Returns the host index,
 * or -1 with *why set (malloc'd).
 */
static long
job_host(struct engine *e, struct bfetch_job *j, char **why)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *hostname = NULL, *port = NULL, *path = NULL,
	    *query = NULL, *origin;
	json_t *v;
	long hi;
	CURLUcode rc;

	*why = NULL;
	if (u == NULL)
		die("out of memory");
	rc = curl_url_set(u, CURLUPART_URL, j->fetch_url, CURLU_NON_SUPPORT_SCHEME);
	if (rc != CURLUE_OK) {
		*why = xasprintf("invalid URL: %s", curl_url_strerror(rc));
		curl_url_cleanup(u);
		return -1;
	}
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	if (scheme == NULL || (strcmp(scheme, "http") != 0 &&
	    strcmp(scheme, "https") != 0)) {
		*why = xasprintf("unsupported URL scheme '%s': only http and "
		    "https are fetched", scheme ? scheme : "");
		curl_free(scheme);
		curl_url_cleanup(u);
		return -1;
	}
	if (curl_url_get(u, CURLUPART_HOST, &hostname, 0) != CURLUE_OK) {
		*why = xstrdup("invalid URL: no host");
		curl_free(scheme);
		curl_url_cleanup(u);
		return -1;
	}
	curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
	curl_url_get(u, CURLUPART_PATH, &path, 0);
	curl_url_get(u, CURLUPART_QUERY, &query, 0);
	j->path = query ? xasprintf("%s?%s", path ? path : "/", query) :
	    xstrdup(path ? path : "/");
	for (char *p = hostname; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	origin = xasprintf("%s://%s:%s", scheme, hostname, port ? port : "");
	curl_free(scheme);
	curl_free(hostname);
	curl_free(port);
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(u);

	v = json_object_get(e->hostmap, origin);
	if (v) {
		free(origin);
		return (long)json_integer_value(v);
	}
	if (e->nhosts == e->hcap) {
		e->hcap = e->hcap ? e->hcap * 2 : 16;
		e->hosts = xreallocarray(e->hosts, e->hcap, sizeof *e->hosts);
	}
	hi = (long)e->nhosts++;
	memset(&e->hosts[hi], 0, sizeof e->hosts[hi]);
	e->hosts[hi].origin = origin;
	e->hosts[hi].rstate = e->o->robots ? RB_NONE : RB_READY;
	json_object_set_new(e->hostmap, origin, json_integer(hi));
	return hi;
}

/* ------------------------------------------------------------ transfers */

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;

	if (x->body.len + len > x->cap) {
		/* robots.txt: keep what fits and stop; pages: a failure */
		if (x->job < 0)
			buf_add(&x->body, p, x->cap - x->body.len);
		x->too_big = 1;
		return 0;
	}
	buf_add(&x->body, p, len);
	return len;
}

static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n, i;
	const char *colon;

	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		buf_reset(&x->hdrs);	/* a new response (redirect, 100) */
		return len;
	}
	colon = memchr(p, ':', len);
	if (colon == NULL || x->hdrs.len + len > HEADERS_CAP)
		return len;
	for (i = 0; p + i < colon; i++) {
		char c = p[i];

		buf_addc(&x->hdrs, c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	{
		size_t l = len;

		while (l > 0 && (p[l - 1] == '\n' || p[l - 1] == '\r'))
			l--;
		buf_add(&x->hdrs, colon, (size_t)(p + l - colon));
		buf_addc(&x->hdrs, '\n');
	}
	return len;
}

static void
start(struct engine *e, size_t hi, long ji)
{
	const struct bfetch_opts *o = e->o;
	struct host *h = &e->hosts[hi];
	struct xfer *x = xcalloc(1, sizeof *x);
	CURL *c;
	char *url;

	/* A reused handle keeps its allocations; reset clears every option. */
	if (e->npool > 0) {
		c = e->pool[--e->npool];
		curl_easy_reset(c);
	} else if ((c = curl_easy_init()) == NULL) {
		die("curl_easy_init failed");
	}
	x->easy = c;
	x->job = ji;
	x->host = hi;
	x->t0 = now_seconds();
	ctx_utc_now(x->ts, sizeof x->ts);
	if (ji < 0) {
		url = xasprintf("%s/robots.txt", h->origin);
		x->cap = ROBOTS_CAP;
		/* RFC 9309 §2.3.1.2: follow at least five redirects */
		curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
		h->rstate = RB_FETCHING;
	} else {
		struct bfetch_job *j = &e->jobs[ji];

		url = xstrdup(j->fetch_url);
		x->cap = (size_t)o->max_size;
		curl_easy_setopt(c, CURLOPT_MAXREDIRS, o->max_redirs);
		curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
		    (curl_off_t)o->max_size);
		j->attempts++;
		/* Ask for the representation the condition wants (RFC 9110 §12.5.1). */
		x->accept = curl_slist_append(NULL, j->kind == BK_HTML ?
		    "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8" :
		    j->kind == BK_MARKDOWN ?
		    "Accept: text/markdown,text/plain;q=0.9,*/*;q=0.8" :
		    "Accept: text/plain,text/markdown;q=0.9,*/*;q=0.8");
		if (x->accept == NULL)
			die("out of memory");
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, x->accept);
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	free(url);
	curl_easy_setopt(c, CURLOPT_PRIVATE, x);
	curl_easy_setopt(c, CURLOPT_USERAGENT, o->user_agent);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o->timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	if (strncmp(h->origin, "https:", 6) == 0)	/* wait to multiplex on h2 */
		curl_easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, x->err);
	if (o->resolve)
		curl_easy_setopt(c, CURLOPT_RESOLVE, o->resolve);
	if (curl_multi_add_handle(e->multi, c) != CURLM_OK)
		die("curl_multi_add_handle failed");
	h->inflight++;
	e->active++;
	h->next_ok = x->t0 + (double)o->rate_ms / 1000.0;
}

/* libcurl's result as fetch_status and a reason (malloc'd). */
static enum bfetch_status
map_error(const struct bfetch_opts *o, CURL *c, CURLcode rc, struct xfer *x,
    char **reason)
{
	const char *msg = x->err[0] ? x->err : curl_easy_strerror(rc);

	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		*reason = xasprintf("DNS resolution failed: %s", msg);
		return BF_DNS_FAILURE;
	case CURLE_OPERATION_TIMEDOUT: {
		curl_off_t pre = 0;

		/* pretransfer time is set once the connection (new or reused) is ready */
		curl_easy_getinfo(c, CURLINFO_PRETRANSFER_TIME_T, &pre);
		*reason = xasprintf("%s timed out after %ld ms: %s",
		    pre > 0 ? "transfer" : "connect", o->timeout_ms, msg);
		return BF_TIMEOUT;
	}
	case CURLE_FILESIZE_EXCEEDED:
		*reason = xasprintf("body larger than the %llu-byte cap "
		    "(Content-Length): not stored", o->max_size);
		return BF_HTTP_ERROR;
	case CURLE_WRITE_ERROR:
		if (x->too_big) {
			*reason = xasprintf("body larger than the %llu-byte cap "
			    "after decoding: not stored", o->max_size);
			return BF_HTTP_ERROR;
		}
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		*reason = xasprintf("more than %ld redirects: %s",
		    o->max_redirs, msg);
		return BF_HTTP_ERROR;
	case CURLE_UNSUPPORTED_PROTOCOL: {
		char *to = bfetch_header(x->hdrs.s, x->hdrs.len, "location");

		*reason = xasprintf("redirect to a non-http(s) URL refused "
		    "(Location: %.200s): %s", to ? to : "none", msg);
		free(to);
		return BF_HTTP_ERROR;
	}
	case CURLE_PARTIAL_FILE:
		*reason = xasprintf("body shorter than its Content-Length, "
		    "connection closed: %s", msg);
		return BF_HTTP_ERROR;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		*reason = xasprintf("connection failed mid-transfer (reset or "
		    "closed): %s", msg);
		return BF_HTTP_ERROR;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
		*reason = xasprintf("TLS failure: %s", msg);
		return BF_HTTP_ERROR;
	default:
		break;
	}
	*reason = xasprintf("transfer failed (curl error %d): %s", (int)rc, msg);
	return BF_HTTP_ERROR;
}

/* Transient failures a --retry run tries again. */
static int
retryable(enum bfetch_status st, long http, CURLcode rc)
{
	if (st == BF_TIMEOUT)
		return 1;
	if (st != BF_HTTP_ERROR)
		return 0;
	if (rc == CURLE_OK)
		return http == 429 || http == 500 || http == 502 ||
		    http == 503 || http == 504;
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_RECV_ERROR ||
	    rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING ||
	    rc == CURLE_PARTIAL_FILE;
}

static void
robots_done(struct engine *e, struct xfer *x, CURLcode rc)
{
	struct host *h = &e->hosts[x->host];
	long code = 0;

	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
	h->rstate = RB_READY;
	if ((rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && x->too_big)) &&
	    code >= 200 && code <= 299) {
		h->robots = bfetch_robots_parse(x->body.s ? x->body.s : "",
		    x->body.len, e->o->product);
		return;
	}
	if (rc == CURLE_OK && code >= 400 && code <= 499) {
		/* §2.3.1.3 "unavailable": no restrictions */
		h->robots = bfetch_robots_all(1);
		return;
	}
	/* §2.3.1.4 "unreachable": complete disallow, or the network error */
	h->rfail = xcalloc(1, sizeof *h->rfail);
	if (rc == CURLE_OK) {
		h->rfail->status = BF_HTTP_ERROR;
		h->rfail->reason = xasprintf("robots.txt unreachable (HTTP %ld): "
		    "complete disallow (RFC 9309 section 2.3.1.4)", code);
	} else {
		char *why;

		h->rfail->status = map_error(e->o, x->easy, rc, x, &why);
		h->rfail->reason = xasprintf("robots.txt fetch failed, page not "
		    "requested (RFC 9309 section 2.3.1.4): %s", why);
		free(why);
	}
}

static void
job_done(struct engine *e, struct xfer *x, CURLcode rc)
{
	const struct bfetch_opts *o = e->o;
	struct bfetch_job *j = &e->jobs[x->job];
	struct host *h = &e->hosts[x->host];
	struct bfetch_result r;
	char *ct = NULL, *eff = NULL;
	long code = 0, redirs = 0;

	memset(&r, 0, sizeof r);
	memcpy(r.ts, x->ts, sizeof r.ts);
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	curl_easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &eff);
	curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_COUNT, &redirs);
	r.http_status = code;
	r.content_type = ct ? xstrdup(ct) : NULL;
	r.final_url = eff ? xstrdup(eff) : NULL;
	r.redirects = redirs;
	r.clen = x->body.len;
	r.last_modified = bfetch_header(x->hdrs.s, x->hdrs.len, "last-modified");
	r.etag = bfetch_header(x->hdrs.s, x->hdrs.len, "etag");
	if (code == 429 || code == 503)
		r.retry_after = bfetch_header(x->hdrs.s, x->hdrs.len, "retry-after");
	r.elapsed_ms = (long long)((now_seconds() - x->t0) * 1000.0 + 0.5);
	if (rc == CURLE_OK) {
		struct bfetch_verdict v = bfetch_classify_response(j->kind, code,
		    ct, x->hdrs.s, x->hdrs.len, x->body.s ? x->body.s : "",
		    x->body.len, o->min_text);
		char hex[SHA256_HEX_LEN + 1];

		r.status = v.status;
		r.reason = v.reason;
		sha256_hex(x->body.s ? x->body.s : "", x->body.len, hex);
		r.sha = xstrdup(hex);
		if (v.store) {
			if (bfetch_store(o->archive, j->rel, x->body.s ? x->body.s : "",
			    x->body.len, hex, o->fsync_data) < 0)
				die_errno("%s/%s", o->archive, j->rel);
			r.stored = 1;
		}
	} else {
		r.status = map_error(o, x->easy, rc, x, &r.reason);
	}
	if (j->attempts <= o->retry && retryable(r.status, code, rc)) {
		double wait = 0.5 * (double)(1L << (j->attempts > 10 ? 10 : j->attempts - 1));
		long long ra;

		if (r.retry_after && parse_int(r.retry_after, &ra) == 0 &&
		    ra >= 0 && ra <= RETRY_AFTER_MAX && (double)ra > wait)
			wait = (double)ra;
		if (h->next_ok < now_seconds() + wait)
			h->next_ok = now_seconds() + wait;
		q_push(h, (size_t)x->job, 1);
		bfetch_result_release(&r);
		return;
	}
	finish(e, (size_t)x->job, &r);
}

static void
xfer_free(struct engine *e, struct xfer *x)
{
	curl_multi_remove_handle(e->multi, x->easy);
	if (e->npool == e->poolcap) {
		e->poolcap = e->poolcap ? e->poolcap * 2 : 16;
		e->pool = xreallocarray(e->pool, e->poolcap, sizeof *e->pool);
	}
	e->pool[e->npool++] = x->easy;
	curl_slist_free_all(x->accept);
	buf_release(&x->body);
	buf_release(&x->hdrs);
	free(x);
}

/* ------------------------------------------------------------ scheduling */

/* Decide queued jobs that need no request; 1 when h's head job needs one. */
static int
settle_head(struct engine *e, struct host *h)
{
	while (h->qhead < h->qlen) {
		size_t ji = h->q[h->qhead];
		struct bfetch_job *j = &e->jobs[ji];
		const char *rule = NULL;

		if (h->rfail) {
			h->qhead++;
			finish_now(e, ji, h->rfail->status, 0,
			    xstrdup(h->rfail->reason));
			continue;
		}
		if (h->robots && j->attempts == 0 &&
		    !bfetch_robots_allowed(h->robots, j->path, &rule)) {
			h->qhead++;
			finish_now(e, ji, BF_HTTP_ERROR, 0, xasprintf("disallowed "
			    "by robots.txt for %s (%s): not fetched",
			    e->o->product, rule ? rule : "complete disallow"));
			continue;
		}
		return 1;
	}
	return 0;
}

static void
schedule(struct engine *e, double now)
{
	size_t k;

	for (k = 0; k < e->nhosts && e->active < e->o->jobs; k++) {
		size_t hi = (e->rr + k) % e->nhosts;
		struct host *h = &e->hosts[hi];

		while (e->active < e->o->jobs && h->qhead < h->qlen) {
			if (h->rstate == RB_FETCHING)
				break;
			if (h->rstate == RB_READY && !settle_head(e, h))
				break;
			if (h->inflight >= e->o->per_host || now < h->next_ok)
				break;
			if (h->rstate == RB_NONE) {
				start(e, hi, -1);
				break;
			}
			start(e, hi, (long)h->q[h->qhead++]);
		}
	}
	if (e->nhosts)
		e->rr = (e->rr + 1) % e->nhosts;
}

/* Milliseconds until the earliest host with waiting work may start. */
static long
next_wait_ms(struct engine *e, double now)
{
	double best = 1.0;
	size_t hi;

	if (e->active >= e->o->jobs)
		return 1000;	/* curl wakes us when a transfer ends */
	for (hi = 0; hi < e->nhosts; hi++) {
		struct host *h = &e->hosts[hi];

		if (h->qhead < h->qlen && h->rstate != RB_FETCHING &&
		    h->inflight < e->o->per_host && h->next_ok - now < best)
			best = h->next_ok - now;
	}
	if (best < 0)
		best = 0;
	return (long)(best * 1000.0) + (best > 0 ? 1 : 0);
}

void
bfetch_engine_run(const struct bfetch_opts *o, struct bfetch_job *jobs,
    const size_t *idx, size_t n, void (*done)(size_t, void *), void *ctx)
{
	struct engine e;
	size_t i;

	memset(&e, 0, sizeof e);
	e.o = o;
	e.jobs = jobs;
	e.done = done;
	e.ctx = ctx;
	e.pending = n;
	e.hostmap = json_object();
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		die("curl_global_init failed");
	e.multi = curl_multi_init();
	if (e.multi == NULL || e.hostmap == NULL)
		die("out of memory");
	curl_multi_setopt(e.multi, CURLMOPT_MAXCONNECTS, o->jobs * 2);
	curl_multi_setopt(e.multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	progress_start(&e.prog, "bfetch", n);

	for (i = 0; i < n; i++) {
		struct bfetch_job *j = &jobs[idx[i]];
		char *why;
		long hi = job_host(&e, j, &why);

		j->host = (int)hi;
		if (hi < 0)
			finish_now(&e, idx[i], BF_HTTP_ERROR, 0, why);
		else
			q_push(&e.hosts[hi], idx[i], 0);
	}

	while (e.pending > 0) {
		CURLMsg *m;
		int running, left;
		double now = now_seconds();

		if (ctx_interrupted)
			diex(128 + ctx_interrupted, "interrupted: %zu of %zu jobs "
			    "not done; run again with --resume", e.pending, n);
		schedule(&e, now);
		if (e.pending == 0)
			break;
		if (curl_multi_perform(e.multi, &running) != CURLM_OK)
			die("curl_multi_perform failed");
		while ((m = curl_multi_info_read(e.multi, &left)) != NULL) {
			struct xfer *x;

			if (m->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &x);
			e.hosts[x->host].inflight--;
			e.active--;
			if (x->job < 0)
				robots_done(&e, x, m->data.result);
			else
				job_done(&e, x, m->data.result);
			xfer_free(&e, x);
		}
		if (e.pending == 0)
			break;
		now = now_seconds();
		schedule(&e, now);
		if (curl_multi_poll(e.multi, NULL, 0,
		    (int)next_wait_ms(&e, now_seconds()), NULL) != CURLM_OK)
			die("curl_multi_poll failed");
	}
	progress_end(&e.prog);

	for (i = 0; i < e.nhosts; i++) {
		free(e.hosts[i].origin);
		bfetch_robots_free(e.hosts[i].robots);
		if (e.hosts[i].rfail) {
			bfetch_result_release(e.hosts[i].rfail);
			free(e.hosts[i].rfail);
		}
		free(e.hosts[i].q);
	}
	free(e.hosts);
	for (i = 0; i < e.npool; i++)
		curl_easy_cleanup(e.pool[i]);
	free(e.pool);
	json_decref(e.hostmap);
	curl_multi_cleanup(e.multi);
	curl_global_cleanup();
}
