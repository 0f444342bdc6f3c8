/*
 * record.c - response records.  Preparing one reads its context record
 * (the model's fields, the token counts, the prompt, the context checks of
 * 001 §4.6) and says what the job needs: a request, nothing (an excluded
 * context), or no server at all (the extractive engine, answered here).
 * Putting an answer, a cached answer or an error writes the record's
 * response fields with the exclusion reasons binfer assigns.  Called by
 * job.c; builds requests with request.c and never finishes a job itself.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "ctx.h"
#include "run.h"

#define EXTRACTIVE_VERSION "1"

const char *
binfer_reason_name(enum binfer_reason r)
{
	static const char *const names[REASON_N] = {
		"INFERENCE_ERROR", "CONTEXT_OVERFLOW", "CONTEXT_TRUNCATED",
		"CONTEXT_EXHAUSTED", "JUDGE_ERROR"
	};

	assert(r < REASON_N);
	return names[r];
}

/* ------------------------------------------------------------ preparing */

/* rec[field][tok]: btok's count for tokenizer tok, -1 when absent. */
static long long
count_of(const json_t *rec, const char *field, const char *tok)
{
	json_t *o = json_object_get(rec, field), *v;

	if (!o || json_is_null(o))
		return -1;
	if (!json_is_object(o))
		ndj_die("%s: expected an object, got %s", field, json_type_desc(o));
	v = json_object_get(o, tok);
	if (!v)
		return -1;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		ndj_die("%s.%s: expected a non-negative integer", field, tok);
	return json_integer_value(v);
}

