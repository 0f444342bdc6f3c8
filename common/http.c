/*
 * http.c - the libcurl multi driver of http.h.
 *
 * One loop iteration is: move due delayed requests to their host queues,
 * start what the bounds allow, one curl_multi_poll (bounded by the next
 * moment a queued request may start), one curl_multi_perform, then the
 * completed transfers.  That is one wake-up per batch of socket activity,
 * as curl(1)'s --parallel loop does.
 */
#include <sys/socket.h>

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "ctx.h"
#include "http.h"

#define HEADERS_CAP (256 * 1024)
#define RETRY_AFTER_MAX 300

struct host {
	char *key;		/* origin */
	long inflight;
	long delay_ms;
	double next_ok;		/* monotonic seconds */
	struct http_req *head, *tail;
	char *proxy;		/* proxy for this origin, or NULL */
	char *proxy_name;	/* proxy without its credentials (recorded) */
	const char *connect_to, *resolve;
};

struct http {
	struct http_config cfg;
	char *cacert, *capath;
	CURLM *multi;
	struct host *hosts;
	size_t nhosts, hcap, rr;
	json_t *hostmap;	/* origin -> index */
	json_t *rawmap;		/* "scheme://authority" as written -> index */
	struct http_req *timers;	/* delayed, unsorted */
	struct http_req *running;	/* in flight (prev/next) */
	size_t active, queued;
	uint64_t rng;
};

static double
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ URLs */

/*
 * Dies "out of memory parsing the URL URL", the URL shown without
 * "user:password@" (cut in place: nothing can be allocated here).
 */
static void
url_oom_die(const char *url)
{
	size_t a = strcspn(url, "/"), e;

	if (a > 0 && url[a - 1] == ':' && url[a] == '/' && url[a + 1] == '/') {
		a += 2;
		for (e = a + strcspn(url + a, "/?#"); e > a; e--)
			if (url[e - 1] == '@')
				die("out of memory parsing the URL %.*s%.200s",
				    (int)a, url, url + e);
	}
	die("out of memory parsing the URL %.200s", url);
}

/*
 * libcurl's answer on a URL, or a failure of this machine: a part libcurl
 * could not allocate is no verdict on the URL (an "invalid URL", a missing
 * port or query would be recorded against the site), so it dies.
 */
static CURLUcode
url_oom(CURLUcode rc, const char *url)
{
	if (rc == CURLUE_OUT_OF_MEMORY)
		url_oom_die(url);
	return rc;
}

/* url parsed by libcurl's URL API (curl_url), or NULL when it cannot be */
static CURLU *
url_parse(const char *url)
{
	CURLU *u = curl_url();

	if (u == NULL)
		die("out of memory");
	/* a URL without a scheme (a proxy's "host:port") as curl(1) takes it */
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK &&
	    curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME |
	    CURLU_GUESS_SCHEME) != CURLUE_OK) {
		curl_url_cleanup(u);
		return NULL;
	}
	return u;
}

/* 1 when libcurl found part p (user, password, login options) in u */
static int
url_has(CURLU *u, CURLUPart p)
{
	char *s = NULL;
	int has = curl_url_get(u, p, &s, 0) == CURLUE_OK && s != NULL;

	curl_free(s);
	return has;
}

char *
http_url_public(const char *url)
{
	CURLU *u = url_parse(url);
	char *s = NULL, *path = NULL, *ret;
	size_t n;

	if (u == NULL)
		return xstrdup(HTTP_URL_UNPARSABLE);
	if (!url_has(u, CURLUPART_USER) && !url_has(u, CURLUPART_PASSWORD) &&
	    !url_has(u, CURLUPART_OPTIONS)) {
		curl_url_cleanup(u);
		return xstrdup(url);
	}
	curl_url_set(u, CURLUPART_USER, NULL, 0);
	curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
	curl_url_set(u, CURLUPART_OPTIONS, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &s, 0) != CURLUE_OK || s == NULL)
		die("out of memory");
	/* libcurl writes an empty path as "/": a base URL stays without it */
	curl_url_get(u, CURLUPART_PATH, &path, 0);
	n = strlen(s);
	if (path && strcmp(path, "/") == 0 && n > 0 && s[n - 1] == '/' &&
	    url[strlen(url) - 1] != '/')
		n--;
	ret = xstrndup(s, n);
	curl_free(path);
	curl_free(s);
	curl_url_cleanup(u);
	return ret;
}

