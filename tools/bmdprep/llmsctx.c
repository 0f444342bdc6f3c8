/*
 * llmsctx.c - the reference create_ctx() context (see llmsctx.h for the
 * contract).  It mirrors fastcore.xml's _to_xml()/_to_attr() for the three
 * element kinds create_ctx builds (Project, one ft(name) per section, Doc)
 * and llms_txt.core._doc()'s line filter.
 */
#include <stdint.h>
#include <string.h>

#include "ctx.h"
#include "llmsctx.h"
#include "pyuni.h"
#include "swar.h"
#include "utf8.h"

void
bmd_ctx_attr(struct buf *out, const char *k, const char *v, size_t n)
{
	struct buf esc = BUF_INIT;
	const char *p;
	size_t i, m = n;
	char q = '"';

	if (!v) {
		v = "";
		n = m = 0;
	}
	p = v;
	/* _to_attr: html.escape(v, quote=False) only when &, < or > occur */
	if (memchr(v, '&', n) || memchr(v, '<', n) || memchr(v, '>', n)) {
		for (i = 0; i < n; i++) {
			if (v[i] == '&')
				buf_adds(&esc, "&amp;");
			else if (v[i] == '<')
				buf_adds(&esc, "&lt;");
			else if (v[i] == '>')
				buf_adds(&esc, "&gt;");
			else
				buf_addc(&esc, v[i]);
		}
		p = buf_str(&esc);
		m = esc.len;
	}
	buf_addc(out, ' ');
	buf_adds(out, k);
	buf_addc(out, '=');
	if (memchr(p, '"', m)) {
		q = '\'';
		buf_addc(out, q);
		for (i = 0; i < m; i++) {
			if (p[i] == '\'')
				buf_adds(out, "&#39;");
			else
				buf_addc(out, p[i]);
		}
	} else {
		buf_addc(out, q);
		buf_add(out, p, m);
	}
	buf_addc(out, q);
	buf_release(&esc);
}

void
bmd_ctx_project_open(struct buf *out, const char *title, size_t tlen,
    const char *summary, size_t slen)
{
	buf_adds(out, "<project");
	bmd_ctx_attr(out, "title", title, tlen);
	if (summary)
		bmd_ctx_attr(out, "summary", summary, slen);
	buf_addc(out, '>');
}

void
bmd_ctx_text(struct buf *out, const char *s, size_t n)
{
	buf_add(out, s, n);
}

void
bmd_ctx_project_close(struct buf *out)
{
	buf_adds(out, "</project>");
}

/* fastcore.xml _block_tags minus the whitespace-significant ones */
static int
block_tag(const char *t, size_t n)
{
	static const char *const tags[] = {
		"div", "p", "ul", "ol", "li", "table", "thead", "tbody",
		"tfoot", "html", "head", "body", "meta", "title", "!doctype",
		"input", "link", "style", "tr", "th", "td", "section",
		"article", "nav", "aside", "header", "footer", "h1", "h2",
		"h3", "h4", "h5", "h6", "blockquote", NULL
	};
	size_t i;

	for (i = 0; tags[i]; i++)
		if (strlen(tags[i]) == n && memcmp(tags[i], t, n) == 0)
			return 1;
	return 0;
}

void
bmd_ctx_section_begin(struct buf *out, struct bmd_ctx_section *sec,
    const char *name, size_t n)
{
	(void)out;
	sec->tag = bmd_py_lower(name, n, &sec->taglen);
	sec->block = block_tag(sec->tag, sec->taglen);
	sec->ndocs = 0;
}

static void
open_tag(struct buf *out, const struct bmd_ctx_section *sec)
{
	if (sec->block)
		buf_adds(out, "  ");
	if (sec->taglen > 0) {	/* stag_ = f'<{stag}>' if stag else '' */
		buf_addc(out, '<');
		buf_add(out, sec->tag, sec->taglen);
		buf_addc(out, '>');
	}
}

static void
close_tag(struct buf *out, const struct bmd_ctx_section *sec)
{
	buf_adds(out, "</");
	buf_add(out, sec->tag, sec->taglen);
	buf_addc(out, '>');
	if (sec->block)
		buf_addc(out, '\n');
}

