/*
 * binfer - deterministic inference against local model servers
 * (spec 001 §4.1, §4.6, §4.7; the LLM-as-judge first pass of 000 §10).
 *
 * Reads context records (bctx assemble, counted by btok), sends each prompt
 * to a model server with the locked parameters of 001 §4.6 and writes one
 * response record per context, in input order.  Requests run concurrently
 * through libcurl's multi interface, over one or more endpoints, with
 * retries; completed requests are cached under their hash so that a re-run
 * resumes.  The records are described in man/binfer.1.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "ctx.h"
#include "binfer.h"

#define MAX_BODY (64u << 20)	/* cap on a server's answer */
#define EXTRACTIVE_VERSION "1"

static const char usage[] =
"usage: binfer [options] [FILE...]\n"
"Send each context record's prompt to a model server; write response records.\n"
"\n"
"  -c, --config FILE        benchmark-config.json (parameters, models, template,\n"
"                           endpoint)\n"
"  -m, --model ID           the model to run (a model_id of the config)\n"
"  -e, --engine NAME        ollama, openai or extractive (default: the config's\n"
"                           inference_endpoint.engine, else ollama)\n"
"      --endpoint URL       server base URL; repeat to share requests out\n"
"                           (default: the config's base_url)\n"
"      --api-path PATH      request path (default /api/chat or\n"
"                           /v1/chat/completions)\n"
"      --api-key-env NAME   send the API key held in environment variable NAME\n"
"      --model-tag TAG      the name the server knows the model by (default:\n"
"                           the config's ollama_tag, else the model id)\n"
"      --max-context N      the model's maximum context (default: the config's\n"
"                           max_context_length, else 32768)\n"
"      --digest HEX         the model digest (default: asked from /api/tags)\n"
"      --extra JSON         members added to every OpenAI request body\n"
"      --no-think           switch thinking off (Ollama think:false); the\n"
"                           default for models whose family is qwen3\n"
"      --no-think-prompt    also append /no_think to the user prompt\n"
"      --stream             ask for streamed answers\n"
"  -j, --jobs N             requests in flight (default 1)\n"
"      --cache DIR          request cache (default $CTXBENCH_CACHE/binfer,\n"
"                           else .binfer-cache)\n"
"      --no-cache           neither read nor write the cache\n"
"      --refresh            ask again, replacing cached answers\n"
"      --retries N          attempts after the first (default 5)\n"
"      --retry-delay MS     first backoff delay (default 1000)\n"
"      --timeout S          per-request timeout (default: the config's, else 300)\n"
"      --warmup N           warm-up requests per endpoint (default: the\n"
"                           config's warmup_prompt_count, else 3)\n"
"      --num-ctx-round N    round num_ctx up to a multiple of N (default 1)\n"
"      --tolerance N        prompt tokens the server may report below btok's\n"
"                           count before CONTEXT_TRUNCATED (default 64)\n"
"      --temperature X, --seed N, --top-p X, --top-k N, --repeat-penalty X,\n"
"      --num-predict N, --num-ctx-overhead N\n"
"                           override an inference parameter\n"
"      --sentences N        extractive: sentences per answer (default 3)\n"
"      --judge              judge mode: score response records (000 §10)\n"
"      --rubric NAME        judge prompt template (default 000)\n"
"  -o, --output FILE        write records to FILE atomically\n"
"  -h, --help               this help\n"
"  -V, --version            the version\n";

enum {
	OPT_API_KEY_ENV = 256, OPT_API_PATH, OPT_CACHE, OPT_DIGEST, OPT_ENDPOINT,
	OPT_EXTRA, OPT_JUDGE, OPT_MAX_CONTEXT, OPT_MODEL_TAG, OPT_NO_CACHE,
	OPT_NO_THINK, OPT_NO_THINK_PROMPT, OPT_NUM_CTX_OVERHEAD,
	OPT_NUM_CTX_ROUND, OPT_NUM_PREDICT, OPT_REFRESH, OPT_REPEAT_PENALTY,
	OPT_RETRIES, OPT_RETRY_DELAY, OPT_RUBRIC, OPT_SEED, OPT_SENTENCES,
	OPT_STREAM, OPT_TEMPERATURE, OPT_TIMEOUT, OPT_TOLERANCE, OPT_TOP_K,
	OPT_TOP_P, OPT_WARMUP
};

static const struct option longopts[] = {
	{ "api-key-env", required_argument, NULL, OPT_API_KEY_ENV },
	{ "api-path", required_argument, NULL, OPT_API_PATH },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "config", required_argument, NULL, 'c' },
	{ "digest", required_argument, NULL, OPT_DIGEST },
	{ "endpoint", required_argument, NULL, OPT_ENDPOINT },
	{ "engine", required_argument, NULL, 'e' },
	{ "extra", required_argument, NULL, OPT_EXTRA },
	{ "help", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "judge", no_argument, NULL, OPT_JUDGE },
	{ "max-context", required_argument, NULL, OPT_MAX_CONTEXT },
	{ "model", required_argument, NULL, 'm' },
	{ "model-tag", required_argument, NULL, OPT_MODEL_TAG },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "no-think", no_argument, NULL, OPT_NO_THINK },
	{ "no-think-prompt", no_argument, NULL, OPT_NO_THINK_PROMPT },
	{ "num-ctx-overhead", required_argument, NULL, OPT_NUM_CTX_OVERHEAD },
	{ "num-ctx-round", required_argument, NULL, OPT_NUM_CTX_ROUND },
	{ "num-predict", required_argument, NULL, OPT_NUM_PREDICT },
	{ "output", required_argument, NULL, 'o' },
	{ "refresh", no_argument, NULL, OPT_REFRESH },
	{ "repeat-penalty", required_argument, NULL, OPT_REPEAT_PENALTY },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "retry-delay", required_argument, NULL, OPT_RETRY_DELAY },
	{ "rubric", required_argument, NULL, OPT_RUBRIC },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "sentences", required_argument, NULL, OPT_SENTENCES },
	{ "stream", no_argument, NULL, OPT_STREAM },
	{ "temperature", required_argument, NULL, OPT_TEMPERATURE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "top-k", required_argument, NULL, OPT_TOP_K },
	{ "top-p", required_argument, NULL, OPT_TOP_P },
	{ "version", no_argument, NULL, 'V' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ NULL, 0, NULL, 0 }
};

