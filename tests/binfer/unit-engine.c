/*
 * unit-engine.c - binfer's protocol parsers, request bodies, thinking
 * removal, verdict parser, template filling, cache entries, the
 * extractive baseline and endpoint URLs without user information.
 */
#include <string.h>
#include <stdlib.h>

#include "ctx.h"
#include "http.h"
#include "../../tools/binfer/binfer.h"
#include "tap.h"

static int
parse(enum binfer_engine e, int status, const char *body, int stream, struct binfer_result *r)
{
	binfer_result_init(r);
	return binfer_parse(e, status, body, strlen(body), stream, r);
}

static void
test_ollama(void)
{
	struct binfer_result r;
	int st;

	st = parse(BINFER_OLLAMA, 200, "{\"model\":\"m\",\"created_at\":\"x\",\"message\":"
	    "{\"role\":\"assistant\",\"content\":\"Hi.\"},\"done\":true,\"done_reason\":\"stop\","
	    "\"total_duration\":1500000000,\"load_duration\":250000000,\"prompt_eval_count\":11,"
	    "\"prompt_eval_duration\":13000000,\"eval_count\":18,\"eval_duration\":52000000}", 0, &r);
	TAP_IS_INT(st, BINFER_OK, "ollama: whole answer parses");
	TAP_IS_STR(r.content, "Hi.", "ollama: content");
	TAP_IS_INT(r.prompt_eval_count, 11, "ollama: prompt_eval_count");
	TAP_IS_INT(r.eval_count, 18, "ollama: eval_count");
	TAP_IS_STR(r.finish_reason, "stop", "ollama: done_reason");
	TAP_IS_REAL(r.total_ms, 1500, 1e-9, "ollama: total_duration in ms");
	TAP_IS_REAL(r.load_ms, 250, 1e-9, "ollama: load_duration in ms");
	TAP_IS_REAL(r.prompt_ms, 13, 1e-9, "ollama: prompt_eval_duration in ms");
	TAP_IS_REAL(r.eval_ms, 52, 1e-9, "ollama: eval_duration in ms");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 200,
	    "{\"message\":{\"role\":\"assistant\",\"content\":\"The \"},\"done\":false}\n"
	    "{\"message\":{\"role\":\"assistant\",\"content\":\"answer\",\"thinking\":\"hm\"},\"done\":false}\n"
	    "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"length\","
	    "\"prompt_eval_count\":5,\"eval_count\":2}\n", 1, &r);
	TAP_IS_INT(st, BINFER_OK, "ollama stream parses");
	TAP_IS_STR(r.content, "The answer", "ollama stream: content joined");
	TAP_IS_STR(r.thinking, "hm", "ollama stream: thinking kept apart");
	TAP_IS_STR(r.finish_reason, "length", "ollama stream: done_reason of the last line");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 200, "{\"message\":{\"role\":\"assistant\",\"content\":\"a\"},\"done\":false}\n", 1, &r);
	TAP_IS_INT(st, BINFER_RETRY, "ollama stream without done: retry");
	TAP_OK(r.error && strstr(r.error, "final"), "ollama stream without done: message (%s)", r.error);
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 200, "{\"message\":{\"content\":\"a\"},\"done\":false}\n{\"error\":\"model crashed\"}\n", 1, &r);
	TAP_IS_INT(st, BINFER_RETRY, "ollama stream error line: retry");
	TAP_IS_STR(r.error, "model crashed", "ollama stream error line: message");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 200, "{\"message\":{\"content\":", 0, &r);
	TAP_IS_INT(st, BINFER_RETRY, "ollama malformed JSON: retry");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 400, "{\"error\":\"the input length exceeds the context length\"}", 0, &r);
	TAP_IS_INT(st, BINFER_FAIL, "ollama overflow: final");
	TAP_OK(r.overflow, "ollama overflow: flagged");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 404, "{\"error\":\"model 'x' not found\"}", 0, &r);
	TAP_IS_INT(st, BINFER_FAIL, "404: final, no retry");
	TAP_IS_STR(r.error, "HTTP 404: model 'x' not found", "404: message");
	TAP_OK(!r.overflow, "404: not an overflow");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 503, "<html>busy</html>", 0, &r);
	TAP_IS_INT(st, BINFER_RETRY, "503: retry");
	TAP_IS_STR(r.error, "HTTP 503: <html>busy</html>", "503: body as message");
	binfer_result_release(&r);

	st = parse(BINFER_OLLAMA, 429, "{\"error\":\"too many requests\"}", 0, &r);
	TAP_IS_INT(st, BINFER_RETRY, "429: retry");
	binfer_result_release(&r);
}

