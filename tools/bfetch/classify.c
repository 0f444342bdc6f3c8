/*
 * classify.c - what a finished HTTP response is, in the fetch_status terms
 * of spec 001 §2.1 and §2.5: SUCCESS (2xx with a body), HTTP_ERROR,
 * WAF_BLOCKED (403/429/503 carrying a bot-protection signature) and JS_ONLY
 * (an HTML page with almost no visible text, or an application shell).
 * Transport failures (TIMEOUT, DNS_FAILURE ...) are mapped from libcurl's
 * result codes in engine.c.
 *
 * The WAF signatures are those the wafw00f project (EnableSecurity/wafw00f,
 * wafw00f/plugins/) uses for the same vendors, narrowed to block and
 * challenge responses.
 */
#include <ctype.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include "ctx.h"
#include "http.h"
#include "bfetch.h"

const char *const bfetch_status_names[BF_NSTATUS] = {
	"SUCCESS", "HTTP_ERROR", "TIMEOUT", "DNS_FAILURE", "WAF_BLOCKED",
	"JS_ONLY"
};

char *
bfetch_header(const char *h, size_t len, const char *name)
{
	return http_header(h, len, name);
}

/* Case-insensitive search of needle in the first len bytes of hay. */
static int has(const char *hay, size_t len, const char *needle);

/*
 * The value of the first header line called name whose value contains sub
 * (any value when sub is NULL); malloc'd, or NULL.  A response may repeat a
 * header (two Server lines behind a proxy), so every line is looked at.
 */
static char *
header_match(const char *h, size_t len, const char *name, const char *sub)
{
	size_t nl = strlen(name), i = 0;

	while (i < len) {
		const char *line = h + i, *eol = memchr(line, '\n', len - i);
		size_t ll = eol ? (size_t)(eol - line) : len - i;

		if (ll > nl && memcmp(line, name, nl) == 0 && line[nl] == ':') {
			const char *v = line + nl + 1;
			size_t vl = ll - nl - 1;

			while (vl > 0 && (*v == ' ' || *v == '\t')) {
				v++;
				vl--;
			}
			if (sub == NULL || has(v, vl, sub))
				return xstrndup(v, vl);
		}
		i += ll + 1;
	}
	return NULL;
}

static int
has(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (hay == NULL || n == 0 || n > len)
		return 0;
	for (i = 0; i + n <= len; i++)
		if (tolower((unsigned char)hay[i]) == tolower((unsigned char)*needle) &&
		    strncasecmp(hay + i, needle, n) == 0)
			return 1;
	return 0;
}

int
bfetch_is_html(const char *ct, const char *body, size_t len)
{
	size_t i = 0;

	if (ct && (has(ct, strlen(ct), "text/html") ||
	    has(ct, strlen(ct), "application/xhtml+xml")))
		return 1;
	if (len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && isspace((unsigned char)body[i]))
		i++;
	/* WHATWG MIME sniffing: the tags that mark an HTML document. */
	return (len - i >= 14 && strncasecmp(body + i, "<!doctype html", 14) == 0) ||
	    (len - i >= 5 && strncasecmp(body + i, "<html", 5) == 0 &&
	    (len - i == 5 || body[i + 5] == '>' || isspace((unsigned char)body[i + 5])));
}

/*
 * 1 when the body opens like an HTML document: the first tag is one of the
 * WHATWG MIME Sniffing standard's HTML patterns (§7.1: <!DOCTYPE HTML,
 * <HTML, <HEAD, <SCRIPT, ... followed by a space or '>'), after a BOM and
 * white space.
 */
static int
html_document(const char *body, size_t len)
{
	static const char *const tags[] = {
		"<!doctype html", "<html", "<head", "<script", "<iframe", "<h1",
		"<div", "<font", "<table", "<a", "<style", "<title", "<b",
		"<body", "<br", "<p", "<!--", NULL
	};
	size_t i = 0, k, n;

	if (len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && isspace((unsigned char)body[i]))
		i++;
	for (k = 0; tags[k]; k++) {
		n = strlen(tags[k]);
		if (len - i > n && strncasecmp(body + i, tags[k], n) == 0 &&
		    (body[i + n] == '>' || body[i + n] == ' '))
			return 1;
	}
	return 0;
}

/*
 * 1 when some line has Markdown block structure: an ATX heading, a list
 * item, a block quote, a fence, or an inline link.
 */
