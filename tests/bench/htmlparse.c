/*
 * htmlparse.c - the measuring side of tests/bench/htmlparse.sh: how long
 * each HTML parser written in C that Debian packages takes to parse the
 * same pages, against libxml2 as bread runs it: bread's own bread_parse
 * (tools/bread/parse.c, linked from build/lib/libbread.a), so the options
 * and the way the page is fed are bread's.  Built by htmlparse.sh with
 * -DHAVE_GUMBO, -DHAVE_MYHTML, -DHAVE_TIDY for the parsers it found.
 *
 *   htmlparse ROUNDS FILE...
 *
 * Every FILE is read once into memory and decoded to UTF-8 as bread
 * decodes it (bread_decode), and every parser is given that text.  Then, ROUNDS times, each parser in
 * turn (interleaved, so that the machine's load falls on all alike) parses
 * every page and frees the tree; parse and free are timed apart by CPU
 * time (CLOCK_PROCESS_CPUTIME_ID).  After the rounds, each tree is parsed
 * once more and its elements counted, as a check that the parser read the
 * whole page.  One line a parser:
 *
 *   NAME PARSE_S FREE_S ELEMENTS
 *
 * Each parser allocates with the C library's malloc (bread's arena, which
 * makes libxml2's frees nearly free, is not used here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>
#include "bread.h"
#include "cputime.h"
#include "ctx.h"
#include "fsutil.h"
#include "parse.h"
#ifdef HAVE_GUMBO
#include <gumbo.h>
#endif
#ifdef HAVE_MYHTML
#include <myhtml/api.h>
#endif
#ifdef HAVE_TIDY
#include <tidy/tidy.h>
#include <tidy/tidybuffio.h>
#endif

struct page {
	char *s;
	size_t n;
};

/* One parser: parse page p into an opaque tree, count its elements, free it. */
struct parser {
	const char *name;
	void *(*parse)(void *self, const struct page *p);
	size_t (*count)(void *tree);
	void (*release)(void *self, void *tree);
	void *self;
	double parse_s, free_s;
	size_t elements;
};

/* The page at path, decoded to UTF-8 as bread decodes it. */
static void
read_page(const char *path, struct page *p)
{
	size_t len;
	char *raw = read_file(path, &len, (size_t)64 << 20);

	if (raw == NULL)
		die("%s: cannot read", path);
	p->s = bread_decode(raw, len, NULL, &p->n, NULL);
	free(raw);
}

/* ---------------------------------------------------------------- libxml2 */

static void *
xml_parse(void *self, const struct page *p)
{
	(void)self;
	return bread_parse(p->s, p->n, NULL);
}

static size_t
xml_count_from(const xmlNode *n)
{
	size_t k = 0;

	for (; n != NULL; n = n->next)
		if (n->type == XML_ELEMENT_NODE)
			k += 1 + xml_count_from(n->children);
	return k;
}

static size_t
xml_count(void *tree)
{
	return tree ? xml_count_from(((xmlDocPtr)tree)->children) : 0;
}

static void
xml_release(void *self, void *tree)
{
	(void)self;
	if (tree)
		xmlFreeDoc(tree);
}

/* ---------------------------------------------------------------- gumbo */
#ifdef HAVE_GUMBO
static void *
gumbo_parse_page(void *self, const struct page *p)
{
	(void)self;
	return gumbo_parse_with_options(&kGumboDefaultOptions, p->s, p->n);
}

static size_t
gumbo_count_from(const GumboNode *n)
{
	size_t k = 0, i;

	if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE &&
	    n->type != GUMBO_NODE_DOCUMENT)
		return 0;
	if (n->type != GUMBO_NODE_DOCUMENT)
		k = 1;
	const GumboVector *kids = n->type == GUMBO_NODE_DOCUMENT ?
	    &n->v.document.children : &n->v.element.children;
	for (i = 0; i < kids->length; i++)
		k += gumbo_count_from(kids->data[i]);
	return k;
}

static size_t
gumbo_count(void *tree)
{
	return gumbo_count_from(((GumboOutput *)tree)->document);
}

static void
gumbo_release(void *self, void *tree)
{
	(void)self;
	gumbo_destroy_output(&kGumboDefaultOptions, tree);
}
#endif

/* ---------------------------------------------------------------- MyHTML */
#ifdef HAVE_MYHTML
/*
 * One tree made once and cleaned after each page, as MyHTML's examples
 * reuse it (its memory pools are kept): the cleaning is timed as the free.
 */
static void *
myhtml_parse_page(void *self, const struct page *p)
{
	myhtml_parse(self, MyENCODING_UTF_8, p->s, p->n);
	return self;
}

static size_t
myhtml_count_from(myhtml_tree_node_t *n)
{
	size_t k = 0;
	myhtml_tag_id_t id;

	for (; n != NULL; n = myhtml_node_next(n)) {
		id = myhtml_node_tag_id(n);
		if (id != MyHTML_TAG__TEXT && id != MyHTML_TAG__COMMENT &&
		    id != MyHTML_TAG__DOCTYPE && id != MyHTML_TAG__UNDEF)
			k++;
		k += myhtml_count_from(myhtml_node_child(n));
	}
	return k;
}