struct endpoint {
	char *url;		/* base URL without a trailing '/' */
	char *digest;		/* Ollama model digest at this endpoint */
	int inflight;
};

enum { J_READY, J_INFLIGHT, J_WAIT, J_DONE };

struct job {
	json_t *rec;		/* the output record */
	int state;
	char *body;
	size_t body_len;
	char hash[SHA256_HEX_LEN + 1];
	long long expected;	/* btok's prompt count, -1 unknown */
	long long num_ctx;	/* -1: not set by binfer */
	int attempts;
	double not_before;
	int ep;
	CURL *easy;
	struct buf resp;
	long retry_after;	/* seconds, -1: none */
	int too_big;
	struct job *next;	/* retry list */
};

static struct {
	enum binfer_engine engine;
	const char *model_id, *model_tag, *family, *tier, *tokenizer;
	long long max_ctx;
	struct binfer_params p;
	int think_off, no_think_prompt, stream;
	json_t *extra;
	struct curl_slist *headers;
	struct endpoint *ep;
	int nep;
	const char *api_path;
	int jobs;
	const char *cache_dir;
	int no_cache, refresh;
	int retries;
	long retry_delay_ms;
	long timeout_s;
	int warmup;
	long long num_ctx_round;
	long long tolerance;
	int sentences;
	const char *sys_tmpl, *user_tmpl;	/* config prompt_template */
	/* judge mode */
	int judge;
	const char *rubric;
	char *judge_system, *judge_user;
	/* run state */
	struct job *jobsv;
	size_t njobs, emitted;
	CURLM *multi;
	int inflight;
	struct job *retry_head;
	unsigned long long errors, tokens_out;
	uint64_t rng;
} R;

/* ------------------------------------------------------------ helpers */

