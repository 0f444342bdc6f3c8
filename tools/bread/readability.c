/*
 * readability.c - main-content extraction modelled on Mozilla
 * Readability.js at upstream commit ab4027a8 (2026-07-09, package version
 * 0.6.0; github.com/mozilla/readability), written for libxml2 trees.  The
 * departures, each marked "Not in Readability.js", are the text rules of
 * bread(1).  Condition A of the study used SmartReader, a .NET port of
 * Readability.js, so the aim is to behave like Readability.js, neither
 * better nor worse (issue 4, 001 §7.1).  Each function names the
 * Readability.js function whose behaviour it reproduces.
 *
 * Flow (Readability.js parse()): unwrap <noscript> images, read JSON-LD,
 * remove scripts, prepare the document (styles, <br> chains, <font>), read
 * the metadata (title, byline, excerpt), then _grabArticle: strip unlikely
 * candidates, score paragraphs, propagate scores to ancestors, pick the top
 * candidate and its siblings, clean the result (_prepArticle), and retry
 * with fewer flags while the text is under charThreshold (500) characters.
 *
 * Removed nodes are not freed at once: they go to a graveyard freed when
 * the page is done, since lists gathered earlier may still point at them
 * (as in a garbage-collected DOM).
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include <strings.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include "ctx.h"
#include "bread.h"
#include "dom.h"
#include "parse.h"
#include "rd.h"
#include "swar.h"
#include "xmem.h"

#define FLAG_STRIP_UNLIKELYS 1
#define FLAG_WEIGHT_CLASSES 2
#define FLAG_CLEAN_CONDITIONALLY 4
#define N_TOP_CANDIDATES 5
#define DEFAULT_CHAR_THRESHOLD 500

/* ---------------------------------------------------------------- state */

struct rinfo {
	double score;
	double ld;		/* link density, when ld_state is LD_DONE */
	int datatable;		/* _readabilityDataTable: -1 unset, 0, 1 */
	int ld_state;		/* LD_NONE, LD_WANTED by top_candidates, LD_DONE */
};

enum { LD_NONE, LD_WANTED, LD_DONE };

#define ARENA_BLOCK 1024
struct arena {
	struct rinfo *blocks[4096];
	size_t nblocks, used;
};

struct rd {
	htmlDocPtr doc;
	int flags;
	char *title;		/* _articleTitle (metadata.title) */
	char *byline;		/* _articleByline */
	char *meta_byline;	/* metadata.byline */
	char *meta_excerpt;	/* metadata.excerpt */
	struct nvec grave;	/* removed nodes, freed at the end */
	struct arena arena;
	struct nvec infos;	/* nodes whose _private we set */
	struct buf tmp;
	const struct bread_tagset *tags;	/* by_tag's, while one is in force */
	const char *utf8;	/* the page, parsed again for a retry */
	size_t len;
	htmlDocPtr redo[3];	/* the documents parsed for retries */
	size_t nredo;
};

static void
bury(struct rd *rd, xmlNodePtr n)
{
	xmlUnlinkNode(n);
	bread_nvec_push(&rd->grave, n);
}

/*
 * bread_by_tag(root, tag, out), from rd's tag set when one is in force for
 * root or an ancestor of it, with tag among its tags.
 */
static void
by_tag(const struct rd *rd, xmlNodePtr root, const char *tag, struct nvec *out)
{
	if (rd->tags != NULL && (rd->tags->root == root ||
	    bread_inside(root, rd->tags->root)) &&
	    bread_tagset_get(rd->tags, root, tag, out))
		return;
	bread_by_tag(root, tag, out);
}

static struct rinfo *
info_get(const xmlNode *n)
{
	return (struct rinfo *)n->_private;
}

static struct rinfo *
info_new(struct rd *rd, xmlNodePtr n)
{
	struct arena *a = &rd->arena;
	struct rinfo *r;

	if (n->_private)
		return n->_private;
	if (a->nblocks == 0 || a->used == ARENA_BLOCK) {
		if (a->nblocks == sizeof a->blocks / sizeof a->blocks[0]) {
			/* out of arena: reuse a static sink (scores go wrong, memory stays bounded) */
			static struct rinfo sink;
			sink.score = 0;
			sink.datatable = -1;
			sink.ld_state = LD_NONE;
			return &sink;
		}
		a->blocks[a->nblocks++] = xcalloc(ARENA_BLOCK, sizeof(struct rinfo));
		a->used = 0;
	}
	r = &a->blocks[a->nblocks - 1][a->used++];
	r->score = 0;
	r->datatable = -1;
	r->ld_state = LD_NONE;
	n->_private = r;
	bread_nvec_push(&rd->infos, n);
	return r;
}

/* ---------------------------------------------------------------- regexes */

/* ASCII lower-case copy of s into b. */
static const char *
lower(struct buf *b, const char *s)
{
	size_t i;

	buf_reset(b);
	buf_adds(b, s ? s : "");
	for (i = 0; i < b->len; i++)
		if (b->s[i] >= 'A' && b->s[i] <= 'Z')
			b->s[i] = (char)(b->s[i] - 'A' + 'a');
	return buf_str(b);
}

/* The bytes of a string, as a set: bit c of seen[c / 64]. */
struct byteset {
	uint64_t seen[4];
};

static int
byteset_has(const struct byteset *b, unsigned char c)
{
	return (int)(b->seen[c >> 6] >> (c & 63) & 1);
}

/* 1 when one of alts (words: not empty, without spaces) is a substring of lc. */
static int
any_of(const char *lc, const char *const *alts)
{
	struct byteset b = { { 0, 0, 0, 0 } };
	const unsigned char *p, *a;

	for (p = (const unsigned char *)lc; *p; p++)
		b.seen[*p >> 6] |= (uint64_t)1 << (*p & 63);
	/* lc only spaces (an element without class and id): no word in it */
	if ((b.seen[0] & ~((uint64_t)1 << ' ')) == 0 &&
	    (b.seen[1] | b.seen[2] | b.seen[3]) == 0)
		return 0;
	for (; *alts; alts++) {
		a = (const unsigned char *)*alts;
		/* its first two characters not both in lc: not a substring */
		if (a[0] != '\0' && (!byteset_has(&b, a[0]) ||
		    (a[1] != '\0' && !byteset_has(&b, a[1]))))
			continue;
		if (strstr(lc, *alts))
			return 1;
	}
	return 0;
}

/* Readability.js REGEXPS.unlikelyCandidates */
static const char *const re_unlikely[] = {
	"-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment",
	"community", "cover-wrap", "disqus", "extra", "footer", "gdpr",
	"header", "legends", "menu", "related", "remark", "replies", "rss",
	"shoutbox", "sidebar", "skyscraper", "social", "sponsor",
	"supplemental", "ad-break", "agegate", "pagination", "pager", "popup",
	"yom-remote", NULL
};
/* REGEXPS.okMaybeItsACandidate */
static const char *const re_maybe[] = {
	"and", "article", "body", "column", "content", "main", "mathjax",
	"shadow", NULL
};
/* REGEXPS.positive */
static const char *const re_positive[] = {
	"article", "body", "content", "entry", "hentry", "h-entry", "main",
	"page", "pagination", "post", "text", "blog", "story", NULL
};
/* REGEXPS.negative, less the "hid" alternatives handled by hid_token() */
static const char *const re_negative[] = {
	"-ad-", "hidden", "banner", "combx", "comment", "com-", "contact",
	"footer", "gdpr", "masthead", "media", "meta", "outbrain", "promo",
	"related", "scroll", "share", "shoutbox", "sidebar", "skyscraper",
	"sponsor", "shopping", "tags", "widget", NULL
};
/* REGEXPS.byline */
static const char *const re_byline[] = {
	"byline", "author", "dateline", "writtenby", "p-author", NULL
};

/* /^hid$| hid$| hid |^hid / on a lower-cased string */
static int
hid_token(const char *lc)
{
	const char *p = lc;

	while ((p = strstr(p, "hid")) != NULL) {
		if ((p == lc || p[-1] == ' ') && (p[3] == '\0' || p[3] == ' '))
			return 1;
		p++;
	}
	return 0;
}

static int
re_neg(const char *lc)
{
	return any_of(lc, re_negative) || hid_token(lc);
}

static int
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* REGEXPS.shareElements: /(\b|_)(share|sharedaddy)(\b|_)/i */
static int
re_share(const char *lc)
{
	static const char *const w[] = { "share", "sharedaddy", NULL };
	const char *const *x;
	const char *p;

	for (x = w; *x; x++) {
		size_t n = strlen(*x);
		for (p = lc; (p = strstr(p, *x)) != NULL; p++) {
			int before = p == lc || !is_word((unsigned char)p[-1]) ||
			    p[-1] == '_';
			int after = p[n] == '\0' || !is_word((unsigned char)p[n]) ||
			    p[n] == '_';
			if (before && after)
				return 1;
		}
	}
	return 0;
}

/*
 * REGEXPS.videos: //(www.)?((dailymotion|youtube|youtube-nocookie|
 * player.vimeo|v.qq).com|(archive|upload.wikimedia).org|player.twitch.tv)
 */
static int
re_video(const char *s)
{
	static const char *const hosts[] = {
		"dailymotion.com", "youtube.com", "youtube-nocookie.com",
		"player.vimeo.com", "v.qq.com", "archive.org",
		"upload.wikimedia.org", "player.twitch.tv", NULL
	};
	const char *p;
	const char *const *h;

	for (p = s; (p = strstr(p, "//")) != NULL; p++) {
		const char *q = p + 2;
		for (h = hosts; *h; h++) {
			size_t n = strlen(*h);
			if (strncasecmp(q, *h, n) == 0)
				return 1;
			if (strncasecmp(q, "www.", 4) == 0 &&
			    strncasecmp(q + 4, *h, n) == 0)
				return 1;
		}
	}
	return 0;
}

/* REGEXPS.commas: the comma code points */
static int
is_comma(uint32_t c)
{
	return c == 0x2C || c == 0x60C || c == 0xFE50 || c == 0xFE10 ||
	    c == 0xFE11 || c == 0x2E41 || c == 0x2E34 || c == 0x2E32 ||
	    c == 0xFF0C;
}

/*
 * The first ',' or non-ASCII byte in [p, end), end when none: eight bytes
 * at a time while a word holds neither.
 */
static const unsigned char *
plain_until_comma(const unsigned char *p, const unsigned char *end)
{
	uint64_t w;

	while (end - p >= 8) {
		w = swar_load(p);
		if ((swar_high(w) | swar_eq(w, ',')) != 0)
			break;
		p += 8;
	}
	while (p < end && *p != ',' && *p < 0x80)
		p++;
	return p;
}

/*
 * The commas of n's text (REGEXPS.commas, or with ascii_only ',' alone),
 * counted until there are enough: _cleanConditionally asks only whether
 * there are ten.
 */
static size_t
count_commas(const xmlNode *n, int ascii_only, size_t enough)
{
	const xmlNode *c;
	size_t k = 0;

	for (c = n->children; c != NULL && k < enough;
	    c = bread_walk((xmlNodePtr)c, n, 0)) {
		const unsigned char *p, *end;
		uint32_t cp;
		if ((c->type != XML_TEXT_NODE &&
		    c->type != XML_CDATA_SECTION_NODE) || c->content == NULL)
			continue;
		for (p = c->content, end = p + strlen((const char *)p); p < end; ) {
			p = plain_until_comma(p, end);
			if (p == end)
				break;
			if (*p == ',') {
				k++;
				p++;
				continue;
			}
			p += bread_u8(p, &cp);
			if (!ascii_only && is_comma(cp))
				k++;
		}
	}
	return k;
}

/* ---------------------------------------------------------------- helpers */

static const char *
attr0(const xmlNode *n, const char *name)
{
	const char *v = bread_attr(n, name);
	return v ? v : "";
}

static int
tag_in(const xmlNode *n, const char *const *tags)
{
	if (!bread_is_el(n))
		return 0;
	for (; *tags; tags++)
		if (n->name[0] == (xmlChar)(*tags)[0] &&
		    strcmp((const char *)n->name, *tags) == 0)
			return 1;
	return 0;
}

static const char *const div_to_p_elems[] = {
	"blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul", NULL
};
static const char *const phrasing_elems[] = {
	"abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data",
	"datalist", "dfn", "em", "embed", "i", "img", "input", "kbd", "label",
	"mark", "math", "meter", "noscript", "object", "output", "progress",
	"q", "ruby", "samp", "script", "select", "small", "span", "strong",
	"sub", "sup", "textarea", "time", "var", "wbr", NULL
};

