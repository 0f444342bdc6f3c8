/*
 * llms.c - the lenient llms.txt parser, the structure's helpers and URL
 * resolution (see llms.h).
 *
 * The lenient parser reads the file line by line after normalising it
 * (BOM, invalid UTF-8, CR/CRLF line ends) and follows the llmstxt.org
 * format: an H1 title, an optional blockquote summary, free info text, then
 * H2 sections whose list items are `[title](url): description` links.
 * Whatever does not fit is kept out of the structure and reported as a
 * diagnostic with its line, so a corpus can be checked against the
 * methodology's inclusion criteria (spec 001 §1.1-1.2) without failing on
 * the first odd file.
 */
#include <stdarg.h>
#include <string.h>
#include <curl/curl.h>

#include "ctx.h"
#include "mdcode.h"
#include "words.h"
#include "llms.h"
#include "text.h"

struct bmd_str
bmd_str_dup(const char *s, size_t n)
{
	struct bmd_str r;

	r.s = xmalloc(n + 1);
	memcpy(r.s, s, n);
	r.s[n] = '\0';
	r.len = n;
	return r;
}

struct bmd_section *
bmd_llms_add_section(struct bmd_llms *l, const char *name, size_t len,
    unsigned long line)
{
	struct bmd_section *sec;

	if (l->nsecs == l->capsecs) {
		l->capsecs = l->capsecs ? l->capsecs * 2 : 8;
		l->secs = xreallocarray(l->secs, l->capsecs, sizeof *l->secs);
	}
	sec = &l->secs[l->nsecs++];
	memset(sec, 0, sizeof *sec);
	sec->name = bmd_str_dup(name, len);
	sec->line = line;
	return sec;
}

struct bmd_link *
bmd_section_add_link(struct bmd_section *sec)
{
	struct bmd_link *lk;

	if (sec->nlinks == sec->caplinks) {
		sec->caplinks = sec->caplinks ? sec->caplinks * 2 : 8;
		sec->links = xreallocarray(sec->links, sec->caplinks,
		    sizeof *sec->links);
	}
	lk = &sec->links[sec->nlinks++];
	memset(lk, 0, sizeof *lk);
	return lk;
}

void
bmd_llms_diag(struct bmd_llms *l, const char *code, unsigned long line,
    const char *fmt, ...)
{
	struct bmd_diag *d;
	struct buf b = BUF_INIT;
	va_list ap;
	char tmp[512];
	int r;

	if (l->ndiags == l->capdiags) {
		l->capdiags = l->capdiags ? l->capdiags * 2 : 8;
		l->diags = xreallocarray(l->diags, l->capdiags, sizeof *l->diags);
	}
	va_start(ap, fmt);
	r = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_adds(&b, r < 0 ? "" : tmp);
	d = &l->diags[l->ndiags++];
	d->code = code;
	d->line = line;
	d->seq = l->ndiags - 1;
	d->message = buf_detach(&b, NULL);
}

void
bmd_llms_free(struct bmd_llms *l)
{
	size_t i, j;

	if (!l)
		return;
	free(l->title.s);
	free(l->summary.s);
	free(l->info.s);
	for (i = 0; i < l->nsecs; i++) {
		struct bmd_section *sec = &l->secs[i];

		for (j = 0; j < sec->nlinks; j++) {
			free(sec->links[j].title.s);
			free(sec->links[j].url.s);
			free(sec->links[j].desc.s);
			free(sec->links[j].abs_url);
		}
		free(sec->links);
		free(sec->name.s);
	}
	free(l->secs);
	for (i = 0; i < l->ndiags; i++)
		free(l->diags[i].message);
	free(l->diags);
	free(l);
}

size_t
bmd_llms_link_count(const struct bmd_llms *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nsecs; i++)
		n += l->secs[i].nlinks;
	return n;
}

/* ---------------------------------------------------------------- URLs */

