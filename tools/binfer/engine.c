/*
 * engine.c - the two chat protocols binfer speaks.
 *
 * Ollama's native API (docs.ollama.com/api/chat): POST /api/chat with
 * {model, messages, stream, think, truncate, shift, options{...}}; the answer
 * is one object, or with stream true one object per line (NDJSON) whose last
 * has done true and carries done_reason, total_duration, load_duration,
 * prompt_eval_count, prompt_eval_duration, eval_count, eval_duration (all
 * durations in nanoseconds).  Errors are {"error": "..."}, also as a line of a
 * stream.
 *
 * OpenAI chat completions (platform.openai.com/docs/api-reference/chat):
 * POST /v1/chat/completions; the answer has choices[0].message.content,
 * choices[0].finish_reason, usage{prompt_tokens, completion_tokens},
 * system_fingerprint; with stream true, server-sent events "data: CHUNK"
 * where chunks carry choices[0].delta.content and the last one usage (asked
 * for with stream_options.include_usage), ended by "data: [DONE]".  llama.cpp's
 * server adds timings{prompt_ms, predicted_ms}.  Errors are
 * {"error": {"message", "type", "code"}} (vLLM: {"object": "error",
 * "message"}).
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

static json_t *
messages(const char *system, const char *user)
{
	json_t *m = json_array();

	if (system && *system)
		json_array_append_new(m, json_pack("{s:s,s:s}", "role", "system",
		    "content", system));
	json_array_append_new(m, json_pack("{s:s,s:s}", "role", "user",
	    "content", user));
	return m;
}

json_t *
binfer_ollama_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, long long num_ctx, int think_off, int stream)
{
	json_t *b = json_object(), *o = json_object();

	json_set_str(b, "model", model);
	json_set_new(b, "messages", messages(system, user));
	json_set_bool(b, "stream", stream);
	if (think_off)
		json_set_bool(b, "think", 0);
	/* Overflow is an error, never a silent cut (Ollama >= 0.12). */
	json_set_bool(b, "truncate", 0);
	json_set_bool(b, "shift", 0);
	json_set_real(o, "temperature", p->temperature);
	json_set_int(o, "seed", p->seed);
	json_set_real(o, "top_p", p->top_p);
	json_set_int(o, "top_k", p->top_k);
	json_set_real(o, "repeat_penalty", p->repeat_penalty);
	json_set_int(o, "num_predict", p->num_predict);
	json_set_int(o, "num_ctx", num_ctx);
	json_set_new(b, "options", o);
	return b;
}

json_t *
binfer_openai_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, const json_t *extra, int stream)
{
	json_t *b = json_object();
	const char *k;
	json_t *v;

	json_set_str(b, "model", model);
	json_set_new(b, "messages", messages(system, user));
	json_set_real(b, "temperature", p->temperature);
	json_set_int(b, "seed", p->seed);
	json_set_real(b, "top_p", p->top_p);
	json_set_int(b, "max_tokens", p->num_predict);
	json_set_bool(b, "stream", stream);
	if (stream)
		json_set_new(b, "stream_options", json_pack("{s:b}",
		    "include_usage", 1));
	if (extra)
		json_object_foreach((json_t *)extra, k, v)
			json_object_set(b, k, v);
	return b;
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
static char *
error_message(const json_t *o)
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

static void
set_error(struct binfer_result *r, const char *what, const char *detail)
{
	free(r->error);
	r->error = xasprintf("%s%s", what, detail);
}

static long long
get_count(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	return -1;
}

static double
get_ns_ms(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_number(v) && json_number_value(v) >= 0)
		return json_number_value(v) / 1e6;
	return -1;
}

static void
set_str(char **dst, const json_t *v)
{
	if (json_is_string(v)) {
		free(*dst);
		*dst = xstrdup(json_string_value(v));
	}
}

/* The final (done) object of an Ollama answer: counts and durations. */
static void
ollama_final(const json_t *o, struct binfer_result *r)
{
	set_str(&r->finish_reason, json_object_get(o, "done_reason"));
	r->prompt_eval_count = get_count(o, "prompt_eval_count");
	r->eval_count = get_count(o, "eval_count");
	r->total_ms = get_ns_ms(o, "total_duration");
	r->load_ms = get_ns_ms(o, "load_duration");
	r->prompt_ms = get_ns_ms(o, "prompt_eval_duration");
	r->eval_ms = get_ns_ms(o, "eval_duration");
}