int
http_url_split(const char *url, char **origin, char **path, char **why)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, *p = NULL, *q = NULL;
	CURLUcode rc;
	int ret = -1;

	if (u == NULL)
		url_oom_die(url);
	*why = NULL;
	rc = url_oom(curl_url_set(u, CURLUPART_URL, url,
	    CURLU_NON_SUPPORT_SCHEME), url);
	if (rc != CURLUE_OK) {
		*why = xasprintf("invalid URL: %s", curl_url_strerror(rc));
		goto out;
	}
	url_oom(curl_url_get(u, CURLUPART_SCHEME, &scheme, 0), url);
	if (scheme == NULL || (strcmp(scheme, "http") != 0 &&
	    strcmp(scheme, "https") != 0)) {
		*why = xasprintf("unsupported URL scheme '%s': only http and "
		    "https are fetched", scheme ? scheme : "");
		goto out;
	}
	if (url_oom(curl_url_get(u, CURLUPART_HOST, &host, 0), url) !=
	    CURLUE_OK) {
		*why = xstrdup("invalid URL: no host");
		goto out;
	}
	url_oom(curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT), url);
	for (char *c = host; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (origin)
		*origin = xasprintf("%s://%s:%s", scheme, host, port ? port : "");
	if (path) {
		url_oom(curl_url_get(u, CURLUPART_PATH, &p, 0), url);
		url_oom(curl_url_get(u, CURLUPART_QUERY, &q, 0), url);
		*path = q ? xasprintf("%s?%s", p ? p : "/", q) :
		    xstrdup(p ? p : "/");
	}
	ret = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(p);
	curl_free(q);
	curl_url_cleanup(u);
	return ret;
}

/* ------------------------------------------------------------ headers */

char *
http_header(const char *hdrs, size_t len, const char *name)
{
	size_t nl = strlen(name), i = 0;

	while (i < len) {
		const char *line = hdrs + i;
		const char *end = memchr(line, '\n', len - i);
		size_t ll = end ? (size_t)(end - line) : len - i;

		if (ll > nl && memcmp(line, name, nl) == 0 && line[nl] == ':') {
			const char *v = line + nl + 1, *e = line + ll;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			while (e > v && (e[-1] == ' ' || e[-1] == '\t' ||
			    e[-1] == '\r'))
				e--;
			return xstrndup(v, (size_t)(e - v));
		}
		i += ll + 1;
	}
	return NULL;
}

long
http_retry_after(const char *value, time_t now)
{
	long long secs;
	time_t t;

	if (value == NULL)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (*value >= '0' && *value <= '9') {
		if (parse_int(value, &secs) < 0 || secs < 0)
			return -1;
		return secs > 86400L * 365 ? 86400L * 365 : (long)secs;
	}
	/* IMF-fixdate, RFC 850 and asctime forms (RFC 9110 §5.6.7) */
	t = curl_getdate(value, NULL);
	if (t == (time_t)-1)
		return -1;
	return t <= now ? 0 : (long)(t - now);
}

int
http_transient(const struct http_req *r)
{
	switch (r->err) {
	case HTTP_OK:
		return r->status == 429 || r->status == 500 || r->status == 502 ||
		    r->status == 503 || r->status == 504;
	case HTTP_ECONNECT:
	case HTTP_ECONNECT_TIMEOUT:
	case HTTP_ETIMEOUT:
	case HTTP_EPARTIAL:
	case HTTP_ERESET:
		return 1;
	default:
		return 0;
	}
}

