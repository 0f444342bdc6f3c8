/*
 * server.c - which server answers at each endpoint, and what it says
 * about the model before the first request: its kind (llama.cpp's /props,
 * vLLM's /version, Ollama's /api/version, LM Studio's /api/v0/models, else
 * a plain OpenAI-compatible server), its version, the model's identity
 * (the cache key's: Ollama's digest from /api/tags, llama.cpp's model path,
 * size and parameter count, vLLM's served model and its root, LM Studio's
 * model record) and the context (Ollama /api/show
 * model_info.<arch>.context_length, llama.cpp /props n_ctx, vLLM
 * /v1/models max_model_len, LM Studio loaded_context_length).  Then the
 * warm-up requests of 001 §4.7.
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "run.h"

static const char *const server_names[] = {
	"auto", "ollama", "llama.cpp", "vllm", "lmstudio", "ollama-openai",
	"openai", "none"
};

const char *
binfer_server_name(enum binfer_server k)
{
	assert((size_t)k < sizeof(server_names) / sizeof(server_names[0]));
	return server_names[k];
}

int
binfer_server_parse(const char *s, enum binfer_server *out)
{
	size_t i;

	for (i = 0; i < SRV_NONE; i++)
		if (strcmp(s, server_names[i]) == 0) {
			*out = (enum binfer_server)i;
			return 0;
		}
	if (strcmp(s, "llamacpp") == 0 || strcmp(s, "llama-server") == 0) {
		*out = SRV_LLAMACPP;
		return 0;
	}
	return -1;
}

void
binfer_server_info_release(struct binfer_server_info *si)
{
	free(si->version);
	free(si->identity);
	memset(si, 0, sizeof(*si));
	si->ctx = -1;
}

/* ------------------------------------------------------------ facts */

long long
binfer_ollama_show_ctx(const json_t *show)
{
	json_t *mi = json_object_get(show, "model_info"), *v;
	const char *k;

	json_object_foreach(mi, k, v) {
		size_t n = strlen(k);

		if (n > 15 && strcmp(k + n - 15, ".context_length") == 0 &&
		    json_is_integer(v) && json_integer_value(v) > 0)
			return json_integer_value(v);
	}
	return -1;
}

int
binfer_ollama_tags_digest(const json_t *tags, const char *tag, char **digest)
{
	json_t *m = json_object_get(tags, "models");
	char *alt;
	size_t k;

	*digest = NULL;
	if (!json_is_array(m))
		return -1;
	alt = strchr(tag, ':') ? xstrdup(tag) : xasprintf("%s:latest", tag);
	for (k = 0; k < json_array_size(m) && !*digest; k++) {
		json_t *e = json_array_get(m, k);
		const char *n = json_get_str(e, "name");
		const char *d = json_get_str(e, "digest");

		if (!n)
			n = json_get_str(e, "model");
		if (n && d && (strcmp(n, tag) == 0 || strcmp(n, alt) == 0))
			*digest = xstrdup(d);
	}
	free(alt);
	return 0;
}

/* ------------------------------------------------------------ requests */

struct probe {
	const char *base;
	const char *name;	/* base in messages: without user information */
	const char *tag;
	struct curl_slist *headers;
	long timeout_s;
	int retries;
	long retry_delay_ms;
	const char *secret;
};

/*
 * One blocking request to base+path (POST body when not NULL).  Returns the
 * parsed JSON answer of a 200 (new reference), else NULL with *status
 * (0: no answer) and *why (malloc'd, masked).
 */
