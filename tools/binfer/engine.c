/*
 * engine.c - what binfer's two chat protocols share: engine names, results,
 * error bodies of every shape, the overflow test, thinking-block removal,
 * prompt templates and secret masking.  The protocols themselves are in
 * ollama.c and openai.c.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "binfer.h"

const char *
binfer_engine_name(enum binfer_engine e)
{
	switch (e) {
	case BINFER_OLLAMA: return "ollama";
	case BINFER_OPENAI: return "openai";
	case BINFER_EXTRACTIVE: return "extractive";
	}
	return "?";
}

int
binfer_engine_parse(const char *s, enum binfer_engine *out)
{
	if (strcmp(s, "ollama") == 0)
		*out = BINFER_OLLAMA;
	else if (strcmp(s, "openai") == 0)
		*out = BINFER_OPENAI;
	else if (strcmp(s, "extractive") == 0)
		*out = BINFER_EXTRACTIVE;
	else
		return -1;
	return 0;
}

void
binfer_result_init(struct binfer_result *r)
{
	memset(r, 0, sizeof(*r));
	r->prompt_eval_count = -1;
	r->eval_count = -1;
	r->total_ms = r->load_ms = r->prompt_ms = r->eval_ms = -1;
}

void
binfer_result_release(struct binfer_result *r)
{
	free(r->content);
	free(r->thinking);
	free(r->finish_reason);
	free(r->model_digest);
	free(r->error);
	binfer_result_init(r);
}

json_t *
binfer_messages(const char *system, const char *user)
{
	json_t *m = json_array();

	if (system && *system)
		json_array_append_new(m, json_pack("{s:s,s:s}", "role", "system",
		    "content", system));
	json_array_append_new(m, json_pack("{s:s,s:s}", "role", "user",
	    "content", user));
	return m;
}

/* Case-insensitive substring test (ASCII). */
static int
has_ci(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s; s++)
		if (strncasecmp(s, pat, n) == 0)
			return 1;
	return 0;
}

int
binfer_is_overflow_message(const char *msg)
{
	static const char *const pat[] = {
		"context length", "context size", "context window",
		"context_length_exceeded", "exceed_context_size",
		"maximum context", "exceeds the context", "too many tokens",
		"prompt is too long", NULL
	};
	size_t i;

	if (!msg)
		return 0;
	for (i = 0; pat[i]; i++)
		if (has_ci(msg, pat[i]))
			return 1;
	return 0;
}

/* The error message of an error body, whatever its shape; malloc'd or NULL. */
char *
binfer_error_message(const json_t *o)
{
	json_t *e;

	if (!json_is_object(o))
		return NULL;
	e = json_object_get(o, "error");
	if (json_is_string(e))
		return xstrdup(json_string_value(e));
	if (json_is_object(e)) {
		json_t *m = json_object_get(e, "message");
		json_t *c = json_object_get(e, "code");
		json_t *t = json_object_get(e, "type");

		if (json_is_string(m)) {
			const char *extra = json_is_string(c) ? json_string_value(c)
			    : json_is_string(t) ? json_string_value(t) : NULL;
			return extra ? xasprintf("%s (%s)", json_string_value(m), extra)
			    : xstrdup(json_string_value(m));
		}
		return json_compact(e, NULL);
	}
	if (e && !json_is_null(e))
		return json_compact(e, NULL);
	if (json_is_string(json_object_get(o, "message")) &&
	    json_is_string(json_object_get(o, "object")))
		return xstrdup(json_string_value(json_object_get(o, "message")));
	if (json_is_string(json_object_get(o, "detail")))
		return xstrdup(json_string_value(json_object_get(o, "detail")));
	return NULL;
}

void
binfer_set_error(struct binfer_result *r, const char *what, const char *detail)
{
	free(r->error);
	r->error = xasprintf("%s%s", what, detail);
}

long long
binfer_count(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	return -1;
}

void
binfer_take_str(char **dst, const json_t *v)
{
	if (json_is_string(v)) {
		free(*dst);
		*dst = xstrdup(json_string_value(v));
	}
}

void
binfer_append(char **dst, const char *s)
{
	char *n;

	if (!s || !*s)
		return;
	n = xasprintf("%s%s", *dst ? *dst : "", s);
	free(*dst);
	*dst = n;
}