long
http_backoff_ms(struct http *d, int attempts, long retry_after_s)
{
	long base = d->cfg.retry_base_ms > 0 ? d->cfg.retry_base_ms : 500;
	long cap = d->cfg.retry_max_ms > 0 ? d->cfg.retry_max_ms : 60000;
	double ms, u;

	/* xorshift64*: jitter needs spread, not quality */
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	u = (double)((d->rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
	ms = (double)base * (double)(1UL << (attempts < 1 ? 0 :
	    attempts > 20 ? 19 : attempts - 1)) * (0.5 + u);
	if (ms > (double)cap)
		ms = (double)cap;
	if (retry_after_s > RETRY_AFTER_MAX)
		retry_after_s = RETRY_AFTER_MAX;
	if (retry_after_s >= 0 && ms < (double)retry_after_s * 1000.0)
		ms = (double)retry_after_s * 1000.0;
	return (long)ms;
}

/* ------------------------------------------------------------ hosts */

/* curl's rules (lib/url.c): <scheme>_proxy, then all_proxy; no_proxy. */
static int
no_proxy_match(const char *list, const char *host)
{
	char **v = strv_split(list, ',');
	size_t hl = strlen(host), i;
	int hit = 0;

	for (i = 0; v[i] && !hit; i++) {
		char *t = v[i];
		size_t tl;

		while (*t == ' ')
			t++;
		tl = strlen(t);
		while (tl && t[tl - 1] == ' ')
			t[--tl] = '\0';
		if (*t == '.')
			t++, tl--;
		if (strcmp(t, "*") == 0)
			hit = 1;
		else if (tl && tl <= hl && strcasecmp(host + hl - tl, t) == 0 &&
		    (tl == hl || host[hl - tl - 1] == '.'))
			hit = 1;
	}
	strv_free(v);
	return hit;
}

static char *
proxy_for(const char *scheme, const char *host)
{
	const char *p = NULL, *np;

	np = getenv("no_proxy");
	if (np == NULL || *np == '\0')
		np = getenv("NO_PROXY");
	if (np && *np && no_proxy_match(np, host))
		return NULL;
	if (strcmp(scheme, "http") == 0)
		p = getenv("http_proxy");	/* never HTTP_PROXY (httpoxy) */
	else if ((p = getenv("https_proxy")) == NULL || *p == '\0')
		p = getenv("HTTPS_PROXY");
	if (p == NULL || *p == '\0')
		p = getenv("all_proxy");
	if (p == NULL || *p == '\0')
		p = getenv("ALL_PROXY");
	if (p == NULL || *p == '\0')
		return NULL;
	return xstrdup(p);
}

/* The first entry of list ("HOST:PORT:...") that applies to host:port. */
static const char *
mapping_for(const struct curl_slist *list, const char *host, const char *port)
{
	size_t hl = strlen(host), pl = strlen(port);

	for (; list; list = list->next) {
		const char *e = list->data, *c1, *c2;

		if (*e == '+' || *e == '-')
			e++;
		c1 = strchr(e, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2 == NULL)
			continue;
		if ((c1 == e || ((size_t)(c1 - e) == hl &&
		    strncasecmp(e, host, hl) == 0)) &&
		    (c2 == c1 + 1 || ((size_t)(c2 - c1 - 1) == pl &&
		    memcmp(c1 + 1, port, pl) == 0)))
			return list->data;
	}
	return NULL;
}

/* How requests to h go: its proxy, and the connect-to/resolve entry. */
static void
host_route(struct http *d, struct host *h)
{
	/* the key is "scheme://host:port" */
	char *sep = strstr(h->key, "://"), *colon = strrchr(h->key, ':');
	char *scheme = xstrndup(h->key, (size_t)(sep - h->key));
	char *hn = xstrndup(sep + 3, (size_t)(colon - sep - 3));

	if (hn[0] == '[') {	/* IPv6 literal: no brackets in the maps */
		memmove(hn, hn + 1, strlen(hn));
		hn[strlen(hn) - 1] = '\0';
	}
	h->proxy = proxy_for(scheme, hn);
	h->proxy_name = h->proxy ? http_url_public(h->proxy) : NULL;
	h->connect_to = mapping_for(d->cfg.connect_to, hn, colon + 1);
	h->resolve = mapping_for(d->cfg.resolve, hn, colon + 1);
	free(scheme);
	free(hn);
}

/*
 * The host index of url.  The URL's text up to its path ("scheme://
 * authority") is looked up first, so a URL is parsed only the first time
 * its authority is seen, as written.
 */
static size_t
host_of(struct http *d, const char *url)
{
	const char *sep = strstr(url, "://"), *end;
	char *origin, *why, *raw = NULL;
	json_t *v;
	struct host *h;
	size_t hi;

	if (sep && sep - url < 8) {
		end = sep + 3 + strcspn(sep + 3, "/?#");
		raw = xstrndup(url, (size_t)(end - url));
		if ((v = json_object_get(d->rawmap, raw)) != NULL) {
			free(raw);
			return (size_t)json_integer_value(v);
		}
	}
	if (http_url_split(url, &origin, NULL, &why) < 0)
		die("%s: %s", url, why);
	v = json_object_get(d->hostmap, origin);
	if (v) {
		free(origin);
		hi = (size_t)json_integer_value(v);
		if (raw && json_object_set_new(d->rawmap, raw,
		    json_integer((json_int_t)hi)))
			die("out of memory");
		free(raw);
		return hi;
	}
	if (d->nhosts == d->hcap) {
		d->hcap = d->hcap ? d->hcap * 2 : 16;
		d->hosts = xreallocarray(d->hosts, d->hcap, sizeof *d->hosts);
	}
	hi = d->nhosts++;
	h = &d->hosts[hi];
	memset(h, 0, sizeof *h);
	h->key = origin;
	h->delay_ms = d->cfg.host_delay_ms;
	host_route(d, h);
	if (json_object_set_new(d->hostmap, origin, json_integer((json_int_t)hi)) ||
	    (raw && json_object_set_new(d->rawmap, raw,
	    json_integer((json_int_t)hi))))
		die("out of memory");
	free(raw);
	return hi;
}

void
http_host_delay(struct http *d, const char *url, long ms)
{
	d->hosts[host_of(d, url)].delay_ms = ms;
}

void
http_host_hold(struct http *d, const char *url, long ms)
{
	struct host *h = &d->hosts[host_of(d, url)];
	double t = mono() + (double)ms / 1000.0;

	if (h->next_ok < t)
		h->next_ok = t;
}

/* ------------------------------------------------------------ driver */

struct http *
http_new(const struct http_config *cfg)
{
	struct http *d = xcalloc(1, sizeof *d);
	const char *e;

	d->cfg = *cfg;
	if (d->cfg.max_inflight < 1)
		d->cfg.max_inflight = 1;
	if (cfg->cacert)
		d->cacert = xstrdup(cfg->cacert);
	else if (((e = getenv("CURL_CA_BUNDLE")) && *e) ||
	    ((e = getenv("SSL_CERT_FILE")) && *e))
		d->cacert = xstrdup(e);
	if (cfg->capath)
		d->capath = xstrdup(cfg->capath);
	else if (cfg->cacert == NULL && (e = getenv("SSL_CERT_DIR")) && *e)
		d->capath = xstrdup(e);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		die("curl_global_init failed");
	d->multi = curl_multi_init();
	d->hostmap = json_object();
	d->rawmap = json_object();
	if (d->multi == NULL || d->hostmap == NULL || d->rawmap == NULL)
		die("out of memory");
	curl_multi_setopt(d->multi, CURLMOPT_MAXCONNECTS, d->cfg.max_inflight * 2);
	curl_multi_setopt(d->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	d->rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
	    0x9e3779b97f4a7c15ULL;
	return d;
}

void
http_free(struct http *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (struct http_req *r = d->running; r; r = r->next) {
		curl_multi_remove_handle(d->multi, r->easy);
		curl_easy_cleanup(r->easy);
		r->easy = NULL;
		r->queued = 0;
	}
	for (i = 0; i < d->nhosts; i++) {
		free(d->hosts[i].key);
		free(d->hosts[i].proxy);
		free(d->hosts[i].proxy_name);
	}
	free(d->hosts);
	free(d->cacert);
	free(d->capath);
	json_decref(d->hostmap);
	json_decref(d->rawmap);
	curl_multi_cleanup(d->multi);
	curl_global_cleanup();
	free(d);
}

size_t
http_pending(const struct http *d)
{
	return d->active + d->queued;
}

size_t
http_inflight(const struct http *d)
{
	return d->active;
}

void
http_req_release(struct http_req *r)
{
	buf_release(&r->body);
	buf_release(&r->hdrs);
	free(r->content_type);
	free(r->location);
	free(r->proxy);
	r->content_type = r->location = r->proxy = NULL;
}

static void
enqueue(struct http *d, struct http_req *r)
{
	struct host *h = &d->hosts[r->host];

	if (r->front) {
		r->next = h->head;
		h->head = r;
		if (h->tail == NULL)
			h->tail = r;
	} else {
		r->next = NULL;
		if (h->tail)
			h->tail->next = r;
		else
			h->head = r;
		h->tail = r;
	}
}

void
http_submit(struct http *d, struct http_req *r, int flags, long delay_ms)
{
	assert(r->queued == 0 && r->easy == NULL);	/* not submitted twice */
	http_req_release(r);
	r->err = HTTP_OK;
	r->curl_code = 0;
	r->errmsg[0] = '\0';
	r->status = 0;
	r->remote[0] = '\0';
	r->connect_to = r->resolve = NULL;
	r->elapsed = 0;
	r->host = host_of(d, r->url);
	r->front = (flags & HTTP_FRONT) != 0;
	r->queued = 1;
	d->queued++;
	if (delay_ms > 0) {
		r->due = mono() + (double)delay_ms / 1000.0;
		r->next = d->timers;
		d->timers = r;
	} else {
		enqueue(d, r);
	}
}

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct http_req *r = arg;
	size_t len = size * n;

	if (r->max_body && r->body.len + len > r->max_body) {
		if (r->keep_capped && !r->stream_only)
			buf_add(&r->body, p, r->max_body - r->body.len);
		r->err = HTTP_ETOOBIG_DECODED;
		return 0;
	}
	if (r->on_data && r->on_data(r, p, len) != 0) {
		r->err = HTTP_EABORT;
		return 0;
	}
	if (r->stream_only) {
		r->body.len += len;	/* counted for the cap, not kept */
		return len;
	}
	buf_add(&r->body, p, len);
	return len;
}

static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct http_req *r = arg;
	size_t len = size * n, i, l;
	const char *colon;

	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		buf_reset(&r->hdrs);	/* a new response (100 Continue) */
		return len;
	}
	colon = memchr(p, ':', len);
	if (colon == NULL || r->hdrs.len + len > HEADERS_CAP)
		return len;
	for (i = 0; p + i < colon; i++)
		buf_addc(&r->hdrs, (char)tolower((unsigned char)p[i]));
	l = len;
	while (l > 0 && (p[l - 1] == '\n' || p[l - 1] == '\r'))
		l--;
	buf_add(&r->hdrs, colon, (size_t)(p + l - colon));
	buf_addc(&r->hdrs, '\n');
	return len;
}

