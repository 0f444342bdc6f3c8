/*
 * render.c - the extracted article as text (spec 001 §2.2): plain text with
 * basic structure preserved.  A newline at every block boundary (paragraphs,
 * headings, list items, table rows, <br>), runs of white space collapsed to
 * one space inside a line, LF line endings, no leading or trailing white
 * space.  Script, style, noscript and template content is never text.
 *
 * Where this departs from Readability.js's textContent, it is to give the
 * text a reader sees on the page (bread(1), "Text rules"):
 *  - <pre> is code as a reader copies it: its text verbatim, a newline right
 *    after the <pre> start tag dropped (HTML parsing drops it), the newline
 *    that ends the last line dropped, a block element that is a line of the
 *    code (every element between it and the <pre> a block, or <code>) one
 *    line even when empty, block elements inside inline ones (hover popups
 *    of twoslash) inline, and hover popups (tooltip markup) left out;
 *  - a row of a data table (Readability.js's _markDataTables) is one line,
 *    its cells joined by " | ", the paragraphs of one cell joined by a
 *    space; a layout table's cells keep their lines;
 *  - a heading loses its anchor link (a link to a fragment beside the
 *    heading's own text: "¶", "#", a zero-width space, an icon);
 *  - adjacent <label>s (the tab names of code groups) are separate words.
 *
 * The Markdown style (--markdown) adds structure: blank lines between
 * blocks, "#" headings, "-" and "1." list items (nested lists indented),
 * "> " quotes and ``` fences around <pre>.
 */
#include <assert.h>
#include <string.h>
#include "ctx.h"
#include "dom.h"
#include "rd.h"

#define MAX_LISTS 64
#define MAX_PRE_BLOCKS 64	/* line blocks inside <pre> tracked for emptiness */
#define MAX_TABLES 64		/* nested tables whose kind is tracked */

struct rs {
	struct buf *out;
	int md;
	int nl;			/* newlines owed before the next content */
	int sp;			/* a space owed */
	int cellsep;		/* " | " owed */
	int line_has;		/* the current line has content */
	int pre;		/* inside <pre> */
	int pre_bol;		/* the code's current line is still empty */
	size_t pre_start;	/* output length where the <pre> text began */
	int cell;		/* inside a data table's <td>/<th>: one line */
	int ntables;		/* open <table>s */
	struct {
		unsigned char data;	/* bread_data_table */
		int cell, row_cells;	/* the enclosing table's state */
	} tables[MAX_TABLES];
	int heading;		/* inside <h1>..<h6> */
	int npre_blocks;	/* open line blocks inside <pre> */
	size_t pre_block_at[MAX_PRE_BLOCKS];	/* output length at their start */
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
		if (n->name[0] == (xmlChar)(*list)[0] &&
		    strcmp((const char *)n->name, *list) == 0)
			return 1;
	return 0;
}

static int
heading_level(const xmlNode *n)
{
	const char *t = (const char *)n->name;

	if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0')
		return t[1] - '0';
	return 0;
}

static void
owe_nl(struct rs *r, int k)
{
	if (r->cell > 0 && !r->pre) {
		/* one line per table row: a block inside a cell is a space */
		if (r->line_has)
			r->sp = 1;
		return;
	}
	if (r->nl < k)
		r->nl = k;
}

/* 1 when the class attribute of n has a token equal to or ending in one of sfx. */
static int
class_token_is(const xmlNode *n, const char *const *sfx)
{
	const char *c = bread_attr(n, "class"), *e;
	const char *const *x;
	size_t k, m;

	if (c == NULL)
		return 0;
	while (*c) {
		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		for (e = c; *e && *e != ' ' && *e != '\t' && *e != '\n'; e++)
			continue;
		k = (size_t)(e - c);
		for (x = sfx; *x; x++) {
			m = strlen(*x);
			if (k >= m && memcmp(e - m, *x, m) == 0 &&
			    (k == m || (*x)[0] == '_' || (*x)[0] == '-'))
				return 1;
		}
		c = e;
	}
	return 0;
}

/*
 * Hover popups inside code: twoslash's (Shiki's "twoslash-popup-container",
 * floating-vue's "v-popper__popper" that VitePress marks "vp-copy-ignore")
 * and ARIA tooltips.  They are hidden until hovered and never copied.
 */
static int
is_code_popup(const xmlNode *n)
{
	static const char *const sfx[] = {
		"-popup-container", "__popper", "vp-copy-ignore", NULL
	};
	const char *role = bread_attr(n, "role");

	return (role != NULL && strcmp(role, "tooltip") == 0) ||
	    class_token_is(n, sfx);
}