/* s NULL, empty or only white space: what trim() leaves empty */
static int
all_space(const char *s)
{
	return s == NULL || !bread_nonspace(s);
}

/* Readability.js _isPhrasingContent */
static int
is_phrasing(const xmlNode *n)
{
	const xmlNode *c;

	if (n->type == XML_TEXT_NODE)
		return 1;
	if (!bread_is_el(n))
		return 0;
	if (tag_in(n, phrasing_elems))
		return 1;
	if (bread_tag_is(n, "a") || bread_tag_is(n, "del") ||
	    bread_tag_is(n, "ins")) {
		/* every child phrasing; checked with an explicit walk */
		for (c = n->children; c != NULL; c = c->next)
			if (!is_phrasing(c))
				return 0;
		return 1;
	}
	return 0;
}

/* Readability.js _isWhitespace */
static int
is_whitespace(const xmlNode *n)
{
	if (n->type == XML_TEXT_NODE)
		return all_space((const char *)n->content);
	return bread_tag_is(n, "br");
}

/* Readability.js _nextNode: skip whitespace-only non-element nodes */
static xmlNodePtr
next_node(xmlNodePtr n)
{
	while (n != NULL && n->type != XML_ELEMENT_NODE &&
	    all_space((const char *)n->content))
		n = n->next;
	return n;
}

/* Readability.js _getNextNode: depth-first over elements */
static xmlNodePtr
get_next_node(xmlNodePtr n, int ignore_self_and_kids)
{
	xmlNodePtr x;

	if (!ignore_self_and_kids && (x = bread_first_el(n)) != NULL)
		return x;
	if ((x = bread_next_el(n)) != NULL)
		return x;
	do {
		n = n->parent;
	} while (n != NULL && (n->type != XML_ELEMENT_NODE ||
	    bread_next_el(n) == NULL) && n->type != XML_HTML_DOCUMENT_NODE &&
	    n->type != XML_DOCUMENT_NODE);
	if (n == NULL || n->type != XML_ELEMENT_NODE)
		return NULL;
	return bread_next_el(n);
}

static xmlNodePtr
remove_and_get_next(struct rd *rd, xmlNodePtr n)
{
	xmlNodePtr next = get_next_node(n, 1);
	bury(rd, n);
	return next;
}

/* Readability.js _hasAncestorTag; max_depth <= 0: unlimited */
static int
has_ancestor_tag(const xmlNode *n, const char *tag, int max_depth,
    int datatable_only)
{
	int depth = 0;

	while (n->parent != NULL) {
		if (max_depth > 0 && depth > max_depth)
			return 0;
		if (bread_tag_is(n->parent, tag) && (!datatable_only ||
		    (info_get(n->parent) && info_get(n->parent)->datatable == 1)))
			return 1;
		n = n->parent;
		depth++;
	}
	return 0;
}

/*
 * 1 when n is inside <pre>.  bread departs from Readability.js here: the
 * steps that rewrite or drop elements (<br> chains made paragraphs, empty
 * divisions and paragraphs removed) leave code alone, since inside <pre>
 * those elements are the lines of the code and an empty one is a blank line
 * (Shiki's <div></div>, Prism's <div><span></span><br></div>).
 */
static int
in_pre(const xmlNode *n)
{
	return has_ancestor_tag(n, "pre", 0, 0);
}

/* Readability.js _getLinkDensity, given the element's inner text length */
static double
link_density_len(const xmlNode *e, size_t tl)
{
	double ll = 0;
	const xmlNode *c;

	if (tl == 0)
		return 0;
	for (c = e->children; c != NULL; c = bread_walk((xmlNodePtr)c, e, 0)) {
		if (!bread_tag_is(c, "a"))
			continue;
		const char *href = bread_attr(c, "href");
		double coef = href && href[0] == '#' && href[1] ? 0.3 : 1;
		ll += (double)bread_inner_len(c, 1) * coef;
	}
	return ll / (double)tl;
}

static double
link_density(const xmlNode *e)
{
	return link_density_len(e, bread_inner_len(e, 1));
}

/* Readability.js _getClassWeight */
static int
class_weight(struct rd *rd, const xmlNode *e)
{
	int w = 0;
	const char *cls, *id;

	if (!(rd->flags & FLAG_WEIGHT_CLASSES))
		return 0;
	cls = attr0(e, "class");
	id = attr0(e, "id");
	if (*cls) {
		const char *lc = lower(&rd->tmp, cls);
		if (re_neg(lc))
			w -= 25;
		if (any_of(lc, re_positive))
			w += 25;
	}
	if (*id) {
		const char *lc = lower(&rd->tmp, id);
		if (re_neg(lc))
			w -= 25;
		if (any_of(lc, re_positive))
			w += 25;
	}
	return w;
}

/* Readability.js _initializeNode */
static struct rinfo *
initialize_node(struct rd *rd, xmlNodePtr n)
{
	struct rinfo *r = info_new(rd, n);
	const char *t = (const char *)n->name;

	r->score = 0;
	if (strcmp(t, "div") == 0)
		r->score += 5;
	else if (!strcmp(t, "pre") || !strcmp(t, "td") || !strcmp(t, "blockquote"))
		r->score += 3;
	else if (!strcmp(t, "address") || !strcmp(t, "ol") || !strcmp(t, "ul") ||
	    !strcmp(t, "dl") || !strcmp(t, "dd") || !strcmp(t, "dt") ||
	    !strcmp(t, "li") || !strcmp(t, "form"))
		r->score -= 3;
	else if ((t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0') ||
	    !strcmp(t, "th"))
		r->score -= 5;
	r->score += class_weight(rd, n);
	return r;
}

/* Readability.js _setNodeTag: renaming keeps attributes and score */
static void
set_tag(xmlNodePtr n, const char *tag)
{
	xmlNodeSetName(n, BAD_CAST tag);
}

/* Readability.js _hasSingleTagInsideElement */
static int
single_tag_inside(const xmlNode *e, const char *tag)
{
	const xmlNode *c;
	xmlNodePtr f = bread_first_el(e);

	if (bread_el_count(e) != 1 || !bread_tag_is(f, tag))
		return 0;
	for (c = e->children; c != NULL; c = c->next) {
		if (c->type == XML_TEXT_NODE && c->content && c->content[0]) {
			/* /\S$/: the last character is not white space */
			const unsigned char *p = c->content, *last = p;
			uint32_t cp;
			while (*p) {
				last = p;
				p += bread_u8(p, &cp);
			}
			bread_u8(last, &cp);
			if (!bread_js_space(cp))
				return 0;
		}
	}
	return 1;
}

/* Readability.js _isElementWithoutContent */
static int
without_content(const xmlNode *n)
{
	size_t kids;

	if (!bread_is_el(n))
		return 0;
	if (bread_has_text(n))
		return 0;
	kids = bread_el_count(n);
	return kids == 0 || kids == bread_count_tag((xmlNodePtr)n, "br") +
	    bread_count_tag((xmlNodePtr)n, "hr");
}

/* Readability.js _hasChildBlockElement: any descendant in DIV_TO_P_ELEMS */
static int
has_child_block(const xmlNode *e)
{
	const xmlNode *c;

	for (c = e->children; c != NULL; c = bread_walk((xmlNodePtr)c, e, 0))
		if (tag_in(c, div_to_p_elems))
			return 1;
	return 0;
}

/* Readability.js _textSimilarity: tokens split on /\W+/ */
static size_t
tokenize(const char *s, char ***out)
{
	struct nvec v = { NULL, 0, 0 };
	const char *p = s, *q;

	while (*p) {
		while (*p && !is_word((unsigned char)*p))
			p++;
		if (!*p)
			break;
		for (q = p; *q && is_word((unsigned char)*q); q++)
			;
		char *t = xstrndup(p, (size_t)(q - p));
		for (char *x = t; *x; x++)
			if (*x >= 'A' && *x <= 'Z')
				*x = (char)(*x - 'A' + 'a');
		bread_nvec_push(&v, (xmlNodePtr)(void *)t);
		p = q;
	}
	*out = (char **)(void *)v.v;
	return v.n;
}

static double
text_similarity(const char *a, const char *b)
{
	char **ta, **tb;
	size_t na = tokenize(a ? a : "", &ta), nb = tokenize(b ? b : "", &tb);
	size_t i, j, ulen = 0, blen = 0, nu = 0;
	double r = 0;

	if (na && nb) {
		for (i = 0; i < nb; i++) {
			int found = 0;
			for (j = 0; j < na && !found; j++)
				found = strcmp(tb[i], ta[j]) == 0;
			blen += strlen(tb[i]) + (i ? 1 : 0);
			if (!found) {
				ulen += strlen(tb[i]) + (nu ? 1 : 0);
				nu++;
			}
		}
		r = 1 - (double)ulen / (double)blen;
	}
	for (i = 0; i < na; i++)
		free(ta[i]);
	for (i = 0; i < nb; i++)
		free(tb[i]);
	free(ta);
	free(tb);
	return r;
}

static int
css_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Narrow [*a, *b) to its text without CSS white space at either end. */
static void
css_trim(const char **a, const char **b)
{
	while (*a < *b && css_space(**a))
		(*a)++;
	while (*b > *a && css_space((*b)[-1]))
		(*b)--;
}

/*
 * Whether the declaration [p, end) of a style attribute sets prop: -1 when
 * it is about another property, else whether its value (without
 * "!important") is val.  Both compared without case.
 */
static int
css_decl_is(const char *p, const char *end, const char *prop, const char *val)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	const char *a = p, *b = colon, *c, *d = end;
	size_t pl = strlen(prop), vl = strlen(val);

	if (colon == NULL)
		return -1;
	css_trim(&a, &b);
	if ((size_t)(b - a) != pl || strncasecmp(a, prop, pl) != 0)
		return -1;
	c = colon + 1;
	css_trim(&c, &d);
	if (d - c >= 10 && strncasecmp(d - 10, "!important", 10) == 0) {
		d -= 10;
		while (d > c && (d[-1] == ' ' || d[-1] == '\t'))
			d--;
	}
	return (size_t)(d - c) == vl && strncasecmp(c, val, vl) == 0;
}

/*
 * Whether a style attribute sets CSS property prop to val (the last
 * declaration of prop decides; case and "!important" do not count).
 */
static int
style_is(const char *style, const char *prop, const char *val)
{
	const char *p = style, *semi, *end;
	int hit = 0, r;

	while (p && *p) {
		semi = strchr(p, ';');
		end = semi ? semi : p + strlen(p);
		if ((r = css_decl_is(p, end, prop, val)) >= 0)
			hit = r;
		p = semi ? semi + 1 : NULL;
	}
	return hit;
}

static int
is_tab_panel(const xmlNode *n)
{
	const char *role = bread_attr(n, "role");

	return role != NULL && strcmp(role, "tabpanel") == 0;
}

/*
 * Not in Readability.js: an element hidden from screen readers only because
 * its parent's aria-label already says it is seen on the page (the title of
 * a Starlight aside: "Caution", "Small on purpose").
 */
static int
labels_parent(const xmlNode *n)
{
	const char *label = n->parent ? bread_attr(n->parent, "aria-label") : NULL;
	struct buf b = BUF_INIT;
	char *t;
	int same;

	if (label == NULL || *label == '\0')
		return 0;
	bread_text_content(n, &b);
	t = bread_js_trim(buf_str(&b), b.len);
	same = strcmp(t, label) == 0;
	free(t);
	buf_release(&b);
	return same;
}

/* Readability.js _isProbablyVisible */
static int
probably_visible(const xmlNode *n)
{
	const char *style = bread_attr(n, "style");
	const char *ah;

	if (style && (style_is(style, "display", "none") ||
	    style_is(style, "visibility", "hidden")))
		return 0;
	/*
	 * Not in Readability.js: a tab panel hidden because another tab is
	 * selected stays (its content is one click away, and the Markdown of
	 * condition B has every tab).
	 */
	if (bread_attr(n, "hidden") && !is_tab_panel(n))
		return 0;
	ah = bread_attr(n, "aria-hidden");
	if (ah && strcmp(ah, "true") == 0 &&
	    strstr(attr0(n, "class"), "fallback-image") == NULL &&
	    !labels_parent(n))
		return 0;
	return 1;
}

static xmlNodePtr
doc_body(htmlDocPtr doc)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), c;

	if (root == NULL)
		return NULL;
	if (bread_tag_is(root, "body") || bread_tag_is(root, "frameset"))
		return root;
	for (c = root->children; c != NULL; c = c->next)
		if (bread_tag_is(c, "body") || bread_tag_is(c, "frameset"))
			return c;
	return NULL;
}

