/*
 * engine.c - binfer's engines by name, and the dispatcher of answers: an
 * HTTP error is read here, whatever the protocol; an answer of status 200
 * goes to its protocol's parser (ollama.c, openai.c).  The helpers those
 * parsers share are beneath them in proto.c.
 */
#include <string.h>

#include "ctx.h"
#include "binfer.h"

#define SNIPPET_MAX 160		/* bytes of a body that is no error object */

const char *
binfer_engine_name(enum binfer_engine e)
{
	switch (e) {
	case BINFER_OLLAMA: return "ollama";
	case BINFER_OPENAI: return "openai";
	case BINFER_EXTRACTIVE: return "extractive";
	}
	return "?";
}

int
binfer_engine_parse(const char *s, enum binfer_engine *out)
{
	if (strcmp(s, "ollama") == 0)
		*out = BINFER_OLLAMA;
	else if (strcmp(s, "openai") == 0)
		*out = BINFER_OPENAI;
	else if (strcmp(s, "extractive") == 0)
		*out = BINFER_EXTRACTIVE;
	else
		return -1;
	return 0;
}

/* The start of a body that is no error object, on one line; malloc'd. */
static char *
snippet(const char *body, size_t len)
{
	char s[SNIPPET_MAX + 1];
	size_t n = len < SNIPPET_MAX ? len : SNIPPET_MAX, i;

	for (i = 0; i < n; i++)
		s[i] = (body[i] == '\n' || body[i] == '\r') ? ' ' : body[i];
	s[n] = '\0';
	return xstrdup(s);
}

/*
 * An answer of another status than 200: r->error "HTTP STATUS: MESSAGE";
 * an overflow is final, 429 and 5xx are worth a retry, the rest is final.
 */
static int
http_error(int http_status, const char *body, size_t len, struct binfer_result *r)
{
	json_t *o = json_loadb(body, len, 0, NULL);
	char *em = binfer_error_message(o);
	int st;

	json_decref(o);
	if (!em)
		em = snippet(body, len);
	free(r->error);
	r->error = xasprintf("HTTP %d: %s", http_status, em);
	if (binfer_is_overflow_message(em) && http_status != 429) {
		r->overflow = 1;
		st = BINFER_FAIL;
	} else {
		st = (http_status == 429 || http_status >= 500) ? BINFER_RETRY : BINFER_FAIL;
	}
	free(em);
	return st;
}

int
binfer_parse(enum binfer_engine e, int http_status, const char *body, size_t len,
    int stream, struct binfer_result *r)
{
	if (http_status != 200)
		return http_error(http_status, body, len, r);
	if (e == BINFER_OLLAMA)
		return binfer_parse_ollama(body, len, stream, r);
	return binfer_parse_openai(body, len, stream, r);
}
