/*
 * bctx_url.c - libFuzzer target for bctx's URL normaliser and mapping rules
 * (tools/bctx/url.c, map.c) and the reference-name lower-casing
 * (render.c).  Invariants checked: the key is idempotent; an HTML URL
 * listed in the llms.txt as itself maps to it (rule same-url); a .md URL
 * maps to itself for B; py_lower returns valid UTF-8.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bctx/bctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *k, *h, *l, *cand[BCTX_MAXCAND];
	const char *rule[BCTX_MAXCAND];
	size_t n, i;
	struct buf b = BUF_INIT;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	k = bctx_url_key(s);
	if (k) {
		char *k2 = bctx_url_key(k);
		assert(k2 && strcmp(k, k2) == 0);
		free(k2);
	}
	h = bctx_md_to_html(s);
	assert((h != NULL) == (k != NULL && bctx_url_kind(s) == BCTX_URL_MD));
	free(h);
	n = bctx_md_candidates(s, cand, rule);
	assert(n <= BCTX_MAXCAND);
	for (i = 0; i < n; i++)
		free(cand[i]);
	l = bctx_py_lower(s);
	if (utf8_valid(s, size, NULL) && memchr(s, 0, size) == NULL)
		assert(utf8_valid(l, strlen(l), NULL));
	free(l);
	bctx_ref_attr(&b, "title", s);
	buf_release(&b);

	if (utf8_valid(s, strlen(s), NULL) && bctx_url_is_http(s)) {
		struct bctx_env e;
		struct bctx_map m;
		json_t *link = json_pack("{s:s,s:s,s:s,s:s}", "kind", "link",
		    "site_id", "S001", "url", s, "section", "Docs");

		bctx_env_init(&e);
		bctx_env_add_llms(link, &e);
		bctx_map_url(&e, "S001", s, &m);
		assert(m.b_url != NULL);
		if (bctx_url_kind(s) == BCTX_URL_HTML)
			assert(strcmp(m.b_rule, "same-url") == 0);
		bctx_map_release(&m);
		json_decref(link);
		bctx_env_free(&e);
	}
	free(s);
	free(k);
	return 0;
}
