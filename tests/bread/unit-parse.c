/*
 * unit-parse.c - bread_parse (tools/bread/parse.c) against libxml2 parsing
 * unaided with the same options: the two trees must be the same node for
 * node (type, name, text, attributes, line numbers), and the tag set made
 * while parsing the one a walk of the tree makes, on <script> and
 * <style> text made to meet every case parse.c reads or leaves to libxml2
 * (its 1000-byte blocks, end tags in any case and near misses, control
 * characters, noncharacters, multi-byte characters across a block's end,
 * an element left open at the end of the page), on pseudo-random pages,
 * and on the pages bread is checked on (tests/bread/page-list --seeds).
 *
 *   unit-parse LIST [NOTE]
 *
 * LIST names the pages, one path a line; a NOTE (page-list's note on what
 * is absent) is reported as a skipped test.
 */
#include <stdlib.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include "ctx.h"
#include "fsutil.h"
#include "tap.h"
#include "../../tools/bread/bread.h"
#include "../../tools/bread/dom.h"
#include "../../tools/bread/parse.h"

/* libxml2 unaided: bread_parse's steps without its callback. */
static htmlDocPtr
plain_parse(const char *s, size_t n)
{
	htmlParserCtxtPtr ctxt = htmlCreateMemoryParserCtxt(s, (int)n);
	htmlDocPtr doc;

	if (ctxt == NULL)
		return NULL;
	htmlCtxtUseOptions(ctxt, BREAD_PARSE_OPTIONS);
	xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
	htmlParseDocument(ctxt);
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	htmlFreeParserCtxt(ctxt);
	return doc;
}

static int
same_str(const xmlChar *a, const xmlChar *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp((const char *)a, (const char *)b) == 0);
}

static int same_nodes(const xmlNode *a, const xmlNode *b);

static int
same_attrs(const xmlAttr *a, const xmlAttr *b)
{
	for (; a && b; a = a->next, b = b->next)
		if (!same_str(a->name, b->name) ||
		    !same_nodes(a->children, b->children))
			return 0;
	return a == NULL && b == NULL;
}

/* The sibling lists from a and b, and their subtrees, alike. */
static int
same_nodes(const xmlNode *a, const xmlNode *b)
{
	for (; a && b; a = a->next, b = b->next) {
		/* a DTD node is an xmlDtd: nothing past its name is a node's */
		if (a->type == XML_DTD_NODE && b->type == XML_DTD_NODE) {
			if (!same_str(a->name, b->name))
				return 0;
			continue;
		}
		if (a->type != b->type || a->line != b->line ||
		    !same_str(a->name, b->name) || !same_str(a->content, b->content))
			return 0;
		if (a->type == XML_ELEMENT_NODE &&
		    !same_attrs(a->properties, b->properties))
			return 0;
		if (!same_nodes(a->children, b->children))
			return 0;
	}
	return a == NULL && b == NULL;
}

/* The tag set bread_parse made for doc: what a walk of its root finds. */
static int
same_tagset(htmlDocPtr doc, const struct bread_tagset *ts)
{
	struct nvec got = { NULL, 0, 0 }, want = { NULL, 0, 0 };
	xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
	size_t k;
	int same = ts->root == root;

	for (k = 0; same && root != NULL && ts->tags[k] != NULL; k++) {
		got.n = want.n = 0;
		(void)bread_tagset_get(ts, root, ts->tags[k], &got);
		bread_by_tag(root, ts->tags[k], &want);
		same = got.n == want.n &&
		    (got.n == 0 || memcmp(got.v, want.v, got.n * sizeof *got.v) == 0);
	}
	bread_nvec_free(&got);
	bread_nvec_free(&want);
	return same;
}

/*
 * 1 when bread_parse and libxml2 unaided give the same tree for s, and the
 * tag set made while parsing is the one a walk makes.
 */