static double
jitter(void)
{
	/* xorshift64*: jitter needs spread, not quality */
	R.rng ^= R.rng >> 12;
	R.rng ^= R.rng << 25;
	R.rng ^= R.rng >> 27;
	return (double)((R.rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

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

static json_t *
int_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *
ms_or_null(double v)
{
	return v < 0 ? json_null() : json_real(round(v * 1000) / 1000);
}

static json_t *
str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/*
 * A file of share/binfer, found by ctx_share_path(); when it is nowhere, the
 * installed path, so the caller's error names where it was expected.
 */
static char *
share_path(const char *name)
{
	char *rel = xasprintf("binfer/%s", name), *p = ctx_share_path(rel);

	if (p == NULL)
		p = xasprintf("%s/%s", CTX_SHAREDIR, rel);
	free(rel);
	return p;
}

/* ------------------------------------------------------------ records */

static void
set_model_fields(json_t *rec)
{
	json_set_str(rec, "model_id", R.model_id);
	json_set_new(rec, "model_family", str_or_null(R.family));
	json_set_new(rec, "tier", str_or_null(R.tier));
	json_set_str(rec, "engine", binfer_engine_name(R.engine));
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

static char *
raw_text(const struct binfer_result *r)
{
	if (r->thinking && *r->thinking)
		return xasprintf("<think>%s</think>%s", r->thinking, r->content ? r->content : "");
	return xstrdup(r->content ? r->content : "");
}

/* The response fields, in their fixed order; res NULL with err for a failure. */
static void
put_response(struct job *j, const char *endpoint, const struct binfer_result *r,
    const char *err, int overflow)
{
	json_t *rec = j->rec;
	const char *reason = NULL;
	const char *digest = NULL;
	char *raw = NULL, *text = NULL;

	/* Ollama: /api/tags (equal at every endpoint); OpenAI: system_fingerprint */
	digest = R.engine == BINFER_OLLAMA ? R.ep[0].digest : r ? r->model_digest : NULL;
	if (r) {
		raw = raw_text(r);
		text = binfer_strip_thinking(raw);
	}
	json_set_new(rec, "endpoint", str_or_null(endpoint));
	json_set_new(rec, "response_text", str_or_null(text));
	json_set_new(rec, "response_raw", str_or_null(raw));
	json_set_new(rec, "expected_prompt_tokens", int_or_null(j->expected));
	json_set_new(rec, "prompt_eval_count", int_or_null(r ? r->prompt_eval_count : -1));
	json_set_new(rec, "output_token_count", int_or_null(r ? r->eval_count : -1));
	json_set_new(rec, "finish_reason", str_or_null(r ? r->finish_reason : NULL));
	json_set_bool(rec, "output_truncated", r && r->finish_reason &&
	    strcmp(r->finish_reason, "length") == 0);
	json_set_new(rec, "num_ctx", int_or_null(j->num_ctx));
	json_set_new(rec, "timings", r ? timings(r) : json_null());
	json_set_new(rec, "model_digest", str_or_null(digest));
	json_set_str(rec, "request_hash", j->hash);
	if (!r) {
		reason = overflow ? "CONTEXT_OVERFLOW" : "INFERENCE_ERROR";
	} else if (j->expected >= 0 && r->prompt_eval_count >= 0 &&
	    r->prompt_eval_count + R.tolerance < j->expected) {
		/* Silent truncation: the server read less than the prompt. */
		reason = "CONTEXT_TRUNCATED";
		err = NULL;
	}
	json_set_new(rec, "error", str_or_null(err));
	if (reason) {
		json_set_bool(rec, "excluded", 1);
		json_set_str(rec, "exclusion_reason", reason);
	} else {
		json_set_new(rec, "exclusion_reason",
		    json_incref(json_object_get(rec, "exclusion_reason") ?
		    json_object_get(rec, "exclusion_reason") : json_null()));
	}
	if (r && r->eval_count > 0)
		R.tokens_out += (unsigned long long)r->eval_count;
	free(raw);
	free(text);
}

static char *
utc_date(void)
{
	char now[32];

	ctx_utc_now(now, sizeof(now));
	now[10] = '\0';
	return xstrdup(now);
}

/* A field of a parsed verdict (new reference), null without one. */
static json_t *
verdict_field(json_t *v, const char *key)
{
	json_t *f = v ? json_object_get(v, key) : NULL;

	return f ? json_incref(f) : json_null();
}

/* Judge mode: the scores parsed from the judge's answer. */
static void
put_judgement(struct job *j, const char *endpoint, const struct binfer_result *r,
    const char *err)
{
	json_t *rec = j->rec, *jd = json_object(), *v = NULL;
	const char *verr = err;
	char *raw = r ? raw_text(r) : NULL, *text = raw ? binfer_strip_thinking(raw) : NULL;
	char *rater = xasprintf("llm_judge:%s", R.model_id), *date = utc_date();

	if (text)
		v = binfer_parse_verdict(text, &verr);
	json_set_str(rec, "rater_id", rater);
	json_set_str(rec, "rater_kind", "llm_judge");
	/* Judge scores are a first pass a human verifies (000 §10). */
	json_set_bool(rec, "primary", 0);
	json_set_str(rec, "rubric", R.rubric);
	json_set_new(rec, "factual_accuracy", verdict_field(v, "factual_accuracy"));
	json_set_new(rec, "completeness", verdict_field(v, "completeness"));
	json_set_new(rec, "hallucination_count", verdict_field(v, "hallucination_count"));
	json_set_new(rec, "scoring_notes", verdict_field(v, "rationale"));
	json_set_str(rec, "scoring_date", date);
	json_set_str(jd, "model_id", R.model_id);
	json_set_str(jd, "model_tag", R.model_tag);
	json_set_str(jd, "engine", binfer_engine_name(R.engine));
	json_set_new(jd, "endpoint", str_or_null(endpoint));
	json_set_str(jd, "request_hash", j->hash);
	json_set_new(jd, "response_raw", str_or_null(raw));
	json_set_new(jd, "finish_reason", str_or_null(r ? r->finish_reason : NULL));
	json_set_new(jd, "prompt_eval_count", int_or_null(r ? r->prompt_eval_count : -1));
	json_set_new(jd, "output_token_count", int_or_null(r ? r->eval_count : -1));
	json_set_new(jd, "model_digest", str_or_null(R.engine == BINFER_OLLAMA ? R.ep[0].digest :
	    r ? r->model_digest : NULL));
	json_set_new(jd, "error", str_or_null(v ? NULL : verr));
	json_set_new(rec, "judge", jd);
	if (!v)
		R.errors++;
	json_decref(v);
	free(raw);
	free(text);
	free(rater);
	free(date);
}

static void
finish_ok(struct job *j, const char *endpoint, const struct binfer_result *r)
{
	if (R.judge)
		put_judgement(j, endpoint, r, NULL);
	else
		put_response(j, endpoint, r, NULL, 0);
	j->state = J_DONE;
}

static void
finish_err(struct job *j, const char *endpoint, const char *err, int overflow)
{
	R.errors++;
	if (R.judge)
		put_judgement(j, endpoint, NULL, err);
	else
		put_response(j, endpoint, NULL, err, overflow);
	j->state = J_DONE;
}

/* ------------------------------------------------------------ preparation */

static void
hash_request(struct job *j, const json_t *body)
{
	json_t *canon = json_object(), *b = json_deep_copy(body);
	char *s;
	size_t n;

	/* Streaming changes the transport, not the answer. */
	json_object_del(b, "stream");
	json_object_del(b, "stream_options");
	json_set_str(canon, "engine", binfer_engine_name(R.engine));
	json_set_new(canon, "model_digest", str_or_null(R.engine == BINFER_OLLAMA ?
	    R.ep[0].digest : NULL));
	json_set_new(canon, "body", b);
	s = json_compact(canon, &n);
	sha256_hex(s, n, j->hash);
	free(s);
	json_decref(canon);
}

static void
set_body(struct job *j, const char *system, const char *user)
{
	json_t *body;

	if (R.engine == BINFER_OLLAMA)
		body = binfer_ollama_body(R.model_tag, system, user, &R.p, j->num_ctx,
		    R.think_off, R.stream);
	else
		body = binfer_openai_body(R.model_tag, system, user, &R.p, R.extra, R.stream);
	hash_request(j, body);
	j->body = json_compact(body, &j->body_len);
	json_decref(body);
}

static long long
num_ctx_for(long long expected)
{
	long long n = expected + R.p.num_predict + R.p.num_ctx_overhead;

	if (R.num_ctx_round > 1 && n % R.num_ctx_round)
		n += R.num_ctx_round - n % R.num_ctx_round;
	return n < R.max_ctx ? n : R.max_ctx;
}

static void
try_cache(struct job *j)
{
	struct binfer_result r;
	char *endpoint = NULL;

	if (R.no_cache || R.refresh)
		return;
	binfer_result_init(&r);
	if (binfer_cache_load(R.cache_dir, j->hash, &r, &endpoint)) {
		finish_ok(j, endpoint, &r);
		binfer_result_release(&r);
	}
	free(endpoint);
}

static void
prepare_extractive(struct job *j)
{
	json_t *rec = j->rec, *canon;
	const char *q = rec_str(rec, "question_text");
	const char *content = rec_str(rec, "content");
	char *ans = binfer_extractive_answer(q, content, R.sentences), *s;
	size_t n;

	canon = json_pack("{s:s,s:s,s:i,s:s,s:s}", "engine", "extractive",
	    "version", EXTRACTIVE_VERSION, "sentences", R.sentences,
	    "question", q, "content", content);
	s = json_compact(canon, &n);
	sha256_hex(s, n, j->hash);
	free(s);
	json_decref(canon);
	if (!*ans) {
		free(ans);
		ans = xstrdup("The content does not contain a sentence that matches the question.");
	}
	json_set_new(rec, "endpoint", json_null());
	json_set_str(rec, "response_text", ans);
	json_set_str(rec, "response_raw", ans);
	json_set_new(rec, "expected_prompt_tokens", json_null());
	json_set_new(rec, "prompt_eval_count", json_null());
	json_set_new(rec, "output_token_count", json_null());
	json_set_str(rec, "finish_reason", "stop");
	json_set_bool(rec, "output_truncated", 0);
	json_set_new(rec, "num_ctx", json_null());
	json_set_new(rec, "timings", json_null());
	json_set_new(rec, "model_digest", json_null());
	json_set_str(rec, "request_hash", j->hash);
	json_set_new(rec, "error", json_null());
	json_set_new(rec, "exclusion_reason", json_null());
	free(ans);
	j->state = J_DONE;
}

static void
prepare_response(struct job *j)
{
	json_t *rec = j->rec;
	const char *system, *user;
	char *filled = NULL, *withflag = NULL;
	long long input;

	set_model_fields(rec);
	input = R.tokenizer ? count_of(rec, "tokens", R.tokenizer) : -1;
	if (input < 0 && json_is_integer(json_object_get(rec, "ref_token_count")) &&
	    R.engine == BINFER_EXTRACTIVE)
		input = json_integer_value(json_object_get(rec, "ref_token_count"));
	json_set_new(rec, "input_token_count", int_or_null(input));
	if (rec_bool_opt(rec, "excluded", 0)) {
		j->state = J_DONE;	/* excluded contexts pass through, no request */
		return;
	}
	if (R.engine == BINFER_EXTRACTIVE) {
		prepare_extractive(j);
		return;
	}
	system = rec_str_opt(rec, "system_prompt");
	user = rec_str_opt(rec, "user_prompt");
	if (!user) {
		json_t *vars;

		if (!R.user_tmpl)
			ndj_die("user_prompt: expected a string (bctx assemble fills it), "
			    "or a config with prompt_template");
		vars = json_pack("{s:s,s:s}", "assembled_content", rec_str(rec, "content"),
		    "question_text", rec_str(rec, "question_text"));
		filled = binfer_fill_template(R.user_tmpl, vars);
		json_decref(vars);
		user = filled;
		if (!system)
			system = R.sys_tmpl;
	}
	if (R.no_think_prompt) {
		withflag = xasprintf("%s /no_think", user);
		user = withflag;
	}
	j->expected = count_of(rec, "prompt_tokens", R.tokenizer);
	if (j->expected < 0)
		j->expected = input;
	if (R.engine == BINFER_OLLAMA) {
		if (j->expected < 0)
			ndj_die("prompt_tokens: expected btok's count for tokenizer %s "
			    "(run btok -t %s before binfer)", R.tokenizer, R.tokenizer);
		j->num_ctx = num_ctx_for(j->expected);
	}
	set_body(j, system, user);
	if (R.engine == BINFER_OLLAMA && j->expected + R.p.num_ctx_overhead / 2 >= R.max_ctx) {
		char *e = xasprintf("prompt of %lld tokens does not fit the model's "
		    "context of %lld tokens", j->expected, R.max_ctx);

		finish_err(j, NULL, e, 1);
		free(e);
	} else {
		try_cache(j);
	}
	free(filled);
	free(withflag);
}

static void
prepare_judge(struct job *j)
{
	json_t *rec = j->rec, *vars;
	const char *mid = rec_str_opt(rec, "model_id");
	char *user;
	long long est;

	if (rec_bool_opt(rec, "excluded", 0) || !rec_str_opt(rec, "response_text")) {
		j->state = J_DONE;	/* nothing to score */
		return;
	}
	if (mid && strcmp(mid, R.model_id) == 0)
		ndj_die("model_id: %s cannot judge its own responses (000 §10)", mid);
	vars = json_pack("{s:s,s:s,s:s,s:s}",
	    "question_text", rec_str(rec, "question_text"),
	    "gold_answer", rec_str(rec, "gold_answer"),
	    "response_text", rec_str(rec, "response_text"),
	    "complexity", rec_str_opt(rec, "complexity") ? rec_str(rec, "complexity") : "");
	user = binfer_fill_template(R.judge_user, vars);
	json_decref(vars);
	/* No btok count for the judge's prompt: bound it by its bytes / 2. */
	est = (long long)((strlen(user) + strlen(R.judge_system) + 1) / 2);
	j->expected = -1;
	if (R.engine == BINFER_OLLAMA)
		j->num_ctx = num_ctx_for(est);
	set_body(j, R.judge_system, user);
	free(user);
	try_cache(j);
}

/* ------------------------------------------------------------ HTTP */

static size_t
on_body(char *p, size_t size, size_t n, void *ud)
{
	struct job *j = ud;
	size_t len = size * n;

	if (j->resp.len + len > MAX_BODY) {
		j->too_big = 1;
		return 0;
	}
	buf_add(&j->resp, p, len);
	return len;
}

static size_t
on_header(char *p, size_t size, size_t n, void *ud)
{
	struct job *j = ud;
	size_t len = size * n;

	if (len > 12 && strncasecmp(p, "retry-after:", 12) == 0) {
		char v[64];
		size_t k = len - 12;
		long long secs;
		char *s = v, *e;

		if (k >= sizeof(v))
			k = sizeof(v) - 1;
		memcpy(v, p + 12, k);
		v[k] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' '))
			*--e = '\0';
		if (parse_int(s, &secs) == 0 && secs >= 0) {
			j->retry_after = secs > 300 ? 300 : (long)secs;
		} else {
			time_t t = curl_getdate(s, NULL);	/* an HTTP-date */

			if (t > 0) {
				long d = (long)(t - time(NULL));

				j->retry_after = d < 0 ? 0 : d > 300 ? 300 : d;
			}
		}
	}
	return len;
}

static void
setup_easy(CURL *h, const char *url, const char *body, size_t len, void *ud,
    long timeout_s)
{
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, R.headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, ud);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, ud);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_s * 1000L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_PRIVATE, ud);
}

