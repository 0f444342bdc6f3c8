/*
 * binfer.h - binfer's parts and their contracts, laid out like curl's
 * tool_*.c.  The files form floors and calls only go down (nothing calls
 * back up into a file above it):
 *
 *   main.c     wires the run: options, endpoints, scheduler, the output's
 *              commit, exit status
 *              -> opts.c server.c sched.c report.c
 *   opts.c     the command line and benchmark-config.json: struct binfer_opts
 *              -> engine.c server.c (names) judge.c (the rubric's prompts)
 *   report.c   the end of a run on stderr: reasons, the exit status, the
 *              summary line  -> record.c (reason names)
 *   sched.c    the scheduler: the window of records, requests in flight,
 *              retries, endpoints, writing in input order, the progress
 *              line and the run's tally; acts on what preparing a job found
 *              -> input.c job.c request.c (origins) cache.c (store)
 *                 engine.c (binfer_parse)
 *                 server.c (warm-up) text.c (masking) proto.c (results)
 *   input.c    the input files read a record at a time, and read ahead
 *              for the progress line's total  (common/ only)
 *   job.c      one job's life cycle: prepare (then the cache), put an answer
 *              or an error, count reasons; returns a status, sets no state
 *              -> record.c judge.c request.c (origins) cache.c (load)
 *                 text.c proto.c
 *   record.c   response records: prepare a request (or the extractive
 *              answer), write the response fields and exclusion reasons
 *              -> request.c text.c extract.c engine.c server.c (names)
 *   judge.c    the LLM-as-judge: rubric, judge request, verdict fields
 *              -> request.c text.c engine.c server.c (names)
 *   request.c  what record.c and judge.c share: request body and hash,
 *              the request and cache provenance recorded, num_ctx, the
 *              model digest recorded
 *              -> ollama.c openai.c (bodies) engine.c server.c (names)
 *                 cache.c (origins) text.c
 *   server.c   server kinds, probing each endpoint, the warm-up
 *              -> ollama.c openai.c (bodies, dialects) text.c proto.c
 *   engine.c   engine names; binfer_parse, the dispatcher of answers
 *              -> ollama.c openai.c proto.c
 *   ollama.c   Ollama's /api/chat: body and answer parser  -> proto.c
 *   openai.c   /v1/chat/completions and each server's dialect  -> proto.c
 *   cache.c    the request cache, DIR/hh/HASH.json, and the origin of
 *              an answer stored with it, as JSON for the entry and the
 *              record alike  -> proto.c
 *   proto.c    what the protocols share: results, messages, error bodies,
 *              the overflow test, the parsers' steps  (calls nothing)
 *   text.c     templates, thinking blocks, masking  (calls nothing)
 *   extract.c  the extractive baseline  (common/words.h only)
 *
 * Everything calls common/ (ctx.h).  This header holds what needs no run:
 * engine.c, proto.c, text.c, ollama.c, openai.c, server.c's names and
 * probe, extract.c, cache.c and judge.c's verdict parser; run.h holds the
 * run and the job (opts.c, input.c, job.c, record.c, judge.c, request.c,
 * server.c's endpoints, sched.c, report.c).
 *
 * Ownership: every char * in a struct binfer_result is malloc'd and released
 * by binfer_result_release(); json_t values returned are new references.
 * Nothing here keeps global mutable state: a run's state is a struct
 * binfer_run passed along; only ctx_interrupted (the signal flag) is global.
 */
#ifndef BINFER_H
#define BINFER_H

#include <stddef.h>
#include <jansson.h>

enum binfer_engine { BINFER_OLLAMA, BINFER_OPENAI, BINFER_EXTRACTIVE };

/*
 * The server kinds binfer knows (its dialects): which field each of them
 * reads for each locked parameter is in openai.c and the table of binfer(1).
 */
enum binfer_server {
	SRV_AUTO = 0,		/* detect (engine openai) */
	SRV_OLLAMA,		/* Ollama, native /api/chat */
	SRV_LLAMACPP,		/* llama.cpp llama-server */
	SRV_VLLM,		/* vLLM */
	SRV_LMSTUDIO,		/* LM Studio */
	SRV_OLLAMA_OPENAI,	/* Ollama's OpenAI-compatible /v1 */
	SRV_OPENAI,		/* any other OpenAI-compatible server */
	SRV_NONE		/* the extractive engine: no server */
};

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
	char *thinking;		/* a separate thinking field (message.thinking,
				   reasoning_content) */
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
	BINFER_FAIL		/* final: 4xx other than 429, or a context overflow */
};

/* ------------------------------------------------------------ engine.c */

const char *binfer_engine_name(enum binfer_engine e);
int binfer_engine_parse(const char *s, enum binfer_engine *out);

/*
 * Parse a server's answer: HTTP status, body (NUL-terminated, len bytes),
 * whether it was requested as a stream.  Fills r; returns an enum
 * binfer_status.  Errors set r->error to a one-line message.
 */