static int
has_scheme(const char *u)
{
	size_t i = 0;

	if (!((u[0] >= 'a' && u[0] <= 'z') || (u[0] >= 'A' && u[0] <= 'Z')))
		return 0;
	for (i = 1; u[i]; i++) {
		char c = u[i];

		if (c == ':')
			return 1;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
			return 0;
	}
	return 0;
}

static int
http_scheme(const char *u)
{
	return strncasecmp(u, "http://", 7) == 0 ||
	    strncasecmp(u, "https://", 8) == 0;
}

int
bmd_url_valid(const char *url)
{
	CURLU *h;
	int ok;

	if (!http_scheme(url) || strpbrk(url, " \t\r\n\"<>\\^`{|}") != NULL)
		return 0;
	h = curl_url();
	if (!h)
		die("out of memory");
	ok = curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK;
	curl_url_cleanup(h);
	return ok;
}

char *
bmd_url_resolve(const char *base, const char *url, int *relative)
{
	CURLU *h;
	char *out = NULL, *res = NULL;

	*relative = !has_scheme(url);
	if (!*relative)
		return bmd_url_valid(url) ? xstrdup(url) : NULL;
	if (!base || !bmd_url_valid(base) ||
	    strpbrk(url, " \t\r\n\"<>\\^`{|}") != NULL)
		return NULL;
	h = curl_url();
	if (!h)
		die("out of memory");
	if (curl_url_set(h, CURLUPART_URL, base, 0) == CURLUE_OK &&
	    curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_URL, &out, 0) == CURLUE_OK) {
		res = xstrdup(out);
		curl_free(out);
	}
	curl_url_cleanup(h);
	return res;
}

void
bmd_llms_resolve(struct bmd_llms *l, const char *base)
{
	size_t i, j;
	int rel;

	for (i = 0; i < l->nsecs; i++)
		for (j = 0; j < l->secs[i].nlinks; j++) {
			struct bmd_link *lk = &l->secs[i].links[j];

			free(lk->abs_url);
			lk->abs_url = NULL;
			if (lk->url.len == 0 || memchr(lk->url.s, '\0',
			    lk->url.len)) {
				bmd_llms_diag(l, "empty_url", lk->line,
				    "link \"%.80s\" has no URL", lk->title.s);
				continue;
			}
			lk->abs_url = bmd_url_resolve(base, lk->url.s, &rel);
			if (rel && lk->abs_url)
				bmd_llms_diag(l, "relative_url", lk->line,
				    "relative URL \"%.200s\" resolved to %.200s",
				    lk->url.s, lk->abs_url);
			else if (rel && !base)
				bmd_llms_diag(l, "relative_url", lk->line,
				    "relative URL \"%.200s\" left unresolved "
				    "(no base URL)", lk->url.s);
			else if (!lk->abs_url)
				bmd_llms_diag(l, "invalid_url", lk->line,
				    "invalid URL \"%.200s\"", lk->url.s);
		}
}

/* ------------------------------------------------------- lenient parse */

struct lp {
	struct bmd_llms *l;
	struct bmd_section *sec;	/* current section, or NULL */
	struct bmd_link *last;		/* link open for continuation lines */
	struct buf info;
	int state;			/* PRE, HEAD, SECT */
	int seen_summary, seen_info_text;
	unsigned long infodiag_line;
	unsigned long prose_line;	/* last prose line seen in a section */
	struct wordset names;		/* distinct section names */
	size_t *first;			/* per name: its first section */
	size_t capfirst;
	size_t flen;			/* open code fence's length, or 0 */
	char fch;			/* its character */
	unsigned long fence_line;	/* where it opened */
	unsigned long before_h1;	/* first content line before the H1 */
};

enum { PRE, HEAD, SECT };

