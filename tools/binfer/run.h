/*
 * run.h - one binfer run: its options (opts.c, read-only once parsed), its
 * endpoints and what their servers said (server.c), the scheduler's window
 * of jobs (sched.c) and one job's life cycle (job.c over record.c and
 * judge.c, over request.c); binfer.h maps the files.  Passed explicitly to
 * every part; binfer keeps no global mutable state besides the signal flag
 * ctx_interrupted.
 *
 * A job's walk, one direction only: sched.c reads a record into a slot and
 * asks job_prepare what it needs (enum job_status); it sends the request
 * (J_READY, J_INFLIGHT) or writes the record at once, and every answer or
 * failure goes through job_put_answer / job_put_error before sched.c sets
 * J_DONE and writes the record in input order.  Only sched.c changes a
 * job's state.
 *
 * The run's tally (struct binfer_tally) is counted by sched.c and job.c
 * and read by report.c.  A run that stops before the end of its input
 * (R->stop: interrupted, or no endpoint answers any more) leaves its
 * answers in the cache and main.c commits no -o output.
 *
 * Ownership: a struct job owns its record (rec) and request body from
 * job_prepare until the scheduler writes the record; a struct binfer_run
 * owns its endpoints, headers and window.
 */
#ifndef BINFER_RUN_H
#define BINFER_RUN_H

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
	char *url;			/* where requests go (borrowed) */
	char *name;			/* url without user information
					   (http_url_public): every message and
					   record names the endpoint so; owned */
	struct binfer_server_info si;
	int inflight;			/* requests submitted to it */
	double dead_until;		/* no new request before (now_seconds) */
	int dead;			/* consecutive connection failures */
	int warmups;			/* warm-up requests sent to it */
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

/* What a run counts, for its progress line, its summary and its exit status. */
struct binfer_tally {
	unsigned long long records;	/* read */
	unsigned long long answered;	/* an answer and no exclusion */
	unsigned long long cached;	/* records answered from the cache */
	unsigned long long passed;	/* passed on without a request (excluded) */
	unsigned long long nreason[REASON_N];
	unsigned long long sent_tokens;	/* btok's prompt tokens of the requests the
					   servers finished (answered or not) */
	unsigned long long tokens_out;	/* output tokens the servers reported */
	double t_start;			/* the run's start (now_seconds) */
	double t_first, t_last;		/* first request sent, last one finished; 0: none */
	unsigned long long total;	/* records of the input; 0: unknown */
	long long work_total;		/* their prompt tokens; -1: unknown */
	unsigned long long work_done;	/* prompt tokens of the records done */
};

/* Why a run stopped before the end of its input. */
enum binfer_stop {
	STOP_NONE,
	STOP_INTERRUPT,		/* SIGINT or SIGTERM */
	STOP_GONE		/* no endpoint answers any more: stop_url */
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
	struct binfer_tally n;
	enum binfer_stop stop;
	const char *stop_url;		/* STOP_GONE: the endpoint that failed last
					   (its name) */
};

/* ------------------------------------------------------------ job.c */

/* What preparing a job found; the scheduler acts on it. */
enum job_status {
	JOB_SEND,		/* a request to send: j->body and j->hash set */
	JOB_CACHED,		/* answered from the cache: answer, endpoint */
	JOB_LOCAL,		/* answered without a server (extractive): answer */
	JOB_OVERFLOW,		/* refused, the prompt does not fit: error */
	JOB_PASS		/* nothing to ask: the record passes on as it is */
};

/* job_prepare's finding; released by job_prep_release. */
struct job_prep {
	enum job_status status;
	struct binfer_result answer;	/* JOB_CACHED, JOB_LOCAL */
	char *endpoint;			/* JOB_CACHED: where it was answered (no
					   user information), or NULL */
	struct binfer_origin origin;	/* JOB_CACHED: the request stored with it */
	char *error;			/* JOB_OVERFLOW: why (malloc'd) */
};

/*
 * Prepare a job whose rec is set (the request, or the answer found without
 * one) into *p.  Fills the record's request-side fields; never sets
 * j->state and never writes the response fields.  Dies (ndj_die) on a
 * record that cannot be asked.
 */
void job_prepare(const struct binfer_run *R, struct job *j, struct job_prep *p);
void job_prep_release(struct job_prep *p);
/*
 * Write an answer's (r, from endpoint, which may be NULL, obtained by the
 * request g: job_origin's, or a cache hit's) or a failure's (err, a reason
 * why < REASON_N; sent to endpoint, or refused before sending when it is
 * NULL) fields into the record of a job not yet J_DONE, and count the
 * run's reasons and output tokens.  The caller then sets J_DONE.  endpoint
 * is recorded as it is: an endpoint's name, without user information.
 */
void job_put_answer(struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const struct binfer_origin *g);
void job_put_error(struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why);

