/*
 * dom.h - the small DOM layer bread's readability code stands on: libxml2
 * tree helpers with the semantics of the DOM calls Readability.js makes
 * (appendChild never merges text nodes, textContent, getElementsByTagName
 * over descendants), JavaScript string measures (lengths in UTF-16 code
 * units, \s as ECMAScript defines it) and the "graveyard" that keeps
 * removed nodes alive until the page is done, as a garbage-collected DOM
 * would.
 */
#ifndef BREAD_DOM_H
#define BREAD_DOM_H
#include <stddef.h>
#include <stdint.h>
#include <libxml/tree.h>
#include "buf.h"

struct nvec {
	xmlNodePtr *v;
	size_t n, cap;
};

void bread_nvec_push(struct nvec *a, xmlNodePtr n);
void bread_nvec_free(struct nvec *a);

#include <string.h>
static inline int
bread_is_el(const xmlNode *n)
{
	return n != NULL && n->type == XML_ELEMENT_NODE;
}

/* 1 when n is an element named tag (lower case). */
static inline int
bread_tag_is(const xmlNode *n, const char *tag)
{
	return bread_is_el(n) && n->name != NULL && n->name[0] == (xmlChar)tag[0] &&
	    strcmp((const char *)n->name, tag) == 0;
}
/* Attribute value (borrowed), "" for an attribute without value, NULL when absent. */
const char *bread_attr(const xmlNode *n, const char *name);
xmlNodePtr bread_first_el(const xmlNode *n);
xmlNodePtr bread_next_el(const xmlNode *n);
xmlNodePtr bread_prev_el(const xmlNode *n);
size_t bread_el_count(const xmlNode *n);
/* Pre-order successor of n inside root (any node type); skipkids skips n's subtree. */
xmlNodePtr bread_walk(xmlNodePtr n, const xmlNode *root, int skipkids);
/* Descendant elements of root named tag (tree order) appended to out. */
void bread_by_tag(xmlNodePtr root, const char *tag, struct nvec *out);
size_t bread_count_tag(xmlNodePtr root, const char *tag);

/*
 * The descendant elements of root named by each of several tags, found in
 * one walk instead of one bread_by_tag walk each.  It stands for
 * bread_by_tag(root, tag) for as long as the tree under root changes only
 * by removals, by renaming elements away from the set's tags, by adding
 * subtrees that hold none of them, and by moves that keep the elements of
 * each tag still looked up in document order (never by renaming to a tag
 * of the set): each get gives the elements still under root and still so
 * named, in tree order.
 */
struct bread_tagset {
	const xmlNode *root;
	const char *const *tags;	/* borrowed, NULL-terminated */
	struct nvec *lists;		/* one per tag */
	size_t ntags;
};

/* Walk root once for tags (borrowed: they must outlive ts). */
void bread_tagset_init(struct bread_tagset *ts, xmlNodePtr root,
    const char *const *tags);
/*
 * The same set built as the tree is: start it empty for tags (borrowed),
 * add each element as it is made, in document order (those the set's tags
 * do not name are left out), then set ts->root.  Elements added that end
 * up outside root are never given by bread_tagset_get.
 */
void bread_tagset_start(struct bread_tagset *ts, const char *const *tags);
void bread_tagset_add(struct bread_tagset *ts, xmlNodePtr n);
/*
 * bread_by_tag(under, tag, out) from the set, under being the set's root or
 * an element under it: 1 when tag is one of the set's, 0 (out untouched)
 * when not.
 */
int bread_tagset_get(const struct bread_tagset *ts, const xmlNode *under,
    const char *tag, struct nvec *out);
void bread_tagset_free(struct bread_tagset *ts);
/* 1 when root is a proper ancestor of n. */
int bread_inside(const xmlNode *n, const xmlNode *root);

/* Tree edits without text-node merging. */
void bread_append(xmlNodePtr parent, xmlNodePtr child);
void bread_insert_before(xmlNodePtr ref, xmlNodePtr node);
void bread_replace(xmlNodePtr old, xmlNodePtr node);

