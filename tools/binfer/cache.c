/*
 * cache.c - completed requests, stored under their hash.
 *
 * DIR/hh/HASH.json (hh: the first two hex digits) holds one JSON object:
 * {request_hash, engine, model, endpoint, result{content, thinking,
 * prompt_eval_count, eval_count, finish_reason, timings{...}, model_digest},
 * request{body, body_sha256, body_masked, url, server, server_version,
 * warmup_requests, obtained}}: the answer and the request that obtained it
 * (its body as sent, the API key masked), so that a hit reports the body
 * that produced the answer rather than one built again.  An entry without
 * "request" (written before binfer stored requests) is still a hit.
 * Entries are written atomically (atomic.h), so a run killed at any instant
 * leaves whole entries or none, and shards running at once never collide:
 * the same hash is the same request.  An entry that does not read back
 * (wrong hash, damaged) is treated as absent and is rewritten.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ctx.h"
#include "binfer.h"

void
binfer_origin_init(struct binfer_origin *g)
{
	memset(g, 0, sizeof(*g));
	g->sent = 1;
	g->warmups = -1;
}

void
binfer_origin_release(struct binfer_origin *g)
{
	free(g->body);
	free(g->body_sha256);
	free(g->url);
	free(g->server);
	free(g->server_version);
	free(g->obtained);
	binfer_origin_init(g);
}

/* The fields of an origin by their names in records and entries. */
#define ORIGIN_STR(name, m)	{ name, 's', offsetof(struct binfer_origin, m) }
#define ORIGIN_INT(name, m, t)	{ name, t, offsetof(struct binfer_origin, m) }
static const struct {
	const char *name;
	char type;		/* 's' char *, 'b' int as a boolean, 'i' int count */
	size_t off;
} origin_fields[] = {
	ORIGIN_STR("body", body),
	ORIGIN_STR("body_sha256", body_sha256),
	ORIGIN_INT("body_masked", body_masked, 'b'),
	ORIGIN_INT("sent", sent, 'b'),
	ORIGIN_STR("url", url),
	ORIGIN_STR("server", server),
	ORIGIN_STR("server_version", server_version),
	ORIGIN_INT("warmup_requests", warmups, 'i'),
	ORIGIN_STR("obtained", obtained),
};

/* Field k of g as JSON (a new reference); dies on a name it does not know. */
static json_t *
origin_field(const struct binfer_origin *g, const char *k)
{
	const char *base = (const char *)g;
	size_t i;
	int n;

	for (i = 0; i < sizeof(origin_fields) / sizeof(origin_fields[0]); i++) {
		if (strcmp(origin_fields[i].name, k) != 0)
			continue;
		if (origin_fields[i].type == 's')
			return json_str_or_null(*(char *const *)(base + origin_fields[i].off));
		memcpy(&n, base + origin_fields[i].off, sizeof(n));
		return origin_fields[i].type == 'b' ? json_boolean(n) : json_int_or_null(n);
	}
	die("binfer_origin_json: no origin field %s", k);
}

json_t *
binfer_origin_json(const struct binfer_origin *g, const char *const *keys)
{
	json_t *o = json_object();

	for (; *keys; keys++)
		json_set_new(o, *keys, origin_field(g, *keys));
	return o;
}

/* An entry's request into g: g->stored 1 when the entry holds one. */
static void
origin_parse(const json_t *o, struct binfer_origin *g)
{
	long long w = binfer_count(o, "warmup_requests");

	binfer_origin_init(g);
	if (!json_is_object(o) || !json_get_str(o, "body"))
		return;
	binfer_take_str(&g->body, o, "body");
	binfer_take_str(&g->body_sha256, o, "body_sha256");
	g->body_masked = json_is_true(json_object_get(o, "body_masked"));
	binfer_take_str(&g->url, o, "url");
	binfer_take_str(&g->server, o, "server");
	binfer_take_str(&g->server_version, o, "server_version");
	g->warmups = w > (long long)0x7fffffff ? -1 : (int)w;
	binfer_take_str(&g->obtained, o, "obtained");
	g->stored = 1;
}

/* An entry's request: what obtained the answer (hit and stored are a run's). */
static const char *const entry_keys[] = {
	"body", "body_sha256", "body_masked", "url", "server", "server_version",
	"warmup_requests", "obtained", NULL
};

