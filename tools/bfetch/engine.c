/*
 * engine.c - the fetching engine over common/http.h: many requests in
 * flight across hosts, a bounded number per host and a delay between
 * request starts on the same host (start to start, as Scrapy's
 * DOWNLOAD_DELAY), robots.txt fetched once per origin before any page of
 * it, redirects followed hop by hop with each hop checked against its own
 * origin's robots.txt, and the mapping of transfer results to fetch_status.
 *
 * A host here is an origin (scheme, host name, port), the unit RFC 9309
 * §2.3 gives a robots.txt to.  Jobs of a host are handed to the HTTP driver
 * in input order, a few at a time (so a million queued jobs cost an index
 * each, not a request each); the driver serves hosts round-robin so one
 * slow site does not hold the others.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "ctx.h"
#include "http.h"
#include "bfetch.h"

#define ROBOTS_CAP (512 * 1024)	/* RFC 9309 §2.5: parse at least 500 KiB */
#define ROBOTS_REDIRS 5		/* RFC 9309 §2.3.1.2: follow at least five */

enum robots_state { RB_NONE, RB_FETCHING, RB_READY };

struct fetch;

struct host {
	char *origin;
	enum robots_state rstate;
	struct bfetch_robots *robots;	/* NULL with rstate READY: no check */
	struct bfetch_result *rfail;	/* robots.txt failure applied to jobs */
	struct fetch *parked, *ptail;	/* hops waiting for robots.txt */
	size_t *q;			/* job indices not yet handed out */
	size_t qhead, qlen, qcap;
	long out;			/* jobs of this host being fetched */
};

/* One job's fetch over its redirect hops, or one host's robots.txt. */
struct fetch {
	struct http_req req;		/* first: the driver's request */
	struct engine *e;
	long job;			/* -1: robots.txt of host */
	size_t host;			/* origin of the current hop */
	size_t home;			/* the job's own origin */
	char *url, *path;		/* current hop */
	long hops;			/* redirects followed */
	json_t *chain;
	double t0;
	char ts[32];
	struct fetch *next;		/* parked */
};

struct engine {
	const struct bfetch_opts *o;
	struct bfetch_job *jobs;
	struct http *http;
	struct curl_slist *accept[3];	/* per kind */
	struct host *hosts;
	size_t nhosts, hcap;
	json_t *hostmap;		/* origin -> index */
	size_t pending;			/* jobs not yet done */
	void (*done)(size_t, void *);
	void *ctx;
	struct progress prog;
	unsigned long counts[BF_NSTATUS];
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
	free(r->remote);
	free(r->proxy);
	json_decref(r->chain);
	free(r->sha);
	memset(r, 0, sizeof *r);
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
	json_set_str(o, "content_type", r->content_type);
	json_set_int(o, "content_length_bytes", (long long)r->clen);
	json_set_str(o, "last_modified", r->last_modified);
	json_set_str(o, "etag", r->etag);
	json_set_str(o, "fetch_status", bfetch_status_names[r->status]);
	json_set_str(o, "failure_reason", r->reason);
	json_set_str(o, "final_url", r->final_url);
	json_set_int(o, "redirect_count", r->redirects);
	if (json_object_set_new(o, "redirect_chain", r->chain ?
	    json_incref(r->chain) : json_array()) < 0)
		die("out of memory");
	json_set_str(o, "content_sha256", r->sha);
	json_set_str(o, "archive_path", r->stored ? j->rel : NULL);
	json_set_int(o, "elapsed_ms", r->elapsed_ms);
	/* provenance: who answered, and through what */
	json_set_str(o, "remote_address", r->remote);
	json_set_str(o, "proxy", r->proxy);
	json_set_str(o, "connect_to", r->connect_to);
	json_set_str(o, "resolve", r->resolve);
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

	assert(j->result == NULL);	/* each job finishes once */
	j->result = bfetch_make_record(j, r);
	e->counts[r->status]++;
	bfetch_result_release(r);
	assert(e->pending > 0);
	e->pending--;
	snprintf(note, sizeof note, "ok %lu  http %lu  timeout %lu  dns %lu  "
	    "waf %lu  js %lu", e->counts[BF_SUCCESS], e->counts[BF_HTTP_ERROR],
	    e->counts[BF_TIMEOUT], e->counts[BF_DNS_FAILURE],
	    e->counts[BF_WAF_BLOCKED], e->counts[BF_JS_ONLY]);
	progress_add(&e->prog, 1, note);
	e->done(ji, e->ctx);
}