/*
 * A string option: libcurl keeps a copy, and a copy it cannot make would
 * send another request than asked (no URL, no proxy): out of memory.
 */
static void
set_str(CURL *c, CURLoption opt, const char *v)
{
	if (curl_easy_setopt(c, opt, v) == CURLE_OUT_OF_MEMORY)
		die("out of memory setting up a transfer");
}

static void
setup(struct http *d, CURL *c, struct http_req *r, struct host *h)
{
	set_str(c, CURLOPT_URL, r->url);
	curl_easy_setopt(c, CURLOPT_PRIVATE, r);
	if (d->cfg.user_agent)
		set_str(c, CURLOPT_USERAGENT, d->cfg.user_agent);
	if (r->post) {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, r->post);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)r->post_len);
	}
	if (r->headers)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, r->headers);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	set_str(c, CURLOPT_PROTOCOLS_STR, "http,https");
	set_str(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, r->timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, r->connect_timeout_ms ?
	    r->connect_timeout_ms : r->timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	if (strncmp(h->key, "https:", 6) == 0)	/* wait to multiplex on h2 */
		curl_easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
	if (r->max_body && !r->keep_capped)
		curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
		    (curl_off_t)r->max_body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, r->errmsg);
	/* explicit, so the record can say which proxy was used */
	set_str(c, CURLOPT_PROXY, h->proxy ? h->proxy : "");
	if (d->cfg.resolve)
		curl_easy_setopt(c, CURLOPT_RESOLVE, d->cfg.resolve);
	if (d->cfg.connect_to)
		curl_easy_setopt(c, CURLOPT_CONNECT_TO, d->cfg.connect_to);
	if (d->cacert)
		set_str(c, CURLOPT_CAINFO, d->cacert);
	if (d->capath)
		set_str(c, CURLOPT_CAPATH, d->capath);
}

