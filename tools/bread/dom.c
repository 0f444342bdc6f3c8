/*
 * dom.c - DOM helpers over libxml2 trees with the semantics Readability.js
 * relies on (see dom.h).  Everything here is iterative: page depth is
 * bounded by libxml2's own limit (256 without XML_PARSE_HUGE), but nothing
 * in bread recurses on the tree anyway.
 */
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "err.h"
#include "swar.h"
#include "dom.h"

void
bread_nvec_push(struct nvec *a, xmlNodePtr n)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 32;
		a->v = xreallocarray(a->v, a->cap, sizeof *a->v);
	}
	a->v[a->n++] = n;
}

void
bread_nvec_free(struct nvec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}


const char *
bread_attr(const xmlNode *n, const char *name)
{
	const xmlAttr *a;

	if (!bread_is_el(n))
		return NULL;
	for (a = n->properties; a != NULL; a = a->next) {
		/* the first characters differ other than by case: not it */
		if (a->name == NULL || ((a->name[0] ^ (xmlChar)name[0]) & ~0x20) != 0 ||
		    strcasecmp((const char *)a->name, name) != 0)
			continue;
		if (a->children == NULL || a->children->content == NULL)
			return "";
		return (const char *)a->children->content;
	}
	return NULL;
}

xmlNodePtr
bread_first_el(const xmlNode *n)
{
	xmlNodePtr c;

	if (n == NULL)
		return NULL;
	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return c;
	return NULL;
}

xmlNodePtr
bread_next_el(const xmlNode *n)
{
	xmlNodePtr c;

	for (c = n->next; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return c;
	return NULL;
}

xmlNodePtr
bread_prev_el(const xmlNode *n)
{
	xmlNodePtr c;

	for (c = n->prev; c != NULL; c = c->prev)
		if (c->type == XML_ELEMENT_NODE)
			return c;
	return NULL;
}

size_t
bread_el_count(const xmlNode *n)
{
	size_t k = 0;
	xmlNodePtr c;

	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			k++;
	return k;
}

xmlNodePtr
bread_walk(xmlNodePtr n, const xmlNode *root, int skipkids)
{
	if (!skipkids && n->type == XML_ELEMENT_NODE && n->children != NULL)
		return n->children;
	for (; n != NULL && n != root; n = n->parent)
		if (n->next != NULL)
			return n->next;
	return NULL;
}

void
bread_by_tag(xmlNodePtr root, const char *tag, struct nvec *out)
{
	xmlNodePtr n;

	if (root == NULL || root->type != XML_ELEMENT_NODE)
		return;
	for (n = root->children; n != NULL; n = bread_walk(n, root, 0))
		if (bread_tag_is(n, tag))
			bread_nvec_push(out, n);
}

void
bread_tagset_start(struct bread_tagset *ts, const char *const *tags)
{
	ts->root = NULL;
	ts->tags = tags;
	for (ts->ntags = 0; tags[ts->ntags] != NULL; ts->ntags++)
		continue;
	ts->lists = xcalloc(ts->ntags ? ts->ntags : 1, sizeof *ts->lists);
}

void
bread_tagset_add(struct bread_tagset *ts, xmlNodePtr n)
{
	size_t k;

	if (n->type != XML_ELEMENT_NODE || n->name == NULL)
		return;
	for (k = 0; k < ts->ntags; k++) {
		if (bread_tag_is(n, ts->tags[k])) {
			bread_nvec_push(&ts->lists[k], n);
			return;
		}
	}
}

void
bread_tagset_init(struct bread_tagset *ts, xmlNodePtr root,
    const char *const *tags)
{
	xmlNodePtr n;

	bread_tagset_start(ts, tags);
	ts->root = root;
	if (root == NULL || root->type != XML_ELEMENT_NODE)
		return;
	for (n = root->children; n != NULL; n = bread_walk(n, root, 0))
		bread_tagset_add(ts, n);
}

int
bread_tagset_get(const struct bread_tagset *ts, const xmlNode *under,
    const char *tag, struct nvec *out)
{
	const struct nvec *l;
	size_t k, i;

	for (k = 0; k < ts->ntags && strcmp(ts->tags[k], tag) != 0; k++)
		continue;
	if (k == ts->ntags)
		return 0;
	l = &ts->lists[k];
	for (i = 0; i < l->n; i++)
		if (bread_tag_is(l->v[i], tag) && bread_inside(l->v[i], under))
			bread_nvec_push(out, l->v[i]);
	return 1;
}

void
bread_tagset_free(struct bread_tagset *ts)
{
	size_t k;

	for (k = 0; k < ts->ntags; k++)
		bread_nvec_free(&ts->lists[k]);
	free(ts->lists);
	ts->lists = NULL;
	ts->ntags = 0;
}

int
bread_inside(const xmlNode *n, const xmlNode *root)
{
	for (n = n->parent; n != NULL; n = n->parent)
		if (n == root)
			return 1;
	return 0;
}

size_t
bread_count_tag(xmlNodePtr root, const char *tag)
{
	xmlNodePtr n;
	size_t k = 0;

	if (root == NULL || root->type != XML_ELEMENT_NODE)
		return 0;
	for (n = root->children; n != NULL; n = bread_walk(n, root, 0))
		if (bread_tag_is(n, tag))
			k++;
	return k;
}

static void
set_doc(xmlNodePtr parent, xmlNodePtr child)
{
	if (child->doc != parent->doc)
		xmlSetTreeDoc(child, parent->doc);
}

void
bread_append(xmlNodePtr parent, xmlNodePtr child)
{
	xmlUnlinkNode(child);
	set_doc(parent, child);
	child->parent = parent;
	child->prev = parent->last;
	child->next = NULL;
	if (parent->last != NULL)
		parent->last->next = child;
	else
		parent->children = child;
	parent->last = child;
}

void
bread_insert_before(xmlNodePtr ref, xmlNodePtr node)
{
	xmlNodePtr parent = ref->parent;

	xmlUnlinkNode(node);
	set_doc(ref, node);
	node->parent = parent;
	node->next = ref;
	node->prev = ref->prev;
	if (ref->prev != NULL)
		ref->prev->next = node;
	else if (parent != NULL)
		parent->children = node;
	ref->prev = node;
}

void
bread_replace(xmlNodePtr old, xmlNodePtr node)
{
	if (node == old)
		return;
	bread_insert_before(old, node);
	xmlUnlinkNode(old);
}

size_t
bread_js_len(const char *s, size_t n)
{
	size_t i = 0, k = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80)
			i++;
		else if ((c & 0xE0) == 0xC0)
			i += 2;
		else if ((c & 0xF0) == 0xE0)
			i += 3;
		else if ((c & 0xF8) == 0xF0) {
			i += 4;
			k++;
		} else
			i++;
		k++;
	}
	return k;
}