static int
is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* ATX heading of exactly level lv: returns 1 with the text in [*tb,*te). */
static int
atx(const char *s, size_t n, int lv, size_t *tb, size_t *te)
{
	size_t i = 0, h = 0, b, e;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	while (i + h < n && s[i + h] == '#')
		h++;
	if ((int)h != lv)
		return 0;
	i += h;
	if (i < n && s[i] != ' ' && s[i] != '\t')
		return 0;
	b = i;
	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	e = n;
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	/* closing sequence: #s preceded by a space (or the whole text) */
	{
		size_t c = e;

		while (c > b && s[c - 1] == '#')
			c--;
		if (c < e && (c == b || s[c - 1] == ' ' || s[c - 1] == '\t')) {
			e = c;
			while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
				e--;
		}
	}
	*tb = b;
	*te = e;
	return 1;
}

static int
heading_level(const char *s, size_t n)
{
	size_t i = 0, h = 0;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	while (i + h < n && s[i + h] == '#')
		h++;
	if (h == 0 || h > 6)
		return 0;
	if (i + h < n && s[i + h] != ' ' && s[i + h] != '\t')
		return 0;
	return (int)h;
}

/* Match a bracketed run starting at s[i] == open; returns index of close. */
static size_t
balanced(const char *s, size_t n, size_t i, char open, char close)
{
	int depth = 0;

	for (; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (s[i] == open)
			depth++;
		else if (s[i] == close && --depth == 0)
			return i;
	}
	return n;
}

static void
trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && (s[*b] == ' ' || s[*b] == '\t'))
		(*b)++;
	while (*e > *b && (s[*e - 1] == ' ' || s[*e - 1] == '\t'))
		(*e)--;
}

/*
 * The destination inside a link's parentheses, s[*b..*e) already trimmed:
 * <url> loses its brackets, url "title" (or 'title', (title)) its title.
 */
static void
destination(const char *s, size_t *b, size_t *e)
{
	const char *gt;
	size_t k, q;

	if (*b < *e && s[*b] == '<') {
		if ((gt = memchr(s + *b, '>', *e - *b)) != NULL) {
			*e = (size_t)(gt - s);
			(*b)++;
		}
		return;
	}
	for (k = *b; k < *e; k++) {
		if (s[k] != ' ' && s[k] != '\t')
			continue;
		for (q = k; q < *e && (s[q] == ' ' || s[q] == '\t'); q++)
			;
		if (q < *e && (s[q] == '"' || s[q] == '\'' || s[q] == '(')) {
			*e = k;
			return;
		}
	}
}

/*
 * A Markdown link at s[i]: [title](url "optional title") with nested
 * brackets and parentheses.  Fills lk and returns the index after ')'.
 */
static size_t
md_link(const char *s, size_t n, size_t i, struct bmd_link *lk)
{
	size_t tclose, uclose, ub, ue, tb = i + 1, te;

	if (i >= n || s[i] != '[')
		return 0;
	tclose = balanced(s, n, i, '[', ']');
	if (tclose >= n || tclose + 1 >= n || s[tclose + 1] != '(')
		return 0;
	uclose = balanced(s, n, tclose + 1, '(', ')');
	if (uclose >= n)
		return 0;
	ub = tclose + 2;
	ue = uclose;
	trim(s, &ub, &ue);
	destination(s, &ub, &ue);
	te = tclose;
	trim(s, &tb, &te);
	lk->title = bmd_str_dup(s + tb, te - tb);
	lk->url = bmd_str_dup(s + ub, ue - ub);
	return uclose + 1;
}

static void
add_desc(struct bmd_link *lk, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (!lk->desc.s) {
		lk->desc = bmd_str_dup(s, n);
		return;
	}
	lk->desc.s = xrealloc(lk->desc.s, lk->desc.len + n + 2);
	lk->desc.s[lk->desc.len++] = ' ';
	memcpy(lk->desc.s + lk->desc.len, s, n);
	lk->desc.len += n;
	lk->desc.s[lk->desc.len] = '\0';
}

