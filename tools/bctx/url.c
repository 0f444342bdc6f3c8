/*
 * url.c - the URL normaliser and the HTML <-> Markdown URL rules of bctx
 * plan (issue 5; spec 001 §2.1 step 2, §2.3).
 *
 * Matching is done on keys, never on the URLs as written: a question may
 * cite "https://Docs.Example.com/guide/" where the llms.txt lists
 * "https://docs.example.com/guide.md".  The key normalises only what
 * cannot change the resource (RFC 3986 §6.2.2: case of scheme and host,
 * percent-escape case, default port) plus the trailing slash, which
 * documentation servers treat as the same page.  Nothing here allocates
 * more than a few times the input length; all input is untrusted.
 */
#include <ctype.h>
#include <string.h>

#include "ctx.h"
#include "bctx.h"

struct parts {
	const char *scheme; size_t schemelen;
	const char *auth; size_t authlen;	/* userinfo@host:port */
	const char *path; size_t pathlen;
	const char *query; size_t querylen;	/* without '?'; NULL if none */
	const char *frag;			/* at '#', or NULL */
};

static int
split(const char *u, struct parts *p)
{
	const char *s = u, *e;

	memset(p, 0, sizeof *p);
	if (!isalpha((unsigned char)*s))
		return -1;
	while (isalnum((unsigned char)*s) || *s == '+' || *s == '-' || *s == '.')
		s++;
	if (strncmp(s, "://", 3) != 0)
		return -1;
	p->scheme = u;
	p->schemelen = (size_t)(s - u);
	s += 3;
	e = s + strcspn(s, "/?#");
	p->auth = s;
	p->authlen = (size_t)(e - s);
	if (p->authlen == 0)
		return -1;
	{	/* the host itself (after any userinfo, before any port) */
		const char *h = s, *q;
		for (q = s; q < e; q++)
			if (*q == '@')
				h = q + 1;
		if (h == e || *h == ':')
			return -1;
	}
	s = e;
	e = s + strcspn(s, "?#");
	p->path = s;
	p->pathlen = (size_t)(e - s);
	s = e;
	if (*s == '?') {
		s++;
		e = s + strcspn(s, "#");
		p->query = s;
		p->querylen = (size_t)(e - s);
		s = e;
	}
	if (*s == '#')
		p->frag = s;
	return 0;
}

static void
add_lower(struct buf *b, const char *s, size_t n)
{
	char *w;
	size_t i;

	/* room made once, the bytes written into it */
	buf_grow(b, n);
	w = b->s + b->len;
	for (i = 0; i < n; i++)
		w[i] = (char)tolower((unsigned char)s[i]);
	b->len += n;
	b->s[b->len] = '\0';
}

/* Append s[0..n) with the hex digits of %XX escapes upper-cased. */
static void
add_pct(struct buf *b, const char *s, size_t n)
{
	const char *pc;
	size_t i = 0, run;

	while (i < n) {
		/* the run up to the next '%' as it is */
		pc = memchr(s + i, '%', n - i);
		run = pc ? (size_t)(pc - (s + i)) : n - i;
		buf_add(b, s + i, run);
		if ((i += run) >= n)
			break;
		buf_addc(b, '%');
		if (i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			buf_addc(b, toupper((unsigned char)s[i + 1]));
			buf_addc(b, toupper((unsigned char)s[i + 2]));
			i += 2;
		}
		i++;
	}
}

/* scheme://host[:port] of p, normalised, into b. */
static void
add_origin(struct buf *b, const struct parts *p)
{
	const char *a = p->auth, *end = p->auth + p->authlen, *at, *host, *colon;
	size_t i;

	add_lower(b, p->scheme, p->schemelen);
	buf_adds(b, "://");
	at = NULL;
	for (i = 0; i < p->authlen; i++)
		if (a[i] == '@')
			at = a + i;
	if (at) {
		add_pct(b, a, (size_t)(at - a) + 1);
		host = at + 1;
	} else
		host = a;
	colon = NULL;
	if (*host == '[') {
		const char *rb = memchr(host, ']', (size_t)(end - host));
		if (rb && rb + 1 < end && rb[1] == ':')
			colon = rb + 1;
	} else
		colon = memchr(host, ':', (size_t)(end - host));
	if (colon == NULL) {
		add_lower(b, host, (size_t)(end - host));
		return;
	}
	add_lower(b, host, (size_t)(colon - host));
	{
		const char *port = colon + 1;
		size_t plen = (size_t)(end - port);
		int dflt = plen == 0 ||
		    (p->schemelen == 4 && strncasecmp(p->scheme, "http", 4) == 0 &&
		     plen == 2 && memcmp(port, "80", 2) == 0) ||
		    (p->schemelen == 5 && strncasecmp(p->scheme, "https", 5) == 0 &&
		     plen == 3 && memcmp(port, "443", 3) == 0);
		if (!dflt) {
			buf_addc(b, ':');
			buf_add(b, port, plen);
		}
	}
}

/* Path length without trailing slashes. */
static size_t
trim_slashes(const char *path, size_t n)
{
	while (n > 0 && path[n - 1] == '/')
		n--;
	return n;
}