static int
markdown_structure(const char *body, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *l = body + i, *nl = memchr(l, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - l) : len - i, h = 0;

		while (h < ll && h < 6 && l[h] == '#')
			h++;
		if ((h > 0 && h < ll && l[h] == ' ') ||
		    (ll >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+' ||
		    l[0] == '>') && l[1] == ' ') ||
		    (ll >= 3 && (memcmp(l, "```", 3) == 0 ||
		    memcmp(l, "~~~", 3) == 0)))
			return 1;
		for (h = 0; h + 2 < ll; h++)
			if (l[h] == ']' && l[h + 1] == '(')
				return 1;
		i += ll + 1;
	}
	return 0;
}

/*
 * A body at a Markdown or llms.txt URL that is an HTML page: by its own
 * structure first; the Content-Type decides only for a body with neither
 * HTML document structure nor Markdown structure (a fragment).
 */
static int
html_at_markdown_url(const char *ct, const char *body, size_t len)
{
	if (html_document(body, len))
		return 1;
	if (!bfetch_is_html(ct, "", 0))
		return 0;
	return !markdown_structure(body, len);
}

/*
 * The visible-text count runs on libxml2's HTML parser in SAX mode: no tree
 * is built, the callbacks count characters outside the skipped elements and
 * watch the mount elements of single-page applications.
 */
struct walk {
	size_t chars;
	int pending_space;
	int scripts;
	int shell;
	int depth;
	int skip_depth;		/* depth of the skipped element we are in, or -1 */
	int mount_depth;	/* depth of the open mount element, or -1 */
	int mount_used;		/* it has content */
};

static int
skipped(const xmlChar *name)
{
	static const char *const names[] = {
		"script", "style", "noscript", "template", "head", "title",
		NULL
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (xmlStrcasecmp(name, (const xmlChar *)names[i]) == 0)
			return 1;
	return 0;
}

static int
mount_point(const xmlChar **atts)
{
	static const char *const ids[] = {
		"root", "app", "__next", "__nuxt", "___gatsby", "svelte",
		"q-app", NULL
	};
	size_t i, k;

	for (i = 0; atts && atts[i]; i += 2) {
		if (xmlStrcasecmp(atts[i], (const xmlChar *)"id") != 0 ||
		    atts[i + 1] == NULL)
			continue;
		for (k = 0; ids[k]; k++)
			if (xmlStrcmp(atts[i + 1], (const xmlChar *)ids[k]) == 0)
				return 1;
	}
	return 0;
}

static void
on_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
	struct walk *w = ctx;

	w->depth++;
	if (xmlStrcasecmp(name, (const xmlChar *)"script") == 0)
		w->scripts++;
	if (w->skip_depth >= 0)
		return;
	if (skipped(name)) {
		w->skip_depth = w->depth;
		return;
	}
	if (w->mount_depth >= 0)
		w->mount_used = 1;
	else if (mount_point(atts)) {
		w->mount_depth = w->depth;
		w->mount_used = 0;
	}
}

static void
on_end(void *ctx, const xmlChar *name)
{
	struct walk *w = ctx;

	(void)name;
	if (w->skip_depth == w->depth)
		w->skip_depth = -1;
	if (w->mount_depth == w->depth) {
		if (!w->mount_used)
			w->shell = 1;
		w->mount_depth = -1;
	}
	w->depth--;
}

static void
on_text(void *ctx, const xmlChar *s, int len)
{
	struct walk *w = ctx;
	int i;

	if (w->skip_depth >= 0)
		return;
	for (i = 0; i < len; i++) {
		if (isspace(s[i])) {
			w->pending_space = 1;
			continue;
		}
		if (w->mount_depth >= 0)
			w->mount_used = 1;
		if ((s[i] & 0xC0) == 0x80)
			continue;	/* UTF-8 continuation byte */
		if (w->pending_space && w->chars > 0)
			w->chars++;
		w->pending_space = 0;
		w->chars++;
	}
}

size_t
bfetch_visible_chars(const char *html, size_t len, int *shell)
{
	htmlParserCtxtPtr ctxt;
	htmlSAXHandler sax;
	struct walk w;

	*shell = 0;
	if (len > (size_t)0x7fffffff)
		len = 0x7fffffff;
	if (len == 0)
		return 0;
	memset(&w, 0, sizeof w);
	w.skip_depth = w.mount_depth = -1;
	memset(&sax, 0, sizeof sax);
	sax.startElement = on_start;
	sax.endElement = on_end;
	sax.characters = on_text;
	sax.cdataBlock = on_text;
	/* UTF-8 unless the document says otherwise, as bread reads it */
	ctxt = htmlCreatePushParserCtxt(&sax, &w, NULL, 0, NULL,
	    XML_CHAR_ENCODING_UTF8);
	if (ctxt == NULL)	/* no count is no verdict on the page */
		die("out of memory creating an HTML parser");
	htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
	    HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	htmlParseChunk(ctxt, html, (int)len, 1);
	htmlFreeParserCtxt(ctxt);
	*shell = w.shell && w.scripts > 0;
	return w.chars;
}

