/*
 * ndjson.c - the NDJSON record loop, its reader and the compact writer
 * (see ndjson.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "atomic.h"
#include "buf.h"
#include "err.h"
#include "jsonscan.h"
#include "ndjson.h"
#include "utf8.h"

/* The size of the stdio buffer of a file ndj_reader_open opens. */
#define NDJ_IOBUF (64u * 1024)

static const char *where_file = "<stdin>";
static unsigned long where_line;

void
ndj_set_where(const char *file, unsigned long line)
{
	where_file = file;
	where_line = line;
}

const char *
ndj_where_file(void)
{
	return where_file;
}

unsigned long
ndj_where_line(void)
{
	return where_line;
}

void
ndj_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s:%lu: ", err_progname(), where_file, where_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	err_exit(EXIT_DATA);
}

void
ndj_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%lu: ", err_progname(), where_file, where_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
ndj_reader_init(struct ndj_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
}

void
ndj_reader_open(struct ndj_reader *r, const char *path)
{
	FILE *fp;

	if (path == NULL || strcmp(path, "-") == 0) {
		ndj_reader_init(r, stdin, "<stdin>");
		return;
	}
	fp = fopen(path, "r");
	if (fp == NULL)
		die_errno("%s", path);
	ndj_reader_init(r, fp, path);
	r->own = 1;
	/* reads of 64 kB, not stdio's 4 kB: a study of 100 times the corpus
	 * (380 MB) is about 90,000 system calls fewer.  glibc sizes a buffer
	 * by the file's block size when given none, whatever size is asked,
	 * so the reader gives its own (a failure keeps stdio's buffer). */
	r->iobuf = xmalloc(NDJ_IOBUF);
	(void)setvbuf(fp, r->iobuf, _IOFBF, NDJ_IOBUF);
}

void
ndj_reader_close(struct ndj_reader *r)
{
	if (r->own && r->fp)
		fclose(r->fp);
	free(r->iobuf);		/* after fclose, which last used it */
	r->iobuf = NULL;
	free(r->buf);
	r->buf = NULL;
	r->fp = NULL;
}

/* Whether s[0..n) is only what jansson skips as white space. */
static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* ------------------------------------------------------- the fast path */

/*
 * A record is read by yajl, a strict SAX parser, into the same jansson tree
 * json_loadb would make (keys in their order, integers as JSON_INTEGER and
 * numbers with a fraction or an exponent as JSON_REAL, converted as jansson
 * converts them): jansson's own parser reads a few tens of MB a second,
 * yajl several hundred.  jansson stays the judge of what is JSON: a line
 * yajl refuses, and a line whose reading could differ from jansson's (a
 * NUL escaped as \u0000, an escaped surrogate, a form feed or vertical
 * tab, nesting deeper than FAST_DEPTH, a repeated key, an integer out of
 * range, a real that overflows, a value at the top that is not an
 * object, anything but white space after the object's closing brace), is
 * read again by json_loadb, which accepts it or gives its message.  The
 * line's UTF-8 (as strict as jansson's: no overlong form, surrogate or
 * code point above U+10FFFF) and its NUL bytes are checked before either
 * parser sees it.  tests/common/unit-ndjson.c and the fuzz target
 * tests/fuzz/common_ndjson.c hold the two readings equal.
 */
#define FAST_DEPTH 64

struct fast {
	yajl_handle h;
	json_t *root;			/* the record, owned */
	size_t end;			/* bytes up to the root's closing brace */
	int closed;			/* the root's closing brace was read */
	json_t *open[FAST_DEPTH];	/* containers open (borrowed) */
	int depth;
	struct buf key;			/* the key of the value to come */
	struct buf num;			/* a number's text */
};

/* Put v (stolen) where the parse is: the root, an array, or the object
 * under the last key; 0 on a repeated key or a root that is no object. */
