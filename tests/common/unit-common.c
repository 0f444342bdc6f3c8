/*
 * unit-common.c - unit tests of common/ (TAP).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "sort.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ctxbench-unit.XXXXXX";

static void
test_sha256(void)
{
	char hex[65];
	struct sha256 c;
	unsigned char d[32];
	int i;
	static char million[1000000];

	sha256_hex("", 0, hex);
	TAP_IS_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "sha256 of the empty string");
	sha256_hex("abc", 3, hex);
	TAP_IS_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "sha256 of abc (FIPS 180-4 example)");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	TAP_IS_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "sha256 of the 448-bit message (padding across blocks)");
	memset(million, 'a', sizeof(million));
	sha256_init(&c);
	for (i = 0; i < 1000; i++)	/* in odd-sized pieces */
		sha256_update(&c, million + i * 1000, 1000);
	sha256_final(&c, d);
	sha256_tohex(d, hex);
	TAP_IS_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "sha256 of a million 'a' fed incrementally");
}

static void
test_utf8(void)
{
	size_t bad = 99, n;
	char *s;
	uint32_t cp;

	TAP_OK(utf8_valid("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80", 15, &bad),
	    "valid multi-byte UTF-8 accepted");
	TAP_OK(!utf8_valid("ab\xc0\xaf", 4, &bad) && bad == 2,
	    "overlong encoding rejected at its offset");
	TAP_OK(!utf8_valid("\xed\xa0\x80", 3, &bad) && bad == 0, "surrogate rejected");
	TAP_OK(!utf8_valid("x\xf4\x90\x80\x80", 5, &bad) && bad == 1,
	    "code point above U+10FFFF rejected");
	TAP_OK(!utf8_valid("abc\xe2\x82", 5, &bad) && bad == 3,
	    "truncated sequence rejected");
	bad = 99;
	TAP_OK(utf8_valid("0123456789abcdef\xc3\xa9", 18, &bad) && bad == 99,
	    "valid UTF-8 after a run of ASCII read eight bytes at a time");
	TAP_OK(!utf8_valid("0123456789abcdefg\xc3(", 19, &bad) && bad == 17,
	    "an invalid byte after a run of ASCII found at its offset (%zu)", bad);
	TAP_OK(!utf8_valid("ab\xc3\xa9" "0123456789\xff", 15, &bad) && bad == 14,
	    "an invalid byte after a second run of ASCII (%zu)", bad);
	TAP_IS_INT(utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3,
	    "decode length of the euro sign");
	TAP_IS_INT(cp, 0x20AC, "decode value of the euro sign");
	s = utf8_sanitize("a\xe0\xa0z\xff", 5, &n);
	TAP_IS_STR(s, "a\xef\xbf\xbdz\xef\xbf\xbd",
	    "sanitize replaces maximal subparts with one U+FFFD each");
	free(s);
	TAP_IS_INT(utf8_count("h\xc3\xa9", 3), 2, "count code points");
}

static void
test_buf_opt(void)
{
	struct buf b = BUF_INIT;
	long long v;
	double d;
	int bo;
	char **sv;
	int i;

	TAP_IS_STR(buf_str(&b), "", "empty buffer reads as an empty string");
	for (i = 0; i < 1000; i++)
		buf_addf(&b, "%d,", i);
	TAP_IS_INT(b.len, 3890, "buffer grows across many additions");
	buf_release(&b);
	buf_add(&b, "", 0);
	TAP_OK(b.s != NULL && b.s[0] == '\0' && b.len == 0,
	    "an empty addition allocates the empty string");
	buf_release(&b);
	for (i = 0; i < 300; i++) {
		buf_addc(&b, 'a' + i % 26);
		if (b.s[b.len] != '\0' || b.len >= b.cap)
			break;
	}
	TAP_OK(i == 300 && b.len == 300 && b.s[25] == 'z' && b.s[26] == 'a',
	    "buf_addc keeps the NUL and room for it across every growth");
	buf_reset(&b);
	for (i = 1; i < 200; i++) {
		buf_add(&b, "0123456789abcdefghijklmnopqrstuvwxyz", (size_t)(i % 37));
		if (b.s[b.len] != '\0' || b.len >= b.cap)
			break;
	}
	TAP_OK(i == 200 && b.len == strlen(b.s), "buf_add of every length up to "
	    "past the capacity keeps the NUL (%zu bytes)", b.len);
	buf_setlen(&b, 3);
	buf_add(&b, "xy", 2);
	TAP_IS_STR(buf_str(&b), "001xy", "buf_add after buf_setlen appends at len");
	buf_release(&b);
	TAP_OK(parse_int("42", &v) == 0 && v == 42, "parse_int accepts 42");
	TAP_OK(parse_int("4x", &v) < 0, "parse_int rejects trailing text");
	TAP_OK(parse_int(" 4", &v) < 0, "parse_int rejects leading space");
	TAP_OK(parse_int("99999999999999999999", &v) < 0, "parse_int rejects overflow");
	TAP_OK(parse_real("2.0", &d) == 0 && d == 2.0, "parse_real accepts 2.0");
	TAP_OK(parse_real("nan", &d) < 0, "parse_real rejects nan");
	TAP_OK(parse_bool("TRUE", &bo) == 0 && bo == 1, "parse_bool TRUE");
	TAP_OK(parse_bool("maybe", &bo) < 0, "parse_bool rejects maybe");
	sv = strv_split("a,,b,c,", ',');
	TAP_OK(strv_len(sv) == 3 && strcmp(sv[2], "c") == 0, "strv_split drops empty items");
	strv_free(sv);
}

