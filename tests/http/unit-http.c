/*
 * unit-http.c - common/http.c against the loopback server.py whose port is
 * argv[1]: bounds in flight (total and per host), the per-host delay,
 * capped bodies (Content-Length and decoded), header capture, Retry-After
 * as seconds and as a date, redirects handed back, streamed bodies, POST
 * with headers, timeouts, error mapping, --connect-to and proxy provenance.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

#include "ctx.h"
#include "http.h"
#include "tap.h"

static char base[64];
static int port;

static char *
url(const char *path)
{
	return xasprintf("%s%s", base, path);
}

static void
done_count(struct http_req *r)
{
	(*(int *)r->arg)++;
}

static void
get(struct http_req *r, const char *path, struct http_config *cfg)
{
	struct http_config dflt;
	char *u = url(path);

	memset(&dflt, 0, sizeof dflt);
	r->url = u;
	http_perform(cfg ? cfg : &dflt, r);
	r->url = NULL;
	free(u);
}

static void
test_plain(void)
{
	struct http_req r;
	char want[64];
	char *v;

	memset(&r, 0, sizeof r);
	get(&r, "/hello", NULL);
	TAP_IS_INT(r.err, HTTP_OK, "GET: no error");
	TAP_IS_INT(r.status, 200, "GET: status 200");
	TAP_IS_STR(buf_str(&r.body), "hello\n", "GET: body");
	v = http_header(r.hdrs.s, r.hdrs.len, "x-test");
	TAP_IS_STR(v, "a", "GET: header captured, name lowercased");
	free(v);
	TAP_IS_STR(r.content_type, "text/plain", "GET: content type");
	snprintf(want, sizeof want, "127.0.0.1:%d", port);
	TAP_IS_STR(r.remote, want, "GET: remote address recorded");
	TAP_OK(r.proxy == NULL && r.connect_to == NULL, "GET: direct");
	TAP_IS_INT(r.attempts, 1, "GET: one attempt");
	http_req_release(&r);
}

static void
test_redirect(void)
{
	struct http_req r;
	char *want = url("/hello");

	memset(&r, 0, sizeof r);
	get(&r, "/redirect", NULL);
	TAP_IS_INT(r.status, 302, "redirect: not followed, 302 returned");
	TAP_IS_STR(r.location, want, "redirect: Location made absolute");
	free(want);
	http_req_release(&r);
}

static void
test_caps(void)
{
	struct http_req r;

	memset(&r, 0, sizeof r);
	r.max_body = 1000;
	get(&r, "/big", NULL);
	TAP_IS_INT(r.err, HTTP_ETOOBIG, "Content-Length over the cap: HTTP_ETOOBIG");
	TAP_IS_INT(r.body.len, 0, "Content-Length over the cap: nothing read");
	http_req_release(&r);
	memset(&r, 0, sizeof r);
	r.max_body = 4096;
	get(&r, "/gzip-bomb", NULL);
	TAP_IS_INT(r.err, HTTP_ETOOBIG_DECODED, "gzip bomb: HTTP_ETOOBIG_DECODED");
	TAP_OK(r.body.len <= 4096, "gzip bomb: body within the cap (%zu)", r.body.len);
	http_req_release(&r);
	memset(&r, 0, sizeof r);
	r.max_body = 4096;
	r.keep_capped = 1;
	get(&r, "/gzip-bomb", NULL);
	TAP_IS_INT(r.body.len, 4096, "keep_capped: the first max_body bytes kept");
	http_req_release(&r);
}

struct sse {
	int chunks;
	struct buf all;
};

static int
on_sse(struct http_req *r, const char *p, size_t n)
{
	struct sse *s = r->arg;

	s->chunks++;
	buf_add(&s->all, p, n);
	return 0;
}

static int
on_stop(struct http_req *r, const char *p, size_t n)
{
	return 1;
}

static void
test_stream(void)
{
	struct http_req r;
	struct sse s;

	memset(&r, 0, sizeof r);
	memset(&s, 0, sizeof s);
	r.on_data = on_sse;
	r.arg = &s;
	r.stream_only = 1;
	get(&r, "/sse", NULL);
	TAP_IS_INT(r.err, HTTP_OK, "stream: complete");
	TAP_OK(s.chunks >= 3, "stream: events arrive as they are sent (%d chunks)",
	    s.chunks);
	TAP_IS_STR(buf_str(&s.all), "data: 0\n\ndata: 1\n\ndata: 2\n\n",
	    "stream: every byte once");
	TAP_IS_INT(r.body.s == NULL || r.body.s[0] == '\0', 1,
	    "stream_only: nothing kept");
	buf_release(&s.all);
	http_req_release(&r);
	memset(&r, 0, sizeof r);
	r.on_data = on_stop;
	get(&r, "/sse", NULL);
	TAP_IS_INT(r.err, HTTP_EABORT, "on_data stopping: HTTP_EABORT");
	http_req_release(&r);
}

static void
test_post(void)
{
	struct http_req r;
	struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer k1");
	char *v;

	h = curl_slist_append(h, "Content-Type: application/json");
	memset(&r, 0, sizeof r);
	r.post = "{\"model\":\"m\"}";
	r.post_len = strlen(r.post);
	r.headers = h;
	get(&r, "/echo", NULL);
	TAP_IS_STR(buf_str(&r.body), "{\"model\":\"m\"}", "POST: body sent");
	v = http_header(r.hdrs.s, r.hdrs.len, "x-auth");
	TAP_IS_STR(v, "Bearer k1", "POST: headers sent");
	free(v);
	http_req_release(&r);
	curl_slist_free_all(h);
}

static void
test_errors(void)
{
	struct http_req r;
	struct http_config cfg;

	memset(&r, 0, sizeof r);
	r.timeout_ms = 300;
	get(&r, "/slow", NULL);
	TAP_IS_INT(r.err, HTTP_ETIMEOUT, "no answer in time: HTTP_ETIMEOUT");
	TAP_OK(http_transient(&r), "a timeout is transient");
	http_req_release(&r);

	memset(&r, 0, sizeof r);
	r.url = "http://nowhere.invalid/";
	memset(&cfg, 0, sizeof cfg);
	http_perform(&cfg, &r);
	TAP_IS_INT(r.err, HTTP_EDNS, ".invalid: HTTP_EDNS");
	TAP_OK(strstr(r.errmsg, "nowhere.invalid") != NULL, "DNS: message names the host");
	TAP_OK(!http_transient(&r), "DNS failure is not transient");
	http_req_release(&r);

	/* a connect-to mapping to a closed port */
	cfg.connect_to = curl_slist_append(NULL, "closed.test:80:127.0.0.1:1");
	memset(&r, 0, sizeof r);
	r.url = "http://closed.test/";
	http_perform(&cfg, &r);
	TAP_IS_INT(r.err, HTTP_ECONNECT, "closed port: HTTP_ECONNECT");
	TAP_IS_STR(r.connect_to, "closed.test:80:127.0.0.1:1", "closed port: mapping named");
	http_req_release(&r);
	curl_slist_free_all(cfg.connect_to);
}