/* The key of the URL split into p, appended to b. */
static void
put_key(struct buf *b, const struct parts *p)
{
	add_origin(b, p);
	add_pct(b, p->path, trim_slashes(p->path, p->pathlen));
	if (p->query && p->querylen > 0) {
		buf_addc(b, '?');
		add_pct(b, p->query, p->querylen);
	}
}

char *
bctx_url_key(const char *url)
{
	struct parts p;
	struct buf b = BUF_INIT;

	if (split(url, &p) < 0)
		return NULL;
	buf_grow(&b, strlen(url));	/* no longer than the URL */
	put_key(&b, &p);
	return buf_detach(&b, NULL);
}

int
bctx_url_key_buf(struct buf *b, const char *url)
{
	struct parts p;

	if (split(url, &p) < 0)
		return -1;
	put_key(b, &p);
	return 0;
}

int
bctx_url_is_http(const char *url)
{
	struct parts p;

	if (split(url, &p) < 0)
		return 0;
	return (p.schemelen == 4 && strncasecmp(url, "http", 4) == 0) ||
	    (p.schemelen == 5 && strncasecmp(url, "https", 5) == 0);
}

const char *
bctx_url_fragment(const char *url)
{
	return strchr(url, '#');
}

char *
bctx_url_defrag(const char *url)
{
	const char *f = strchr(url, '#');

	return f ? xstrndup(url, (size_t)(f - url)) : xstrdup(url);
}

/* The last segment of the path of p. */
static void
last_segment(const struct parts *p, const char **seg, size_t *n)
{
	size_t i = p->pathlen;

	while (i > 0 && p->path[i - 1] != '/')
		i--;
	*seg = p->path + i;
	*n = p->pathlen - i;
}

static int
ends_with_ci(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && strncasecmp(s + n - k, suffix, k) == 0;
}

enum bctx_kind
bctx_url_kind(const char *url)
{
	struct parts p;
	const char *seg;
	size_t n;

	if (split(url, &p) < 0)
		return BCTX_URL_HTML;
	last_segment(&p, &seg, &n);
	if (n == 8 && strncasecmp(seg, "llms.txt", 8) == 0)
		return BCTX_URL_LLMS;
	if (n == 13 && strncasecmp(seg, "llms-full.txt", 13) == 0)
		return BCTX_URL_LLMS_FULL;
	if (n > 3 && ends_with_ci(seg, n, ".md"))
		return BCTX_URL_MD;
	return BCTX_URL_HTML;
}

char *
bctx_md_to_html(const char *url)
{
	struct parts p;
	struct buf b = BUF_INIT;
	const char *seg, *stop;
	size_t n, keep;

	if (split(url, &p) < 0 || bctx_url_kind(url) != BCTX_URL_MD)
		return NULL;
	last_segment(&p, &seg, &n);
	if ((n == 8 && strncasecmp(seg, "index.md", 8) == 0) ||
	    (n == 13 && strncasecmp(seg, "index.html.md", 13) == 0))
		keep = (size_t)(seg - url);	/* the directory, with its '/' */
	else
		keep = (size_t)(p.path + p.pathlen - url) - 3;
	buf_add(&b, url, keep);
	stop = p.frag ? p.frag : url + strlen(url);
	buf_add(&b, p.path + p.pathlen, (size_t)(stop - (p.path + p.pathlen)));
	return buf_detach(&b, NULL);
}

size_t
bctx_md_candidates(const char *url, char *out[BCTX_MAXCAND],
    const char *rule[BCTX_MAXCAND])
{
	static const char *const suffix[] = { "", ".md", "/index.md",
	    "/index.html.md" };
	static const char *const names[] = { "same-url", "url.md",
	    "url/index.md", "url/index.html.md" };
	struct parts p;
	struct buf origin = BUF_INIT, b = BUF_INIT;
	size_t n = 0, i, plen;

	if (split(url, &p) < 0)
		return 0;
	add_origin(&origin, &p);
	plen = trim_slashes(p.path, p.pathlen);
	for (i = 0; i < 4; i++) {
		if (i == 1 && plen == 0)
			continue;	/* "https://host.md" is another host */
		buf_reset(&b);
		buf_add(&b, origin.s, origin.len);
		add_pct(&b, p.path, plen);
		buf_adds(&b, suffix[i]);
		if (p.query && p.querylen > 0) {
			buf_addc(&b, '?');
			add_pct(&b, p.query, p.querylen);
		}
		rule[n] = names[i];
		out[n++] = xstrdup(b.s);
	}
	if (ends_with_ci(p.path, plen, ".html") || ends_with_ci(p.path, plen, ".htm")) {
		size_t stem = plen - (ends_with_ci(p.path, plen, ".html") ? 5 : 4);
		buf_reset(&b);
		buf_add(&b, origin.s, origin.len);
		add_pct(&b, p.path, stem);
		buf_adds(&b, ".md");
		if (p.query && p.querylen > 0) {
			buf_addc(&b, '?');
			add_pct(&b, p.query, p.querylen);
		}
		rule[n] = "html-ext.md";
		out[n++] = xstrdup(b.s);
	}
	buf_release(&origin);
	buf_release(&b);
	return n;
}