static int
pick_endpoint(const struct job *j)
{
	int best = -1, i, k;

	for (k = 0; k < R.nep; k++) {
		/* a retry starts from the next endpoint */
		i = (k + (j->attempts > 0 ? j->ep + 1 : 0)) % R.nep;
		if (best < 0 || R.ep[i].inflight < R.ep[best].inflight)
			best = i;
	}
	return best;
}

static CURL **pool;
static size_t npool;

static void
start_job(struct job *j)
{
	char *url;

	j->ep = pick_endpoint(j);
	j->easy = npool ? pool[--npool] : curl_easy_init();
	if (!j->easy)
		die("curl_easy_init failed");
	buf_reset(&j->resp);
	j->retry_after = -1;
	j->too_big = 0;
	url = xasprintf("%s%s", R.ep[j->ep].url, R.api_path);
	setup_easy(j->easy, url, j->body, j->body_len, j, R.timeout_s);
	free(url);
	curl_multi_add_handle(R.multi, j->easy);
	R.ep[j->ep].inflight++;
	R.inflight++;
	j->state = J_INFLIGHT;
}

static void
release_easy(struct job *j)
{
	curl_multi_remove_handle(R.multi, j->easy);
	curl_easy_reset(j->easy);
	pool = xreallocarray(pool, npool + 1, sizeof(*pool));
	pool[npool++] = j->easy;
	j->easy = NULL;
	R.ep[j->ep].inflight--;
	R.inflight--;
}