/* A job decided without a response (bad URL, robots.txt). */
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
q_push(struct host *h, size_t ji)
{
	if (h->qlen == h->qcap) {
		h->qcap = h->qcap ? h->qcap * 2 : 8;
		h->q = xreallocarray(h->q, h->qcap, sizeof *h->q);
	}
	h->q[h->qlen++] = ji;
}

static size_t
host_get(struct engine *e, char *origin)
{
	json_t *v = json_object_get(e->hostmap, origin);
	size_t hi;

	if (v) {
		free(origin);
		return (size_t)json_integer_value(v);
	}
	if (e->nhosts == e->hcap) {
		e->hcap = e->hcap ? e->hcap * 2 : 16;
		e->hosts = xreallocarray(e->hosts, e->hcap, sizeof *e->hosts);
	}
	hi = e->nhosts++;
	memset(&e->hosts[hi], 0, sizeof e->hosts[hi]);
	e->hosts[hi].origin = origin;
	e->hosts[hi].rstate = e->o->robots ? RB_NONE : RB_READY;
	if (json_object_set_new(e->hostmap, origin, json_integer((json_int_t)hi)))
		die("out of memory");
	return hi;
}

/* ------------------------------------------------------------ fetches */

static void fetch_done(struct http_req *req);
static void feed(struct engine *e, size_t hi);

static struct fetch *
fetch_new(struct engine *e, long job, size_t hi, char *url, char *path)
{
	struct fetch *f = xcalloc(1, sizeof *f);

	f->e = e;
	f->job = job;
	f->host = f->home = hi;
	f->url = url;
	f->path = path;
	f->t0 = now_seconds();
	ctx_utc_now(f->ts, sizeof f->ts);
	f->req.on_done = fetch_done;
	f->req.arg = f;
	f->req.timeout_ms = e->o->timeout_ms;
	if (job < 0) {
		f->req.max_body = ROBOTS_CAP;
		f->req.keep_capped = 1;
	} else {
		f->req.max_body = (size_t)e->o->max_size;
		f->req.headers = e->accept[e->jobs[job].kind];
	}
	return f;
}

static void
fetch_free(struct fetch *f)
{
	http_req_release(&f->req);
	free(f->url);
	free(f->path);
	json_decref(f->chain);
	free(f);
}

/* The job of f is over: its host may hand out the next one. */
static void
fetch_end(struct engine *e, struct fetch *f)
{
	size_t home = f->home;
	int job = f->job >= 0;

	fetch_free(f);
	if (job) {
		assert(e->hosts[home].out > 0);
		e->hosts[home].out--;
		feed(e, home);
	}
}

static void
submit(struct engine *e, struct fetch *f)
{
	f->req.url = f->url;
	http_submit(e->http, &f->req, 0, 0);
}

static void go(struct engine *e, struct fetch *f);

static void
start_robots(struct engine *e, size_t hi)
{
	struct host *h = &e->hosts[hi];
	struct fetch *f = fetch_new(e, -1, hi,
	    xasprintf("%s/robots.txt", h->origin), xstrdup("/robots.txt"));

	h->rstate = RB_FETCHING;
	submit(e, f);
}

/* End f's job without requesting its current hop. */
static void
refuse(struct engine *e, struct fetch *f, enum bfetch_status st, char *reason)
{
	struct bfetch_result r;

	memset(&r, 0, sizeof r);
	memcpy(r.ts, f->ts, sizeof r.ts);
	r.status = st;
	r.reason = reason;
	r.redirects = f->hops;
	r.chain = json_incref(f->chain);
	r.final_url = f->hops ? xstrdup(f->url) : NULL;
	finish(e, (size_t)f->job, &r);
	fetch_end(e, f);
}

/* Check the hop against its origin's robots.txt, then request it. */
static void
go(struct engine *e, struct fetch *f)
{
	struct host *h = &e->hosts[f->host];
	const char *rule = NULL;
	size_t ji = (size_t)f->job;

	if (h->rstate != RB_READY) {
		f->next = NULL;
		if (h->ptail)
			h->ptail->next = f;
		else
			h->parked = f;
		h->ptail = f;
		if (h->rstate == RB_NONE)
			start_robots(e, f->host);
		return;
	}
	if (h->rfail) {
		refuse(e, f, h->rfail->status, f->hops ? xasprintf("%s (redirect "
		    "hop %ld: %s)", h->rfail->reason, f->hops, f->url) :
		    xstrdup(h->rfail->reason));
		return;
	}
	if (h->robots && !bfetch_robots_allowed(h->robots, f->path, &rule)) {
		if (f->hops)
			refuse(e, f, BF_HTTP_ERROR, xasprintf("disallowed by "
			    "robots.txt for %s (%s): redirect hop %ld to %s not "
			    "fetched", e->o->product, rule ? rule :
			    "complete disallow", f->hops, f->url));
		else
			refuse(e, f, BF_HTTP_ERROR, xasprintf("disallowed by "
			    "robots.txt for %s (%s): not fetched", e->o->product,
			    rule ? rule : "complete disallow"));
		return;
	}
	if (f->hops == 0)
		e->jobs[ji].attempts++;
	submit(e, f);
}