/*
 * A lower bound on bfetch_visible_chars without parsing: non-space
 * characters outside tags, comments and the elements it skips (and a few
 * more raw-text elements), an entity counted once, scanning only until
 * enough are seen.  Anything unusual (an unclosed comment, tag or skipped
 * element) ends the scan with what was counted, so the bound stays low.
 */
static size_t
visible_lower_bound(const char *s, size_t len, size_t enough)
{
	static const char *const raw[] = {
		"script", "style", "noscript", "template", "head", "title",
		"textarea", "xmp", "iframe", "noembed", "noframes", "svg",
		"math", NULL
	};
	size_t i = 0, n = 0, j, k, nl;
	int depth;

	while (i < len && n < enough) {
		unsigned char c = (unsigned char)s[i];

		if (c == '<' && i + 3 < len && memcmp(s + i, "<!--", 4) == 0) {
			for (j = i + 4; j + 2 < len && (s[j] != '-' ||
			    s[j + 1] != '-' || s[j + 2] != '>'); j++)
				;
			if (j + 2 >= len)
				return n;
			i = j + 3;
			continue;
		}
		if (c == '<' && i + 1 < len && (isalpha((unsigned char)s[i + 1]) ||
		    s[i + 1] == '/' || s[i + 1] == '!' || s[i + 1] == '?')) {
			char q = 0;

			j = i + 1 + (s[i + 1] == '/');
			for (k = j; k < len && isalnum((unsigned char)s[k]); k++)
				;
			nl = k - j;
			for (; k < len && (q || s[k] != '>'); k++)
				if (q && s[k] == q)
					q = 0;
				else if (!q && (s[k] == '"' || s[k] == '\''))
					q = s[k];
			if (k >= len)
				return n;
			i = k + 1;
			if (s[j - 1] == '/' || nl == 0)
				continue;
			for (k = 0; raw[k]; k++)
				if (strlen(raw[k]) == nl &&
				    strncasecmp(s + j, raw[k], nl) == 0)
					break;
			if (raw[k] == NULL)
				continue;
			/* to the element's end tag, nested ones counted */
			for (depth = 1; depth > 0 && i + nl + 2 <= len; i++)
				if (s[i] == '<' && s[i + 1] == '/' &&
				    strncasecmp(s + i + 2, raw[k], nl) == 0)
					depth--;
				else if (s[i] == '<' &&
				    strncasecmp(s + i + 1, raw[k], nl) == 0 &&
				    !isalnum((unsigned char)s[i + 1 + nl]))
					depth++;
			if (depth > 0)
				return n;
			continue;
		}
		if (!isspace(c) && (c & 0xC0) != 0x80)
			n++;
		if (c == '&') {	/* an entity is one character */
			for (j = i + 1; j < len && j - i < 12 &&
			    (isalnum((unsigned char)s[j]) || s[j] == '#'); j++)
				;
			if (j < len && s[j] == ';')
				i = j;
		}
		i++;
	}
	return n;
}

struct sig {
	const char *vendor;
	const char *header;	/* header that must be present, or NULL */
	const char *hvalue;	/* substring of its value, or NULL (any) */
	const char *body;	/* body substring, or NULL */
};

/*
 * A response matches a signature when every given part matches.  Ordered
 * from the most specific (a header the vendor sets only when it blocks or
 * challenges) to the generic CAPTCHA markers.
 */