static void
test_json(void)
{
	json_t *v;
	char *s;
	json_error_t e;
	static const char text[] =
	    "[\n  {\"site_id\": \"S1\",\n   \"questions\": [\n    {\"a\": 1},\n"
	    "    {\"a\": 2,\n     \"source_urls\": 5}\n  ]}\n]\n";
	struct json_step path[5] = {
		{ NULL, 0 }, { "questions", 0 }, { NULL, 1 }, { "source_urls", 0 },
	};

	v = json_loads("{\"b\":1,\"a\":[0.1,2.5,1e300,-0.0,3.0],\"s\":\"\\u0001\\\"\\n\xc3\xa9\"}",
	    0, &e);
	s = json_compact(v, NULL);
	TAP_IS_STR(s, "{\"b\":1,\"a\":[0.1,2.5,1e+300,-0.0,3.0],\"s\":\"\\u0001\\\"\\n\xc3\xa9\"}",
	    "compact output keeps key order, shortest reals, escapes, UTF-8");
	free(s);
	json_decref(v);
	v = json_pack("[f,f,f,f]", 1500.0, 0.00012, 1e16, 123456.789);
	s = json_compact(v, NULL);
	TAP_IS_STR(s, "[1500.0,0.00012,1e+16,123456.789]",
	    "ordinary magnitudes in plain notation, huge ones with an exponent");
	free(s);
	json_decref(v);
	v = json_pack("{s:f}", "x", 0.30000000000000004);
	s = json_compact(v, NULL);
	TAP_IS_STR(s, "{\"x\":0.30000000000000004}", "reals round-trip exactly");
	free(s);
	json_decref(v);
	TAP_IS_INT(json_text_line(text, strlen(text), path, 4), 6,
	    "json_text_line finds a nested member's line");
	TAP_IS_INT(json_text_line(text, strlen(text), path, 3), 5,
	    "json_text_line finds an array element's line");
	v = json_loads("{\"a\":{\"b\":{\"c\":7}}}", 0, &e);
	TAP_IS_INT(json_integer_value(json_path(v, "a.b.c")), 7, "json_path follows dots");
	TAP_OK(json_path(v, "a.x.c") == NULL, "json_path returns NULL for a missing step");
	TAP_OK(json_get_str(v, "a") == NULL && json_get_str(NULL, "a") == NULL,
	    "json_get_str: NULL for a non-string and for no object");
	json_decref(v);
	v = json_pack("[o,o,o,o,o,o,o,o]", json_str_or_null(NULL),
	    json_str_or_null("x"), json_int_or_null(-1), json_int_or_null(0),
	    json_real_or_null(-0.5), json_real_or_null(2.5),
	    json_text("a\xff" "b", 3), json_text("\xc3\xa9", 2));
	s = json_compact(v, NULL);
	TAP_IS_STR(s, "[null,\"x\",null,0,null,2.5,\"\xef\xbf\xbd\",\"\xc3\xa9\"]",
	    "or-null constructors: NULL and negatives are null, bad UTF-8 is U+FFFD");
	free(s);
	json_decref(v);
}

