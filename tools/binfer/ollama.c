/*
 * ollama.c - Ollama's native chat API (docs.ollama.com/api/chat).
 *
 * POST /api/chat with {model, messages, stream, think, truncate, shift,
 * options{...}}; the answer is one object, or with stream true one object
 * per line (NDJSON) whose last has done true and carries done_reason,
 * total_duration, load_duration, prompt_eval_count, prompt_eval_duration,
 * eval_count, eval_duration (all durations in nanoseconds).  Errors are
 * {"error": "..."}, also as a line of a stream.
 */
#include <string.h>

#include "ctx.h"
#include "binfer.h"

json_t *
binfer_ollama_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, long long num_ctx, int think_off, int stream)
{
	json_t *b = json_object(), *o = json_object();

	json_set_str(b, "model", model);
	json_set_new(b, "messages", binfer_messages(system, user));
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

static double
get_ns_ms(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_number(v) && json_number_value(v) >= 0)
		return json_number_value(v) / 1e6;
	return -1;
}

/* The final (done) object of an Ollama answer: counts and durations. */
static void
ollama_final(const json_t *o, struct binfer_result *r)
{
	binfer_take_str(&r->finish_reason, o, "done_reason");
	r->prompt_eval_count = binfer_count(o, "prompt_eval_count");
	r->eval_count = binfer_count(o, "eval_count");
	r->total_ms = get_ns_ms(o, "total_duration");
	r->load_ms = get_ns_ms(o, "load_duration");
	r->prompt_ms = get_ns_ms(o, "prompt_eval_duration");
	r->eval_ms = get_ns_ms(o, "eval_duration");
}

static int
ollama_object(const json_t *o, struct binfer_result *r, int *done)
{
	json_t *msg;
	int st = binfer_error_status(o, r);

	if (st != BINFER_OK)
		return st;
	msg = json_object_get(o, "message");
	if (!json_get_str(msg, "content")) {
		binfer_set_error(r, "malformed answer: ", "message.content: expected a string");
		return BINFER_RETRY;
	}
	binfer_append(&r->content, json_get_str(msg, "content"));
	binfer_append(&r->thinking, json_get_str(msg, "thinking"));
	if (json_is_true(json_object_get(o, "done"))) {
		*done = 1;
		ollama_final(o, r);
	}
	return BINFER_OK;
}

static int
stream_line(const char *line, size_t n, void *ud)
{
	struct binfer_stream *sp = ud;
	json_t *o = binfer_load_object(line, n, "malformed stream line: ", sp->r);
	int st;

	if (!o)
		return BINFER_RETRY;
	st = ollama_object(o, sp->r, &sp->done);
	json_decref(o);
	if (st != BINFER_OK)
		return st;
	return sp->done ? -1 : 0;
}

int
binfer_parse_ollama(const char *body, size_t len, int stream, struct binfer_result *r)
{
	struct binfer_stream sp = { r, 0 };
	json_t *o;
	int st;

	if (stream) {
		if ((st = binfer_each_line(body, len, stream_line, &sp)) != BINFER_OK)
			return st;
		return binfer_stream_end(r, sp.done, "stream ended before its final (done) message");
	}
	if ((o = binfer_load_object(body, len, "malformed answer: ", r)) == NULL)
		return BINFER_RETRY;
	st = ollama_object(o, r, &sp.done);
	json_decref(o);
	if (st != BINFER_OK)
		return st;
	if (!sp.done) {
		binfer_set_error(r, "malformed answer: ", "done is not true");
		return BINFER_RETRY;
	}
	return binfer_stream_end(r, 1, NULL);
}