static json_t *
request(const struct probe *pr, const char *path, const char *body, long *status,
    char **why)
{
	struct http_config hc;
	struct http_req q;
	char *url = xasprintf("%s%s", pr->base, path);
	json_t *o = NULL;

	memset(&hc, 0, sizeof(hc));
	memset(&q, 0, sizeof(q));
	q.url = url;
	q.post = body;
	q.post_len = body ? strlen(body) : 0;
	q.headers = pr->headers;
	q.timeout_ms = pr->timeout_s * 1000L;
	q.connect_timeout_ms = 10000;
	q.max_body = 16u << 20;
	http_perform(&hc, &q);
	*status = q.status;
	*why = NULL;
	if (q.err != HTTP_OK)
		*why = xasprintf("%s", curl_easy_strerror((CURLcode)q.curl_code));
	else if (q.status == 200 && !(o = json_loadb(buf_str(&q.body), q.body.len, 0, NULL)))
		*why = xasprintf("the answer is not JSON");
	else if (q.status != 200)
		*why = xasprintf("HTTP %ld: %.160s", q.status, buf_str(&q.body));
	*why = binfer_mask(*why, pr->secret);
	if (q.err != HTTP_OK)
		*status = 0;
	http_req_release(&q);
	free(url);
	return o;
}

/*
 * Die with "NAME WHAT: WHY" (name: the base URL without user information),
 * releasing the malloc'd why first, so an error
 * path leaves nothing allocated behind (clean under LeakSanitizer).
 */
static void probe_fail(const char *name, const char *what, char *why)
    CTX_NORETURN;

static void
probe_fail(const char *name, const char *what, char *why)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", why ? why : "no answer");
	free(why);
	die("%s%s: %s", name, what, msg);
}

/* The pause before another attempt: the retry delay doubled each time, at most 60 s. */
static double
backoff_s(const struct probe *pr, int attempt)
{
	double d = (double)pr->retry_delay_ms / 1000.0 * ldexp(1.0, attempt);

	return d > 60 ? 60 : d;
}

