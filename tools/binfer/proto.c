/*
 * proto.c - what binfer's two chat protocols share, beneath them: the
 * result of one answer, the messages array of a request, error bodies of
 * every shape and the overflow test, and the small steps both parsers take
 * (loading an object, splitting a stream into lines, appending a piece of
 * an answer).  ollama.c and openai.c call down into this file, and so does
 * the dispatcher binfer_parse (engine.c); nothing here calls them.
 */
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "binfer.h"

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

/* ------------------------------------------------------------ errors */

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

/* An OpenAI error object: "message (code)" or "message (type)", else its JSON. */
static char *
error_object_message(const json_t *e)
{
	const char *m = json_get_str(e, "message");
	const char *extra = json_get_str(e, "code");

	if (!m)
		return json_compact(e, NULL);
	if (!extra)
		extra = json_get_str(e, "type");
	return extra ? xasprintf("%s (%s)", m, extra) : xstrdup(m);
}

char *
binfer_error_message(const json_t *o)
{
	json_t *e;

	if (!json_is_object(o))
		return NULL;
	e = json_object_get(o, "error");
	if (json_is_string(e))
		return xstrdup(json_string_value(e));
	if (json_is_object(e))
		return error_object_message(e);
	if (e && !json_is_null(e))
		return json_compact(e, NULL);
	/* vLLM: {"object": "error", "message": ...}; FastAPI: {"detail": ...} */
	if (json_get_str(o, "message") && json_get_str(o, "object"))
		return xstrdup(json_get_str(o, "message"));
	if (json_get_str(o, "detail"))
		return xstrdup(json_get_str(o, "detail"));
	return NULL;
}

void
binfer_set_error(struct binfer_result *r, const char *what, const char *detail)
{
	free(r->error);
	r->error = xasprintf("%s%s", what, detail);
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

/* ------------------------------------------------------------ parsing */

long long
binfer_count(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	return -1;
}

void
binfer_take_str(char **dst, const json_t *o, const char *key)
{
	const char *s = json_get_str(o, key);

	if (s) {
		free(*dst);
		*dst = xstrdup(s);
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