/* The 8-byte steps of the writer and of UTF-8 checks, at every offset. */
static void
test_long_strings(void)
{
	static const char special[] = "\"\\\n\x01\x7f\xc3";	/* \xc3: é */
	char s[40], *c;
	json_t *v, *back;
	size_t i, k;
	int ok = 1;

	for (k = 0; k < sizeof special - 1; k++)
		for (i = 0; i + 2 < sizeof s; i++) {
			memset(s, 'a', sizeof s - 1);
			s[sizeof s - 1] = '\0';
			s[i] = special[k];
			if (special[k] == '\xc3')
				s[i + 1] = '\xa9';
			v = json_stringn_nocheck(s, strlen(s));
			c = json_compact(v, NULL);
			back = json_loads(c, JSON_DECODE_ANY, NULL);
			ok &= json_equal(back, v);
			json_decref(back);
			ok &= utf8_valid(s, strlen(s), NULL) &&
			    utf8_count(s, strlen(s)) == strlen(s) -
			    (special[k] == '\xc3');
			free(c);
			json_decref(v);
		}
	TAP_OK(ok, "strings with an escape or a multi-byte character at each "
	    "offset: written and read back, valid, counted");
	TAP_OK(!utf8_valid("abcdefghijklmno\xc0\xaf", 17, &i) && i == 15,
	    "an invalid sequence after 15 ASCII bytes is found at its offset");
}

static FILE *
memfile(const char *s)
{
	FILE *fp = tmpfile();

	fputs(s, fp);
	rewind(fp);
	return fp;
}

/* json_each: an array's elements in order, each with its path for messages */
static void
test_json_each(void)
{
	json_t *a = json_loads("[\"x\", 2, {}]", 0, NULL), *e;
	struct json_each it;
	struct buf got = BUF_INIT;
	size_t n;

	n = json_each_start(&it, a, "f.json", "items");
	TAP_IS_INT(n, 3, "json_each_start: the array's size");
	while ((e = json_each_next(&it)) != NULL) {
		TAP_OK(e == json_array_get(a, it.i), "json_each_next: element %zu", it.i);
		buf_adds(&got, it.where);
		buf_adds(&got, " ");
	}
	TAP_IS_STR(buf_str(&got), "items[0] items[1] items[2] ", "json_each: each element's path");
	buf_release(&got);
	TAP_OK(json_each_next(&it) == NULL, "json_each_next: NULL after the last, again");
	json_decref(a);
	a = json_array();
	TAP_IS_INT(json_each_start(&it, a, "f.json", "items"), 0, "json_each: an empty array");
	TAP_OK(json_each_next(&it) == NULL, "json_each: no element in an empty array");
	json_decref(a);
}