static void
remove_tags(struct rd *rd, xmlNodePtr root, const char *tag)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, root, tag, &v);
	for (i = v.n; i-- > 0; )
		if (v.v[i]->parent)
			bury(rd, v.v[i]);
	bread_nvec_free(&v);
}

/* ---------------------------------------------------------------- preparation */

static int
img_like(const char *v)
{
	/* /\.(jpg|jpeg|png|webp)/i */
	static const char *const ext[] = { ".jpg", ".jpeg", ".png", ".webp", NULL };
	const char *const *e;
	const char *p;

	for (p = v; (p = strchr(p, '.')) != NULL; p++)
		for (e = ext; *e; e++)
			if (strncasecmp(p, *e, strlen(*e)) == 0)
				return 1;
	return 0;
}

/* Readability.js _isSingleImage */
static int
single_image(const xmlNode *n)
{
	while (n) {
		if (bread_tag_is(n, "img"))
			return 1;
		if (bread_el_count(n) != 1 || bread_has_text(n))
			return 0;
		n = bread_first_el(n);
	}
	return 0;
}

/* Readability.js _unwrapNoscriptImages */
static void
unwrap_noscript_images(struct rd *rd, xmlNodePtr root)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, root, "img", &v);
	for (i = 0; i < v.n; i++) {
		const xmlAttr *a;
		int keep = 0;
		for (a = v.v[i]->properties; a && !keep; a = a->next) {
			const char *nm = (const char *)a->name;
			const char *val = a->children && a->children->content ?
			    (const char *)a->children->content : "";
			if (!strcmp(nm, "src") || !strcmp(nm, "srcset") ||
			    !strcmp(nm, "data-src") || !strcmp(nm, "data-srcset") ||
			    img_like(val))
				keep = 1;
		}
		if (!keep)
			bury(rd, v.v[i]);
	}
	v.n = 0;
	by_tag(rd, root, "noscript", &v);
	for (i = 0; i < v.n; i++) {
		xmlNodePtr ns = v.v[i], prev, img;
		if (!single_image(ns) || ns->parent == NULL)
			continue;
		prev = bread_prev_el(ns);
		if (prev == NULL || !single_image(prev))
			continue;
		img = bread_first_el(ns);
		bread_replace(prev, img);
		bread_nvec_push(&rd->grave, prev);
	}
	bread_nvec_free(&v);
}

/* Readability.js _replaceBrs */
static void
replace_brs(struct rd *rd, xmlNodePtr body)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, body, "br", &v);
	for (i = 0; i < v.n; i++) {
		xmlNodePtr br = v.v[i], next = br->next, p;
		int replaced = 0;

		if (in_pre(br))
			continue;

		while ((next = next_node(next)) != NULL && bread_tag_is(next, "br")) {
			xmlNodePtr sib = next->next;
			replaced = 1;
			bury(rd, next);
			next = sib;
		}
		if (!replaced || br->parent == NULL)
			continue;
		p = xmlNewDocNode(rd->doc, NULL, BAD_CAST "p", NULL);
		bread_replace(br, p);
		bread_nvec_push(&rd->grave, br);
		next = p->next;
		while (next) {
			if (bread_tag_is(next, "br")) {
				xmlNodePtr ne = next_node(next->next);
				if (ne && bread_tag_is(ne, "br"))
					break;
			}
			if (!is_phrasing(next))
				break;
			xmlNodePtr sib = next->next;
			bread_append(p, next);
			next = sib;
		}
		while (p->last && is_whitespace(p->last))
			bury(rd, p->last);
		if (bread_tag_is(p->parent, "p"))
			set_tag(p->parent, "div");
	}
	bread_nvec_free(&v);
}

/*
 * Not in Readability.js: a generator's permalink next to a heading ("¶",
 * "#", a zero-width space, Starlight's icon with "Section titled ..." for
 * screen readers) is not content.  Left in, it is text in the heading, and
 * its link text makes the heading's wrapper look like a block of links that
 * _cleanConditionally drops with the heading.
 */
static void
remove_heading_anchors(struct rd *rd, xmlNodePtr body)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, body, "a", &v);
	for (i = 0; i < v.n; i++)
		if (v.v[i]->parent && bread_heading_anchor(v.v[i]))
			bury(rd, v.v[i]);
	bread_nvec_free(&v);
}

/*
 * The end of Readability.js _prepDocument (rd_parse removes the <style>
 * elements and replaces the <br> runs first), and the heading anchors.
 */
static void
prep_document(struct rd *rd, xmlNodePtr root)
{
	struct nvec v = { NULL, 0, 0 };
	xmlNodePtr body;
	size_t i;

	if ((body = doc_body(rd->doc)) != NULL)
		remove_heading_anchors(rd, body);
	by_tag(rd, root, "font", &v);
	for (i = 0; i < v.n; i++)
		set_tag(v.v[i], "span");
	bread_nvec_free(&v);
}

/*
 * The tree made ready after the page's script data is read: the elements
 * whose text is never the article's go, <br> runs become paragraphs, and
 * the rest of _prepDocument.  rd->tags holds the page's tag set.
 */
static void
prep_tree(struct rd *rd, xmlNodePtr root)
{
	xmlNodePtr body;

	remove_tags(rd, root, "script");
	remove_tags(rd, root, "noscript");
	remove_tags(rd, root, "style");
	if ((body = doc_body(rd->doc)) != NULL)
		replace_brs(rd, body);
	prep_document(rd, root);
}

/* ---------------------------------------------------------------- metadata */

/*
 * The length of the named entity at p (&quot; &amp; &apos; &lt; &gt;), its
 * character appended to b; 0 when there is none.
 */
static size_t
named_entity(const char *p, struct buf *b)
{
	static const struct { const char *e; char c; } m[] = {
		{ "&quot;", '"' }, { "&amp;", '&' }, { "&apos;", '\'' },
		{ "&lt;", '<' }, { "&gt;", '>' },
	};
	size_t k;

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++)
		if (strncmp(p, m[k].e, strlen(m[k].e)) == 0) {
			buf_addc(b, m[k].c);
			return strlen(m[k].e);
		}
	return 0;
}

/*
 * The length of the numeric character reference at p (&#N; or &#xH;), its
 * character appended to b as UTF-8 (U+FFFD for 0, a surrogate or past
 * U+10FFFF); 0 when there is none.
 */
static size_t
numeric_entity(const char *p, struct buf *b)
{
	const char *q = p + 2;
	unsigned long v = 0;
	int hex = 0, digits = 0, d, n;
	char e[4];

	if (p[1] != '#')
		return 0;
	if (*q == 'x' || *q == 'X') {
		hex = 1;
		q++;
	}
	for (;; q++) {
		if (*q >= '0' && *q <= '9')
			d = *q - '0';
		else if (hex && *q >= 'a' && *q <= 'f')
			d = *q - 'a' + 10;
		else if (hex && *q >= 'A' && *q <= 'F')
			d = *q - 'A' + 10;
		else
			break;
		if (v < 0x1000000)
			v = v * (hex ? 16 : 10) + (unsigned long)d;
		digits++;
	}
	if (!digits || *q != ';')
		return 0;
	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		v = 0xFFFD;
	n = utf8_encode((uint32_t)v, e);
	buf_add(b, e, (size_t)n);
	return (size_t)(q + 1 - p);
}

/* Readability.js _unescapeHtmlEntities, in place on a malloc'd string */
static char *
unescape_entities(char *s)
{
	struct buf b = BUF_INIT;
	const char *p = s;
	size_t n;

	if (s == NULL)
		return NULL;
	while (*p) {
		if (*p == '&' && ((n = named_entity(p, &b)) > 0 ||
		    (n = numeric_entity(p, &b)) > 0)) {
			p += n;
			continue;
		}
		buf_addc(&b, *p);
		p++;
	}
	buf_adds(&b, "");
	free(s);
	return buf_detach(&b, NULL);
}

/* The HTML document.title: first <title>, ASCII white space stripped and collapsed. */
static char *
doc_title(htmlDocPtr doc)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), n;
	struct buf raw = BUF_INIT, out = BUF_INIT;
	size_t i;
	int sp = 0;

	if (root == NULL)
		return xstrdup("");
	for (n = root; n != NULL; n = bread_walk(n, root, 0))
		if (bread_tag_is(n, "title") && !has_ancestor_tag(n, "svg", 0, 0))
			break;
	if (n == NULL)
		return xstrdup("");
	bread_text_content(n, &raw);
	for (i = 0; i < raw.len; i++) {
		char c = raw.s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			sp = out.len > 0;
			continue;
		}
		if (sp)
			buf_addc(&out, ' ');
		sp = 0;
		buf_addc(&out, c);
	}
	buf_release(&raw);
	buf_adds(&out, "");
	return buf_detach(&out, NULL);
}

/* "str.split(/\s+/).length" */
static size_t
word_count(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 1;
	int in = 0;
	uint32_t cp;

	while (*p) {
		p += bread_u8(p, &cp);
		if (bread_js_space(cp)) {
			if (!in)
				k++;
			in = 1;
		} else
			in = 0;
	}
	return k;
}

