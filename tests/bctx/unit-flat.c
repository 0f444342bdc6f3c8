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
	/* arrays of strings alone, which the flat reader builds itself */
	"{\"kind\":\"llms\",\"sections\":[\"Docs\", \"A \\\"q\\\" \\u00e9\\n\","
	    "\"\",\"caf\xc3\xa9\\/\\\\\"],\"optional\":[ ],\"n\":2}",
	"{\"t\":[ \"x\" ,\t\"\xf0\x9f\x98\x80\\t\" ], \"u\":[\"\\u00e9\\r\"],"
	    "\"v\":[\"y\"]}",
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
#define STRS_SEED 5	/* the first of the two seeds with arrays of strings */

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

/*
 * Long strings: one piece that needs care (an escape, UTF-8 of two to
 * four bytes, a control byte, a byte that is no UTF-8) at each position
 * modulo eight around the reader's eight-byte steps, near a string's
 * start and end, in strings of several lengths; and two pieces apart.
 */
static const char *const pieces[] = { "\\n", "\\\"", "\\\\", "\\/",
	"\\u00e9", "\\u20ac", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
	"\x7f", "\\ud83d\\ude00", "\x01", "\xff", "\\u0000", "\\x" };
#define NPIECES (sizeof pieces / sizeof *pieces)
static const size_t plens[] = { 8, 9, 15, 16, 17, 63, 64, 65, 300 };
#define NPLENS (sizeof plens / sizeof *plens)
#define NPOS 20
#define NLONG (NPIECES * NPLENS * NPOS * 2 + NPIECES * NPIECES)

/* Long line i (0 <= i < NLONG) into out: its length. */
static size_t
long_line(size_t i, char *out)
{
	size_t n = 0, len, at, k, k2;
	char body[400];

	if (i < NPIECES * NPLENS * NPOS * 2) {
		k = i % NPIECES;
		len = plens[i / NPIECES % NPLENS];
		at = i / (NPIECES * NPLENS) % NPOS;
		if (i >= NPIECES * NPLENS * NPOS)	/* counted from the end */
			at = len > at ? len - at : 0;
		memset(body, 'x', len);
		body[len] = '\0';
		n = (size_t)snprintf(out, 1024, "{\"site_id\":\"S1\",\"markdown\":"
		    "\"%.*s%s%s\",\"n\":1}", (int)at, body, pieces[k], body + at);
	} else {
		k = (i - NPIECES * NPLENS * NPOS * 2) % NPIECES;
		k2 = (i - NPIECES * NPLENS * NPOS * 2) / NPIECES;
		memset(body, 'y', 37);
		body[37] = '\0';
		n = (size_t)snprintf(out, 1024, "{\"t\":\"%s%s%s%s%s\"}", body,
		    pieces[k], body + 30, pieces[k2], body);
	}
	return n;
}

/*
 * bctx_flat_keep: a short string before a long line is copied, a long
 * string before a short line takes the reader's buffer; both stay whole
 * while the reader goes on, and the lines after them read as written.
 */
static void
keep_test(const char *dir)
{
	char path[4096], *own[3] = { NULL, NULL, NULL }, *big = malloc(9001);
	const char *kept[3] = { NULL, NULL, NULL };
	struct bctx_reader r;
	struct bctx_flat rec;
	size_t i;
	int fd, ok = 1;
	FILE *fp;

	snprintf(path, sizeof path, "%s/unit-flat-keep.XXXXXX", dir);
	fd = mkstemp(path);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (fp == NULL || big == NULL) {
		TAP_OK(0, "bctx_flat_keep: a file to read");
		free(big);
		return;
	}
	for (i = 0; i < 9000; i++)
		big[i] = (char)('a' + i % 26);
	big[9000] = '\0';
	/* the long line's string written with escapes: decoded in place */
	fprintf(fp, "{\"m\":\"ab\"}\n{\"m\":\"%.4000s\\n%s\"}\n{\"m\":\"cd\"}\n",
	    big, big + 4000);
	fclose(fp);
	bctx_reader_open(&r, path);
	for (i = 0; i < 3; i++) {
		if (bctx_reader_next(&r, &rec) != BCTX_READ_FLAT) {
			ok = 0;
			break;
		}
		kept[i] = bctx_flat_keep(&rec, bctx_flat_get(&rec, "m"), &own[i]);
	}
	TAP_IS_INT(bctx_reader_next(&r, &rec), BCTX_READ_END,
	    "bctx_flat_keep: the reader goes on to the end");
	bctx_reader_close(&r);
	unlink(path);
	TAP_OK(ok && strcmp(kept[0], "ab") == 0 && strcmp(kept[2], "cd") == 0,
	    "bctx_flat_keep: the short strings kept");
	TAP_OK(ok && strlen(kept[1]) == 9001 && memcmp(kept[1], big, 4000) == 0 &&
	    kept[1][4000] == '\n' && strcmp(kept[1] + 4001, big + 4000) == 0,
	    "bctx_flat_keep: the long string kept whole, decoded, past the next "
	    "line");
	TAP_OK(ok && own[1] != NULL && kept[1] != own[1] && own[0] == kept[0],
	    "bctx_flat_keep: the long string in the reader's buffer, the short "
	    "one copied");
	for (i = 0; i < 3; i++)
		free(own[i]);
	free(big);
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096], line[1024];
	char **orig = calloc(NLINES + NLONG, sizeof *orig);
	size_t nflat = 0, njson = 0, nlong = 0, nstrs = 0, bad = 0, i, n;
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
	if (fp == NULL || orig == NULL) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(orig);
		return 1;
	}
	for (i = 0; i < NLINES + NLONG; i++) {
		const char *seed = seeds[i % NSEEDS];

		if (i >= NLINES)
			n = long_line(i - NLINES, line);
		else
			n = i < NSEEDS ? strlen(seed) : mutate(seed, line,
			    sizeof line, &rs);
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
		nlong += r.lineno > NLINES;
		nstrs += r.lineno == STRS_SEED + 1 || r.lineno == STRS_SEED + 2;
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
	TAP_IS_INT(nstrs, 2, "the arrays of strings alone taken flat");
	/* the first ten pieces are taken flat, the last five never */
	TAP_IS_INT(nlong, NPLENS * NPOS * 2 * 10 + 10 * 10, "long strings: "
	    "those without a control byte, a byte that is no UTF-8 or an escape "
	    "jansson reads its own way, taken flat");
	for (i = 0; i < NLINES + NLONG; i++)
		free(orig[i]);
	free(orig);
	keep_test(tmp && *tmp ? tmp : "/tmp");
	return tap_done();
}
