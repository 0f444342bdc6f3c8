/*
 * page.c - the scoring page of `bscore-merge blind --html` (see page.h).
 *
 * The page evaluates the rubric's rules itself, from the expression trees
 * bsm_expr_json gives, so that a note the rubric requires (000 §7.3) is asked
 * for while the rater is on the response, not when merge reads the export.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "expr.h"
#include "page.h"

static json_t *
derived_json(const struct bsm_derived *d, size_t n)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();
		json_set_str(o, "name", d[i].name);
		json_set_new(o, "when", bsm_expr_json(d[i].when));
		json_set_new(o, "expr", bsm_expr_json(d[i].expr));
		if (d[i].ncases) {
			json_t *cs = json_array();
			for (k = 0; k < d[i].ncases; k++) {
				json_t *c = json_object();
				json_set_new(c, "when", bsm_expr_json(d[i].case_when[k]));
				json_set_new(c, "value", json_incref(d[i].case_value[k]));
				json_array_append_new(cs, c);
			}
			json_set_new(o, "cases", cs);
		}
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
rules_json(const struct bsm_rule *r, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();
		json_set_str(o, "id", r[i].id ? r[i].id : "");
		json_set_str(o, "message", r[i].message ? r[i].message : "");
		json_set_new(o, "when", bsm_expr_json(r[i].when));
		json_set_new(o, "require", bsm_expr_json(r[i].require));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *
bsm_page_rubric(const struct bsm_rubric *r, const json_t *pass, size_t index,
    size_t count, const json_t *fields)
{
	json_t *o = json_object(), *p = json_object(), *fs = json_array(), *f;
	const char *keys[] = { "rubric", "version", "title", "spec", NULL };
	size_t i;

	for (i = 0; keys[i]; i++) {
		json_t *v = json_object_get(r->def, keys[i]);
		json_set_new(o, keys[i], v ? json_incref(v) : json_null());
	}
	if (pass) {
		json_set_new(p, "name", json_incref(json_object_get(pass, "name")));
		json_set_new(p, "label", json_incref(json_object_get(pass, "label")));
	} else {
		json_set_str(p, "name", "all");
		json_set_str(p, "label", "All fields");
	}
	json_set_int(p, "index", (long long)index);
	json_set_int(p, "count", (long long)count);
	json_set_new(o, "pass", p);
	json_array_foreach(fields, i, f) {
		const struct bsm_field *fd = bsm_rubric_field(r, json_string_value(f));
		json_t *d;
		if (!fd)
			continue;
		d = json_deep_copy(fd->def);
		json_set_new(d, "optional_when_ast", bsm_expr_json(fd->optional_when));
		if (fd->type == BT_RECORDS) {
			json_set_new(d, "item_rules_ast", rules_json(fd->item_rules, fd->nitem_rules));
			json_set_new(d, "item_derived_ast", derived_json(fd->item_derived,
			    fd->nitem_derived));
		}
		json_array_append_new(fs, d);
	}
	json_set_new(o, "fields", fs);
	json_set_new(o, "rules", rules_json(r->rules, r->nrules));
	return o;
}

char *
bsm_page_json(const json_t *data)
{
	char *s = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER);
	struct buf b = BUF_INIT;
	const char *p;

	if (!s)
		die("cannot serialise the page data");
	buf_adds(&b, "");
	/* '<' '>' '&' only occur inside JSON strings, where \uXXXX means the same. */
	for (p = s; *p; p++) {
		if (*p == '<')
			buf_adds(&b, "\\u003c");
		else if (*p == '>')
			buf_adds(&b, "\\u003e");
		else if (*p == '&')
			buf_adds(&b, "\\u0026");
		else
			buf_addc(&b, *p);
	}
	free(s);
	return buf_detach(&b, NULL);
}

static void
put_html_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", fp);
		else if (*s == '>')
			fputs("&gt;", fp);
		else if (*s == '&')
			fputs("&amp;", fp);
		else if (*s == '"')
			fputs("&quot;", fp);
		else
			fputc(*s, fp);
	}
}

/*
 * The page's Content-Security-Policy: nothing from outside, its own inline
 * style and script, data: images.
 */
#define PAGE_CSP "default-src 'none'; style-src 'unsafe-inline'; " \
	"script-src 'unsafe-inline'; img-src data:"

void
bsm_page_write(FILE *fp, json_t *data, const char *title)
{
	char *tpl = ctx_share_text("bscore-merge/page.html");
	char *css = ctx_share_text("bscore-merge/page.css");
	char *js = ctx_share_text("bscore-merge/page.js");
	char *body, hex[65], *json;
	const char *p, *q;

	/* The page id keys the browser's saved state: a digest of the data. */
	json_object_del(data, "page_id");
	body = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_SORT_KEYS);
	if (!body)
		die("cannot serialise the page data");
	sha256_hex(body, strlen(body), hex);
	free(body);
	hex[24] = '\0';
	json_set_str(data, "page_id", hex);
	json = bsm_page_json(data);
	if (strstr(js, "</") || strstr(css, "</"))
		die("bscore-merge/page.js or page.css contains \"</\", which would end the inline element");
	for (p = tpl; (q = strchr(p, '@')) != NULL; ) {
		fwrite(p, 1, (size_t)(q - p), fp);
		if (!strncmp(q, "@TITLE@", 7)) {
			put_html_text(fp, title);
			p = q + 7;
		} else if (!strncmp(q, "@CSP@", 5)) {
			fputs(PAGE_CSP, fp);
			p = q + 5;
		} else if (!strncmp(q, "@CSS@", 5)) {
			fputs(css, fp);
			p = q + 5;
		} else if (!strncmp(q, "@JS@", 4)) {
			fputs(js, fp);
			p = q + 4;
		} else if (!strncmp(q, "@DATA@", 6)) {
			fputs(json, fp);
			p = q + 6;
		} else {
			fputc('@', fp);
			p = q + 1;
		}
	}
	fputs(p, fp);
	free(json);
	free(tpl);
	free(css);
	free(js);
}