static size_t
myhtml_count(void *tree)
{
	return myhtml_count_from(myhtml_node_child(myhtml_tree_get_document(tree)));
}

static void
myhtml_release(void *self, void *tree)
{
	(void)self;
	myhtml_tree_clean(tree);
}
#endif

/* ---------------------------------------------------------------- tidy */
#ifdef HAVE_TIDY
static void *
tidy_parse_page(void *self, const struct page *p)
{
	TidyDoc td = tidyCreate();
	TidyBuffer in;

	(void)self;
	tidyOptSetBool(td, TidyQuiet, yes);
	tidyOptSetBool(td, TidyShowWarnings, no);
	tidyOptSetInt(td, TidyShowErrors, 0);
	tidyOptSetBool(td, TidyForceOutput, yes);
	tidySetInCharEncoding(td, "utf8");
	tidySetErrorBuffer(td, NULL);
	tidyBufInit(&in);
	tidyBufAttach(&in, (byte *)p->s, (uint)p->n);
	tidyParseBuffer(td, &in);
	tidyBufDetach(&in);
	return (void *)td;
}

static size_t
tidy_count_from(TidyNode n)
{
	size_t k = 0;

	for (; n != NULL; n = tidyGetNext(n)) {
		TidyNodeType t = tidyNodeGetType(n);
		if (t == TidyNode_Start || t == TidyNode_StartEnd)
			k++;
		k += tidy_count_from(tidyGetChild(n));
	}
	return k;
}

static size_t
tidy_count(void *tree)
{
	return tidy_count_from(tidyGetChild(tidyGetRoot((TidyDoc)tree)));
}

static void
tidy_release(void *self, void *tree)
{
	(void)self;
	tidyRelease((TidyDoc)tree);
}
#endif

/* ---------------------------------------------------------------- driver */

static size_t
parsers_init(struct parser *ps)
{
	size_t n = 0;

	ps[n++] = (struct parser){ "libxml2", xml_parse, xml_count, xml_release,
	    NULL, 0, 0, 0 };
#ifdef HAVE_GUMBO
	ps[n++] = (struct parser){ "gumbo", gumbo_parse_page, gumbo_count,
	    gumbo_release, NULL, 0, 0, 0 };
#endif
#ifdef HAVE_MYHTML
	myhtml_t *mh = myhtml_create();
	myhtml_tree_t *mt = myhtml_tree_create();
	if (mh == NULL || myhtml_init(mh, MyHTML_OPTIONS_PARSE_MODE_SINGLE, 1, 0) !=
	    MyHTML_STATUS_OK || mt == NULL ||
	    myhtml_tree_init(mt, mh) != MyHTML_STATUS_OK)
		die("MyHTML: cannot initialise");
	ps[n++] = (struct parser){ "myhtml", myhtml_parse_page, myhtml_count,
	    myhtml_release, mt, 0, 0, 0 };
#endif
#ifdef HAVE_TIDY
	ps[n++] = (struct parser){ "tidy", tidy_parse_page, tidy_count,
	    tidy_release, NULL, 0, 0, 0 };
#endif
	return n;
}

/* One round of parser ps over every page, timed. */
static void
one_round(struct parser *ps, const struct page *pages, size_t npages)
{
	size_t i;
	double t0, t1;
	void *tree;

	for (i = 0; i < npages; i++) {
		t0 = cpu_now();
		tree = ps->parse(ps->self, &pages[i]);
		t1 = cpu_now();
		ps->release(ps->self, tree);
		ps->parse_s += t1 - t0;
		ps->free_s += cpu_now() - t1;
	}
}

int
main(int argc, char **argv)
{
	struct parser ps[4];
	struct page *pages;
	size_t np, npages, i, k;
	int rounds, r;
	void *tree;

	ctx_init("htmlparse");
	if (argc < 3 || (rounds = (int)strtol(argv[1], NULL, 10)) < 1)
		die("usage: htmlparse ROUNDS FILE...");
	npages = (size_t)(argc - 2);
	if ((pages = calloc(npages, sizeof *pages)) == NULL)
		die("out of memory: pages");
	for (i = 0; i < npages; i++)
		read_page(argv[i + 2], &pages[i]);
	xmlInitParser();
	np = parsers_init(ps);
	for (r = 0; r < rounds; r++)
		for (k = 0; k < np; k++)
			one_round(&ps[k], pages, npages);
	for (k = 0; k < np; k++) {
		for (i = 0; i < npages; i++) {
			tree = ps[k].parse(ps[k].self, &pages[i]);
			ps[k].elements += ps[k].count(tree);
			ps[k].release(ps[k].self, tree);
		}
		printf("%s %.3f %.3f %zu\n", ps[k].name, ps[k].parse_s,
		    ps[k].free_s, ps[k].elements);
	}
	return 0;
}
