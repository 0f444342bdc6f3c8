/*
 * text.c - the text binfer writes into prompts and reads out of answers:
 * {name} placeholders of a prompt template, an answer's raw text with its
 * thinking and without it, and an API key masked wherever it would be
 * printed (a URL's user information is left out by common/http.c's
 * http_url_public).  Plain functions of their arguments; they call
 * nothing of binfer's.
 */
#include <ctype.h>
#include <string.h>

#include "ctx.h"
#include "binfer.h"

/*
 * The value of the placeholder {NAME} at p (NAME: 1 to 63 letters, digits
 * or '_') appended to b, and the text after it returned; NULL, with b
 * unchanged, when p holds no placeholder or vars no string or number NAME.
 */
static const char *
placeholder(struct buf *b, const char *p, const json_t *vars)
{
	const char *close;
	char name[64];
	size_t n, i;
	json_t *v;

	if (*p != '{' || (close = strchr(p + 1, '}')) == NULL ||
	    close - p - 1 <= 0 || close - p - 1 >= 64)
		return NULL;
	n = (size_t)(close - p - 1);
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)p[1 + i]) || p[1 + i] == '_'))
			return NULL;
	memcpy(name, p + 1, n);
	name[n] = '\0';
	v = json_object_get(vars, name);
	if (json_is_string(v))
		buf_adds(b, json_string_value(v));
	else if (v && json_is_number(v))
		json_compact_buf(b, v);
	else
		return NULL;
	return close + 1;
}

char *
binfer_fill_template(const char *tmpl, const json_t *vars)
{
	struct buf b = BUF_INIT;
	const char *p = tmpl, *next;

	while (*p) {
		if ((next = placeholder(&b, p, vars)) != NULL)
			p = next;
		else
			buf_addc(&b, *p++);
	}
	return buf_detach(&b, NULL);
}

char *
binfer_raw_text(const struct binfer_result *r)
{
	if (r->thinking && *r->thinking)
		return xasprintf("<think>%s</think>%s", r->thinking, r->content ? r->content : "");
	return xstrdup(r->content ? r->content : "");
}

char *
binfer_strip_thinking(const char *s)
{
	struct buf b = BUF_INIT;
	const char *p = s, *open, *close;
	size_t start, end;
	char *out;

	while ((open = strstr(p, "<think>")) != NULL) {
		buf_add(&b, p, (size_t)(open - p));
		close = strstr(open, "</think>");
		if (!close) {
			p = open + strlen(open);
			break;
		}
		p = close + strlen("</think>");
	}
	buf_adds(&b, p);
	start = 0;
	end = b.len;
	while (start < end && isspace((unsigned char)b.s[start]))
		start++;
	while (end > start && isspace((unsigned char)b.s[end - 1]))
		end--;
	out = xstrndup(buf_str(&b) + start, end - start);
	buf_release(&b);
	return out;
}

char *
binfer_mask(char *s, const char *secret)
{
	static const char mask[] = "[MASKED]";
	struct buf b = BUF_INIT;
	const char *p, *hit;
	size_t n;

	if (!s || !secret || !*secret || !strstr(s, secret))
		return s;
	n = strlen(secret);
	for (p = s; (hit = strstr(p, secret)) != NULL; p = hit + n) {
		buf_add(&b, p, (size_t)(hit - p));
		buf_adds(&b, mask);
	}
	buf_adds(&b, p);
	free(s);
	return buf_detach(&b, NULL);
}

int
binfer_mask_json(json_t *v, const char *secret)
{
	const char *k;
	json_t *e;
	size_t i;
	int n = 0;
	char *m;

	if (!secret || !*secret)
		return 0;
	if (json_is_string(v)) {
		if (!strstr(json_string_value(v), secret))
			return 0;
		m = binfer_mask(xstrdup(json_string_value(v)), secret);
		json_string_set(v, m);
		free(m);
		return 1;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			n += binfer_mask_json(e, secret);
		return n;
	}
	if (!json_is_object(v))
		return 0;
	json_object_foreach(v, k, e)
		n += binfer_mask_json(e, secret);
	return n;
}