static void
test_openai(void)
{
	struct binfer_result r;
	int st;

	st = parse(BINFER_OPENAI, 200, "{\"id\":\"c\",\"object\":\"chat.completion\",\"system_fingerprint\":\"fp_1\","
	    "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Yes.\"},"
	    "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,"
	    "\"total_tokens\":11}}", 0, &r);
	TAP_IS_INT(st, BINFER_OK, "openai: parses");
	TAP_IS_STR(r.content, "Yes.", "openai: content");
	TAP_IS_INT(r.prompt_eval_count, 9, "openai: usage.prompt_tokens");
	TAP_IS_INT(r.eval_count, 2, "openai: usage.completion_tokens");
	TAP_IS_STR(r.finish_reason, "stop", "openai: finish_reason");
	TAP_IS_STR(r.model_digest, "fp_1", "openai: system_fingerprint");
	binfer_result_release(&r);

	st = parse(BINFER_OPENAI, 200,
	    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
	    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello \"},\"finish_reason\":null}]}\r\n\r\n"
	    "data:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"there\"},\"finish_reason\":\"length\"}]}\n\n"
	    ": a comment\n"
	    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2}}\n\n"
	    "data: [DONE]\n\n", 1, &r);
	TAP_IS_INT(st, BINFER_OK, "openai stream: parses");
	TAP_IS_STR(r.content, "Hello there", "openai stream: deltas joined");
	TAP_IS_STR(r.finish_reason, "length", "openai stream: finish_reason");
	TAP_IS_INT(r.prompt_eval_count, 4, "openai stream: usage chunk");
	binfer_result_release(&r);

	st = parse(BINFER_OPENAI, 200, "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n", 1, &r);
	TAP_IS_INT(st, BINFER_RETRY, "openai stream without [DONE]: retry");
	binfer_result_release(&r);

	st = parse(BINFER_OPENAI, 400, "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available "
	    "context size, try increasing it\",\"type\":\"exceed_context_size_error\"}}", 0, &r);
	TAP_IS_INT(st, BINFER_FAIL, "llama.cpp overflow: final");
	TAP_OK(r.overflow, "llama.cpp overflow: flagged");
	binfer_result_release(&r);

	st = parse(BINFER_OPENAI, 400, "{\"object\":\"error\",\"message\":\"This model's maximum context length "
	    "is 4096 tokens. However, you requested 5000 tokens\",\"type\":\"BadRequestError\"}", 0, &r);
	TAP_OK(st == BINFER_FAIL && r.overflow, "vLLM overflow: flagged");
	binfer_result_release(&r);

	st = parse(BINFER_OPENAI, 401, "{\"error\":{\"message\":\"invalid api key\",\"code\":\"invalid_api_key\"}}", 0, &r);
	TAP_IS_INT(st, BINFER_FAIL, "401: final");
	TAP_IS_STR(r.error, "HTTP 401: invalid api key (invalid_api_key)", "401: message with code");
	binfer_result_release(&r);
}

