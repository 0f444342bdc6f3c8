/*
 * html.c - bstats --html: the results browser, one self-contained page
 * (share/bstats/browser.{html,css,js}) that opens from disk and loads
 * nothing: the report (rendered from its Markdown in the page), the figures
 * inline, and every (site, question, model) of the study with its question,
 * gold answer, both conditions' content, responses, scores, tokens, gold
 * coverage and exclusions, filterable and sortable by Δ.
 *
 * It is written from the scored records bstats reads, which carry the
 * condition of every response: merged, unblinded data (bscore-merge merge;
 * with --keep-texts the records keep the content too).  The page's
 * Content-Security-Policy allows only its own inline script and style, by
 * their SHA-256 digests; the data sit in a JSON element with '<', '>' and '&'
 * written as \u escapes, and the script puts every data string into the page
 * as text, never as markup (as bscore-merge's scoring page does).
 * Calls report.c (the report's Markdown), svg.c (the figures) and obs.c.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sha256.h"
#include "bstats.h"

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

/* ------------------------------------------------------------ the data */

/* Score v of rating o, or null when o is excluded or v does not apply. */
static json_t *
score_or_null(const struct bst_obs *o, double v, int applies)
{
	return !o->excluded && applies ? json_real(v) : json_null();
}

/* The string field f of o's whole record (kept for --html), or null. */
static json_t *
rec_text(const struct bst_obs *o, const char *f)
{
	return json_str_or_null(json_get_str(o->rec, f));
}

/* One condition of a tuple; its content goes into contents once. */
static json_t *
side(const struct bst_obs *o, json_t *contents)
{
	json_t *j = json_object(), *c = o->rec ? json_object_get(o->rec,
	    "content") : NULL;
	char key[512];

	json_set_new(j, "excluded", o->excluded ? json_string(o->reason) :
	    json_null());
	json_set_new(j, "fa", score_or_null(o, o->fa, 1));
	json_set_new(j, "hc", score_or_null(o, o->hc, 1));
	json_set_new(j, "comp", score_or_null(o, o->comp, 1));
	json_set_new(j, "cf", score_or_null(o, o->cf, o->cf >= 0));
	json_set_new(j, "tok", score_or_null(o, o->tok, 1));
	json_set_new(j, "reftok", score_or_null(o, o->reftok, o->has_reftok));
	/* gold_coverage and the parity shares: 0..1, or -1 when absent */
	json_set_new(j, "gold_coverage", json_real_or_null(o->gold_cov));
	json_set_new(j, "response", rec_text(o, "response_text"));
	json_set_new(j, "response_id", rec_text(o, "response_id"));
	snprintf(key, sizeof key, "%s\t%s\t%c", o->site, o->question, o->cond);
	if (json_is_string(c)) {
		if (!json_object_get(contents, key))
			json_object_set(contents, key, c);
		json_set_str(j, "content", key);
	} else {
		json_set_null(j, "content");
	}
	return j;
}

static void
deltas(json_t *p, const struct bst_obs *a, const struct bst_obs *b)
{
	int paired = a && b && !a->excluded && !b->excluded;

	json_set_new(p, "d_acc", paired ? json_real(bst_delta(M_ACC, a, b)) :
	    json_null());
	json_set_new(p, "d_hall", paired ? json_real(bst_delta(M_HALL, a, b)) :
	    json_null());
	json_set_new(p, "d_tok", paired ? json_real(bst_delta(M_TOK, a, b)) :
	    json_null());
	if (paired && (b->par_b_in_a >= 0 || b->drift >= 0)) {
		json_t *par = json_object();

		json_set_new(par, "b_in_a", json_real_or_null(b->par_b_in_a));
		json_set_new(par, "a_in_b", json_real_or_null(b->par_a_in_b));
		json_set_new(par, "drift", b->drift >= 0 ? json_boolean(b->drift) :
		    json_null());
		json_set_new(p, "parity", par);
	} else {
		json_set_null(p, "parity");
	}
}

/* The tuple of s->idx[i .. ): one or two conditions; returns the next i. */
static size_t
tuple(const struct bst_study *s, size_t i, json_t *pairs, json_t *questions,
    json_t *contents)
{
	const struct bst_obs *o = s->idx[i], *a = NULL, *b = NULL;
	json_t *p = json_object();
	char qkey[512];
	size_t j;

	for (j = i; j < s->nobs && bst_same_triple(s->idx[j], o); j++) {
		if (s->idx[j]->cond == 'A')
			a = s->idx[j];
		else
			b = s->idx[j];
	}
	snprintf(qkey, sizeof qkey, "%s\t%s", o->site, o->question);
	if (!json_object_get(questions, qkey)) {
		json_t *q = json_object();

		json_set_new(q, "question_text", rec_text(o, "question_text"));
		json_set_new(q, "gold_answer", rec_text(o, "gold_answer"));
		json_object_set_new(questions, qkey, q);
	}
	json_set_int(p, "order", (long long)json_array_size(pairs));
	json_set_str(p, "site", o->site);
	json_set_str(p, "question", o->question);
	json_set_str(p, "model", o->model);
	json_set_new(p, "tier", json_str_or_null(o->tier));
	json_set_new(p, "complexity", json_str_or_null(o->complexity));
	json_set_new(p, "sector", json_str_or_null(o->sector));
	json_set_str(p, "qkey", qkey);
	json_set_new(p, "A", a ? side(a, contents) : json_null());
	json_set_new(p, "B", b ? side(b, contents) : json_null());
	deltas(p, a, b);
	json_array_append_new(pairs, p);
	return j;
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
page_data(const struct bst_study *s)
{
	json_t *d = json_object(), *pairs = json_array(), *qs = json_object(),
	    *cs = json_object();
	char *md = report_markdown(s), *js, *p;
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < s->nobs; )
		i = tuple(s, i, pairs, qs, cs);
	json_set_str(d, "sign", BST_SIGN);
	json_set_str(d, "report", md);
	json_set_new(d, "pairs", pairs);
	json_set_new(d, "questions", qs);
	json_set_new(d, "contents", cs);
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
bstats_html(const struct bst_study *s, FILE *fp)
{
	char *tpl = ctx_share_text("bstats/browser.html");
	char *css = ctx_share_text("bstats/browser.css");
	char *js = ctx_share_text("bstats/browser.js");
	char *data = page_data(s), hs[60], hc[60];
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
