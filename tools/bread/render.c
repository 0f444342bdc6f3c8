/*
 * render.c - the extracted article as text (spec 001 §2.2): plain text with
 * basic structure preserved.  A newline at every block boundary (paragraphs,
 * headings, list items, table rows, <br>), runs of white space collapsed to
 * one space inside a line, <pre> kept verbatim, LF line endings, no leading
 * or trailing white space.  Table cells on one row are joined by " | ".
 * Script, style, noscript and template content is never text.
 *
 * The Markdown style (--markdown) adds structure: blank lines between
 * blocks, "#" headings, "-" and "1." list items (nested lists indented),
 * "> " quotes and ``` fences around <pre>.
 */
#include <string.h>
#include "ctx.h"
#include "dom.h"
#include "rd.h"

#define MAX_LISTS 64

struct rs {
	struct buf *out;
	int md;
	int nl;			/* newlines owed before the next content */
	int sp;			/* a space owed */
	int cellsep;		/* " | " owed */
	int line_has;		/* the current line has content */
	int pre;		/* inside <pre> */
	int quote;		/* <blockquote> depth */
	int line_quote;		/* the quote depth the current line started at */
	int nlists;
	struct { int ordered, n; } lists[MAX_LISTS];
	int row_cells;
	char marker[24];	/* list or heading marker for the next line */
};

static const char *const blocks[] = {
	"address", "article", "aside", "blockquote", "body", "caption",
	"center", "dd", "details", "dialog", "dir", "div", "dl", "dt",
	"fieldset", "figcaption", "figure", "footer", "form", "frameset",
	"h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li",
	"legend", "main", "menu", "nav", "ol", "p", "pre", "section",
	"summary", "table", "tbody", "tfoot", "thead", "tr", "ul", NULL
};
static const char *const skipped[] = {
	"script", "style", "noscript", "template", "head", "title", NULL
};

static int
in(const xmlNode *n, const char *const *list)
{
	for (; *list; list++)
		if (strcmp((const char *)n->name, *list) == 0)
			return 1;
	return 0;
}

static void
owe_nl(struct rs *r, int k)
{
	if (r->nl < k)
		r->nl = k;
}

static int
heading_level(const xmlNode *n)
{
	const char *t = (const char *)n->name;

	if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0')
		return t[1] - '0';
	return 0;
}

/* Start content on the current line: owed newlines, line prefix, owed space. */
static void
flush(struct rs *r)
{
	int i;

	if (r->out->len == 0) {
		r->nl = 0;
		r->sp = 0;
		r->cellsep = 0;
	}
	if (r->nl) {
		for (i = 0; i < r->nl; i++) {
			buf_addc(r->out, '\n');
			if (r->md && i + 1 < r->nl)
				for (int q = 0; q < r->quote && q < r->line_quote; q++)
					buf_adds(r->out, ">");
		}
		r->nl = 0;
		r->line_has = 0;
		r->sp = 0;
		r->cellsep = 0;
	}
	if (!r->line_has) {
		r->line_quote = r->quote;
		if (r->md) {
			for (i = 0; i < r->quote; i++)
				buf_adds(r->out, "> ");
			if (r->nlists > 1)
				for (i = 1; i < r->nlists; i++)
					buf_adds(r->out, "  ");
			if (r->marker[0]) {
				buf_adds(r->out, r->marker);
				r->marker[0] = '\0';
			} else if (r->nlists > 0) {
				buf_adds(r->out, "  ");
			}
		}
	} else if (r->cellsep) {
		buf_adds(r->out, " | ");
	} else if (r->sp) {
		buf_addc(r->out, ' ');
	}
	r->sp = 0;
	r->cellsep = 0;
	r->line_has = 1;
}

static void
text(struct rs *r, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	int k;

	if (s == NULL)
		return;
	if (r->pre) {
		if (*p == '\0')
			return;
		flush(r);
		for (; *p; p++) {
			if (*p == '\r') {
				if (p[1] != '\n')
					buf_addc(r->out, '\n');
				continue;
			}
			buf_addc(r->out, (char)*p);
		}
		return;
	}
	while (*p) {
		k = bread_u8(p, &cp);
		if (bread_js_space(cp)) {
			if (r->line_has)
				r->sp = 1;
		} else {
			flush(r);
			buf_add(r->out, p, (size_t)k);
		}
		p += k;
	}
}