/* Title separators of Readability.js 0.6: | - – — \ / > » (the dashes not hierarchical) */
static int
sep_at(const char *p, int hier_only)
{
	if (!hier_only && (*p == '|' || *p == '-'))
		return 1;
	if (!hier_only && (unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x80 &&
	    ((unsigned char)p[2] == 0x93 || (unsigned char)p[2] == 0x94))
		return 3;
	if (*p == '\\' || *p == '/' || *p == '>')
		return 1;
	if ((unsigned char)p[0] == 0xC2 && (unsigned char)p[1] == 0xBB)
		return 2;
	return 0;
}

/* / [sep] / */
static int
has_spaced_sep(const char *s, int hier_only)
{
	const char *p;
	int k;

	for (p = s; *p; p++)
		if (*p == ' ' && (k = sep_at(p + 1, hier_only)) && p[1 + k] == ' ')
			return 1;
	return 0;
}

/* "\s{2,}" -> " " after trim */
static char *
trim_normalize(const char *s)
{
	const unsigned char *p;
	struct buf b = BUF_INIT;
	char *t = bread_js_trim(s, strlen(s));
	uint32_t cp, first = 0;
	size_t run = 0;
	int k;

	for (p = (const unsigned char *)t; *p; p += k) {
		k = bread_u8(p, &cp);
		if (bread_js_space(cp)) {
			if (run == 0)
				first = cp;
			run++;
			continue;
		}
		if (run == 1) {
			char e[4];
			buf_add(&b, e, (size_t)utf8_encode(first, e));
		} else if (run > 1)
			buf_addc(&b, ' ');
		run = 0;
		buf_add(&b, p, (size_t)k);
	}
	free(t);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

/*
 * A title with a spaced separator ("Page | Site"): what comes before the
 * last separator followed by a space, or when that has fewer than 3 words,
 * everything after the first separator.
 */
static char *
title_at_separator(const char *orig)
{
	const char *p, *last = NULL;
	char *cur;
	int k;

	/* (.*)[sep] .*  : cut at the last separator followed by a space */
	for (p = orig; *p; p++)
		if ((k = sep_at(p, 0)) && p[k] == ' ')
			last = p;
	cur = last ? xstrndup(orig, (size_t)(last - orig)) : xstrdup(orig);
	if (word_count(cur) >= 3)
		return cur;
	/* [^sep]*[sep](.*) : everything after the first separator */
	free(cur);
	for (p = orig; *p; p++)
		if ((k = sep_at(p, 0)))
			return xstrdup(p + k);
	return xstrdup(orig);
}

/* Whether an <h1> or <h2> of the document has exactly the text title. */
static int
heading_matches(struct rd *rd, const char *title)
{
	xmlNodePtr root = xmlDocGetRootElement(rd->doc), n;
	struct buf b = BUF_INIT;
	char *want = bread_js_trim(title, strlen(title)), *ht;
	int match = 0;

	if (root)
		for (n = root; n && !match; n = bread_walk(n, root, 0)) {
			if (!bread_tag_is(n, "h1") && !bread_tag_is(n, "h2"))
				continue;
			buf_reset(&b);
			bread_text_content(n, &b);
			ht = bread_js_trim(buf_str(&b), b.len);
			match = strcmp(ht, want) == 0;
			free(ht);
		}
	buf_release(&b);
	free(want);
	return match;
}

/*
 * A title with ": " that no heading repeats: what follows the last colon,
 * or when that has fewer than 3 words what follows the first one; the
 * whole title when more than 5 words come before the first colon.
 */
static char *
title_at_colon(struct rd *rd, const char *orig)
{
	const char *lc = strrchr(orig, ':'), *fc = strchr(orig, ':');
	char *cur, *before;

	if (heading_matches(rd, orig))
		return xstrdup(orig);
	cur = xstrdup(lc + 1);
	if (word_count(cur) < 3) {
		free(cur);
		return xstrdup(fc + 1);
	}
	before = xstrndup(orig, (size_t)(fc - orig));
	if (word_count(before) > 5) {
		free(cur);
		cur = xstrdup(orig);
	}
	free(before);
	return cur;
}

/* A title too long or too short: the text of the page's only <h1>, if one. */
static char *
title_from_h1(struct rd *rd, const char *orig)
{
	struct nvec v = { NULL, 0, 0 };
	xmlNodePtr root = xmlDocGetRootElement(rd->doc);
	struct buf b = BUF_INIT;
	size_t l = bread_js_len(orig, strlen(orig));

	if (l <= 150 && l >= 15)
		return xstrdup(orig);
	if (root) {
		if (bread_tag_is(root, "h1"))
			bread_nvec_push(&v, root);
		by_tag(rd, root, "h1", &v);
	}
	if (v.n == 1)
		bread_inner_text(v.v[0], 1, &b);
	else
		buf_adds(&b, orig);
	bread_nvec_free(&v);
	return buf_detach(&b, NULL);
}

/* Readability.js _getArticleTitle */
static char *
article_title(struct rd *rd)
{
	char *raw = doc_title(rd->doc), *orig, *cur;
	struct buf b = BUF_INIT;
	int hier = 0, k;
	size_t wc;
	const char *p;

	orig = bread_js_trim(raw, strlen(raw));
	free(raw);
	if (has_spaced_sep(orig, 0)) {
		hier = has_spaced_sep(orig, 1);
		cur = title_at_separator(orig);
	} else if (strstr(orig, ": ")) {
		cur = title_at_colon(rd, orig);
	} else {
		cur = title_from_h1(rd, orig);
	}
	raw = trim_normalize(cur);
	free(cur);
	cur = raw;
	wc = word_count(cur);
	if (wc > 4) {
		free(orig);
		return cur;
	}
	/* four words or fewer: the original title, unless a hierarchical
	 * separator took only one word off: origTitle.replace(/[sep]+/g, "") */
	for (p = orig; *p; ) {
		if ((k = sep_at(p, 0))) {
			p += k;
			continue;
		}
		buf_addc(&b, *p++);
	}
	buf_adds(&b, "");
	if (!hier || wc != word_count(b.s) - 1) {
		free(cur);
		cur = orig;
	} else {
		free(orig);
	}
	buf_release(&b);
	return cur;
}

/* JSON-LD @type test: REGEXPS.jsonLdArticleTypes (anchors bind only the ends) */
static int
jsonld_article_type(const char *t)
{
	static const char *const mid[] = {
		"AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle",
		"AskPublicNewsArticle", "BackgroundNewsArticle",
		"OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle",
		"Report", "SatiricalArticle", "ScholarlyArticle",
		"MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting",
		"LiveBlogPosting", "DiscussionForumPosting", "TechArticle", NULL
	};
	const char *const *m;
	size_t n = strlen(t);

	if (strncmp(t, "Article", 7) == 0)
		return 1;
	if (n >= 12 && strcmp(t + n - 12, "APIReference") == 0)
		return 1;
	for (m = mid; *m; m++)
		if (strstr(t, *m))
			return 1;
	return 0;
}

static int
schema_org(const char *s)
{
	/* /^https?\:\/\/schema\.org\/?$/ */
	if (strncmp(s, "http://", 7) == 0)
		s += 7;
	else if (strncmp(s, "https://", 8) == 0)
		s += 8;
	else
		return 0;
	return strcmp(s, "schema.org") == 0 || strcmp(s, "schema.org/") == 0;
}

struct jsonld {
	char *title, *byline, *excerpt;
	int found;
};

/* Trim [*sp, *ep) of a CDATA wrapper: /^\s*<!\[CDATA\[|\]\]>\s*$/g */
static void
strip_cdata(const char **sp, const char **ep)
{
	const char *s = *sp, *e = *ep, *q = s, *r;

	while (q < e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
		q++;
	if (strncmp(q, "<![CDATA[", 9) == 0)
		s = q + 9;
	r = e;
	while (r > s && (r[-1] == ' ' || r[-1] == '\t' || r[-1] == '\n' || r[-1] == '\r'))
		r--;
	if (r - s >= 3 && strncmp(r - 3, "]]>", 3) == 0)
		e = r - 3;
	*sp = s;
	*ep = e;
}

/* The JSON of an ld+json script (any value), or NULL when it does not parse. */
static json_t *
jsonld_load(xmlNodePtr script)
{
	struct buf b = BUF_INIT;
	const char *s, *e;
	json_t *doc;

	bread_text_content(script, &b);
	s = buf_str(&b);
	e = s + b.len;
	strip_cdata(&s, &e);
	doc = json_loadb(s, (size_t)(e - s), JSON_DECODE_ANY, NULL);
	buf_release(&b);
	return doc;
}

/*
 * The first item of an array (a document, or its @graph) whose @type is
 * Article-like; NULL when none, or when an @type that counts is not a string
 * (Readability.js's .match on it throws).  In a document array an empty or
 * false @type does not count; in a @graph only a missing or null one.
 */
static json_t *
jsonld_item(const json_t *arr, int graph)
{
	json_t *it, *ty;
	size_t k;

	json_array_foreach(arr, k, it) {
		ty = json_is_object(it) ? json_object_get(it, "@type") : NULL;
		if (ty == NULL || json_is_null(ty))
			continue;
		if (!graph && (json_is_false(ty) ||
		    (json_is_string(ty) && json_string_length(ty) == 0)))
			continue;
		if (!json_is_string(ty))
			return NULL;
		if (jsonld_article_type(json_string_value(ty)))
			return it;
	}
	return NULL;
}

/*
 * The Article-like object of an ld+json document (borrowed from doc): the
 * document, or its first Article-like item when it is an array, in the
 * schema.org context (the URL, or an object whose @vocab is), or the first
 * Article-like item of its @graph when it has no @type.  NULL when none.
 */
static json_t *
jsonld_article(json_t *doc)
{
	json_t *p = doc, *ctx, *t;

	if (json_is_array(doc))
		p = jsonld_item(doc, 0);
	if (p == NULL || !json_is_object(p))
		return NULL;
	ctx = json_object_get(p, "@context");
	if (json_is_object(ctx))
		ctx = json_object_get(ctx, "@vocab");
	if (!json_is_string(ctx) || !schema_org(json_string_value(ctx)))
		return NULL;
	t = json_object_get(p, "@type");
	if ((t == NULL || json_is_null(t) || json_is_false(t)) &&
	    json_is_array(json_object_get(p, "@graph")))
		p = jsonld_item(json_object_get(p, "@graph"), 1);
	t = p ? json_object_get(p, "@type") : NULL;
	if (p == NULL || !json_is_string(t) ||
	    !jsonld_article_type(json_string_value(t)))
		return NULL;
	return p;
}

/*
 * The title: name or headline; when both are there and differ, the one
 * that matches the page's title (headline only when it matches and name
 * does not).  NULL when neither is a string.
 */
static char *
jsonld_title(struct rd *rd, const json_t *p)
{
	json_t *name = json_object_get(p, "name");
	json_t *head = json_object_get(p, "headline");
	char *title;
	int nm, hm;

	if (json_is_string(name) && json_is_string(head) &&
	    strcmp(json_string_value(name), json_string_value(head)) != 0) {
		title = article_title(rd);
		nm = text_similarity(json_string_value(name), title) > 0.75;
		hm = text_similarity(json_string_value(head), title) > 0.75;
		free(title);
		return xstrdup(json_string_value(hm && !nm ? head : name));
	}
	if (json_is_string(name))
		return bread_js_trim(json_string_value(name), json_string_length(name));
	if (json_is_string(head))
		return bread_js_trim(json_string_value(head), json_string_length(head));
	return NULL;
}

/*
 * The byline: the author's name, or when author is an array whose first
 * item has a name, every author's name joined by ", ".  NULL when none.
 */
static char *
jsonld_byline(const json_t *auth)
{
	struct buf bb = BUF_INIT;
	json_t *a, *an;
	size_t k;
	char *x;
	int first = 1;

	if (json_is_object(auth) && json_is_string(json_object_get(auth, "name"))) {
		an = json_object_get(auth, "name");
		return bread_js_trim(json_string_value(an), strlen(json_string_value(an)));
	}
	if (!json_is_array(auth) || json_array_size(auth) == 0 ||
	    !json_is_object(json_array_get(auth, 0)) ||
	    !json_is_string(json_object_get(json_array_get(auth, 0), "name")))
		return NULL;
	json_array_foreach(auth, k, a) {
		an = json_is_object(a) ? json_object_get(a, "name") : NULL;
		if (!json_is_string(an))
			continue;
		if (!first)
			buf_adds(&bb, ", ");
		first = 0;
		x = bread_js_trim(json_string_value(an), json_string_length(an));
		buf_adds(&bb, x);
		free(x);
	}
	buf_adds(&bb, "");
	return buf_detach(&bb, NULL);
}

/* Readability.js _getJSONLD: the first usable Article-like object */
static void
get_jsonld(struct rd *rd, struct jsonld *out)
{
	xmlNodePtr root = xmlDocGetRootElement(rd->doc);
	struct nvec v = { NULL, 0, 0 };
	const char *type;
	json_t *doc, *p, *desc;
	size_t i;

	memset(out, 0, sizeof *out);
	if (root == NULL)
		return;
	by_tag(rd, root, "script", &v);
	for (i = 0; i < v.n && !out->found; i++) {
		type = bread_attr(v.v[i], "type");
		if (type == NULL || strcmp(type, "application/ld+json") != 0)
			continue;
		doc = jsonld_load(v.v[i]);
		if ((p = jsonld_article(doc)) != NULL) {
			out->found = 1;
			out->title = jsonld_title(rd, p);
			out->byline = jsonld_byline(json_object_get(p, "author"));
			desc = json_object_get(p, "description");
			if (json_is_string(desc))
				out->excerpt = bread_js_trim(json_string_value(desc),
				    json_string_length(desc));
		}
		json_decref(doc);
	}
	bread_nvec_free(&v);
}

/* propertyPattern of _getArticleMetadata: the first "prefix:name" in s */
static int
meta_property(const char *s, char *out, size_t outsz)
{
	static const char *const pre[] = { "article", "dcterm", "dc", "og", "twitter", NULL };
	static const char *const names[] = {
		"author", "creator", "description", "published_time", "title",
		"site_name", NULL
	};
	const char *p, *q;
	const char *const *a, *const *b;

	for (p = s; *p; p++) {
		for (a = pre; *a; a++) {
			size_t n = strlen(*a);
			if (strncasecmp(p, *a, n) != 0)
				continue;
			q = p + n;
			while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f')
				q++;
			if (*q != ':')
				continue;
			q++;
			while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f')
				q++;
			for (b = names; *b; b++)
				if (strncasecmp(q, *b, strlen(*b)) == 0) {
					snprintf(out, outsz, "%s:%s", *a, *b);
					return 1;
				}
		}
	}
	return 0;
}

/* namePattern of _getArticleMetadata: the whole name is one known key */
static int
meta_name(const char *s, char *out, size_t outsz)
{
	static const char *const pre[] = {
		"weibo:article", "weibo:webpage", "dcterm", "dc", "og", "twitter",
		"parsely", NULL
	};
	static const char *const names[] = {
		"author", "creator", "pub-date", "description", "title",
		"site_name", NULL
	};
	const char *p = s, *q;
	const char *const *a, *const *b;
	int pass;
	size_t i, j;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
		p++;
	for (pass = 0; pass < 2; pass++) {
		for (a = pass ? pre : NULL; pass == 0 || *a; a = pass ? a + 1 : NULL) {
			q = p;
			if (pass) {
				size_t n = strlen(*a);
				if (strncasecmp(q, *a, n) != 0)
					continue;
				q += n;
				while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f')
					q++;
				if (*q != '-' && *q != '.' && *q != ':')
					continue;
				q++;
				while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f')
					q++;
			}
			for (b = names; *b; b++) {
				size_t n = strlen(*b);
				const char *r = q + n;
				if (strncasecmp(q, *b, n) != 0)
					continue;
				while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r' || *r == '\f')
					r++;
				if (*r == '\0')
					goto hit;
			}
			if (pass == 0)
				break;
		}
	}
	return 0;
hit:
	/* lower-case, drop white space, dots to colons */
	for (i = j = 0; s[i] && j + 1 < outsz; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f')
			continue;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == '.')
			c = ':';
		out[j++] = c;
	}
	out[j] = '\0';
	return 1;
}

struct kv {
	char key[64];
	char *val;
};

static const char *
kv_get(struct kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].val && *kv[i].val ? kv[i].val : NULL;
	return NULL;
}

static void
kv_set(struct kv **kv, size_t *n, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*kv)[i].key, key) == 0) {
			free((*kv)[i].val);
			(*kv)[i].val = bread_js_trim(val, strlen(val));
			return;
		}
	*kv = xreallocarray(*kv, *n + 1, sizeof **kv);
	snprintf((*kv)[*n].key, sizeof (*kv)[*n].key, "%s", key);
	(*kv)[*n].val = bread_js_trim(val, strlen(val));
	(*n)++;
}