int binfer_parse(enum binfer_engine e, int http_status, const char *body, size_t len,
    int stream, struct binfer_result *r);

/* ------------------------------------------------------------ proto.c */

void binfer_result_init(struct binfer_result *r);
void binfer_result_release(struct binfer_result *r);

/* The messages array: a system message when system is non-empty, then user. */
json_t *binfer_messages(const char *system, const char *user);

/* The error message of an error body, whatever its shape; malloc'd or NULL. */
char *binfer_error_message(const json_t *o);

/* 1 when an error message from a server says the prompt did not fit. */
int binfer_is_overflow_message(const char *msg);

/*
 * Shared by the parsers.  binfer_set_error: r->error = what + detail.
 * binfer_take_str: when o's member key is a string, *dst (released) becomes
 * a copy of it, else *dst stays.  binfer_append: *dst = *dst + s
 * (reallocated; nothing when s is NULL or empty).  binfer_count: o's member
 * k when it is a non-negative integer, else -1.
 */
void binfer_set_error(struct binfer_result *r, const char *what, const char *detail);
void binfer_take_str(char **dst, const json_t *o, const char *key);
void binfer_append(char **dst, const char *s);
long long binfer_count(const json_t *o, const char *k);
/*
 * An error object in place of an answer: r->error set and BINFER_FAIL for
 * a context overflow, else BINFER_RETRY; BINFER_OK when o is no error.
 */
int binfer_error_status(const json_t *o, struct binfer_result *r);
/* The JSON object in d (n bytes), or NULL with r->error = what + why. */
json_t *binfer_load_object(const char *d, size_t n, const char *what,
    struct binfer_result *r);
/*
 * Call fn(line, n, ud) for each non-empty line of body (without "\n" and
 * a "\r" before it).  fn returns 0 to go on, < 0 to stop (returns 0), or
 * a status (> 0) that is returned at once.
 */
int binfer_each_line(const char *body, size_t len,
    int (*fn)(const char *, size_t, void *), void *ud);
/* A streamed answer being parsed: the result and whether its end came. */
struct binfer_stream {
	struct binfer_result *r;
	int done;
};
/* A stream's end: an error (missing) when not done, else BINFER_OK. */
int binfer_stream_end(struct binfer_result *r, int done, const char *missing);

/* ------------------------------------------------------------ text.c */

/* Fill {name} placeholders of tmpl from the string and number fields of vars; malloc'd. */
char *binfer_fill_template(const char *tmpl, const json_t *vars);

/* The answer as sent: "<think>THINKING</think>CONTENT" when r has thinking; malloc'd. */
char *binfer_raw_text(const struct binfer_result *r);

/*
 * Remove <think>...</think> blocks (and an unterminated <think> to the end)
 * from s and trim white space at both ends; malloc'd.
 */
char *binfer_strip_thinking(const char *s);

/*
 * Replace every occurrence of secret (when not NULL or empty) in s by
 * "[MASKED]": returns s itself when secret does not occur in it, else a new
 * malloc'd string (s released).
 * binfer_mask_json does it for every string value in v and returns the
 * number of strings changed (keys are binfer's own names).
 */
char *binfer_mask(char *s, const char *secret);
int binfer_mask_json(json_t *v, const char *secret);

/* ------------------------------------------------------------ ollama.c */

/*
 * Ollama /api/chat: model, messages, stream, every option explicit
 * (temperature, seed, top_p, top_k, repeat_penalty, num_predict, num_ctx),
 * think false when think_off, truncate and shift false.
 */
json_t *binfer_ollama_body(const char *model, const char *system, const char *user,
    const struct binfer_params *p, long long num_ctx, int think_off, int stream);
int binfer_parse_ollama(const char *body, size_t len, int stream,
    struct binfer_result *r);

/* ------------------------------------------------------------ openai.c */

/*
 * /v1/chat/completions for server kind k: model, messages, temperature,
 * seed, top_p, max_tokens, stream (with stream_options.include_usage), the
 * kind's own fields for the other locked parameters (and, with think_off,
 * for switching Qwen 3's thinking off), then the members of extra (may be
 * NULL) merged in.  New reference.
 */
json_t *binfer_openai_body(enum binfer_server k, const char *model,
    const char *system, const char *user, const struct binfer_params *p,
    int think_off, const json_t *extra, int stream);
int binfer_parse_openai(const char *body, size_t len, int stream,
    struct binfer_result *r);
/*
 * The locked parameters kind k cannot be told per request (besides those
 * extra sets), as a comma-separated list, or NULL when it takes them all;
 * malloc'd.  Includes num_ctx where the context is the server's.
 */
char *binfer_unlocked(enum binfer_server k, const json_t *extra);
/* 1 when kind k switches thinking off in the request body, 0 when binfer
   must append /no_think to the prompt instead. */
int binfer_think_in_body(enum binfer_server k);