static void
test_retry_after(void)
{
	struct http_req r;
	char *ra;
	long s;
	struct http_config cfg;
	struct http *d;
	int i, ok = 1;

	TAP_IS_INT(http_retry_after("120", 0), 120, "Retry-After: delta-seconds");
	TAP_IS_INT(http_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111717),
	    60, "Retry-After: IMF-fixdate");
	TAP_IS_INT(http_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", 784111717),
	    60, "Retry-After: RFC 850 date");
	TAP_IS_INT(http_retry_after("Sun Nov  6 08:49:37 1994", 784111717),
	    60, "Retry-After: asctime date");
	TAP_IS_INT(http_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111800),
	    0, "Retry-After: a past date is 0");
	TAP_IS_INT(http_retry_after("soon", 0), -1, "Retry-After: garbage is -1");
	TAP_IS_INT(http_retry_after("-5", 0), -1, "Retry-After: negative is -1");

	memset(&r, 0, sizeof r);
	get(&r, "/retry-date", NULL);
	TAP_IS_INT(r.status, 503, "503 with a Retry-After date");
	TAP_OK(http_transient(&r), "503 is transient");
	ra = http_header(r.hdrs.s, r.hdrs.len, "retry-after");
	s = http_retry_after(ra, time(NULL));
	TAP_OK(s >= 1 && s <= 4, "server's HTTP-date Retry-After parsed (%ld s)", s);
	free(ra);
	http_req_release(&r);

	memset(&cfg, 0, sizeof cfg);
	cfg.retry_base_ms = 100;
	cfg.retry_max_ms = 1000;
	d = http_new(&cfg);
	for (i = 0; i < 200; i++) {
		long b1 = http_backoff_ms(d, 1, -1), b3 = http_backoff_ms(d, 3, -1);

		if (b1 < 50 || b1 >= 150 || b3 < 200 || b3 >= 600)
			ok = 0;
	}
	TAP_OK(ok, "backoff: base * 2^(n-1) spread by [0.5, 1.5)");
	TAP_IS_INT(http_backoff_ms(d, 10, -1), 1000, "backoff: capped");
	TAP_IS_INT(http_backoff_ms(d, 1, 7), 7000, "backoff: at least Retry-After");
	TAP_IS_INT(http_backoff_ms(d, 1, 9999), 300000, "backoff: Retry-After capped at 300 s");
	http_free(d);
}

