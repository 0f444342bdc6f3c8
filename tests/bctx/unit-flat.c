/*
 * unit-flat.c - bctx's flat record reader (tools/bctx/flat.c) against
 * json_loadb, the common reader's judge: every line the flat reader takes
 * is one json_loadb (rejecting repeated keys) accepts as the same object,
 * value for value and key for key in order.  The lines are record lines
 * and thousands of mutations of them (a byte replaced, inserted or
 * removed, from a fixed seed); a line the flat reader refuses goes to the
 * common reader, so refusing is always allowed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/bctx/bctx.h"

static const char *const seeds[] = {
	"{\"site_id\":\"S001\",\"url\":\"https://e.org/a.md\",\"condition\":\"B\","
	    "\"fetch_status\":\"SUCCESS\",\"http_status\":200,\"archive_path\":"
	    "\"0.md\",\"last_modified\":null,\"markdown\":\"# A\\n\\nx \\\"y\\\" "
	    "\\u00e9\\/z\\t\",\"content_chars\":12}",
	"{\"kind\": \"link\", \"site_id\": \"S001\", \"section\": \"Docs\", "
	    "\"optional\": false, \"title\": \"T\", \"url\": \"https://e.org/b\", "
	    "\"description\": null, \"line\": 7}",
	"{\"kind\":\"llms\",\"site_id\":\"S1\",\"title\":\"T\",\"sections\":"
	    "[\"A\",\"B\",[1,2.5,-3e2,true,null]],\"link_count\":-0,\"r\":1.0E+2}",
	"  {\"a\":[], \"b\":{}, \"c\":\"\\ud83d\\ude00\", \"d\":0.5e-3}\t",
	"{\"k\":\"caf\xc3\xa9 \xe2\x82\xac\",\"n\":123456789012345678}",
	/* what jansson reads its own way or refuses: never taken flat */
	"{\"a\":\"x\\u0000y\"}",
	"{\"a\":\"\\ud800\"}",
	"{\"a\":1,\"a\":2}",
	"{\"a\":1,\"\\u0061\":2}",
	"{\"a\":1e999}",
	"{\"a\":99999999999999999999}",
	"{\"a\":[{\"b\":1,\"b\":2}]}",
	"{\"a\":\"\\u0041\\b\\f\\r\\/\"}",
};
#define NSEEDS (sizeof seeds / sizeof *seeds)

static const char pick[] = "\"\\{}[],:0123456789eE.-+ tfnul\t\x01\x7f/a\xc3\xa9";

static uint32_t
next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A mutation of seed into out (no newline in it): a byte replaced,
 * inserted or removed, once to three times. */
static size_t
mutate(const char *seed, char *out, size_t cap, uint32_t *rs)
{
	size_t n = strlen(seed), k, at;
	int times = 1 + (int)(next_rand(rs) % 3), t;

	memcpy(out, seed, n);
	for (t = 0; t < times && n > 0 && n + 1 < cap; t++) {
		at = next_rand(rs) % n;
		k = next_rand(rs) % 3;
		if (k == 0)
			out[at] = pick[next_rand(rs) % (sizeof pick - 1)];
		else if (k == 1) {
			memmove(out + at + 1, out + at, n - at);
			out[at] = pick[next_rand(rs) % (sizeof pick - 1)];
			n++;
		} else {
			memmove(out + at, out + at + 1, n - at - 1);
			n--;
		}
	}
	return n;
}

#define NLINES 20000

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096], line[512];
	char **orig = calloc(NLINES, sizeof *orig);
	size_t nflat = 0, njson = 0, bad = 0, i, n;
	struct bctx_reader r;
	struct bctx_flat rec;
	uint32_t rs = 2463534242u;
	FILE *fp;
	int fd, k;

	ctx_init("unit-flat");
	snprintf(path, sizeof path, "%s/unit-flat.XXXXXX", tmp && *tmp ? tmp :
	    "/tmp");
	fd = mkstemp(path);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (fp == NULL || orig == NULL)
		return 1;
	for (i = 0; i < NLINES; i++) {
		const char *seed = seeds[i % NSEEDS];

		n = i < NSEEDS ? strlen(seed) : mutate(seed, line, sizeof line,
		    &rs);
		if (i < NSEEDS)
			memcpy(line, seed, n);
		orig[i] = malloc(n + 1);
		memcpy(orig[i], line, n);
		orig[i][n] = '\0';
		fprintf(fp, "%s\n", orig[i]);
	}
	fclose(fp);
	bctx_reader_open(&r, path);
	while ((k = bctx_reader_next(&r, &rec)) != BCTX_READ_END) {
		const char *want = orig[r.lineno - 1];
		json_t *got, *ref;
		char *g, *w;

		if (k != BCTX_READ_FLAT) {
			njson++;
			continue;
		}
		nflat++;
		got = bctx_flat_object(&rec);
		ref = json_loadb(want, strlen(want), JSON_REJECT_DUPLICATES, NULL);
		g = json_dumps(got, JSON_COMPACT);
		w = ref ? json_dumps(ref, JSON_COMPACT) : NULL;
		if (w == NULL || strcmp(g, w) != 0 || !json_equal(got, ref)) {
			if (bad++ < 5)
				printf("# line %lu: %s\n#   flat: %s\n#   jansson: %s\n",
				    r.lineno, want, g, w ? w : "(refused)");
		}
		free(g);
		free(w);
		json_decref(got);
		json_decref(ref);
	}
	bctx_reader_close(&r);
	unlink(path);
	TAP_IS_INT(bad, 0, "every line taken flat is json_loadb's same object "
	    "(%zu taken, %zu refused)", nflat, njson);
	TAP_OK(nflat > 1000 && njson > 1000, "both readings exercised");
	for (i = 0; i < NLINES; i++)
		free(orig[i]);
	free(orig);
	return tap_done();
}