static int
is_text(const xmlNode *n)
{
	return bread_is_text(n);
}

/* The text nodes of n's textContent, in order, through a callback state. */
struct tstate {
	int normalize;
	int started;
	size_t run;		/* pending whitespace characters */
	uint32_t runcp;		/* the single pending whitespace, when run == 1 */
	size_t len;		/* UTF-16 units so far */
	struct buf *out;
};

/*
 * The white space run before p (t->run characters, the first t->runcp),
 * met between two words: counted and copied as it was, or with normalize
 * as one character (the run itself when it is one, else a space).
 */
static void
flush_run(struct tstate *t, const unsigned char *p)
{
	const unsigned char *q = p;
	size_t r = t->run;
	char e[4];
	int m;

	if (t->normalize) {
		t->len += 1;
		if (t->out && t->run == 1) {
			m = utf8_encode(t->runcp, e);
			buf_add(t->out, e, (size_t)m);
		} else if (t->out) {
			buf_addc(t->out, ' ');
		}
		return;
	}
	t->len += t->run;
	if (t->out == NULL)
		return;
	/* walk back over r whitespace chars, and re-emit them */
	while (r > 0) {
		do
			q--;
		while ((*q & 0xC0) == 0x80);
		r--;
	}
	buf_add(t->out, q, (size_t)(p - q));
}

/* ECMAScript white space, with the ASCII characters tested in line. */
static inline int
js_space(uint32_t c)
{
	if (c < 0x80)
		return c == ' ' || (c >= 0x09 && c <= 0x0D);
	return bread_js_space(c);
}

/*
 * feed's length only, over the ASCII run at p: each word at once, each
 * run of white space between words one.  Returns the first byte past the
 * run (NUL or non-ASCII).
 */