static void
start(struct http *d, struct http_req *r, double now)
{
	struct host *h = &d->hosts[r->host];
	CURL *c;

	/*
	 * A new handle for each transfer: connections stay in the multi
	 * handle's cache.  (curl_easy_reset on a used one cannot say that it
	 * ran out of memory restoring the defaults, and the handle it leaves
	 * sends a broken request; curl_easy_init says so.)
	 */
	if ((c = curl_easy_init()) == NULL)
		die("out of memory: curl_easy_init failed");
	r->easy = c;
	r->prev = NULL;
	r->next = d->running;
	if (d->running)
		d->running->prev = r;
	d->running = r;
	r->attempts++;
	r->elapsed = now;
	setup(d, c, r, h);
	if (curl_multi_add_handle(d->multi, c) != CURLM_OK)
		die("curl_multi_add_handle failed");
	h->inflight++;
	d->active++;
	h->next_ok = now + (double)h->delay_ms / 1000.0;
}

static void
schedule(struct http *d, double now)
{
	struct http_req **pp, *r;
	size_t k, n = d->nhosts, cap = (size_t)d->cfg.max_inflight;

	for (pp = &d->timers; (r = *pp) != NULL;) {
		if (r->due <= now) {
			*pp = r->next;
			enqueue(d, r);
		} else {
			pp = &r->next;
		}
	}
	for (k = 0; k < n && d->active < cap; k++) {
		struct host *h = &d->hosts[(d->rr + k) % n];

		while (h->head && d->active < cap && now >= h->next_ok &&
		    (d->cfg.per_host == 0 || h->inflight < d->cfg.per_host)) {
			r = h->head;
			h->head = r->next;
			if (h->head == NULL)
				h->tail = NULL;
			r->next = NULL;
			start(d, r, now);
		}
	}
	if (n)
		d->rr = (d->rr + 1) % n;
}

