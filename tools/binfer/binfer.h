/*
 * binfer.h - the parts of binfer that unit tests and fuzz targets reach:
 * request bodies for the Ollama native and OpenAI-compatible chat APIs, the
 * parsers of their answers (whole or streamed), thinking-block removal,
 * the extractive baseline, the request cache and the judge's verdict parser.
 *
 * Ownership: every char * in a struct binfer_result is malloc'd and released by
 * binfer_result_release(); json_t values returned are new references.
 */
#ifndef BINFER_H
#define BINFER_H

#include <stddef.h>
#include <jansson.h>

enum binfer_engine { BINFER_OLLAMA, BINFER_OPENAI, BINFER_EXTRACTIVE };

/* The locked inference parameters of 001 §4.6. */
struct binfer_params {
	double temperature;
	long long seed;
	double top_p;
	long long top_k;
	double repeat_penalty;
	long long num_predict;
	long long num_ctx_overhead;
};

/* What one answered request gave; -1 / NULL where the server said nothing. */
struct binfer_result {
	char *content;		/* the answer as sent (thinking kept) */
	char *thinking;		/* a separate thinking field (Ollama message.thinking) */
	long long prompt_eval_count;
	long long eval_count;
	char *finish_reason;
	double total_ms, load_ms, prompt_ms, eval_ms;
	char *model_digest;	/* OpenAI system_fingerprint */
	char *error;		/* the server's error message */
	int overflow;		/* the error is a context overflow */
};

/* Outcome classes of binfer_parse(). */
enum binfer_status {
	BINFER_OK = 0,
	BINFER_RETRY,		/* transient: 5xx, 429, truncated or malformed body */
	BINFER_FAIL			/* final: 4xx other than 429, or a context overflow */
};

const char *binfer_engine_name(enum binfer_engine e);
int binfer_engine_parse(const char *s, enum binfer_engine *out);

void binfer_result_init(struct binfer_result *r);
void binfer_result_release(struct binfer_result *r);

/*
 * Request bodies.  Ollama /api/chat: model, messages, stream, every option
 * explicit (temperature, seed, top_p, top_k, repeat_penalty, num_predict,
 * num_ctx), think false when think_off, truncate and shift false.  OpenAI
 * /v1/chat/completions: model, messages, temperature, seed, top_p,
 * max_tokens, stream (with stream_options.include_usage), then the members
 * of extra (may be NULL) merged in.  New references.
 */
json_t *binfer_ollama_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, long long num_ctx, int think_off, int stream);
json_t *binfer_openai_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, const json_t *extra, int stream);

/*
 * Parse a server's answer: HTTP status, body (NUL-terminated, len bytes),
 * whether it was requested as a stream.  Fills r; returns an enum binfer_status.
 * Errors set r->error to a one-line message.
 */
int binfer_parse(enum binfer_engine e, int http_status, const char *body, size_t len,
    int stream, struct binfer_result *r);

/* 1 when an error message from a server says the prompt did not fit. */
int binfer_is_overflow_message(const char *msg);

/*
 * Remove <think>...</think> blocks (and an unterminated <think> to the end)
 * from s and trim white space at both ends; malloc'd.
 */
char *binfer_strip_thinking(const char *s);

/*
 * The extractive baseline: the k sentences of content that best match the
 * question (term overlap weighted by inverse sentence frequency), in the
 * order they appear in content, joined by a space.  Deterministic.
 * malloc'd; "" when nothing matches.
 */
char *binfer_extractive_answer(const char *question, const char *content, int k);

/* Cache: DIR/hh/HASH.json.  binfer_cache_load returns 1 and fills r on a hit. */
int binfer_cache_load(const char *dir, const char *hash, struct binfer_result *r,
    char **endpoint);
int binfer_cache_store(const char *dir, const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r);
/* The serialized cache entry (used by tests and the store). */
char *binfer_cache_serialize(const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r,
    size_t *len);
int binfer_cache_parse(const char *text, size_t len, const char *hash,
    struct binfer_result *r, char **endpoint);

/*
 * Judge verdict: the first JSON object in text that has factual_accuracy.
 * Returns a new object {factual_accuracy, completeness, hallucination_count,
 * rationale} (absent fields as null) or NULL with *err set (static text).
 */
json_t *binfer_parse_verdict(const char *text, const char **err);

/* Fill {name} placeholders of tmpl from the string fields of vars. */
char *binfer_fill_template(const char *tmpl, const json_t *vars);

#endif
