/*
 * unit-job.c - one job's life cycle (job.c): what preparing finds for each
 * kind of record (a request to send, an answer from the cache or from the
 * extractive engine, an overflow, nothing to ask), that preparing writes
 * no response field and leaves the job's state to the scheduler, and that
 * putting an answer or an error writes the fields and counts the reason.
 * usage: unit-job DIR (an empty directory for the cache)
 */
#include <string.h>
#include <stdlib.h>

#include "ctx.h"
#include "../../tools/binfer/run.h"
#include "tap.h"

static void
opts_init(struct binfer_opts *o, enum binfer_engine e)
{
	memset(o, 0, sizeof(*o));
	o->engine = e;
	o->server = e == BINFER_OLLAMA ? SRV_OLLAMA : SRV_NONE;
	o->model_id = "m-1";
	o->model_tag = "m:1";
	o->family = "llama3";
	o->tier = "small";
	o->tokenizer = "llama3";
	o->max_ctx = -1;
	o->p.temperature = 0;
	o->p.seed = 42;
	o->p.top_p = 1;
	o->p.repeat_penalty = 1;
	o->p.num_predict = 512;
	o->p.num_ctx_overhead = 128;
	o->num_ctx_round = 1;
	o->tolerance = 64;
	o->sentences = 3;
	o->rubric = "000";
}

static void
run_init(struct binfer_run *R, const struct binfer_opts *o)
{
	memset(R, 0, sizeof(*R));
	R->o = o;
	R->kind = o->server;
	R->identity = o->engine == BINFER_OLLAMA ? "sha256:abc" : NULL;
	R->ctx = o->engine == BINFER_OLLAMA ? 8192 : -1;
}

/* A job on a new record parsed from text, as the scheduler's fill() makes it. */
static void
job_init(struct job *j, const char *text)
{
	memset(j, 0, sizeof(*j));
	j->rec = json_loads(text, 0, NULL);
	if (!j->rec)
		die("bad test record: %s", text);
	j->expected = -1;
	j->num_ctx = -1;
	j->ep = -1;
}

static void
job_free(struct job *j)
{
	json_decref(j->rec);
	free(j->body);
	memset(j, 0, sizeof(*j));
}

#define CTX "{\"question_text\":\"How many requests per minute?\"," \
	"\"content\":\"The API allows 100 requests per minute. Keys are free.\"," \
	"\"user_prompt\":\"How many requests per minute?\"," \
	"\"tokens\":{\"llama3\":12},\"prompt_tokens\":{\"llama3\":%d}}"

static char *
ctx_record(int prompt_tokens, int excluded)
{
	char *s = xasprintf(CTX, prompt_tokens), *t;

	if (!excluded)
		return s;
	t = xasprintf("%.*s,\"excluded\":true}", (int)strlen(s) - 1, s);
	free(s);
	return t;
}