/* A list item line in a section; returns 1 when it was a link. */
static int
section_item(struct lp *p, const char *s, size_t n, unsigned long line)
{
	size_t i = 0, e, b;
	struct bmd_link lk;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || (s[i] != '-' && s[i] != '*' && s[i] != '+'))
		return 0;
	if (i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '\t' && s[i + 1] != '[')
		return 0;
	i = i + 1;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	/* tolerate emphasis around the link: **[t](u)** */
	b = i;
	while (b < n && (s[b] == '*' || s[b] == '_'))
		b++;
	memset(&lk, 0, sizeof lk);
	e = md_link(s, n, b, &lk);
	if (e == 0) {
		bmd_llms_diag(p->l, "content_outside_structure", line,
		    "list item without a link in section \"%.80s\"",
		    p->sec->name.s);
		p->last = NULL;
		return 1;
	}
	while (e < n && (s[e] == '*' || s[e] == '_'))
		e++;
	b = e;
	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (b < n && s[b] == ':')
		b++;
	else if (b + 1 < n && s[b] == '-' && (s[b + 1] == ' ' || s[b + 1] == '\t'))
		b++;
	else if (n - b >= 3 && (memcmp(s + b, "\xe2\x80\x94", 3) == 0 ||
	    memcmp(s + b, "\xe2\x80\x93", 3) == 0))
		b += 3;
	e = n;
	trim(s, &b, &e);
	lk.line = line;
	if (e > b)
		lk.desc = bmd_str_dup(s + b, e - b);
	*bmd_section_add_link(p->sec) = lk;
	p->last = &p->sec->links[p->sec->nlinks - 1];
	return 1;
}

/* An H2 heading: a new section (a repeated name is reported, in O(1)). */
static void
new_section(struct lp *p, const char *name, size_t len, unsigned long line)
{
	struct bmd_llms *l = p->l;
	size_t i = wordset_find(&p->names, name, len);

	if (i > 0) {
		const struct bmd_section *f = &l->secs[p->first[i - 1]];

		bmd_llms_diag(l, "repeated_section", line, "section \"%.80s\" "
		    "appears again (first at line %lu)", f->name.s, f->line);
	} else {
		wordset_add(&p->names, name, len);
		if (p->capfirst < p->names.n) {
			p->capfirst = p->names.cap;
			p->first = xreallocarray(p->first, p->capfirst,
			    sizeof *p->first);
		}
		p->first[p->names.n - 1] = l->nsecs;
	}
	p->sec = bmd_llms_add_section(l, name, len, line);
	p->sec->optional = len == 8 && strncasecmp(name, "optional", 8) == 0;
	p->state = SECT;
	p->last = NULL;
}

static void
info_line(struct lp *p, const char *s, size_t n)
{
	if (p->info.len > 0 || !is_blank(s, n)) {
		buf_add(&p->info, s, n);
		buf_addc(&p->info, '\n');
	}
}

static int
is_binary(const char *s, size_t n)
{
	size_t i, lim = n < 8192 ? n : 8192, ctl = 0;

	for (i = 0; i < lim; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f')
			ctl++;
	}
	return lim > 0 && ctl * 10 > lim;
}

/* The line of the byte at off: 1 + the line feeds before it. */
static unsigned long
line_at(const char *s, size_t off)
{
	unsigned long line = 1;
	const char *p = s, *end = s + off;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		line++;
		p++;
	}
	return line;
}

/*
 * Normalise (text.h) with NUL bytes as U+FFFD, reporting invalid UTF-8 and
 * NUL bytes at their first line; malloc'd result.
 */
static char *
normalise(struct bmd_llms *l, const char *txt, size_t n, size_t *outlen)
{
	const char *nul;
	size_t bad;

	if (!utf8_valid(txt, n, &bad))
		bmd_llms_diag(l, "invalid_utf8", line_at(txt, bad), "invalid "
		    "UTF-8 at byte %zu, replaced by U+FFFD", bad);
	/* repairing the UTF-8 keeps every ASCII byte: lines stay the same */
	if ((nul = memchr(txt, '\0', n)) != NULL)
		bmd_llms_diag(l, "nul_byte", line_at(txt, (size_t)(nul - txt)),
		    "NUL bytes in the file, replaced by U+FFFD");
	return bmd_text_normalise(txt, n, "\xef\xbf\xbd", 3, outlen);
}