/* ------------------------------------------------------------ server.c */

const char *binfer_server_name(enum binfer_server k);
int binfer_server_parse(const char *s, enum binfer_server *out);

/* What binfer learnt from one endpoint before the first request. */
struct binfer_server_info {
	enum binfer_server kind;
	char *version;		/* the server's version, or NULL */
	char *identity;		/* the model's identity (cache key), or NULL */
	long long ctx;		/* context: Ollama the model's maximum, others the
				   server's per-request context; -1 unknown */
	int ctx_per_request;	/* 1: num_ctx is set per request (Ollama) */
};

void binfer_server_info_release(struct binfer_server_info *si);

/*
 * Ask the server at base (no trailing '/'), named name in messages (base
 * without user information, http_url_public), what it is (when kind is
 * SRV_AUTO: llama.cpp's /props, vLLM's /version, Ollama's /api/version, LM
 * Studio's /api/v0/models, else plain OpenAI), its version, model tag's
 * identity and context.  digest (Ollama, may be NULL) is the identity
 * given by the user: /api/tags is not asked.  headers: the request headers
 * (API key); secret masks messages.  Dies with a clear message when the
 * server cannot be reached or does not serve the model.
 */
struct curl_slist;
void binfer_server_probe(const char *base, const char *name,
    enum binfer_server kind, const char *model_tag, const char *digest, struct curl_slist *headers,
    long timeout_s,
    int retries, long retry_delay_ms, const char *secret,
    struct binfer_server_info *si);

/*
 * Facts about servers from their answers (for tests): Ollama's /api/show
 * context length, llama.cpp's /props, vLLM's and LM Studio's model lists.
 */
long long binfer_ollama_show_ctx(const json_t *show);
int binfer_ollama_tags_digest(const json_t *tags, const char *tag, char **digest);

/* ------------------------------------------------------------ extract.c */

/*
 * The extractive baseline: the k sentences of content that best match the
 * question (term overlap weighted by inverse sentence frequency), in the
 * order they appear in content, joined by a space.  Deterministic.
 * malloc'd; "" when nothing matches.
 */
char *binfer_extractive_answer(const char *question, const char *content, int k);

/* ------------------------------------------------------------ cache.c */

/*
 * Where an answer came from: the request that obtained it, stored with the
 * answer in its cache entry, and whether this run read it from the cache.
 * Every char * is malloc'd (or NULL: not known) and released by
 * binfer_origin_release().
 */
struct binfer_origin {
	char *body;		/* the request body as sent, the API key and
				   credential members masked */
	char *body_sha256;	/* SHA-256 of the bytes as sent (before masking) */
	int body_masked;	/* body differs from the bytes sent by masking */
	int sent;		/* 0: refused before sending (an overflow) */
	char *url;		/* the URL asked, without user information */
	char *server, *server_version;
	int warmups;		/* warm-up requests sent to that endpoint before
				   it; -1 not known */
	char *obtained;		/* when the answer arrived, UTC ISO 8601 */
	int hit;		/* read from the cache */
	int stored;		/* a hit whose entry held the request (else the
				   body is the one this run built) */
};

void binfer_origin_init(struct binfer_origin *g);
void binfer_origin_release(struct binfer_origin *g);
/*
 * The fields of g named in keys (NULL-terminated), in that order, as one
 * JSON object (a new reference): the cache entry's request and the
 * record's both come from here.  Names: body, body_sha256, body_masked,
 * sent, url, server, server_version, warmup_requests (g->warmups),
 * obtained; dies on another (a defect of the caller).
 */
json_t *binfer_origin_json(const struct binfer_origin *g, const char *const *keys);

/*
 * Cache: DIR/hh/HASH.json.  binfer_cache_load returns 1 and fills r (and,
 * when not NULL, *endpoint and g: the request stored with the answer, or
 * g->stored 0 for an entry written before binfer stored requests) on a
 * hit.  binfer_cache_store and binfer_cache_serialize take the request
 * that obtained r (g, may be NULL: none stored); its body must be masked.
 */
int binfer_cache_load(const char *dir, const char *hash, struct binfer_result *r,
    char **endpoint, struct binfer_origin *g);
int binfer_cache_store(const char *dir, const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r,
    const struct binfer_origin *g);
/* The serialized cache entry (used by tests and the store). */
char *binfer_cache_serialize(const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r,
    const struct binfer_origin *g, size_t *len);
int binfer_cache_parse(const char *text, size_t len, const char *hash,
    struct binfer_result *r, char **endpoint, struct binfer_origin *g);

/* ------------------------------------------------------------ judge.c */

/*
 * Judge verdict: the first JSON object in text that has factual_accuracy.
 * Returns a new object {factual_accuracy, completeness, hallucination_count,
 * rationale} (absent fields as null) or NULL with *err set (static text).
 */
json_t *binfer_parse_verdict(const char *text, const char **err);

#endif