static void
test_response(const char *dir)
{
	struct binfer_opts o;
	struct binfer_run R;
	struct job j;
	struct job_prep p;
	struct binfer_result r;
	struct binfer_origin g;
	char *text, *name, hash[SHA256_HEX_LEN + 1];

	opts_init(&o, BINFER_OLLAMA);
	run_init(&R, &o);

	text = ctx_record(20, 1);
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_PASS, "excluded context: nothing to ask");
	TAP_IS_STR(json_string_value(json_object_get(j.rec, "model_id")), "m-1",
	    "excluded context: the model's fields are there");
	TAP_OK(!json_object_get(j.rec, "response_text"), "excluded context: no response field");
	TAP_OK(j.body == NULL, "excluded context: no request");
	job_prep_release(&p);
	job_free(&j);
	free(text);

	text = ctx_record(20, 0);
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_SEND, "a context that fits: a request to send");
	TAP_OK(j.body != NULL && strstr(j.body, "\"num_ctx\":660") != NULL,
	    "the request's body has num_ctx = 20 + 512 + 128");
	TAP_IS_INT(strlen(j.hash), SHA256_HEX_LEN, "the request is hashed");
	TAP_IS_INT(j.state, J_FREE, "preparing leaves the state to the scheduler");
	TAP_OK(!json_object_get(j.rec, "response_text") && !json_object_get(j.rec, "error"),
	    "preparing writes no response field");
	memcpy(hash, j.hash, sizeof(hash));
	job_prep_release(&p);

	binfer_result_init(&r);
	r.content = xstrdup("100 a minute.");
	r.finish_reason = xstrdup("stop");
	r.prompt_eval_count = 20;
	r.eval_count = 4;
	job_origin(&R, &j, 1, &g);
	TAP_IS_STR(g.body, j.body, "the request's origin: the body as sent");
	name = http_url_public("http://user:pw@e");	/* as main.c names an endpoint */
	job_put_answer(&R, &j, name, &r, &g);
	free(name);
	TAP_IS_STR(json_string_value(json_object_get(j.rec, "response_text")), "100 a minute.",
	    "an answer put: response_text");
	TAP_IS_STR(json_string_value(json_object_get(j.rec, "endpoint")), "http://e",
	    "an answer put: the endpoint without its user information");
	TAP_IS_STR(json_string_value(json_object_get(json_object_get(j.rec, "request"), "body")),
	    j.body, "an answer put: request.body is the body sent, byte for byte");
	TAP_OK(json_is_false(json_object_get(json_object_get(j.rec, "cache"), "hit")),
	    "an answer put: not a cache hit");
	TAP_IS_INT(R.n.answered, 1, "an answer put: counted as answered");
	TAP_IS_INT(R.n.nreason[REASON_INFERENCE_ERROR] + R.n.nreason[REASON_CONTEXT_TRUNCATED], 0,
	    "an ordinary answer: no reason counted");
	job_free(&j);

	/* the same request again, with the answer in the cache */
	o.cache_dir = (char *)dir;
	/* as an older binfer stored it: the endpoint with its user information */
	TAP_IS_INT(binfer_cache_store(dir, hash, "ollama", "m:1", "http://user:pw@e", &r, &g),
	    0, "the answer stored in the cache");
	binfer_result_release(&r);
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_CACHED, "a cached request: answered from the cache");
	TAP_OK(p.origin.hit && p.origin.stored, "a cached request: a hit with its request stored");
	TAP_IS_STR(p.origin.body, g.body, "a cached request: the body that obtained the answer");
	binfer_origin_release(&g);
	TAP_IS_STR(p.answer.content, "100 a minute.", "the cached answer");
	TAP_IS_STR(p.endpoint, "http://e",
	    "the cached answer's endpoint, without the user information of an old entry");
	TAP_OK(!json_object_get(j.rec, "response_text"), "a cache hit writes no response field");
	job_prep_release(&p);
	job_free(&j);
	o.refresh = 1;
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_SEND, "--refresh: the cached request is sent again");
	job_prep_release(&p);
	job_free(&j);
	o.refresh = 0;
	o.cache_dir = NULL;
	free(text);

	text = ctx_record(9000, 0);
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_OVERFLOW, "a prompt larger than the context: refused");
	TAP_OK(p.error && strstr(p.error, "does not fit"), "the overflow's message (%s)", p.error);
	TAP_OK(j.body != NULL, "an overflow's request is hashed for its record");
	job_put_error(&R, &j, NULL, p.error, REASON_CONTEXT_OVERFLOW);
	TAP_IS_STR(json_string_value(json_object_get(j.rec, "exclusion_reason")),
	    "CONTEXT_OVERFLOW", "an overflow put: its exclusion reason");
	TAP_IS_INT(R.n.nreason[REASON_CONTEXT_OVERFLOW], 1, "an overflow put: counted");
	TAP_OK(json_is_false(json_object_get(json_object_get(j.rec, "request"), "sent")),
	    "an overflow put: its request recorded as not sent");
	job_prep_release(&p);
	job_free(&j);
	free(text);
}