/* Last line of a leading YAML front matter (--- ... --- or ...), or 0. */
static unsigned long
front_matter_end(struct bmd_llms *l, const char *t, size_t len)
{
	unsigned long ln;

	if (bmd_front_matter(t, len, &ln) == 0)
		return 0;
	bmd_llms_diag(l, "front_matter", 1, "YAML front matter (lines 1-%lu) "
	    "ignored", ln);
	return ln;
}

/*
 * A line inside a fenced code block, or one that opens it: never
 * structure.  Returns 1 when the line was taken.
 */
static int
fence_step(struct lp *p, const char *s, size_t n, unsigned long line)
{
	char c2;
	size_t k;

	if (p->flen) {
		k = md_fence(s, n, &c2);
		if (k >= p->flen && c2 == p->fch && md_fence_closes(s, n, k))
			p->flen = 0;
		if (p->state == HEAD)
			info_line(p, s, n);
		return 1;
	}
	if ((p->flen = md_fence_open(s, n, &p->fch)) == 0)
		return 0;
	p->fence_line = line;
	if (p->state == SECT) {
		bmd_llms_diag(p->l, "content_outside_structure", line,
		    "code block in section \"%.80s\"", p->sec->name.s);
		p->last = NULL;
	} else if (p->state == PRE && !p->before_h1) {
		p->before_h1 = line;
	} else if (p->state == HEAD) {
		p->seen_info_text = 1;
		info_line(p, s, n);
	}
	return 1;
}

/* An H1 heading: the title, or a repeated one. */
static void
h1_line(struct lp *p, const char *s, size_t n, size_t tb, size_t te,
    unsigned long line)
{
	struct bmd_llms *l = p->l;

	if (!l->title.s) {
		l->title = bmd_str_dup(s + tb, te - tb);
		p->state = HEAD;
		if (te == tb)
			bmd_llms_diag(l, "missing_h1", line, "the H1 title is empty");
		return;
	}
	bmd_llms_diag(l, "repeated_h1", line, "another H1 \"%.*s\"; the title "
	    "is the first one", (int)(te - tb > 80 ? 80 : te - tb), s + tb);
	if (p->state == HEAD)
		info_line(p, s, n);
	p->last = NULL;
}

/* A line between the H1 and the first H2: summary or info. */
static void
head_line(struct lp *p, const char *s, size_t n, int lvl, unsigned long line)
{
	struct bmd_llms *l = p->l;

	if (is_blank(s, n)) {
		info_line(p, s, n);
		return;
	}
	if (!p->seen_summary && !p->seen_info_text && s[0] == '>') {
		size_t b = 1, e = n;

		trim(s, &b, &e);
		l->summary = bmd_str_dup(s + b, e - b);
		p->seen_summary = 1;
		return;
	}
	if (p->seen_summary && !p->seen_info_text && s[0] == '>' &&
	    p->info.len == 0)
		bmd_llms_diag(l, "multiline_summary", line, "blockquote "
		    "continues after the summary line; kept in info");
	if (lvl >= 3)
		bmd_llms_diag(l, "heading_in_info", line,
		    "heading in the info text before the first H2");
	p->seen_info_text = 1;
	info_line(p, s, n);
}