static int
same_tree(const char *s, size_t n)
{
	static const char *const tags[] = {
		"img", "noscript", "script", "style", "br", "a", "font", "meta",
		"h1", "p", "div", "template", "html", "body", NULL
	};
	struct bread_tagset ts;
	htmlDocPtr a, b;
	int same;

	bread_tagset_start(&ts, tags);
	a = bread_parse(s, n, &ts);
	b = plain_parse(s, n);
	same = ((a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && same_nodes(a->children, b->children))) &&
	    same_tagset(a, &ts);
	bread_tagset_free(&ts);
	xmlFreeDoc(a);
	xmlFreeDoc(b);
	return same;
}

/* A page with text t in a <script> of the head and a <style> of the body. */
static int
same_in_elements(const char *t, size_t n)
{
	struct buf b = BUF_INIT;
	int same;

	buf_adds(&b, "<!DOCTYPE html><html><head><script>");
	buf_add(&b, t, n);
	buf_adds(&b, "</script></head><body><p>a\nb</p><style>");
	buf_add(&b, t, n);
	buf_adds(&b, "</STYLE ><p>after</p><script type=x>");
	buf_add(&b, t, n);
	same = same_tree(b.s, b.len);
	buf_release(&b);
	return same;
}

/* n bytes of script-like text with piece p put at offset at. */
static int
same_with_piece(size_t n, size_t at, const char *p)
{
	struct buf b = BUF_INIT;
	size_t i;
	int same;

	for (i = 0; i < at && i < n; i++)
		buf_addc(&b, i % 61 == 60 ? '\n' : "var x = 1; "[i % 11]);
	buf_adds(&b, p);
	for (i = b.len; i < n; i++)
		buf_addc(&b, i % 53 == 52 ? '\n' : "if (a < b) {}"[i % 13]);
	same = same_in_elements(b.s, b.len);
	buf_release(&b);
	return same;
}

static void
check_pieces(void)
{
	static const char *const pieces[] = {
		"", "\n", "\r\n", "</div>", "</scrip", "</scriptx>", "</SCRIPT>",
		"</StYlE>", "</", "<", "\x01", "\x0b", "\x1f", "\x7f",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbe",
		"\xef\xbf\xbf", "\xef\xbf\xbd", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf",
		"<!-- </script> -->", "\t\t\n\n",
	};
	static const size_t lens[] = { 0, 1, 999, 1000, 1001, 1003, 2000, 4999, 12000 };
	static const size_t ats[] = { 0, 500, 996, 997, 998, 999, 1000, 1001, 1002,
	    1999, 2000, 2001, 3500, 11998 };
	size_t i, j, k, bad = 0, n = 0;

	for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
		for (j = 0; j < sizeof lens / sizeof lens[0]; j++)
			for (k = 0; k < sizeof ats / sizeof ats[0]; k++) {
				if (ats[k] > lens[j])
					continue;
				n++;
				if (!same_with_piece(lens[j], ats[k], pieces[i]))
					bad++;
			}
	TAP_IS_INT(bad, 0, "script and style text with a piece at a block's edge: "
	    "the same tree in %zu cases", n);
}

/* Markup past libxml2's depth limit, and elements after </html>. */
static void
check_odd_markup(void)
{
	struct buf b = BUF_INIT;
	int i, same;

	for (i = 0; i < 300; i++)
		buf_adds(&b, "<div><a href=#x>x</a><br>");
	buf_adds(&b, "<img src=a.png><script>x</script>");
	same = same_tree(b.s, b.len);
	buf_reset(&b);
	buf_adds(&b, "<html><body><p>a</p></body></html><p>after<img src=b.png>"
	    "<script>y</script></p><html><font>z</font>");
	same = same_tree(b.s, b.len) && same;
	buf_release(&b);
	TAP_OK(same, "nesting past libxml2's limit, elements after </html>: the "
	    "same tree and tag set");
}

