/*
 * unit-robots.c - robots.txt matching against the examples of RFC 9309
 * (§2.2.2, §2.2.3, §5.1, §5.2) and group selection of §2.2.1.
 */
#include <string.h>

#include "ctx.h"
#include "../../tools/bfetch/bfetch.h"
#include "tap.h"

static int
allowed(const char *txt, const char *product, const char *path)
{
	struct bfetch_robots *r = bfetch_robots_parse(txt, strlen(txt), product);
	int a = bfetch_robots_allowed(r, path, NULL);

	bfetch_robots_free(r);
	return a;
}

int
main(void)
{
	/* RFC 9309 §5.1 example file */
	static const char ex[] =
	    "User-Agent: *\n"
	    "Disallow: *.gif$\n"
	    "Disallow: /example/\n"
	    "Allow: /publications/\n"
	    "\n"
	    "User-Agent: foobot\n"
	    "Disallow:/\n"
	    "Allow:/example/page.html\n"
	    "Allow:/example/allowed.gif\n"
	    "\n"
	    "User-Agent: barbot\n"
	    "User-Agent: bazbot\n"
	    "Disallow: /example/page.html\n"
	    "\n"
	    "User-Agent: quxbot\n";
	static const char longest[] =
	    "User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n";
	static const char tie[] = "User-agent: *\nAllow: /folder\nDisallow: /folder\n";
	const char *rule;
	struct bfetch_robots *r;
	char *tok;

	ctx_init("unit-robots");
	TAP_OK(allowed(ex, "foobot", "/example/page.html"), "foobot: allowed page");
	TAP_OK(!allowed(ex, "foobot", "/other"), "foobot: Disallow: / applies");
	TAP_OK(allowed(ex, "foobot", "/example/allowed.gif"), "foobot: allow beats its own group's disallow");
	TAP_OK(!allowed(ex, "barbot", "/example/page.html"), "barbot: shared group applies");
	TAP_OK(!allowed(ex, "BAZBOT", "/example/page.html"), "bazbot: user-agent matched case-insensitively");
	TAP_OK(allowed(ex, "barbot", "/example/other.gif"), "barbot: * group not merged in");
	TAP_OK(allowed(ex, "quxbot", "/example/"), "quxbot: empty group allows all");
	TAP_OK(!allowed(ex, "otherbot", "/a/b.gif"), "*: Disallow *.gif$");
	TAP_OK(allowed(ex, "otherbot", "/a/b.gif?x"), "*: $ anchors at the end");
	TAP_OK(!allowed(ex, "otherbot", "/example/x"), "*: Disallow /example/");
	TAP_OK(allowed(ex, "otherbot", "/publications/"), "*: Allow /publications/");
	TAP_OK(allowed(ex, "otherbot", "/robots.txt"), "/robots.txt always allowed");
	TAP_OK(!allowed(longest, "x", "/example/page/disallowed.gif"), "longest match wins");
	TAP_OK(allowed(longest, "x", "/example/page/other"), "shorter allow still applies");
	TAP_OK(allowed(tie, "x", "/folder/page"), "equal length: allow wins");
	TAP_OK(allowed("User-agent: *\nDisallow:\n", "x", "/a"), "empty Disallow allows");
	TAP_OK(allowed("Disallow: /\n", "x", "/a"), "rules outside a group ignored");
	TAP_OK(!allowed("user-agent: *\r\ndisallow: /a # comment\r\n", "x", "/a/b"), "CRLF, lower case keys, comments");
	TAP_OK(!allowed("\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n", "x", "/a"), "byte order mark ignored");
	TAP_OK(!allowed("User-agent: *\nDisallow: /path/%7Efile\n", "x", "/path/~file"), "%%7E equals ~ (unreserved decoded)");
	TAP_OK(!allowed("User-agent: *\nDisallow: /foo/bar/\xE3\x83\x84\n", "x", "/foo/bar/%E3%83%84"), "UTF-8 pattern equals its percent-encoding");
	TAP_OK(!allowed("User-agent: *\nDisallow: /foo/bar/%e3%83%84\n", "x", "/foo/bar/%E3%83%84"), "percent-encoding compared case-insensitively");
	TAP_OK(!allowed("User-agent: *\nDisallow: /a*b*c\n", "x", "/axxbyyc/z"), "several wildcards");
	TAP_OK(allowed("User-agent: *\nDisallow: /a*b*c\n", "x", "/axxbyy"), "wildcards need every literal");
	TAP_OK(!allowed("User-agent: *\nDisallow: /*?\n", "x", "/page?q=1"), "query string matched");
	TAP_OK(allowed("User-agent: *\nDisallow: /x\n", "x", ""), "empty path is /");
	TAP_OK(!allowed("User-agent: *\nUser-agent: LlmsTxtBenchmark\nDisallow: /\n", "LlmsTxtBenchmark", "/"),
	    "group with several user-agent lines");
	TAP_OK(allowed("User-agent: LlmsTxtBenchmark\nAllow: /\n\nUser-agent: *\nDisallow: /\n", "llmstxtbenchmark", "/d"),
	    "named group preferred over *");
	TAP_OK(!allowed("User-agent: LlmsTxtBenchmark/1.0\nDisallow: /d\n", "LlmsTxtBenchmark", "/d"),
	    "user-agent value's product token compared");
	TAP_OK(!allowed("User-agent: *\nSitemap: https://x/s.xml\nDisallow: /d\n", "x", "/d"),
	    "sitemap line does not end a group");

	r = bfetch_robots_parse(ex, strlen(ex), "foobot");
	TAP_IS_INT(bfetch_robots_nrules(r), 3, "foobot group has 3 rules");
	TAP_OK(!bfetch_robots_allowed(r, "/x", &rule), "rule reported");
	TAP_IS_STR(rule, "Disallow: /", "deciding rule text");
	bfetch_robots_free(r);
	r = bfetch_robots_all(0);
	TAP_OK(!bfetch_robots_allowed(r, "/x", NULL), "complete disallow");
	TAP_OK(bfetch_robots_allowed(r, "/robots.txt", NULL), "complete disallow still allows /robots.txt");
	bfetch_robots_free(r);
	r = bfetch_robots_parse("User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\n", 44, "foobot");
	TAP_IS_INT(bfetch_robots_crawl_delay_ms(r), 2500, "Crawl-delay in seconds, fractions allowed");
	TAP_IS_INT(bfetch_robots_nrules(r), 1, "Crawl-delay does not end the group");
	bfetch_robots_free(r);
	r = bfetch_robots_parse("User-agent: other\nCrawl-delay: 9\n\nUser-agent: *\nAllow: /\n", 57, "foobot");
	TAP_IS_INT(bfetch_robots_crawl_delay_ms(r), -1, "another group's Crawl-delay does not apply");
	bfetch_robots_free(r);
	r = bfetch_robots_parse("User-agent: *\nCrawl-delay: 99999\n", 33, "foobot");
	TAP_IS_INT(bfetch_robots_crawl_delay_ms(r), BFETCH_CRAWL_DELAY_MAX * 1000, "Crawl-delay capped");
	bfetch_robots_free(r);
	r = bfetch_robots_parse("User-agent: *\nCrawl-delay: soon\n", 32, "foobot");
	TAP_IS_INT(bfetch_robots_crawl_delay_ms(r), -1, "an unparsable Crawl-delay is ignored");
	bfetch_robots_free(r);
	tok = bfetch_product_token("LlmsTxtBenchmark/1.0 (academic research)");
	TAP_IS_STR(tok, "LlmsTxtBenchmark", "product token of the config's user agent");
	free(tok);
	return tap_done();
}