/* Milliseconds until a queued request may start; -1: none waits on time. */
static long
next_start_ms(struct http *d, double now)
{
	double best = 0;
	int found = 0;
	struct http_req *r;
	size_t hi;

	for (r = d->timers; r; r = r->next)
		if (!found++ || r->due - now < best)
			best = r->due - now;
	if (d->active < (size_t)d->cfg.max_inflight)
		for (hi = 0; hi < d->nhosts; hi++) {
			struct host *h = &d->hosts[hi];

			if (h->head && (d->cfg.per_host == 0 ||
			    h->inflight < d->cfg.per_host) &&
			    (!found++ || h->next_ok - now < best))
				best = h->next_ok - now;
		}
	if (!found)
		return -1;
	return best <= 0 ? 0 : (long)(best * 1000.0) + 1;
}

static int
errno_local(long e)
{
	return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM ?
	    (int)e : 0;
}

/*
 * The errno when a connection failed for want of this machine's resources
 * (descriptors, buffers, memory), which says nothing of the site; else 0.  A
 * connect(2) that failed leaves its errno (ECONNREFUSED, ETIMEDOUT...);
 * libcurl 7.88 leaves none when socket(2) itself failed, so then a socket
 * is opened here to ask the system why.
 */
static int
local_connect_failure(CURL *c)
{
	long e = 0;
	int fd;

	if (curl_easy_getinfo(c, CURLINFO_OS_ERRNO, &e) == CURLE_OK && e != 0)
		return errno_local(e);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno_local(errno);
}

/* "MESSAGE" becomes "MESSAGE (socket: STRERROR(e))", cut to size. */
static void
errmsg_add(char *msg, size_t size, int e)
{
	size_t n = strlen(msg);

	if (e != 0 && n < size)
		snprintf(msg + n, size - n, " (socket: %s)", strerror(e));
}

static enum http_err
map_code(CURL *c, CURLcode rc, enum http_err set)
{
	curl_off_t pre = 0;

	if (set != HTTP_OK && (rc == CURLE_WRITE_ERROR ||
	    rc == CURLE_ABORTED_BY_CALLBACK))
		return set;
	switch (rc) {
	case CURLE_OK:
		return HTTP_OK;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return HTTP_EDNS;
	case CURLE_COULDNT_CONNECT:
		return HTTP_ECONNECT;
	case CURLE_OPERATION_TIMEDOUT:
		/* pretransfer time is set once a connection (new or reused) is ready */
		curl_easy_getinfo(c, CURLINFO_PRETRANSFER_TIME_T, &pre);
		return pre > 0 ? HTTP_ETIMEOUT : HTTP_ECONNECT_TIMEOUT;
	case CURLE_FILESIZE_EXCEEDED:
		return HTTP_ETOOBIG;
	case CURLE_PARTIAL_FILE:
		return HTTP_EPARTIAL;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		return HTTP_ERESET;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
		return HTTP_ETLS;
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
		return HTTP_ECA;
	case CURLE_OUT_OF_MEMORY:
	case CURLE_FAILED_INIT:
	case CURLE_READ_ERROR:
	case CURLE_WRITE_ERROR:
	case CURLE_BAD_FUNCTION_ARGUMENT:
	case CURLE_NOT_BUILT_IN:
	case CURLE_FUNCTION_NOT_FOUND:
	case CURLE_UNKNOWN_OPTION:
	case CURLE_INTERFACE_FAILED:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
	case CURLE_SSL_ENGINE_INITFAILED:
		return HTTP_ELOCAL;
	default:
		return HTTP_EOTHER;
	}
}