/* 8 requests on two hosts: at most 3 in flight, 2 per host. */
static void
test_bounds(void)
{
	struct http_config cfg;
	struct http *d;
	struct http_req r[8], st;
	char *urls[8], ra[64], rb[64];
	int done = 0, i, steps = 0;
	size_t most = 0;
	json_t *j;

	memset(&cfg, 0, sizeof cfg);
	snprintf(ra, sizeof ra, "a.test:%d:127.0.0.1", port);
	snprintf(rb, sizeof rb, "b.test:%d:127.0.0.1", port);
	cfg.resolve = curl_slist_append(curl_slist_append(NULL, ra), rb);
	cfg.max_inflight = 3;
	cfg.per_host = 2;
	d = http_new(&cfg);
	memset(r, 0, sizeof r);
	for (i = 0; i < 8; i++) {
		urls[i] = xasprintf("http://%c.test:%d/sleep", i % 2 ? 'b' : 'a', port);
		r[i].url = urls[i];
		r[i].on_done = done_count;
		r[i].arg = &done;
		http_submit(d, &r[i], 0, 0);
	}
	TAP_IS_INT(http_pending(d), 8, "8 requests pending");
	/* One check, whatever the number of steps (it depends on timing):
	   the bound reached, each request sleeping 200 ms, and never passed. */
	while (http_step(d, -1) > 0) {
		steps++;
		if (http_inflight(d) > most)
			most = http_inflight(d);
	}
	TAP_IS_INT(most, 3, "at most 3 in flight, and 3 reached (%d steps)", steps);
	TAP_IS_INT(done, 8, "every request completed once");
	for (i = 0; i < 8; i++) {
		if (r[i].status != 200)
			TAP_IS_INT(r[i].status, 200, "request %d answered", i);
		http_req_release(&r[i]);
		free(urls[i]);
	}
	http_free(d);
	curl_slist_free_all(cfg.resolve);

	memset(&st, 0, sizeof st);
	get(&st, "/stats", NULL);
	j = json_loads(buf_str(&st.body), 0, NULL);
	TAP_OK(json_integer_value(json_object_get(j, "max")) <= 3,
	    "server saw at most 3 at once");
	snprintf(ra, sizeof ra, "a.test:%d", port);
	TAP_IS_INT(json_integer_value(json_object_get(json_object_get(j,
	    "max_by_host"), ra)), 2, "server saw at most 2 at once on a host");
	json_decref(j);
	http_req_release(&st);
}

/* When each request of test_delay started, in the order they completed:
   the time on_done runs less the request's elapsed seconds (http.c's
   clock is CLOCK_MONOTONIC too). */
struct starts {
	int n;
	double at[3];
};

static void
on_done_start(struct http_req *r)
{
	struct starts *s = r->arg;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (s->n < 3)
		s->at[s->n] = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - r->elapsed;
	s->n++;
}

/*
 * Start-to-start delay on one host.  The starts are judged as the driver
 * made them, not as the server stamped them: the server's stamp waits for
 * the thread it makes for each connection, whose start a loaded machine
 * delays by tens of milliseconds, more for one request than another.
 * What is left is the time from the driver's clock to on_done (10 ms
 * allowed).
 */
static void
test_delay(void)
{
	struct http_config cfg;
	struct http *d;
	struct http_req r[3], st;
	struct starts s;
	char *u, key[64];
	int i, ok;
	json_t *j, *t;

	memset(&cfg, 0, sizeof cfg);
	cfg.max_inflight = 8;
	cfg.host_delay_ms = 250;
	snprintf(key, sizeof key, "c.test:%d:127.0.0.1", port);
	cfg.resolve = curl_slist_append(NULL, key);
	d = http_new(&cfg);
	u = xasprintf("http://c.test:%d/sleep", port);
	memset(r, 0, sizeof r);
	memset(&s, 0, sizeof s);
	for (i = 0; i < 3; i++) {
		r[i].url = u;
		r[i].on_done = on_done_start;
		r[i].arg = &s;
		http_submit(d, &r[i], 0, 0);
	}
	while (http_step(d, -1) > 0)
		;
	TAP_IS_INT(s.n, 3, "delayed host: all done");
	for (i = 0; i < 3; i++)
		http_req_release(&r[i]);
	http_free(d);
	curl_slist_free_all(cfg.resolve);
	free(u);
	/* In the order they started (each takes the server's 200 ms). */
	for (i = 1; i < 3; i++)
		for (int k = i; k > 0 && s.at[k - 1] > s.at[k]; k--) {
			double x = s.at[k];
			s.at[k] = s.at[k - 1];
			s.at[k - 1] = x;
		}
	ok = s.n == 3 && s.at[1] - s.at[0] >= 0.24 && s.at[2] - s.at[1] >= 0.24;
	TAP_OK(ok, "delayed host: started at least 250 ms apart (%.0f and %.0f ms)",
	    (s.at[1] - s.at[0]) * 1e3, (s.at[2] - s.at[1]) * 1e3);
	memset(&st, 0, sizeof st);
	get(&st, "/stats", NULL);
	j = json_loads(buf_str(&st.body), 0, NULL);
	snprintf(key, sizeof key, "c.test:%d", port);
	t = json_object_get(json_object_get(j, "starts"), key);
	TAP_IS_INT(json_array_size(t), 3, "delayed host: the server saw the three");
	json_decref(j);
	http_req_release(&st);
}