static void
test_bodies(void)
{
	struct binfer_params p = { 0.0, 42, 1.0, 0, 1.0, 512, 128 };
	json_t *b = binfer_ollama_body("qwen3:8b", "sys", "usr", &p, 4096, 1, 0);
	json_t *extra = json_pack("{s:i,s:{s:b}}", "top_k", 0, "chat_template_kwargs", "enable_thinking", 0);
	char *s = json_compact(b, NULL);

	TAP_IS_STR(s, "{\"model\":\"qwen3:8b\",\"messages\":[{\"role\":\"system\",\"content\":\"sys\"},"
	    "{\"role\":\"user\",\"content\":\"usr\"}],\"stream\":false,\"think\":false,\"truncate\":false,"
	    "\"shift\":false,\"options\":{\"temperature\":0.0,\"seed\":42,\"top_p\":1.0,\"top_k\":0,"
	    "\"repeat_penalty\":1.0,\"num_predict\":512,\"num_ctx\":4096}}", "ollama body: every option explicit");
	free(s);
	json_decref(b);
	b = binfer_openai_body(SRV_OPENAI, "m", NULL, "usr", &p, 0, extra, 1);
	s = json_compact(b, NULL);
	TAP_IS_STR(s, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"usr\"}],"
	    "\"temperature\":0.0,\"seed\":42,\"top_p\":1.0,\"max_tokens\":512,\"stream\":true,"
	    "\"stream_options\":{\"include_usage\":true},\"top_k\":0,"
	    "\"chat_template_kwargs\":{\"enable_thinking\":false}}", "openai body: fixed fields then extras");
	free(s);
	json_decref(b);
	json_decref(extra);
}

/* The body of kind k for p, compact (malloc'd). */
static char *
dialect_body(enum binfer_server k, const struct binfer_params *p, int think_off)
{
	json_t *b = binfer_openai_body(k, "m", NULL, "u", p, think_off, NULL, 0);
	char *s = json_compact(b, NULL);

	json_decref(b);
	return s;
}

static void
test_dialects(void)
{
	struct binfer_params p = { 0.0, 42, 1.0, 0, 1.0, 512, 128 };
	const char *head = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"u\"}],"
	    "\"temperature\":0.0,\"seed\":42,\"top_p\":1.0,\"max_tokens\":512,";
	char *s, *want;
	json_t *extra;
	enum binfer_server k;

	s = dialect_body(SRV_LLAMACPP, &p, 1);
	want = xasprintf("%s\"n_predict\":512,\"top_k\":0,\"min_p\":0.0,\"repeat_penalty\":1.0,"
	    "\"cache_prompt\":false,\"chat_template_kwargs\":{\"enable_thinking\":false},\"stream\":false}", head);
	TAP_IS_STR(s, want, "llama.cpp: top_k, min_p 0, repeat_penalty, n_predict, cache_prompt false, thinking off");
	free(s);
	free(want);
	s = dialect_body(SRV_VLLM, &p, 0);
	want = xasprintf("%s\"top_k\":-1,\"min_p\":0.0,\"repetition_penalty\":1.0,\"stream\":false}", head);
	TAP_IS_STR(s, want, "vLLM: top_k 0 as -1, min_p, repetition_penalty");
	free(s);
	free(want);
	s = dialect_body(SRV_LMSTUDIO, &p, 1);
	want = xasprintf("%s\"top_k\":0,\"repeat_penalty\":1.0,\"stream\":false}", head);
	TAP_IS_STR(s, want, "LM Studio: top_k, repeat_penalty; thinking by /no_think, not in the body");
	free(s);
	free(want);
	s = dialect_body(SRV_OLLAMA_OPENAI, &p, 1);
	want = xasprintf("%s\"stream\":false}", head);
	TAP_IS_STR(s, want, "Ollama /v1: the standard fields only");
	free(s);
	free(want);
	s = binfer_unlocked(SRV_OPENAI, NULL);
	TAP_IS_STR(s, "top_k, repeat_penalty, num_ctx", "plain OpenAI: what cannot be locked");
	free(s);
	extra = json_pack("{s:i}", "top_k", 0);
	s = binfer_unlocked(SRV_OLLAMA_OPENAI, extra);
	TAP_IS_STR(s, "repeat_penalty, num_ctx", "--extra top_k: no longer unlocked");
	free(s);
	json_decref(extra);
	TAP_OK(binfer_unlocked(SRV_LLAMACPP, NULL) == NULL, "llama.cpp locks everything");
	TAP_OK(binfer_server_parse("llama.cpp", &k) == 0 && k == SRV_LLAMACPP, "--server llama.cpp");
	TAP_OK(binfer_server_parse("lmstudio", &k) == 0 && k == SRV_LMSTUDIO, "--server lmstudio");
	TAP_OK(binfer_server_parse("tgi", &k) < 0, "--server tgi: unknown");
	TAP_IS_STR(binfer_server_name(SRV_OLLAMA_OPENAI), "ollama-openai", "kind names");
}