static void
enter(struct rs *r, const xmlNode *n)
{
	int h;

	if (strcmp((const char *)n->name, "br") == 0) {
		if (r->pre)
			buf_addc(r->out, '\n');
		else
			owe_nl(r, 1);
		return;
	}
	if (!in(n, blocks) && strcmp((const char *)n->name, "td") != 0 &&
	    strcmp((const char *)n->name, "th") != 0)
		return;
	if (!strcmp((const char *)n->name, "td") || !strcmp((const char *)n->name, "th")) {
		if (r->row_cells++ > 0 && r->line_has)
			r->cellsep = 1;
		return;
	}
	if (!strcmp((const char *)n->name, "tr")) {
		owe_nl(r, 1);
		r->row_cells = 0;
		return;
	}
	if (!strcmp((const char *)n->name, "li")) {
		owe_nl(r, 1);
		if (r->md) {
			if (r->nlists > 0 && r->nlists <= MAX_LISTS &&
			    r->lists[r->nlists - 1].ordered)
				snprintf(r->marker, sizeof r->marker, "%d. ",
				    ++r->lists[r->nlists - 1].n);
			else
				snprintf(r->marker, sizeof r->marker, "- ");
		}
		return;
	}
	if (!strcmp((const char *)n->name, "ul") || !strcmp((const char *)n->name, "ol")) {
		owe_nl(r, r->md && r->nlists == 0 ? 2 : 1);
		if (r->nlists < MAX_LISTS) {
			r->lists[r->nlists].ordered = n->name[0] == 'o';
			r->lists[r->nlists].n = 0;
		}
		r->nlists++;
		return;
	}
	owe_nl(r, r->md && r->nlists == 0 ? 2 : 1);
	if (!strcmp((const char *)n->name, "blockquote"))
		r->quote++;
	if (!strcmp((const char *)n->name, "pre")) {
		if (r->md) {
			flush(r);
			buf_adds(r->out, "```");
			owe_nl(r, 1);
		}
		r->pre++;
	}
	if (r->md && (h = heading_level(n)) > 0) {
		memset(r->marker, '#', (size_t)h);
		r->marker[h] = ' ';
		r->marker[h + 1] = '\0';
	}
}

static void
leave(struct rs *r, const xmlNode *n)
{
	const char *t = (const char *)n->name;

	if (!in(n, blocks))
		return;
	if (!strcmp(t, "ul") || !strcmp(t, "ol")) {
		if (r->nlists > 0)
			r->nlists--;
	} else if (!strcmp(t, "blockquote")) {
		if (r->quote > 0)
			r->quote--;
	} else if (!strcmp(t, "pre")) {
		if (r->pre > 0)
			r->pre--;
		if (r->md) {
			if (r->out->len && r->out->s[r->out->len - 1] != '\n')
				buf_addc(r->out, '\n');
			buf_adds(r->out, "```");
			r->line_has = 1;
		}
	}
	/* a heading marker never used (empty heading) must not leak */
	if (heading_level(n) > 0 || !strcmp(t, "li"))
		r->marker[0] = '\0';
	owe_nl(r, r->md && r->nlists == 0 && strcmp(t, "li") != 0 ? 2 : 1);
}

void
bread_render(xmlNodePtr root, enum bread_style style, struct buf *out)
{
	struct rs r;
	xmlNodePtr n;
	size_t start = out->len;

	memset(&r, 0, sizeof r);
	r.out = out;
	r.md = style == BREAD_MARKDOWN;
	if (root == NULL)
		return;
	n = root->children;
	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			if (!in(n, skipped)) {
				enter(&r, n);
				if (n->children) {
					n = n->children;
					continue;
				}
				leave(&r, n);
			}
		} else if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
			text(&r, (const char *)n->content);
		}
		while (n && n->next == NULL) {
			n = n->parent;
			if (n == NULL || n == root) {
				n = NULL;
				break;
			}
			leave(&r, n);
		}
		if (n)
			n = n->next;
	}
	/* trim trailing white space the <pre> text may have left */
	while (out->len > start && (out->s[out->len - 1] == '\n' ||
	    out->s[out->len - 1] == ' ' || out->s[out->len - 1] == '\t'))
		buf_setlen(out, out->len - 1);
}