static char *
first_of(struct kv *kv, size_t n, const char *const *keys, const char *pre)
{
	const char *v;

	if (pre && *pre)
		return xstrdup(pre);
	for (; *keys; keys++)
		if ((v = kv_get(kv, n, *keys)) != NULL)
			return xstrdup(v);
	return NULL;
}

/* What new URL(s) accepts without a base: a scheme, ":" and something after. */
static int
looks_like_url(const char *s)
{
	const char *p = s;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':')
		return 0;
	if (strncasecmp(s, "http:", 5) == 0 || strncasecmp(s, "https:", 6) == 0)
		return p[1] != '\0' && strspn(p + 1, "/") < strlen(p + 1);
	return strchr(p, ' ') == NULL;
}

/* Readability.js _getArticleMetadata */
static void
get_metadata(struct rd *rd, struct jsonld *jl)
{
	static const char *const tkeys[] = {
		"dc:title", "dcterm:title", "og:title", "weibo:article:title",
		"weibo:webpage:title", "title", "twitter:title", "parsely-title", NULL
	};
	static const char *const bkeys[] = {
		"dc:creator", "dcterm:creator", "author", "parsely-author", NULL
	};
	static const char *const ekeys[] = {
		"dc:description", "dcterm:description", "og:description",
		"weibo:article:description", "weibo:webpage:description",
		"description", "twitter:description", NULL
	};
	xmlNodePtr root = xmlDocGetRootElement(rd->doc);
	struct nvec v = { NULL, 0, 0 };
	struct kv *kv = NULL;
	size_t nkv = 0, i;
	char key[64];

	if (root) {
		if (bread_tag_is(root, "meta"))
			bread_nvec_push(&v, root);
		by_tag(rd, root, "meta", &v);
	}
	for (i = 0; i < v.n; i++) {
		const char *name = bread_attr(v.v[i], "name");
		const char *prop = bread_attr(v.v[i], "property");
		const char *content = bread_attr(v.v[i], "content");
		int matched = 0;
		if (content == NULL || *content == '\0')
			continue;
		if (prop && meta_property(prop, key, sizeof key)) {
			matched = 1;
			kv_set(&kv, &nkv, key, content);
		}
		if (!matched && name && meta_name(name, key, sizeof key))
			kv_set(&kv, &nkv, key, content);
	}
	bread_nvec_free(&v);
	rd->title = first_of(kv, nkv, tkeys, jl->title);
	if (rd->title == NULL)
		rd->title = article_title(rd);
	rd->meta_byline = first_of(kv, nkv, bkeys, jl->byline);
	/* article:author when it is not a URL (Readability.js 0.6 _isUrl) */
	if (rd->meta_byline == NULL) {
		const char *aa = kv_get(kv, nkv, "article:author");
		if (aa && !looks_like_url(aa))
			rd->meta_byline = xstrdup(aa);
	}
	rd->meta_excerpt = first_of(kv, nkv, ekeys, jl->excerpt);
	rd->title = unescape_entities(rd->title);
	rd->meta_byline = unescape_entities(rd->meta_byline);
	rd->meta_excerpt = unescape_entities(rd->meta_excerpt);
	for (i = 0; i < nkv; i++)
		free(kv[i].val);
	free(kv);
}

/* ---------------------------------------------------------------- grabArticle */

/* Readability.js _checkByline */
static int
check_byline(struct rd *rd, xmlNodePtr n, const char *match_lc)
{
	const char *rel, *itemprop;
	size_t l;

	if (rd->byline || rd->meta_byline)
		return 0;
	rel = bread_attr(n, "rel");
	itemprop = bread_attr(n, "itemprop");
	if (!((rel && strcmp(rel, "author") == 0) ||
	    (itemprop && strstr(itemprop, "author")) || any_of(match_lc, re_byline)))
		return 0;
	/* _isValidByline: trimmed length in (0, 100) */
	buf_reset(&rd->tmp);
	bread_text_content(n, &rd->tmp);
	{
		char *t = bread_js_trim(buf_str(&rd->tmp), rd->tmp.len);
		xmlNodePtr end, x;
		l = bread_js_len(t, strlen(t));
		if (l == 0 || l >= 100) {
			free(t);
			return 0;
		}
		/* Readability.js 0.6: prefer a descendant with itemprop "name" */
		end = get_next_node(n, 1);
		for (x = get_next_node(n, 0); x && x != end; x = get_next_node(x, 0)) {
			const char *ip = bread_attr(x, "itemprop");
			if (ip && strstr(ip, "name")) {
				buf_reset(&rd->tmp);
				bread_text_content(x, &rd->tmp);
				free(t);
				t = bread_js_trim(buf_str(&rd->tmp), rd->tmp.len);
				break;
			}
		}
		rd->byline = t;
	}
	return 1;
}

/* Readability.js _headerDuplicatesTitle */
static int
header_duplicates_title(struct rd *rd, xmlNodePtr n)
{
	struct buf b = BUF_INIT;
	double s;

	if (!bread_tag_is(n, "h1") && !bread_tag_is(n, "h2"))
		return 0;
	bread_inner_text(n, 0, &b);
	s = text_similarity(rd->title, buf_str(&b));
	buf_release(&b);
	return s > 0.75;
}

static const char *const unlikely_roles[] = {
	"menu", "menubar", "complementary", "navigation", "alert",
	"alertdialog", "dialog", NULL
};
static const char *const tags_to_score[] = {
	"section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre", NULL
};

static int
in_list(const char *s, const char *const *list)
{
	if (s == NULL)
		return 0;
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* Readability.js _markDataTables */
static void
mark_data_tables(struct rd *rd, xmlNodePtr root)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, root, "table", &v);
	for (i = 0; i < v.n; i++)
		info_new(rd, v.v[i])->datatable = bread_data_table(v.v[i]);
	bread_nvec_free(&v);
}

static int
is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * An attribute value's image name at dot, its extension ending at q: 1 when
 * /\.(jpg|jpeg|png|webp)\s+\d/ holds there (a srcset), 2 when the value is
 * one such name /^\s*\S+\.(jpg|jpeg|png|webp)\S*\s*$/ (a src), else 0.
 * The second test resumes after the white space the first one skipped.
 */
static int
lazy_image_at(const char *val, const char *dot, const char *q)
{
	const char *s = val, *x;

	if (is_ws(*q)) {
		while (is_ws(*q))
			q++;
		if (*q >= '0' && *q <= '9')
			return 1;
	}
	while (is_ws(*s))
		s++;
	if (s == dot)
		return 0;
	for (x = s; x < dot; x++)
		if (is_ws(*x))
			return 0;
	while (*q && !is_ws(*q))
		q++;
	while (is_ws(*q))
		q++;
	return *q == '\0' ? 2 : 0;
}

/*
 * What a figure's attribute value holds: 1 a srcset (when any image name in
 * it is one, as Readability.js tests that first), 2 a src, else 0.
 */
static int
lazy_image_kind(const char *val)
{
	static const char *const ext[] = { "jpg", "jpeg", "png", "webp", NULL };
	const char *const *e;
	const char *dot;
	int kind = 0;
	size_t n;

	for (dot = val; (dot = strchr(dot, '.')) != NULL; dot++)
		for (e = ext; *e; e++) {
			n = strlen(*e);
			if (strncmp(dot + 1, *e, n) != 0)
				continue;
			switch (lazy_image_at(val, dot, dot + 1 + n)) {
			case 1:
				return 1;
			case 2:
				kind = 2;
				break;
			}
		}
	return kind;
}

/* The <figure> case of Readability.js _fixLazyImages (it changes img counts). */
static void
fix_lazy_figures(struct rd *rd, xmlNodePtr root)
{
	struct nvec v = { NULL, 0, 0 };
	const xmlAttr *a;
	const char *nm, *val;
	xmlNodePtr f, img;
	size_t i;
	int kind;

	by_tag(rd, root, "figure", &v);
	for (i = 0; i < v.n; i++) {
		f = v.v[i];
		for (a = f->properties; a; a = a->next) {
			nm = (const char *)a->name;
			val = a->children && a->children->content ?
			    (const char *)a->children->content : "";
			if (!strcmp(nm, "src") || !strcmp(nm, "srcset") || !strcmp(nm, "alt"))
				continue;
			kind = lazy_image_kind(val);
			if (kind && bread_count_tag(f, "img") == 0 &&
			    bread_count_tag(f, "picture") == 0) {
				img = xmlNewDocNode(rd->doc, NULL, BAD_CAST "img", NULL);
				xmlNewProp(img, BAD_CAST (kind == 1 ? "srcset" : "src"), BAD_CAST val);
				bread_append(f, img);
			}
		}
	}
	bread_nvec_free(&v);
}

/* Readability.js _getTextDensity, given the element's inner text length */
static double
text_density(xmlNodePtr e, const char *const *tags, size_t tl)
{
	size_t cl = 0;
	xmlNodePtr c;

	if (tl == 0)
		return 0;
	for (c = e->children; c != NULL; c = bread_walk(c, e, 0))
		if (tag_in(c, tags))
			cl += bread_inner_len(c, 1);
	return (double)cl / (double)tl;
}

/* REGEXPS.adWords and REGEXPS.loadingWords (whole text) */
static int
ad_or_loading(const char *t)
{
	static const char *const ad[] = {
		"ad", "advertising", "advertisement", "pub", "publicit\xc3\xa9",
		"werb", "werbung", "\xe5\xb9\xbf\xe5\x91\x8a",
		"\xd0\xa0\xd0\xb5\xd0\xba\xd0\xbb\xd0\xb0\xd0\xbc\xd0\xb0",
		"\xd1\x80\xd0\xb5\xd0\xba\xd0\xbb\xd0\xb0\xd0\xbc\xd0\xb0",
		"anuncio", NULL
	};
	static const char *const load[] = {
		"loading", "\xe6\xad\xa3\xe5\x9c\xa8\xe5\x8a\xa0\xe8\xbd\xbd",
		"\xd0\x97\xd0\xb0\xd0\xb3\xd1\x80\xd1\x83\xd0\xb7\xd0\xba\xd0\xb0",
		"\xd0\xb7\xd0\xb0\xd0\xb3\xd1\x80\xd1\x83\xd0\xb7\xd0\xba\xd0\xb0",
		"chargement", "cargando", NULL
	};
	const char *const *w;
	size_t n = strlen(t);

	if (n > 40)
		return 0;
	for (w = ad; *w; w++)
		if (strcasecmp(t, *w) == 0)
			return 1;
	for (w = load; *w; w++) {
		size_t k = strlen(*w);
		if (strncasecmp(t, *w, k) != 0)
			continue;
		if (t[k] == '\0' || strcmp(t + k, "...") == 0 ||
		    strcmp(t + k, "\xe2\x80\xa6") == 0)
			return 1;
	}
	return 0;
}

static int
embed_is_video(const xmlNode *e)
{
	const xmlAttr *a;

	for (a = e->properties; a; a = a->next)
		if (a->children && a->children->content &&
		    re_video((const char *)a->children->content))
			return 1;
	return 0;
}

/* The elements under a node that _cleanConditionally counts. */
struct el_counts {
	double p, img, li, input;
	size_t embeds;
};

