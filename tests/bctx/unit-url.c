/*
 * unit-url.c - the URL normaliser, the mapping rules' URL arithmetic, the
 * reference serialisation helpers and gold_coverage of bctx.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/bctx/bctx.h"

static void
key_is(const char *url, const char *want)
{
	char *k = bctx_url_key(url);

	TAP_IS_STR(k, want, "key(%s)", url);
	if (k) {
		char *k2 = bctx_url_key(k);
		TAP_IS_STR(k2, k, "key is idempotent for %s", url);
		free(k2);
	}
	free(k);
}

static void
html_is(const char *md, const char *want)
{
	char *h = bctx_md_to_html(md);

	TAP_IS_STR(h, want, "md_to_html(%s)", md);
	free(h);
}

static void
lower_is(const char *s, const char *want)
{
	char *l = bctx_py_lower(s);

	TAP_IS_STR(l, want, "py_lower(%s)", s);
	free(l);
}

/* A section element around docs, as render_project writes it. */
static void
section(struct buf *b, const char *name, const char *docs, int ndocs)
{
	bctx_ref_section_start(b, name, ndocs);
	buf_adds(b, docs);
	bctx_ref_section_end(b, name, ndocs);
}

static void
attr_is(const char *v, const char *want)
{
	struct buf b = BUF_INIT;

	bctx_ref_attr(&b, "title", v);
	TAP_IS_STR(buf_str(&b), want, "ref_attr(%s)", v);
	buf_release(&b);
}

