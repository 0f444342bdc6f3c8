/*
 * opts.c - binfer's command line and benchmark-config.json, resolved into
 * one struct binfer_opts: the locked parameters of 001 §4.6 (defaults, the
 * config, then options), the model and its family, the endpoints, the
 * request path and the OpenAI extras.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "run.h"

static const char usage[] =
"usage: binfer [options] [FILE...]\n"
"Send each context record's prompt to a model server; write response records.\n"
"\n"
"  -c, --config FILE        benchmark-config.json (parameters, models, template,\n"
"                           endpoint)\n"
"  -m, --model ID           the model to run (a model_id of the config)\n"
"  -e, --engine NAME        ollama, openai or extractive (default: the model's\n"
"                           engine in the config, else the config's\n"
"                           inference_endpoint.engine, else ollama)\n"
"      --server KIND        the OpenAI-compatible server: llama.cpp, vllm,\n"
"                           lmstudio, ollama-openai, openai or auto (default:\n"
"                           auto, asked from the server)\n"
"      --endpoint URL       server base URL; repeat to share requests out\n"
"                           (default: the config's base_url)\n"
"      --endpoints FILE     base URLs, one a line ('#' comments), as --endpoint\n"
"      --api-path PATH      request path (default /api/chat or\n"
"                           /v1/chat/completions)\n"
"      --api-key-env NAME   send the API key held in environment variable NAME\n"
"      --model-tag TAG      the name the server knows the model by (default:\n"
"                           the config's ollama_tag, else the model id)\n"
"      --max-context N      the model's maximum context (default: the server's,\n"
"                           else the config's max_context_length, else 32768)\n"
"      --digest HEX         the model digest (default: asked from /api/tags)\n"
"      --extra JSON         members added to every OpenAI request body\n"
"      --no-think           switch thinking off (Ollama think:false); the\n"
"                           default for models whose family is qwen3\n"
"      --no-think-prompt    also append /no_think to the user prompt\n"
"      --stream             ask for streamed answers\n"
"  -j, --jobs N             requests in flight (default 1)\n"
"      --cache DIR          request cache (default $CTXBENCH_CACHE/binfer,\n"
"                           else .binfer-cache)\n"
"      --no-cache           neither read nor write the cache\n"
"      --refresh            ask again, replacing cached answers\n"
"      --retries N          attempts after the first (default 5)\n"
"      --retry-delay MS     first backoff delay (default 1000)\n"
"      --timeout S          per-request timeout (default: the config's, else 300)\n"
"      --warmup N           warm-up requests per endpoint (default: the\n"
"                           config's warmup_prompt_count, else 3)\n"
"      --num-ctx-round N    round num_ctx up to a multiple of N (default 1)\n"
"      --tolerance N        prompt tokens the server may report below btok's\n"
"                           count before CONTEXT_TRUNCATED (default 64)\n"
"      --allow-failures N   exit 0 with up to N failed records (default 0)\n"
"      --temperature X, --seed N, --top-p X, --top-k N, --repeat-penalty X,\n"
"      --num-predict N, --num-ctx-overhead N\n"
"                           override an inference parameter\n"
"      --sentences N        extractive: sentences per answer (default 3)\n"
"      --judge              judge mode: score response records (000 §10)\n"
"      --rubric NAME        judge prompt template (default 000)\n"
"  -o, --output FILE        write records to FILE atomically\n"
"  -h, --help               this help\n"
"  -V, --version            the version\n";

enum {
	OPT_ALLOW_FAILURES = 256, OPT_API_KEY_ENV, OPT_API_PATH, OPT_CACHE,
	OPT_DIGEST, OPT_ENDPOINT, OPT_ENDPOINTS, OPT_EXTRA, OPT_JUDGE,
	OPT_MAX_CONTEXT, OPT_MODEL_TAG, OPT_NO_CACHE, OPT_NO_THINK,
	OPT_NO_THINK_PROMPT, OPT_NUM_CTX_OVERHEAD, OPT_NUM_CTX_ROUND,
	OPT_NUM_PREDICT, OPT_REFRESH, OPT_REPEAT_PENALTY, OPT_RETRIES,
	OPT_RETRY_DELAY, OPT_RUBRIC, OPT_SEED, OPT_SENTENCES, OPT_SERVER,
	OPT_STREAM, OPT_TEMPERATURE, OPT_TIMEOUT, OPT_TOLERANCE, OPT_TOP_K,
	OPT_TOP_P, OPT_WARMUP
};

static const struct option longopts[] = {
	{ "allow-failures", required_argument, NULL, OPT_ALLOW_FAILURES },
	{ "api-key-env", required_argument, NULL, OPT_API_KEY_ENV },
	{ "api-path", required_argument, NULL, OPT_API_PATH },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "config", required_argument, NULL, 'c' },
	{ "digest", required_argument, NULL, OPT_DIGEST },
	{ "endpoint", required_argument, NULL, OPT_ENDPOINT },
	{ "endpoints", required_argument, NULL, OPT_ENDPOINTS },
	{ "engine", required_argument, NULL, 'e' },
	{ "extra", required_argument, NULL, OPT_EXTRA },
	{ "help", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "judge", no_argument, NULL, OPT_JUDGE },
	{ "max-context", required_argument, NULL, OPT_MAX_CONTEXT },
	{ "model", required_argument, NULL, 'm' },
	{ "model-tag", required_argument, NULL, OPT_MODEL_TAG },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "no-think", no_argument, NULL, OPT_NO_THINK },
	{ "no-think-prompt", no_argument, NULL, OPT_NO_THINK_PROMPT },
	{ "num-ctx-overhead", required_argument, NULL, OPT_NUM_CTX_OVERHEAD },
	{ "num-ctx-round", required_argument, NULL, OPT_NUM_CTX_ROUND },
	{ "num-predict", required_argument, NULL, OPT_NUM_PREDICT },
	{ "output", required_argument, NULL, 'o' },
	{ "refresh", no_argument, NULL, OPT_REFRESH },
	{ "repeat-penalty", required_argument, NULL, OPT_REPEAT_PENALTY },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "retry-delay", required_argument, NULL, OPT_RETRY_DELAY },
	{ "rubric", required_argument, NULL, OPT_RUBRIC },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "sentences", required_argument, NULL, OPT_SENTENCES },
	{ "server", required_argument, NULL, OPT_SERVER },
	{ "stream", no_argument, NULL, OPT_STREAM },
	{ "temperature", required_argument, NULL, OPT_TEMPERATURE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "top-k", required_argument, NULL, OPT_TOP_K },
	{ "top-p", required_argument, NULL, OPT_TOP_P },
	{ "version", no_argument, NULL, 'V' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ NULL, 0, NULL, 0 }
};

/* What the command line said before the config is read. */
struct cli {
	const char *config, *engine, *model, *server, *extra, *cache;
	const char *engine_from;	/* where the engine was chosen, for messages */
	const char **endpoints;
	size_t nendpoints;
	char **files;			/* --endpoints texts the URLs point into */
	size_t nfiles;
	long long max_ctx, warmup, timeout;
	int no_think, no_cache;
	double temp, top_p, rep;
	long long seed, top_k, np, over;
};