static void
test_facts(void)
{
	json_t *show = json_loads("{\"model_info\":{\"general.architecture\":\"qwen3\","
	    "\"qwen3.context_length\":40960,\"qwen3.embedding_length\":4096}}", 0, NULL);
	json_t *tags = json_loads("{\"models\":[{\"name\":\"a:latest\",\"digest\":\"d1\"},"
	    "{\"model\":\"b:q8\",\"digest\":\"d2\"}]}", 0, NULL);
	char *d, *m;
	json_t *rec;

	TAP_IS_INT(binfer_ollama_show_ctx(show), 40960, "/api/show: model_info.<arch>.context_length");
	TAP_IS_INT(binfer_ollama_show_ctx(tags), -1, "/api/show without it: -1");
	TAP_OK(binfer_ollama_tags_digest(tags, "a", &d) == 0 && d && strcmp(d, "d1") == 0, "/api/tags: a is a:latest");
	free(d);
	TAP_OK(binfer_ollama_tags_digest(tags, "b:q8", &d) == 0 && d && strcmp(d, "d2") == 0, "/api/tags: model field");
	free(d);
	TAP_OK(binfer_ollama_tags_digest(tags, "c", &d) == 0 && d == NULL, "/api/tags: absent model");
	json_decref(show);
	json_decref(tags);
	m = binfer_mask(xstrdup("key sk-1 and sk-1 again"), "sk-1");
	TAP_IS_STR(m, "key [MASKED] and [MASKED] again", "every occurrence masked");
	free(m);
	m = binfer_mask(xstrdup("nothing"), "");
	TAP_IS_STR(m, "nothing", "an empty secret masks nothing");
	free(m);
	rec = json_pack("{s:s,s:{s:[s]}}", "error", "bad key sk-9", "judge", "raw", "x sk-9");
	TAP_IS_INT(binfer_mask_json(rec, "sk-9"), 2, "masked in nested strings");
	d = json_compact(rec, NULL);
	TAP_IS_STR(d, "{\"error\":\"bad key [MASKED]\",\"judge\":{\"raw\":[\"x [MASKED]\"]}}", "the record after masking");
	free(d);
	json_decref(rec);
}

