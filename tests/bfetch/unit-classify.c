/*
 * unit-classify.c - fetch_status classification of complete responses:
 * SUCCESS, JS_ONLY (visible text, application shells), Markdown URLs that
 * answer HTML, WAF signatures of several vendors, plain HTTP errors.
 */
#include <string.h>

#include "ctx.h"
#include "../../tools/bfetch/bfetch.h"
#include "tap.h"

static enum bfetch_status
cls(enum bfetch_kind k, long st, const char *ct, const char *h, const char *b)
{
	struct bfetch_verdict v = bfetch_classify_response(k, st, ct, h,
	    strlen(h), b, strlen(b), 50);

	free(v.reason);
	return v.status;
}

static size_t
vis(const char *html, int *shell)
{
	return bfetch_visible_chars(html, strlen(html), shell);
}

int
main(void)
{
	static const char page[] = "<html><head><title>T</title><style>p{}</style></head><body>"
	    "<p>This documentation page has well over fifty characters of visible text.</p></body></html>";
	static const char scripty[] = "<html><body><script>var a = 'a lot of text that is not visible at all, really';</script>"
	    "<noscript>Please enable JavaScript to view this site properly ok</noscript>"
	    "<template><p>template content is not rendered either, not at all</p></template>"
	    "<p>Hi</p></body></html>";
	static const char shell[] = "<html><head><script src=a.js></script></head><body>"
	    "<header>Example Docs - the documentation of the Example project</header>"
	    "<div id=\"__next\"> </div></body></html>";
	int sh;
	char *s;
	struct bfetch_verdict v;

	ctx_init("unit-classify");
	TAP_IS_INT(vis("<p>a  b\n\tc</p>", &sh), 5, "white space collapsed");
	TAP_IS_INT(vis("<p>\xC3\xA9t\xC3\xA9</p>", &sh), 3, "code points counted");
	TAP_IS_INT(vis(scripty, &sh), 2, "script, noscript, template removed");
	TAP_OK(!sh, "no mount point: not a shell");
	TAP_OK(vis(shell, &sh) > 50 && sh, "empty __next with scripts is an application shell");
	TAP_IS_INT(cls(BK_HTML, 200, "text/html", "", page), BF_SUCCESS, "HTML page: SUCCESS");
	TAP_IS_INT(cls(BK_HTML, 200, "text/html", "", scripty), BF_JS_ONLY, "little visible text: JS_ONLY");
	TAP_IS_INT(cls(BK_HTML, 200, "text/html", "", shell), BF_JS_ONLY, "application shell: JS_ONLY");
	TAP_IS_INT(cls(BK_HTML, 200, "text/plain", "", "short"), BF_SUCCESS, "non-HTML body is not judged for JS_ONLY");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/markdown", "", "# Title\n\nText\n"), BF_SUCCESS, "Markdown: SUCCESS");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/html; charset=utf-8", "", page), BF_HTTP_ERROR, "Markdown URL with HTML Content-Type flagged");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/plain", "", "\n <!DOCTYPE html><html><body>x</body></html>"), BF_HTTP_ERROR, "Markdown URL with sniffed HTML flagged");
	TAP_IS_INT(cls(BK_LLMS, 200, NULL, "", "<html lang=en><body>x</body></html>"), BF_HTTP_ERROR, "llms.txt answering HTML flagged");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/markdown", "", ""), BF_HTTP_ERROR, "empty 200: HTTP_ERROR");
	TAP_IS_INT(cls(BK_HTML, 404, "text/html", "", page), BF_HTTP_ERROR, "404: HTTP_ERROR");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "server: nginx\n", "Forbidden"), BF_HTTP_ERROR, "plain 403: HTTP_ERROR");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "server: cloudflare\ncf-ray: 1-AMS\ncf-mitigated: challenge\n", ""), BF_WAF_BLOCKED, "cf-mitigated");
	TAP_IS_INT(cls(BK_HTML, 503, "text/html", "cf-ray: 1-AMS\n", "<script src=/cdn-cgi/challenge-platform/x>"), BF_WAF_BLOCKED, "Cloudflare challenge body");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "cf-ray: 1-AMS\n", "<p>forbidden by origin</p>"), BF_HTTP_ERROR, "cf-ray alone is not a block");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "server: bfetch-test\nserver: AkamaiGHost\n", "Access Denied"), BF_WAF_BLOCKED, "Akamai (repeated Server header)");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "x-amzn-waf-action: block\n", ""), BF_WAF_BLOCKED, "AWS WAF header");
	TAP_IS_INT(cls(BK_HTML, 403, "text/html", "x-cache: Error from cloudfront\nx-amz-cf-id: x\n", "<H1>403 ERROR</H1>Request blocked."), BF_WAF_BLOCKED, "CloudFront block");
	TAP_IS_INT(cls(BK_HTML, 429, "text/html", "retry-after: 30\n", "<div class=\"g-recaptcha\"></div>"), BF_WAF_BLOCKED, "429 CAPTCHA");
	TAP_IS_INT(cls(BK_HTML, 429, "text/plain", "retry-after: 30\n", "slow down"), BF_HTTP_ERROR, "plain 429: HTTP_ERROR");
	TAP_IS_INT(cls(BK_HTML, 404, "text/html", "x-amzn-waf-action: block\n", ""), BF_HTTP_ERROR, "signatures only on 403/429/503");

	v = bfetch_classify_response(BK_HTML, 429, "text/plain", "retry-after: 30\n", 16, "x", 1, 50);
	TAP_IS_STR(v.reason, "HTTP 429 Too Many Requests; Retry-After: 30", "429 reason keeps Retry-After");
	free(v.reason);
	s = bfetch_waf_signature(403, "cf-mitigated: challenge\n", 24, "", 0);
	TAP_IS_STR(s, "Cloudflare challenge (cf-mitigated: challenge)", "signature description");
	free(s);
	s = bfetch_header("etag: \"a\"\nlast-modified: Mon, 01 Jan 2024 00:00:00 GMT\r\n", 58, "last-modified");
	TAP_IS_STR(s, "Mon, 01 Jan 2024 00:00:00 GMT", "header value trimmed");
	free(s);
	TAP_IS_INT(bfetch_condition_kind("A"), BK_HTML, "condition A");
	TAP_IS_INT(bfetch_condition_kind("llms_full_txt"), BK_LLMS, "condition llms_full_txt");
	TAP_IS_INT(bfetch_condition_kind("C"), -1, "unknown condition");
	TAP_OK(bfetch_site_id_ok("S001") && !bfetch_site_id_ok("..") && !bfetch_site_id_ok("a/b") &&
	    !bfetch_site_id_ok(""), "site_id as a directory name");
	/* Markdown sniffing at Markdown URLs */
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/html", "", "# Install\n\nRun it:\n\n- a\n"),
	    BF_SUCCESS, "Markdown served as text/html is Markdown");
	TAP_IS_INT(cls(BK_LLMS, 200, "text/html; charset=utf-8", "",
	    "# Project\n\n> Summary\n\n## Docs\n\n- [Intro](intro.md)\n"),
	    BF_SUCCESS, "an llms.txt served as text/html is accepted");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/markdown", "", "  <div class=x>page</div>"),
	    BF_HTTP_ERROR, "a body opening with an HTML tag is HTML whatever the type");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/html", "", "just a sentence, no structure"),
	    BF_HTTP_ERROR, "text/html without Markdown structure stays HTML");
	TAP_IS_INT(cls(BK_MARKDOWN, 200, "text/plain", "", "just a sentence, no structure"),
	    BF_SUCCESS, "plain text at a Markdown URL is kept");
	/* the parse-free scan never counts what the parser would not */
	{
		struct buf b = BUF_INIT;
		int i;

		buf_adds(&b, "<html><body><template><template>x</template>");
		for (i = 0; i < 300; i++)
			buf_adds(&b, "hidden words ");
		buf_adds(&b, "</template><p>Hi</p></body></html>");
		TAP_IS_INT(cls(BK_HTML, 200, "text/html", "", buf_str(&b)), BF_JS_ONLY,
		    "text in a nested template is not visible (scan agrees with the parser)");
		buf_reset(&b);
		buf_adds(&b, "<html><body><!-- a comment <p>");
		for (i = 0; i < 300; i++)
			buf_adds(&b, "hidden words ");
		buf_adds(&b, "--><p>Hi</p><script>'</script>");
		for (i = 0; i < 300; i++)
			buf_adds(&b, "<p title='a > b'>shown words</p>");
		buf_adds(&b, "</body></html>");
		TAP_IS_INT(cls(BK_HTML, 200, "text/html", "", buf_str(&b)), BF_SUCCESS,
		    "a long page after comments and scripts is SUCCESS");
		buf_release(&b);
	}
	return tap_done();
}