static int
fast_put(struct fast *f, json_t *v)
{
	json_t *c;
	size_t n;

	if (v == NULL)
		return 0;
	if (f->depth == 0) {
		if (f->root != NULL || !json_is_object(v)) {
			json_decref(v);
			return 0;
		}
		f->root = v;
		return 1;
	}
	c = f->open[f->depth - 1];
	if (json_is_array(c))
		return json_array_append_new(c, v) == 0;
	n = json_object_size(c);
	if (json_object_setn_new_nocheck(c, f->key.s, f->key.len, v) != 0)
		return 0;
	return json_object_size(c) > n;
}

static int
fast_null(void *ctx)
{
	return fast_put(ctx, json_null());
}

static int
fast_bool(void *ctx, int b)
{
	return fast_put(ctx, json_boolean(b));
}

/* A number as jansson's lexer reads it: an integer unless it has a
 * fraction or an exponent; out of range is jansson's to report. */
static int
fast_number(void *ctx, const char *s, size_t len)
{
	struct fast *f = ctx;
	long long i;
	double d;

	buf_reset(&f->num);
	buf_add(&f->num, s, len);
	errno = 0;
	if (memchr(s, '.', len) || memchr(s, 'e', len) || memchr(s, 'E', len)) {
		d = strtod(f->num.s, NULL);
		if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE)
			return 0;
		return fast_put(f, json_real(d));
	}
	i = strtoll(f->num.s, NULL, 10);
	if (errno == ERANGE)
		return 0;
	return fast_put(f, json_integer(i));
}

static int
fast_string(void *ctx, const unsigned char *s, size_t len)
{
	if (memchr(s, '\0', len))	/* jansson refuses \u0000 */
		return 0;
	return fast_put(ctx, json_stringn_nocheck((const char *)s, len));
}

static int
fast_key(void *ctx, const unsigned char *s, size_t len)
{
	struct fast *f = ctx;

	if (memchr(s, '\0', len))
		return 0;
	buf_reset(&f->key);
	buf_add(&f->key, s, len);
	return 1;
}

static int
fast_open(struct fast *f, json_t *c)
{
	if (c == NULL || f->depth == FAST_DEPTH) {
		json_decref(c);
		return 0;
	}
	json_incref(c);		/* fast_put steals one reference */
	if (!fast_put(f, c)) {
		json_decref(c);
		return 0;
	}
	f->open[f->depth++] = c;
	json_decref(c);		/* the tree holds it now */
	return 1;
}

static int
fast_start_map(void *ctx)
{
	return fast_open(ctx, json_object());
}

static int
fast_start_array(void *ctx)
{
	return fast_open(ctx, json_array());
}

/* The root's closing brace stops yajl there: what follows is checked
 * by fast_load, never by yajl, whose lexer takes an incomplete token after
 * the value ({"a":1}"x) for one that more input would complete. */
static int
fast_end(void *ctx)
{
	struct fast *f = ctx;

	if (--f->depth > 0)
		return 1;
	f->end = yajl_get_bytes_consumed(f->h);
	f->closed = 1;
	return 0;
}

static const yajl_callbacks fast_callbacks = {
	fast_null, fast_bool, NULL, NULL, fast_number, fast_string,
	fast_start_map, fast_key, fast_end, fast_start_array, fast_end
};

/* yajl allocates as jansson does (ctx.c): a failed allocation dies. */
static void *
fast_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return xmalloc(n);
}

static void *
fast_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return xrealloc(p, n);
}

static void
fast_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

/* Whether yajl and jansson might read the line differently (see above):
 * conservative, a false alarm only costs jansson's time. */
static int
fast_unsafe(const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	if (memchr(s, '\f', n) || memchr(s, '\v', n))
		return 1;
	while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
		if (end - p >= 6 && p[1] == 'u' && (p[2] == 'd' ||
		    p[2] == 'D') && strchr("89abcdefABCDEF", p[3]))
			return 1;
		if (end - p < 2)
			break;
		p += 2;
	}
	return 0;
}

