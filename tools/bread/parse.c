/*
 * parse.c - the page parsed by libxml2's HTML parser (parse.h).
 *
 * The text of <script> and <style> elements is near half of a modern
 * page's bytes, and libxml2 (htmlParseScript, 2.9.14) reads it one
 * character at a time: decode the character, test it, copy it into a
 * 1000-byte buffer handed to the cdataBlock callback when full.  Here that
 * callback, after taking the full buffer as libxml2 would, reads on itself
 * through the plain text that follows, hands it over in the same 1000-byte
 * blocks libxml2 would have made, and leaves the input where libxml2
 * would have stopped: at the end tag (a "</" followed by the element's
 * name, in any case), or at the end of the page.  Anything it does not
 * read the same way - a control character, a noncharacter, bytes that are
 * not UTF-8, a text node near libxml2's 10 MB limit - it leaves to libxml2
 * at the last block boundary before it, where libxml2's own buffer is
 * empty too, so the calls the tree is built from are the same calls, with
 * the same bytes, and the tree the same tree.
 *
 * The callback relies on where libxml2 2.9.14 calls it from: inside
 * htmlParseScript's loop, the input on the last character copied (which
 * the loop steps over when the callback returns, counting its line and
 * column).  It is installed only for that version of the library; with any
 * other, libxml2 parses unaided.
 *
 * The startElement callback builds the element as SAX2's would (or calls
 * SAX2's) and adds it to the caller's tag set (dom.h), so that the
 * elements readability.c looks for first are found without walking the
 * tree after the parse.  With 2.9.14 it also reads the text that follows a
 * start tag itself, as the endElement callback does after an empty element
 * (<br>, <img>): libxml2's htmlParseCharData reads text a character at a
 * time too, and the text right after a tag is most of a page's text.
 *
 * Attribute values are read the same way, a character at a time
 * (htmlParseHTMLAttribute), and they are a third of the parse.  Wherever
 * bread has the input and a start tag comes next in the element's content
 * - after the start tag, the text, the empty element or the end tag it
 * hands over as above, and after the text libxml2 reads itself (the
 * characters callback) - read_tag reads the tag's attributes as
 * htmlParseStartTag would read them, and leaves libxml2 only "<name" to
 * read, written over the end of the tag's own bytes, so that its input
 * reaches the startElement call where it would have, with the same line;
 * the callback then gets the attributes read ahead.  Any tag it does not
 * read exactly so (see read_tag) is left as it is, to libxml2.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <libxml/HTMLtree.h>
#include <libxml/SAX2.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlversion.h>
#include "dom.h"
#include "parse.h"
#include "swar.h"
#include "utf8.h"
#include "xmem.h"

/* libxml2's HTML_PARSER_BIG_BUFFER_SIZE: htmlParseScript's block size */
#define SCRIPT_BLOCK 1000
/* libxml2's HTML_PARSER_BUFFER_SIZE: htmlParseHTMLName's longest name */
#define NAME_MAX_LEN 100
/* Stay this far under libxml2's text node limit (XML_MAX_TEXT_LENGTH). */
#define TEXT_LIMIT (XML_MAX_TEXT_LENGTH - 4 * SCRIPT_BLOCK)

/* Where the fast reading of one element's text stands. */
struct scan {
	const unsigned char *at;	/* the next byte */
	const unsigned char *end;	/* the end of the input */
	int line, col;			/* libxml2's count at at */
};