/*
 * The prompt tokens rec's request will carry (btok's count for the model's
 * tokenizer, 0 for a context that is excluded), for the ETA; -1 when the
 * run's work is not measured in tokens (judge, extractive) or rec has no
 * count.  Never dies: the run itself checks the record.
 */
long long job_work(const struct binfer_run *R, const json_t *rec);

/* ------------------------------------------------------------ record.c */

/*
 * A response record: the model's fields and input_token_count, then
 * JOB_PASS (an excluded context), JOB_LOCAL (extractive: p->answer),
 * JOB_OVERFLOW (p->error) or JOB_SEND.
 */
enum job_status record_prepare(const struct binfer_run *R, struct job *j,
    struct job_prep *p);
/* job_work's count for a response record. */
long long record_work(const struct binfer_opts *o, const json_t *rec);
/* The response fields; returns the reason the record is excluded for, or REASON_N. */
enum binfer_reason record_put_answer(const struct binfer_run *R, struct job *j,
    const char *endpoint, const struct binfer_result *r,
    const struct binfer_origin *g);
void record_put_error(const struct binfer_run *R, struct job *j, const char *endpoint,
    const char *err, enum binfer_reason why, const struct binfer_origin *g);

/* ------------------------------------------------------------ judge.c */

/* The rubric's two prompts (--rubric) into o->judge_system, o->judge_user; dies when unreadable. */
void judge_load_rubric(struct binfer_opts *o);
/* A judge request for a scored response (JOB_SEND), or JOB_PASS: nothing to score. */
enum job_status judge_prepare(const struct binfer_run *R, struct job *j);
/*
 * The score fields from the judge's answer r (or NULL with err); returns
 * REASON_JUDGE_ERROR when r holds no valid verdict, else REASON_N.
 */
enum binfer_reason judge_put(const struct binfer_run *R, struct job *j,
    const char *endpoint, const struct binfer_result *r, const char *err,
    const struct binfer_origin *g);

/* ------------------------------------------------------------ request.c */

/* j's request body (j->body, j->body_len) for system and user, and its hash (j->hash). */
void job_set_body(const struct binfer_run *R, struct job *j, const char *system,
    const char *user);
/* num_ctx for a prompt of expected tokens: with room for the output, rounded, capped. */
long long binfer_num_ctx_for(const struct binfer_run *R, long long expected);
/*
 * The request of j as this run built it into g (initialised here): its
 * body with the API key and credential members masked, the SHA-256 of the
 * bytes, and, when sent (to j->ep), the URL without user information, the
 * endpoint's server and warm-up count and the time now.
 */
void job_origin(const struct binfer_run *R, const struct job *j, int sent,
    struct binfer_origin *g);
/*
 * A record's "request" and "cache" objects for the request g that obtained
 * its answer (new references): binfer(1), "Output records".
 */
json_t *binfer_request_json(const struct binfer_origin *g);
json_t *binfer_cache_json(const struct job *j, const struct binfer_origin *g);
/* The model digest a record names (r may be NULL); borrowed. */
const char *binfer_model_digest(const struct binfer_run *R,
    const struct binfer_result *r);

/* server.c: probe every endpoint, agree on the kind and model. */
void binfer_endpoints_probe(struct binfer_run *R);
void binfer_warm_up(struct binfer_run *R, const struct job *first);

/* ------------------------------------------------------------ input.c */

/* The input: files in order (NULL-terminated; none: stdin). */
struct binfer_input {
	struct ndj_reader rd;
	char **files;
	int open, eof;
};

void input_init(struct binfer_input *in, char **files);
/* The next record (a new reference), or NULL at the end; dies on bad input. */
json_t *input_next(struct binfer_input *in);
/* 1 when a record (or the end) can be read without waiting. */
int input_ready(const struct binfer_input *in);
void input_close(struct binfer_input *in);
/*
 * Read the records of files ahead of the run, calling fn(rec, ud) for each
 * (rec borrowed), when every one is a regular file: returns how many, or -1
 * without reading when one is stdin, a pipe or a device (it cannot be read
 * twice).  Lines that are no record are skipped: the run reports them.
 */
long long input_scan(char **files, void (*fn)(const json_t *, void *), void *ud);

/* ------------------------------------------------------------ report.c */

/*
 * The records excluded per reason on stderr; returns the exit status: rc
 * (binfer_schedule's) unless it is 0 and no record was answered although
 * some were asked, or more failed than --allow-failures: EXIT_DATA.
 */
int binfer_verdict(const struct binfer_run *R, int rc);
/*
 * The line that ends every run on stderr: the records, what became of
 * them, the time and the servers' pace, and the output written; for a run
 * that stopped early (R->stop), why, and that -o was not written.
 */
void binfer_summary(const struct binfer_run *R);

/*
 * sched.c: read, run and write every record; on the way sets R->n and, when
 * the run stops early, R->stop.  Returns 0, or the exit status of a run that
 * stopped (130 interrupted, EXIT_DATA no endpoint answers).
 */
int binfer_schedule(struct binfer_run *R);

#endif
