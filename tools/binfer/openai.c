/*
 * openai.c - the OpenAI-compatible chat API and each server's dialect of it.
 *
 * POST /v1/chat/completions (platform.openai.com/docs/api-reference/chat);
 * the answer has choices[0].message.content, choices[0].finish_reason,
 * usage{prompt_tokens, completion_tokens}, system_fingerprint; with stream
 * true, server-sent events "data: CHUNK" where chunks carry
 * choices[0].delta.content and the last one usage (asked for with
 * stream_options.include_usage), ended by "data: [DONE]".  llama.cpp's
 * server adds timings{prompt_ms, predicted_ms}.  Errors are
 * {"error": {"message", "type", "code"}} (vLLM: {"object": "error",
 * "message"}).
 *
 * The standard request has temperature, seed, top_p and max_tokens only;
 * each server reads the other locked parameters of 001 §4.6 from fields
 * of its own (binfer(1) has the table):
 *   llama.cpp  top_k, repeat_penalty, min_p 0 (its default 0.05 filters),
 *              n_predict, cache_prompt false (a reused prompt cache changes
 *              greedy answers), chat_template_kwargs.enable_thinking
 *              (tools/server/README.md of llama.cpp);
 *   vLLM       top_k (-1 disables), repetition_penalty, min_p,
 *              chat_template_kwargs (docs.vllm.ai, "Extra Parameters");
 *   LM Studio  top_k, repeat_penalty (lmstudio.ai/docs, OpenAI
 *              compatibility: its list of payload parameters); Qwen 3
 *              thinking by /no_think in the prompt;
 *   Ollama /v1 and any other server: the standard fields only; binfer
 *              warns which parameters it cannot lock there.
 */
#include <string.h>

#include "ctx.h"
#include "binfer.h"

int
binfer_think_in_body(enum binfer_server k)
{
	return k == SRV_LLAMACPP || k == SRV_VLLM;
}

/* The fields beyond the standard ones, for kind k. */
static void
dialect_fields(json_t *b, enum binfer_server k, const struct binfer_params *p,
    int think_off)
{
	switch (k) {
	case SRV_LLAMACPP:
		json_set_int(b, "n_predict", p->num_predict);
		json_set_int(b, "top_k", p->top_k);
		json_set_real(b, "min_p", 0.0);
		json_set_real(b, "repeat_penalty", p->repeat_penalty);
		json_set_bool(b, "cache_prompt", 0);
		break;
	case SRV_VLLM:
		json_set_int(b, "top_k", p->top_k > 0 ? p->top_k : -1);
		json_set_real(b, "min_p", 0.0);
		json_set_real(b, "repetition_penalty", p->repeat_penalty);
		break;
	case SRV_LMSTUDIO:
		json_set_int(b, "top_k", p->top_k);
		json_set_real(b, "repeat_penalty", p->repeat_penalty);
		break;
	default:
		break;
	}
	if (think_off && binfer_think_in_body(k))
		json_set_new(b, "chat_template_kwargs", json_pack("{s:b}",
		    "enable_thinking", 0));
}

json_t *
binfer_openai_body(enum binfer_server k, const char *model, const char *system,
    const char *user, const struct binfer_params *p, int think_off,
    const json_t *extra, int stream)
{
	json_t *b = json_object();
	const char *key;
	json_t *v;

	json_set_str(b, "model", model);
	json_set_new(b, "messages", binfer_messages(system, user));
	json_set_real(b, "temperature", p->temperature);
	json_set_int(b, "seed", p->seed);
	json_set_real(b, "top_p", p->top_p);
	json_set_int(b, "max_tokens", p->num_predict);
	dialect_fields(b, k, p, think_off);
	json_set_bool(b, "stream", stream);
	if (stream)
		json_set_new(b, "stream_options", json_pack("{s:b}",
		    "include_usage", 1));
	if (extra)
		json_object_foreach((json_t *)extra, key, v)
			json_object_set(b, key, v);
	return b;
}

