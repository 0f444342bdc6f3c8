/*
 * robots.c - robots.txt parsing and matching per RFC 9309 (Robots Exclusion
 * Protocol).  The parser keeps only the rules that apply to one product
 * token; matching is the longest-match rule of §2.2.2 with the "*" and "$"
 * special characters of §2.2.3, allow winning ties.  Group selection,
 * user-agent token extraction and the position-set wildcard matcher follow
 * Google's reference parser (github.com/google/robotstxt, robots.cc).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bfetch.h"

struct rule {
	int allow;
	char *pattern;		/* normalised (percent-encoding per §2.2.2) */
	size_t plen;
	char *text;		/* "Allow: /x" for messages */
};

struct bfetch_robots {
	struct rule *rules;
	size_t n, cap;
	int all;		/* -1 parsed rules, 0 disallow all, 1 allow all */
	long crawl_delay_ms;	/* -1: none */
};

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int
unreserved(int c)
{
	return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/*
 * §2.2.2: octets outside US-ASCII (and controls, space) are percent-encoded
 * before comparison; a percent-encoded unreserved character is decoded; hex
 * digits are compared in upper case.
 */
static void
normalise(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int h1, h2;

		if (c == '%' && i + 2 < n &&
		    (h1 = hexval((unsigned char)s[i + 1])) >= 0 &&
		    (h2 = hexval((unsigned char)s[i + 2])) >= 0) {
			int v = h1 * 16 + h2;

			if (unreserved(v)) {
				buf_addc(out, v);
			} else {
				buf_addc(out, '%');
				buf_addc(out, hex[h1]);
				buf_addc(out, hex[h2]);
			}
			i += 2;
		} else if (c <= 0x20 || c >= 0x7f) {
			buf_addc(out, '%');
			buf_addc(out, hex[c >> 4]);
			buf_addc(out, hex[c & 15]);
		} else {
			buf_addc(out, c);
		}
	}
}

static void
add_rule(struct bfetch_robots *r, int allow, const char *val, size_t vlen)
{
	struct buf b = BUF_INIT;
	struct rule *ru;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->rules = xreallocarray(r->rules, r->cap, sizeof *r->rules);
	}
	ru = &r->rules[r->n++];
	ru->allow = allow;
	normalise(&b, val, vlen);
	ru->plen = b.len;
	ru->pattern = buf_detach(&b, NULL);
	ru->text = xasprintf("%s: %.*s", allow ? "Allow" : "Disallow",
	    (int)(vlen > 200 ? 200 : vlen), val);
}

char *
bfetch_product_token(const char *ua)
{
	size_t n = 0;

	while (ua[n] && (isalpha((unsigned char)ua[n]) || ua[n] == '_' ||
	    ua[n] == '-'))
		n++;
	return xstrndup(ua, n);
}

/* Case-insensitive equality of an ASCII span and a string. */
static int
span_ieq(const char *s, size_t n, const char *t)
{
	size_t tl = strlen(t);

	return n == tl && strncasecmp(s, t, n) == 0;
}

/* One parsed line: key and value spans (trimmed, comment removed). */
static int
split_line(const char *line, size_t len, const char **k, size_t *kl,
    const char **v, size_t *vl)
{
	const char *p = line, *end, *colon;

	end = memchr(line, '#', len);
	if (end == NULL)
		end = line + len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	colon = memchr(p, ':', (size_t)(end - p));
	if (colon == NULL)
		return 0;
	*k = p;
	*kl = (size_t)(colon - p);
	while (*kl > 0 && (p[*kl - 1] == ' ' || p[*kl - 1] == '\t'))
		(*kl)--;
	p = colon + 1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*v = p;
	*vl = (size_t)(end - p);
	return 1;
}

/* Crawl-delay: seconds, fractions allowed; kept when longer, capped. */
static void
crawl_delay(struct bfetch_robots *r, const char *v, size_t vl)
{
	char buf[32], *end;
	double s;

	if (vl == 0 || vl >= sizeof buf)
		return;
	memcpy(buf, v, vl);
	buf[vl] = '\0';
	s = strtod(buf, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == buf || *end != '\0' || !(s >= 0))
		return;
	if (s > BFETCH_CRAWL_DELAY_MAX)
		s = BFETCH_CRAWL_DELAY_MAX;
	if ((long)(s * 1000.0) > r->crawl_delay_ms)
		r->crawl_delay_ms = (long)(s * 1000.0);
}

/*
 * Two passes over the text: the first finds whether any group names the
 * product token (then only those groups count, else the "*" groups); the
 * second collects the rules of the chosen groups.
 */
