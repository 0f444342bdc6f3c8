/*
 * http.h - one libcurl multi driver for the programs that speak HTTP:
 * bfetch's archive fetches and binfer's inference requests.
 *
 * The caller owns each struct http_req, fills its request fields and
 * submits it; the driver runs it and calls req->on_done with the response
 * fields set.  The driver keeps:
 *   - at most max_inflight requests in flight, at most per_host of them on
 *     one host (an origin: scheme, host name, port), and a delay between
 *     request starts on a host (start to start, as Scrapy's DOWNLOAD_DELAY);
 *     hosts are served round-robin, a host's requests in submission order;
 *   - bodies capped at req->max_body bytes after content decoding (a
 *     Content-Length over the cap stops the transfer before the body);
 *   - the headers of the response as "name: value\n" lines, names
 *     lowercased;
 *   - no redirect following: a 3xx completes like any response, with
 *     req->location set, and the caller decides whether to submit the next
 *     hop (robots.txt, politeness and the redirect chain are the caller's);
 *   - libcurl's result mapped to enum http_err.
 * Retries are the caller's decision: http_backoff_ms gives the delay
 * (exponential with jitter, at least Retry-After) and http_submit takes it.
 *
 * Nothing here is thread-safe; one driver belongs to one thread.
 */
#ifndef CTX_HTTP_H
#define CTX_HTTP_H

#include <stddef.h>
#include <time.h>

#include "buf.h"

struct curl_slist;
struct http;

struct http_config {
	long max_inflight;	/* requests in flight in total; 0 means 1 */
	long per_host;		/* in flight per host; 0: only max_inflight */
	long host_delay_ms;	/* between request starts on one host */
	const char *user_agent;	/* NULL: none sent */
	struct curl_slist *resolve;	/* curl --resolve entries (borrowed) */
	struct curl_slist *connect_to;	/* curl --connect-to entries (borrowed) */
	/*
	 * CA certificates; NULL: $CURL_CA_BUNDLE, else $SSL_CERT_FILE (file)
	 * and $SSL_CERT_DIR (directory), as curl(1) reads them, else
	 * libcurl's built-in default.
	 */
	const char *cacert, *capath;
	long retry_base_ms;	/* first backoff step; 0: 500 */
	long retry_max_ms;	/* backoff cap; 0: 60000 */
};

enum http_err {
	HTTP_OK,		/* a complete response (any status) */
	HTTP_EDNS,		/* host (or proxy) name did not resolve */
	HTTP_ECONNECT,		/* connection refused or unreachable */
	HTTP_ECONNECT_TIMEOUT,	/* no connection within the timeout */
	HTTP_ETIMEOUT,		/* connected, response not complete in time */
	HTTP_ETOOBIG,		/* Content-Length over max_body: no body read */
	HTTP_ETOOBIG_DECODED,	/* decoded body reached max_body */
	HTTP_EPARTIAL,		/* body shorter than its Content-Length */
	HTTP_ERESET,		/* connection reset or closed mid-transfer */
	HTTP_ETLS,		/* TLS handshake or certificate failure */
	HTTP_ECA,		/* the CA file or directory is unusable */
	HTTP_EABORT,		/* on_data returned nonzero */
	/*
	 * a failure of this machine, not of the server: out of memory, a
	 * socket that could not be opened for want of descriptors, buffers
	 * or memory (errmsg ends "(socket: STRERROR)"), a local read or
	 * write error, a libcurl that cannot do what was asked
	 */
	HTTP_ELOCAL,
	HTTP_EOTHER		/* anything else: see curl_code, errmsg */
};

struct http_req {
	/* ---- request: set by the caller, not changed by the driver */
	const char *url;
	const char *post;	/* not NULL: POST these post_len bytes */
	size_t post_len;
	struct curl_slist *headers;	/* extra request headers (borrowed) */
	long timeout_ms;	/* whole request; 0: no limit */
	long connect_timeout_ms;	/* 0: timeout_ms, else libcurl's 300 s */
	size_t max_body;	/* decoded body cap in bytes; 0: no cap */
	int keep_capped;	/* at the cap keep the first max_body bytes */
	int stream_only;	/* give the body to on_data only, keep none */
	/* Each decoded body chunk as it arrives; nonzero stops (HTTP_EABORT). */
	int (*on_data)(struct http_req *r, const char *p, size_t n);
	/* The request is complete; r may be submitted again from here. */
	void (*on_done)(struct http_req *r);
	void *arg;		/* the caller's */