/* Count them in one walk; 1 (and stop) at an embed that is a video. */
static int
count_elements(xmlNodePtr node, struct el_counts *k)
{
	xmlNodePtr c;
	const char *t;

	memset(k, 0, sizeof *k);
	k->li = -100;
	for (c = node->children; c; c = bread_walk(c, node, 0)) {
		if (!bread_is_el(c))
			continue;
		t = (const char *)c->name;
		if (!strcmp(t, "p"))
			k->p++;
		else if (!strcmp(t, "img"))
			k->img++;
		else if (!strcmp(t, "li"))
			k->li++;
		else if (!strcmp(t, "input"))
			k->input++;
		else if (!strcmp(t, "object") || !strcmp(t, "embed") ||
		    !strcmp(t, "iframe")) {
			if (embed_is_video(c))
				return 1;
			k->embeds++;
		}
	}
	return 0;
}

/* A list: <ul>, <ol>, or a node whose text is over 90% in lists. */
static int
list_like(xmlNodePtr node, const char *tag, size_t nl)
{
	xmlNodePtr c;
	size_t ll = 0;

	if (!strcmp(tag, "ul") || !strcmp(tag, "ol"))
		return 1;
	for (c = node->children; c; c = bread_walk(c, node, 0))
		if (bread_tag_is(c, "ul") || bread_tag_is(c, "ol"))
			ll += bread_inner_len(c, 1);
	return nl ? (double)ll / (double)nl > 0.9 : ll > 0;
}

/*
 * A simple list of images: no item holds more than one element, and there
 * are as many images as items.
 */
static int
image_list(xmlNodePtr node, double img)
{
	xmlNodePtr k;

	for (k = bread_first_el(node); k; k = bread_next_el(k))
		if (bread_el_count(k) > 1)
			return 0;
	return img == (double)bread_count_tag(node, "li");
}

/*
 * The content tests of _cleanConditionally on a node with fewer than ten
 * commas: too many images, list items or inputs for its paragraphs, little
 * text under much link text, embeds, ads; 1 to remove it.
 */
static int
remove_by_content(struct rd *rd, xmlNodePtr node, const char *tag, int weight)
{
	static const char *const heads[] = { "h1", "h2", "h3", "h4", "h5", "h6", NULL };
	static const char *const textish[] = {
		"span", "li", "td", "blockquote", "dl", "div", "img", "ol", "p",
		"pre", "table", "ul", NULL
	};
	size_t nl = bread_inner_len(node, 1), clen;
	int is_list = list_like(node, tag, nl), fig, remove = 0;
	struct el_counts k;
	struct buf it = BUF_INIT;
	double hd, ld, td;

	if (count_elements(node, &k))
		return 0;
	hd = text_density(node, heads, nl);
	/*
	 * The text's length is nl (bread_inner_len measures bread_inner_text
	 * without building it); the text itself matters to ad_or_loading only
	 * when it is 40 bytes or less, so at most 40 UTF-16 units.
	 */
	clen = nl;
	if (nl <= 40) {
		bread_inner_text(node, 1, &it);
		if (ad_or_loading(buf_str(&it))) {
			buf_release(&it);
			return 1;
		}
		buf_release(&it);
	}
	ld = link_density_len(node, nl);
	td = text_density(node, textish, nl);
	fig = has_ancestor_tag(node, "figure", 3, 0);

	if (!fig && k.img > 1 && k.p / k.img < 0.5)
		remove = 1;
	if (!is_list && k.li > k.p)
		remove = 1;
	if (k.input > floor(k.p / 3))
		remove = 1;
	if (!is_list && !fig && hd < 0.9 && clen < 25 &&
	    (k.img == 0 || k.img > 2) && ld > 0)
		remove = 1;
	if (!is_list && weight < 25 && ld > 0.2)
		remove = 1;
	if (weight >= 25 && ld > 0.5)
		remove = 1;
	if ((k.embeds == 1 && clen < 75) || k.embeds > 1)
		remove = 1;
	if (k.img == 0 && td == 0)
		remove = 1;
	/* allow simple lists of images to remain */
	if (is_list && remove && image_list(node, k.img))
		return 0;
	return remove;
}

/* Readability.js _cleanConditionally: the removal test for one node */
static int
conditionally_remove(struct rd *rd, xmlNodePtr node, const char *tag)
{
	xmlNodePtr c;
	int weight;

	if (!strcmp(tag, "table") && info_get(node) && info_get(node)->datatable == 1)
		return 0;
	if (has_ancestor_tag(node, "table", -1, 1))
		return 0;
	if (has_ancestor_tag(node, "code", 3, 0))
		return 0;
	for (c = node->children; c; c = bread_walk(c, node, 0))
		if (bread_tag_is(c, "table") && info_get(c) && info_get(c)->datatable == 1)
			return 0;
	weight = class_weight(rd, node);
	if (weight < 0)
		return 1;
	if (count_commas(node, 1, 10) >= 10)
		return 0;
	return remove_by_content(rd, node, tag, weight);
}

static void
clean_conditionally(struct rd *rd, xmlNodePtr e, const char *tag)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	if (!(rd->flags & FLAG_CLEAN_CONDITIONALLY))
		return;
	by_tag(rd, e, tag, &v);
	for (i = v.n; i-- > 0; )
		if (v.v[i]->parent && conditionally_remove(rd, v.v[i], tag))
			bury(rd, v.v[i]);
	bread_nvec_free(&v);
}

/* Readability.js _clean */
/*
 * Not in Readability.js, which drops every <aside> of the article: an
 * <aside> whose class names a callout (Starlight's note, tip, caution and
 * danger asides) is part of the documentation's text, not a sidebar.
 */
static int
is_callout(const xmlNode *n)
{
	static const char *const kinds[] = {
		"admonition", "callout", "note", "tip", "caution", "warning",
		"danger", NULL
	};
	const char *c = attr0(n, "class"), *e;
	const char *const *k;

	/* the class's words: runs of letters ("starlight-aside--tip") */
	for (; *c; c = e) {
		while (*c && !((*c | 32) >= 'a' && (*c | 32) <= 'z'))
			c++;
		for (e = c; (*e | 32) >= 'a' && (*e | 32) <= 'z'; e++)
			continue;
		for (k = kinds; *k && e > c; k++)
			if (strlen(*k) == (size_t)(e - c) && strncasecmp(c, *k, (size_t)(e - c)) == 0)
				return 1;
	}
	return 0;
}

static void
clean_tag(struct rd *rd, xmlNodePtr e, const char *tag)
{
	int embed = !strcmp(tag, "object") || !strcmp(tag, "embed") ||
	    !strcmp(tag, "iframe");
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, e, tag, &v);
	for (i = v.n; i-- > 0; ) {
		if (!v.v[i]->parent)
			continue;
		if (embed && embed_is_video(v.v[i]))
			continue;
		if (!strcmp(tag, "aside") && is_callout(v.v[i]))
			continue;
		bury(rd, v.v[i]);
	}
	bread_nvec_free(&v);
}

/* The lower-cased "class id" of node (the matchString of _grabArticle). */
static const char *
match_string(struct buf *mb, const xmlNode *node)
{
	size_t k;

	buf_reset(mb);
	buf_adds(mb, attr0(node, "class"));
	buf_addc(mb, ' ');
	buf_adds(mb, attr0(node, "id"));
	for (k = 0; k < mb->len; k++)
		if (mb->s[k] >= 'A' && mb->s[k] <= 'Z')
			mb->s[k] = (char)(mb->s[k] - 'A' + 'a');
	return buf_str(mb);
}

/*
 * Readability.js _cleanMatchedNodes with REGEXPS.shareElements: the share
 * elements with little text under each top-level child of the article.
 */
static void
clean_shares(struct rd *rd, xmlNodePtr ac)
{
	xmlNodePtr c, end, n;

	for (c = bread_first_el(ac); c; c = bread_next_el(c)) {
		end = get_next_node(c, 1);
		n = get_next_node(c, 0);
		while (n && n != end) {
			if (re_share(match_string(&rd->tmp, n)) &&
			    bread_text_content_len(n) < DEFAULT_CHAR_THRESHOLD)
				n = remove_and_get_next(rd, n);
			else
				n = get_next_node(n, 0);
		}
	}
}

/* Readability.js _cleanHeaders: the h1 and h2 with a negative class weight. */
static void
clean_headers(struct rd *rd, xmlNodePtr ac)
{
	struct nvec v = { NULL, 0, 0 };
	size_t i;

	by_tag(rd, ac, "h1", &v);
	by_tag(rd, ac, "h2", &v);
	for (i = v.n; i-- > 0; )
		if (v.v[i]->parent && class_weight(rd, v.v[i]) < 0)
			bury(rd, v.v[i]);
	bread_nvec_free(&v);
}

/*
 * _prepArticle's "remove extra paragraphs": a <p> without text, images,
 * embeds or frames (outside <pre>), and a <br> right before a <p>.
 */
static void
remove_empty_paragraphs(struct rd *rd, xmlNodePtr ac)
{
	struct nvec v = { NULL, 0, 0 };
	xmlNodePtr p, n;
	size_t i;

	by_tag(rd, ac, "p", &v);
	for (i = v.n; i-- > 0; ) {
		p = v.v[i];
		if (!p->parent)
			continue;
		/* the cheap test first: most paragraphs have text */
		if (!bread_has_text(p) && !in_pre(p) &&
		    bread_count_tag(p, "img") + bread_count_tag(p, "embed") +
		    bread_count_tag(p, "object") + bread_count_tag(p, "iframe") == 0)
			bury(rd, p);
	}
	v.n = 0;
	by_tag(rd, ac, "br", &v);
	for (i = 0; i < v.n; i++) {
		n = next_node(v.v[i]->next);
		if (n && bread_tag_is(n, "p") && v.v[i]->parent)
			bury(rd, v.v[i]);
	}
	bread_nvec_free(&v);
}

/* _prepArticle's single-cell tables: the cell, as a <p> or <div>, for the table. */
static void
unwrap_single_cells(struct rd *rd, xmlNodePtr ac)
{
	struct nvec v = { NULL, 0, 0 };
	xmlNodePtr table, tbody, row, cell, c;
	size_t i;
	int phr;

	by_tag(rd, ac, "table", &v);
	for (i = 0; i < v.n; i++) {
		table = v.v[i];
		if (!table->parent)
			continue;
		tbody = single_tag_inside(table, "tbody") ? bread_first_el(table) : table;
		if (!single_tag_inside(tbody, "tr"))
			continue;
		row = bread_first_el(tbody);
		if (!single_tag_inside(row, "td"))
			continue;
		cell = bread_first_el(row);
		for (phr = 1, c = cell->children; c; c = c->next)
			if (!is_phrasing(c))
				phr = 0;
		set_tag(cell, phr ? "p" : "div");
		bread_replace(table, cell);
		bread_nvec_push(&rd->grave, table);
	}
	bread_nvec_free(&v);
}

/* Readability.js _prepArticle (the parts that change the text) */
static void
prep_article(struct rd *rd, xmlNodePtr ac)
{
	static const char *const cleaned[] = { "object", "embed", "footer", "link", "aside", NULL };
	static const char *const cleaned2[] = { "iframe", "input", "textarea", "select", "button", NULL };
	/*
	 * Every tag looked for below, found in one walk: until the last
	 * look-up, the article changes by removals, by renaming <h1> to <h2>
	 * after the last look-up of either, and by images added to figures.
	 */
	static const char *const looked[] = {
		"table", "figure", "form", "fieldset", "object", "embed",
		"footer", "link", "aside", "iframe", "input", "textarea",
		"select", "button", "h1", "h2", "ul", "div", "p", "br", NULL
	};
	const char *const *t;
	struct nvec v = { NULL, 0, 0 };
	struct bread_tagset ts;
	size_t i;

	bread_tagset_init(&ts, ac, looked);
	rd->tags = &ts;
	mark_data_tables(rd, ac);
	fix_lazy_figures(rd, ac);
	clean_conditionally(rd, ac, "form");
	clean_conditionally(rd, ac, "fieldset");
	for (t = cleaned; *t; t++)
		clean_tag(rd, ac, *t);
	clean_shares(rd, ac);
	for (t = cleaned2; *t; t++)
		clean_tag(rd, ac, *t);
	clean_headers(rd, ac);
	clean_conditionally(rd, ac, "table");
	clean_conditionally(rd, ac, "ul");
	clean_conditionally(rd, ac, "div");
	by_tag(rd, ac, "h1", &v);
	for (i = 0; i < v.n; i++)
		set_tag(v.v[i], "h2");
	bread_nvec_free(&v);
	remove_empty_paragraphs(rd, ac);
	unwrap_single_cells(rd, ac);
	rd->tags = NULL;
	bread_tagset_free(&ts);
}