/*
 * Text just after a start tag, an empty element or an end tag, which bread
 * hands over itself: in elements where libxml2 implies a paragraph, after
 * markup libxml2 implies elements for, after a '>' that is text, across a
 * block's length, with characters libxml2 drops or reads itself.
 */
static void
check_text(void)
{
	static const char *const pages[] = {
		"text first<p>para", "<p>a<br>b<br/>c<img src=x>d</p>",
		"<html>x<head>y<title>t</title>z</head>w<body>v",
		"<head><meta charset=utf-8>after meta<link rel=x>l</head>",
		"&#65;>after a reference&amp;>and<p>&lt;>x",
		"<p>a>b<p>c&d<p>e<f<p>g\r\nh\ni", "<div/>x<br/>y<p/>z",
		"<textarea>a<b>c</textarea><title>d<e>f</title>",
		"<p>\x01x<p>\xef\xbf\xbey<p>\xc3z<p>\xe2\x82\xac<br>\xf0\x9f\x98\x80",
		"<table>t<tr>r<td>d</td></tr></table><ul>u<li>l",
		"<a href=x>link</a> after<b>bold</b>", "<p>a<!-- c -->b<br><!-- d -->e",
		"<svg:rect>s</svg:rect><o:p>o</o:p>", "<p>   <br>   <p>\t",
		"<noscript>n<img src=y>m</noscript><iframe>i</iframe>",
		"<select>s<option>o<option>p</select><frameset>f",
		"<b><i>x</b>y</i>z", "<p><a>x</p>y</a>w", "<p>x</P>y</p >z</br>v",
		"<ul><li>a</ul>after</div>stray", "<div></div>text<span></span>&amp;",
		"<table><tr><td>x</td>y</tr>z</table>w", "</html>a</body>b</head>c",
		"<head><title>t</title>h</head>b", "<font><p>x</font>y</p>z",
		"<dl><dt>a</dt>b<dd>c</dd>d</dl>", "<form><p>x</form>y</p>",
	};
	static const size_t lens[] = { 990, 996, 997, 998, 999, 1000, 1001, 2100 };
	struct buf b = BUF_INIT;
	size_t i, j, bad = 0, n = 0;

	for (i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		n++;
		if (!same_tree(pages[i], strlen(pages[i])))
			bad++;
	}
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		buf_reset(&b);
		buf_adds(&b, "<p>");
		for (j = 0; j < lens[i]; j++)
			buf_adds(&b, j % 70 == 69 ? "\n" : j % 301 == 300 ? "\xc3\xa9" : "a");
		buf_adds(&b, "<br>");
		for (j = 0; j < lens[i]; j++)
			buf_addc(&b, "b c "[j % 4]);
		buf_adds(&b, "&amp;</p>");
		n++;
		if (!same_tree(b.s, b.len))
			bad++;
	}
	buf_release(&b);
	TAP_IS_INT(bad, 0, "text after start tags, empty elements and end tags: the same "
	    "tree in %zu cases", n);
}

/*
 * Start tags whose attributes bread reads ahead of libxml2 (read_tag): in
 * every place a tag follows (a start tag, text, an empty element, an end
 * tag, a reference), with quoted, unquoted and missing values, references
 * of every kind, names read twice or cut, what is no name, line feeds
 * before and after <body>, and tags libxml2 reads otherwise (in a script,
 * a <meta>, at the end of the input).
 */
