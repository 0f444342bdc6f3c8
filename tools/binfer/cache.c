/*
 * cache.c - completed requests, stored under their hash.
 *
 * DIR/hh/HASH.json (hh: the first two hex digits) holds one JSON object:
 * {request_hash, engine, model, endpoint, result{content, thinking,
 * prompt_eval_count, eval_count, finish_reason, timings{...}, model_digest}}.
 * Entries are written atomically (atomic.h), so a run killed at any instant
 * leaves whole entries or none, and shards running at once never collide:
 * the same hash is the same request.  An entry that does not read back
 * (wrong hash, damaged) is treated as absent and is rewritten.
 */
#include <errno.h>
#include <string.h>

#include "ctx.h"
#include "binfer.h"

char *
binfer_cache_serialize(const char *hash, const char *engine, const char *model,
    const char *endpoint, const struct binfer_result *r, size_t *len)
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
    struct binfer_result *r, char **endpoint)
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
    char **endpoint)
{
	char *path = entry_path(dir, hash), *text;
	size_t len;
	int hit = 0;

	text = read_file(path, &len, 64u << 20);
	if (text) {
		hit = binfer_cache_parse(text, len, hash, r, endpoint);
		if (!hit)
			warn("%s: damaged cache entry, asking again", path);
		free(text);
	}
	free(path);
	return hit;
}

int
binfer_cache_store(const char *dir, const char *hash, const char *engine,
    const char *model, const char *endpoint, const struct binfer_result *r)
{
	char *path = entry_path(dir, hash), *s;
	size_t len;
	int rc;

	if (mkdir_parents(path, 0755) < 0) {
		warn_errno("%s", path);
		free(path);
		return -1;
	}
	s = binfer_cache_serialize(hash, engine, model, endpoint, r, &len);
	rc = atomic_write(path, s, len, 0644);
	if (rc < 0)
		warn_errno("%s", path);
	free(s);
	free(path);
	return rc;
}