static void
test_text(void)
{
	char *s;
	const char *err;
	json_t *v, *vars;

	s = binfer_strip_thinking("<think>\nplan\n</think>\n\nThe answer.  ");
	TAP_IS_STR(s, "The answer.", "thinking block removed, trimmed");
	free(s);
	s = binfer_strip_thinking("A <think>x</think>B<think>never closed");
	TAP_IS_STR(s, "A B", "two blocks, one unterminated");
	free(s);

	v = binfer_parse_verdict("Sure!\n```json\n{\"factual_accuracy\": 3, \"completeness\": 1, "
	    "\"hallucination_count\": 0, \"rationale\": \"ok\"}\n```", &err);
	TAP_OK(v != NULL, "verdict in a fenced block");
	TAP_IS_INT(json_integer_value(json_object_get(v, "factual_accuracy")), 3, "verdict: accuracy");
	TAP_IS_STR(json_string_value(json_object_get(v, "rationale")), "ok", "verdict: rationale");
	json_decref(v);
	v = binfer_parse_verdict("{\"note\": 1} then {\"factual_accuracy\": 1}", &err);
	TAP_OK(v && json_is_null(json_object_get(v, "completeness")), "verdict: second object, absent fields null");
	json_decref(v);
	v = binfer_parse_verdict("{\"factual_accuracy\": 4}", &err);
	TAP_OK(v == NULL && strstr(err, "0 to 3"), "verdict out of range: %s", err ? err : "");
	v = binfer_parse_verdict("{\"factual_accuracy\": 2, \"completeness\": 2}", &err);
	TAP_OK(v == NULL && strstr(err, "completeness"), "verdict bad completeness");
	v = binfer_parse_verdict("no json here", &err);
	TAP_OK(v == NULL && err, "no verdict");

	vars = json_pack("{s:s,s:s}", "question_text", "Why?", "gold_answer", "Because {x}.");
	s = binfer_fill_template("Q: {question_text}\nG: {gold_answer}\n{unknown} {not a name}", vars);
	TAP_IS_STR(s, "Q: Why?\nG: Because {x}.\n{unknown} {not a name}", "template filled once, unknowns kept");
	free(s);
	json_decref(vars);
}

static void
test_cache(void)
{
	struct binfer_result r, back;
	struct binfer_origin g, gback;
	char *s, *ep = NULL;
	size_t len;
	const char *h = "00aa";

	binfer_result_init(&r);
	r.content = xstrdup("x\ny");
	r.prompt_eval_count = 7;
	r.finish_reason = xstrdup("stop");
	r.total_ms = 12.5;
	binfer_origin_init(&g);
	g.body = xstrdup("{\"model\":\"m\",\"messages\":[]}");
	g.url = xstrdup("http://h/api/chat");
	g.warmups = 3;
	g.obtained = xstrdup("2026-01-02T03:04:05Z");
	g.body_sha256 = xstrdup("5e");
	g.server = xstrdup("ollama");
	s = binfer_cache_serialize(h, "ollama", "m", "http://h", &r, &g, &len);
	TAP_IS_STR(s, "{\"request_hash\":\"00aa\",\"engine\":\"ollama\",\"model\":\"m\","
	    "\"endpoint\":\"http://h\",\"result\":{\"content\":\"x\\ny\",\"thinking\":null,"
	    "\"prompt_eval_count\":7,\"eval_count\":null,\"finish_reason\":\"stop\","
	    "\"timings\":{\"total_ms\":12.5,\"load_ms\":null,\"prompt_ms\":null,"
	    "\"eval_ms\":null},\"model_digest\":null},\"request\":{\"body\":"
	    "\"{\\\"model\\\":\\\"m\\\",\\\"messages\\\":[]}\",\"body_sha256\":\"5e\","
	    "\"body_masked\":false,\"url\":\"http://h/api/chat\",\"server\":\"ollama\","
	    "\"server_version\":null,\"warmup_requests\":3,"
	    "\"obtained\":\"2026-01-02T03:04:05Z\"}}", "cache: the entry, byte for byte");
	TAP_OK(binfer_cache_parse(s, len, h, &back, &ep, &gback) == 1, "cache entry reads back");
	TAP_IS_STR(gback.body, g.body, "cache: the request's body stored with the answer");
	TAP_IS_STR(gback.url, "http://h/api/chat", "cache: the request's URL");
	TAP_IS_INT(gback.warmups, 3, "cache: the warm-up requests before it");
	TAP_IS_STR(gback.obtained, "2026-01-02T03:04:05Z", "cache: when it was obtained");
	TAP_IS_INT(gback.stored, 1, "cache: the entry holds its request");
	binfer_origin_release(&gback);
	binfer_origin_release(&g);
	TAP_IS_STR(back.content, "x\ny", "cache: content");
	TAP_IS_INT(back.prompt_eval_count, 7, "cache: count");
	TAP_IS_INT(back.eval_count, -1, "cache: absent count stays absent");
	TAP_IS_REAL(back.total_ms, 12.5, 1e-9, "cache: timing");
	TAP_IS_STR(ep, "http://h", "cache: endpoint");
	binfer_result_release(&back);
	TAP_OK(binfer_cache_parse(s, len, "00ab", &back, NULL, NULL) == 0, "cache: another hash is a miss");
	TAP_OK(binfer_cache_parse(s, len / 2, h, &back, NULL, NULL) == 0, "cache: a half entry is a miss");
	free(s);
	/* an entry written before binfer stored requests: a hit without one */
	s = binfer_cache_serialize(h, "ollama", "m", "http://h", &r, NULL, &len);
	TAP_OK(binfer_cache_parse(s, len, h, &back, NULL, &gback) == 1 && !gback.stored &&
	    gback.body == NULL, "cache: an entry without its request is a hit that says so");
	binfer_result_release(&back);
	binfer_origin_release(&gback);
	free(s);
	free(ep);
	binfer_result_release(&r);
}