/*
 * The tags rd_parse looks for from the parse to the metadata, found as the
 * parser makes the tree.  Until then the tree changes by removals, by
 * <font> renamed <span>, by images out of <noscript> put in place of the
 * element before it (after the last look-up of <img> and <noscript>), and
 * by _replaceBrs moving the run after a <br> into a new <p> where the <br>
 * was, which keeps every node in document order.
 */
static const char *const article_tags[] = {
	"img", "noscript", "script", "style", "br", "a", "font", "meta", "h1",
	NULL
};
/*
 * Join each run of adjacent text nodes under n into its first, as copying
 * the tree does (libxml2's xmlAddChild, in xmlDocCopyNode).
 */
static void
join_texts(struct rd *rd, xmlNodePtr n)
{
	xmlNodePtr c, next;

	for (c = n->children; c != NULL; c = next) {
		next = c->next;
		if (c->type == XML_TEXT_NODE && c->prev != NULL &&
		    c->prev->type == XML_TEXT_NODE && c->prev->name == c->name) {
			xmlNodeAddContent(c->prev, c->content);
			c->prev->psvi = NULL;	/* its summary, bread_tsum_node's */
			bury(rd, c);
		} else if (c->type == XML_ELEMENT_NODE)
			join_texts(rd, c);
	}
}

/*
 * The page as it was before the first pass (page.innerHTML = pageCacheHtml):
 * the page parsed again and made ready as rd_parse made it, its body's
 * children, joined as a copy would join them, in place of page's.  Only
 * the pages that need a retry pay for it, instead of every page paying
 * for a copy kept in case.
 */
static void
restore_page(struct rd *rd, xmlNodePtr page)
{
	struct bread_tagset ts;
	htmlDocPtr doc = rd->doc, again;
	xmlNodePtr root, body;

	while (page->children)
		bury(rd, page->children);
	assert(rd->nredo < sizeof rd->redo / sizeof rd->redo[0]);
	bread_tagset_start(&ts, article_tags);
	again = bread_parse_dict(rd->utf8, rd->len, &ts, doc->dict);
	if (again == NULL || (root = xmlDocGetRootElement(again)) == NULL) {
		bread_tagset_free(&ts);
		if (again != NULL)
			rd->redo[rd->nredo++] = again;
		return;
	}
	rd->redo[rd->nredo++] = again;
	rd->doc = again;
	rd->tags = &ts;
	unwrap_noscript_images(rd, root);
	prep_tree(rd, root);
	rd->tags = NULL;
	bread_tagset_free(&ts);
	if ((body = doc_body(again)) != NULL) {
		join_texts(rd, body);
		while (body->children != NULL)
			bread_append(page, body->children);
	}
	rd->doc = doc;
}

struct attempt {
	xmlNodePtr content;
	size_t len;
};

/*
 * _grabArticle's first test of each node: 1 when it goes (hidden, a modal
 * dialog, the byline, the header repeating the title, an unlikely
 * candidate, an empty block).
 */
static int
drop_in_walk(struct rd *rd, xmlNodePtr node, struct buf *mb, int strip,
    int *remove_title_header)
{
	static const char *const empties[] = {
		"div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6", NULL
	};
	const char *role, *am, *lc = NULL;

	if (!probably_visible(node))
		return 1;
	role = bread_attr(node, "role");
	am = bread_attr(node, "aria-modal");
	if (am && !strcmp(am, "true") && role && !strcmp(role, "dialog"))
		return 1;
	/* the matchString, made only when a test below reads it */
	if (strip || !(rd->byline || rd->meta_byline))
		lc = match_string(mb, node);
	if (check_byline(rd, node, lc))
		return 1;
	if (*remove_title_header && header_duplicates_title(rd, node)) {
		*remove_title_header = 0;
		return 1;
	}
	if (strip) {
		if (any_of(lc, re_unlikely) && !any_of(lc, re_maybe) &&
		    !has_ancestor_tag(node, "table", 3, 0) &&
		    !has_ancestor_tag(node, "code", 3, 0) &&
		    !bread_tag_is(node, "body") && !bread_tag_is(node, "a"))
			return 1;
		if (in_list(role, unlikely_roles))
			return 1;
	}
	return tag_in(node, empties) && without_content(node) && !in_pre(node);
}

/*
 * _grabArticle's handling of a <div>: runs of phrasing children wrapped in
 * <p>, a div holding one paragraph replaced by it, a div without block
 * children made a <p>.  Returns the node the walk goes on from.
 */
static xmlNodePtr
div_paragraphs(struct rd *rd, xmlNodePtr node, struct nvec *to_score)
{
	xmlNodePtr p = NULL, ch = node->children, nx, nn;

	for (; ch; ch = nx) {
		nx = ch->next;
		if (is_phrasing(ch)) {
			if (p) {
				bread_append(p, ch);
			} else if (!is_whitespace(ch)) {
				p = xmlNewDocNode(rd->doc, NULL, BAD_CAST "p", NULL);
				bread_replace(ch, p);
				bread_append(p, ch);
			}
		} else if (p) {
			while (p->last && is_whitespace(p->last))
				bury(rd, p->last);
			p = NULL;
		}
	}
	if (single_tag_inside(node, "p") && link_density(node) < 0.25) {
		nn = bread_first_el(node);
		bread_replace(node, nn);
		bread_nvec_push(&rd->grave, node);
		bread_nvec_push(to_score, nn);
		return nn;
	}
	if (!has_child_block(node)) {
		set_tag(node, "p");
		bread_nvec_push(to_score, node);
	}
	return node;
}

/* _grabArticle's walk over the document: the elements to score. */
static void
walk_document(struct rd *rd, struct buf *mb, struct nvec *to_score)
{
	int strip = rd->flags & FLAG_STRIP_UNLIKELYS;
	int remove_title_header = 1;
	xmlNodePtr node = xmlDocGetRootElement(rd->doc);

	while (node) {
		if (drop_in_walk(rd, node, mb, strip, &remove_title_header)) {
			node = remove_and_get_next(rd, node);
			continue;
		}
		if (tag_in(node, tags_to_score))
			bread_nvec_push(to_score, node);
		if (bread_tag_is(node, "div"))
			node = div_paragraphs(rd, node, to_score);
		node = get_next_node(node, 0);
	}
}

/*
 * Score each paragraph (commas and length) into its ancestors, five levels
 * up; the ancestors scored are appended to cands.
 */
static void
score_paragraphs(struct rd *rd, const struct nvec *to_score, struct nvec *cands)
{
	size_t i;

	for (i = 0; i < to_score->n; i++) {
		xmlNodePtr e = to_score->v[i], a;
		size_t len;
		double score;
		int level;

		if (!e->parent || !bread_is_el(e->parent))
			continue;
		len = bread_inner_len(e, 1);
		if (len < 25)
			continue;
		score = 1 + (double)(count_commas(e, 0, SIZE_MAX) + 1) +
		    (double)(len / 100 < 3 ? len / 100 : 3);
		for (a = e->parent, level = 0; a && level < 5; a = a->parent, level++) {
			double div;
			struct rinfo *r;
			if (!bread_is_el(a) || !a->parent || !bread_is_el(a->parent))
				continue;
			if ((r = info_get(a)) == NULL) {
				r = initialize_node(rd, a);
				bread_nvec_push(cands, a);
			}
			div = level == 0 ? 1 : level == 1 ? 2 : level * 3.0;
			r->score += score / div;
		}
	}
}

/*
 * One candidate open in link_densities' walk: its text so far and its link
 * text, summed link by link in document order as _getLinkDensity does.
 */
struct open_cand {
	xmlNodePtr n;
	struct bread_tsum ts;
	double ll;
};

/* Close the innermost open candidate: its density, its text to its parent. */
static void
close_cand(struct open_cand *st, size_t *depth)
{
	struct open_cand *o = &st[--*depth];
	struct rinfo *r = info_get(o->n);

	r->ld = o->ts.len ? o->ll / (double)o->ts.len : 0;
	r->ld_state = LD_DONE;
	if (*depth)
		bread_tsum_cat(&st[*depth - 1].ts, &o->ts);
}

/* Node n entered: a link counts in every open candidate, text in the innermost. */
static void
enter_node(xmlNodePtr n, struct open_cand *st, size_t depth)
{
	struct bread_tsum ts;
	const char *href;
	double coef, len;
	size_t i;

	if (bread_tag_is(n, "a")) {
		href = bread_attr(n, "href");
		coef = href && href[0] == '#' && href[1] ? 0.3 : 1;
		len = (double)bread_inner_len(n, 1);
		for (i = 0; i < depth; i++)
			st[i].ll += len * coef;
	} else if (bread_is_text(n) && n->content) {
		bread_tsum_node(n, &ts);
		bread_tsum_cat(&st[depth - 1].ts, &ts);
	}
}

/* After n's subtree: close what ends there; the next node, NULL after root. */
static xmlNodePtr
leave_node(xmlNodePtr n, const xmlNode *root, struct open_cand *st, size_t *depth)
{
	for (;;) {
		if (*depth && st[*depth - 1].n == n)
			close_cand(st, depth);
		if (n == root)
			return NULL;
		if (n->next != NULL)
			return n->next;
		n = n->parent;
	}
}

/*
 * link_density of every element marked LD_WANTED under root, in one walk
 * instead of two walks of each candidate's subtree: the inner text lengths
 * are joined from each text node's summary, and the link lengths added to
 * each open candidate in document order, so that every density is the
 * same double.
 */
static void
link_densities(xmlNodePtr root)
{
	size_t depth = 0, cap = 32;
	struct open_cand *st = xreallocarray(NULL, cap, sizeof *st);
	struct rinfo *r;
	xmlNodePtr n = root;

	while (n != NULL) {
		if (depth)
			enter_node(n, st, depth);
		if (n->type == XML_ELEMENT_NODE) {
			if ((r = info_get(n)) != NULL && r->ld_state == LD_WANTED) {
				if (depth == cap)
					st = xreallocarray(st, cap *= 2, sizeof *st);
				memset(&st[depth], 0, sizeof *st);
				st[depth++].n = n;
			}
			if (n->children != NULL) {
				n = n->children;
				continue;
			}
		}
		n = leave_node(n, root, st, &depth);
	}
	free(st);
}

/* The N_TOP_CANDIDATES best candidates, scores scaled by link density. */
static size_t
top_candidates(struct rd *rd, const struct nvec *cands,
    xmlNodePtr top[N_TOP_CANDIDATES])
{
	size_t ntop = 0, i, t, k;
	struct rinfo *r;

	for (i = 0; i < cands->n; i++)
		info_get(cands->v[i])->ld_state = LD_WANTED;
	link_densities(xmlDocGetRootElement(rd->doc));
	for (i = 0; i < cands->n; i++) {
		xmlNodePtr c = cands->v[i];

		r = info_get(c);
		assert(r != NULL);
		/* a candidate out of the document since it was scored */
		if (r->ld_state != LD_DONE)
			r->ld = link_density(c);
		r->score = r->score * (1 - r->ld);
		for (t = 0; t < N_TOP_CANDIDATES; t++) {
			if (t >= ntop || r->score > info_get(top[t])->score) {
				k = ntop < N_TOP_CANDIDATES ? ntop : N_TOP_CANDIDATES - 1;
				for (; k > t; k--)
					top[k] = top[k - 1];
				top[t] = c;
				if (ntop < N_TOP_CANDIDATES)
					ntop++;
				break;
			}
		}
	}
	assert(ntop <= N_TOP_CANDIDATES);
	return ntop;
}

/* An ancestor of tc shared by at least three of the alternatives, or tc. */
static xmlNodePtr
shared_ancestor(xmlNodePtr tc, xmlNodePtr *alt, size_t nalt)
{
	xmlNodePtr ptc, a;
	size_t hits, k;

	if (nalt < 3)
		return tc;
	for (ptc = tc->parent; bread_is_el(ptc) && !bread_tag_is(ptc, "body");
	    ptc = ptc->parent) {
		hits = 0;
		for (k = 0; k < nalt && hits < 3; k++)
			for (a = alt[k]->parent; a; a = a->parent)
				if (a == ptc) {
					hits++;
					break;
				}
		if (hits >= 3)
			return ptc;
	}
	return tc;
}

/*
 * _grabArticle's choice of the top candidate from the best ones: a shared
 * ancestor of close alternatives, a parent scoring higher, the parent of an
 * only child.  With no candidate (or <body>), the page's children moved
 * into a new <div>.
 */