/* A line of an H2 section: a link, a description's continuation, or prose. */
static void
sect_line(struct lp *p, const char *s, size_t n, int lvl, unsigned long line)
{
	if (is_blank(s, n) || lvl >= 3) {	/* H3+: content of the H2 */
		p->last = NULL;
		return;
	}
	if (section_item(p, s, n, line))
		return;
	if (p->last && (s[0] == ' ' || s[0] == '\t')) {
		size_t b = 0, e = n;

		trim(s, &b, &e);
		add_desc(p->last, s + b, e - b);
		return;
	}
	/* one diagnostic per paragraph of prose */
	if (p->prose_line + 1 != line)
		bmd_llms_diag(p->l, "content_outside_structure", line, "text in "
		    "section \"%.80s\" is not a link list item", p->sec->name.s);
	p->prose_line = line;
	p->last = NULL;
}

static void
parse_line(struct lp *p, const char *s, size_t n, unsigned long line)
{
	size_t tb, te;
	int lvl;

	if (fence_step(p, s, n, line))
		return;
	lvl = heading_level(s, n);
	if (lvl == 1 && atx(s, n, 1, &tb, &te))
		h1_line(p, s, n, tb, te, line);
	else if (lvl == 2 && atx(s, n, 2, &tb, &te))
		new_section(p, s + tb, te - tb, line);
	else if (p->state == PRE) {
		if (!is_blank(s, n) && !p->before_h1)
			p->before_h1 = line;
	} else if (p->state == HEAD)
		head_line(p, s, n, lvl, line);
	else
		sect_line(p, s, n, lvl, line);
}

/* The diagnostics of the whole file, and the info text. */
static void
parse_finish(struct lp *p)
{
	struct bmd_llms *l = p->l;
	size_t i, j;

	if (p->flen)
		bmd_llms_diag(l, "unclosed_code_fence", p->fence_line,
		    "code fence opened here is never closed");
	if (p->before_h1 && l->title.s)
		bmd_llms_diag(l, "content_before_h1", p->before_h1,
		    "content before the H1 title");
	if (!l->title.s)
		bmd_llms_diag(l, "missing_h1", p->before_h1, "no H1 title");
	/* info: trailing blank lines dropped */
	while (p->info.len > 0 && (p->info.s[p->info.len - 1] == '\n' ||
	    p->info.s[p->info.len - 1] == ' ' ||
	    p->info.s[p->info.len - 1] == '\t'))
		p->info.len--;
	l->info = bmd_str_dup(buf_str(&p->info), p->info.len);
	for (i = 0; i < l->nsecs; i++) {
		if (l->secs[i].nlinks == 0)
			bmd_llms_diag(l, "empty_section", l->secs[i].line,
			    "section \"%.80s\" has no links", l->secs[i].name.s);
		for (j = 0; j < l->secs[i].nlinks; j++)
			if (!l->secs[i].links[j].desc.s)
				bmd_llms_diag(l, "link_without_description",
				    l->secs[i].links[j].line,
				    "link \"%.80s\" has no description",
				    l->secs[i].links[j].title.s);
	}
}

struct bmd_llms *
bmd_llms_parse(const char *txt, size_t n)
{
	struct bmd_llms *l = xcalloc(1, sizeof *l);
	struct lp p;
	char *t;
	size_t len, pos, e;
	unsigned long line = 0, fm_end;

	if (is_binary(txt, n)) {
		bmd_llms_diag(l, "binary_input", 0, "the file is binary, not "
		    "an llms.txt text file");
		bmd_llms_diag(l, "missing_h1", 0, "no H1 title");
		l->info = bmd_str_dup("", 0);
		return l;
	}
	memset(&p, 0, sizeof p);
	p.l = l;
	p.state = PRE;
	t = normalise(l, txt, n, &len);
	fm_end = front_matter_end(l, t, len);
	for (pos = 0; pos < len; pos = e + 1) {
		const char *nl = memchr(t + pos, '\n', len - pos);

		e = nl ? (size_t)(nl - t) : len;
		if (++line > fm_end)
			parse_line(&p, t + pos, e - pos, line);
		if (!nl)
			break;
	}
	parse_finish(&p);
	buf_release(&p.info);
	wordset_release(&p.names);
	free(p.first);
	free(t);
	return l;
}
