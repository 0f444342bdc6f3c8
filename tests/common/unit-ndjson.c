/*
 * unit-ndjson.c - the record loop reads what jansson reads: every line,
 * handed to ndj_next_err, gives the record json_loadb (with
 * JSON_REJECT_DUPLICATES) gives, with the same types, keys in the same
 * order and the same compact form, or the same message; on hand-written
 * cases (repeated keys, \u0000, surrogates, form feeds, numbers out of
 * range, deep nesting, values that are not objects, malformed text) and
 * on seeded mutations of valid records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ndjson.h"
#include "tap.h"

/* What json_loadb makes of line: the record's compact form, or the
 * message ndjson.h promises for it ("invalid JSON at column ...", "expected
 * a JSON object, got ..."), or none for a blank line, which is skipped. */
static char *
reference(const char *line)
{
	size_t n = strlen(line);
	json_error_t e;
	json_t *v;
	struct buf b = BUF_INIT;

	if (n > 0 && line[n - 1] == '\r')	/* the loop drops a final CR */
		n--;
	if (strspn(line, " \t\r") >= n)	/* and skips a blank line */
		return xstrdup("error: (end of input)");
	v = json_loadb(line, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);

	if (v == NULL) {
		buf_addf(&b, "error: invalid JSON at column %d: %s", e.column,
		    e.text);
	} else if (!json_is_object(v)) {
		buf_adds(&b, "error: not an object");
	} else {
		buf_adds(&b, "record: ");
		json_compact_buf(&b, v);
	}
	json_decref(v);
	return buf_detach(&b, NULL);
}

/* What the record loop makes of line, in the form of reference(). */
static char *
loop(const char *line, json_t **rec)
{
	struct ndj_reader r;
	struct buf b = BUF_INIT, in = BUF_INIT;
	char *msg;
	json_t *v;
	FILE *fp;

	buf_adds(&in, line);
	buf_addc(&in, '\n');
	fp = fmemopen(in.s, in.len, "r");
	ndj_reader_init(&r, fp, "t");
	v = ndj_next_err(&r, &msg);
	if (v == NULL && msg && strncmp(msg, "expected a JSON object", 22) == 0)
		buf_adds(&b, "error: not an object");
	else if (v == NULL)
		buf_addf(&b, "error: %s", msg ? msg : "(end of input)");
	else {
		buf_adds(&b, "record: ");
		json_compact_buf(&b, v);
	}
	*rec = v;
	free(msg);
	ndj_reader_close(&r);
	fclose(fp);
	buf_release(&in);
	return buf_detach(&b, NULL);
}

/* One line through both; 1 when they agree. */
static int
agree(const char *line, int verbose)
{
	char *want = reference(line), *got;
	json_t *rec, *ref;
	int ok;

	got = loop(line, &rec);
	ok = strcmp(got, want) == 0;
	if (ok && rec) {
		ref = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
		ok = json_equal(rec, ref);	/* types: 1 is not 1.0 */
		json_decref(ref);
	}
	if (!ok && verbose)
		printf("#   line %s\n#   got  %s\n#   want %s\n", line, got, want);
	json_decref(rec);
	free(got);
	free(want);
	return ok;
}