/*
 * The record in s[0..n) by yajl, or NULL when jansson must read it.  A
 * record is taken only when yajl stopped at the root object's closing
 * brace (fast_end) and nothing but white space follows it.
 */
static json_t *
fast_load(const char *s, size_t n)
{
	yajl_alloc_funcs af = { fast_malloc, fast_realloc, fast_free, NULL };
	struct fast f;
	int ok;

	if (fast_unsafe(s, n))
		return NULL;
	memset(&f, 0, sizeof f);
	f.h = yajl_alloc(&fast_callbacks, &af, &f);
	if (f.h == NULL)
		return NULL;
	yajl_config(f.h, yajl_dont_validate_strings, 1);	/* checked before */
	ok = yajl_parse(f.h, (const unsigned char *)s, n) ==
	    yajl_status_client_canceled && f.closed && f.root != NULL &&
	    f.depth == 0 && f.end <= n && blank(s + f.end, n - f.end);
	yajl_free(f.h);
	buf_release(&f.key);
	buf_release(&f.num);
	if (!ok) {
		json_decref(f.root);
		return NULL;
	}
	return f.root;
}

json_t *
ndj_next_err(struct ndj_reader *r, char **errmsg)
{
	ssize_t got;
	size_t len, bad;
	int had_nl;
	json_t *v;
	json_error_t e;
	char *nul;

	*errmsg = NULL;
	for (;;) {
		errno = 0;
		got = getdelim(&r->buf, &r->cap, '\n', r->fp);
		if (got < 0) {
			/* a failed allocation is no end of input */
			if (errno == ENOMEM)
				die("%s: out of memory reading a line", r->name);
			if (ferror(r->fp)) {
				*errmsg = xasprintf("read error: %s", strerror(errno));
				r->line++;
			}
			return NULL;
		}
		r->line++;
		len = (size_t)got;
		had_nl = len > 0 && r->buf[len - 1] == '\n';
		if (had_nl)
			len--;
		if (len > 0 && r->buf[len - 1] == '\r')
			len--;
		if (r->maxline && len > r->maxline) {
			*errmsg = xasprintf("line of %zu bytes is longer than the limit of %zu",
			    len, r->maxline);
			return NULL;
		}
		nul = memchr(r->buf, '\0', len);
		if (nul) {
			*errmsg = xasprintf("NUL byte at column %zu",
			    (size_t)(nul - r->buf) + 1);
			return NULL;
		}
		if (!utf8_valid(r->buf, len, &bad)) {
			*errmsg = xasprintf("invalid UTF-8 at byte %zu", bad + 1);
			return NULL;
		}
		if (blank(r->buf, len))
			continue;
		v = fast_load(r->buf, len);
		if (v == NULL)
			v = json_loadb(r->buf, len,
			    JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
		if (v == NULL) {
			if (!had_nl)
				*errmsg = xasprintf("truncated record at end of input "
				    "(no newline): %s", e.text);
			else
				*errmsg = xasprintf("invalid JSON at column %d: %s",
				    e.column, e.text);
			return NULL;
		}
		if (!json_is_object(v)) {
			*errmsg = xasprintf("expected a JSON object, got %s",
			    json_is_array(v) ? "an array" :
			    json_is_string(v) ? "a string" :
			    json_is_number(v) ? "a number" :
			    json_is_null(v) ? "null" : "a boolean");
			json_decref(v);
			return NULL;
		}
		return v;
	}
}

json_t *
ndj_next(struct ndj_reader *r)
{
	char *msg;
	json_t *v;

	v = ndj_next_err(r, &msg);
	if (v) {
		ndj_set_where(r->name, r->line);
		return v;
	}
	if (msg) {
		ndj_set_where(r->name, r->line);
		ndj_die("%s", msg);
	}
	return NULL;
}

int
ndj_run(int nfiles, char *const files[], ndj_each_fn each, ndj_end_fn end,
    void *ctx)
{
	struct ndj_reader r;
	json_t *rec;
	int i, rc, n = nfiles > 0 ? nfiles : 1;

	for (i = 0; i < n; i++) {
		ndj_reader_open(&r, nfiles > 0 ? files[i] : NULL);
		while ((rec = ndj_next(&r)) != NULL) {
			rc = each(rec, ctx);
			json_decref(rec);
			if (rc) {
				ndj_reader_close(&r);
				return rc;
			}
		}
		ndj_reader_close(&r);
	}
	return end ? end(ctx) : 0;
}

/* ---------------------------------------------------------------- output */

static struct atomic_file *out_file;
static FILE *out_fp;

void
ndj_output_open(const char *path)
{
	if (out_file)
		die("output opened twice");
	if (path == NULL || strcmp(path, "-") == 0) {
		out_fp = stdout;
		return;
	}
	out_file = atomic_open(path, 0644);
	if (out_file == NULL)
		die_errno("%s", path);
	out_fp = atomic_fp(out_file);
}

void
ndj_output_stream(FILE *fp)
{
	if (out_file)
		die("output opened twice");
	out_fp = fp;
}

FILE *
ndj_output(void)
{
	return out_fp ? out_fp : stdout;
}

static void
write_failed(void)
{
	if (errno == EPIPE)
		exit(0);
	die_errno("write error");
}

void
ndj_emit(json_t *rec)
{
	FILE *fp = ndj_output();

	if (json_compact_fp(fp, rec) < 0 || putc('\n', fp) == EOF)
		write_failed();
}

void
ndj_emit_text(const char *s, size_t n, int end)
{
	FILE *fp = ndj_output();

	if ((n > 0 && fwrite(s, 1, n, fp) != n) || (end && putc('\n', fp) == EOF))
		write_failed();
}

void
ndj_emit_free(json_t *rec)
{
	ndj_emit(rec);
	json_decref(rec);
}

void
ndj_output_close(void)
{
	FILE *fp = ndj_output();

	if (fflush(fp) == EOF || ferror(fp))
		write_failed();
	if (out_file) {
		if (atomic_commit(out_file) < 0)
			die_errno("cannot write output");
		out_file = NULL;
		out_fp = NULL;
	}
}

/* ---------------------------------------------------------------- writer */

/* Write the escape of byte c (one jscan_special8 finds) at w; its length. */
static size_t
put_escape(char *w, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	w[0] = '\\';
	switch (c) {
	case '"': w[1] = '"'; return 2;
	case '\\': w[1] = '\\'; return 2;
	case '\n': w[1] = 'n'; return 2;
	case '\r': w[1] = 'r'; return 2;
	case '\t': w[1] = 't'; return 2;
	case '\b': w[1] = 'b'; return 2;
	case '\f': w[1] = 'f'; return 2;
	}
	w[1] = 'u'; w[2] = '0'; w[3] = '0';
	w[4] = hex[c >> 4]; w[5] = hex[c & 15];
	return 6;
}

/* Bytes a block is escaped in at a time: room for its worst case (six
 * bytes a byte) is made once, then written without a check. */
#define ESC_BLOCK 4096

/* s[0..n) escaped at w, which has room for 6 * n bytes; the end. */
static char *
put_block(char *w, const char *p, const char *e)
{
	unsigned char c;
	jscan_wide_t m;
	size_t k;

	while (e - p >= JSCAN_WIDE) {
		/* a block stored, as many bytes passed as come before the
		 * first to escape (the room holds the block) */
		memcpy(w, p, JSCAN_WIDE);
		if ((m = jscan_wide(p, 1)) == 0) {
			w += JSCAN_WIDE;
			p += JSCAN_WIDE;
			continue;
		}
		k = jscan_wide_first(m);
		w += k;
		p += k;
		w += put_escape(w, (unsigned char)*p++);
	}
	while (p < e) {
		c = (unsigned char)*p++;
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F)
			*w++ = (char)c;
		else
			w += put_escape(w, c);
	}
	return w;
}