static void
test_csv(void)
{
	struct csv_reader r;
	FILE *fp;
	long n;
	char *out = NULL;
	size_t outlen = 0;
	struct csv_writer w;
	static const char *row[] = { "plain", "with,comma", "with \"quote\"", "two\nlines", "" };

	fp = memfile("\xef\xbb\xbf" "a,b,c\r\n\"x,1\",\"he said \"\"hi\"\"\",\"l1\nl2\"\r\n\r\n,,\n");
	csv_init(&r, fp, "t.csv");
	n = csv_read(&r);
	TAP_OK(n == 3 && strcmp(r.fields[0], "a") == 0, "BOM skipped, header read");
	n = csv_read(&r);
	TAP_OK(n == 3 && strcmp(r.fields[0], "x,1") == 0 &&
	    strcmp(r.fields[1], "he said \"hi\"") == 0 && strcmp(r.fields[2], "l1\nl2") == 0,
	    "quoted fields with commas, doubled quotes and newlines");
	TAP_IS_INT(r.rec_line, 2, "record line reported");
	n = csv_read(&r);
	TAP_OK(n == 3 && r.fields[0][0] == '\0' && r.fields[2][0] == '\0',
	    "empty line skipped, empty fields kept");
	TAP_IS_INT(r.rec_line, 5, "line count includes embedded newlines and blank lines");
	TAP_IS_INT(csv_read(&r), 0, "end of input");
	csv_close(&r);
	fclose(fp);

	/* EF starts U+F000..U+FFFF too: only EF BB BF is a byte order mark */
	fp = memfile("\xef\xbd\x86ull,\xef\xbb\x80\n\xef\xbb\xbf\r\r\n");
	csv_init(&r, fp, "t.csv");
	n = csv_read(&r);
	TAP_OK(n == 2 && strcmp(r.fields[0], "\xef\xbd\x86ull") == 0 &&
	    strcmp(r.fields[1], "\xef\xbb\x80") == 0,
	    "a first field starting with a fullwidth letter is data, not a mark");
	n = csv_read(&r);
	TAP_OK(n == 1 && strcmp(r.fields[0], "\xef\xbb\xbf\r") == 0,
	    "a mark after the start is data, a CR before a CRLF too");
	csv_close(&r);
	fclose(fp);
	fp = memfile("\xef\xbb");
	csv_init(&r, fp, "t.csv");
	n = csv_read(&r);
	TAP_OK(n == -1 && strstr(r.err, "invalid UTF-8 in field 1"),
	    "half a mark alone is the file's bytes, invalid UTF-8");
	csv_close(&r);
	fclose(fp);

	fp = memfile("a,b\n1,\"unterminated\n2,3\n");
	csv_init(&r, fp, "t.csv");
	csv_read(&r);
	n = csv_read(&r);
	TAP_OK(n == -1 && strstr(r.err, "unterminated") && r.rec_line == 2,
	    "unterminated quote is an error at the record's line");
	csv_close(&r);
	fclose(fp);

	fp = memfile("a,b\n1,x\"y\n");
	csv_init(&r, fp, "t.csv");
	csv_read(&r);
	TAP_OK(csv_read(&r) == -1 && strstr(r.err, "unquoted"), "stray quote is an error");
	csv_close(&r);
	fclose(fp);

	fp = memfile("a,b\n\"1\"x,2\n");
	csv_init(&r, fp, "t.csv");
	csv_read(&r);
	TAP_OK(csv_read(&r) == -1 && strstr(r.err, "after a closing quote"),
	    "text after a closing quote is an error");
	csv_close(&r);
	fclose(fp);

	fp = open_memstream(&out, &outlen);
	csv_writer_init(&w, fp, 0, 0);
	csv_write_field(&w, "\xef\xbb\xbfmark");
	csv_write_field(&w, "x\xef\xbb\xbf");
	csv_end_record(&w);
	fclose(fp);
	TAP_IS_STR(out, "\"\xef\xbb\xbfmark\",x\xef\xbb\xbf\n",
	    "a field starting with U+FEFF is quoted");
	fp = memfile(out);
	csv_init(&r, fp, "rt.csv");
	n = csv_read(&r);
	TAP_OK(n == 2 && strcmp(r.fields[0], "\xef\xbb\xbfmark") == 0,
	    "written first in a file, it reads back whole, not as a mark");
	csv_close(&r);
	fclose(fp);
	free(out);
	out = NULL;
	outlen = 0;

	fp = open_memstream(&out, &outlen);
	csv_writer_init(&w, fp, 0, 0);
	csv_write_row(&w, row, 5);
	fclose(fp);
	TAP_IS_STR(out, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",\n",
	    "writer quotes only where needed");
	fp = memfile(out);
	csv_init(&r, fp, "rt.csv");
	n = csv_read(&r);
	TAP_OK(n == 5 && strcmp(r.fields[3], "two\nlines") == 0 &&
	    strcmp(r.fields[2], "with \"quote\"") == 0, "writer output reads back");
	csv_close(&r);
	fclose(fp);
	free(out);
}

/* read_file on a file of several reads, and on an empty one. */
static void
check_read_large(const char *q)
{
	char *big = xmalloc(200001), *data;
	size_t i, len;

	for (i = 0; i < 200000; i++)
		big[i] = (char)('a' + i % 26);
	big[200000] = '\0';
	data = atomic_write(q, big, 200000, 0644) == 0 ? read_file(q, &len, 0) : NULL;
	TAP_OK(data && len == 200000 && strcmp(data, big) == 0,
	    "read_file reads a 200000-byte file whole, NUL-terminated");
	free(data);
	errno = 0;
	TAP_OK(read_file(q, &len, 199999) == NULL && errno == EFBIG,
	    "read_file: one byte over its cap fails");
	data = atomic_write(q, "", 0, 0644) == 0 ? read_file(q, &len, 0) : NULL;
	TAP_OK(data && len == 0 && data[0] == '\0', "read_file reads an empty file");
	free(data);
	free(big);
}