static void
add_endpoint(struct cli *c, const char *url)
{
	c->endpoints = xreallocarray(c->endpoints, c->nendpoints + 1, sizeof(*c->endpoints));
	c->endpoints[c->nendpoints++] = url;
}

/*
 * --endpoints FILE: one URL a line.  The URLs point into the file's text,
 * which the cli keeps (files) until the options are resolved.
 */
static void
read_endpoints(struct cli *c, const char *path)
{
	size_t len;
	char *text = read_file(path, &len, 1u << 20), *line, *save = NULL;

	if (!text)
		die_errno("%s", path);
	c->files = xreallocarray(c->files, c->nfiles + 1, sizeof(*c->files));
	c->files[c->nfiles++] = text;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *e = line + strlen(line);

		while (*line == ' ' || *line == '\t')
			line++;
		while (e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (*line && *line != '#')
			add_endpoint(c, line);
	}
	if (c->nendpoints == 0)
		die("%s: no endpoint in the file", path);
}

static void
parse_params(int ch, struct cli *c)
{
	switch (ch) {
	case OPT_NUM_CTX_OVERHEAD: c->over = opt_int("--num-ctx-overhead", optarg, 0, 1 << 20); break;
	case OPT_NUM_PREDICT: c->np = opt_int("--num-predict", optarg, 1, 1 << 20); break;
	case OPT_REPEAT_PENALTY: c->rep = opt_real("--repeat-penalty", optarg, 0, 10); break;
	case OPT_SEED: c->seed = opt_int("--seed", optarg, 0, LLONG_MAX); break;
	case OPT_TEMPERATURE: c->temp = opt_real("--temperature", optarg, 0, 10); break;
	case OPT_TOP_K: c->top_k = opt_int("--top-k", optarg, 0, 1 << 20); break;
	case OPT_TOP_P: c->top_p = opt_real("--top-p", optarg, 0, 1); break;
	default: die_usage("unknown option");
	}
}