char *
binfer_unlocked(enum binfer_server k, const json_t *extra)
{
	struct buf b = BUF_INIT;
	int plain = k == SRV_OLLAMA_OPENAI || k == SRV_OPENAI;

	if (plain && !json_object_get(extra, "top_k"))
		buf_adds(&b, "top_k");
	if (plain && !json_object_get(extra, "repeat_penalty") &&
	    !json_object_get(extra, "repetition_penalty"))
		buf_adds(&b, b.len ? ", repeat_penalty" : "repeat_penalty");
	if (plain)
		buf_adds(&b, b.len ? ", num_ctx" : "num_ctx");
	if (!b.len) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* ------------------------------------------------------------ answers */

static void
openai_usage(const json_t *o, struct binfer_result *r)
{
	json_t *u = json_object_get(o, "usage"), *t;

	if (json_is_object(u)) {
		r->prompt_eval_count = binfer_count(u, "prompt_tokens");
		r->eval_count = binfer_count(u, "completion_tokens");
	}
	binfer_take_str(&r->model_digest, o, "system_fingerprint");
	t = json_object_get(o, "timings");	/* llama.cpp server */
	if (json_is_object(t)) {
		json_t *pm = json_object_get(t, "prompt_ms"), *em = json_object_get(t, "predicted_ms");

		if (json_is_number(pm))
			r->prompt_ms = json_number_value(pm);
		if (json_is_number(em))
			r->eval_ms = json_number_value(em);
	}
}

/*
 * The object in d: BINFER_OK with *out, or a status with r->error (an
 * error object in place of an answer, or no JSON object at all).
 */
static int
load_answer(const char *d, size_t n, const char *what, struct binfer_result *r,
    json_t **out)
{
	json_t *o = binfer_load_object(d, n, what, r);
	int st;

	*out = NULL;
	if (!o)
		return BINFER_RETRY;
	if ((st = binfer_error_status(o, r)) == BINFER_OK)
		*out = o;
	else
		json_decref(o);
	return st;
}

static int
parse_whole(const char *body, size_t len, struct binfer_result *r)
{
	json_t *o, *c0, *m;
	const char *content;
	int st;

	if ((st = load_answer(body, len, "malformed answer: ", r, &o)) != BINFER_OK)
		return st;
	c0 = json_array_get(json_object_get(o, "choices"), 0);
	m = json_object_get(c0, "message");
	content = json_get_str(m, "content");
	if (!content && !json_is_null(json_object_get(m, "content"))) {
		json_decref(o);
		binfer_set_error(r, "malformed answer: ", "choices[0].message.content: expected a string");
		return BINFER_RETRY;
	}
	r->content = xstrdup(content ? content : "");
	binfer_take_str(&r->thinking, m, "reasoning_content");
	binfer_take_str(&r->finish_reason, c0, "finish_reason");
	openai_usage(o, r);
	json_decref(o);
	return BINFER_OK;
}

/* One line of an event stream; "data: CHUNK" lines carry the answer. */
static int
parse_event(const char *d, size_t n, void *ud)
{
	struct binfer_stream *sp = ud;
	json_t *o, *c0, *delta;
	int st;

	if (n < 5 || memcmp(d, "data:", 5) != 0)
		return 0;
	d += 5;
	n -= 5;
	if (n > 0 && *d == ' ')
		d++, n--;
	if (n == 6 && memcmp(d, "[DONE]", 6) == 0) {
		sp->done = 1;
		return -1;
	}
	if ((st = load_answer(d, n, "malformed event: ", sp->r, &o)) != BINFER_OK)
		return st;
	c0 = json_array_get(json_object_get(o, "choices"), 0);
	delta = json_object_get(c0, "delta");
	binfer_append(&sp->r->content, json_get_str(delta, "content"));
	binfer_append(&sp->r->thinking, json_get_str(delta, "reasoning_content"));
	binfer_take_str(&sp->r->finish_reason, c0, "finish_reason");
	openai_usage(o, sp->r);
	json_decref(o);
	return 0;
}

int
binfer_parse_openai(const char *body, size_t len, int stream, struct binfer_result *r)
{
	struct binfer_stream sp = { r, 0 };
	int st;

	if (!stream)
		return parse_whole(body, len, r);
	if ((st = binfer_each_line(body, len, parse_event, &sp)) != BINFER_OK)
		return st;
	return binfer_stream_end(r, sp.done, "event stream ended before data: [DONE]");
}