int
binfer_error_status(const json_t *o, struct binfer_result *r)
{
	char *em = binfer_error_message(o);

	if (!em)
		return BINFER_OK;
	free(r->error);
	r->error = em;
	if (binfer_is_overflow_message(em)) {
		r->overflow = 1;
		return BINFER_FAIL;
	}
	return BINFER_RETRY;
}

json_t *
binfer_load_object(const char *d, size_t n, const char *what, struct binfer_result *r)
{
	json_error_t je;
	json_t *o = json_loadb(d, n, JSON_REJECT_DUPLICATES, &je);

	if (json_is_object(o))
		return o;
	json_decref(o);
	binfer_set_error(r, what, je.text[0] ? je.text : "not a JSON object");
	return NULL;
}

int
binfer_each_line(const char *body, size_t len, int (*fn)(const char *, size_t, void *),
    void *ud)
{
	int st;

	while (len > 0) {
		const char *nl = memchr(body, '\n', len);
		size_t n = nl ? (size_t)(nl - body) : len;

		if (n > 0 && body[n - 1] == '\r')
			n--;
		if (n > 0 && (st = fn(body, n, ud)) != 0)
			return st < 0 ? 0 : st;
		if (!nl)
			break;
		len = (size_t)(body + len - (nl + 1));
		body = nl + 1;
	}
	return 0;
}

int
binfer_stream_end(struct binfer_result *r, int done, const char *missing)
{
	if (!done) {
		binfer_set_error(r, "", missing);
		return BINFER_RETRY;
	}
	if (!r->content)
		r->content = xstrdup("");
	return BINFER_OK;
}

int
binfer_parse(enum binfer_engine e, int http_status, const char *body, size_t len,
    int stream, struct binfer_result *r)
{
	if (http_status != 200) {
		json_t *o = json_loadb(body, len, 0, NULL);
		char *em = binfer_error_message(o);
		char snippet[161];
		size_t n = len < 160 ? len : 160, i;

		json_decref(o);
		if (!em) {
			for (i = 0; i < n; i++)
				snippet[i] = (body[i] == '\n' || body[i] == '\r') ? ' ' : body[i];
			snippet[n] = '\0';
			em = xstrdup(snippet);
		}
		free(r->error);
		r->error = xasprintf("HTTP %d: %s", http_status, em);
		if (binfer_is_overflow_message(em) && http_status != 429) {
			r->overflow = 1;
			free(em);
			return BINFER_FAIL;
		}
		free(em);
		return (http_status == 429 || http_status >= 500) ? BINFER_RETRY : BINFER_FAIL;
	}
	if (e == BINFER_OLLAMA)
		return binfer_parse_ollama(body, len, stream, r);
	return binfer_parse_openai(body, len, stream, r);
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
binfer_fill_template(const char *tmpl, const json_t *vars)
{
	struct buf b = BUF_INIT;
	const char *p = tmpl;

	while (*p) {
		const char *close;

		if (*p == '{' && (close = strchr(p + 1, '}')) != NULL &&
		    close - p - 1 > 0 && close - p - 1 < 64) {
			char name[64];
			size_t n = (size_t)(close - p - 1), i;
			json_t *v;
			int ident = 1;

			for (i = 0; i < n; i++)
				if (!(isalnum((unsigned char)p[1 + i]) || p[1 + i] == '_'))
					ident = 0;
			if (ident) {
				memcpy(name, p + 1, n);
				name[n] = '\0';
				v = json_object_get(vars, name);
				if (json_is_string(v)) {
					buf_adds(&b, json_string_value(v));
					p = close + 1;
					continue;
				}
				if (v && json_is_number(v)) {
					json_compact_buf(&b, v);
					p = close + 1;
					continue;
				}
			}
		}
		buf_addc(&b, *p++);
	}
	return buf_detach(&b, NULL);
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

	if (!secret || !*secret)
		return 0;
	if (json_is_string(v)) {
		if (!strstr(json_string_value(v), secret))
			return 0;
		{
			char *m = binfer_mask(xstrdup(json_string_value(v)), secret);

			json_string_set(v, m);
			free(m);
		}
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