static const char *const CASES[] = {
	"{}",
	"{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":{\"e\":true,\"f\":false}}",
	"{\"z\":1,\"a\":2,\"m\":3}",
	"{\"a\":1,\"a\":2}",
	"{\"o\":{\"k\":1,\"k\":1}}",
	"{\"l\":[{\"x\":1},{\"x\":1,\"x\":2}]}",
	"{\"\":0,\"\\u0041\":1,\"A\":2}",
	"{\"s\":\"a\\u0000b\"}",
	"{\"a\\u0000\":1}",
	"{\"s\":\"\\ud83d\\ude00\"}",
	"{\"s\":\"\\ud83d\"}",
	"{\"s\":\"\\ude00\"}",
	"{\"s\":\"\\ud83dx\"}",
	"{\"s\":\"\\ud83d\\u0041\"}",
	"{\"s\":\"\\\\ud83d\"}",
	"{\"s\":\"\\u00e9\\n\\t\\\"\\\\\\/\\b\\f\\r\"}",
	"{\"s\":\"\\x41\"}",
	"{\"s\":\"\\u12\"}",
	"{\"s\":\"tab\there\"}",
	"{\"s\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}",
	"{\"a\":1}\f",
	"{\f\"a\":1}",
	"{\v\"a\":1}",
	"{ \"a\" :\t1 ,\r\"b\" : 2 }",
	"{\"i\":9223372036854775807,\"j\":-9223372036854775808}",
	"{\"i\":9223372036854775808}",
	"{\"i\":-9223372036854775809}",
	"{\"i\":100000000000000000000000000000}",
	"{\"r\":1e400}",
	"{\"r\":-1e400}",
	"{\"r\":1e-400}",
	"{\"r\":4.9e-324,\"q\":2.2250738585072014e-308}",
	"{\"r\":0.1,\"s\":1.0,\"t\":1e2,\"u\":1E+2,\"v\":-0.0,\"w\":-0,\"x\":0}",
	"{\"r\":0.30000000000000004,\"s\":123456789.123456789}",
	"{\"r\":01}",
	"{\"r\":1.}",
	"{\"r\":.5}",
	"{\"r\":+1}",
	"{\"r\":-}",
	"{\"r\":0x10}",
	"{\"r\":NaN}",
	"{\"r\":Infinity}",
	"{\"r\":1e}",
	"{\"b\":TRUE}",
	"{\"b\":tru}",
	"{\"b\":nul}",
	"{'a':1}",
	"{a:1}",
	"{\"a\":1,}",
	"{\"a\":[1,]}",
	"{\"a\":1 /* c */}",
	"{\"a\":1} // c",
	"{\"a\":1}{\"b\":2}",
	"{\"a\":1} x",
	"{\"a\":1",
	"{\"a\"}",
	"{\"a\":}",
	"{,}",
	"[1,2]",
	"[]",
	"\"s\"",
	"3",
	"null",
	"true",
	"}",
	"{\"a\":\"unterminated}",
	/* after the root: what yajl's lexer would wait on, and every token */
	"{\"\":\"&\"}\"a5{",
	"{\"a\":1}\"",
	"{\"a\":1}\"x",
	"{\"a\":1}\"\\",
	"{\"a\":1}\"\\u12",
	"{\"a\":1}t",
	"{\"a\":1}tru",
	"{\"a\":1}true",
	"{\"a\":1}n",
	"{\"a\":1}f",
	"{\"a\":1}1",
	"{\"a\":1}-",
	"{\"a\":1}-1.5e",
	"{\"a\":1}0",
	"{\"a\":1}{",
	"{\"a\":1}[",
	"{\"a\":1}}",
	"{\"a\":1}]",
	"{\"a\":1},",
	"{\"a\":1}:",
	"{\"a\":1}/",
	"{\"a\":1}/*",
	"{\"a\":1}#",
	"{\"a\":1}\\",
	"{\"a\":1}\x7f",
	"{\"a\":1}\xc3\xa9",
	"{\"a\":1}\xef\xbb\xbf",
	"{\"a\":1} \t ",
	"{\"a\":1}\r\r",
	"{\"a\":1}\t\"",
	"{\"a\":1} {\"b\":",
	"{\"a\":{\"b\":1}}\"",
	"{\"a\":[1]}x",
	/* before the root */
	"\xef\xbb\xbf{\"a\":1}",
	" \t{\"a\":1}",
	"\r{\"a\":1}",
	"\"{\"a\":1}",
	/* numbers */
	"{\"r\":-0,\"s\":-0.0,\"t\":0e0,\"u\":-0E-0,\"v\":0.0e+0}",
	"{\"r\":1e308,\"s\":1.7976931348623157e308,\"t\":1.8e308}",
	"{\"r\":-1.8e308}",
	"{\"r\":1e-324,\"s\":-1e-400,\"t\":2.4703282292062327e-324}",
	"{\"r\":123456789012345678901234567890.5}",
	"{\"r\":0.000000000000000000000000000001}",
	"{\"i\":-0000}",
	"{\"i\":00}",
	"{\"i\":-01}",
	"{\"i\":1.5e+}",
	"{\"i\":1e+-5}",
	"{\"i\":1..5}",
	"{\"i\":--1}",
	"{\"i\":1-}",
	"{\"i\":1e5.5}",
	"{\"i\":99999999999999999999e-20}",
	"{\"i\":9223372036854775807.0}",
	"{\"i\":-9223372036854775808,\"j\":-9223372036854775807}",
	/* strings */
	"{\"s\":\"\\u0000\"}",
	"{\"\\u0000\":1}",
	"{\"s\":\"\\u0001\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff\"}",
	"{\"s\":\"\\uD800\\uDC00\"}",
	"{\"s\":\"\\uDBFF\\uDFFF\"}",
	"{\"s\":\"\\uDC00\\uD800\"}",
	"{\"s\":\"\\uD800\\uD800\"}",
	"{\"s\":\"\\uD800\"}",
	"{\"s\":\"\\uDFFF\"}",
	"{\"s\":\"\\ud800\\\"}",
	"{\"s\":\"\\uFFFE\\uFEFF\"}",
	"{\"s\":\"\\uZZZZ\"}",
	"{\"s\":\"\\u00\"}",
	"{\"s\":\"\\U0041\"}",
	"{\"s\":\"\\a\"}",
	"{\"s\":\"\\'\"}",
	"{\"s\":\"\\\"}",
	"{\"s\":\"a\\\\\"}",
	"{\"s\":\"\xef\xbb\xbf\"}",
	"{\"s\":\"\xf4\x8f\xbf\xbf\xee\x80\x80\"}",
	/* duplicate keys, spelled alike or by escapes */
	"{\"a\":1,\"\\u0061\":2}",
	"{\"\\u00e9\":1,\"\xc3\xa9\":2}",
	"{\"a\":{},\"b\":{},\"a\":[]}",
	"{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"a\":9}",
	/* empty and blank lines, values that are not objects */
	"",
	" ",
	"\t\r",
	"{ }",
	"[{}]",
	"-1",
	"1.5",
	"\"\\u0000\"",
	"false",
};

/* A valid record of many shapes, the seed of the mutations. */
static const char *const SEEDS[] = {
	"{\"site_id\":\"S001\",\"question_id\":\"S001-Q01\",\"model_id\":"
	    "\"model-00\",\"condition\":\"A\",\"primary\":true,\"exclusion_reason\""
	    ":null,\"factual_accuracy\":2,\"hallucinations\":[{\"category\":"
	    "\"H-FAB\"}],\"parity_b_in_a\":0.8125,\"tok\":-12e-3}",
	"{\"a\":{\"b\":{\"c\":[[],{},[{\"d\":\"\\u00e9\\\\u\\n\"}]]}},\"e\":1.5E+3}",
	"{\"k\":\"\\ud83d\\ude00\",\"n\":-0,\"m\":[true,false,null,0.0]}",
	"{\"\":\"&\"}",
};

/* A byte a mutation writes: JSON's punctuation and the letters and digits
 * of its literals, escapes and numbers. */
static const char ALPHABET[] = "{}[]\":,\\ \t\r\f\vudDeE.+-01289afnrtlsx/*#";

static unsigned long long rng = 88172645463325252ULL;

static unsigned
next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* line with one to three bytes replaced, inserted or deleted, or one to
 * four appended (after the record: what follows a closed root). */
static void
mutate(struct buf *out, const char *seed)
{
	size_t len, pos;
	int k, edits = 1 + (int)next(3);

	buf_reset(out);
	buf_adds(out, seed);
	for (k = 0; k < edits; k++) {
		len = out->len;
		pos = len ? next((unsigned)len) : 0;
		switch (next(4)) {
		case 0:
			if (len)
				out->s[pos] = ALPHABET[next(sizeof ALPHABET - 1)];
			break;
		case 1:
			buf_addc(out, ' ');
			memmove(out->s + pos + 1, out->s + pos, len - pos);
			out->s[pos] = ALPHABET[next(sizeof ALPHABET - 1)];
			break;
		case 3:
			for (len = 1 + next(4); len > 0; len--)
				buf_addc(out, ALPHABET[next(sizeof ALPHABET - 1)]);
			break;
		default:
			if (len) {
				memmove(out->s + pos, out->s + pos + 1, len - pos - 1);
				buf_setlen(out, len - 1);
			}
		}
	}
}

/* Each control character but LF (the line's end) in a string, between
 * tokens, and after the root; the count of lines read otherwise. */
static int
controls(void)
{
	static const char *const forms[] = {
		"{\"s\":\"a@b\"}", "{@\"a\":1}", "{\"a\":@1}", "{\"a\":1}@",
		"@{\"a\":1}", "{\"a\":1@}",
	};
	char line[32], *at;
	size_t k;
	int c, bad = 0;

	for (c = 1; c < 0x20; c++) {
		if (c == '\n')
			continue;
		for (k = 0; k < sizeof forms / sizeof forms[0]; k++) {
			snprintf(line, sizeof line, "%s", forms[k]);
			at = strchr(line, '@');
			*at = (char)c;
			if (!agree(line, 1))
				bad++;
		}
	}
	return bad;
}

/* Nesting of depth d: {"a":{"a":...1...}}. */
static char *
nested(int d)
{
	struct buf b = BUF_INIT;
	int i;

	for (i = 0; i < d; i++)
		buf_adds(&b, "{\"a\":");
	buf_addc(&b, '1');
	for (i = 0; i < d; i++)
		buf_addc(&b, '}');
	return buf_detach(&b, NULL);
}

int
main(void)
{
	struct buf m = BUF_INIT;
	size_t i, bad = 0, n = 20000;
	static const int depths[] = { 10, 63, 64, 65, 100, 2047, 2048, 2049 };
	char *deep;

	for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
		TAP_OK(agree(CASES[i], 1), "as jansson: %s", CASES[i]);
	TAP_IS_INT(controls(), 0,
	    "as jansson: each control character in a string, between tokens, "
	    "before and after the root");
	for (i = 0; i < sizeof depths / sizeof depths[0]; i++) {
		deep = nested(depths[i]);
		TAP_OK(agree(deep, 0), "as jansson: nesting of depth %d",
		    depths[i]);
		free(deep);
	}
	for (i = 0; i < n; i++) {
		mutate(&m, SEEDS[i % (sizeof SEEDS / sizeof SEEDS[0])]);
		if (!agree(m.s, bad < 5))
			bad++;
	}
	TAP_IS_INT(bad, 0, "as jansson: %zu seeded mutations of valid records",
	    n);
	buf_release(&m);
	return tap_done();
}