static void
parse_args(struct binfer_opts *o, struct cli *c, int argc, char **argv)
{
	int ch;

	while ((ch = opt_getopt(argc, argv, "c:e:hj:m:o:V", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_ALLOW_FAILURES: o->allow_failures = opt_int("--allow-failures", optarg, 0, LLONG_MAX); break;
		case OPT_API_KEY_ENV: o->api_key_env = optarg; break;
		case OPT_API_PATH: o->api_path = optarg; break;
		case OPT_CACHE: c->cache = optarg; break;
		case 'c': c->config = optarg; break;
		case OPT_DIGEST: o->digest = optarg; break;
		case OPT_ENDPOINT: add_endpoint(c, optarg); break;
		case OPT_ENDPOINTS: read_endpoints(c, optarg); break;
		case 'e': c->engine = optarg; break;
		case OPT_EXTRA: c->extra = optarg; break;
		case 'h': opt_help(usage); break;
		case 'j': o->jobs = (int)opt_int("--jobs", optarg, 1, 1024); break;
		case OPT_JUDGE: o->judge = 1; break;
		case OPT_MAX_CONTEXT: c->max_ctx = opt_int("--max-context", optarg, 256, 1LL << 30); break;
		case 'm': c->model = optarg; break;
		case OPT_MODEL_TAG: o->model_tag = optarg; break;
		case OPT_NO_CACHE: c->no_cache = 1; break;
		case OPT_NO_THINK: c->no_think = 1; break;
		case OPT_NO_THINK_PROMPT: o->no_think_prompt = 1; break;
		case OPT_NUM_CTX_ROUND: o->num_ctx_round = opt_int("--num-ctx-round", optarg, 1, 1 << 20); break;
		case 'o': o->output = optarg; break;
		case OPT_REFRESH: o->refresh = 1; break;
		case OPT_RETRIES: o->retries = (int)opt_int("--retries", optarg, 0, 100); break;
		case OPT_RETRY_DELAY: o->retry_delay_ms = (long)opt_int("--retry-delay", optarg, 0, 600000); break;
		case OPT_RUBRIC: o->rubric = optarg; break;
		case OPT_SENTENCES: o->sentences = (int)opt_int("--sentences", optarg, 1, 100); break;
		case OPT_SERVER: c->server = optarg; break;
		case OPT_STREAM: o->stream = 1; break;
		case OPT_TIMEOUT: c->timeout = opt_int("--timeout", optarg, 1, 86400); break;
		case OPT_TOLERANCE: o->tolerance = opt_int("--tolerance", optarg, 0, 1 << 30); break;
		case 'V': opt_version(); break;
		case OPT_WARMUP: c->warmup = opt_int("--warmup", optarg, 0, 100); break;
		default: parse_params(ch, c); break;
		}
	}
	if (c->no_cache && o->refresh)
		die_usage("--no-cache and --refresh exclude each other");
	o->inputs = argv + optind;
}

/* The engine a model of the config names for itself, or NULL. */
static const char *
model_engine(const json_t *cfg, const char *model_id)
{
	json_t *m = cfg && model_id ? cfg_model(cfg, model_id) : NULL;

	return json_string_value(json_object_get(m, "engine"));
}

/*
 * -e and --server: the engine (-e, else the kind --server names, else the
 * model's own engine in the config, else the config's
 * inference_endpoint.engine, else ollama), where it came from (for
 * messages, in c->engine_from) and the server kind it implies.
 */
static void
resolve_engine(struct binfer_opts *o, struct cli *c)
{
	const char *engine = c->engine;

	c->engine_from = "--engine";
	if (c->server && binfer_server_parse(c->server, &o->server) < 0)
		die_usage("--server: expected llama.cpp, vllm, lmstudio, ollama-openai, "
		    "openai, ollama or auto, got '%s'", c->server);
	if (!engine && c->server && o->server != SRV_AUTO) {
		engine = o->server == SRV_OLLAMA ? "ollama" : "openai";
		c->engine_from = "--server";
	}
	if (!engine && !o->judge && (engine = model_engine(o->cfg, c->model)) != NULL)
		c->engine_from = "the model's engine in the config";
	if (!engine && o->cfg && (engine = cfg_str(o->cfg, "inference_endpoint.engine", NULL)))
		c->engine_from = "the config's inference_endpoint.engine";
	if (!engine) {
		engine = "ollama";
		c->engine_from = "the default engine";
	}
	if (binfer_engine_parse(engine, &o->engine) < 0)
		die_usage("%s: expected ollama, openai or extractive, got '%s'", c->engine_from,
		    engine);
	if (o->engine == BINFER_OLLAMA && o->server != SRV_AUTO && o->server != SRV_OLLAMA)
		die_usage("--server %s speaks the OpenAI API: use --engine openai", c->server);
	if (o->engine == BINFER_OPENAI && o->server == SRV_OLLAMA)
		die_usage("--server ollama is the native API: use --engine ollama "
		    "(or --server ollama-openai for its /v1 API)");
	if (o->engine == BINFER_EXTRACTIVE && c->server)
		die_usage("--server applies to the ollama and openai engines");
	if (o->engine == BINFER_OLLAMA)
		o->server = SRV_OLLAMA;
	else if (o->engine == BINFER_EXTRACTIVE)
		o->server = SRV_NONE;
	if (o->judge && o->engine == BINFER_EXTRACTIVE)
		die_usage("--judge needs a model: engine ollama or openai");
}

/* 000 §10: the judge must not be one of the benchmarked models. */
static void
check_judge(const struct binfer_opts *o, const char *config)
{
	json_t *ms = o->cfg ? json_object_get(o->cfg, "models") : NULL;
	size_t k;

	for (k = 0; k < json_array_size(ms); k++) {
		json_t *e = json_array_get(ms, k);
		const char *id = json_string_value(json_object_get(e, "model_id"));
		const char *tag = json_string_value(json_object_get(e, "ollama_tag"));

		if ((id && strcmp(id, o->model_id) == 0) || (tag && strcmp(tag, o->model_id) == 0) ||
		    (tag && o->model_tag && strcmp(tag, o->model_tag) == 0))
			die_usage("judge model %s is one of the benchmarked models "
			    "in %s (000 §10)", o->model_id, config);
	}
}

/*
 * A record's model_id names the model that answered (001 §4.1): the
 * extractive engine answers as the extractive baseline only (its id, or a
 * model of the config whose engine is extractive), and such a model is run
 * by no other engine.
 */
static void
check_engine(const struct binfer_opts *o, const struct cli *c, const json_t *mcfg)
{
	const char *e = json_string_value(json_object_get(mcfg, "engine"));
	int baseline = strcmp(o->model_id, "extractive-baseline") == 0 ||
	    (e && strcmp(e, "extractive") == 0);

	if (o->engine == BINFER_EXTRACTIVE && !baseline)
		die_usage("--model %s: the extractive engine (%s) answers as the "
		    "extractive baseline only, not as a model of the study: run %s with "
		    "-e ollama or -e openai", o->model_id, c->engine_from, o->model_id);
	if (o->engine != BINFER_EXTRACTIVE && baseline)
		die_usage("--model %s is the extractive baseline: the %s engine (%s) "
		    "cannot answer as it", o->model_id, binfer_engine_name(o->engine),
		    c->engine_from);
}

static void
resolve_model(struct binfer_opts *o, const struct cli *c)
{
	json_t *mcfg;

	o->model_id = c->model;
	if (!o->model_id && o->engine == BINFER_EXTRACTIVE)
		o->model_id = "extractive-baseline";
	if (!o->model_id)
		die_usage("--model is required (one run = one model, 001 §4.7)");
	mcfg = o->cfg ? cfg_model(o->cfg, o->model_id) : NULL;
	o->max_ctx = c->max_ctx;
	if (o->judge) {
		check_judge(o, c->config);
		mcfg = NULL;
	} else {
		/* the extractive engine's own name needs no entry when not asked for */
		if (o->cfg && !mcfg && c->model)
			die_usage("--model: %s is not a model_id of %s", o->model_id, c->config);
		check_engine(o, c, mcfg);
	}
	if (o->engine == BINFER_EXTRACTIVE) {
		o->family = "extractive";
		o->tier = "baseline";
		o->tokenizer = "llama3";	/* input_token_count: the reference count */
	} else if (mcfg) {
		o->family = json_string_value(json_object_get(mcfg, "family"));
		o->tier = json_string_value(json_object_get(mcfg, "tier"));
		if (!o->model_tag)
			o->model_tag = json_string_value(json_object_get(mcfg, "ollama_tag"));
		if (o->max_ctx < 0 && json_is_integer(json_object_get(mcfg, "max_context_length")))
			o->max_ctx = json_integer_value(json_object_get(mcfg, "max_context_length"));
		o->tokenizer = cfg_model_tokenizer(mcfg);
	}
	if (!o->tokenizer && !o->judge && o->engine != BINFER_EXTRACTIVE)
		o->tokenizer = "llama3";
	if (!o->model_tag)
		o->model_tag = o->model_id;
	o->think_off = c->no_think || (o->family && strcmp(o->family, "qwen3") == 0) ||
	    (mcfg && json_is_true(json_object_get(mcfg, "thinking")));
}

/* 001 §4.6 defaults, the config, then options. */
static void
resolve_params(struct binfer_opts *o, const struct cli *c)
{
	const json_t *cfg = o->cfg;
	struct binfer_params *p = &o->p;

	p->temperature = cfg ? cfg_num(cfg, "inference_parameters.temperature", 0.0) : 0.0;
	p->seed = cfg ? cfg_int(cfg, "inference_parameters.seed", 42) : 42;
	p->top_p = cfg ? cfg_num(cfg, "inference_parameters.top_p", 1.0) : 1.0;
	p->top_k = cfg ? cfg_int(cfg, "inference_parameters.top_k", 0) : 0;
	p->repeat_penalty = cfg ? cfg_num(cfg, "inference_parameters.repeat_penalty", 1.0) : 1.0;
	p->num_predict = cfg ? cfg_int(cfg, "inference_parameters.num_predict", 512) : 512;
	p->num_ctx_overhead = cfg ? cfg_int(cfg, "inference_parameters.num_ctx_overhead", 128) : 128;
	if (!isnan(c->temp)) p->temperature = c->temp;
	if (c->seed >= 0) p->seed = c->seed;
	if (!isnan(c->top_p)) p->top_p = c->top_p;
	if (c->top_k >= 0) p->top_k = c->top_k;
	if (!isnan(c->rep)) p->repeat_penalty = c->rep;
	if (c->np >= 0) p->num_predict = c->np;
	if (c->over >= 0) p->num_ctx_overhead = c->over;
	if (cfg) {
		o->sys_tmpl = cfg_str(cfg, "prompt_template.system_prompt", NULL);
		o->user_tmpl = cfg_str(cfg, "prompt_template.user_prompt", NULL);
	}
	o->timeout_s = c->timeout > 0 ? (long)c->timeout :
	    cfg ? (long)cfg_int(cfg, "inference_endpoint.request_timeout_seconds", 300) : 300;
	o->warmup = c->warmup >= 0 ? (int)c->warmup :
	    cfg ? (int)cfg_int(cfg, "inference_endpoint.warmup_prompt_count", 3) : 3;
}

/* Die naming u without its user information (released first: no leak). */
static void bad_endpoint(const char *u) CTX_NORETURN;

static void
bad_endpoint(const char *u)
{
	char *name = http_url_public(u), msg[512];

	snprintf(msg, sizeof(msg), "%s", name);
	free(name);
	die_usage("--endpoint: expected an http:// or https:// URL, got '%s'", msg);
}

static void
resolve_endpoints(struct binfer_opts *o, const struct cli *c)
{
	const char *def = o->cfg ? cfg_str(o->cfg, "inference_endpoint.base_url",
	    "http://localhost:11434") : "http://localhost:11434";
	size_t i, n = c->nendpoints ? c->nendpoints : 1;

	o->endpoints = xcalloc(n, sizeof(*o->endpoints));
	o->nep = (int)n;
	for (i = 0; i < n; i++) {
		const char *u = c->nendpoints ? c->endpoints[i] : def;
		size_t len = strlen(u);

		if (strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0)
			bad_endpoint(u);
		while (len > 0 && u[len - 1] == '/')
			len--;
		o->endpoints[i] = xstrndup(u, len);
	}
	/*
	 * The config's api_path serves OpenAI-compatible servers only:
	 * Ollama's /v1 endpoint cannot set num_ctx (the study's defect).
	 */
	if (!o->api_path && o->engine == BINFER_OLLAMA)
		o->api_path = "/api/chat";
	else if (!o->api_path && o->engine == BINFER_OPENAI)
		o->api_path = o->cfg ? cfg_str(o->cfg, "inference_endpoint.api_path",
		    "/v1/chat/completions") : "/v1/chat/completions";
	if (o->api_path && o->api_path[0] != '/')
		die_usage("--api-path: expected a path starting with '/'");
}

/* OpenAI extras: the config's, the model's, then --extra. */
static void
resolve_extra(struct binfer_opts *o, const struct cli *c)
{
	json_t *e, *mcfg = o->cfg && !o->judge ? cfg_model(o->cfg, o->model_id) : NULL;

	if (o->engine != BINFER_OPENAI) {
		if (c->extra)
			die_usage("--extra applies to the openai engine");
		return;
	}
	o->extra = json_object();
	if (o->cfg && json_is_object(e = json_path(o->cfg, "inference_endpoint.openai_extra")))
		json_object_update(o->extra, e);
	if (mcfg && json_is_object(e = json_object_get(mcfg, "openai_extra")))
		json_object_update(o->extra, e);
	if (c->extra) {
		json_error_t je;

		e = json_loads(c->extra, 0, &je);
		if (!json_is_object(e))
			die_usage("--extra: expected a JSON object (%s)", je.text);
		json_object_update(o->extra, e);
		json_decref(e);
	}
}

void
binfer_opts_parse(struct binfer_opts *o, int argc, char **argv)
{
	struct cli c;
	const char *env;
	size_t i;

	memset(o, 0, sizeof(*o));
	memset(&c, 0, sizeof(c));
	c.max_ctx = c.warmup = c.timeout = -1;
	c.temp = c.top_p = c.rep = NAN;
	c.seed = c.top_k = c.np = c.over = -1;
	o->jobs = 1;
	o->retries = 5;
	o->retry_delay_ms = 1000;
	o->num_ctx_round = 1;
	o->tolerance = 64;
	o->sentences = 3;
	o->rubric = "000";
	parse_args(o, &c, argc, argv);
	if (c.config)
		o->cfg = study_config_load(c.config);
	resolve_engine(o, &c);
	resolve_model(o, &c);
	resolve_params(o, &c);
	resolve_endpoints(o, &c);
	resolve_extra(o, &c);
	if (o->digest && o->engine != BINFER_OLLAMA)
		die_usage("--digest applies to the ollama engine");
	env = getenv("CTXBENCH_CACHE");
	if (!c.no_cache)
		o->cache_dir = c.cache ? xstrdup(c.cache) : env && *env ?
		    xasprintf("%s/binfer", env) : xstrdup(".binfer-cache");
	if (o->judge)
		judge_load_rubric(o);
	free(c.endpoints);
	for (i = 0; i < c.nfiles; i++)
		free(c.files[i]);
	free(c.files);
}

void
binfer_opts_free(struct binfer_opts *o)
{
	int i;

	for (i = 0; i < o->nep; i++)
		free(o->endpoints[i]);
	free(o->endpoints);
	free(o->cache_dir);
	free(o->judge_system);
	free(o->judge_user);
	json_decref(o->extra);
	json_decref(o->cfg);
}