static void
test_extractive(void)
{
	struct binfer_opts o;
	struct binfer_run R;
	struct job j;
	struct job_prep p;
	char *text = ctx_record(20, 0);

	opts_init(&o, BINFER_EXTRACTIVE);
	run_init(&R, &o);
	job_init(&j, text);
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_LOCAL, "extractive: answered without a server");
	TAP_IS_STR(p.answer.content, "The API allows 100 requests per minute.",
	    "extractive: the answer found");
	TAP_OK(j.body == NULL && strlen(j.hash) == SHA256_HEX_LEN, "extractive: hashed, no request");
	TAP_OK(!json_object_get(j.rec, "response_text"), "extractive: preparing writes no answer");
	job_put_answer(&R, &j, p.endpoint, &p.answer, &p.origin);
	TAP_IS_STR(json_string_value(json_object_get(j.rec, "response_text")),
	    "The API allows 100 requests per minute.", "extractive: the answer put");
	TAP_OK(json_is_null(json_object_get(j.rec, "request")), "extractive: no request recorded");
	job_prep_release(&p);
	job_free(&j);
	free(text);
}

static void
test_judge(void)
{
	struct binfer_opts o;
	struct binfer_run R;
	struct job j;
	struct job_prep p;

	opts_init(&o, BINFER_OLLAMA);
	o.judge = 1;
	o.model_id = "judge-1";
	o.judge_system = "Score the answer.";
	o.judge_user = "Q: {question_text}\nG: {gold_answer}\nA: {response_text}";
	run_init(&R, &o);

	job_init(&j, "{\"question_text\":\"Q?\",\"gold_answer\":\"G.\",\"response_text\":null}");
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_PASS, "judge: no response, nothing to score");
	job_prep_release(&p);
	job_free(&j);

	job_init(&j, "{\"question_text\":\"Q?\",\"gold_answer\":\"G.\",\"response_text\":\"A.\","
	    "\"model_id\":\"m-1\"}");
	job_prepare(&R, &j, &p);
	TAP_IS_INT(p.status, JOB_SEND, "judge: a response to score, a request to send");
	TAP_OK(j.body && strstr(j.body, "A: A."), "judge: the rubric's prompt filled");
	job_put_error(&R, &j, "http://e", "HTTP 500: down", REASON_INFERENCE_ERROR);
	TAP_OK(json_is_null(json_object_get(j.rec, "factual_accuracy")),
	    "judge: a failed request scores nothing");
	TAP_IS_INT(R.n.nreason[REASON_INFERENCE_ERROR], 1, "judge: the failure counted");
	TAP_IS_INT(R.n.nreason[REASON_JUDGE_ERROR], 0, "judge: not as a verdict error");
	job_prep_release(&p);
	job_free(&j);
}

/* The request a record carries, byte for byte (the cache entry's: unit-engine) */
static void
test_request_json(void)
{
	struct binfer_origin g;
	json_t *o;
	char *s;

	binfer_origin_init(&g);
	g.body = xstrdup("{\"model\":\"m\"}");
	g.body_sha256 = xstrdup("5e");
	g.url = xstrdup("http://h/api/chat");
	g.server = xstrdup("ollama");
	g.server_version = xstrdup("0.9");
	g.warmups = 2;
	g.obtained = xstrdup("2026-01-02T03:04:05Z");
	o = binfer_request_json(&g);
	s = json_compact(o, NULL);
	TAP_IS_STR(s, "{\"sent\":true,\"url\":\"http://h/api/chat\",\"server\":\"ollama\","
	    "\"server_version\":\"0.9\",\"warmup_requests\":2,\"body_sha256\":\"5e\","
	    "\"body_masked\":false,\"body\":\"{\\\"model\\\":\\\"m\\\"}\"}",
	    "the record's request, byte for byte");
	free(s);
	json_decref(o);
	binfer_origin_release(&g);
}

int
main(int argc, char **argv)
{
	err_init("unit-job");
	if (argc != 2)
		die("usage: unit-job DIR");
	test_response(argv[1]);
	test_extractive();
	test_judge();
	test_request_json();
	return tap_done();
}