/* Hand out the host's next jobs while fewer than per_host + 1 are out. */
static void
feed(struct engine *e, size_t hi)
{
	struct host *h;

	for (;;) {
		struct bfetch_job *j;
		struct fetch *f;
		size_t ji;

		h = &e->hosts[hi];	/* go() may grow e->hosts */
		if (h->qhead == h->qlen || h->out > e->o->per_host)
			return;
		ji = h->q[h->qhead++];
		j = &e->jobs[ji];
		h->out++;
		f = fetch_new(e, (long)ji, hi, xstrdup(j->fetch_url),
		    xstrdup(j->path));
		go(e, f);
	}
}

/* ------------------------------------------------------------ results */

/* The transfer's failure as fetch_status and a reason (malloc'd). */
static enum bfetch_status
map_error(const struct bfetch_opts *o, const struct http_req *q, char **reason)
{
	const char *msg = q->errmsg;

	switch (q->err) {
	case HTTP_EDNS:
		*reason = xasprintf("DNS resolution failed: %s", msg);
		return BF_DNS_FAILURE;
	case HTTP_ECONNECT_TIMEOUT:
	case HTTP_ETIMEOUT:
		*reason = xasprintf("%s timed out after %ld ms: %s",
		    q->err == HTTP_ETIMEOUT ? "transfer" : "connect",
		    o->timeout_ms, msg);
		return BF_TIMEOUT;
	case HTTP_ETOOBIG:
		*reason = xasprintf("body larger than the %llu-byte cap "
		    "(Content-Length): not stored", o->max_size);
		return BF_HTTP_ERROR;
	case HTTP_ETOOBIG_DECODED:
		*reason = xasprintf("body larger than the %llu-byte cap "
		    "after decoding: not stored", o->max_size);
		return BF_HTTP_ERROR;
	case HTTP_EPARTIAL:
		*reason = xasprintf("body shorter than its Content-Length, "
		    "connection closed: %s", msg);
		return BF_HTTP_ERROR;
	case HTTP_ERESET:
		*reason = xasprintf("connection failed mid-transfer (reset or "
		    "closed): %s", msg);
		return BF_HTTP_ERROR;
	case HTTP_ETLS:
		*reason = xasprintf("TLS failure: %s", msg);
		return BF_HTTP_ERROR;
	case HTTP_ECA:
		*reason = xasprintf("CA certificates unusable (--cacert, "
		    "--capath): %s", msg);
		return BF_HTTP_ERROR;
	default:
		break;
	}
	*reason = xasprintf("transfer failed (curl error %d): %s", q->curl_code,
	    msg);
	return BF_HTTP_ERROR;
}

/*
 * A redirect response: follow it as the next hop (1), or end the fetch
 * with *reason set (0).
 */
static int
redirect(struct engine *e, struct fetch *f, long limit, char **reason)
{
	char *origin, *path, *why;

	if (f->hops >= limit) {
		*reason = xasprintf("more than %ld redirects: Maximum (%ld) "
		    "redirects followed", limit, limit);
		return 0;
	}
	if (http_url_split(f->req.location, &origin, &path, &why) < 0) {
		*reason = xasprintf("redirect to a non-http(s) URL refused "
		    "(Location: %.200s): %s", f->req.location, why);
		free(why);
		return 0;
	}
	if (f->chain == NULL)
		f->chain = json_array();
	json_array_append_new(f->chain, json_pack("{s:s,s:i}", "url", f->url,
	    "http_status", (int)f->req.status));
	free(f->url);
	free(f->path);
	f->url = xstrdup(f->req.location);
	f->path = path;
	f->hops++;
	f->host = host_get(e, origin);
	return 1;
}

/* A Crawl-delay longer than -r becomes the host's delay (start to start). */
static void
crawl_delay(struct engine *e, struct host *h)
{
	long ms = bfetch_robots_crawl_delay_ms(h->robots);

	if (ms > e->o->rate_ms) {
		char *u = xasprintf("%s/", h->origin);

		http_host_delay(e->http, u, ms);
		http_host_hold(e->http, u, ms);
		free(u);
	}
}

