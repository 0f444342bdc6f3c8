/*
 * html.c - bstats --html: the results browser, one self-contained page
 * (share/bstats/browser.{html,css,js}) that opens from disk and loads
 * nothing: the report (rendered from its Markdown in the page), the figures
 * inline, a model x condition grid, and every (site, question, model) of
 * the study with its question, gold answer, both conditions' content,
 * responses, transcripts, scores, tokens, gold coverage, changed facts and
 * exclusions; with --compare, a second run of the study beside this one.
 *
 * It is written from the scored records bstats reads, which carry the
 * condition of every response: merged, unblinded data (bscore-merge merge;
 * with --keep-texts the records keep the content and prompts too).  The
 * page's Content-Security-Policy allows only its own inline script and
 * style, by their SHA-256 digests; the data sit in a JSON element with '<',
 * '>' and '&' written as \u escapes, and the script puts every data string
 * into the page as text, never as markup (as bscore-merge's scoring page
 * does).  Calls html-data.c and html-compare.c (the data), report.c (the
 * report's Markdown) and svg.c (the figures).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sha256.h"
#include "html.h"

/* 'sha256-BASE64' of s, the CSP source expression of an inline element. */
static void
csp_hash(const char *s, char out[60])
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char d[SHA256_LEN + 1] = { 0 };
	struct sha256 c;
	size_t i, o = 0;

	sha256_init(&c);
	sha256_update(&c, s, strlen(s));
	sha256_final(&c, d);
	o = (size_t)snprintf(out, 60, "'sha256-");
	for (i = 0; i < SHA256_LEN; i += 3) {
		unsigned v = (unsigned)d[i] << 16 | (unsigned)d[i + 1] << 8 |
		    (i + 2 < SHA256_LEN ? d[i + 2] : 0);

		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < SHA256_LEN ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < SHA256_LEN ? b64[v & 63] : '=';
	}
	out[o++] = '\'';
	out[o] = '\0';
	assert(o < 60);
}

static char *
report_markdown(const struct bst_study *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		die_errno("open_memstream");
	bstats_report(s, fp);
	if (fclose(fp) != 0)
		die_errno("open_memstream");
	return buf;
}

/* The page data, serialised with '<', '>' and '&' as \u escapes. */
static char *
page_data(const struct bst_study *s, const struct bst_study *other,
    const char *label)
{
	struct bst_runidx x;
	char *md = report_markdown(s), *js, *p;
	struct buf b = BUF_INIT;
	json_t *d;

	bst_runidx_init(&x, other);
	d = bst_html_data(s, &x, md);
	json_set_new(d, "compare", other ? bst_html_compare(s, other, &x,
	    label) : json_null());
	bst_runidx_release(&x);
	free(md);
	js = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(d);
	if (!js)
		die("cannot serialise the results browser's data");
	for (p = js; *p; p++) {
		if (*p == '<' || *p == '>' || *p == '&') {
			char u[8];

			snprintf(u, sizeof u, "\\u%04x", (unsigned)*p);
			buf_adds(&b, u);
		} else {
			buf_addc(&b, *p);
		}
	}
	free(js);
	return buf_detach(&b, NULL);
}

static void
figures(const struct bst_study *s, FILE *fp)
{
	size_t i;

	for (i = 0; i < BST_NFIGURES; i++) {
		fprintf(fp, "<figure aria-label=\"%s\">\n", bstats_figure_name(i));
		bstats_figure_svg(s, i, fp);
		fputs("</figure>\n", fp);
	}
}

void
bstats_html(const struct bst_study *s, const struct bst_study *other,
    const char *label, FILE *fp)
{
	char *tpl = ctx_share_text("bstats/browser.html");
	char *css = ctx_share_text("bstats/browser.css");
	char *js = ctx_share_text("bstats/browser.js");
	char *data = page_data(s, other, label), hs[60], hc[60];
	const char *p, *q;

	if (strstr(js, "</") || strstr(css, "</"))
		die("bstats/browser.js or browser.css contains \"</\", which would "
		    "end the inline element");
	csp_hash(js, hs);
	csp_hash(css, hc);
	for (p = tpl; (q = strchr(p, '@')) != NULL; ) {
		static const char *const names[] = { "@TITLE@", "@CSP@", "@CSS@",
		    "@JS@", "@DATA@", "@FIGURES@" };
		size_t k;

		fwrite(p, 1, (size_t)(q - p), fp);
		for (k = 0; k < 6 && strncmp(q, names[k], strlen(names[k])); k++)
			;
		p = q + (k < 6 ? strlen(names[k]) : 1);
		switch (k) {
		case 0:
			fputs("ctxbench results", fp);
			break;
		case 1:
			fprintf(fp, "default-src 'none'; script-src %s; style-src %s; "
			    "img-src data:; base-uri 'none'; form-action 'none'", hs, hc);
			break;
		case 2:
			fputs(css, fp);
			break;
		case 3:
			fputs(js, fp);
			break;
		case 4:
			fputs(data, fp);
			break;
		case 5:
			figures(s, fp);
			break;
		default:
			fputc('@', fp);
		}
	}
	fputs(p, fp);
	free(tpl);
	free(css);
	free(js);
	free(data);
}