/* 1 when [p, end) starts with "</" and name, ASCII letters in any case. */
static int
end_tag_at(const unsigned char *p, const unsigned char *end, const char *name,
    size_t nlen)
{
	size_t i;

	if (p[0] != '<' || (size_t)(end - p) < nlen + 2 || p[1] != '/')
		return 0;
	for (i = 0; i < nlen; i++) {
		unsigned char a = p[2 + i], b = (unsigned char)name[i];
		if (a >= 'A' && a <= 'Z')
			a = (unsigned char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (unsigned char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return 1;
}

/*
 * The length of the character at p when libxml2 copies it unchanged (tab,
 * line feed, carriage return, U+0020 and up in well-formed UTF-8, but not
 * U+FFFE or U+FFFF), else 0.
 */
static int
plain_char(const unsigned char *p, const unsigned char *end)
{
	size_t room = (size_t)(end - p);
	unsigned char c = p[0];

	if (c >= 0x20 && c < 0x80)
		return 1;
	if (c == '\t' || c == '\n' || c == '\r')
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return room >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (room < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F))
			return 0;
		if (c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (room < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
		    (p[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

/* Past the character of k bytes at p, libxml2's line and column counted
   as it counts them (a line feed starts a line). */
static inline const unsigned char *
step_over(const unsigned char *p, int k, int *line, int *col)
{
	if (*p == '\n') {
		++*line;
		*col = 1;
	} else
		++*col;
	return p + k;
}

/* Hand the block [from, to) to libxml2's SAX2 callback, as htmlParseScript does. */
static void
hand_over(htmlParserCtxtPtr ctxt, const unsigned char *from,
    const unsigned char *to)
{
	if (to > from)
		xmlSAX2CDataBlock(ctxt, from, (int)(to - from));
}

/* The end of the run of printable ASCII but '<' at p, lim at most: eight
   bytes at a time while none is under 0x20, 0x80 or over, or '<'. */
static const unsigned char *
ascii_run(const unsigned char *p, const unsigned char *lim)
{
	uint64_t w, m;

	while (lim - p >= 8) {
		w = swar_load(p);
		m = swar_below(w, 0x20) | swar_high(w) | swar_eq(w, '<');
		if (m != 0)
			return p + swar_first(m);
		p += 8;
	}
	while (p < lim && *p >= 0x20 && *p < 0x80 && *p != '<')
		p++;
	return p;
}

/*
 * Read the element's text from s->at, handing each full block to libxml2's
 * SAX2 callback, to the end tag or the end of the input (the rest handed
 * over too; 1 returned), or to the last block boundary before a character
 * left to libxml2 or past budget bytes (0 returned).  s->at, line and col
 * end where it stopped.
 */
static int
read_text(htmlParserCtxtPtr ctxt, struct scan *s, const char *name, size_t budget)
{
	const unsigned char *start = s->at, *p = s->at, *block = s->at, *lim, *q;
	size_t nlen = strlen(name);
	int line = s->line, col = s->col, k;

	for (;;) {
		/* the common run: printable ASCII but '<', to the block's end */
		lim = s->end - block > SCRIPT_BLOCK ? block + SCRIPT_BLOCK : s->end;
		q = ascii_run(p, lim);
		col += (int)(q - p);
		p = q;
		if (p - block < SCRIPT_BLOCK) {
			if (p == s->end || end_tag_at(p, s->end, name, nlen)) {
				hand_over(ctxt, block, p);
				s->at = p;
				s->line = line;
				s->col = col;
				return 1;
			}
			if ((k = plain_char(p, s->end)) == 0)
				return 0;
			p = step_over(p, k, &line, &col);
		}
		if (p - block >= SCRIPT_BLOCK) {
			hand_over(ctxt, block, p);
			block = s->at = p;
			s->line = line;
			s->col = col;
			if (ctxt->instate == XML_PARSER_EOF || ctxt->disableSAX ||
			    (size_t)(p - start) >= budget)
				return 0;
		}
	}
}

/*
 * The cdataBlock callback: the block libxml2 filled, then the plain text
 * after it, as above.  The input is left one byte before where the reading
 * stopped, with line and column one step back, for libxml2's step over
 * "the last character copied" to land there.
 */
static void
script_block(void *ctx, const xmlChar *v, int len)
{
	htmlParserCtxtPtr ctxt = ctx;
	xmlParserInputPtr in = ctxt->input;
	struct scan s;
	size_t budget;

	xmlSAX2CDataBlock(ctx, v, len);
	/* a block of the loop (the last one, under SCRIPT_BLOCK, is not) */
	if (in == NULL || in->cur == NULL || in->end == NULL || len < SCRIPT_BLOCK ||
	    in->cur >= in->end || *in->cur >= 0x80 || v[len - 1] != *in->cur ||
	    ctxt->token != 0 || ctxt->instate == XML_PARSER_EOF ||
	    ctxt->disableSAX || ctxt->name == NULL ||
	    (strcmp((const char *)ctxt->name, "script") != 0 &&
	    strcmp((const char *)ctxt->name, "style") != 0) ||
	    ctxt->nodelen < 0 || ctxt->nodelen >= TEXT_LIMIT)
		return;
	budget = (size_t)(TEXT_LIMIT - ctxt->nodelen);
	/* the last character copied, which libxml2 has yet to step over */
	s.line = in->line;
	s.col = in->col;
	s.at = step_over(in->cur, 1, &s.line, &s.col);
	s.end = in->end;
	(void)read_text(ctxt, &s, (const char *)ctxt->name, budget);
	if (s.at == in->cur + 1)
		return;
	in->cur = s.at - 1;
	if (*in->cur == '\n') {
		in->line = s.line - 1;
		in->col = s.col;
	} else {
		in->line = s.line;
		in->col = s.col - 1;
	}
}

/*
 * 1 when the element can be built as below: an HTML parse without
 * validation or a dictionary in the tree, below an element, a name
 * without a prefix (xmlSplitQName would split it) and no attribute
 * declared in a DTD (whose value xmlValidCtxtNormalizeAttributeValue
 * would normalize).
 */
static int
plain_start(htmlParserCtxtPtr ctxt, const xmlChar *name)
{
	xmlDocPtr doc = ctxt->myDoc;
	xmlNodePtr parent = ctxt->node;

	if (doc == NULL || doc->children == NULL || doc->dict != NULL ||
	    doc->extSubset != NULL || (doc->intSubset != NULL &&
	    doc->intSubset->attributes != NULL) || !ctxt->html ||
	    ctxt->validate || parent == NULL || parent->doc != doc ||
	    parent->type != XML_ELEMENT_NODE)
		return 0;
	return strchr((const char *)name, ':') == NULL &&
	    strlen((const char *)name) < XML_MAX_NAMELEN;
}

/* A copy of s, as xmlStrdup makes it but with the C library's scans. */
static xmlChar *
copy_str(const xmlChar *s)
{
	size_t n = strlen((const char *)s);
	xmlChar *c = xmlMallocAtomic(n + 1);

	if (c != NULL)
		memcpy(c, s, n + 1);
	return c;
}

/* A new node of the type, as xmlNewNodeEatName and xmlNewText make them. */
static xmlNodePtr
new_node(xmlDocPtr doc, xmlElementType type, const xmlChar *name)
{
	xmlNodePtr n = xmlMalloc(sizeof *n);

	if (n == NULL)
		return NULL;
	memset(n, 0, sizeof *n);
	n->type = type;
	n->name = name;
	n->doc = doc;
	return n;
}

/*
 * The attribute name="value" added to element e, last, as libxml2 2.9.14's
 * xmlSAX2AttributeInternal does for HTML: the name copied; the value as a
 * text child, a copy too, or the name for a boolean attribute without one
 * (htmlIsBooleanAttr), or no child.  0 when out of memory.  With keep,
 * the value itself is the text: libxml2 frees it after the callback, and
 * in the arena (xmem.h) that leaves it where it is.
 */
static int
add_attr(xmlNodePtr e, xmlAttrPtr *last, const xmlChar *name,
    const xmlChar *value, int keep)
{
	xmlAttrPtr a;
	xmlNodePtr t;

	if ((a = xmlMalloc(sizeof *a)) == NULL)
		return 0;
	memset(a, 0, sizeof *a);
	a->type = XML_ATTRIBUTE_NODE;
	a->parent = e;
	a->doc = e->doc;
	if ((a->name = copy_str(name)) == NULL) {
		xmlFree(a);
		return 0;
	}
	if (*last == NULL)
		e->properties = a;
	else {
		(*last)->next = a;
		a->prev = *last;
	}
	*last = a;
	if (value == NULL && htmlIsBooleanAttr(name)) {
		value = name;
		keep = 0;
	}
	if (value == NULL)
		return 1;
	if ((t = new_node(e->doc, XML_TEXT_NODE, xmlStringText)) == NULL)
		return 0;
	t->content = keep ? (xmlChar *)value : copy_str(value);
	if (t->content == NULL) {
		xmlFree(t);
		return 0;
	}
	t->parent = (xmlNodePtr)a;
	a->children = a->last = t;
	return 1;
}

/*
 * xmlSAX2StartElement of libxml2 2.9.14 for what plain_start accepts, the
 * same tree built without its general steps: the node (named by a copy of
 * the name), its line, pushed on the parser's node stack, added as the
 * last child of the current node (unless the push fails), then its
 * attributes in order.
 */
static void
build_element(htmlParserCtxtPtr ctxt, const xmlChar *name, const xmlChar **atts)
{
	xmlNodePtr e, parent = ctxt->node, prev;
	xmlAttrPtr last = NULL;
	xmlChar *copy;
	size_t i;
	int keep;

	if ((copy = copy_str(name)) == NULL)
		return;
	if ((e = new_node(ctxt->myDoc, XML_ELEMENT_NODE, copy)) == NULL) {
		xmlFree(copy);
		return;
	}
	ctxt->nodemem = -1;
	if (ctxt->linenumbers && ctxt->input != NULL)
		e->line = ctxt->input->line < 65535 ?
		    (unsigned short)ctxt->input->line : 65535;
	if (nodePush(ctxt, e) < 0) {
		/* too deep: libxml2 has stopped, and the node is dropped */
		xmlFreeNode(e);
		return;
	}
	e->parent = parent;
	if ((prev = parent->last) == NULL)
		parent->children = e;
	else {
		prev->next = e;
		e->prev = prev;
	}
	parent->last = e;
	if (atts == NULL)
		return;
	keep = bread_xmem_on();
	for (i = 0; atts[i] != NULL; i += 2) {
		ctxt->vctxt.valid = 1;
		if (!add_attr(e, &last, atts[i], atts[i + 1], keep))
			return;
	}
}

/*
 * Just after the start tag of a <script> or <style> (the input on its
 * '>'), the element's text read as script_block reads it, from the first
 * byte: libxml2's htmlParseScript would start there with an empty buffer
 * and hand over the same blocks.  What was read is then put behind the
 * '>' libxml2 is to step over: the '>' is written over the last byte read
 * (already handed over, in the parser's own copy of the page) and the
 * input left on it, with line and column one step back, so that
 * htmlParseScript starts where the reading stopped.  Text that starts with
 * '<' is left to libxml2: its content loop looks at a tag there first (an
 * end tag, or one that closes the element) before it reads the text.
 */
static void
script_start(htmlParserCtxtPtr ctxt, const char *page, size_t len)
{
	xmlParserInputPtr in = ctxt->input;
	struct scan s;

	/* the parser's copy only (2.9.14 copies the page), never the page */
	if (in == NULL || in->cur == NULL || in->end == NULL ||
	    ((const char *)in->cur >= page && (const char *)in->cur < page + len) ||
	    in->end - in->cur < 2 || in->cur[0] != '>' || in->cur[1] == '<' ||
	    ctxt->token != 0 ||
	    ctxt->instate == XML_PARSER_EOF || ctxt->disableSAX ||
	    ctxt->name == NULL || ctxt->node == NULL ||
	    ctxt->node->children != NULL ||
	    (strcmp((const char *)ctxt->name, "script") != 0 &&
	    strcmp((const char *)ctxt->name, "style") != 0))
		return;
	s.line = in->line;
	s.col = in->col + 1;
	s.at = in->cur + 1;
	s.end = in->end;
	(void)read_text(ctxt, &s, (const char *)ctxt->name, TEXT_LIMIT);
	if (s.at == in->cur + 1)
		return;
	in->cur = s.at - 1;
	*(xmlChar *)(uintptr_t)in->cur = '>';
	in->line = s.line;
	in->col = s.col - 1;
}

/* The end of the run of printable ASCII but '<' and '&' at p, lim at most. */
static const unsigned char *
text_run(const unsigned char *p, const unsigned char *lim)
{
	uint64_t w, m;

	while (lim - p >= 8) {
		w = swar_load(p);
		m = swar_below(w, 0x20) | swar_high(w) | swar_eq(w, '<') |
		    swar_eq(w, '&');
		if (m != 0)
			return p + swar_first(m);
		p += 8;
	}
	while (p < lim && *p >= 0x20 && *p < 0x80 && *p != '<' && *p != '&')
		p++;
	return p;
}

/*
 * xmlSAX2Characters of libxml2 2.9.14 for text that makes a new text node
 * - the current element has no child yet, or its last is no text node -
 * in a parse without a dictionary in the tree or a free node list: the
 * node as xmlSAX2TextNode makes it (the text copied as xmlStrndup copies
 * it, the input's line), added last as xmlAddChild adds it, and the
 * parser's count of the text node's length and room.  0 (nothing done)
 * for any other case, which SAX2's own callback is left.
 */
static int
add_text(htmlParserCtxtPtr ctxt, const unsigned char *s, size_t n)
{
	xmlNodePtr parent = ctxt->node, last, t;
	xmlChar *c;

	if (parent == NULL || parent->type != XML_ELEMENT_NODE ||
	    ctxt->freeElems != NULL || ctxt->dictNames || ctxt->myDoc == NULL ||
	    ctxt->myDoc->dict != NULL || parent->doc != ctxt->myDoc ||
	    ctxt->input == NULL || ctxt->input->line >= 65535 ||
	    ((last = parent->last) != NULL && last->type == XML_TEXT_NODE))
		return 0;
	if ((c = xmlMallocAtomic(n + 1)) == NULL)
		return 0;
	if ((t = new_node(parent->doc, XML_TEXT_NODE, xmlStringText)) == NULL) {
		xmlFree(c);
		return 0;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	t->content = c;
	if (ctxt->linenumbers)
		t->line = (unsigned short)ctxt->input->line;
	t->parent = parent;
	if (last == NULL)
		parent->children = t;
	else {
		last->next = t;
		t->prev = last;
	}
	parent->last = t;
	ctxt->nodelen = (int)n;
	ctxt->nodemem = (int)n + 1;
	return 1;
}

/*
 * Hand the text at the input, read up to a '<' or a '&', to SAX2's
 * characters callback as libxml2 2.9.14's htmlParseCharData would: in one
 * call when it is under a block (SCRIPT_BLOCK) and all plain characters,
 * the input line at its end; the input then left on that end, s->at, with
 * s->line and s->col libxml2's count there.  0 (and nothing done) when the
 * text is not such text.  htmlParseCharData also calls htmlCheckParagraph
 * and areBlanks, which do nothing to the tree when the parser keeps
 * blanks and its element, name, is neither html nor head: the caller
 * sees to that.
 */
static int
hand_text(htmlParserCtxtPtr ctxt, struct scan *s)
{
	const unsigned char *start = s->at, *p = s->at, *lim, *q;
	xmlChar buf[SCRIPT_BLOCK + 1];
	int line = s->line, col = s->col, k;
	size_t n;

	lim = s->end - start > SCRIPT_BLOCK ? start + SCRIPT_BLOCK : s->end;
	for (;;) {
		q = text_run(p, lim);
		col += (int)(q - p);
		p = q;
		if (p >= lim)
			return 0;
		if (*p == '<' || *p == '&')
			break;
		if ((k = plain_char(p, s->end)) == 0 || p + k >= lim)
			return 0;
		p = step_over(p, k, &line, &col);
	}
	if (p == start)
		return 0;
	/* libxml2's own buffer, ended by a NUL, and the line of its end */
	n = (size_t)(p - start);
	ctxt->input->line = line;
	ctxt->input->col = col;
	if (!add_text(ctxt, start, n)) {
		memcpy(buf, start, n);
		buf[n] = '\0';
		xmlSAX2Characters(ctxt, buf, (int)n);
	}
	s->at = p;
	s->line = line;
	s->col = col;
	return 1;
}

static void text_chars(void *ctx, const xmlChar *ch, int len);

/* 1 when the parser reads text in element name as hand_text does. */
static int
text_parent(htmlParserCtxtPtr ctxt, const xmlChar *name)
{
	const char *n = (const char *)name;

	if (name == NULL || ctxt->token != 0 || ctxt->instate == XML_PARSER_EOF ||
	    ctxt->disableSAX || !ctxt->keepBlanks || ctxt->dictNames ||
	    ctxt->sax == NULL || (ctxt->sax->characters != xmlSAX2Characters &&
	    ctxt->sax->characters != text_chars))
		return 0;
	if (n[0] == 'h')
		return strcmp(n, "html") != 0 && strcmp(n, "head") != 0;
	if (n[0] == 's')
		return strcmp(n, "script") != 0 && strcmp(n, "style") != 0;
	return 1;
}

/* What the startElement callback is given (the parser's _private). */
struct start_user {
	struct bread_tagset *ts;	/* the tag set to add to */
	int build;			/* 1: build_element may build */
	const char *page;		/* the page parsed, len bytes */
	size_t len;
	const xmlChar *name[64];	/* element names seen, by their hash */
	char empty[64];			/* and whether libxml2 has them empty */
	const xmlChar *kname[64];	/* element names seen, by their hash */
	size_t k[64];			/* and the tag of ts they are, or ntags */
	/* the start tag read ahead (read_tag), for start_element to take */
	int tag_on;			/* 1: a tag read ahead is waiting */
	unsigned long tag_at;		/* the input at its startElement, as
					   consumed + offset in the buffer */
	char tag_name[NAME_MAX_LEN + 1];	/* its name, lowercased */
	char names[4096];		/* its attributes' names, lowercased */
	size_t names_len;		/* bytes of names in use */
	const xmlChar **atts;		/* its attributes, NULL-ended pairs */
	size_t natts, maxatts;		/* atts in use, and room for them */
};

/* 1 when libxml2's table has element name empty (htmlTagLookup), cached. */
static int
void_element(struct start_user *u, const xmlChar *name)
{
	size_t h = ((uintptr_t)name >> 4) & 63;
	const htmlElemDesc *d;

	if (u->name[h] != name) {
		d = htmlTagLookup(name);
		u->name[h] = name;
		u->empty[h] = d != NULL && d->empty;
	}
	return u->empty[h];
}

/* The parser's input, when it is the parser's copy of the page. */
static xmlParserInputPtr
own_input(htmlParserCtxtPtr ctxt, const struct start_user *u)
{
	xmlParserInputPtr in = ctxt->input;

	if (in == NULL || in->cur == NULL || in->end == NULL ||
	    in->cur >= in->end || ((const char *)in->cur >= u->page &&
	    (const char *)in->cur < u->page + u->len))
		return NULL;
	return in;
}

static void start_element(void *ctx, const xmlChar *name, const xmlChar **atts);

/*
 * Classes of bytes: htmlParseHTMLName's name characters (NAME_CH) and
 * first characters (NAME_START), IS_BLANK_CH (BLANK_CH).
 */
#define NAME_CH 1
#define NAME_START 2
#define BLANK_CH 4
static const unsigned char byte_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 0, 0, 4, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0, 0, 0, 0, 0,
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 3,
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static inline int
blank(unsigned char c)
{
	return byte_class[c] & BLANK_CH;
}

static inline int
ascii_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The name htmlParseHTMLName reads at p, lowercased as it lowercases it,
 * into to (NAME_MAX_LEN + 1 bytes), NUL-ended; returns its length: 0 for
 * none, NAME_MAX_LEN for one libxml2 would cut there.
 */
static size_t
read_name(char *to, const unsigned char *p)
{
	size_t i;

	if (!(byte_class[p[0]] & NAME_START))
		return 0;
	for (i = 0; i < NAME_MAX_LEN && (byte_class[p[i]] & NAME_CH); i++)
		to[i] = (char)(p[i] + ((unsigned)(p[i] - 'A') < 26u) * 0x20);
	to[i] = '\0';
	return i;
}

/* Past the blanks at p, as htmlSkipBlankChars. */
static inline unsigned char *
skip_blanks(unsigned char *p)
{
	while (byte_class[*p] & BLANK_CH)
		p++;
	return p;
}

/*
 * The end of the plain run of an attribute value from p (just after its
 * opening quote, or at its first byte when stop is 0), as
 * htmlParseHTMLAttribute reads it: at stop, or, with stop 0, at a blank or
 * '>', or at a reference ('&'); NULL at what that function reads
 * otherwise - a NUL, a character libxml2 reports or decodes otherwise
 * (plain_char) - or at the end of the input.
 */
static unsigned char *
value_end(unsigned char *p, const unsigned char *end, unsigned char stop)
{
	unsigned char c;
	uint64_t w, m;
	int k;

	for (;;) {
		while (end - p >= 8) {
			w = swar_load(p);
			m = swar_below(w, 0x20) | swar_high(w) | swar_eq(w, '&') |
			    swar_eq(w, stop ? stop : '>');
			if (stop == 0)
				m |= swar_eq(w, ' ');
			if (m != 0) {
				p += swar_first(m);
				break;
			}
			p += 8;
		}
		c = *p;
		if (c >= 0x20 && c < 0x80 && c != '&' && c != stop &&
		    (stop != 0 || (c != ' ' && c != '>'))) {
			p++;
			continue;
		}
		if (p >= end || c == 0)
			return NULL;
		if (c == '&' || c == stop || (stop == 0 && (blank(c) || c == '>')))
			return p;
		if ((k = plain_char(p, end)) == 0)
			return NULL;
		p += k;
	}
}

/* A value being decoded: bytes, room, length. */
struct vbuf {
	xmlChar *s;
	size_t cap, len;
};

static int
vbuf_add(struct vbuf *b, const void *p, size_t n)
{
	xmlChar *t;
	size_t cap;

	if (b->cap - b->len <= n) {
		cap = 2 * b->cap + n + 1;
		if ((t = xmlRealloc(b->s, cap)) == NULL)
			return 0;
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	return 1;
}

/*
 * c in UTF-8, as htmlParseHTMLAttribute writes it: c is a character libxml2
 * takes (xml_char) or an entity's, for which utf8_encode writes the same
 * bytes.
 */
static int
vbuf_char(struct vbuf *b, unsigned int c)
{
	char u[4];
	int n = utf8_encode(c, u);

	return n > 0 && vbuf_add(b, u, (size_t)n);
}

/* IS_CHAR */
static int
xml_char(unsigned int c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
	    (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

static int
name_start(unsigned char c)
{
	return ascii_letter(c) || c == '_' || c == ':';
}

/*
 * The reference at p ('&') in an attribute value, decoded into b as
 * htmlParseHTMLAttribute decodes it: a character reference ("&#" digits,
 * or "&#x" hex digits, then ';', of a character libxml2 takes) as its
 * character; an entity reference by htmlParseEntityRef - an ASCII name
 * (htmlParseName's) followed by ';' and found by htmlEntityLookup as its
 * character, past the ';'; otherwise '&' and the name, the rest read on
 * after the name; a '&' before no name as itself.  Returns where the
 * reading goes on, NULL for a reference it leaves to libxml2 (one whose
 * value libxml2 reads as a NUL, or a name in other characters).
 */
static unsigned char *
value_ref(struct vbuf *b, unsigned char *p, const unsigned char *end)
{
	unsigned char *q;
	unsigned int val = 0;
	const htmlEntityDesc *ent;
	char name[33];
	size_t n;

	if (p[1] == '#') {
		if (p[2] == 'x' || p[2] == 'X') {
			for (q = p + 3;; q++) {
				unsigned d;

				if (*q >= '0' && *q <= '9')
					d = *q - '0';
				else if (*q >= 'a' && *q <= 'f')
					d = *q - 'a' + 10;
				else if (*q >= 'A' && *q <= 'F')
					d = *q - 'A' + 10;
				else
					break;
				if (val < 0x110000)
					val = val * 16 + d;
			}
		} else {
			for (q = p + 2; *q >= '0' && *q <= '9'; q++)
				if (val < 0x110000)
					val = val * 10 + (unsigned)(*q - '0');
		}
		if (*q != ';' || !xml_char(val) || !vbuf_char(b, val))
			return NULL;
		return q + 1;
	}
	q = p + 1;
	if (!name_start(*q)) {
		/* htmlParseNameComplex finds no name at an ASCII character */
		if (*q == 0 || *q >= 0x80)
			return NULL;
		return vbuf_add(b, "&", 1) ? q : NULL;
	}
	while (ascii_letter(*q) || (*q >= '0' && *q <= '9') || *q == '_' ||
	    *q == '-' || *q == ':' || *q == '.')
		q++;
	if (q >= end || *q == 0 || *q >= 0x80)
		return NULL;
	n = (size_t)(q - p - 1);
	if (*q == ';' && n < sizeof name) {
		memcpy(name, p + 1, n);
		name[n] = '\0';
		if ((ent = htmlEntityLookup((const xmlChar *)name)) != NULL)
			return vbuf_char(b, ent->value) ? q + 1 : NULL;
	} else if (*q == ';')
		return NULL;
	return vbuf_add(b, p, n + 1) ? q : NULL;
}

/*
 * The attribute value at p, read as htmlParseAttValue reads it (stop the
 * quote, 0 for none), in a new string in *v; returns where the reading
 * ended (on the closing quote, or the blank or '>' after an unquoted
 * value), or NULL when the value is left to libxml2 (value_end, value_ref).
 */
static unsigned char *
read_value(unsigned char *p, const unsigned char *end, unsigned char stop,
    xmlChar **v)
{
	unsigned char *q;
	struct vbuf b;

	if ((q = value_end(p, end, stop)) == NULL)
		return NULL;
	if (*q != '&') {
		if ((*v = xmlMallocAtomic((size_t)(q - p) + 1)) == NULL)
			return NULL;
		memcpy(*v, p, (size_t)(q - p));
		(*v)[q - p] = '\0';
		return q;
	}
	b.cap = (size_t)(q - p) + 64;
	b.len = 0;
	if ((b.s = xmlMallocAtomic(b.cap)) == NULL)
		return NULL;
	for (;;) {
		if (!vbuf_add(&b, p, (size_t)(q - p)))
			goto fail;
		if (*q != '&')
			break;
		if ((p = value_ref(&b, q, end)) == NULL ||
		    (q = value_end(p, end, stop)) == NULL)
			goto fail;
	}
	b.s[b.len] = '\0';
	*v = b.s;
	return q;
fail:
	xmlFree(b.s);
	return NULL;
}

/* One attribute pair more in u->atts, NULL-ended twice as libxml2's. */
static int
add_pair(struct start_user *u, const xmlChar *name, xmlChar *value)
{
	const xmlChar **n;
	size_t cap;

	if (u->natts + 4 > u->maxatts) {
		cap = u->maxatts ? 2 * u->maxatts : 22;
		if ((n = xmlRealloc((void *)u->atts, cap * sizeof *n)) == NULL)
			return 0;
		u->atts = n;
		u->maxatts = cap;
	}
	u->atts[u->natts++] = name;
	u->atts[u->natts++] = value;
	u->atts[u->natts] = NULL;
	u->atts[u->natts + 1] = NULL;
	return 1;
}

/* The values of u's attributes freed (as htmlParseStartTag frees them
   after its startElement call), and none left. */
static void
drop_atts(struct start_user *u)
{
	size_t i;

	for (i = 1; i < u->natts; i += 2)
		xmlFree((xmlChar *)(uintptr_t)u->atts[i]);
	u->natts = 0;
	u->tag_on = 0;
	u->names_len = 0;
}

/*
 * The start tag at t ('<', in the parser's copy of the page), which
 * libxml2 2.9.14's content loop is to read next with line and col its
 * count at t, read ahead here as htmlParseStartTag would read it: the
 * name, then attribute after attribute by htmlParseAttribute (the name by
 * htmlParseHTMLName, the value by htmlParseAttValue, quoted or not), a
 * name read twice dropped, what is no name skipped to the next blank or
 * the end of the tag, to the tag's '>' or "/>".  The attributes are kept
 * in u, for start_element to hand to the startElement callback in place
 * of the none libxml2 then finds, for libxml2 is left to read only '<'
 * and the name, written just before where the attributes ended: its input
 * stands where it would have stood at its startElement call, with the
 * same line.  Returns that '<', *line and *col set to libxml2's count
 * there; NULL when the tag is left to libxml2 as it is: a name not
 * followed by a blank, or one libxml2 would cut, a <meta> unless the
 * parser ignores the charsets pages declare (htmlCheckMeta reads its
 * attributes, and does nothing then), a value value_end leaves, the end of
 * the input before the tag's end, or a line feed in the tag unless
 * lines_ok (the elements libxml2 implies before the attributes are read
 * take the line it is on).
 */
static unsigned char *
read_tag(htmlParserCtxtPtr ctxt, struct start_user *u, xmlParserInputPtr in,
    unsigned char *t, int *line, int *col, int lines_ok)
{
	const unsigned char *end = in->end;
	unsigned char *p, *q;
	const xmlChar *aname;
	char tname[NAME_MAX_LEN + 1];
	xmlChar *value;
	size_t nlen, alen, i;
	int l, c;

	/* a buffer libxml2 neither converts nor reads more into */
	if (in->buf == NULL || in->buf->encoder != NULL || in->base == NULL ||
	    *end != 0 || end - t < 4 || t[0] != '<' || !ascii_letter(t[1]))
		return NULL;
	nlen = read_name(tname, t + 1);
	if (nlen >= NAME_MAX_LEN || !blank(t[1 + nlen]))
		return NULL;
	if (strcmp(tname, "meta") == 0 && !(ctxt->options & HTML_PARSE_IGNORE_ENC))
		return NULL;
	drop_atts(u);
	memcpy(u->tag_name, tname, nlen + 1);
	p = skip_blanks(t + 1 + nlen);
	while (*p != '>' && (*p != '/' || p[1] != '>')) {
		if (p >= end || *p == 0)
			goto leave;
		if (sizeof u->names - u->names_len <= NAME_MAX_LEN)
			goto leave;
		alen = read_name(u->names + u->names_len, p);
		if (alen == 0) {
			/* no name: skipped to a blank or the tag's end */
			while (!blank(*p) && *p != '>' && (*p != '/' || p[1] != '>')) {
				int k;

				if (p >= end || *p == 0 || (k = plain_char(p, end)) == 0)
					goto leave;
				p += k;
			}
			p = skip_blanks(p);
			continue;
		}
		if (alen >= NAME_MAX_LEN)
			goto leave;
		aname = (const xmlChar *)u->names + u->names_len;
		p = skip_blanks(p + alen);
		value = NULL;
		if (*p == '=') {
			p = skip_blanks(p + 1);
			if (*p == '"' || *p == '\'') {
				if ((q = read_value(p + 1, end, *p, &value)) == NULL)
					goto leave;
				p = q + 1;
			} else {
				if ((q = read_value(p, end, 0, &value)) == NULL)
					goto leave;
				p = q;
			}
		}
		for (i = 0; i < u->natts; i += 2)
			if (strcmp((const char *)u->atts[i], (const char *)aname) == 0)
				break;
		if (i < u->natts)
			xmlFree(value);
		else if (!add_pair(u, aname, value)) {
			xmlFree(value);
			goto leave;
		} else
			u->names_len += alen + 1;
		p = skip_blanks(p);
	}
	/* p is where libxml2's input stands at its startElement call */
	l = *line;
	c = *col;
	for (q = t; q < p; q++) {
		while (p - q >= 8) {
			uint64_t m = swar_below(swar_load(q), 0x20) |
			    swar_high(swar_load(q));

			if (m != 0) {
				c += (int)swar_first(m);
				q += swar_first(m);
				break;
			}
			q += 8;
			c += 8;
		}
		if (q >= p)
			break;
		if (*q == '\n') {
			if (!lines_ok)
				goto leave;
			l++;
			c = 1;
		} else if ((*q & 0xC0) != 0x80)
			c++;
	}
	u->tag_on = 1;
	u->tag_at = in->consumed + (unsigned long)(p - in->base);
	memmove(p - nlen, t + 1, nlen);
	p -= nlen + 1;
	*p = '<';
	*line = l;
	*col = c - (int)(nlen + 1);
	return p;
leave:
	drop_atts(u);
	return NULL;
}

/* 1 when the parser reads a tag in element name as read_tag expects it
   to (not as the text of a script or style) and keeps to what read_tag
   reproduces. */
static int
tag_parent(htmlParserCtxtPtr ctxt, const xmlChar *name)
{
	const char *n = (const char *)name;

	if (name == NULL || ctxt->token != 0 || ctxt->instate == XML_PARSER_EOF ||
	    ctxt->disableSAX || ctxt->record_info || ctxt->dict == NULL ||
	    ctxt->charset != XML_CHAR_ENCODING_UTF8 || ctxt->sax == NULL ||
	    ctxt->sax->startElement != start_element)
		return 0;
	return n[0] != 's' ||
	    (strcmp(n, "script") != 0 && strcmp(n, "style") != 0);
}

/*
 * Just after the start tag of an element that is not empty (the input on
 * its '>', a tag of the page: its name is the dictionary's, where the
 * elements libxml2 implies have names of its own), the text libxml2 would
 * read next, handed over by hand_text and put behind the '>' as
 * script_start does.
 */
static void
text_after_start(htmlParserCtxtPtr ctxt, struct start_user *u,
    const xmlChar *name)
{
	xmlParserInputPtr in;
	struct scan s;
	int line, col;

	if ((in = own_input(ctxt, u)) == NULL || in->end - in->cur < 2 ||
	    in->cur[0] != '>' || in->cur[1] == '<' || in->cur[1] == '&' ||
	    ctxt->name != name || !text_parent(ctxt, name) ||
	    !xmlDictOwns(ctxt->dict, name) || void_element(u, name))
		return;
	line = in->line;
	col = in->col;
	s.line = line;
	s.col = col + 1;
	s.at = in->cur + 1;
	s.end = in->end;
	if (!hand_text(ctxt, &s)) {
		in->line = line;
		in->col = col;
		return;
	}
	in->cur = s.at - 1;
	*(xmlChar *)(uintptr_t)in->cur = '>';
	in->line = s.line;
	in->col = s.col - 1;
}

/* The tag at the input read by read_tag, and the input moved to what it
 * left libxml2 to read. */
static void
tag_here(htmlParserCtxtPtr ctxt, struct start_user *u, xmlParserInputPtr in,
    int lines_ok)
{
	unsigned char *t;
	int line = in->line, col = in->col;

	t = read_tag(ctxt, u, in, (unsigned char *)(uintptr_t)in->cur, &line,
	    &col, lines_ok);
	if (t != NULL) {
		in->cur = t;
		in->line = line;
		in->col = col;
	}
}

/*
 * Just after the start tag of an element that is not empty, when the
 * input is on its '>' (or on the '>' text_after_start moved after the
 * text) and a tag follows: the tag read by read_tag, and the '>' libxml2
 * is to step over written just before what read_tag left it to read.
 */
static void
tag_after_start(htmlParserCtxtPtr ctxt, struct start_user *u,
    const xmlChar *name)
{
	xmlParserInputPtr in;
	unsigned char *t;
	int line, col;

	if ((in = own_input(ctxt, u)) == NULL || in->end - in->cur < 2 ||
	    in->cur[0] != '>' || in->cur[1] != '<' || ctxt->name != name ||
	    !tag_parent(ctxt, name) || !xmlDictOwns(ctxt->dict, name) ||
	    void_element(u, name))
		return;
	line = in->line;
	col = in->col + 1;
	t = read_tag(ctxt, u, in, (unsigned char *)(uintptr_t)in->cur + 1,
	    &line, &col, ctxt->html >= 10 && ctxt->nameNr >= 1);
	if (t == NULL)
		return;
	in->cur = t - 1;
	*(xmlChar *)(uintptr_t)in->cur = '>';
	in->line = line;
	in->col = col - 1;
}

/*
 * 1 when the input is just after "</name>", name in any case: the end tag
 * htmlParseEndTag has read, which names the element it ends itself (the
 * elements htmlAutoCloseOnClose ends before it have other names).
 */
static int
after_end_tag(xmlParserInputPtr in, const xmlChar *name)
{
	size_t n = strlen((const char *)name);

	if (in->base == NULL || (size_t)(in->cur - in->base) < n + 3)
		return 0;
	return in->cur[-1] == '>' &&
	    end_tag_at(in->cur - n - 3, in->cur, (const char *)name, n);
}

/*
 * The endElement callback: SAX2's, then, for an element ended where
 * libxml2 2.9.14 ends it just after a tag - an empty element in
 * htmlParseElementInternal after its start tag, or any in htmlParseEndTag
 * after its end tag, the input after the '>' - the text libxml2 would read
 * next in the element around it, which htmlnamePop is about to make the
 * current one, handed over by hand_text.
 */
static void
end_element(void *ctx, const xmlChar *name)
{
	htmlParserCtxtPtr ctxt = ctx;
	struct start_user *u = ctxt->_private;
	xmlParserInputPtr in;
	const xmlChar *parent;
	struct scan s;
	int line, col;

	xmlSAX2EndElement(ctx, name);
	if ((in = own_input(ctxt, u)) == NULL || in->cur == in->base ||
	    in->cur[-1] != '>' || name == NULL || ctxt->name != name ||
	    ctxt->nameNr < 2 || ctxt->nameTab[ctxt->nameNr - 1] != name ||
	    (!void_element(u, name) && !after_end_tag(in, name)))
		return;
	parent = ctxt->nameTab[ctxt->nameNr - 2];
	if (in->cur[0] != '<' && in->cur[0] != '&' && text_parent(ctxt, parent)) {
		line = in->line;
		col = in->col;
		s.line = line;
		s.col = col;
		s.at = in->cur;
		s.end = in->end;
		if (!hand_text(ctxt, &s)) {
			in->line = line;
			in->col = col;
			return;
		}
		in->cur = s.at;
		in->line = s.line;
		in->col = s.col;
	}
	if (in->cur[0] == '<' && in->cur < in->end && tag_parent(ctxt, parent)) {
		/* html never closes by a later tag: with one under it, and a
		   <body> seen, libxml2 implies no element before the tag */
		tag_here(ctxt, u, in, ctxt->html >= 10 && ctxt->nameNr >= 2);
	}
}

/*
 * Element n, just made for the startElement call of name, to the tag set
 * as bread_tagset_add adds it, which of the set's tags it is found once
 * for each name libxml2 hands over (a name of its dictionary, or one of
 * its own, the same string for the parse: the element made of it has the
 * same name each time).
 */
static void
add_tag(struct start_user *u, const xmlChar *name, xmlNodePtr n)
{
	size_t h = ((uintptr_t)name >> 4) & 63, k;

	if (name == NULL || n->type != XML_ELEMENT_NODE || n->name == NULL) {
		bread_tagset_add(u->ts, n);
		return;
	}
	if (u->kname[h] != name) {
		for (k = 0; k < u->ts->ntags; k++)
			if (bread_tag_is(n, u->ts->tags[k]))
				break;
		u->kname[h] = name;
		u->k[h] = k;
	}
	if (u->k[h] < u->ts->ntags)
		bread_nvec_push(&u->ts->lists[u->k[h]], n);
}

/*
 * The characters callback: SAX2's, then, when the text libxml2 read
 * itself (htmlParseCharData, or a reference) ends at a tag - its content
 * loop is to read the tag next, in the current element - the tag read by
 * read_tag.  (Where htmlParseCharData hands over a full buffer, the input
 * is on the last character copied, never a '<'.)
 */
static void
text_chars(void *ctx, const xmlChar *ch, int len)
{
	htmlParserCtxtPtr ctxt = ctx;
	struct start_user *u = ctxt->_private;
	xmlParserInputPtr in;

	xmlSAX2Characters(ctx, ch, len);
	if ((in = own_input(ctxt, u)) == NULL || in->cur[0] != '<' ||
	    !tag_parent(ctxt, ctxt->name))
		return;
	tag_here(ctxt, u, in, ctxt->html >= 10 && ctxt->nameNr >= 1);
}

/*
 * The startElement callback: the element built by build_element where it
 * can, else by SAX2's; then the new element to the tag set.
 */
static void
start_element(void *ctx, const xmlChar *name, const xmlChar **atts)
{
	htmlParserCtxtPtr ctxt = ctx;
	struct start_user *u = ctxt->_private;
	xmlNodePtr before = ctxt->node;
	int taken = 0;

	/* the tag read_tag read: its attributes, which libxml2 did not see */
	if (u->tag_on && atts == NULL && name != NULL &&
	    ctxt->input != NULL && ctxt->input->base != NULL &&
	    ctxt->input->consumed + (unsigned long)(ctxt->input->cur -
	    ctxt->input->base) == u->tag_at &&
	    strcmp((const char *)name, u->tag_name) == 0) {
		taken = 1;
		if (u->natts > 0)
			atts = u->atts;
	}
	if (u->build && name != NULL && plain_start(ctxt, name))
		build_element(ctxt, name, atts);
	else
		xmlSAX2StartElement(ctx, name, atts);
	if (taken)
		drop_atts(u);
	if (ctxt->node != NULL && ctxt->node != before) {
		add_tag(u, name, ctxt->node);
		if (u->build) {
			script_start(ctxt, u->page, u->len);
			text_after_start(ctxt, u, name);
			tag_after_start(ctxt, u, name);
		}
	}
}

htmlDocPtr
bread_parse(const char *utf8, size_t len, struct bread_tagset *ts)
{
	return bread_parse_dict(utf8, len, ts, NULL);
}

htmlDocPtr
bread_parse_dict(const char *utf8, size_t len, struct bread_tagset *ts,
    xmlDictPtr dict)
{
	htmlParserCtxtPtr ctxt;
	htmlDocPtr doc;
	struct start_user u;

	if (len > (size_t)INT_MAX)
		len = INT_MAX;
	ctxt = htmlCreateMemoryParserCtxt(utf8, (int)len);
	if (ctxt == NULL)
		return NULL;
	if (dict != NULL) {
		/* as libxml2's xmlParseInNodeContext: the names in dict's */
		xmlDictFree(ctxt->dict);
		ctxt->dict = dict;
		xmlDictReference(dict);
	}
	htmlCtxtUseOptions(ctxt, BREAD_PARSE_OPTIONS);
	ctxt->loadsubset |= XML_SKIP_IDS;
	/*
	 * Declaring the input UTF-8 parses it without a conversion pass:
	 * htmlReadMemory(..., "UTF-8", ...) would copy every byte through
	 * libxml2's UTF-8 encoder for the same tree.
	 */
	xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
	u.ts = ts;
	u.build = 0;
	u.page = utf8;
	u.len = len;
	memset(u.name, 0, sizeof u.name);
	memset(u.kname, 0, sizeof u.kname);
	u.tag_on = 0;
	u.tag_at = 0;
	u.tag_name[0] = '\0';
	u.names_len = 0;
	u.atts = NULL;
	u.natts = u.maxatts = 0;
	if (strcmp(xmlParserVersion, "20914") == 0 && ctxt->sax != NULL &&
	    ctxt->sax->cdataBlock == xmlSAX2CDataBlock)
		ctxt->sax->cdataBlock = script_block;
	/* build_element reproduces 2.9.14, which calls no node hook here */
	if (strcmp(xmlParserVersion, "20914") == 0 &&
	    xmlRegisterNodeDefaultValue == NULL)
		u.build = 1;
	if (ts != NULL && ctxt->sax != NULL &&
	    ctxt->sax->startElement == xmlSAX2StartElement) {
		ctxt->_private = &u;
		ctxt->sax->startElement = start_element;
		if (u.build && ctxt->sax->endElement == xmlSAX2EndElement)
			ctxt->sax->endElement = end_element;
		if (u.build && ctxt->sax->characters == xmlSAX2Characters)
			ctxt->sax->characters = text_chars;
	}
	htmlParseDocument(ctxt);
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	if (ts != NULL && ctxt->_private != &u) {
		/* libxml2's callback was not SAX2's: find them by a walk */
		bread_tagset_free(ts);
		bread_tagset_init(ts, doc ? xmlDocGetRootElement(doc) : NULL, ts->tags);
	} else if (ts != NULL)
		ts->root = doc ? xmlDocGetRootElement(doc) : NULL;
	drop_atts(&u);
	xmlFree((void *)u.atts);
	htmlFreeParserCtxt(ctxt);
	return doc;
}