static const unsigned char *
ascii_len(struct tstate *t, const unsigned char *p)
{
	const unsigned char *q;

	for (;;) {
		if (*p == ' ' || (unsigned char)(*p - 0x09) <= 0x0D - 0x09) {
			/* a run of white space, a page's indentation */
			if (t->run == 0)
				t->runcp = *p;
			for (q = p + 1;; q++) {
				while (*q == ' ')
					q++;
				if ((unsigned char)(*q - 0x09) > 0x0D - 0x09)
					break;
			}
			t->run += (size_t)(q - p);
			p = q;
		}
		if (*p == 0 || *p >= 0x80)
			return p;
		/* a word: printable ASCII, or a control character on its own */
		if (t->run && t->started)
			t->len++;
		t->run = 0;
		t->started = 1;
		for (q = p + 1; (unsigned char)(*q - 0x21) < 0x5F; q++)
			continue;
		t->len += (size_t)(q - p);
		p = q;
	}
}

static void
feed(struct tstate *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *q;
	uint32_t cp;
	int k;

	while (*p) {
		if (t->out == NULL && t->normalize && *p < 0x80) {
			p = ascii_len(t, p);
			continue;
		}
		if (*p > 0x20 && *p < 0x80) {
			/* a run of printable ASCII: no white space in it */
			if (t->run && t->started)
				flush_run(t, p);
			t->run = 0;
			t->started = 1;
			for (q = p + 1; *q > 0x20 && *q < 0x80; q++)
				continue;
			t->len += (size_t)(q - p);
			if (t->out)
				buf_add(t->out, p, (size_t)(q - p));
			p = q;
			continue;
		}
		if (*p < 0x80) {
			cp = *p;
			k = 1;
		} else
			k = bread_u8(p, &cp);
		if (js_space(cp)) {
			if (t->run == 0)
				t->runcp = cp;
			t->run++;
			p += k;
			continue;
		}
		if (t->run && t->started)
			flush_run(t, p);
		t->run = 0;
		t->started = 1;
		t->len += cp >= 0x10000 ? 2 : 1;
		if (t->out)
			buf_add(t->out, p, (size_t)k);
		p += k;
	}
}

/*
 * A run of whitespace split across text nodes cannot be re-read backwards
 * from the current node; keep whitespace runs inside one feed by feeding
 * the concatenated text when building strings.
 */
static void
collect(const xmlNode *n, struct buf *all)
{
	const xmlNode *c;

	if (is_text(n)) {
		if (n->content)
			buf_adds(all, (const char *)n->content);
		return;
	}
	if (n->type != XML_ELEMENT_NODE && n->type != XML_DOCUMENT_NODE &&
	    n->type != XML_HTML_DOCUMENT_NODE)
		return;
	for (c = n->children; c != NULL; c = bread_walk((xmlNodePtr)c, n, 0))
		if (is_text(c) && c->content)
			buf_adds(all, (const char *)c->content);
}

void
bread_text_content(const xmlNode *n, struct buf *out)
{
	collect(n, out);
}

size_t
bread_text_content_len(const xmlNode *n)
{
	const xmlNode *c;
	size_t k = 0;

	if (is_text(n))
		return n->content ? bread_js_len((const char *)n->content,
		    strlen((const char *)n->content)) : 0;
	if (n->type != XML_ELEMENT_NODE)
		return 0;
	for (c = n->children; c != NULL; c = bread_walk((xmlNodePtr)c, n, 0))
		if (is_text(c) && c->content)
			k += bread_js_len((const char *)c->content,
			    strlen((const char *)c->content));
	return k;
}

void
bread_inner_text(const xmlNode *n, int normalize, struct buf *out)
{
	struct buf all = BUF_INIT;
	struct tstate t;

	memset(&t, 0, sizeof t);
	t.normalize = normalize;
	t.out = out;
	collect(n, &all);
	feed(&t, buf_str(&all));
	buf_release(&all);
	buf_adds(out, "");
}

size_t
bread_inner_len(const xmlNode *n, int normalize)
{
	const xmlNode *c;
	struct tstate t;
	struct bread_tsum all, ts;

	if (normalize) {
		/* the summaries of the text nodes, joined: the same length */
		memset(&all, 0, sizeof all);
		if (is_text(n)) {
			bread_tsum_node(n, &all);
			return all.len;
		}
		if (n->type != XML_ELEMENT_NODE)
			return 0;
		for (c = n->children; c != NULL; c = bread_walk((xmlNodePtr)c, n, 0))
			if (is_text(c)) {
				bread_tsum_node(c, &ts);
				bread_tsum_cat(&all, &ts);
			}
		return all.len;
	}
	memset(&t, 0, sizeof t);
	if (is_text(n)) {
		if (n->content)
			feed(&t, (const char *)n->content);
		return t.len;
	}
	if (n->type != XML_ELEMENT_NODE)
		return 0;
	for (c = n->children; c != NULL; c = bread_walk((xmlNodePtr)c, n, 0))
		if (is_text(c) && c->content)
			feed(&t, (const char *)c->content);
	return t.len;
}

