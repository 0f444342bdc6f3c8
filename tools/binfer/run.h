/*
 * run.h - one binfer run: its options (opts.c, read-only once parsed), its
 * endpoints and what their servers said (server.c), and the scheduler's
 * window of requests (sched.c).  Passed explicitly to every part; binfer
 * keeps no global mutable state besides the signal flag ctx_interrupted.
 *
 * Ownership: a struct job owns its record (rec) and request body from
 * job_prepare until the scheduler writes the record; a struct binfer_run
 * owns its endpoints, headers and window.
 */
#ifndef BINFER_RUN_H
#define BINFER_RUN_H

#include <stdint.h>
#include <curl/curl.h>

#include "ctx.h"
#include "http.h"
#include "binfer.h"

/* What the command line and the config say; fixed once binfer_opts_parse returns. */
struct binfer_opts {
	enum binfer_engine engine;
	enum binfer_server server;	/* asked for; SRV_AUTO: detect */
	const char *model_id, *model_tag, *family, *tier, *tokenizer;
	long long max_ctx;		/* the config's or --max-context; -1: none */
	struct binfer_params p;
	int think_off, no_think_prompt, stream;
	json_t *extra;			/* OpenAI body extras, or NULL */
	char **endpoints;		/* base URLs, no trailing '/' */
	int nep;
	const char *api_path;		/* NULL: the protocol's */
	const char *api_key_env;
	const char *digest;		/* --digest */
	int jobs;
	char *cache_dir;		/* NULL: --no-cache */
	int refresh;
	int retries;
	long retry_delay_ms;
	long timeout_s;
	int warmup;
	long long num_ctx_round;
	long long tolerance;
	long long allow_failures;	/* failed records tolerated; -1: any */
	int sentences;
	const char *sys_tmpl, *user_tmpl;	/* config prompt_template */
	int judge;
	const char *rubric;
	char *judge_system, *judge_user;
	const char *output;
	char **inputs;			/* NULL-terminated; empty: stdin */
	json_t *cfg;
};

void binfer_opts_parse(struct binfer_opts *o, int argc, char **argv);
void binfer_opts_free(struct binfer_opts *o);

/* Why a record was not answered: counted for the exit status. */
enum binfer_reason {
	REASON_INFERENCE_ERROR,
	REASON_CONTEXT_OVERFLOW,
	REASON_CONTEXT_TRUNCATED,
	REASON_CONTEXT_EXHAUSTED,
	REASON_JUDGE_ERROR,
	REASON_N
};
const char *binfer_reason_name(enum binfer_reason r);

struct binfer_endpoint {
	char *url;
	struct binfer_server_info si;
	int inflight;			/* requests submitted to it */
	double dead_until;		/* no new request before (now_seconds) */
	int dead;			/* consecutive connection failures */
};

/* J_INFLIGHT: submitted to the driver (queued, waiting to retry or sent) */
enum job_state { J_FREE, J_READY, J_INFLIGHT, J_DONE };

struct job {
	struct http_req req;		/* the request (common/http.h) */
	json_t *rec;			/* the output record (owned) */
	enum job_state state;
	char *body;			/* request body (owned) */
	size_t body_len;
	char hash[SHA256_HEX_LEN + 1];
	long long expected;		/* btok's prompt count, -1 unknown */
	long long num_ctx;		/* -1: not set by binfer */
	int attempts;
	int ep;				/* endpoint of the last attempt, -1 none */
	char *url;			/* the endpoint's URL of the request */
};

struct binfer_run {
	const struct binfer_opts *o;
	struct binfer_endpoint *ep;
	int nep;
	enum binfer_server kind;	/* agreed by every endpoint */
	const char *version;		/* the first endpoint's server version */
	const char *identity;		/* the model's identity (cache key) */
	long long ctx;			/* Ollama: the model's maximum context;
					   others: the smallest server context;
					   -1 unknown */
	struct curl_slist *headers;
	const char *secret;		/* the API key, masked everywhere */
	const char *think_suffix;	/* " /no_think" or NULL */
	/* the window: jobs seq head..tail-1 live in win[seq % wcap] */
	struct job *win;
	size_t wcap;
	unsigned long long head, tail;
	struct http *http;
	int inflight;			/* jobs submitted and not completed */
	int warmed;
	unsigned long long nreason[REASON_N], tokens_out, records;
	uint64_t rng;
};

/* record.c: fill a job from its record; finish it with an answer or error. */
void job_prepare(struct binfer_run *R, struct job *j);
void job_finish_ok(struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r);
void job_finish_err(struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why);
void job_set_body(struct binfer_run *R, struct job *j, const char *system,
    const char *user);
void job_try_cache(struct binfer_run *R, struct job *j);
long long binfer_num_ctx_for(const struct binfer_run *R, long long expected);
char *binfer_raw_text(const struct binfer_result *r);
json_t *binfer_int_or_null(long long v);
json_t *binfer_str_or_null(const char *s);
const char *binfer_model_digest(const struct binfer_run *R,
    const struct binfer_result *r);

/* judge.c */
void judge_load_rubric(struct binfer_opts *o);
void judge_prepare(struct binfer_run *R, struct job *j);
void judge_put(struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const char *err);

/* server.c: probe every endpoint, agree on the kind and model. */
void binfer_endpoints_probe(struct binfer_run *R);
void binfer_warm_up(struct binfer_run *R, const struct job *first);

/* sched.c: read, run and write every record; returns the exit status. */
int binfer_schedule(struct binfer_run *R);

#endif