static void
schedule_retry(struct job *j)
{
	double delay;

	if (j->retry_after >= 0)
		delay = (double)j->retry_after;
	else {
		delay = (double)R.retry_delay_ms / 1000.0 * ldexp(1.0, j->attempts - 1);
		delay *= 0.5 + jitter();	/* "full" spread around the step */
		if (delay > 60)
			delay = 60;
	}
	j->not_before = now_seconds() + delay;
	j->state = J_WAIT;
	j->next = R.retry_head;
	R.retry_head = j;
}

static void
complete_job(struct job *j, CURLcode cc)
{
	long status = 0;
	struct binfer_result r;
	int st;
	char *err;
	const char *endpoint = R.ep[j->ep].url;

	curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &status);
	binfer_result_init(&r);
	j->attempts++;
	if (cc != CURLE_OK) {
		st = j->too_big ? BINFER_FAIL : BINFER_RETRY;
		r.error = j->too_big ? xasprintf("answer larger than %u bytes", MAX_BODY)
		    : xasprintf("%s", curl_easy_strerror(cc));
	} else {
		st = binfer_parse(R.engine, (int)status, buf_str(&j->resp), j->resp.len,
		    R.stream, &r);
	}
	release_easy(j);
	if (st == BINFER_OK) {
		if (!R.no_cache)
			binfer_cache_store(R.cache_dir, j->hash, binfer_engine_name(R.engine),
			    R.model_tag, endpoint, &r);
		finish_ok(j, endpoint, &r);
	} else if (st == BINFER_RETRY && j->attempts <= R.retries) {
		schedule_retry(j);
	} else {
		err = j->attempts > 1 ? xasprintf("%s (after %d attempts)", r.error, j->attempts)
		    : xstrdup(r.error);
		finish_err(j, endpoint, err, r.overflow);
		free(err);
	}
	binfer_result_release(&r);
}

/* The next job to start: a due retry first, then the next fresh one. */
static struct job *
next_job(size_t *cursor, double now, double *wait)
{
	struct job **pp, *j;

	for (pp = &R.retry_head; (j = *pp) != NULL; pp = &j->next)
		if (j->not_before <= now) {
			*pp = j->next;
			return j;
		} else if (j->not_before - now < *wait)
			*wait = j->not_before - now;
	while (*cursor < R.njobs && R.jobsv[*cursor].state != J_READY)
		(*cursor)++;
	if (*cursor < R.njobs)
		return &R.jobsv[(*cursor)++];
	return NULL;
}

static void
emit_ready(struct progress *pg)
{
	char note[96];

	while (R.emitted < R.njobs && R.jobsv[R.emitted].state == J_DONE) {
		struct job *j = &R.jobsv[R.emitted++];
		double el = now_seconds() - pg->t0;

		ndj_emit(j->rec);
		json_decref(j->rec);
		j->rec = NULL;
		free(j->body);
		j->body = NULL;
		buf_release(&j->resp);
		snprintf(note, sizeof(note), "%.1f tok/s  %llu errors",
		    el > 0 ? (double)R.tokens_out / el : 0.0, R.errors);
		progress_add(pg, 1, note);
	}
}

/* ------------------------------------------------------------ start-up */

/* Blocking requests (digests, warm-up) give up when interrupted. */
static int
on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	return ctx_interrupted ? 1 : 0;
}

