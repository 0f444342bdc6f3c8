/*
 * ndjson.c - the NDJSON record loop, its reader and the compact writer
 * (see ndjson.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "buf.h"
#include "err.h"
#include "ndjson.h"
#include "utf8.h"

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
}

void
ndj_reader_close(struct ndj_reader *r)
{
	if (r->own && r->fp)
		fclose(r->fp);
	free(r->buf);
	r->buf = NULL;
	r->fp = NULL;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
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
		v = json_loadb(r->buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
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

static void
put_string(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, start = 0;
	unsigned char c;
	char esc[7];

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F)
			continue;
		buf_add(b, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '"': buf_add(b, "\\\"", 2); break;
		case '\\': buf_add(b, "\\\\", 2); break;
		case '\n': buf_add(b, "\\n", 2); break;
		case '\r': buf_add(b, "\\r", 2); break;
		case '\t': buf_add(b, "\\t", 2); break;
		case '\b': buf_add(b, "\\b", 2); break;
		case '\f': buf_add(b, "\\f", 2); break;
		default:
			esc[0] = '\\'; esc[1] = 'u'; esc[2] = '0'; esc[3] = '0';
			esc[4] = hex[c >> 4]; esc[5] = hex[c & 15];
			buf_add(b, esc, 6);
		}
	}
	buf_add(b, s + start, n - start);
	buf_addc(b, '"');
}

/* The shortest "%.Ng" that reads back as the same double. */
static void
put_real(struct buf *b, double d)
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
			put_string(b, key, klen);
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
		put_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		buf_addf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		put_real(b, json_real_value(v));
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
