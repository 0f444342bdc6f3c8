/*
 * Unit tests of bmdprep's library: the CPython string semantics (pyuni.c),
 * the create_ctx attribute escaping and section tags (llmsctx.c), the
 * reference parser's quirks one by one (llms_ref.c) and URL resolution.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/bmdprep/pyuni.h"
#include "../../tools/bmdprep/llms.h"
#include "../../tools/bmdprep/llmsctx.h"
#include "../../tools/bmdprep/mdprep.h"

static char *
lower(const char *s)
{
	size_t n;

	return bmd_py_lower(s, strlen(s), &n);
}

static char *
attr(const char *v)
{
	struct buf b = BUF_INIT;

	bmd_ctx_attr(&b, "t", v, strlen(v));
	return buf_detach(&b, NULL);
}

static char *
section(const char *name, int ndocs)
{
	struct buf b = BUF_INIT;
	struct bmd_ctx_section sec;
	int i;

	bmd_ctx_section_begin(&b, &sec, name, strlen(name));
	for (i = 0; i < ndocs; i++)
		bmd_ctx_doc(&b, &sec, "d", 1, NULL, 0, NULL, 0, "x", 1);
	bmd_ctx_section_end(&b, &sec);
	return buf_detach(&b, NULL);
}

static char *
doctext(const char *body)
{
	size_t n;

	return bmd_ctx_doc_text(body, strlen(body), &n);
}

static struct bmd_llms *
ref(const char *txt)
{
	struct bmd_ref_error e;
	struct bmd_llms *l = bmd_llms_parse_ref(txt, strlen(txt), &e);

	if (!l)
		bmd_ref_error_free(&e);
	return l;
}

int
main(void)
{
	char *s;
	size_t b, e;
	struct bmd_llms *l;
	int rel;

	ctx_init("unit-bmdprep");
	/* pyuni */
	TAP_IS_STR(s = lower("Getting Started & <More>"), "getting started & <more>", "lower ASCII");
	free(s);
	TAP_IS_STR(s = lower("Core API \xe2\x80\x94 Player \xc3\x9c"), "core api \xe2\x80\x94 player \xc3\xbc", "lower Latin-1 letter, dash kept");
	free(s);
	TAP_IS_STR(s = lower("\xc4\xb0"), "i\xcc\x87", "U+0130 lowers to i + U+0307");
	free(s);
	TAP_IS_STR(s = lower("\xce\x9f\xce\xa3"), "\xce\xbf\xcf\x82", "final sigma");
	free(s);
	TAP_IS_STR(s = lower("\xce\xa3\xce\x9f"), "\xcf\x83\xce\xbf", "non-final sigma");
	free(s);
	bmd_py_strip("\xc2\xa0 x y\xe3\x80\x80\n", 10, &b, &e);
	TAP_OK(b == 3 && e == 6, "strip removes NBSP and ideographic space (%zu,%zu)", b, e);
	bmd_py_strip("\xef\xbb\xbfx", 4, &b, &e);
	TAP_OK(b == 0 && e == 4, "BOM is not whitespace");
	TAP_IS_INT(bmd_py_linebreak_len("\r\nx", 3, 0), 2, "CRLF is one line break");
	TAP_IS_INT(bmd_py_linebreak_len("\xe2\x80\xa8", 3, 0), 3, "U+2028 is a line break");
	TAP_IS_INT(bmd_py_linebreak_len("\x1f", 1, 0), 0, "U+001F is not a line break");
	TAP_IS_INT(bmd_py_space_len("\x1f", 1, 0), 1, "U+001F is whitespace");

	/* attributes: fastcore _to_attr */
	TAP_IS_STR(s = attr("plain"), " t=\"plain\"", "plain attribute");
	free(s);
	TAP_IS_STR(s = attr("it's"), " t=\"it's\"", "single quote kept in double quotes");
	free(s);
	TAP_IS_STR(s = attr("a \"b\" it's <c> & d"), " t='a \"b\" it&#39;s &lt;c&gt; &amp; d'",
	    "double quote: single-quoted, &#39;, &lt; &gt; &amp;");
	free(s);
	TAP_IS_STR(s = attr(""), " t=\"\"", "empty value kept");
	free(s);

	/* section tags */
	TAP_IS_STR(s = section("Docs", 0), "<docs></docs>", "empty section");
	free(s);
	TAP_IS_STR(s = section("Docs", 2), "<docs><doc title=\"d\">x</doc><doc title=\"d\">x</doc></docs>", "section with docs");
	free(s);
	TAP_IS_STR(s = section("Section", 1), "  <section>\n<doc title=\"d\">x</doc>  </section>\n", "block tag indented");
	free(s);
	TAP_IS_STR(s = section("Footer", 0), "  <footer></footer>\n", "empty block tag");
	free(s);
	TAP_IS_STR(s = section("Script", 1), "<script><doc title=\"d\">x</doc></script>", "script is whitespace-significant");
	free(s);
	TAP_IS_STR(s = section("", 1), "<doc title=\"d\">x</doc></>", "empty name: no start tag");
	free(s);

	/* _doc line filter */
	TAP_IS_STR(s = doctext("a\n<!-- c -->\n <!-- i -->\n<!---->\nb\n"), "a\n <!-- i -->\nb",
	    "comment lines dropped, indented ones kept");
	free(s);
	TAP_IS_STR(s = doctext("<!--->\nx"), "<!--->\nx", "<!---> is not a comment line");
	free(s);
	TAP_IS_STR(s = doctext("p <img src=\"data:image/png;base64,A\"> q\n<img src=\"data:image/png;base64,A\"\nr"),
	    "<img src=\"data:image/png;base64,A\"\nr", "base64 img line dropped; without '>' kept");
	free(s);
	TAP_IS_STR(s = doctext("<img alt='>' src=\"data:image/x\">"), "<img alt='>' src=\"data:image/x\">",
	    "'>' before src stops the pattern");
	free(s);
	TAP_IS_STR(s = doctext("a\rb\x0b" "c\xc2\x85" "d"), "a\nb\nc\nd", "splitlines boundaries");
	free(s);
	TAP_IS_STR(s = doctext("caf\xe9"), "caf\xef\xbf\xbd", "invalid UTF-8 replaced");
	free(s);
	TAP_IS_STR(s = doctext("a\r\nb\nc\n<!-- x -->\nd\n\ne\rf"), "a\nb\nc\nd\n\ne\nf",
	    "runs of kept lines: CRLF and CR ends become LF, a dropped line between");
	free(s);
	TAP_IS_STR(s = doctext("long line without a tag, then\n\x01\tctl\x1fline<!-- x -->\n<!-- y -->"),
	    "long line without a tag, then\n\x01\tctl\x1fline<!-- x -->",
	    "control bytes are no line ends; a '<' later in the line");
	free(s);

	/* reference parser quirks */
	l = ref("# T\n\n> S\n\ni\n\n##   \n\n## B\n- [x](y)\n");
	TAP_OK(l && l->nsecs == 1 && strcmp(l->secs[0].name.s, "## B") == 0,
	    "\\s* after ## crosses lines: the section is named \"## B\"");
	bmd_llms_free(l);
	l = ref("# T\n\n> S\n\ni\n\n## A\n- [a](u)\n## A\n- bad\n");
	TAP_OK(l == NULL, "the last duplicate's body is parsed and raises");
	bmd_llms_free(l);
	l = ref("# T\n\n> S\n\ni\n\n## A\n- bad\n## A\n- [a](u)\n");
	TAP_OK(l && l->secs[0].nlinks == 1, "an overwritten duplicate body is never parsed");
	bmd_llms_free(l);
	l = ref("# T\n\n>   \n\n\nx\n");
	TAP_OK(l && l->summary.s && strcmp(l->summary.s, "\n") == 0 && strcmp(l->info.s, "x") == 0,
	    "blank summary: the summary is a newline");
	bmd_llms_free(l);
	l = ref("# A\n# B\n\ni\n");
	TAP_OK(l && strcmp(l->title.s, "A\n# B") == 0, "title spans lines when needed");
	bmd_llms_free(l);
	l = ref("# T\n\n## \n");
	TAP_OK(l == NULL, "title then only an empty H2 raises");
	bmd_llms_free(l);

	/* URLs */
	TAP_IS_STR(s = bmd_url_resolve("https://e.org/a/llms.txt", "../b.md", &rel), "https://e.org/b.md", "relative resolved");
	free(s);
	TAP_OK(rel == 1, "relative flagged");
	TAP_IS_STR(s = bmd_url_resolve("https://e.org/a/llms.txt", "//cdn.e.org/x.md", &rel), "https://cdn.e.org/x.md", "scheme-relative");
	free(s);
	TAP_IS_STR(s = bmd_url_resolve(NULL, "HTTPS://E.org/X", &rel), "HTTPS://E.org/X", "absolute kept as written");
	free(s);
	TAP_OK(bmd_url_resolve(NULL, "x.md", &rel) == NULL && rel, "relative without base unresolved");
	TAP_OK(!bmd_url_valid("javascript:alert(1)") && !bmd_url_valid("http://a b/"), "invalid URLs refused");
	return tap_done();
}