void
bmd_ctx_doc(struct buf *out, struct bmd_ctx_section *sec, const char *title,
    size_t tlen, const char *url, size_t ulen, const char *desc, size_t dlen,
    const char *text, size_t textlen)
{
	if (sec->ndocs++ == 0) {
		open_tag(out, sec);
		if (sec->block)
			buf_addc(out, '\n');
	}
	buf_adds(out, "<doc");
	bmd_ctx_attr(out, "title", title, tlen);
	if (url)
		bmd_ctx_attr(out, "url", url, ulen);
	if (desc)
		bmd_ctx_attr(out, "desc", desc, dlen);
	buf_addc(out, '>');
	buf_add(out, text, textlen);
	buf_adds(out, "</doc>");
}

void
bmd_ctx_section_end(struct buf *out, struct bmd_ctx_section *sec)
{
	if (sec->ndocs == 0) {
		open_tag(out, sec);
	} else if (sec->block) {
		buf_adds(out, "  ");
	}
	close_tag(out, sec);
	free(sec->tag);
	sec->tag = NULL;
}

/* A line that re.compile('^<!--.*-->$', re.M).search() matches. */
static int
comment_line(const char *s, size_t n)
{
	return n >= 7 && memcmp(s, "<!--", 4) == 0 &&
	    memcmp(s + n - 3, "-->", 3) == 0;
}

struct cursor {
	const char *s;
	size_t n, pos;
	int valid;
};

/* First occurrence of pat (len m) at index >= q, queries increasing; n if none. */
static size_t
cur_find(struct cursor *c, size_t q, const char *pat, size_t m)
{
	size_t i;

	if (c->valid && (c->pos >= q || c->pos == c->n))
		return c->pos;
	c->valid = 1;
	for (i = q; i + m <= c->n; i++) {
		const char *p = memchr(c->s + i, pat[0], c->n - i);

		if (!p)
			break;
		i = (size_t)(p - c->s);
		if (i + m <= c->n && memcmp(p, pat, m) == 0)
			return c->pos = i;
	}
	return c->pos = c->n;
}

/*
 * A line that re.compile(r'<img[^>]*src="data:image/[^"]*"[^>]*>').search()
 * matches: some "<img" is followed, before the next '>', by the literal
 * src="data:image/ (it holds no '>'); [^"]* then '"' can only stop at the
 * first '"' after it, and [^>]*> needs any '>' after that quote.  The first
 * literal after "<img" has the earliest quote, so it alone decides.
 */
static int
b64_img_line(const char *s, size_t n)
{
	static const char lit[] = "src=\"data:image/";
	struct cursor img = { s, n, 0, 0 }, gt = { s, n, 0, 0 },
	    li = { s, n, 0, 0 }, qu = { s, n, 0, 0 };
	size_t p, g, l, q, lastgt = n, i;

	if (n < sizeof lit || memchr(s, '<', n) == NULL)
		return 0;
	for (i = n; i > 0; i--)
		if (s[i - 1] == '>') {
			lastgt = i - 1;
			break;
		}
	if (lastgt == n)
		return 0;
	for (p = cur_find(&img, 0, "<img", 4); p < n;
	    p = cur_find(&img, p + 1, "<img", 4)) {
		g = cur_find(&gt, p + 4, ">", 1);
		l = cur_find(&li, p + 4, lit, sizeof lit - 1);
		if (l == n)
			return 0;
		if (l + sizeof lit - 1 > g)
			continue;
		q = cur_find(&qu, l + sizeof lit - 1, "\"", 1);
		if (q < n && lastgt > q)
			return 1;
	}
	return 0;
}

/*
 * The bytes that may start a str.splitlines() line break (pyuni.h): the
 * scan for the end of a line skips every other byte without a call.
 */
static const unsigned char lb_first[256] = {
	['\n'] = 1, [0x0b] = 1, [0x0c] = 1, ['\r'] = 1, [0x1c] = 1, [0x1d] = 1,
	[0x1e] = 1, [0xc2] = 1, [0xe2] = 1
};