int
main(void)
{
	char *c[BCTX_MAXCAND];
	const char *r[BCTX_MAXCAND];
	size_t n, i;

	ctx_init("unit-url");
	key_is("https://Docs.Stripe.COM/connect/charges/", "https://docs.stripe.com/connect/charges");
	key_is("HTTPS://docs.zapier.com", "https://docs.zapier.com");
	key_is("https://docs.zapier.com/", "https://docs.zapier.com");
	key_is("https://a.example:443/x", "https://a.example/x");
	key_is("http://a.example:80/x", "http://a.example/x");
	key_is("http://a.example:8080/x", "http://a.example:8080/x");
	key_is("https://a.example/x%2fy?q=%aa#frag", "https://a.example/x%2Fy?q=%AA");
	key_is("https://vite.dev/guide/features.md#hot-module-replacement", "https://vite.dev/guide/features.md");
	key_is("https://User@[::1]:443/p/", "https://User@[::1]/p");
	key_is("docs/x", NULL);
	key_is("https:///x", NULL);
	key_is("ht://:/@cs.xt", NULL);
	key_is("https://u@:8080/x", NULL);
	key_is("", NULL);

	TAP_IS_INT(bctx_url_kind("https://docs.stripe.com/llms.txt"), BCTX_URL_LLMS, "llms.txt");
	TAP_IS_INT(bctx_url_kind("https://a.example/llms-full.txt"), BCTX_URL_LLMS_FULL, "llms-full.txt");
	TAP_IS_INT(bctx_url_kind("https://a.example/x.MD?y=1#z"), BCTX_URL_MD, ".MD with query");
	TAP_IS_INT(bctx_url_kind("https://a.example/x.html"), BCTX_URL_HTML, ".html");
	TAP_IS_INT(bctx_url_kind("https://a.example/md/automations"), BCTX_URL_HTML, "/md/x is a page");
	TAP_IS_INT(bctx_url_kind("https://a.example/.md"), BCTX_URL_HTML, "bare .md segment");
	TAP_OK(bctx_url_is_http("https://a.example"), "https URL");
	TAP_OK(!bctx_url_is_http("ftp://a.example/x"), "ftp is not http");

	html_is("https://docs.stripe.com/treasury.md", "https://docs.stripe.com/treasury");
	html_is("https://developers.cloudflare.com/ai-gateway/index.md", "https://developers.cloudflare.com/ai-gateway/");
	html_is("https://fastht.ml/docs/index.html.md", "https://fastht.ml/docs/");
	html_is("https://fastht.ml/docs/tutorials/quickstart.html.md", "https://fastht.ml/docs/tutorials/quickstart.html");
	html_is("https://a.example/x.md?lang=en", "https://a.example/x?lang=en");
	html_is("https://a.example/x", NULL);

	n = bctx_md_candidates("https://Clerk.com/billing/#plans", c, r);
	TAP_IS_INT(n, 4, "four candidates for a page");
	TAP_IS_STR(c[0], "https://clerk.com/billing", "same-url candidate");
	TAP_IS_STR(c[1], "https://clerk.com/billing.md", "url.md candidate");
	TAP_IS_STR(c[2], "https://clerk.com/billing/index.md", "url/index.md candidate");
	TAP_IS_STR(c[3], "https://clerk.com/billing/index.html.md", "url/index.html.md candidate");
	TAP_IS_STR(r[3], "url/index.html.md", "rule names");
	for (i = 0; i < n; i++)
		free(c[i]);
	n = bctx_md_candidates("https://docs.zapier.com", c, r);
	TAP_IS_INT(n, 3, "bare host: no host.md candidate");
	TAP_IS_STR(c[1], "https://docs.zapier.com/index.md", "bare host: /index.md");
	for (i = 0; i < n; i++)
		free(c[i]);
	n = bctx_md_candidates("https://www.manageengine.com/products/x/features.html", c, r);
	TAP_IS_INT(n, 5, ".html: five candidates");
	TAP_IS_STR(c[4], "https://www.manageengine.com/products/x/features.md", "x.html -> x.md");
	TAP_IS_STR(c[1], "https://www.manageengine.com/products/x/features.html.md", "x.html -> x.html.md");
	for (i = 0; i < n; i++)
		free(c[i]);
	TAP_IS_INT(bctx_md_candidates("not a url", c, r), 0, "no candidates for a non-URL");

	lower_is("Getting Started & <More>", "getting started & <more>");
	lower_is("Dökümëntâtïon", "dökümëntâtïon");
	lower_is("İstanbul", "i\xcc\x87stanbul");
	lower_is("ΟΔΟΣ", "οδος");	/* final sigma: ς */
	lower_is("ΟΔΟΣ ΣΑ", "οδος σα");

	attr_is("plain", " title=\"plain\"");
	attr_is("T \"q\" & 'a' <x>", " title='T \"q\" &amp; &#39;a&#39; &lt;x&gt;'");
	attr_is("it's", " title=\"it's\"");

	{
		struct buf b = BUF_INIT;
		section(&b, "", "<doc>x</doc>", 1);
		TAP_IS_STR(buf_str(&b), "<doc>x</doc></>", "empty section name: no start tag");
		buf_reset(&b);
		section(&b, "Table", "<doc>x</doc>", 1);
		TAP_IS_STR(buf_str(&b), "  <table>\n<doc>x</doc>  </table>\n", "block tag indented");
		buf_reset(&b);
		section(&b, "Script", "", 0);
		TAP_IS_STR(buf_str(&b), "<script></script>", "script: whitespace-significant");
		buf_reset(&b);
		section(&b, "P", "", 0);
		TAP_IS_STR(buf_str(&b), "  <p></p>\n", "empty block section");
		buf_release(&b);
	}
	TAP_IS_REAL(bctx_gold_coverage("The server listens on port 8080.",
	    "Our SERVER listens, on port 8080!"), 1.0, 1e-12, "coverage: all words");
	TAP_IS_REAL(bctx_gold_coverage("Keys rotate daily and expire yearly.",
	    "keys rotate"), 0.4, 1e-12, "coverage: 2 of 5 content words (and is a stop word)");
	TAP_IS_REAL(bctx_gold_coverage("the a of", "x"), -1, 0, "coverage: no content words");
	TAP_IS_REAL(bctx_gold_coverage("Größe Ärger", "größe ärger"), 1.0, 1e-12, "coverage: Unicode case");
	return tap_done();
}