/* rec[field][tok] when a count, else -1; never dies. */
static long long
count_or(const json_t *rec, const char *field, const char *tok)
{
	json_t *v = json_object_get(json_object_get(rec, field), tok);

	return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

long long
record_work(const struct binfer_opts *o, const json_t *rec)
{
	long long n;

	if (json_is_true(json_object_get(rec, "excluded")))
		return 0;
	if (!o->tokenizer)
		return -1;
	n = count_or(rec, "prompt_tokens", o->tokenizer);
	return n >= 0 ? n : count_or(rec, "tokens", o->tokenizer);
}

/*
 * The input's token count: btok's for the model's tokenizer, else (the
 * extractive engine) the reference count.  A context btok never counted
 * stops the run here, at its cause, rather than bstats three stages later.
 */
static long long
input_count(const struct binfer_run *R, const json_t *rec)
{
	const struct binfer_opts *o = R->o;
	json_t *ref = json_object_get(rec, "ref_token_count");
	json_t *tokens = json_object_get(rec, "tokens");
	long long input;

	if ((!tokens || json_is_null(tokens)) && (!ref || json_is_null(ref)))
		ndj_die("no input_token_count — run btok first");
	input = count_of(rec, "tokens", o->tokenizer);
	if (input < 0 && o->engine == BINFER_EXTRACTIVE && json_is_integer(ref))
		input = json_integer_value(ref);
	if (input < 0)
		ndj_die("tokens: no count for tokenizer %s (model %s) — run btok -t %s "
		    "(or btok -c with this config) first", o->tokenizer, o->model_id,
		    o->tokenizer);
	return input;
}

static void
set_model_fields(const struct binfer_run *R, json_t *rec)
{
	const struct binfer_opts *o = R->o;

	json_set_str(rec, "model_id", o->model_id);
	json_set_new(rec, "model_family", json_str_or_null(o->family));
	json_set_new(rec, "tier", json_str_or_null(o->tier));
	json_set_str(rec, "engine", binfer_engine_name(o->engine));
	if (o->engine == BINFER_EXTRACTIVE)
		return;
	/* 001 §4.1: the engine is recorded for reproducibility. */
	json_set_str(rec, "server", binfer_server_name(R->kind));
	json_set_new(rec, "server_version", json_str_or_null(R->version));
}

/* The extractive engine: the hash of what determines it, and its answer. */
static enum job_status
prepare_extractive(const struct binfer_run *R, struct job *j, struct binfer_result *ans)
{
	const char *q = rec_str(j->rec, "question_text");
	const char *content = rec_str(j->rec, "content");
	json_t *canon;
	char *s;
	size_t n;

	canon = json_pack("{s:s,s:s,s:i,s:s,s:s}", "engine", "extractive",
	    "version", EXTRACTIVE_VERSION, "sentences", R->o->sentences,
	    "question", q, "content", content);
	s = json_compact(canon, &n);
	sha256_hex(s, n, j->hash);
	free(s);
	json_decref(canon);
	ans->content = binfer_extractive_answer(q, content, R->o->sentences);
	if (!*ans->content) {
		free(ans->content);
		ans->content = xstrdup("The content does not contain a sentence that "
		    "matches the question.");
	}
	ans->finish_reason = xstrdup("stop");
	return JOB_LOCAL;
}

/* The user prompt: the record's, else the config's template filled. */
static const char *
user_prompt(const struct binfer_run *R, const json_t *rec, const char **system,
    char **filled)
{
	const char *user = rec_str_opt(rec, "user_prompt");
	json_t *vars;

	*system = rec_str_opt(rec, "system_prompt");
	*filled = NULL;
	if (user)
		return user;
	if (!R->o->user_tmpl)
		ndj_die("user_prompt: expected a string (bctx assemble fills it), "
		    "or a config with prompt_template");
	vars = json_pack("{s:s,s:s}", "assembled_content", rec_str(rec, "content"),
	    "question_text", rec_str(rec, "question_text"));
	*filled = binfer_fill_template(R->o->user_tmpl, vars);
	json_decref(vars);
	if (!*system)
		*system = R->o->sys_tmpl;
	return *filled;
}

/*
 * 001 §4.6 before sending: Ollama receives num_ctx per request and the prompt
 * must leave room in the model's maximum; other servers have a context of
 * their own, which must hold the prompt and the output cap.  Returns the
 * overflow message, or NULL.
 */
static char *
context_check(const struct binfer_run *R, struct job *j)
{
	const struct binfer_opts *o = R->o;
	long long max;

	if (o->engine == BINFER_OLLAMA) {
		max = binfer_num_ctx_for(R, 1LL << 40);
		if (j->expected + o->p.num_ctx_overhead / 2 >= max)
			return xasprintf("prompt of %lld tokens does not fit the model's "
			    "context of %lld tokens", j->expected, max);
		return NULL;
	}
	j->num_ctx = R->ctx;
	if (R->ctx > 0 && j->expected >= 0 && j->expected + o->p.num_predict > R->ctx)
		return xasprintf("prompt of %lld tokens and an output cap of %lld do not "
		    "fit the server's context of %lld tokens", j->expected,
		    o->p.num_predict, R->ctx);
	return NULL;
}

/*
 * A model's request: the prompt, btok's count of it and num_ctx, checked
 * against the context; the body is set (and hashed) also for an overflow,
 * whose record names its request_hash.
 */
static enum job_status
prepare_request(const struct binfer_run *R, struct job *j, long long input,
    char **overflow)
{
	const struct binfer_opts *o = R->o;
	const char *system, *user;
	char *filled, *withflag = NULL;

	user = user_prompt(R, j->rec, &system, &filled);
	if (o->no_think_prompt || R->think_suffix) {
		withflag = xasprintf("%s /no_think", user);
		user = withflag;
	}
	j->expected = count_of(j->rec, "prompt_tokens", o->tokenizer);
	if (j->expected < 0)
		j->expected = input;
	if (o->engine == BINFER_OLLAMA)
		j->num_ctx = binfer_num_ctx_for(R, j->expected);
	*overflow = context_check(R, j);
	job_set_body(R, j, system, user);
	free(filled);
	free(withflag);
	return *overflow ? JOB_OVERFLOW : JOB_SEND;
}

enum job_status
record_prepare(const struct binfer_run *R, struct job *j, struct job_prep *p)
{
	long long input;

	set_model_fields(R, j->rec);
	if (rec_bool_opt(j->rec, "excluded", 0)) {
		/* excluded contexts pass through, no request */
		input = count_or(j->rec, "tokens", R->o->tokenizer);
		json_set_new(j->rec, "input_token_count", json_int_or_null(input));
		return JOB_PASS;
	}
	input = input_count(R, j->rec);
	json_set_new(j->rec, "input_token_count", json_int_or_null(input));
	if (R->o->engine == BINFER_EXTRACTIVE)
		return prepare_extractive(R, j, &p->answer);
	return prepare_request(R, j, input, &p->error);
}

/* ------------------------------------------------------------ answers */

/* A duration in ms to the microsecond, or null when not reported. */
static json_t *
ms_or_null(double v)
{
	return json_real_or_null(v < 0 ? v : round(v * 1000) / 1000);
}

static json_t *
timings(const struct binfer_result *r)
{
	json_t *t = json_object();

	json_set_new(t, "total_ms", ms_or_null(r->total_ms));
	json_set_new(t, "load_ms", ms_or_null(r->load_ms));
	json_set_new(t, "prompt_ms", ms_or_null(r->prompt_ms));
	json_set_new(t, "eval_ms", ms_or_null(r->eval_ms));
	return t;
}

/* Why an answer is not an ordinary one (or REASON_N), with its message. */
static enum binfer_reason
answer_reason(const struct binfer_run *R, const struct job *j,
    const struct binfer_result *r, char **msg)
{
	long long cap = R->o->p.num_predict;

	if (j->expected >= 0 && r->prompt_eval_count >= 0 &&
	    r->prompt_eval_count + R->o->tolerance < j->expected)
		return REASON_CONTEXT_TRUNCATED;	/* the server read less */
	/*
	 * A "length" stop before the output cap: the server's context ran
	 * out (llama.cpp stops when n_past reaches n_ctx; Ollama with
	 * shift false), not an ordinary truncated answer.
	 */
	if (r->finish_reason && strcmp(r->finish_reason, "length") == 0 &&
	    r->eval_count >= 0 && r->eval_count < cap) {
		*msg = xasprintf("the server's context ran out after %lld output "
		    "tokens (cap %lld)", r->eval_count, cap);
		return REASON_CONTEXT_EXHAUSTED;
	}
	return REASON_N;
}

static void
put_answer(const struct binfer_run *R, struct job *j, const struct binfer_result *r)
{
	json_t *rec = j->rec;
	char *raw = binfer_raw_text(r), *text = binfer_strip_thinking(raw);
	long long out = r->eval_count;
	/* Thinking that came despite being switched off is no answer. */
	int stripped = (r->thinking && *r->thinking) || strstr(raw, "<think>") != NULL;

	if (stripped)
		out = -1;	/* the server's count includes the thinking */
	json_set_new(rec, "response_text", json_string(text));
	json_set_new(rec, "response_raw", json_string(raw));
	if (R->o->engine != BINFER_EXTRACTIVE)
		json_set_bool(rec, "thinking_stripped", stripped);
	json_set_new(rec, "expected_prompt_tokens", json_int_or_null(j->expected));
	json_set_new(rec, "prompt_eval_count", json_int_or_null(r->prompt_eval_count));
	json_set_new(rec, "output_token_count", json_int_or_null(out));
	json_set_new(rec, "finish_reason", json_str_or_null(r->finish_reason));
	json_set_bool(rec, "output_truncated", r->finish_reason &&
	    strcmp(r->finish_reason, "length") == 0);
	free(raw);
	free(text);
}

static void
put_no_answer(const struct binfer_run *R, struct job *j)
{
	json_t *rec = j->rec;

	json_set_new(rec, "response_text", json_null());
	json_set_new(rec, "response_raw", json_null());
	if (R->o->engine != BINFER_EXTRACTIVE)
		json_set_bool(rec, "thinking_stripped", 0);
	json_set_new(rec, "expected_prompt_tokens", json_int_or_null(j->expected));
	json_set_new(rec, "prompt_eval_count", json_null());
	json_set_new(rec, "output_token_count", json_null());
	json_set_new(rec, "finish_reason", json_null());
	json_set_bool(rec, "output_truncated", 0);
}

/*
 * The response fields, in their fixed order, the request g that obtained
 * the answer (or failed) last; r NULL with err and why for a failure.
 * Returns the reason the record is excluded for, or REASON_N.
 */
static enum binfer_reason
put_response(const struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const char *err, enum binfer_reason why,
    const struct binfer_origin *g)
{
	json_t *rec = j->rec;
	char *msg = NULL;

	json_set_new(rec, "endpoint", json_str_or_null(endpoint));
	if (r) {
		put_answer(R, j, r);
		why = answer_reason(R, j, r, &msg);
		err = msg;
	} else {
		put_no_answer(R, j);
	}
	json_set_new(rec, "num_ctx", json_int_or_null(j->num_ctx));
	json_set_new(rec, "timings", r ? timings(r) : json_null());
	json_set_new(rec, "model_digest", json_str_or_null(binfer_model_digest(R, r)));
	json_set_new(rec, "model_identity", json_str_or_null(R->identity));
	json_set_str(rec, "request_hash", j->hash);
	json_set_new(rec, "error", json_str_or_null(err));
	if (why != REASON_N) {
		json_set_bool(rec, "excluded", 1);
		json_set_str(rec, "exclusion_reason", binfer_reason_name(why));
	} else {
		json_t *old = json_object_get(rec, "exclusion_reason");

		json_set_new(rec, "exclusion_reason", old ? json_incref(old) : json_null());
	}
	json_set_new(rec, "request", binfer_request_json(g));
	json_set_new(rec, "cache", binfer_cache_json(j, g));
	free(msg);
	return why;
}

/* The extractive engine's answer: no server, no counts, no timings. */
static void
put_extractive(struct job *j, const struct binfer_result *ans)
{
	json_t *rec = j->rec;

	json_set_new(rec, "endpoint", json_null());
	json_set_str(rec, "response_text", ans->content);
	json_set_str(rec, "response_raw", ans->content);
	json_set_new(rec, "expected_prompt_tokens", json_null());
	json_set_new(rec, "prompt_eval_count", json_null());
	json_set_new(rec, "output_token_count", json_null());
	json_set_str(rec, "finish_reason", ans->finish_reason);
	json_set_bool(rec, "output_truncated", 0);
	json_set_new(rec, "num_ctx", json_null());
	json_set_new(rec, "timings", json_null());
	json_set_new(rec, "model_digest", json_null());
	json_set_str(rec, "request_hash", j->hash);
	json_set_new(rec, "error", json_null());
	json_set_new(rec, "exclusion_reason", json_null());
	json_set_new(rec, "request", json_null());	/* none was sent */
	json_set_new(rec, "cache", json_null());
}

enum binfer_reason
record_put_answer(const struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const struct binfer_origin *g)
{
	if (R->o->engine == BINFER_EXTRACTIVE) {
		put_extractive(j, r);
		return REASON_N;
	}
	assert(g != NULL);
	return put_response(R, j, endpoint, r, NULL, REASON_N, g);
}

void
record_put_error(const struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why, const struct binfer_origin *g)
{
	put_response(R, j, endpoint, NULL, err, why, g);
}