char *
binfer_cache_serialize(const char *hash, const char *engine, const char *model,
    const char *endpoint, const struct binfer_result *r,
    const struct binfer_origin *g, size_t *len)
{
	json_t *o = json_object(), *res = json_object(), *t = json_object();
	char *s;

	json_set_str(o, "request_hash", hash);
	json_set_str(o, "engine", engine);
	json_set_str(o, "model", model);
	json_set_new(o, "endpoint", json_str_or_null(endpoint));
	json_set_new(res, "content", json_str_or_null(r->content ? r->content : ""));
	json_set_new(res, "thinking", json_str_or_null(r->thinking));
	json_set_new(res, "prompt_eval_count", json_int_or_null(r->prompt_eval_count));
	json_set_new(res, "eval_count", json_int_or_null(r->eval_count));
	json_set_new(res, "finish_reason", json_str_or_null(r->finish_reason));
	json_set_new(t, "total_ms", json_real_or_null(r->total_ms));
	json_set_new(t, "load_ms", json_real_or_null(r->load_ms));
	json_set_new(t, "prompt_ms", json_real_or_null(r->prompt_ms));
	json_set_new(t, "eval_ms", json_real_or_null(r->eval_ms));
	json_set_new(res, "timings", t);
	json_set_new(res, "model_digest", json_str_or_null(r->model_digest));
	json_set_new(o, "result", res);
	if (g)
		json_set_new(o, "request", binfer_origin_json(g, entry_keys));
	s = json_compact(o, len);
	json_decref(o);
	return s;
}

static double
opt_ms(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : -1;
}

int
binfer_cache_parse(const char *text, size_t len, const char *hash,
    struct binfer_result *r, char **endpoint, struct binfer_origin *g)
{
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL), *res, *t;
	const char *h = json_get_str(o, "request_hash");

	res = json_object_get(o, "result");
	if (!h || strcmp(h, hash) != 0 || !json_get_str(res, "content"))
		goto bad;
	t = json_object_get(res, "timings");
	binfer_result_init(r);
	binfer_take_str(&r->content, res, "content");
	binfer_take_str(&r->thinking, res, "thinking");
	r->prompt_eval_count = binfer_count(res, "prompt_eval_count");
	r->eval_count = binfer_count(res, "eval_count");
	binfer_take_str(&r->finish_reason, res, "finish_reason");
	binfer_take_str(&r->model_digest, res, "model_digest");
	if (json_is_object(t)) {
		r->total_ms = opt_ms(t, "total_ms");
		r->load_ms = opt_ms(t, "load_ms");
		r->prompt_ms = opt_ms(t, "prompt_ms");
		r->eval_ms = opt_ms(t, "eval_ms");
	}
	if (endpoint) {
		*endpoint = NULL;
		binfer_take_str(endpoint, o, "endpoint");
	}
	if (g)
		origin_parse(json_object_get(o, "request"), g);
	json_decref(o);
	return 1;
bad:
	json_decref(o);
	return 0;
}

static char *
entry_path(const char *dir, const char *hash)
{
	return xasprintf("%s/%.2s/%s.json", dir, hash, hash);
}

int
binfer_cache_load(const char *dir, const char *hash, struct binfer_result *r,
    char **endpoint, struct binfer_origin *g)
{
	char *path = entry_path(dir, hash), *text;
	size_t len;
	int hit = 0;

	text = read_file(path, &len, 64u << 20);
	if (text) {
		hit = binfer_cache_parse(text, len, hash, r, endpoint, g);
		if (!hit)
			warn("%s: damaged cache entry, asking again", path);
		free(text);
	}
	free(path);
	return hit;
}

int
binfer_cache_store(const char *dir, const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r,
    const struct binfer_origin *g)
{
	char *path = entry_path(dir, hash), *s;
	size_t len;
	int rc;

	if (mkdir_parents(path, 0755) < 0) {
		warn_errno("%s", path);
		free(path);
		return -1;
	}
	s = binfer_cache_serialize(hash, engine, model, endpoint, r, g, &len);
	rc = atomic_write(path, s, len, 0644);
	if (rc < 0)
		warn_errno("%s", path);
	free(s);
	free(path);
	return rc;
}
