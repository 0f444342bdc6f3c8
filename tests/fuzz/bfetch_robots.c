/*
 * bfetch_robots.c - libFuzzer target for bfetch's robots.txt parser and
 * matcher (tools/bfetch/robots.c).  The input is split at the first NUL:
 * robots.txt text, then a path to match.  Invariants: /robots.txt is always
 * allowed; a path is allowed or not the same way twice; a deciding rule is
 * reported exactly when the path is disallowed by a parsed rule set.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bfetch/bfetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t tl = nul ? (size_t)(nul - data) : size;
	char *path;
	struct bfetch_robots *r;
	const char *rule;
	int a;

	if (size > 65536)
		return 0;
	path = nul ? xstrndup((const char *)nul + 1, size - tl - 1) : xstrdup("/");
	r = bfetch_robots_parse((const char *)data, tl, "LlmsTxtBenchmark");
	a = bfetch_robots_allowed(r, path, &rule);
	assert(a == bfetch_robots_allowed(r, path, NULL));
	assert(a || rule != NULL);
	assert(bfetch_robots_allowed(r, "/robots.txt", NULL));
	bfetch_robots_free(r);
	free(path);
	return 0;
}