static void
backoff_sleep(const struct probe *pr, int attempt)
{
	double d = backoff_s(pr, attempt);
	struct timespec ts;

	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/*
 * request() with retries while nothing answers (a server still starting).
 * The first failure is said at once, with the URL and how long binfer
 * will keep trying, so a dead server is never a silent wait.
 */
static json_t *
request_retry(const struct probe *pr, const char *path, const char *body, long *status,
    char **why)
{
	json_t *o;
	double wait = 0;
	int attempt;

	for (attempt = 0;; attempt++) {
		o = request(pr, path, body, status, why);
		if (o || *status != 0 || attempt >= pr->retries || ctx_interrupted)
			return o;
		if (attempt == 0) {
			for (int k = 0; k < pr->retries; k++)
				wait += backoff_s(pr, k);
			warn("%s%s: no server answers (%s); trying again %d time%s over %.0f s "
			    "(--retries, --retry-delay)", pr->name, path, *why, pr->retries,
			    pr->retries == 1 ? "" : "s", ceil(wait));
		}
		backoff_sleep(pr, attempt);
		free(*why);
	}
}

/* GET path: the JSON object of a 200, or NULL (status in *status). */
static json_t *
get_opt(const struct probe *pr, const char *path, long *status)
{
	char *why;
	json_t *o = request(pr, path, NULL, status, &why);

	free(why);
	if (o && !json_is_object(o)) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

/* ------------------------------------------------------------ kinds */

static enum binfer_server
detect(const struct probe *pr)
{
	long st;
	char *why;
	json_t *o = request_retry(pr, "/props", NULL, &st, &why);
	enum binfer_server k = SRV_OPENAI;

	if (!o && st == 0)
		probe_fail(pr->name, "/props: no server answers", why);
	free(why);
	if (json_is_object(o) && (json_object_get(o, "default_generation_settings") ||
	    json_object_get(o, "build_info")))
		k = SRV_LLAMACPP;
	json_decref(o);
	if (k == SRV_OPENAI && (o = get_opt(pr, "/version", &st)) != NULL) {
		if (json_is_string(json_object_get(o, "version")))
			k = SRV_VLLM;
		json_decref(o);
	}
	if (k == SRV_OPENAI && (o = get_opt(pr, "/api/version", &st)) != NULL) {
		if (json_is_string(json_object_get(o, "version")))
			k = SRV_OLLAMA_OPENAI;
		json_decref(o);
	}
	if (k == SRV_OPENAI && (o = get_opt(pr, "/api/v0/models", &st)) != NULL) {
		if (json_is_array(json_object_get(o, "data")))
			k = SRV_LMSTUDIO;
		json_decref(o);
	}
	return k;
}

/* The entry of tag in an OpenAI /v1/models list (borrowed from list). */
static json_t *
model_entry(const json_t *list, const char *tag)
{
	json_t *d = json_object_get(list, "data"), *e;
	size_t i;

	json_array_foreach(d, i, e)
		if (json_get_str(e, "id") && strcmp(json_get_str(e, "id"), tag) == 0)
			return e;
	return NULL;
}

/* The model's digest from /api/tags (malloc'd); dies when it is not there. */
static char *
ollama_digest(const struct probe *pr)
{
	long st;
	char *why, *digest;
	json_t *o = request_retry(pr, "/api/tags", NULL, &st, &why);

	if (!o)
		probe_fail(pr->name, "/api/tags: cannot list the models", why);
	/* What dies below has released the list first (no leak). */
	if (binfer_ollama_tags_digest(o, pr->tag, &digest) < 0) {
		json_decref(o);
		die("%s/api/tags: models: expected an array", pr->name);
	}
	json_decref(o);
	if (!digest)
		die("%s: model %s is not there (ollama pull %s)", pr->name,
		    pr->tag, pr->tag);
	return digest;
}

/*
 * Ollama, native or through /v1: its version, the model's digest (the
 * user's, else /api/tags') and, natively, the context from /api/show.
 */
static void
probe_ollama(const struct probe *pr, const char *digest, int native,
    struct binfer_server_info *si)
{
	long st;
	char *why, *body;
	json_t *o;

	if ((o = get_opt(pr, "/api/version", &st)) != NULL) {
		binfer_take_str(&si->version, o, "version");
		json_decref(o);
	}
	si->identity = digest ? xstrdup(digest) : ollama_digest(pr);
	o = json_pack("{s:s}", "model", pr->tag);
	body = json_compact(o, NULL);
	json_decref(o);
	o = request(pr, "/api/show", body, &st, &why);
	free(why);
	free(body);
	/* Through /v1 the context is the server's default, unknown here. */
	if (native)
		si->ctx = binfer_ollama_show_ctx(o);
	si->ctx_per_request = native;
	json_decref(o);
}

static void
probe_llamacpp(const struct probe *pr, struct binfer_server_info *si)
{
	long st;
	char *why;
	const char *path;
	json_t *props, *n, *models, *meta;

	props = request_retry(pr, "/props", NULL, &st, &why);
	if (!props)
		probe_fail(pr->name, "/props: cannot read the server's properties", why);
	binfer_take_str(&si->version, props, "build_info");
	n = json_object_get(json_object_get(props, "default_generation_settings"), "n_ctx");
	si->ctx = json_is_integer(n) ? json_integer_value(n) : -1;
	path = json_get_str(props, "model_path");
	models = get_opt(pr, "/v1/models", &st);
	meta = json_object_get(json_array_get(json_object_get(models, "data"), 0), "meta");
	si->identity = xasprintf("llama.cpp:%s size=%lld params=%lld", path ? path : "?",
	    (long long)json_integer_value(json_object_get(meta, "size")),
	    (long long)json_integer_value(json_object_get(meta, "n_params")));
	json_decref(models);
	json_decref(props);
}

/*
 * The context and identity of a listed server's model from its entry e in
 * the list (NULL when the list does not hold it).
 */
static void
listed_model(enum binfer_server k, const char *tag, const json_t *e,
    struct binfer_server_info *si)
{
	json_t *n;

	if (k == SRV_VLLM) {
		n = json_object_get(e, "max_model_len");
		si->ctx = json_is_integer(n) ? json_integer_value(n) : -1;
		si->identity = xasprintf("vllm:%s root=%s", tag,
		    json_get_str(e, "root") ?: "?");
	} else if (k == SRV_LMSTUDIO) {
		n = json_object_get(e, "loaded_context_length");
		if (!json_is_integer(n))
			n = json_object_get(e, "max_context_length");
		si->ctx = json_is_integer(n) ? json_integer_value(n) : -1;
		si->identity = xasprintf("lmstudio:%s publisher=%s arch=%s quantization=%s",
		    tag, json_get_str(e, "publisher") ?: "?", json_get_str(e, "arch") ?: "?",
		    json_get_str(e, "quantization") ?: "?");
	} else if (e) {
		si->identity = xasprintf("openai:%s owned_by=%s created=%lld", tag,
		    json_get_str(e, "owned_by") ?: "?",
		    (long long)json_integer_value(json_object_get(e, "created")));
	} else {
		si->identity = xasprintf("openai:%s", tag);
	}
}

/* vLLM, LM Studio and plain OpenAI servers: what their model list says. */
static void
probe_listed(const struct probe *pr, enum binfer_server k, struct binfer_server_info *si)
{
	long st;
	char *why;
	json_t *o, *e;

	if (k == SRV_VLLM && (o = get_opt(pr, "/version", &st)) != NULL) {
		binfer_take_str(&si->version, o, "version");
		json_decref(o);
	}
	o = request_retry(pr, k == SRV_LMSTUDIO ? "/api/v0/models" : "/v1/models", NULL, &st, &why);
	if (!o && st == 0)
		probe_fail(pr->name, ": no server answers", why);
	e = model_entry(o, pr->tag);
	if (o && !e)
		warn("%s: the server does not list model %s: its identity is only "
		    "its name", pr->name, pr->tag);
	if (!o)
		warn("%s: cannot list the models (%s): the model's identity is only "
		    "its name", pr->name, why);
	free(why);
	listed_model(k, pr->tag, e, si);
	json_decref(o);
}

void
binfer_server_probe(const char *base, const char *name, enum binfer_server kind,
    const char *model_tag, const char *digest, struct curl_slist *headers, long timeout_s, int retries, long retry_delay_ms,
    const char *secret, struct binfer_server_info *si)
{
	struct probe pr = { base, name, model_tag, headers, timeout_s < 30 ? timeout_s : 30,
	    retries, retry_delay_ms, secret };

	memset(si, 0, sizeof(*si));
	si->ctx = -1;
	si->kind = kind == SRV_AUTO ? detect(&pr) : kind;
	switch (si->kind) {
	case SRV_OLLAMA:
	case SRV_OLLAMA_OPENAI:
		probe_ollama(&pr, digest, si->kind == SRV_OLLAMA, si);
		break;
	case SRV_LLAMACPP:
		probe_llamacpp(&pr, si);
		break;
	default:
		probe_listed(&pr, si->kind, si);
		break;
	}
}

/*
 * With several endpoints, one where no server answers is set aside (its
 * requests go to the others); binfer_server_probe dies for a lone one.
 */
static int
answers(struct binfer_run *R, int i)
{
	struct probe pr = { R->ep[i].url, R->ep[i].name, R->o->model_tag, R->headers, 10, 0, 0,
	    R->secret };
	long st;
	char *why;
	json_t *o = request(&pr, "/", NULL, &st, &why);

	json_decref(o);
	if (st == 0) {
		warn("%s: no server answers; its requests go to the other endpoints (%s)",
		    R->ep[i].name, why);
		R->ep[i].dead = 1;
		R->ep[i].dead_until = now_seconds() + 30;
		R->ep[i].si.ctx = -1;
	}
	free(why);
	return st != 0;
}

static void
agree(struct binfer_run *R, int first, int i)
{
	const struct binfer_server_info *a = &R->ep[first].si, *b = &R->ep[i].si;

	if (a->kind != b->kind)
		die("%s is %s but %s is %s: one run, one kind of server", R->ep[first].name,
		    binfer_server_name(a->kind), R->ep[i].name, binfer_server_name(b->kind));
	if (a->identity && b->identity && strcmp(a->identity, b->identity) != 0) {
		if (a->kind == SRV_OLLAMA || a->kind == SRV_OLLAMA_OPENAI)
			die("%s and %s serve different builds of %s (digests %.12s, %.12s)",
			    R->ep[first].name, R->ep[i].name, R->o->model_tag, a->identity,
			    b->identity);
		die("%s and %s serve different models for %s (%s; %s)", R->ep[first].name,
		    R->ep[i].name, R->o->model_tag, a->identity, b->identity);
	}
	if (b->ctx > 0 && (R->ctx <= 0 || b->ctx < R->ctx))
		R->ctx = b->ctx;
}

void
binfer_endpoints_probe(struct binfer_run *R)
{
	const struct binfer_opts *o = R->o;
	char *unlocked;
	int i;

	int first = -1;

	R->ctx = -1;
	for (i = 0; i < R->nep; i++) {
		if (R->nep > 1 && !answers(R, i))
			continue;
		binfer_server_probe(R->ep[i].url, R->ep[i].name, o->server, o->model_tag, o->digest,
		    R->headers, o->timeout_s, o->retries, o->retry_delay_ms, R->secret,
		    &R->ep[i].si);
		if (first < 0)
			first = i;
		agree(R, first, i);
	}
	if (first < 0)
		die("%s: no server answers at any endpoint", R->ep[0].name);
	R->kind = R->ep[first].si.kind;
	R->version = R->ep[first].si.version;
	R->identity = R->ep[first].si.identity;
	if (o->think_off && !o->judge && R->kind != SRV_OLLAMA && !binfer_think_in_body(R->kind))
		R->think_suffix = " /no_think";	/* Qwen 3's switch in the prompt */
	unlocked = binfer_unlocked(R->kind, o->extra);
	if (unlocked)
		warn("%s: server kind %s: cannot lock %s (the server's own settings apply; "
		    "see --server and --extra)", R->ep[first].name, binfer_server_name(R->kind),
		    unlocked);
	free(unlocked);
}

/*
 * The warm-up request's body, compact: a short prompt with the locked
 * parameters, and for Ollama the first request's num_ctx, so that the
 * first request does not reload the model.
 */
static char *
warmup_body(const struct binfer_run *R, const struct job *first)
{
	static const char prompt[] = "Warm-up request: reply with the word ready.";
	const struct binfer_opts *o = R->o;
	struct binfer_params p = o->p;
	json_t *body;
	char *s;

	p.num_predict = 16;
	if (o->engine == BINFER_OLLAMA)
		body = binfer_ollama_body(o->model_tag, NULL, prompt, &p, first->num_ctx,
		    o->think_off, 0);
	else
		body = binfer_openai_body(R->kind, o->model_tag, NULL, prompt, &p,
		    o->think_off, o->extra, 0);
	s = json_compact(body, NULL);
	json_decref(body);
	return s;
}

/* Warm-up (001 §4.7): prompts that load the model, not recorded. */
void
binfer_warm_up(struct binfer_run *R, const struct job *first)
{
	const struct binfer_opts *o = R->o;
	struct probe pr = { NULL, NULL, o->model_tag, R->headers, o->timeout_s, 0, 0,
	    R->secret };
	json_t *ans;
	char *s, *why;
	int i, k;
	long status;

	if (o->warmup <= 0)
		return;
	s = warmup_body(R, first);
	for (i = 0; i < R->nep; i++) {
		pr.base = R->ep[i].url;
		pr.name = R->ep[i].name;
		for (k = 0; k < o->warmup && !ctx_interrupted; k++) {
			R->ep[i].warmups++;	/* recorded with each request */
			ans = request(&pr, o->api_path, s, &status, &why);
			json_decref(ans);
			if (!why)
				continue;
			warn("%s%s: warm-up request %d failed: %s", pr.name, o->api_path,
			    k + 1, why);
			free(why);
			break;
		}
	}
	free(s);
}