/* ECMAScript WhiteSpace or LineTerminator (in line: asked of every character). */
static inline int
bread_js_space(uint32_t c)
{
	if (c < 0x80)
		return c == ' ' || (c >= 0x09 && c <= 0x0D);
	return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
	    c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
	    c == 0x3000 || c == 0xFEFF;
}

/* Decode one code point of valid UTF-8 at s; returns its byte length. */
static inline int
bread_u8(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0 && s[1]) {
		*cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	if ((s[0] & 0xF0) == 0xE0 && s[1] && s[2]) {
		*cp = ((uint32_t)(s[0] & 0x0F) << 12) |
		    ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		return 3;
	}
	if ((s[0] & 0xF8) == 0xF0 && s[1] && s[2] && s[3]) {
		*cp = ((uint32_t)(s[0] & 0x07) << 18) |
		    ((uint32_t)(s[1] & 0x3F) << 12) |
		    ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		return 4;
	}
	*cp = 0xFFFD;
	return 1;
}

/* Length in UTF-16 code units of UTF-8 s[0..n). */
size_t bread_js_len(const char *s, size_t n);

/*
 * Readability.js _getInnerText: textContent trimmed, and with normalize
 * every run of two or more whitespace characters made one space.
 * bread_inner_len gives its length in UTF-16 units without building it.
 */
void bread_inner_text(const xmlNode *n, int normalize, struct buf *out);
size_t bread_inner_len(const xmlNode *n, int normalize);
/*
 * The normalized inner text length (bread_inner_len(n, 1)) in pieces: the
 * summary of each text node, joined in document order, gives the length of
 * their concatenation, so that the lengths of nested elements come from one
 * walk.  len counts the UTF-16 units from the first to the last character
 * that is not white space, each white space run between as one; any is 1
 * when there is such a character; lead and trail are 1 when the text starts
 * or ends with white space (with any == 0: when it has white space at all).
 * All zero is the empty text.
 */
struct bread_tsum {
	size_t len;
	int any, lead, trail;
};

/* The summary of the text s (NUL-terminated UTF-8). */
void bread_tsum_text(const char *s, struct bread_tsum *ts);
/*
 * The summary of text node n's content (none: all zero), kept in n->psvi,
 * which an HTML document leaves unused, after the first call, so that the
 * passes measuring the same text again (_grabArticle's scoring and its link
 * densities, _cleanConditionally) read it there.  Whoever changes a text
 * node's content sets its psvi to NULL.
 */
void bread_tsum_node(const xmlNode *n, struct bread_tsum *ts);
/* a becomes the summary of a's text followed by b's. */
void bread_tsum_cat(struct bread_tsum *a, const struct bread_tsum *b);
/* 1 when n is a text node of textContent (text or CDATA). */
static inline int
bread_is_text(const xmlNode *n)
{
	return n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE;
}
/* 1 when n's textContent has a character that is not white space. */
int bread_has_text(const xmlNode *n);
/* 1 when s (NUL-terminated UTF-8) has a character that is not white space. */
int bread_nonspace(const char *s);
/* Raw textContent (appended) and its UTF-16 length. */
void bread_text_content(const xmlNode *n, struct buf *out);
size_t bread_text_content_len(const xmlNode *n);
/*
 * 1 when a is a heading's anchor link (a generator's permalink, not
 * content): an <a> to a fragment inside an h1-h6, holding only anchor
 * glyphs (white space, zero-width space, ¶, §, #, an icon), beside text of
 * the heading outside it ("Install¶", "Install #"), or the element right after an h1-h6 linking to that heading's
 * id (Starlight's icon with screen-reader text).  A heading whose whole
 * text is a link keeps it.
 */
int bread_heading_anchor(const xmlNode *a);
/*
 * Readability.js _markDataTables for one table: 1 when it holds data (a
 * summary, caption, header cells, enough rows and columns), 0 when it lays
 * out the page (role="presentation", nested tables, one row or column).
 */
int bread_data_table(const xmlNode *t);
/* 1 when n is h1..h6. */
int bread_is_heading(const xmlNode *n);
/* JS String.prototype.trim into a new malloc'd string. */
char *bread_js_trim(const char *s, size_t n);
#endif