	/* ---- response: set before on_done, valid until the next submit */
	enum http_err err;
	int curl_code;		/* libcurl's CURLcode */
	char errmsg[256];	/* libcurl's message ("" when HTTP_OK) */
	long status;		/* HTTP status, 0: none */
	struct buf body;	/* decoded body (empty with stream_only) */
	struct buf hdrs;	/* final response's headers */
	char *content_type;	/* Content-Type as sent, or NULL */
	char *location;		/* 3xx: absolute redirect target, or NULL */
	char remote[64];	/* address that answered: "IP:PORT", "[IP6]:PORT" */
	char *proxy;		/* proxy used (no credentials), or NULL */
	/* the config's entry that mapped (resolved) the host, or NULL */
	const char *connect_to, *resolve;
	double elapsed;		/* seconds from start to completion */
	int attempts;		/* times this request was started */

	/* ---- the driver's */
	struct http_req *next, *prev;
	double due;
	size_t host;
	void *easy;
	int front, queued;
};

/* A driver; dies when libcurl cannot start.  Free with http_free. */
struct http *http_new(const struct http_config *cfg);
/* Frees the driver; requests still in flight are abandoned (not called). */
void http_free(struct http *d);

#define HTTP_FRONT 1		/* before the host's other queued requests */
/*
 * Queue r to start no sooner than delay_ms from now (and when its host
 * and the global bound allow).  r must not be queued or in flight already;
 * its response fields are reset.  Dies on a URL libcurl cannot parse
 * (callers check with http_url_split first).
 */
void http_submit(struct http *d, struct http_req *r, int flags, long delay_ms);
/*
 * Start what may start, wait for activity (at most max_wait_ms; < 0: until
 * something completes or a queued request may start) and call on_done for
 * every request completed.  Returns the number of requests queued or in
 * flight afterwards.
 */
size_t http_step(struct http *d, long max_wait_ms);
size_t http_pending(const struct http *d);
size_t http_inflight(const struct http *d);

/* The host of url receives this start-to-start delay (e.g. Crawl-delay). */
void http_host_delay(struct http *d, const char *url, long ms);
/* No request starts on url's host for ms from now (Retry-After). */
void http_host_hold(struct http *d, const char *url, long ms);

/*
 * One request, blocking, on a driver of its own made from cfg (server
 * probes, warm-ups).  Returns r->err.
 */
enum http_err http_perform(const struct http_config *cfg, struct http_req *r);
/* Free a request's response fields (not the request itself). */
void http_req_release(struct http_req *r);

/*
 * Split an absolute http or https URL: *origin "scheme://host:port" (host
 * lowercased, default port explicit) and *path "/path?query" (malloc'd;
 * either pointer may be NULL).  Returns 0, or -1 with *why set (malloc'd).
 * Dies when libcurl runs out of memory parsing it (no verdict on the URL).
 */
int http_url_split(const char *url, char **origin, char **path, char **why);

/*
 * url without its user information (scheme://USER:PASSWORD;OPTIONS@host),
 * for messages and records: a URL libcurl's URL API (curl_url) finds none
 * in is returned as it is; else libcurl's form of it without them (a URL
 * without a scheme gains the one curl(1) guesses; a path "/" libcurl adds
 * to a URL without one is left out).  A URL libcurl cannot parse gives
 * HTTP_URL_UNPARSABLE, never the text that may hold a password.
 * Malloc'd; dies only when out of memory.
 */
#define HTTP_URL_UNPARSABLE "(a URL libcurl cannot parse)"
char *http_url_public(const char *url);

/* Malloc'd copy of the first value of header name (lowercase), or NULL. */
char *http_header(const char *hdrs, size_t len, const char *name);
/*
 * A Retry-After value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date,
 * as seconds from now (0 for a date in the past); -1 when unparsable.
 */
long http_retry_after(const char *value, time_t now);
/* 1 for a failure worth trying again: timeouts, resets, 429, 5xx gateway. */
int http_transient(const struct http_req *r);
/*
 * Backoff before attempt number attempts+1: retry_base_ms * 2^(attempts-1)
 * spread by a factor in [0.5, 1.5), capped at retry_max_ms, and never less
 * than retry_after_s (when >= 0, itself capped at 300 s).
 */
long http_backoff_ms(struct http *d, int attempts, long retry_after_s);

#endif