static xmlNodePtr
pick_candidate(struct rd *rd, xmlNodePtr page, xmlNodePtr *top, size_t ntop)
{
	xmlNodePtr tc = ntop ? top[0] : NULL, ptc, alt[N_TOP_CANDIDATES];
	size_t nalt = 0, i;
	double last, thr;

	if (tc == NULL || bread_tag_is(tc, "body")) {
		tc = xmlNewDocNode(rd->doc, NULL, BAD_CAST "div", NULL);
		while (page->children)
			bread_append(tc, page->children);
		bread_append(page, tc);
		initialize_node(rd, tc);
		return tc;
	}
	for (i = 1; i < ntop; i++)
		if (info_get(top[i])->score / info_get(tc)->score >= 0.75)
			alt[nalt++] = top[i];
	tc = shared_ancestor(tc, alt, nalt);
	if (!info_get(tc))
		initialize_node(rd, tc);
	/* a parent scoring higher is a better candidate */
	last = info_get(tc)->score;
	thr = last / 3;
	for (ptc = tc->parent; bread_is_el(ptc) && !bread_tag_is(ptc, "body");
	    ptc = ptc->parent) {
		struct rinfo *pr = info_get(ptc);
		if (!pr)
			continue;
		if (pr->score < thr)
			break;
		if (pr->score > last) {
			tc = ptc;
			break;
		}
		last = pr->score;
	}
	/* an only child: use the parent */
	for (ptc = tc->parent; bread_is_el(ptc) && !bread_tag_is(ptc, "body") &&
	    bread_el_count(ptc) == 1; ptc = tc->parent)
		tc = ptc;
	if (!info_get(tc))
		initialize_node(rd, tc);
	return tc;
}

/* 1 when sibling s of the top candidate (score tscore) joins the article. */
static int
sibling_joins(const xmlNode *s, const xmlNode *tc, double tscore)
{
	double thr = tscore * 0.2 > 10 ? tscore * 0.2 : 10, bonus = 0, ld;
	const char *tcls = attr0(tc, "class");
	struct rinfo *sr = info_get(s);
	struct buf b = BUF_INIT;
	size_t nl;
	int append = 0;

	if (s == tc)
		return 1;
	if (*tcls && strcmp(attr0(s, "class"), tcls) == 0)
		bonus += tscore * 0.2;
	if (sr && sr->score + bonus >= thr)
		return 1;
	if (!bread_tag_is(s, "p"))
		return 0;
	ld = link_density(s);
	bread_inner_text(s, 1, &b);
	nl = bread_js_len(buf_str(&b), b.len);
	if (nl > 80 && ld < 0.25)
		append = 1;
	else if (nl < 80 && nl > 0 && ld == 0 &&
	    (strstr(buf_str(&b), ". ") || (b.len && b.s[b.len - 1] == '.')))
		append = 1;
	buf_release(&b);
	return append;
}

/* The top candidate and the siblings worth joining, in a new <div>. */
static xmlNodePtr
join_siblings(struct rd *rd, xmlNodePtr tc)
{
	static const char *const keep[] = { "div", "article", "section", "p", NULL };
	xmlNodePtr ac = xmlNewDocNode(rd->doc, NULL, BAD_CAST "div", NULL);
	xmlNodePtr ptc = tc->parent, s, snext;
	double tscore = info_get(tc)->score;

	bread_nvec_push(&rd->grave, ac);
	for (s = ptc ? bread_first_el(ptc) : tc; s; s = snext) {
		snext = bread_next_el(s);
		if (sibling_joins(s, tc, tscore)) {
			if (!tag_in(s, keep))
				set_tag(s, "div");
			bread_append(ac, s);
		}
		if (ptc == NULL)
			break;
	}
	return ac;
}

/* One pass of _grabArticle with the current flags: the article candidate. */
static xmlNodePtr
grab_once(struct rd *rd, xmlNodePtr page, struct buf *mb)
{
	struct nvec to_score = { NULL, 0, 0 }, cands = { NULL, 0, 0 };
	xmlNodePtr top[N_TOP_CANDIDATES], tc, ac;
	size_t ntop;

	walk_document(rd, mb, &to_score);
	score_paragraphs(rd, &to_score, &cands);
	ntop = top_candidates(rd, &cands, top);
	bread_nvec_free(&cands);
	bread_nvec_free(&to_score);
	tc = pick_candidate(rd, page, top, ntop);
	assert(tc != NULL && info_get(tc) != NULL);
	ac = join_siblings(rd, tc);
	prep_article(rd, ac);
	return ac;
}

/*
 * Readability.js _grabArticle: a pass with all flags, then again without
 * stripping unlikely candidates, without class weights, without
 * conditional cleaning, while the text is under threshold; then the
 * longest attempt.
 */
static xmlNodePtr
grab_article(struct rd *rd, size_t threshold)
{
	xmlNodePtr page = doc_body(rd->doc), ac;
	struct attempt att[4];
	size_t natt = 0, i, best, tlen;
	struct buf mb = BUF_INIT;

	if (page == NULL)
		return NULL;
	for (;;) {
		ac = grab_once(rd, page, &mb);
		tlen = bread_inner_len(ac, 1);
		if (tlen >= threshold)
			break;
		assert(natt < sizeof att / sizeof att[0]);
		att[natt].content = ac;
		att[natt].len = tlen;
		natt++;
		if (rd->flags & FLAG_STRIP_UNLIKELYS) {
			rd->flags &= ~FLAG_STRIP_UNLIKELYS;
		} else if (rd->flags & FLAG_WEIGHT_CLASSES) {
			rd->flags &= ~FLAG_WEIGHT_CLASSES;
		} else if (rd->flags & FLAG_CLEAN_CONDITIONALLY) {
			rd->flags &= ~FLAG_CLEAN_CONDITIONALLY;
		} else {
			/* the longest attempt (the first of equals, as a stable sort) */
			for (best = 0, i = 1; i < natt; i++)
				if (att[i].len > att[best].len)
					best = i;
			ac = att[best].len ? att[best].content : NULL;
			break;
		}
		restore_page(rd, page);
	}
	buf_release(&mb);
	return ac;
}

/* ---------------------------------------------------------------- driver */

static int
ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(xmlNodePtr const *)a;
	uintptr_t y = (uintptr_t)*(xmlNodePtr const *)b;

	return x < y ? -1 : x > y;
}

/* The nodes of rd's graveyard freed (not when the arena frees them all). */
static void
free_grave(struct rd *rd)
{
	size_t i, j;

	/*
	 * graveyard: decide first which entries are detached roots (a buried
	 * node may since have been re-attached, or buried twice), then free
	 * each root once.
	 */
	for (i = j = 0; i < rd->grave.n; i++)
		if (rd->grave.v[i]->parent == NULL)
			rd->grave.v[j++] = rd->grave.v[i];
	rd->grave.n = j;
	if (rd->grave.n > 1)
		qsort(rd->grave.v, rd->grave.n, sizeof *rd->grave.v, ptr_cmp);
	for (i = 0; i < rd->grave.n; i++)
		if (i == 0 || rd->grave.v[i] != rd->grave.v[i - 1])
			xmlFreeNode(rd->grave.v[i]);
}

static void
rd_release(struct rd *rd)
{
	size_t i;

	bread_nvec_free(&rd->grave);
	bread_nvec_free(&rd->infos);
	for (i = 0; i < rd->arena.nblocks; i++)
		free(rd->arena.blocks[i]);
	free(rd->title);
	free(rd->byline);
	free(rd->meta_byline);
	free(rd->meta_excerpt);
	buf_release(&rd->tmp);
}

/*
 * Run the extraction on a parsed document.  Returns the article element
 * (owned by rd's graveyard) or NULL; fills the metadata in rd.
 */
static xmlNodePtr
rd_parse(struct rd *rd, struct bread_tagset *ts, size_t threshold)
{
	xmlNodePtr root = xmlDocGetRootElement(rd->doc);
	xmlNodePtr ac;
	struct jsonld jl;

	if (root == NULL) {
		rd->title = xstrdup("");
		return NULL;
	}
	rd->tags = ts;
	unwrap_noscript_images(rd, root);
	get_jsonld(rd, &jl);
	prep_tree(rd, root);
	get_metadata(rd, &jl);
	rd->tags = NULL;
	free(jl.title);
	free(jl.byline);
	free(jl.excerpt);
	ac = grab_article(rd, threshold);
	return ac;
}

/* Forget the score records before the arena goes (libxml2 never reads _private). */
static void
clear_private(struct rd *rd)
{
	size_t i;

	for (i = 0; i < rd->infos.n; i++)
		rd->infos.v[i]->_private = NULL;
}

/*
 * --whole: the elements a reader does not see go, with their subtrees
 * (probably_visible's rules: display:none, visibility:hidden, the hidden
 * attribute, aria-hidden="true", with its exceptions).
 */
static void
remove_hidden(struct rd *rd, xmlNodePtr root)
{
	xmlNodePtr n = root->children, next;

	while (n != NULL) {
		if (n->type == XML_ELEMENT_NODE && !probably_visible(n)) {
			next = bread_walk(n, root, 1);
			bury(rd, n);
		} else
			next = bread_walk(n, root, 0);
		n = next;
	}
}

/* --whole: the text of the whole body, without what is never seen. */
static void
render_whole(struct rd *rd, struct bread_tagset *ts, const struct bread_opts *o,
    struct buf *out)
{
	xmlNodePtr root = xmlDocGetRootElement(rd->doc), body;
	const char *const *t;

	if (root) {
		/* removals only: the set made while parsing serves */
		rd->tags = ts;
		for (t = ts->tags; *t; t++)
			remove_tags(rd, root, *t);
		rd->tags = NULL;
		remove_hidden(rd, root);
	}
	rd->title = doc_title(rd->doc);
	body = doc_body(rd->doc);
	if (body)
		bread_render(body, o->style, out);
}

/* --whole: the elements never seen, which only go (removals only) */
static const char *const whole_tags[] = {
	"script", "style", "noscript", "template", NULL
};

void
bread_rd_run(const char *utf8, size_t len, const struct bread_opts *o,
    struct bread_result *res)
{
	struct bread_tagset ts;
	struct rd rd;
	xmlNodePtr ac = NULL;
	struct buf out = BUF_INIT;
	size_t i;
	int arena;

	memset(&rd, 0, sizeof rd);
	rd.utf8 = utf8;
	rd.len = len;
	rd.flags = FLAG_STRIP_UNLIKELYS | FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY;
	arena = bread_xmem_begin();
	bread_tagset_start(&ts, o->whole ? whole_tags : article_tags);
	rd.doc = bread_parse(utf8, len, &ts);
	res->parsed = rd.doc != NULL;
	if (rd.doc == NULL) {
		bread_tagset_free(&ts);
		bread_xmem_end();
		res->title = xstrdup("");
		res->text = xstrdup("");
		res->text_len = 0;
		return;
	}
	if (o->whole)
		render_whole(&rd, &ts, o, &out);
	else {
		ac = rd_parse(&rd, &ts, o->char_threshold ? o->char_threshold :
		    DEFAULT_CHAR_THRESHOLD);
		if (ac)
			bread_render(ac, o->style, &out);
		/* excerpt: the metadata's, else the first paragraph's text */
		if (rd.meta_excerpt == NULL && ac) {
			struct nvec v = { NULL, 0, 0 };
			bread_by_tag(ac, "p", &v);
			if (v.n) {
				struct buf b = BUF_INIT;
				bread_text_content(v.v[0], &b);
				rd.meta_excerpt = bread_js_trim(buf_str(&b), b.len);
				buf_release(&b);
			}
			bread_nvec_free(&v);
		}
	}
	bread_tagset_free(&ts);
	buf_adds(&out, "");
	res->text = buf_detach(&out, &res->text_len);
	res->title = rd.title ? rd.title : xstrdup("");
	rd.title = NULL;
	res->byline = rd.meta_byline ? rd.meta_byline : rd.byline;
	if (res->byline == rd.meta_byline)
		rd.meta_byline = NULL;
	else
		rd.byline = NULL;
	res->excerpt = rd.meta_excerpt;
	rd.meta_excerpt = NULL;
	if (arena) {
		/*
		 * the dictionary's lock is the C library's, the rest the
		 * arena's: its references dropped, the retries' documents' too
		 */
		for (i = 0; i < rd.nredo; i++)
			if (rd.redo[i]->dict != NULL)
				xmlDictFree(rd.redo[i]->dict);
		if (rd.doc->dict != NULL)
			xmlDictFree(rd.doc->dict);
		bread_xmem_end();
	} else {
		clear_private(&rd);
		free_grave(&rd);
		for (i = 0; i < rd.nredo; i++)
			xmlFreeDoc(rd.redo[i]);
		xmlFreeDoc(rd.doc);
	}
	rd_release(&rd);
}