static void
test_files(void)
{
	char *p, *q, *data;
	size_t len;
	struct atomic_file *f;
	struct stat st;

	p = xasprintf("%s/a/b/c", tmpdir);
	TAP_OK(mkdir_p(p, 0755) == 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode),
	    "mkdir_p creates nested directories");
	TAP_OK(mkdir_p(p, 0755) == 0, "mkdir_p succeeds when the directory exists");
	q = xasprintf("%s/out.txt", p);
	TAP_OK(atomic_write(q, "hello\n", 6, 0644) == 0, "atomic_write succeeds");
	data = read_file(q, &len, 0);
	TAP_OK(data && len == 6 && strcmp(data, "hello\n") == 0, "atomic_write content");
	free(data);
	f = atomic_open(q, 0644);
	fputs("partial", atomic_fp(f));
	fflush(atomic_fp(f));
	data = read_file(q, &len, 0);
	TAP_OK(data && strcmp(data, "hello\n") == 0, "target untouched before commit");
	free(data);
	atomic_abort(f);
	data = read_file(q, &len, 0);
	TAP_OK(data && strcmp(data, "hello\n") == 0, "target untouched after abort");
	free(data);
	errno = 0;
	TAP_OK(read_file(q, &len, 3) == NULL && errno == EFBIG, "read_file honours its cap");
	data = read_file(q, &len, 6);
	TAP_OK(data && len == 6 && strcmp(data, "hello\n") == 0,
	    "read_file: a file of exactly cap bytes is read");
	free(data);
	check_read_large(q);
	free(p);
	p = path_dirname("a/b/c.txt");
	TAP_IS_STR(p, "a/b", "path_dirname");
	free(p);
	p = path_join("a/", "b");
	TAP_IS_STR(p, "a/b", "path_join avoids a double slash");
	free(p);
	free(q);
}

static void
test_progress(void)
{
	struct progress p;
	char line[256];

	progress_start(&p, "fetch", 100);
	p.done = 25;
	progress_format(&p, p.t0 + 5.0, "ok=25", line, sizeof(line));
	TAP_IS_STR(line, "fetch: 25/100  5.0 rec/s  ETA 0:15  ok=25",
	    "progress line shows count, rate, ETA and note");
	p.eta = 3725.4;
	progress_format(&p, p.t0 + 5.0, NULL, line, sizeof(line));
	TAP_IS_STR(line, "fetch: 25/100  5.0 rec/s  ETA 1:02:05",
	    "progress line: the caller's ETA instead of the rate's");
	p.total = 0;
	p.eta = 61;
	progress_format(&p, p.t0 + 5.0, NULL, line, sizeof(line));
	TAP_IS_STR(line, "fetch: 25  5.0 rec/s  ETA 1:01",
	    "progress line: the caller's ETA without a total");
	p.eta = -1;
	progress_format(&p, p.t0 + 5.0, NULL, line, sizeof(line));
	TAP_IS_STR(line, "fetch: 25  5.0 rec/s", "progress line: no total, no ETA");
	TAP_IS_STR(progress_duration(59.4, line, sizeof(line)), "0:59", "duration: seconds");
	TAP_IS_STR(progress_duration(59.6, line, sizeof(line)), "1:00", "duration: rounded");
	TAP_IS_STR(progress_duration(7322, line, sizeof(line)), "2:02:02", "duration: hours");
	TAP_IS_STR(progress_duration(-3, line, sizeof(line)), "0:00", "duration: never negative");
}

/* Sort (key, seq) pairs by key only: ties must keep their input order. */
struct kv {
	int key, seq;
};

static int
kv_cmp(const void *a, const void *b, void *arg)
{
	const struct kv *x = a, *y = b;
	int *calls = arg;

	(*calls)++;
	return (x->key > y->key) - (x->key < y->key);
}

static void
test_sort(void)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 8, 9, 16, 17, 100, 1000, 4099 };
	struct kv *v;
	size_t i, k, n;
	unsigned long x = 12345;
	int ok, calls;

	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		n = sizes[k];
		v = xmalloc((n ? n : 1) * sizeof *v);
		for (i = 0; i < n; i++) {
			x = x * 1103515245 + 12345;
			v[i].key = (int)((x >> 16) % 13);
			v[i].seq = (int)i;
		}
		calls = 0;
		ctx_sort(v, n, sizeof *v, kv_cmp, &calls);
		ok = 1;
		for (i = 1; i < n; i++)
			if (v[i - 1].key > v[i].key || (v[i - 1].key == v[i].key &&
			    v[i - 1].seq > v[i].seq))
				ok = 0;
		TAP_OK(ok, "ctx_sort: %zu elements sorted, ties in input order", n);
		TAP_OK(n < 2 || calls > 0, "ctx_sort: the context reaches the comparator (n %zu)", n);
		free(v);
	}
}