static void
complete(struct http *d, CURL *c, CURLcode rc, double now)
{
	struct http_req *r = NULL;
	struct host *h;
	char *s = NULL;
	long port = 0;
	int sys = rc == CURLE_COULDNT_CONNECT ? local_connect_failure(c) : 0;

	curl_easy_getinfo(c, CURLINFO_PRIVATE, &r);
	assert(r != NULL && r->easy == c);
	h = &d->hosts[r->host];
	r->curl_code = (int)rc;
	/* a connection this machine could not open is its failure */
	r->err = sys != 0 ? HTTP_ELOCAL : map_code(c, rc, r->err);
	if (rc != CURLE_OK && r->errmsg[0] == '\0')
		snprintf(r->errmsg, sizeof r->errmsg, "%s", curl_easy_strerror(rc));
	errmsg_add(r->errmsg, sizeof r->errmsg, sys);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	if (curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &s) == CURLE_OK && s)
		r->content_type = xstrdup(s);
	s = NULL;
	if (r->status >= 300 && r->status <= 399 &&
	    curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &s) == CURLE_OK && s)
		r->location = xstrdup(s);
	s = NULL;
	curl_easy_getinfo(c, CURLINFO_PRIMARY_IP, &s);
	curl_easy_getinfo(c, CURLINFO_PRIMARY_PORT, &port);
	if (s && *s)
		snprintf(r->remote, sizeof r->remote, strchr(s, ':') ?
		    "[%s]:%ld" : "%s:%ld", s, port);
	r->proxy = h->proxy_name ? xstrdup(h->proxy_name) : NULL;
	r->connect_to = h->connect_to;
	r->resolve = h->resolve;
	r->elapsed = now - r->elapsed;
	curl_multi_remove_handle(d->multi, c);
	if (r->prev)
		r->prev->next = r->next;
	else
		d->running = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->next = r->prev = NULL;
	r->easy = NULL;
	r->queued = 0;
	curl_easy_cleanup(c);
	h->inflight--;
	d->active--;
	d->queued--;
	r->on_done(r);
}

size_t
http_step(struct http *d, long max_wait_ms)
{
	double now = mono();
	long wait;
	int running, left;
	CURLMsg *m;

	schedule(d, now);
	if (d->active + d->queued == 0)
		return 0;
	wait = next_start_ms(d, now);
	if (max_wait_ms >= 0 && (wait < 0 || wait > max_wait_ms))
		wait = max_wait_ms;
	if (wait < 0)
		wait = d->active ? 60000 : 0;
	if (curl_multi_poll(d->multi, NULL, 0, (int)wait, NULL) != CURLM_OK)
		die("curl_multi_poll failed");
	if (curl_multi_perform(d->multi, &running) != CURLM_OK)
		die("curl_multi_perform failed");
	now = mono();
	while ((m = curl_multi_info_read(d->multi, &left)) != NULL)
		if (m->msg == CURLMSG_DONE)
			complete(d, m->easy_handle, m->data.result, now);
	return d->active + d->queued;
}

static void
perform_done(struct http_req *r)
{
	(void)r;
}

enum http_err
http_perform(const struct http_config *cfg, struct http_req *r)
{
	struct http *d = http_new(cfg);
	void (*done)(struct http_req *) = r->on_done;

	if (done == NULL)
		r->on_done = perform_done;
	http_submit(d, r, 0, 0);
	while (http_step(d, -1) > 0)
		;
	r->on_done = done;
	http_free(d);
	return r->err;
}
