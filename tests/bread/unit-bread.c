/*
 * unit-bread.c - unit tests of bread's pieces: Content-Type charset
 * parsing, decoding to UTF-8, the JavaScript string measures, and the
 * extractor on small documents (Readability.js behaviours one at a time).
 */
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "tap.h"
#include "../../tools/bread/bread.h"
#include "../../tools/bread/dom.h"

static char *
decode(const char *s, size_t n, const char *ct, char *cs)
{
	size_t len;
	return bread_decode(s, n, ct, &len, cs);
}

static struct bread_result
extract(const char *html, int whole)
{
	struct bread_opts o;
	struct bread_result r;

	memset(&o, 0, sizeof o);
	o.whole = whole;
	bread_extract(html, strlen(html), NULL, &o, &r);
	return r;
}

/*
 * The summaries of s cut in three at every pair of character boundaries,
 * joined, give the length bread_inner_len(n, 1) gives for s in one text
 * node; 1 when they all do.
 */
static int
tsum_cuts_agree(const char *s)
{
	size_t n = strlen(s), i, j, want;
	struct bread_tsum a, b, c;
	char *p1, *p2, *p3;
	xmlNodePtr t = xmlNewText((const xmlChar *)s);
	int ok = 1;

	want = bread_inner_len(t, 1);
	xmlFreeNode(t);
	for (i = 0; i <= n; i++) {
		for (j = i; j <= n; j++) {
			if (((unsigned char)s[i] & 0xC0) == 0x80 ||
			    ((unsigned char)s[j] & 0xC0) == 0x80)
				continue;
			p1 = strndup(s, i);
			p2 = strndup(s + i, j - i);
			p3 = strdup(s + j);
			bread_tsum_text(p1, &a);
			bread_tsum_text(p2, &b);
			bread_tsum_text(p3, &c);
			bread_tsum_cat(&a, &b);
			bread_tsum_cat(&a, &c);
			if (a.len != want)
				ok = 0;
			free(p1);
			free(p2);
			free(p3);
		}
	}
	return ok;
}

#define PARA "<p>Paragraph text that is long enough to count, with commas, commas, and more words to read.</p>"

/*
 * bread_decode_view: valid UTF-8 without NUL bytes is read in place (after
 * a UTF-8 byte order mark); anything else is bread_decode's string.
 */
static void
check_view(void)
{
	static const char *const cases[] = {
		"caf\xc3\xa9", "\xef\xbb\xbf" "caf\xc3\xa9", "caf\xe9",
		"\xff\xfe" "a\0", "a\0b", ""
	};
	static const size_t lens[] = { 5, 8, 4, 4, 3, 0 };
	static const int in_place[] = { 1, 1, 0, 0, 0, 1 };
	char cs1[BREAD_CHARSET_MAX], cs2[BREAD_CHARSET_MAX];
	const char *v;
	char *owned, *want;
	size_t i, n1, n2;
	int bad = 0;

	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		v = bread_decode_view(cases[i], lens[i], NULL, &n1, cs1, &owned);
		want = bread_decode(cases[i], lens[i], NULL, &n2, cs2);
		if (n1 != n2 || memcmp(v, want, n1) != 0 || strcmp(cs1, cs2) != 0 ||
		    (owned == NULL) != in_place[i] || (owned != NULL && v != owned) ||
		    (owned == NULL && (v < cases[i] || v > cases[i] + lens[i])))
			bad++;
		free(owned);
		free(want);
	}
	TAP_IS_INT(bad, 0, "bread_decode_view: bread_decode's text, in place "
	    "only for valid UTF-8 without NUL bytes");
}