static void
append(char **dst, const char *s)
{
	char *n;

	if (!s || !*s)
		return;
	n = xasprintf("%s%s", *dst ? *dst : "", s);
	free(*dst);
	*dst = n;
}

static int
ollama_object(const json_t *o, struct binfer_result *r, int *done)
{
	json_t *msg;
	char *em = error_message(o);

	if (em) {
		free(r->error);
		r->error = em;
		if (binfer_is_overflow_message(em)) {
			r->overflow = 1;
			return BINFER_FAIL;
		}
		return BINFER_RETRY;
	}
	msg = json_object_get(o, "message");
	if (!json_is_object(msg) || !json_is_string(json_object_get(msg, "content"))) {
		set_error(r, "malformed answer: ", "message.content: expected a string");
		return BINFER_RETRY;
	}
	append(&r->content, json_string_value(json_object_get(msg, "content")));
	if (json_is_string(json_object_get(msg, "thinking")))
		append(&r->thinking, json_string_value(json_object_get(msg, "thinking")));
	if (json_is_true(json_object_get(o, "done"))) {
		*done = 1;
		ollama_final(o, r);
	}
	return BINFER_OK;
}

static int
parse_ollama(const char *body, size_t len, int stream, struct binfer_result *r)
{
	json_error_t je;
	json_t *o;
	int done = 0, st = BINFER_OK;

	if (!stream) {
		o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
		if (!json_is_object(o)) {
			json_decref(o);
			set_error(r, "malformed answer: ", je.text[0] ? je.text : "not a JSON object");
			return BINFER_RETRY;
		}
		st = ollama_object(o, r, &done);
		json_decref(o);
		if (st == BINFER_OK && !done) {
			set_error(r, "malformed answer: ", "done is not true");
			st = BINFER_RETRY;
		}
		if (st == BINFER_OK && !r->content)
			r->content = xstrdup("");
		return st;
	}
	while (len > 0) {
		const char *nl = memchr(body, '\n', len);
		size_t n = nl ? (size_t)(nl - body) : len;

		if (n > 0 && !(n == 1 && body[0] == '\r')) {
			o = json_loadb(body, n, JSON_REJECT_DUPLICATES, &je);
			if (!json_is_object(o)) {
				json_decref(o);
				set_error(r, "malformed stream line: ", je.text[0] ? je.text : "not a JSON object");
				return BINFER_RETRY;
			}
			st = ollama_object(o, r, &done);
			json_decref(o);
			if (st != BINFER_OK)
				return st;
			if (done)
				break;
		}
		if (!nl)
			break;
		len -= n + 1;
		body = nl + 1;
	}
	if (!done) {
		set_error(r, "", "stream ended before its final (done) message");
		return BINFER_RETRY;
	}
	if (!r->content)
		r->content = xstrdup("");
	return BINFER_OK;
}

static void
openai_usage(const json_t *o, struct binfer_result *r)
{
	json_t *u = json_object_get(o, "usage"), *t;

	if (json_is_object(u)) {
		r->prompt_eval_count = get_count(u, "prompt_tokens");
		r->eval_count = get_count(u, "completion_tokens");
	}
	set_str(&r->model_digest, json_object_get(o, "system_fingerprint"));
	t = json_object_get(o, "timings");	/* llama.cpp server */
	if (json_is_object(t)) {
		json_t *pm = json_object_get(t, "prompt_ms"), *em = json_object_get(t, "predicted_ms");

		if (json_is_number(pm))
			r->prompt_ms = json_number_value(pm);
		if (json_is_number(em))
			r->eval_ms = json_number_value(em);
	}
}