/* Output written a part at a time: about OUT_PART bytes, escaped in blocks
 * of at most OUT_PART / 6 bytes, the room of their worst case. */
#define OUT_PART 65536

size_t
ndj_emit_string(const char *s, size_t n)
{
	char part[OUT_PART + 2], *w = part;
	size_t i, k, chars = 0;

	*w++ = '"';
	for (i = 0; i < n; i += k) {
		k = (size_t)(part + OUT_PART - w) / 6;
		if (k < ESC_BLOCK / 4) {
			ndj_emit_text(part, (size_t)(w - part), 0);
			w = part;
			k = OUT_PART / 6;
		}
		if (k > n - i)
			k = n - i;
		/* counted while the block is at hand, then escaped */
		chars += k - jscan_cont(s + i, k);
		w = put_block(w, s + i, s + i + k);
	}
	*w++ = '"';
	ndj_emit_text(part, (size_t)(w - part), 0);
	return chars;
}

void
json_put_string(struct buf *b, const char *s, size_t n)
{
	size_t i, k;

	buf_addc(b, '"');
	for (i = 0; i < n; i += k) {
		k = n - i < ESC_BLOCK ? n - i : ESC_BLOCK;
		buf_grow(b, 6 * k + 1);
		b->len = (size_t)(put_block(b->s + b->len, s + i, s + i + k) -
		    b->s);
	}
	buf_addc(b, '"');
}