/*
 * The end of the line starting at i; *lb the length of its break (0: none).
 * Eight bytes at a time are skipped while none is below 0x20 or above 0x7f,
 * the rest byte by byte.
 */
static size_t
line_end(const char *s, size_t len, size_t i, size_t *lb)
{
	const unsigned char *u = (const unsigned char *)s;
	uint64_t w;

	for (;;) {
		for (; i + 8 <= len; i += 8) {
			w = swar_load(s + i);
			if ((swar_below(w, 0x20) | swar_high(w)) != 0)
				break;
		}
		while (i < len && !lb_first[u[i]])
			i++;
		if (i >= len) {
			*lb = 0;
			return len;
		}
		if ((*lb = bmd_py_linebreak_len(s, len, i)) > 0)
			return i;
		i++;
	}
}

/*
 * The kept lines, joined with "\n": a run of kept lines that the text
 * already separates with single "\n" line ends is appended in one piece.
 */
struct kept {
	struct buf out;
	const char *s;
	size_t b, e;		/* the pending run s[b..e), when any */
	int pending, first;
};

static void
kept_flush(struct kept *k)
{
	if (!k->pending)
		return;
	if (!k->first)
		buf_addc(&k->out, '\n');
	buf_add(&k->out, k->s + k->b, k->e - k->b);
	k->first = 0;
	k->pending = 0;
}

static void
kept_line(struct kept *k, size_t i, size_t j)
{
	if (k->pending && k->e + 1 == i && k->s[k->e] == '\n') {
		k->e = j;
		return;
	}
	kept_flush(k);
	k->b = i;
	k->e = j;
	k->pending = 1;
}

char *
bmd_ctx_doc_text(const char *body, size_t n, size_t *outlen)
{
	struct kept k = { BUF_INIT, body, 0, 0, 0, 1 };
	char *u = NULL;
	const char *lt;
	size_t len = n, i, j, lb, nextlt = 0;

	if (!utf8_valid(body, n, NULL)) {
		u = utf8_sanitize(body, n, &len);
		k.s = u;
	}
	buf_grow(&k.out, len);
	for (i = 0; i < len; i = j + lb) {
		j = line_end(k.s, len, i, &lb);
		/* both patterns need a '<': the next one in the text decides */
		if (nextlt < i) {
			lt = memchr(k.s + i, '<', len - i);
			nextlt = lt ? (size_t)(lt - k.s) : len;
		}
		if (nextlt >= j || (!comment_line(k.s + i, j - i) &&
		    !b64_img_line(k.s + i, j - i)))
			kept_line(&k, i, j);
		if (j >= len)
			break;
	}
	kept_flush(&k);
	free(u);
	return buf_detach(&k.out, outlen);
}

int
bmd_ctx_render(struct buf *out, const struct bmd_llms *l, int optional,
    bmd_ctx_lookup_fn lookup, void *arg, const struct bmd_link **missing)
{
	size_t i, j, n, tl;
	struct bmd_ctx_section sec;
	const char *body;
	char *text;

	bmd_ctx_project_open(out, l->title.s, l->title.len, l->summary.s,
	    l->summary.len);
	bmd_ctx_text(out, l->info.s, l->info.len);
	for (i = 0; i < l->nsecs; i++) {
		const struct bmd_section *s = &l->secs[i];

		/* mk_ctx: skip = '' if optional else 'Optional'; k != skip */
		if ((s->optional && !optional) || (optional && s->name.len == 0))
			continue;
		bmd_ctx_section_begin(out, &sec, s->name.s, s->name.len);
		for (j = 0; j < s->nlinks; j++) {
			const struct bmd_link *lk = &s->links[j];

			body = lookup(lk, &n, arg);
			if (!body) {
				free(sec.tag);
				*missing = lk;
				return -1;
			}
			text = bmd_ctx_doc_text(body, n, &tl);
			bmd_ctx_doc(out, &sec, lk->title.s, lk->title.len, NULL, 0,
			    lk->desc.s, lk->desc.len, text, tl);
			free(text);
		}
		bmd_ctx_section_end(out, &sec);
	}
	bmd_ctx_project_close(out);
	return 0;
}
