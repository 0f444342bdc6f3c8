/*
 * request.c - what a response job (record.c) and a judge job (judge.c)
 * share, beneath both: the request body in the run's protocol and its hash
 * (the cache key), the request as records show it (its body masked, where
 * it went, whether it came from the cache), the num_ctx asked of Ollama for
 * a prompt, and the model digest a record names.  It builds bodies with ollama.c and openai.c and
 * calls nothing above it.
 */
#include <assert.h>
#include <string.h>
#include <strings.h>

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

/* ------------------------------------------------------------ origins */

/* 1 when a body member's name says it holds a credential (--extra's). */
static int
credential_name(const char *k)
{
	static const char *const names[] = { "api_key", "apikey", "api-key",
	    "key", "token", "access_token", "authorization", "password",
	    "secret", NULL };
	const char *const *p;

	for (p = names; *p; p++)
		if (strcasecmp(k, *p) == 0)
			return 1;
	return 0;
}

/*
 * The body as records show it: the bytes sent, except that a top-level
 * member named like a credential (which only --extra can put there) has
 * its value replaced by "[MASKED]" (the body is then serialised again) and
 * the API key is masked wherever it occurs.  *masked says whether anything
 * was.  malloc'd.
 */
static char *
shown_body(const struct binfer_run *R, const struct job *j, int *masked)
{
	json_t *b = json_loadb(j->body, j->body_len, 0, NULL), *v;
	const char *k;
	char *s = NULL, *m;

	*masked = 0;
	json_object_foreach(b, k, v) {
		if (credential_name(k)) {
			json_object_set_new(b, k, json_string("[MASKED]"));
			*masked = 1;
		}
	}
	s = *masked ? json_compact(b, NULL) : xstrndup(j->body, j->body_len);
	json_decref(b);
	m = binfer_mask(s, R->secret);
	if (m != s)
		*masked = 1;
	return m;
}

void
job_origin(const struct binfer_run *R, const struct job *j, int sent,
    struct binfer_origin *g)
{
	char hex[SHA256_HEX_LEN + 1], now[32];

	binfer_origin_init(g);
	assert(j->body != NULL);
	g->body = shown_body(R, j, &g->body_masked);
	sha256_hex(j->body, j->body_len, hex);
	g->body_sha256 = xstrdup(hex);
	g->server = xstrdup(binfer_server_name(R->kind));
	g->sent = sent;
	if (!sent || j->ep < 0)
		return;
	assert(j->ep < R->nep && j->url != NULL);
	g->url = binfer_mask(http_url_public(j->url), R->secret);
	if (R->ep[j->ep].si.version)
		g->server_version = xstrdup(R->ep[j->ep].si.version);
	g->warmups = R->ep[j->ep].warmups;
	g->obtained = xstrdup(ctx_utc_now(now, sizeof(now)));
}

json_t *
binfer_request_json(const struct binfer_origin *g)
{
	/* the record's order: where it went first, the body last */
	static const char *const keys[] = {
		"sent", "url", "server", "server_version", "warmup_requests",
		"body_sha256", "body_masked", "body", NULL
	};

	return binfer_origin_json(g, keys);
}

json_t *
binfer_cache_json(const struct job *j, const struct binfer_origin *g)
{
	json_t *o = json_object();

	json_set_bool(o, "hit", g->hit);
	json_set_str(o, "key", j->hash);
	json_set_new(o, "first_obtained", json_str_or_null(g->obtained));
	json_set_bool(o, "request_rebuilt", g->hit && !g->stored);
	return o;
}