int
main(void)
{
	char label[64];
	char cs[BREAD_CHARSET_MAX];
	char *s;
	struct bread_result r;

	ctx_init("unit-bread");

	/* Content-Type charset */
	TAP_OK(bread_ct_charset("text/html; charset=ISO-8859-1", label, sizeof label) &&
	    !strcmp(label, "ISO-8859-1"), "charset from Content-Type");
	TAP_OK(bread_ct_charset("text/html;charset=\"utf-8\"", label, sizeof label) &&
	    !strcmp(label, "utf-8"), "quoted charset");
	TAP_OK(!bread_ct_charset("text/html", label, sizeof label), "no charset");
	TAP_OK(!bread_ct_charset(NULL, label, sizeof label), "no header");

	/* decoding */
	s = decode("caf\xe9", 4, "text/html; charset=latin1", cs);
	TAP_IS_STR(s, "caf\xc3\xa9", "latin1 decoded");
	TAP_IS_STR(cs, "WINDOWS-1252", "latin1 is windows-1252");
	free(s);
	s = decode("caf\xc3\xa9", 5, "text/html; charset=gbk", cs);
	TAP_IS_STR(s, "caf\xc3\xa9", "valid UTF-8 wins over a GBK declaration");
	free(s);
	s = decode("a\0b", 3, NULL, cs);
	TAP_IS_STR(s, "a\xef\xbf\xbd" "b", "NUL becomes U+FFFD");
	free(s);
	s = decode("\xff\xfe" "a\0", 4, NULL, cs);
	TAP_IS_STR(s, "a", "UTF-16LE by BOM");
	free(s);
	check_view();
	{	/* each caller's name is its own: a later page does not change it */
		char cs2[BREAD_CHARSET_MAX];
		char *s1 = decode("caf\xe9", 4, "text/html; charset=latin1", cs);
		char *s2 = decode("\xff\xfe" "a\0", 4, NULL, cs2);
		TAP_IS_STR(cs, "WINDOWS-1252", "a page's charset kept after another page's decoding");
		TAP_IS_STR(cs2, "UTF-16LE", "the other page's charset");
		free(s1);
		free(s2);
	}
	s = decode("x\x81y", 3, "text/html; charset=utf-8", cs);
	TAP_IS_STR(s, "x\xef\xbf\xbdy", "declared UTF-8 with a bad byte: repaired");
	free(s);

	/* JavaScript measures */
	TAP_IS_INT(bread_js_len("a\xf0\x9f\x98\x80", 5), 3, "astral character is two UTF-16 units");
	TAP_IS_INT(bread_js_space(0xA0), 1, "NBSP is \\s");
	TAP_IS_INT(bread_js_space(0x200B), 0, "ZWSP is not \\s");
	TAP_OK(tsum_cuts_agree("  ab  c\td \n\n e\xc2\xa0\xc2\xa0" "f\xe2\x80\xa8 "),
	    "text summaries joined at every cut: the inner text length");
	TAP_OK(tsum_cuts_agree("\xf0\x9f\x98\x80 x\xe3\x80\x80\xe3\x80\x80y z"),
	    "text summaries joined: astral characters, ideographic spaces");
	TAP_OK(tsum_cuts_agree(" \t "), "text summaries joined: white space only");
	TAP_OK(tsum_cuts_agree("word"), "text summaries joined: no white space");
	s = bread_js_trim("\xc2\xa0 x y \n", 8);
	TAP_IS_STR(s, "x y", "trim drops NBSP and spaces");
	free(s);

	/* extraction on small documents */
	r = extract("<html><head><title>Hello world, a long enough title</title></head>"
	    "<body><div class=\"sidebar\">" PARA "</div><div class=\"content\">"
	    PARA PARA PARA PARA PARA PARA "</div></body></html>", 0);
	TAP_IS_STR(r.title, "Hello world, a long enough title", "title from <title>");
	TAP_OK(strstr(r.text, "Paragraph text") == r.text, "text starts with the article");
	TAP_IS_INT(strchr(r.text, '\n') != NULL, 1, "one line per paragraph");
	bread_result_release(&r);

	r = extract("<html><head><title>Site - The article about things</title>"
	    "<meta property=\"og:title\" content=\"OG &amp; title\"></head><body>" PARA "</body></html>", 0);
	TAP_IS_STR(r.title, "OG & title", "og:title wins, entities unescaped");
	bread_result_release(&r);

	r = extract("<html><head><title>The Article Title Is Here | Site</title></head><body>" PARA "</body></html>", 0);
	TAP_IS_STR(r.title, "The Article Title Is Here", "site name cut at the separator");
	bread_result_release(&r);

	r = extract("<html><body><div class=\"byline\">By Ada Lovelace</div>" PARA PARA PARA PARA PARA PARA "</body></html>", 0);
	TAP_IS_STR(r.byline, "By Ada Lovelace", "byline element");
	TAP_OK(strstr(r.text, "Ada") == NULL, "byline removed from the text");
	bread_result_release(&r);

	r = extract("<html><body><p>one<br><br>two</p>" PARA "</body></html>", 1);
	TAP_OK(strncmp(r.text, "one\ntwo\n", 8) == 0, "<br><br> becomes a paragraph break");
	bread_result_release(&r);

	r = extract("<html><body><div style=\"display: none\">hidden words</div><div hidden>secretword</div>"
	    PARA PARA PARA PARA PARA PARA "</body></html>", 0);
	TAP_OK(strstr(r.text, "hidden words") == NULL && strstr(r.text, "secretword") == NULL,
	    "hidden nodes removed");
	bread_result_release(&r);

	r = extract("<html><body><script type=\"application/ld+json\">{\"@context\":\"https://schema.org\","
	    "\"@type\":\"NewsArticle\",\"headline\":\"From JSON-LD\",\"author\":[{\"name\":\"A\"},{\"name\":\"B\"}],"
	    "\"description\":\"Desc\"}</script>" PARA "</body></html>", 0);
	TAP_IS_STR(r.title, "From JSON-LD", "JSON-LD headline");
	TAP_IS_STR(r.byline, "A, B", "JSON-LD authors joined");
	TAP_IS_STR(r.excerpt, "Desc", "JSON-LD description");
	bread_result_release(&r);

	r = extract("", 0);
	TAP_IS_STR(r.text, "", "empty page: empty text");
	bread_result_release(&r);
	return tap_done();
}