void
bread_tsum_text(const char *s, struct bread_tsum *ts)
{
	struct tstate t;
	uint32_t cp;

	memset(ts, 0, sizeof *ts);
	if (*s == '\0')
		return;
	memset(&t, 0, sizeof t);
	t.normalize = 1;
	feed(&t, s);
	ts->len = t.len;
	ts->any = t.started;
	(void)bread_u8((const unsigned char *)s, &cp);
	ts->lead = !ts->any || bread_js_space(cp);
	ts->trail = !ts->any || t.run > 0;
}

/* psvi's word: the length above four bits, a bit saying it is set, the flags. */
#define TSUM_SET 8u

void
bread_tsum_node(const xmlNode *n, struct bread_tsum *ts)
{
	uintptr_t w = (uintptr_t)n->psvi;

	if (w & TSUM_SET) {
		ts->len = (size_t)(w >> 4);
		ts->any = (int)(w >> 2 & 1);
		ts->lead = (int)(w >> 1 & 1);
		ts->trail = (int)(w & 1);
		return;
	}
	if (n->content == NULL) {
		memset(ts, 0, sizeof *ts);
		return;
	}
	bread_tsum_text((const char *)n->content, ts);
	if (ts->len > UINTPTR_MAX >> 4)
		return;
	w = (uintptr_t)ts->len << 4 | TSUM_SET | (uintptr_t)ts->any << 2 |
	    (uintptr_t)ts->lead << 1 | (uintptr_t)ts->trail;
	((xmlNodePtr)n)->psvi = (void *)w;
}

void
bread_tsum_cat(struct bread_tsum *a, const struct bread_tsum *b)
{
	int lead;

	if (!b->any) {
		if (b->lead) {
			a->trail = 1;
			if (!a->any)
				a->lead = 1;
		}
		return;
	}
	if (!a->any) {
		lead = a->lead || b->lead;
		*a = *b;
		a->lead = lead;
		return;
	}
	a->len += b->len + (a->trail || b->lead ? 1 : 0);
	a->trail = b->trail;
}

int
bread_nonspace(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);
	uint64_t w;
	uint32_t cp;

	while (*p) {
		if (*p > 0x20 && *p < 0x80)
			return 1;
		/* ASCII white space, a page's indentation, without decoding:
		   eight bytes at a time while they are spaces and newlines */
		if (*p == ' ' || (*p >= 0x09 && *p <= 0x0D)) {
			for (p++; end - p >= 8; p += 8) {
				w = swar_load(p);
				if ((swar_eq_exact(w, ' ') | swar_eq_exact(w, '\n')) !=
				    SWAR_HIGHS)
					break;
			}
			continue;
		}
		p += bread_u8(p, &cp);
		if (!bread_js_space(cp))
			return 1;
	}
	return 0;
}

int
bread_has_text(const xmlNode *n)
{
	const xmlNode *c;

	if (is_text(n))
		return n->content && bread_nonspace((const char *)n->content);
	if (n->type != XML_ELEMENT_NODE)
		return 0;
	for (c = n->children; c != NULL; c = bread_walk((xmlNodePtr)c, n, 0))
		if (is_text(c) && c->content && bread_nonspace((const char *)c->content))
			return 1;
	return 0;
}

char *
bread_js_trim(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t a = 0, b = n, i;
	uint32_t cp;
	int k;

	while (a < n) {
		k = bread_u8(p + a, &cp);
		if (!bread_js_space(cp))
			break;
		a += (size_t)k;
	}
	/* find the end of the last non-space character */
	b = a;
	for (i = a; i < n; i += (size_t)k) {
		k = bread_u8(p + i, &cp);
		if (!bread_js_space(cp))
			b = i + (size_t)k;
	}
	return xstrndup(s + a, b - a);
}

int
bread_is_heading(const xmlNode *n)
{
	const char *t;

	if (!bread_is_el(n))
		return 0;
	t = (const char *)n->name;
	return t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0';
}

/*
 * 1 when the subtree at n has text outside the subtree at skip.  At most
 * *budget nodes are looked at (a heading of thousands of empty links must
 * not cost their square); past it the answer is 1.
 */
