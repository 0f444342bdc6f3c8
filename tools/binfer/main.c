/*
 * binfer - deterministic inference against local model servers
 * (spec 001 §4.1, §4.6, §4.7; the LLM-as-judge first pass of 000 §10).
 *
 * Reads context records (bctx assemble, counted by btok), sends each prompt
 * to a model server with the locked parameters of 001 §4.6 and writes one
 * response record per context, in input order, as soon as it is done.  The
 * parts are listed in binfer.h; the records are described in man/binfer.1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "run.h"

/* Request headers; the API key's value is also the secret to mask. */
static struct curl_slist *
make_headers(const struct binfer_opts *o, const char **secret)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	char *auth;

	h = curl_slist_append(h, "Expect:");
	*secret = NULL;
	if (!o->api_key_env)
		return h;
	*secret = getenv(o->api_key_env);
	if (!*secret || !**secret)
		die("--api-key-env: environment variable %s is not set", o->api_key_env);
	auth = xasprintf("Authorization: Bearer %s", *secret);
	h = curl_slist_append(h, auth);
	memset(auth, 0, strlen(auth));
	free(auth);
	return h;
}

int
main(int argc, char **argv)
{
	struct binfer_opts o;
	struct binfer_run R;
	int i, rc;

	ctx_init(argv[0]);
	binfer_opts_parse(&o, argc, argv);
	memset(&R, 0, sizeof(R));
	R.n.t_start = now_seconds();
	R.o = &o;
	R.kind = o.server;
	R.ctx = -1;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		die("curl_global_init failed");
	R.headers = make_headers(&o, &R.secret);
	R.nep = o.nep;
	R.ep = xcalloc((size_t)o.nep, sizeof(*R.ep));
	for (i = 0; i < o.nep; i++) {
		R.ep[i].url = o.endpoints[i];
		R.ep[i].name = http_url_public(o.endpoints[i]);
	}
	if (o.engine != BINFER_EXTRACTIVE)
		binfer_endpoints_probe(&R);
	if (o.output)
		ndj_output_open(o.output);
	ctx_catch_signals();
	rc = binfer_verdict(&R, binfer_schedule(&R));
	/*
	 * Records that failed are in a whole output, committed; a run that
	 * stopped early commits nothing (the temporary goes at exit) and
	 * resumes from the cache.  The summary comes last.
	 */
	if (R.stop == STOP_NONE)
		ndj_output_close();
	else if (fflush(stdout) == EOF && errno != EPIPE)
		warn_errno("write error");
	binfer_summary(&R);
	for (i = 0; i < R.nep; i++) {
		binfer_server_info_release(&R.ep[i].si);
		free(R.ep[i].name);
	}
	free(R.ep);
	curl_slist_free_all(R.headers);
	curl_global_cleanup();
	binfer_opts_free(&o);
	if (rc == 0)
		ctx_exit();
	exit(rc);
}