/* ctx_share_text: a whole line <!--#include file="NAME" --> is NAME's text. */
static void
test_share_text(void)
{
	static const struct { const char *name, *text; } files[] = {
		{ "head.html", "<head>\n<title>@T@</title>\n" },
		{ "page.html", "<!--#include file=\"head.html\" -->\n<body>\n" },
		{ "mid.html", "a\n<!--#include file=\"head.html\" -->\nb" },
		{ "end.html", "a\n<!--#include file=\"head.html\" -->" },
		{ "inline.html", "x <!--#include file=\"head.html\" -->\n" },
		{ "nested.html", "<!--#include file=\"page.html\" -->\n" },
	};
	char *dir = xasprintf("%s/share", tmpdir), *p, *t;
	size_t i;

	if (mkdir_p(dir, 0755) < 0)
		die_errno("%s", dir);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		p = path_join(dir, files[i].name);
		if (atomic_write(p, files[i].text, strlen(files[i].text), 0644) < 0)
			die_errno("%s", p);
		free(p);
	}
	setenv("CTXBENCH_SHARE", dir, 1);
	t = ctx_share_text("head.html");
	TAP_IS_STR(t, "<head>\n<title>@T@</title>\n", "share text without includes: as it is");
	free(t);
	t = ctx_share_text("page.html");
	TAP_IS_STR(t, "<head>\n<title>@T@</title>\n<body>\n",
	    "an include line is the included file's text, in its line's place");
	free(t);
	t = ctx_share_text("mid.html");
	TAP_IS_STR(t, "a\n<head>\n<title>@T@</title>\nb", "an include between lines");
	free(t);
	t = ctx_share_text("end.html");
	TAP_IS_STR(t, "a\n<head>\n<title>@T@</title>\n", "an include on the last line, without a newline");
	free(t);
	t = ctx_share_text("inline.html");
	TAP_IS_STR(t, files[4].text, "an include inside a line stays text");
	free(t);
	t = ctx_share_text("nested.html");
	TAP_IS_STR(t, files[1].text, "one level: the included file's own includes stay text");
	free(t);
	unsetenv("CTXBENCH_SHARE");
	free(dir);
}

/* What warn() writes to stderr for a message of len 'x's (caller frees). */
static char *
warned(size_t len)
{
	char *msg = xmalloc(len + 1), *out;
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	long size;

	if (f == NULL || saved < 0)
		die_errno("capture stderr");
	memset(msg, 'x', len);
	msg[len] = '\0';
	fflush(stderr);
	dup2(fileno(f), STDERR_FILENO);
	warn("%s", msg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	size = ftell(f);
	out = xmalloc((size_t)size + 1);
	rewind(f);
	out[fread(out, 1, (size_t)size, f)] = '\0';
	fclose(f);
	free(msg);
	return out;
}

/*
 * warn() writes a message that fits its 1024-byte line in one write and a
 * longer one in three; both must read the same: prefix, whole text, newline.
 */
static void
test_warn(void)
{
	static const size_t lens[] = { 0, 5, 1009, 1010, 1011, 4000 };
	const char *prefix = "unit-common: ";
	size_t i, len;
	char *got, *want;

	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		len = lens[i];
		got = warned(len);
		want = xmalloc(strlen(prefix) + len + 2);
		memcpy(want, prefix, strlen(prefix));
		memset(want + strlen(prefix), 'x', len);
		memcpy(want + strlen(prefix) + len, "\n", 2);
		TAP_IS_STR(got, want, "warn: a %zu-byte message whole, prefixed, one newline",
		    len);
		free(got);
		free(want);
	}
}

int
main(int argc, char **argv)
{
	char cmd[128];

	(void)argc;
	ctx_init(argv[0]);
	if (mkdtemp(tmpdir) == NULL)
		die_errno("mkdtemp");
	test_sha256();
	test_utf8();
	test_buf_opt();
	test_json();
	test_json_each();
	test_long_strings();
	test_csv();
	test_files();
	test_progress();
	test_sort();
	test_share_text();
	test_warn();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		warn("could not remove %s", tmpdir);
	return tap_done();
}