/* Elements whose subtree is not text. */
static int
skip_el(const struct rs *r, const xmlNode *n)
{
	if (in(n, skipped))
		return 1;
	if (r->pre && is_code_popup(n))
		return 1;
	if (n->name[0] == 'a' && n->name[1] == '\0' &&
	    (r->heading || bread_is_heading(bread_prev_el(n))))
		return bread_heading_anchor(n);
	return 0;
}

/*
 * A block element inside <pre> that is a line of the code: every element
 * between it and the <pre> is a block or <code>.  A block inside an inline
 * element (twoslash wraps hovered tokens in <div>) is inline.
 */
static int
is_code_line(const xmlNode *n)
{
	const xmlNode *a;

	if (!in(n, blocks) || strcmp((const char *)n->name, "pre") == 0)
		return 0;
	for (a = n->parent; a && a->type == XML_ELEMENT_NODE; a = a->parent) {
		if (strcmp((const char *)a->name, "pre") == 0)
			return 1;
		if (!in(a, blocks) && strcmp((const char *)a->name, "code") != 0)
			return 0;
	}
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

/* Code text: verbatim, CR LF and CR made LF. */
static void
pre_text(struct rs *r, const xmlNode *t)
{
	const unsigned char *p = t->content;

	/* HTML drops a newline right after the <pre> start tag */
	if (t->prev == NULL && t->parent != NULL &&
	    strcmp((const char *)t->parent->name, "pre") == 0) {
		if (p[0] == '\r')
			p++;
		if (p[0] == '\n')
			p++;
	}
	if (*p == '\0')
		return;
	flush(r);
	if (r->pre_start == (size_t)-1)
		r->pre_start = r->out->len;
	for (; *p; p++) {
		if (*p == '\r') {
			if (p[1] == '\n')
				continue;
			buf_addc(r->out, '\n');
		} else {
			buf_addc(r->out, (char)*p);
		}
		r->pre_bol = *p == '\n' || *p == '\r';
	}
}

/* The end of the word at s: the first white space (JavaScript's \s) or NUL. */
static const unsigned char *
word_end(const unsigned char *s)
{
	uint32_t cp;
	int k;

	for (;;) {
		while (*s > ' ' && *s < 0x80)
			s++;
		if (*s == '\0' || bread_js_space(*s))
			return s;
		k = bread_u8(s, &cp);
		if (bread_js_space(cp))
			return s;
		s += k;
	}
}

static void
text(struct rs *r, const xmlNode *t)
{
	const unsigned char *p = t->content, *q;
	uint32_t cp;
	int k;

	if (p == NULL)
		return;
	if (r->pre) {
		pre_text(r, t);
		return;
	}
	while (*p) {
		k = bread_u8(p, &cp);
		if (bread_js_space(cp)) {
			if (r->line_has)
				r->sp = 1;
			p += k;
		} else {
			/* flush once: within a word it would change nothing */
			flush(r);
			q = word_end(p + k);
			buf_add(r->out, p, (size_t)(q - p));
			p = q;
		}
	}
}

/* End the code's current line (a line block closes, a <br>). */
static void
pre_newline(struct rs *r)
{
	flush(r);
	if (r->pre_start == (size_t)-1)
		r->pre_start = r->out->len;
	buf_addc(r->out, '\n');
	r->pre_bol = 1;
}

/* An element inside <pre> starts: only line blocks and <br> break lines. */
static void
pre_enter(struct rs *r, const xmlNode *n)
{
	if (strcmp((const char *)n->name, "br") == 0) {
		pre_newline(r);
	} else if (strcmp((const char *)n->name, "pre") == 0) {
		r->pre++;
	} else if (is_code_line(n)) {
		if (!r->pre_bol)
			pre_newline(r);
		if (r->npre_blocks < MAX_PRE_BLOCKS)
			r->pre_block_at[r->npre_blocks] = r->out->len;
		r->npre_blocks++;
	}
}

static void
pre_leave(struct rs *r, const xmlNode *n)
{
	int i;

	if (!is_code_line(n))
		return;
	assert(r->npre_blocks > 0);
	i = --r->npre_blocks;
	/* a line block ends its line; an empty one is an empty line */
	if (!r->pre_bol || (i < MAX_PRE_BLOCKS && r->pre_block_at[i] == r->out->len))
		pre_newline(r);
}

/* 1 when the innermost open table is a data table. */
static int
in_data_table(const struct rs *r)
{
	return r->ntables > 0 && r->ntables <= MAX_TABLES &&
	    r->tables[r->ntables - 1].data;
}

static void
cell_enter(struct rs *r)
{
	if (r->row_cells++ > 0 && r->line_has)
		r->cellsep = 1;
	if (in_data_table(r))
		r->cell++;
}

static void
list_item_enter(struct rs *r)
{
	owe_nl(r, 1);
	if (!r->md)
		return;
	if (r->nlists > 0 && r->nlists <= MAX_LISTS && r->lists[r->nlists - 1].ordered)
		snprintf(r->marker, sizeof r->marker, "%d. ", ++r->lists[r->nlists - 1].n);
	else
		snprintf(r->marker, sizeof r->marker, "- ");
}

static void
enter(struct rs *r, const xmlNode *n)
{
	const char *t = (const char *)n->name;
	int h;

	if (r->pre) {
		pre_enter(r, n);
		return;
	}
	if (strcmp(t, "br") == 0) {
		owe_nl(r, 1);
		return;
	}
	if (!strcmp(t, "td") || !strcmp(t, "th")) {
		cell_enter(r);
		return;
	}
	if (!in(n, blocks))
		return;
	if (!strcmp(t, "tr")) {
		owe_nl(r, 1);
		r->row_cells = 0;
		return;
	}
	if (!strcmp(t, "table")) {
		/* a table in a cell has rows of its own: lines again */
		if (r->ntables < MAX_TABLES) {
			r->tables[r->ntables].data = (unsigned char)bread_data_table(n);
			r->tables[r->ntables].cell = r->cell;
			r->tables[r->ntables].row_cells = r->row_cells;
		}
		r->ntables++;
		r->cell = 0;
	}
	if (!strcmp(t, "li")) {
		list_item_enter(r);
		return;
	}
	if (!strcmp(t, "ul") || !strcmp(t, "ol")) {
		owe_nl(r, r->md && r->nlists == 0 ? 2 : 1);
		if (r->nlists < MAX_LISTS) {
			r->lists[r->nlists].ordered = n->name[0] == 'o';
			r->lists[r->nlists].n = 0;
		}
		r->nlists++;
		return;
	}
	owe_nl(r, r->md && r->nlists == 0 ? 2 : 1);
	if (!strcmp(t, "blockquote"))
		r->quote++;
	if (!strcmp(t, "pre")) {
		if (r->md) {
			flush(r);
			buf_adds(r->out, "```");
			owe_nl(r, 1);
		}
		r->pre++;
		r->pre_bol = 1;
		r->pre_start = (size_t)-1;
		r->npre_blocks = 0;
	}
	if ((h = heading_level(n)) > 0) {
		r->heading++;
		if (r->md) {
			memset(r->marker, '#', (size_t)h);
			r->marker[h] = ' ';
			r->marker[h + 1] = '\0';
		}
	}
}

/* The outermost <pre> ends: the newline ending its last line goes. */
static void
pre_end(struct rs *r)
{
	r->pre = 0;
	if (r->pre_start != (size_t)-1 && r->out->len > r->pre_start &&
	    r->out->s[r->out->len - 1] == '\n')
		buf_setlen(r->out, r->out->len - 1);
	if (r->md) {
		if (r->out->len && r->out->s[r->out->len - 1] != '\n')
			buf_addc(r->out, '\n');
		buf_adds(r->out, "```");
	}
	r->line_has = 1;
}

static void
leave(struct rs *r, const xmlNode *n)
{
	const char *t = (const char *)n->name;

	if (r->pre > 0 && strcmp(t, "pre") != 0) {
		pre_leave(r, n);
		return;
	}
	if (!strcmp(t, "td") || !strcmp(t, "th")) {
		if (r->cell > 0 && in_data_table(r))
			r->cell--;
		return;
	}
	if (!strcmp(t, "label")) {
		/* tab names of a code group: separate words */
		if (r->line_has)
			r->sp = 1;
		return;
	}
	if (!in(n, blocks))
		return;
	if (!strcmp(t, "ul") || !strcmp(t, "ol")) {
		if (r->nlists > 0)
			r->nlists--;
	} else if (!strcmp(t, "blockquote")) {
		if (r->quote > 0)
			r->quote--;
	} else if (!strcmp(t, "pre")) {
		if (r->pre > 1)
			r->pre--;
		else
			pre_end(r);
	} else if (!strcmp(t, "table")) {
		if (r->ntables > 0 && --r->ntables < MAX_TABLES) {
			r->cell = r->tables[r->ntables].cell;
			r->row_cells = r->tables[r->ntables].row_cells;
		}
	}
	/* a heading marker never used (empty heading) must not leak */
	if (heading_level(n) > 0) {
		r->marker[0] = '\0';
		if (r->heading > 0)
			r->heading--;
	}
	if (!strcmp(t, "li"))
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
			if (!skip_el(&r, n)) {
				enter(&r, n);
				if (n->children) {
					n = n->children;
					continue;
				}
				leave(&r, n);
			}
		} else if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
			text(&r, n);
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