static const struct sig sigs[] = {
	{ "Cloudflare challenge", "cf-mitigated", NULL, NULL },
	{ "Cloudflare challenge", "cf-ray", NULL, "challenge-platform" },
	{ "Cloudflare challenge", "cf-ray", NULL, "cf_chl_" },
	{ "Cloudflare challenge", NULL, NULL, "<title>Just a moment...</title>" },
	{ "Cloudflare block", NULL, NULL, "Attention Required! | Cloudflare" },
	{ "Cloudflare block", "cf-ray", NULL, "cf-error-details" },
	{ "Cloudflare block", "server", "cloudflare", "Cloudflare Ray ID" },
	{ "Vercel challenge", "x-vercel-mitigated", NULL, NULL },
	{ "AWS WAF", "x-amzn-waf-action", NULL, NULL },
	{ "AWS WAF", NULL, NULL, "aws-waf-token" },
	{ "AWS WAF", NULL, NULL, "AwsWafIntegration" },
	{ "CloudFront block", "x-cache", "error from cloudfront",
	    "Request blocked" },
	{ "CloudFront block", "x-amz-cf-id", NULL, "Generated by cloudfront" },
	{ "Akamai block", "server", "akamaighost", NULL },
	{ "Akamai block", NULL, NULL, "errors.edgesuite.net" },
	{ "Akamai block", "akamai-grn", NULL, NULL },
	{ "Imperva Incapsula block", "x-iinfo", NULL, NULL },
	{ "Imperva Incapsula block", NULL, NULL, "_Incapsula_Resource" },
	{ "Sucuri firewall", "x-sucuri-id", NULL, NULL },
	{ "Sucuri firewall", NULL, NULL, "Sucuri WebSite Firewall" },
	{ "DataDome", "x-datadome", NULL, NULL },
	{ "DataDome", NULL, NULL, "captcha-delivery.com" },
	{ "PerimeterX", NULL, NULL, "px-captcha" },
	{ "CAPTCHA challenge", NULL, NULL, "g-recaptcha" },
	{ "CAPTCHA challenge", NULL, NULL, "h-captcha" },
	{ "CAPTCHA challenge", NULL, NULL, "cf-turnstile" },
	{ NULL, NULL, NULL, NULL }
};

char *
bfetch_waf_signature(long status, const char *h, size_t hlen,
    const char *body, size_t blen)
{
	const struct sig *s;

	if (status != 403 && status != 429 && status != 503)
		return NULL;
	for (s = sigs; s->vendor; s++) {
		char *v = NULL;
		char *r;

		if (s->header) {
			v = header_match(h, hlen, s->header, s->hvalue);
			if (v == NULL)
				continue;
		}
		if (s->body && !has(body, blen, s->body)) {
			free(v);
			continue;
		}
		if (s->header && s->body)
			r = xasprintf("%s (%s header, body contains \"%s\")",
			    s->vendor, s->header, s->body);
		else if (s->header)
			r = xasprintf("%s (%s: %.80s)", s->vendor, s->header, v);
		else
			r = xasprintf("%s (body contains \"%s\")", s->vendor, s->body);
		free(v);
		return r;
	}
	return NULL;
}

static const char *
reason_phrase(long s)
{
	switch (s) {
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 410: return "Gone";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return NULL;
	}
}

struct bfetch_verdict
bfetch_classify_response(enum bfetch_kind kind, long status, const char *ct,
    const char *h, size_t hlen, const char *body, size_t blen, size_t min_text)
{
	struct bfetch_verdict v = { BF_SUCCESS, NULL, 0 };

	if (status >= 200 && status <= 299) {
		if (blen == 0) {
			v.status = BF_HTTP_ERROR;
			v.reason = xasprintf("HTTP %ld with an empty body", status);
		} else if (kind != BK_HTML && html_at_markdown_url(ct, body, blen)) {
			v.status = BF_HTTP_ERROR;
			v.reason = xasprintf("markdown URL answered with an HTML "
			    "page (Content-Type: %s): not stored as %s",
			    ct ? ct : "none",
			    kind == BK_MARKDOWN ? "Markdown" : "an llms.txt file");
		} else if (kind == BK_HTML && bfetch_is_html(ct, body, blen)) {
			int shell;
			size_t n, need = 2 * (min_text > 512 ? min_text : 512);

			/* most pages: plainly enough text, no parse needed */
			if (visible_lower_bound(body, blen, need) >= need)
				n = need, shell = 0;
			else
				n = bfetch_visible_chars(body, blen, &shell);
			v.store = 1;
			if (n < min_text) {
				v.status = BF_JS_ONLY;
				v.reason = xasprintf("%zu characters of visible text "
				    "(under %zu) after removing script, style, "
				    "noscript and template", n, min_text);
			} else if (shell && n < 512) {
				v.status = BF_JS_ONLY;
				v.reason = xasprintf("application shell: empty mount "
				    "element with scripts, %zu characters of "
				    "visible text", n);
			}
		} else {
			v.store = 1;
		}
		return v;
	}
	{
		char *waf = bfetch_waf_signature(status, h, hlen, body, blen);
		char *ra = bfetch_header(h, hlen, "retry-after");
		const char *phrase = reason_phrase(status);
		struct buf b = BUF_INIT;

		buf_addf(&b, "HTTP %ld", status);
		if (phrase)
			buf_addf(&b, " %s", phrase);
		if (waf) {
			v.status = BF_WAF_BLOCKED;
			buf_addf(&b, ": %s", waf);
		} else {
			v.status = BF_HTTP_ERROR;
		}
		if (ra)
			buf_addf(&b, "; Retry-After: %.60s", ra);
		v.reason = buf_detach(&b, NULL);
		free(waf);
		free(ra);
	}
	return v;
}