static char *
simple_request(const char *url, const char *body, long *status)
{
	CURL *h = curl_easy_init();
	struct job tmp;
	CURLcode cc;

	memset(&tmp, 0, sizeof(tmp));
	if (!h)
		die("curl_easy_init failed");
	if (body) {
		setup_easy(h, url, body, strlen(body), &tmp, R.timeout_s);
	} else {
		setup_easy(h, url, "", 0, &tmp, 30);
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	cc = curl_easy_perform(h);
	*status = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(h);
	if (cc != CURLE_OK) {
		buf_release(&tmp.resp);
		errno = 0;
		return xasprintf("\x01%s", curl_easy_strerror(cc));
	}
	return buf_detach(&tmp.resp, NULL);
}

/* Ollama: the model's digest from GET /api/tags at every endpoint. */
static void
fetch_digests(const char *given)
{
	int i;

	for (i = 0; i < R.nep; i++) {
		char *url, *body, *alt;
		long status;
		json_t *o, *m;
		size_t k;
		int attempt;

		if (given) {
			R.ep[i].digest = xstrdup(given);
			continue;
		}
		url = xasprintf("%s/api/tags", R.ep[i].url);
		body = NULL;
		for (attempt = 0; attempt <= R.retries; attempt++) {
			free(body);
			body = simple_request(url, NULL, &status);
			if (body[0] != '\x01' && status == 200)
				break;
			if (attempt < R.retries) {
				double d = (double)R.retry_delay_ms / 1000.0 * ldexp(1.0, attempt);
				struct timespec ts;

				if (d > 60)
					d = 60;
				ts.tv_sec = (time_t)d;
				ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
				nanosleep(&ts, NULL);
			}
		}
		if (body[0] == '\x01')
			die("%s: cannot list the models: %s", url, body + 1);
		if (status != 200)
			die("%s: cannot list the models: HTTP %ld", url, status);
		o = json_loads(body, 0, NULL);
		m = json_object_get(o, "models");
		if (!json_is_array(m))
			die("%s: models: expected an array", url);
		alt = strchr(R.model_tag, ':') ? xstrdup(R.model_tag) :
		    xasprintf("%s:latest", R.model_tag);
		for (k = 0; k < json_array_size(m); k++) {
			json_t *e = json_array_get(m, k);
			const char *n = json_string_value(json_object_get(e, "name"));
			const char *d = json_string_value(json_object_get(e, "digest"));

			if (!n)
				n = json_string_value(json_object_get(e, "model"));
			if (n && d && (strcmp(n, R.model_tag) == 0 || strcmp(n, alt) == 0)) {
				R.ep[i].digest = xstrdup(d);
				break;
			}
		}
		if (!R.ep[i].digest)
			die("%s: model %s is not there (ollama pull %s)", R.ep[i].url,
			    R.model_tag, R.model_tag);
		if (i > 0 && strcmp(R.ep[i].digest, R.ep[0].digest) != 0)
			die("%s and %s serve different builds of %s (digests %.12s, %.12s)",
			    R.ep[0].url, R.ep[i].url, R.model_tag, R.ep[0].digest, R.ep[i].digest);
		json_decref(o);
		free(alt);
		free(body);
		free(url);
	}
}

/* Warm-up (001 §4.7): prompts that load the model, not recorded. */
static void
warm_up(const struct job *first)
{
	static const char prompt[] = "Warm-up request: reply with the word ready.";
	struct binfer_params p = R.p;
	json_t *body;
	char *s, *url, *ans;
	int i, k;
	long status;

	if (R.warmup <= 0)
		return;
	p.num_predict = 16;
	if (R.engine == BINFER_OLLAMA)
		/* the first request's num_ctx, so that it does not reload the model */
		body = binfer_ollama_body(R.model_tag, NULL, prompt, &p, first->num_ctx,
		    R.think_off, 0);
	else
		body = binfer_openai_body(R.model_tag, NULL, prompt, &p, R.extra, 0);
	s = json_compact(body, NULL);
	json_decref(body);
	for (i = 0; i < R.nep; i++) {
		url = xasprintf("%s%s", R.ep[i].url, R.api_path);
		for (k = 0; k < R.warmup && !ctx_interrupted; k++) {
			ans = simple_request(url, s, &status);
			if (ans[0] == '\x01' || status != 200) {
				warn("%s: warm-up request %d failed: %s", url, k + 1,
				    ans[0] == '\x01' ? ans + 1 : "HTTP error");
				free(ans);
				break;
			}
			free(ans);
		}
		free(url);
	}
	free(s);
}

static void
load_rubric(const char *name)
{
	char *path, *text, *sep;
	size_t len;

	path = strchr(name, '/') ? xstrdup(name) : share_path(name);
	if (!strchr(name, '/')) {
		free(path);
		text = xasprintf("judge-%s.txt", name);
		path = share_path(text);
		free(text);
	}
	text = read_file(path, &len, 1u << 20);
	if (!text)
		die_errno("%s", path);
	sep = strstr(text, "\n%%\n");
	if (!sep)
		die("%s: expected the system prompt, a line %%%%, then the user prompt", path);
	*sep = '\0';
	R.judge_system = xstrdup(text);
	R.judge_user = xstrdup(sep + 4);
	free(text);
	free(path);
}

/* ------------------------------------------------------------ main */

int
main(int argc, char **argv)
{
	const char *config = NULL, *output = NULL, *engine = NULL, *model = NULL;
	const char *api_key_env = NULL, *digest = NULL, *extra = NULL, *cache = NULL;
	char **endpoints = NULL;
	size_t nendpoints = 0;
	long long max_ctx = -1, warmup = -1, timeout = -1;
	int no_think = 0, c, interrupted = 0, draining = 0;
	double o_temp = NAN, o_top_p = NAN, o_rep = NAN;
	long long o_seed = -1, o_top_k = -1, o_np = -1, o_over = -1;
	json_t *cfg = NULL, *mcfg = NULL;
	struct ndj_reader rd;
	json_t *rec;
	size_t cap = 0, cursor = 0, i;
	struct progress pg;
	int need_net = 0;
	struct job *first = NULL;

	ctx_init(argv[0]);
	R.jobs = 1;
	R.retries = 5;
	R.retry_delay_ms = 1000;
	R.num_ctx_round = 1;
	R.tolerance = 64;
	R.sentences = 3;
	R.rubric = "000";
	while ((c = getopt_long(argc, argv, "c:e:hj:m:o:V", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_API_KEY_ENV: api_key_env = optarg; break;
		case OPT_API_PATH: R.api_path = optarg; break;
		case OPT_CACHE: cache = optarg; break;
		case 'c': config = optarg; break;
		case OPT_DIGEST: digest = optarg; break;
		case OPT_ENDPOINT:
			endpoints = xreallocarray(endpoints, nendpoints + 1, sizeof(*endpoints));
			endpoints[nendpoints++] = optarg;
			break;
		case 'e': engine = optarg; break;
		case OPT_EXTRA: extra = optarg; break;
		case 'h': opt_help(usage); break;
		case 'j': R.jobs = (int)opt_int("--jobs", optarg, 1, 1024); break;
		case OPT_JUDGE: R.judge = 1; break;
		case OPT_MAX_CONTEXT: max_ctx = opt_int("--max-context", optarg, 256, 1LL << 30); break;
		case 'm': model = optarg; break;
		case OPT_MODEL_TAG: R.model_tag = optarg; break;
		case OPT_NO_CACHE: R.no_cache = 1; break;
		case OPT_NO_THINK: no_think = 1; break;
		case OPT_NO_THINK_PROMPT: R.no_think_prompt = 1; break;
		case OPT_NUM_CTX_OVERHEAD: o_over = opt_int("--num-ctx-overhead", optarg, 0, 1 << 20); break;
		case OPT_NUM_CTX_ROUND: R.num_ctx_round = opt_int("--num-ctx-round", optarg, 1, 1 << 20); break;
		case OPT_NUM_PREDICT: o_np = opt_int("--num-predict", optarg, 1, 1 << 20); break;
		case 'o': output = optarg; break;
		case OPT_REFRESH: R.refresh = 1; break;
		case OPT_REPEAT_PENALTY: o_rep = opt_real("--repeat-penalty", optarg, 0, 10); break;
		case OPT_RETRIES: R.retries = (int)opt_int("--retries", optarg, 0, 100); break;
		case OPT_RETRY_DELAY: R.retry_delay_ms = (long)opt_int("--retry-delay", optarg, 0, 600000); break;
		case OPT_RUBRIC: R.rubric = optarg; break;
		case OPT_SEED: o_seed = opt_int("--seed", optarg, 0, LLONG_MAX); break;
		case OPT_SENTENCES: R.sentences = (int)opt_int("--sentences", optarg, 1, 100); break;
		case OPT_STREAM: R.stream = 1; break;
		case OPT_TEMPERATURE: o_temp = opt_real("--temperature", optarg, 0, 10); break;
		case OPT_TIMEOUT: timeout = opt_int("--timeout", optarg, 1, 86400); break;
		case OPT_TOLERANCE: R.tolerance = opt_int("--tolerance", optarg, 0, 1 << 30); break;
		case OPT_TOP_K: o_top_k = opt_int("--top-k", optarg, 0, 1 << 20); break;
		case OPT_TOP_P: o_top_p = opt_real("--top-p", optarg, 0, 1); break;
		case 'V': opt_version(); break;
		case OPT_WARMUP: warmup = opt_int("--warmup", optarg, 0, 100); break;
		default: die_usage("unknown option");
		}
	}
	if (R.no_cache && R.refresh)
		die_usage("--no-cache and --refresh exclude each other");
	if (config)
		cfg = study_config_load(config);

	/* engine */
	if (!engine)
		engine = cfg ? cfg_str(cfg, "inference_endpoint.engine", "ollama") : "ollama";
	if (binfer_engine_parse(engine, &R.engine) < 0)
		die_usage("--engine: expected ollama, openai or extractive, got '%s'", engine);
	if (R.judge && R.engine == BINFER_EXTRACTIVE)
		die_usage("--judge needs a model: engine ollama or openai");

	/* model */
	if (!model && R.engine == BINFER_EXTRACTIVE)
		model = "extractive-baseline";
	if (!model)
		die_usage("--model is required (one run = one model, 001 §4.7)");
	R.model_id = model;
	mcfg = cfg ? cfg_model(cfg, model) : NULL;
	if (R.judge) {
		/* 000 §10: the judge must not be one of the benchmarked models. */
		size_t k;
		json_t *ms = cfg ? json_object_get(cfg, "models") : NULL;

		for (k = 0; k < json_array_size(ms); k++) {
			json_t *e = json_array_get(ms, k);
			const char *id = json_string_value(json_object_get(e, "model_id"));
			const char *tag = json_string_value(json_object_get(e, "ollama_tag"));

			if ((id && strcmp(id, model) == 0) || (tag && strcmp(tag, model) == 0) ||
			    (tag && R.model_tag && strcmp(tag, R.model_tag) == 0))
				die_usage("judge model %s is one of the benchmarked models "
				    "in %s (000 §10)", model, config);
		}
		mcfg = NULL;
	} else if (cfg && !mcfg && R.engine != BINFER_EXTRACTIVE) {
		die_usage("--model: %s is not a model_id of %s", model, config);
	}
	if (R.engine == BINFER_EXTRACTIVE) {
		R.family = "extractive";
		R.tier = "baseline";
		R.tokenizer = "llama3";	/* input_token_count: the reference count */
	} else if (mcfg) {
		R.family = json_string_value(json_object_get(mcfg, "family"));
		R.tier = json_string_value(json_object_get(mcfg, "tier"));
		if (!R.model_tag)
			R.model_tag = json_string_value(json_object_get(mcfg, "ollama_tag"));
		if (max_ctx < 0 && json_is_integer(json_object_get(mcfg, "max_context_length")))
			max_ctx = json_integer_value(json_object_get(mcfg, "max_context_length"));
		R.tokenizer = cfg_model_tokenizer(mcfg);
	}
	if (!R.tokenizer && !R.judge && R.engine != BINFER_EXTRACTIVE)
		R.tokenizer = "llama3";
	if (!R.model_tag)
		R.model_tag = model;
	R.max_ctx = max_ctx > 0 ? max_ctx : 32768;
	R.think_off = no_think || (R.family && strcmp(R.family, "qwen3") == 0) ||
	    (mcfg && json_is_true(json_object_get(mcfg, "thinking")));

	/* parameters: 001 §4.6 defaults, the config, then options */
	R.p.temperature = cfg ? cfg_num(cfg, "inference_parameters.temperature", 0.0) : 0.0;
	R.p.seed = cfg ? cfg_int(cfg, "inference_parameters.seed", 42) : 42;
	R.p.top_p = cfg ? cfg_num(cfg, "inference_parameters.top_p", 1.0) : 1.0;
	R.p.top_k = cfg ? cfg_int(cfg, "inference_parameters.top_k", 0) : 0;
	R.p.repeat_penalty = cfg ? cfg_num(cfg, "inference_parameters.repeat_penalty", 1.0) : 1.0;
	R.p.num_predict = cfg ? cfg_int(cfg, "inference_parameters.num_predict", 512) : 512;
	R.p.num_ctx_overhead = cfg ? cfg_int(cfg, "inference_parameters.num_ctx_overhead", 128) : 128;
	if (!isnan(o_temp)) R.p.temperature = o_temp;
	if (o_seed >= 0) R.p.seed = o_seed;
	if (!isnan(o_top_p)) R.p.top_p = o_top_p;
	if (o_top_k >= 0) R.p.top_k = o_top_k;
	if (!isnan(o_rep)) R.p.repeat_penalty = o_rep;
	if (o_np >= 0) R.p.num_predict = o_np;
	if (o_over >= 0) R.p.num_ctx_overhead = o_over;
	if (cfg) {
		R.sys_tmpl = cfg_str(cfg, "prompt_template.system_prompt", NULL);
		R.user_tmpl = cfg_str(cfg, "prompt_template.user_prompt", NULL);
	}
	R.timeout_s = timeout > 0 ? (long)timeout :
	    cfg ? (long)cfg_int(cfg, "inference_endpoint.request_timeout_seconds", 300) : 300;
	R.warmup = warmup >= 0 ? (int)warmup :
	    cfg ? (int)cfg_int(cfg, "inference_endpoint.warmup_prompt_count", 3) : 3;

	/* endpoints and the request path */
	if (!nendpoints) {
		endpoints = xmalloc(sizeof(*endpoints));
		endpoints[0] = (char *)(cfg ? cfg_str(cfg, "inference_endpoint.base_url",
		    "http://localhost:11434") : "http://localhost:11434");
		nendpoints = 1;
	}
	R.nep = (int)nendpoints;
	R.ep = xcalloc(nendpoints, sizeof(*R.ep));
	for (i = 0; i < nendpoints; i++) {
		size_t n = strlen(endpoints[i]);

		if (strncmp(endpoints[i], "http://", 7) != 0 && strncmp(endpoints[i], "https://", 8) != 0)
			die_usage("--endpoint: expected an http:// or https:// URL, got '%s'", endpoints[i]);
		while (n > 0 && endpoints[i][n - 1] == '/')
			n--;
		R.ep[i].url = xstrndup(endpoints[i], n);
	}
	if (!R.api_path) {
		/*
		 * The config's api_path serves OpenAI-compatible servers only:
		 * Ollama's /v1 endpoint cannot set num_ctx (the study's defect).
		 */
		if (R.engine == BINFER_OLLAMA)
			R.api_path = "/api/chat";
		else
			R.api_path = cfg ? cfg_str(cfg, "inference_endpoint.api_path",
			    "/v1/chat/completions") : "/v1/chat/completions";
	}
	if (R.api_path[0] != '/')
		die_usage("--api-path: expected a path starting with '/'");

	/* OpenAI extras: the config's, the model's, then --extra */
	if (R.engine == BINFER_OPENAI) {
		json_t *e;

		R.extra = json_object();
		if (cfg && json_is_object(e = json_path(cfg, "inference_endpoint.openai_extra")))
			json_object_update(R.extra, e);
		if (mcfg && json_is_object(e = json_object_get(mcfg, "openai_extra")))
			json_object_update(R.extra, e);
		if (extra) {
			json_error_t je;

			e = json_loads(extra, 0, &je);
			if (!json_is_object(e))
				die_usage("--extra: expected a JSON object (%s)", je.text);
			json_object_update(R.extra, e);
			json_decref(e);
		}
	} else if (extra) {
		die_usage("--extra applies to the openai engine");
	}

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		die("curl_global_init failed");
	R.headers = curl_slist_append(NULL, "Content-Type: application/json");
	R.headers = curl_slist_append(R.headers, "Expect:");
	if (api_key_env) {
		const char *key = getenv(api_key_env);
		char *h;

		if (!key || !*key)
			die("--api-key-env: environment variable %s is not set", api_key_env);
		h = xasprintf("Authorization: Bearer %s", key);
		R.headers = curl_slist_append(R.headers, h);
		memset(h, 0, strlen(h));
		free(h);
	}

	if (R.judge)
		load_rubric(R.rubric);
	if (!R.no_cache) {
		const char *env = getenv("CTXBENCH_CACHE");

		R.cache_dir = cache ? cache : env && *env ? xasprintf("%s/binfer", env) : ".binfer-cache";
	}
	if (R.engine == BINFER_OLLAMA)
		fetch_digests(digest);
	else if (digest)
		die_usage("--digest applies to the ollama engine");

	/* read every record: the total for progress, and order to keep */
	R.rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ULL;
	if (output)
		ndj_output_open(output);
	for (c = optind; c < argc || (c == optind && argc == optind); c++) {
		ndj_reader_open(&rd, c < argc ? argv[c] : "-");
		while ((rec = ndj_next(&rd)) != NULL) {
			struct job *j;

			if (R.njobs == cap) {
				cap = cap ? cap * 2 : 256;
				R.jobsv = xreallocarray(R.jobsv, cap, sizeof(*R.jobsv));
			}
			j = &R.jobsv[R.njobs++];
			memset(j, 0, sizeof(*j));
			j->rec = rec;
			j->expected = -1;
			j->num_ctx = -1;
			j->ep = -1;
			j->state = J_READY;
			if (R.judge)
				prepare_judge(j);
			else
				prepare_response(j);
			if (j->state == J_READY) {
				need_net = 1;
				if (!first)
					first = j;
			}
		}
		ndj_reader_close(&rd);
		if (argc == optind)
			break;
	}

	ctx_catch_signals();
	if (need_net)
		warm_up(first);
	R.multi = curl_multi_init();
	curl_multi_setopt(R.multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)R.jobs);
	progress_start(&pg, "binfer", R.njobs);
	emit_ready(&pg);
	while (R.emitted < R.njobs) {
		double now = now_seconds(), wait = 0.2;
		int running, left, timeout_ms;
		CURLMsg *m;
		struct job *j;

		if (ctx_interrupted) {
			ctx_interrupted = 0;
			if (draining || R.inflight == 0) {
				interrupted = 1;
				break;
			}
			draining = 1;
			warn("interrupted: finishing %d request%s in flight "
			    "(interrupt again to abandon them)", R.inflight,
			    R.inflight == 1 ? "" : "s");
		}
		if (draining && R.inflight == 0) {
			interrupted = 1;
			break;
		}
		while (!draining && R.inflight < R.jobs &&
		    (j = next_job(&cursor, now, &wait)) != NULL)
			start_job(j);
		curl_multi_perform(R.multi, &running);
		while ((m = curl_multi_info_read(R.multi, &left)) != NULL) {
			if (m->msg == CURLMSG_DONE) {
				CURLcode cc = m->data.result;
				void *pj = NULL;

				curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &pj);
				complete_job(pj, cc);
			}
		}
		emit_ready(&pg);
		if (R.emitted >= R.njobs)
			break;
		if (R.inflight < R.jobs && !draining) {
			/* can another start now?  then do not sleep */
			struct job *rj;
			size_t cur = cursor;
			double w = wait;

			while (cur < R.njobs && R.jobsv[cur].state != J_READY)
				cur++;
			for (rj = R.retry_head; rj; rj = rj->next)
				if (rj->not_before - now_seconds() < w)
					w = rj->not_before - now_seconds();
			if (cur < R.njobs)
				w = 0;
			wait = w;
		}
		timeout_ms = (int)(wait * 1000);
		if (timeout_ms < 0)
			timeout_ms = 0;
		if (timeout_ms > 200)
			timeout_ms = 200;
		if (timeout_ms > 0 || R.inflight > 0)
			curl_multi_poll(R.multi, NULL, 0, timeout_ms, NULL);
	}
	progress_end(&pg);
	if (interrupted) {
		size_t written = R.emitted;

		for (i = 0; i < R.njobs; i++) {
			if (R.jobsv[i].easy) {
				curl_multi_remove_handle(R.multi, R.jobsv[i].easy);
				curl_easy_cleanup(R.jobsv[i].easy);
			}
		}
		ndj_output_close();
		warn("interrupted: wrote %zu of %zu records; run again to resume "
		    "from the cache", written, R.njobs);
		exit(130);
	}
	for (i = 0; i < npool; i++)
		curl_easy_cleanup(pool[i]);
	free(pool);
	curl_multi_cleanup(R.multi);
	curl_slist_free_all(R.headers);
	curl_global_cleanup();
	for (i = 0; i < R.njobs; i++)
		buf_release(&R.jobsv[i].resp);
	free(R.jobsv);
	for (c = 0; c < R.nep; c++) {
		free(R.ep[c].url);
		free(R.ep[c].digest);
	}
	free(R.ep);
	free(endpoints);
	free(R.judge_system);
	free(R.judge_user);
	json_decref(R.extra);
	json_decref(cfg);
	if (R.errors)
		warn("%llu request%s failed (see the error field)", R.errors,
		    R.errors == 1 ? "" : "s");
	ctx_exit();
}