static void
collect(struct bfetch_robots *r, const char *text, size_t len,
    const char *product, int pass, int *named)
{
	size_t i = 0;
	int in_ua = 0;		/* previous meaningful line was user-agent */
	int applies = 0;	/* the current group applies */

	/* A UTF-8 byte order mark is ignored (RFC 9309 §2.2). */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len) {
		size_t j = i, kl, vl;
		const char *k, *v;

		while (j < len && text[j] != '\n' && text[j] != '\r')
			j++;
		if (split_line(text + i, j - i, &k, &kl, &v, &vl)) {
			if (span_ieq(k, kl, "user-agent")) {
				size_t t = 0;
				int match;

				if (!in_ua)
					applies = 0;
				in_ua = 1;
				while (t < vl && (isalpha((unsigned char)v[t]) ||
				    v[t] == '_' || v[t] == '-'))
					t++;
				if (vl >= 1 && v[0] == '*' &&
				    (vl == 1 || v[1] == ' ' || v[1] == '\t')) {
					match = pass == 1 && !*named;
				} else {
					match = t > 0 && span_ieq(v, t, product);
					if (match && pass == 0)
						*named = 1;
				}
				if (match && pass == 1)
					applies = 1;
			} else if (span_ieq(k, kl, "allow") ||
			    span_ieq(k, kl, "disallow")) {
				in_ua = 0;
				if (pass == 1 && applies && vl > 0)
					add_rule(r, span_ieq(k, kl, "allow"), v, vl);
			} else if (span_ieq(k, kl, "sitemap")) {
				/* not part of any group (§2.3.5): keep grouping */
			} else if (span_ieq(k, kl, "crawl-delay")) {
				/* not in RFC 9309; the longest given for the group */
				in_ua = 0;
				if (pass == 1 && applies)
					crawl_delay(r, v, vl);
			} else {
				in_ua = 0;
			}
		}
		i = j;
		while (i < len && (text[i] == '\n' || text[i] == '\r'))
			i++;
	}
}

struct bfetch_robots *
bfetch_robots_parse(const char *text, size_t len, const char *product)
{
	struct bfetch_robots *r = xcalloc(1, sizeof *r);
	int named = 0;

	r->all = -1;
	r->crawl_delay_ms = -1;
	collect(r, text, len, product, 0, &named);
	collect(r, text, len, product, 1, &named);
	return r;
}

struct bfetch_robots *
bfetch_robots_all(int allow)
{
	struct bfetch_robots *r = xcalloc(1, sizeof *r);

	r->all = allow ? 1 : 0;
	r->crawl_delay_ms = -1;
	return r;
}

long
bfetch_robots_crawl_delay_ms(const struct bfetch_robots *r)
{
	return r ? r->crawl_delay_ms : -1;
}

size_t
bfetch_robots_nrules(const struct bfetch_robots *r)
{
	return r->n;
}

/*
 * Does pattern match a prefix of path?  '*' matches any run of octets, a
 * final '$' anchors at the end.  The set of path positions reachable after
 * each pattern octet is kept (robots.cc Matches()), O(|path| * |pattern|).
 */
static int
pattern_match(const char *path, size_t n, const char *pat, size_t m,
    size_t *pos)
{
	size_t npos = 1, i;

	pos[0] = 0;
	for (i = 0; i < m; i++) {
		char c = pat[i];

		if (c == '$' && i + 1 == m)
			return pos[npos - 1] == n;
		if (c == '*') {
			size_t first = pos[0], k;

			npos = n - first + 1;
			for (k = 0; k < npos; k++)
				pos[k] = first + k;
		} else {
			size_t k, out = 0;

			for (k = 0; k < npos; k++)
				if (pos[k] < n && path[pos[k]] == c)
					pos[out++] = pos[k] + 1;
			if (out == 0)
				return 0;
			npos = out;
		}
	}
	return 1;
}

int
bfetch_robots_allowed(const struct bfetch_robots *r, const char *path,
    const char **rule)
{
	struct buf p = BUF_INIT;
	size_t *pos, i, best_len = 0;
	const struct rule *best = NULL;
	int allowed;

	if (rule)
		*rule = NULL;
	if (strcmp(path, "/robots.txt") == 0)
		return 1;	/* §2.2.2: always allowed */
	if (r->all >= 0)
		return r->all;
	if (*path == '\0')
		path = "/";
	normalise(&p, path, strlen(path));
	pos = xreallocarray(NULL, p.len + 1, sizeof *pos);
	for (i = 0; i < r->n; i++) {
		const struct rule *ru = &r->rules[i];

		if (best && (ru->plen < best_len ||
		    (ru->plen == best_len && best->allow)))
			continue;
		if (pattern_match(p.s, p.len, ru->pattern, ru->plen, pos)) {
			best = ru;
			best_len = ru->plen;
		}
	}
	free(pos);
	buf_release(&p);
	allowed = best == NULL || best->allow;
	if (rule && best)
		*rule = best->text;
	return allowed;
}

void
bfetch_robots_free(struct bfetch_robots *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->rules[i].pattern);
		free(r->rules[i].text);
	}
	free(r->rules);
	free(r);
}