static int
text_outside(const xmlNode *n, const xmlNode *skip, long *budget)
{
	const xmlNode *c;
	const unsigned char *p;
	uint32_t cp;
	int k;

	for (c = n->children; c; c = c->next) {
		if (c == skip)
			continue;
		if (--*budget < 0)
			return 1;
		if (c->type == XML_TEXT_NODE && c->content) {
			for (p = c->content; *p; p += k) {
				k = bread_u8(p, &cp);
				if (!bread_js_space(cp) && cp != 0x200B)
					return 1;
			}
		} else if (c->type == XML_ELEMENT_NODE && text_outside(c, skip, budget)) {
			return 1;
		}
	}
	return 0;
}

/* Anchor glyphs: white space, zero-width space, ¶, §, #, ⚓, 🔗. */
static int
glyph_only(const xmlNode *n)
{
	const xmlNode *c;
	const unsigned char *p;
	uint32_t cp;
	int k;

	for (c = n->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE && c->content) {
			for (p = c->content; *p; p += k) {
				k = bread_u8(p, &cp);
				if (!bread_js_space(cp) && cp != 0x200B && cp != 0xB6 &&
				    cp != 0xA7 && cp != '#' && cp != 0x2693 && cp != 0x1F517)
					return 0;
			}
		} else if (c->type == XML_ELEMENT_NODE && !glyph_only(c)) {
			return 0;
		}
	}
	return 1;
}

int
bread_heading_anchor(const xmlNode *a)
{
	const char *href, *id;
	const xmlNode *h;
	long budget = 4096;

	if (!bread_tag_is(a, "a") || (href = bread_attr(a, "href")) == NULL ||
	    href[0] != '#')
		return 0;
	for (h = a->parent; bread_is_el(h); h = h->parent)
		if (bread_is_heading(h))
			return glyph_only(a) && text_outside(h, a, &budget);
	h = bread_prev_el(a);
	return h != NULL && bread_is_heading(h) && href[1] != '\0' &&
	    (id = bread_attr(h, "id")) != NULL && strcmp(id, href + 1) == 0;
}

/* Readability.js _getRowAndColumnCount: 1 when the table is one row or one column. */
static int
thin_table(const xmlNode *t, size_t *area)
{
	struct nvec trs = { NULL, 0, 0 }, tds = { NULL, 0, 0 };
	size_t rows = 0, cols = 0, c, j, k;
	const char *rs, *cs;
	long long x;

	bread_by_tag((xmlNodePtr)t, "tr", &trs);
	for (k = 0; k < trs.n; k++) {
		rs = bread_attr(trs.v[k], "rowspan");
		x = rs ? strtoll(rs, NULL, 10) : 0;
		rows += x > 0 ? (size_t)x : 1;
		tds.n = 0;
		bread_by_tag(trs.v[k], "td", &tds);
		for (c = 0, j = 0; j < tds.n; j++) {
			cs = bread_attr(tds.v[j], "colspan");
			x = cs ? strtoll(cs, NULL, 10) : 0;
			c += x > 0 ? (size_t)x : 1;
		}
		if (c > cols)
			cols = c;
	}
	bread_nvec_free(&tds);
	bread_nvec_free(&trs);
	*area = rows >= 10 || cols > 4 ? (size_t)-1 : rows * cols;
	return cols == 1 || rows == 1;
}

int
bread_data_table(const xmlNode *t)
{
	const char *role = bread_attr(t, "role");
	const char *dt = bread_attr(t, "datatable");
	const char *summary = bread_attr(t, "summary");
	struct nvec cap = { NULL, 0, 0 };
	xmlNodePtr tt = (xmlNodePtr)t;
	size_t area;
	int has_caption;

	if (role && strcmp(role, "presentation") == 0)
		return 0;
	if (dt && strcmp(dt, "0") == 0)
		return 0;
	if (summary && *summary)
		return 1;
	bread_by_tag(tt, "caption", &cap);
	has_caption = cap.n && cap.v[0]->children;
	bread_nvec_free(&cap);
	if (has_caption)
		return 1;
	if (bread_count_tag(tt, "col") || bread_count_tag(tt, "colgroup") ||
	    bread_count_tag(tt, "tfoot") || bread_count_tag(tt, "thead") ||
	    bread_count_tag(tt, "th"))
		return 1;
	if (bread_count_tag(tt, "table"))
		return 0;
	if (thin_table(t, &area))
		return 0;
	return area > 10;
}