static void
test_extractive(void)
{
	const char *content = "# Limits\n\nThe API allows 100 requests per minute per key. "
	    "Keys are 32 characters long.\n\n<doc title=\"Auth\">Authentication uses a bearer token.</doc>\n"
	    "Webhooks retry for three days.";
	char *a = binfer_extractive_answer("How many requests per minute does the API allow?", content, 1);
	char *b = binfer_extractive_answer("How many requests per minute does the API allow?", content, 1);
	char *c;

	TAP_IS_STR(a, "The API allows 100 requests per minute per key.", "extractive: best sentence");
	TAP_IS_STR(a, b, "extractive: deterministic");
	free(a);
	free(b);
	a = binfer_extractive_answer("How does authentication work, and for how many days do webhooks retry?", content, 2);
	TAP_IS_STR(a, "Authentication uses a bearer token. Webhooks retry for three days.",
	    "extractive: two sentences in document order, tags dropped");
	free(a);
	c = binfer_extractive_answer("zebra?", content, 3);
	TAP_IS_STR(c, "", "extractive: nothing matches");
	free(c);
}

/* http_url_public: url without user information, else as it is */
static void
test_url_public(void)
{
	static const char *const cases[][2] = {
		{ "http://user:pw@127.0.0.1:8080", "http://127.0.0.1:8080" },
		{ "http://user:pw@127.0.0.1:8080/", "http://127.0.0.1:8080/" },
		{ "https://u:p%40ss@Host.example:8443/v1/chat/completions?x=1#f",
		  "https://Host.example:8443/v1/chat/completions?x=1#f" },
		{ "http://:pw@[::1]:11434/api/chat", "http://[::1]:11434/api/chat" },
		{ "http://user@h/x", "http://h/x" },
		{ "http://u:p;auth=NTLM@h:1", "http://h:1" },
		{ "u:p@proxy.example:3128", "http://proxy.example:3128" },
		/* no user information: the text as it was given, not libcurl's */
		{ "http://127.0.0.1:8080", "http://127.0.0.1:8080" },
		{ "HTTP://h/a/../b", "HTTP://h/a/../b" },
		{ "proxy.example:3128", "proxy.example:3128" },
		/* what libcurl cannot parse is never echoed */
		{ "http://u:secret@ho st/", HTTP_URL_UNPARSABLE },
		{ "http://a@b@c/x", HTTP_URL_UNPARSABLE },
	};
	size_t i;
	char *got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = http_url_public(cases[i][0]);
		TAP_IS_STR(got, cases[i][1], "url without user information: %s", cases[i][0]);
		free(got);
	}
}

int
main(void)
{
	err_init("unit-engine");
	test_ollama();
	test_openai();
	test_bodies();
	test_dialects();
	test_facts();
	test_text();
	test_cache();
	test_extractive();
	test_url_public();
	return tap_done();
}