static int
parse_openai(const char *body, size_t len, int stream, struct binfer_result *r)
{
	json_error_t je;
	json_t *o, *c0, *m;
	int done = 0;
	char *em;

	if (!stream) {
		o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
		if (!json_is_object(o)) {
			json_decref(o);
			set_error(r, "malformed answer: ", je.text[0] ? je.text : "not a JSON object");
			return BINFER_RETRY;
		}
		if ((em = error_message(o)) != NULL) {
			free(r->error);
			r->error = em;
			json_decref(o);
			if (binfer_is_overflow_message(em)) {
				r->overflow = 1;
				return BINFER_FAIL;
			}
			return BINFER_RETRY;
		}
		c0 = json_array_get(json_object_get(o, "choices"), 0);
		m = json_object_get(c0, "message");
		if (!json_is_object(m) || !(json_is_string(json_object_get(m, "content")) ||
		    json_is_null(json_object_get(m, "content")))) {
			json_decref(o);
			set_error(r, "malformed answer: ", "choices[0].message.content: expected a string");
			return BINFER_RETRY;
		}
		r->content = xstrdup(json_is_string(json_object_get(m, "content")) ?
		    json_string_value(json_object_get(m, "content")) : "");
		set_str(&r->thinking, json_object_get(m, "reasoning_content"));
		set_str(&r->finish_reason, json_object_get(c0, "finish_reason"));
		openai_usage(o, r);
		json_decref(o);
		return BINFER_OK;
	}
	while (len > 0) {
		const char *nl = memchr(body, '\n', len);
		size_t n = nl ? (size_t)(nl - body) : len;
		const char *d = body;

		if (n > 0 && d[n - 1] == '\r')
			n--;
		if (n >= 5 && memcmp(d, "data:", 5) == 0) {
			d += 5;
			n -= 5;
			if (n > 0 && *d == ' ')
				d++, n--;
			if (n == 6 && memcmp(d, "[DONE]", 6) == 0) {
				done = 1;
				break;
			}
			o = json_loadb(d, n, JSON_REJECT_DUPLICATES, &je);
			if (!json_is_object(o)) {
				json_decref(o);
				set_error(r, "malformed event: ", je.text[0] ? je.text : "not a JSON object");
				return BINFER_RETRY;
			}
			if ((em = error_message(o)) != NULL) {
				free(r->error);
				r->error = em;
				json_decref(o);
				if (binfer_is_overflow_message(em)) {
					r->overflow = 1;
					return BINFER_FAIL;
				}
				return BINFER_RETRY;
			}
			c0 = json_array_get(json_object_get(o, "choices"), 0);
			if (json_is_object(c0)) {
				json_t *delta = json_object_get(c0, "delta");

				if (json_is_object(delta)) {
					if (json_is_string(json_object_get(delta, "content")))
						append(&r->content, json_string_value(json_object_get(delta, "content")));
					if (json_is_string(json_object_get(delta, "reasoning_content")))
						append(&r->thinking, json_string_value(json_object_get(delta, "reasoning_content")));
				}
				set_str(&r->finish_reason, json_object_get(c0, "finish_reason"));
			}
			openai_usage(o, r);
			json_decref(o);
		}
		if (!nl)
			break;
		len = (size_t)(body + len - (nl + 1));
		body = nl + 1;
	}
	if (!done) {
		set_error(r, "", "event stream ended before data: [DONE]");
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
		char *em = error_message(o);
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
		return parse_ollama(body, len, stream, r);
	return parse_openai(body, len, stream, r);
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

json_t *
binfer_parse_verdict(const char *text, const char **err)
{
	const char *p = text;

	*err = "no JSON object with factual_accuracy in the judge's answer";
	while ((p = strchr(p, '{')) != NULL) {
		json_error_t je;
		json_t *o = json_loads(p, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &je);
		json_t *fa, *co, *hc, *ra, *v;

		if (!json_is_object(o) || !(fa = json_object_get(o, "factual_accuracy"))) {
			json_decref(o);
			p++;
			continue;
		}
		co = json_object_get(o, "completeness");
		hc = json_object_get(o, "hallucination_count");
		ra = json_object_get(o, "rationale");
		if (!json_is_integer(fa) || json_integer_value(fa) < 0 ||
		    json_integer_value(fa) > 3) {
			*err = "factual_accuracy: expected an integer 0 to 3";
			json_decref(o);
			return NULL;
		}
		if (co && !json_is_null(co) && !(json_is_integer(co) &&
		    (json_integer_value(co) == 0 || json_integer_value(co) == 1))) {
			*err = "completeness: expected 0 or 1";
			json_decref(o);
			return NULL;
		}
		if (hc && !json_is_null(hc) && !(json_is_integer(hc) &&
		    json_integer_value(hc) >= 0)) {
			*err = "hallucination_count: expected a non-negative integer";
			json_decref(o);
			return NULL;
		}
		v = json_object();
		json_set_int(v, "factual_accuracy", json_integer_value(fa));
		json_set_new(v, "completeness", co ? json_incref(co) : json_null());
		json_set_new(v, "hallucination_count", hc ? json_incref(hc) : json_null());
		json_set_new(v, "rationale", json_is_string(ra) ? json_incref(ra) : json_null());
		json_decref(o);
		*err = NULL;
		return v;
	}
	return NULL;
}