static void
test_mirror_proxy(void)
{
	struct http_config cfg;
	struct http_req r;
	char map[96], px[96], want[64];

	memset(&cfg, 0, sizeof cfg);
	snprintf(map, sizeof map, "docs.example.org:443:127.0.0.1:%d", port);
	cfg.connect_to = curl_slist_append(NULL, "other.test::127.0.0.1:1");
	cfg.connect_to = curl_slist_append(cfg.connect_to, map);
	snprintf(map, sizeof map, "mirror.test:80:127.0.0.1:%d", port);
	cfg.connect_to = curl_slist_append(cfg.connect_to, map);
	memset(&r, 0, sizeof r);
	r.url = "http://mirror.test/hello";
	http_perform(&cfg, &r);
	TAP_IS_INT(r.status, 200, "connect-to: the mirror answers");
	TAP_IS_STR(r.connect_to, map, "connect-to: the entry used is named");
	snprintf(want, sizeof want, "127.0.0.1:%d", port);
	TAP_IS_STR(r.remote, want, "connect-to: the mirror's address recorded");
	http_req_release(&r);
	curl_slist_free_all(cfg.connect_to);

	memset(&cfg, 0, sizeof cfg);
	snprintf(px, sizeof px, "http://user:secret@127.0.0.1:%d", port);
	setenv("http_proxy", px, 1);
	memset(&r, 0, sizeof r);
	r.url = "http://proxied.test/hello";
	http_perform(&cfg, &r);
	TAP_IS_INT(r.status, 200, "proxy: answered through the proxy");
	snprintf(want, sizeof want, "http://127.0.0.1:%d", port);
	TAP_IS_STR(r.proxy, want, "proxy: named, without credentials");
	http_req_release(&r);
	setenv("no_proxy", "example.net,.proxied.test", 1);
	memset(&r, 0, sizeof r);
	r.url = "http://www.proxied.test/hello";
	http_perform(&cfg, &r);
	TAP_OK(r.proxy == NULL, "no_proxy: a listed domain goes direct");
	TAP_IS_INT(r.err, HTTP_EDNS, "no_proxy: so its name must resolve");
	http_req_release(&r);
	unsetenv("http_proxy");
	unsetenv("no_proxy");

	memset(&cfg, 0, sizeof cfg);
	cfg.cacert = "/nonexistent/ca.pem";
	memset(&r, 0, sizeof r);
	snprintf(map, sizeof map, "https://127.0.0.1:%d/", port);
	r.url = map;
	http_perform(&cfg, &r);
	TAP_IS_INT(r.err, HTTP_ECA, "a CA file that does not exist: HTTP_ECA");
	http_req_release(&r);
}

static void
test_urls(void)
{
	char *o, *p, *why;

	TAP_IS_INT(http_url_split("HTTPS://Docs.Example.org/a/b?x=1#f", &o, &p, &why),
	    0, "split: a URL");
	TAP_IS_STR(o, "https://docs.example.org:443", "split: origin lowercased, port explicit");
	TAP_IS_STR(p, "/a/b?x=1", "split: path and query");
	free(o);
	free(p);
	TAP_IS_INT(http_url_split("ftp://x/", &o, &p, &why), -1, "split: ftp refused");
	TAP_OK(strstr(why, "only http and https") != NULL, "split: why");
	free(why);
	TAP_IS_INT(http_url_split("http://", &o, NULL, &why), -1, "split: no host");
	free(why);
}

int
main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	port = atoi(argv[1]);
	snprintf(base, sizeof base, "http://127.0.0.1:%d", port);
	unsetenv("http_proxy");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
	unsetenv("no_proxy");
	unsetenv("NO_PROXY");
	test_urls();
	test_plain();
	test_redirect();
	test_caps();
	test_stream();
	test_post();
	test_errors();
	test_retry_after();
	test_bounds();
	test_delay();
	test_mirror_proxy();
	return tap_done();
}