/* The shortest "%.Ng" that reads back as the same double. */
void
json_put_real(struct buf *b, double d)
{
	char tmp[40];
	int p;

	if (!isfinite(d)) {
		buf_adds(b, "null");
		return;
	}
	for (p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*g", p, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	/* Plain notation for ordinary magnitudes: 1500.0, not 1.5e+03. */
	if (strchr(tmp, 'e') && fabs(d) >= 1e-4 && fabs(d) < 1e16) {
		char plain[40];
		int e10 = (int)floor(log10(fabs(d))), dec = p - 1 - e10;

		snprintf(plain, sizeof(plain), "%.*f", dec < 0 ? 0 : dec, d);
		if (strtod(plain, NULL) == d)
			memcpy(tmp, plain, strlen(plain) + 1);
	}
	buf_adds(b, tmp);
	if (strpbrk(tmp, ".eEn") == NULL)
		buf_add(b, ".0", 2);
}

void
json_compact_buf(struct buf *b, const json_t *v)
{
	const char *key;
	json_t *x;
	size_t i, klen;
	int first = 1;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		buf_addc(b, '{');
		/* keys by length: a key may hold a NUL (json_object_setn) */
		json_object_keylen_foreach((json_t *)v, key, klen, x) {
			if (!first)
				buf_addc(b, ',');
			first = 0;
			json_put_string(b, key, klen);
			buf_addc(b, ':');
			json_compact_buf(b, x);
		}
		buf_addc(b, '}');
		break;
	case JSON_ARRAY:
		buf_addc(b, '[');
		json_array_foreach(v, i, x) {
			if (i)
				buf_addc(b, ',');
			json_compact_buf(b, x);
		}
		buf_addc(b, ']');
		break;
	case JSON_STRING:
		json_put_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		buf_addf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		json_put_real(b, json_real_value(v));
		break;
	case JSON_TRUE:
		buf_adds(b, "true");
		break;
	case JSON_FALSE:
		buf_adds(b, "false");
		break;
	case JSON_NULL:
		buf_adds(b, "null");
		break;
	}
}

char *
json_compact(const json_t *v, size_t *len)
{
	struct buf b = BUF_INIT;

	json_compact_buf(&b, v);
	return buf_detach(&b, len);
}

int
json_compact_fp(FILE *fp, const json_t *v)
{
	static struct buf b;

	buf_reset(&b);
	json_compact_buf(&b, v);
	if (b.len && fwrite(b.s, 1, b.len, fp) != b.len)
		return -1;
	if (b.cap > (1u << 24)) {
		buf_release(&b);
	}
	return 0;
}