static void
check_attrs(void)
{
	static const char *const tags[] = {
		"<p class=\"a\" id='b' title=c>",
		"<p class=\"\" id='' title= data-x=>",
		"<p CLASS=a class=b Class=c>", "<p a b c=d e>",
		"<p a.b=1 a:b=2 a-b=3 _a=4 .x=5 :y=6>", "<p \"x\" y=1>",
		"<p / a=1 / >", "<p @click=x v-on:y=\"z\">", "<p a=\"x\"b='y'c=z>",
		"<a href=foo/>", "<a href=x/>t</a>", "<img src=x alt=\"y\"/>",
		"<img\nsrc=x\nalt=y>", "<p\nclass=\"a\nb\"\n>", "<p\tclass=a\r\n>",
		"<p title=\"&amp;&quot;&lt;&gt;&nbsp;&copy;\">",
		"<p title=\"&AMP;&Amp;&unknown;&;&=&a.b-c:d;&#;&#x;\">",
		"<p title=\"&#39;&#x27;&#X41;&#65&#x42 &#0;&#1114112;\">",
		"<p title=\"&#xD800;&#xFFFE;&#9;&#10;&#13;&#128512;&#x1F600;\">",
		"<p title=\"&amp&lt x&gt;y&nbsp\">", "<p title=&amp;x&#65;y>",
		"<p title=\"&\xc3\xa9;&#\xc3\xa9\">", "<p title=\"a&\">",
		"<p title=\"&abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz;\">",
		"<p title=\"\x01\x1f\x7f\">", "<p title=\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\">",
		"<p title=\"\xef\xbf\xbe\xef\xbf\xbf\">", "<p title=\"\xc3(\xe2\x82\">",
		"<p title=\"x", "<p title=x", "<p title=", "<p title", "<p ",
		"<meta charset=iso-8859-1>", "<meta http-equiv=Content-Type "
		    "content=\"text/html; charset=windows-1252\">",
		"<script src=x>a<p class=y>b</script>", "<style media=x>a<p c=d></style>",
		"<html lang=en>", "<head data-x=y>", "<body class=b>", "<BODY\nclass=c>",
		"<p aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=x>",
		"<pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
		    "ppppppppppppppppppppppppppppppppppppppppppppppppp x=y>",
		"<p a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13>",
		"<svg:rect x=1>", "<o:p class=x>", "<table border=1><tr class=r><td x=y>",
		"<li class=a><li class=b>", "<p x=1><div y=2>", "<a href=1><a href=2>",
		"<input value=\"a>b\"><br clear=all>",
	};
	static const char *const before[] = {
		"", "<div>", "text", "<br>", "</div>", "&amp;", "<!-- c -->", "x\n",
		"<p>a</p>", "<span></span>", "\n", "<div/>", "<img src=q>",
	};
	struct buf b = BUF_INIT;
	size_t i, j, k, bad = 0, n = 0;

	for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
		for (j = 0; j < sizeof before / sizeof before[0]; j++)
			for (k = 0; k < 3; k++) {
				buf_reset(&b);
				if (k == 1)
					buf_adds(&b, "<html><head><title>t</title></head><body>");
				if (k == 2)
					buf_adds(&b, "<head>\n");
				buf_adds(&b, before[j]);
				buf_adds(&b, tags[i]);
				buf_adds(&b, "after");
				buf_adds(&b, before[j]);
				buf_adds(&b, tags[i]);
				n++;
				if (!same_tree(b.s, b.len)) {
					bad++;
					printf("# differs: %s\n", b.s);
				}
			}
	/* a NUL in a value, and many names */
	buf_reset(&b);
	buf_adds(&b, "<div><p title=\"a");
	buf_addc(&b, '\0');
	buf_adds(&b, "b\" id=x>t</p><p");
	for (i = 0; i < 600; i++) {
		buf_adds(&b, " attribute-name-");
		buf_addc(&b, (char)('a' + i % 26));
		buf_addc(&b, (char)('a' + i / 26 % 26));
		buf_adds(&b, "=v");
	}
	buf_adds(&b, ">x");
	n++;
	if (!same_tree(b.s, b.len))
		bad++;
	buf_release(&b);
	TAP_IS_INT(bad, 0, "attributes of start tags: the same tree in %zu cases", n);
}

static unsigned long
next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/*
 * Of npages pages, each of up to maxlen tokens of tok drawn from seed, how
 * many libxml2 unaided and bread parse into different trees.
 */