static void
robots_done(struct engine *e, struct fetch *f)
{
	struct host *h = &e->hosts[f->home];
	const struct http_req *q = &f->req;
	struct fetch *p;
	char *why = NULL;

	/* robots.txt itself is not subject to robots.txt */
	if (q->err == HTTP_OK && q->location &&
	    redirect(e, f, ROBOTS_REDIRS, &why)) {
		submit(e, f);
		return;
	}
	h->rstate = RB_READY;
	if ((q->err == HTTP_OK || q->err == HTTP_ETOOBIG_DECODED) &&
	    q->status >= 200 && q->status <= 299) {
		h->robots = bfetch_robots_parse(q->body.s ? q->body.s : "",
		    q->body.len, e->o->product);
		crawl_delay(e, h);
	} else if (q->err == HTTP_OK && q->status >= 400 && q->status <= 499) {
		/* §2.3.1.3 "unavailable": no restrictions */
		h->robots = bfetch_robots_all(1);
	} else {
		/* §2.3.1.4 "unreachable": complete disallow, or the network error */
		h->rfail = xcalloc(1, sizeof *h->rfail);
		if (why) {
			h->rfail->status = BF_HTTP_ERROR;
			h->rfail->reason = xasprintf("robots.txt unreachable (%s): "
			    "complete disallow (RFC 9309 section 2.3.1.4)", why);
		} else if (q->err == HTTP_OK) {
			h->rfail->status = BF_HTTP_ERROR;
			h->rfail->reason = xasprintf("robots.txt unreachable "
			    "(HTTP %ld): complete disallow (RFC 9309 section "
			    "2.3.1.4)", q->status);
		} else {
			char *msg;

			h->rfail->status = map_error(e->o, q, &msg);
			h->rfail->reason = xasprintf("robots.txt fetch failed, page "
			    "not requested (RFC 9309 section 2.3.1.4): %s", msg);
			free(msg);
		}
	}
	free(why);
	fetch_free(f);
	/* the hops that waited for it */
	p = h->parked;
	h->parked = h->ptail = NULL;
	while (p) {
		struct fetch *next = p->next;

		go(e, p);
		p = next;
	}
}

/* Retry a transient failure (--retry): the host waits, the hop goes again. */
static int
retry(struct engine *e, struct fetch *f, const struct bfetch_result *r)
{
	struct bfetch_job *j = &e->jobs[f->job];
	long ra = -1, wait;

	if (j->attempts > e->o->retry || r->status == BF_DNS_FAILURE ||
	    !http_transient(&f->req))
		return 0;
	if (r->status != BF_TIMEOUT && r->status != BF_HTTP_ERROR)
		return 0;
	if (r->retry_after)
		ra = http_retry_after(r->retry_after, time(NULL));
	wait = http_backoff_ms(e->http, j->attempts, ra);
	http_host_hold(e->http, f->url, wait);
	j->attempts++;
	f->req.url = f->url;
	http_submit(e->http, &f->req, HTTP_FRONT, 0);
	return 1;
}

static void
job_done(struct engine *e, struct fetch *f)
{
	const struct bfetch_opts *o = e->o;
	struct bfetch_job *j = &e->jobs[f->job];
	const struct http_req *q = &f->req;
	struct bfetch_result r;

	if (q->err == HTTP_OK && q->location) {
		char *why = NULL;

		if (redirect(e, f, o->max_redirs, &why)) {
			go(e, f);
			return;
		}
		memset(&r, 0, sizeof r);
		r.status = BF_HTTP_ERROR;
		r.reason = why;
	} else {
		memset(&r, 0, sizeof r);
		if (q->err == HTTP_OK) {
			struct bfetch_verdict v = bfetch_classify_response(j->kind,
			    q->status, q->content_type, q->hdrs.s, q->hdrs.len,
			    q->body.s ? q->body.s : "", q->body.len, o->min_text);
			char hex[SHA256_HEX_LEN + 1];

			r.status = v.status;
			r.reason = v.reason;
			sha256_hex(q->body.s ? q->body.s : "", q->body.len, hex);
			r.sha = xstrdup(hex);
			r.stored = v.store;
		} else {
			r.status = map_error(o, q, &r.reason);
		}
	}
	memcpy(r.ts, f->ts, sizeof r.ts);
	r.http_status = q->status;
	r.content_type = q->content_type ? xstrdup(q->content_type) : NULL;
	r.final_url = xstrdup(f->url);
	r.redirects = f->hops;
	r.chain = json_incref(f->chain);
	r.clen = q->body.len;
	r.last_modified = http_header(q->hdrs.s, q->hdrs.len, "last-modified");
	r.etag = http_header(q->hdrs.s, q->hdrs.len, "etag");
	if (q->status == 429 || q->status == 503)
		r.retry_after = http_header(q->hdrs.s, q->hdrs.len, "retry-after");
	r.remote = q->remote[0] ? xstrdup(q->remote) : NULL;
	r.proxy = q->proxy ? xstrdup(q->proxy) : NULL;
	r.connect_to = q->connect_to;
	r.resolve = q->resolve;
	r.elapsed_ms = (long long)((now_seconds() - f->t0) * 1000.0 + 0.5);
	if (retry(e, f, &r)) {
		bfetch_result_release(&r);
		return;
	}
	if (r.stored && bfetch_store(o->archive, j->rel, q->body.s ? q->body.s :
	    "", q->body.len, r.sha, o->fsync_data) < 0)
		die_errno("%s/%s", o->archive, j->rel);
	finish(e, (size_t)f->job, &r);
	fetch_end(e, f);
}

