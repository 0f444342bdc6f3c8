/*
 * request.c - what a response job (record.c) and a judge job (judge.c)
 * share, beneath both: the request body in the run's protocol and its hash
 * (the cache key), the num_ctx asked of Ollama for a prompt, and the model
 * digest a record names.  It builds bodies with ollama.c and openai.c and
 * calls nothing above it.
 */
#include <assert.h>

#include "ctx.h"
#include "run.h"

/*
 * The request's hash: the engine, the model's identity and the body
 * without what only changes the transport.
 */
static void
hash_request(const struct binfer_run *R, struct job *j, const json_t *body)
{
	json_t *canon = json_object(), *b = json_deep_copy(body);
	char *s;
	size_t n;

	/* Streaming changes the transport, not the answer. */
	json_object_del(b, "stream");
	json_object_del(b, "stream_options");
	json_set_str(canon, "engine", binfer_engine_name(R->o->engine));
	/* The model's identity: a changed model is never answered from cache. */
	json_set_new(canon, "model_digest", json_str_or_null(R->identity));
	json_set_new(canon, "body", b);
	s = json_compact(canon, &n);
	sha256_hex(s, n, j->hash);
	free(s);
	json_decref(canon);
}

void
job_set_body(const struct binfer_run *R, struct job *j, const char *system,
    const char *user)
{
	const struct binfer_opts *o = R->o;
	json_t *body;

	assert(j->body == NULL);
	if (o->engine == BINFER_OLLAMA)
		body = binfer_ollama_body(o->model_tag, system, user, &o->p, j->num_ctx,
		    o->think_off, o->stream);
	else
		body = binfer_openai_body(R->kind, o->model_tag, system, user, &o->p,
		    o->think_off, o->extra, o->stream);
	hash_request(R, j, body);
	j->body = json_compact(body, &j->body_len);
	json_decref(body);
}

long long
binfer_num_ctx_for(const struct binfer_run *R, long long expected)
{
	const struct binfer_opts *o = R->o;
	long long n = expected + o->p.num_predict + o->p.num_ctx_overhead;
	long long max = R->ctx > 0 ? R->ctx : 32768;

	if (o->max_ctx > 0 && (R->ctx <= 0 || o->max_ctx < max))
		max = o->max_ctx;
	if (o->num_ctx_round > 1 && n % o->num_ctx_round)
		n += o->num_ctx_round - n % o->num_ctx_round;
	return n < max ? n : max;
}

/* Ollama: /api/tags (equal at every endpoint); OpenAI: system_fingerprint. */
const char *
binfer_model_digest(const struct binfer_run *R, const struct binfer_result *r)
{
	if (R->kind == SRV_OLLAMA)
		return R->identity;
	return r ? r->model_digest : NULL;
}
