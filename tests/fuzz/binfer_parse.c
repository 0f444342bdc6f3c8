/*
 * binfer_parse.c - libFuzzer target for what binfer reads from servers and
 * judges: the Ollama and OpenAI answer parsers (whole and streamed, any HTTP
 * status), thinking-block removal, the verdict parser, cache entries and
 * the extractive baseline.  The first byte picks the engine, the stream flag
 * and the status; the rest is the body.  Nothing may crash or leak, and a
 * parsed answer must survive a cache round trip.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/binfer/binfer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int statuses[] = { 200, 200, 200, 400, 429, 500, 503, 404 };
	struct binfer_result r, back;
	char *body, *s, *e;
	const char *err;
	json_t *v;
	int st, sel;
	size_t len;

	if (size < 1)
		return 0;
	sel = data[0];
	body = xstrndup((const char *)data + 1, size - 1);
	len = strlen(body);
	binfer_result_init(&r);
	st = binfer_parse(sel & 1 ? BINFER_OPENAI : BINFER_OLLAMA, statuses[(sel >> 2) & 7],
	    body, len, (sel >> 1) & 1, &r);
	if (st == BINFER_OK) {
		if (r.content == NULL)
			abort();
		s = binfer_cache_serialize("ab", "ollama", "m", NULL, &r, NULL, &len);
		if (binfer_cache_parse(s, len, "ab", &back, NULL, NULL) != 1 ||
		    strcmp(back.content, r.content) != 0 ||
		    back.prompt_eval_count != r.prompt_eval_count)
			abort();
		binfer_result_release(&back);
		free(s);
	} else if (r.error == NULL) {
		abort();
	}
	binfer_result_release(&r);
	s = binfer_strip_thinking(body);
	free(s);
	v = binfer_parse_verdict(body, &err);
	if (!v && !err)
		abort();
	json_decref(v);
	e = memchr(body, '?', strlen(body));
	s = binfer_extractive_answer(e ? e + 1 : body, body, 2);
	free(s);
	free(body);
	return 0;
}