/*
 * A failure of this machine (out of memory, a local I/O error) says nothing
 * about the site: the run stops without a record for the URL, so that
 * --resume fetches it again (bfetch(1), EXIT STATUS).
 */
static void
fetch_done(struct http_req *req)
{
	struct fetch *f = req->arg;

	if (req->err == HTTP_ELOCAL)
		die("%s: local failure, not the site's (curl error %d: %s); "
		    "no record written for it: bfetch --resume fetches it again",
		    req->url, req->curl_code, req->errmsg);
	if (f->job < 0)
		robots_done(f->e, f);
	else
		job_done(f->e, f);
}

/* ------------------------------------------------------------ run */

static void
engine_init(struct engine *e, const struct bfetch_opts *o)
{
	struct http_config hc;
	static const char *const accept[3] = {
		/* the representation each condition wants (RFC 9110 §12.5.1) */
		"Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
		"Accept: text/markdown,text/plain;q=0.9,*/*;q=0.8",
		"Accept: text/plain,text/markdown;q=0.9,*/*;q=0.8",
	};
	int k;

	memset(&hc, 0, sizeof hc);
	hc.max_inflight = o->jobs;
	hc.per_host = o->per_host;
	hc.host_delay_ms = o->rate_ms;
	hc.user_agent = o->user_agent;
	hc.resolve = o->resolve;
	hc.connect_to = o->connect_to;
	hc.cacert = o->cacert;
	hc.capath = o->capath;
	hc.retry_base_ms = 500;
	hc.retry_max_ms = 512000;
	e->http = http_new(&hc);
	e->hostmap = json_object();
	if (e->hostmap == NULL)
		die("out of memory");
	for (k = 0; k < 3; k++)
		if ((e->accept[k] = curl_slist_append(NULL, accept[k])) == NULL)
			die("out of memory");
}

static void
engine_free(struct engine *e)
{
	size_t i;
	int k;

	for (i = 0; i < e->nhosts; i++) {
		assert(e->hosts[i].parked == NULL);
		free(e->hosts[i].origin);
		bfetch_robots_free(e->hosts[i].robots);
		if (e->hosts[i].rfail) {
			bfetch_result_release(e->hosts[i].rfail);
			free(e->hosts[i].rfail);
		}
		free(e->hosts[i].q);
	}
	free(e->hosts);
	json_decref(e->hostmap);
	http_free(e->http);
	for (k = 0; k < 3; k++)
		curl_slist_free_all(e->accept[k]);
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
	engine_init(&e, o);
	progress_start(&e.prog, "bfetch", n);
	for (i = 0; i < n; i++) {
		struct bfetch_job *j = &jobs[idx[i]];
		char *why, *origin;

		free(j->path);
		j->path = NULL;
		if (http_url_split(j->fetch_url, &origin, &j->path, &why) < 0) {
			j->host = -1;
			finish_now(&e, idx[i], BF_HTTP_ERROR, 0, why);
			continue;
		}
		j->host = (int)host_get(&e, origin);
		q_push(&e.hosts[j->host], idx[i]);
	}
	for (i = 0; i < e.nhosts; i++)
		feed(&e, i);
	while (e.pending > 0) {
		if (ctx_interrupted)
			diex(128 + ctx_interrupted, "interrupted: %zu of %zu jobs "
			    "not done; run again with --resume", e.pending, n);
		if (http_step(e.http, 1000) == 0 && e.pending > 0)
			die("internal error: %zu jobs neither queued nor done",
			    e.pending);
	}
	progress_end(&e.prog);
	engine_free(&e);
}