static size_t
random_pages(const char *const *tok, size_t ntok, unsigned long seed,
    size_t npages, size_t maxlen)
{
	struct buf b = BUF_INIT;
	size_t page, k, len, bad = 0;

	for (page = 0; page < npages; page++) {
		buf_reset(&b);
		len = next_rand(&seed) % maxlen;
		for (k = 0; k < len; k++)
			buf_adds(&b, tok[next_rand(&seed) % ntok]);
		if (!same_tree(b.s, b.len))
			bad++;
	}
	buf_release(&b);
	return bad;
}

/* Pseudo-random pages of markup, script and style tokens. */
static void
check_random(void)
{
	static const char *const tok[] = {
		"<script>", "</script>", "<style>", "</style>", "</SCRIPT", "</scr",
		"<p>", "</p>", "<div class=a>", "</div>", "x", "y = 1;\n", "\xc3\xa9",
		"\xf0\x9f\x98\x80", "\x02", "\xef\xbf\xbe", "<!--", "-->", "</",
		"<script/>", "&amp;", "\r\n", "                                        ",
	};

	TAP_IS_INT(random_pages(tok, sizeof tok / sizeof tok[0], 34, 400, 3000), 0,
	    "400 pseudo-random pages: the same tree");
}

/* Pseudo-random pages of tags with attributes, text and references. */
static void
check_random_attrs(void)
{
	static const char *const tok[] = {
		"<p", "<div", "<a", "<img", "<br", "<span", "<LI", "<td", "<meta",
		"<script", "</script>", "<body", "<html", "</p>", "</div>", ">", "/>",
		" ", "\n", "\t", "=", "\"", "'", "class", "href", "ID", "x", "a b",
		"&amp;", "&quot;", "&#39;", "&#x41;", "&", "&lt", "&nope;", "#", ";",
		"\xc3\xa9", "\x02", "<", "text ", "<!-- c -->", "/", "data-x", "-",
	};

	TAP_IS_INT(random_pages(tok, sizeof tok / sizeof tok[0], 7, 600, 400), 0,
	    "600 pseudo-random pages of tags and attributes: the same tree");
}

/* Every page named in the file list (one path a line), decoded as bread does. */
static void
check_pages(const char *list)
{
	size_t n = 0, bad = 0, len, ulen;
	char *paths, *path, *end, *data, *utf8;

	if ((paths = read_file(list, &len, 0)) == NULL) {
		TAP_OK(0, "the page list %s can be read", list);
		return;
	}
	for (path = paths; *path; path = end) {
		if ((end = strchr(path, '\n')) != NULL)
			*end++ = '\0';
		else
			end = path + strlen(path);
		if (*path == '\0')
			continue;
		if ((data = read_file(path, &len, 64u << 20)) == NULL) {
			bad++;
			printf("# cannot read %s\n", path);
			continue;
		}
		utf8 = bread_decode(data, len, NULL, &ulen, NULL);
		n++;
		if (!same_tree(utf8, ulen)) {
			bad++;
			printf("# differs: %s\n", path);
		}
		free(utf8);
		free(data);
	}
	free(paths);
	TAP_OK(n > 0 && bad == 0, "the pages of tests/bread/page-list: the same tree "
	    "on %zu pages", n);
}

int
main(int argc, char **argv)
{
	ctx_init("unit-parse");
	if (argc < 2) {
		fprintf(stderr, "usage: unit-parse LIST [NOTE]\n");
		return 2;
	}
	/* line numbers recorded, so that they are compared too */
	xmlLineNumbersDefault(1);
	check_pieces();
	check_odd_markup();
	check_text();
	check_random();
	check_attrs();
	check_random_attrs();
	check_pages(argv[1]);
	if (argc > 2 && argv[2][0] != '\0')
		printf("ok %d # skip %s\n", ++tap_n, argv[2]);
	return tap_done();
}
