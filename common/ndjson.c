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
		v = ndj_parse_plain(r->buf, len);
		if (v == NULL)
			v = json_loadb(r->buf, len, JSON_REJECT_DUPLICATES |
			    JSON_DECODE_ANY, &e);
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

/* ---------------------------------------------------------------- plain lines */

/*
 * ndj_parse_plain: a reader of the plain subset of JSON records (see
 * ndjson.h) that builds the tree json_loadb builds, without jansson's
 * lexer, which reads a byte at a time.  Whatever it is not sure of, it
 * leaves to json_loadb: it gives up (NULL) and jansson reads the line.
 */
#define PLAIN_DEPTH 64
#define ONES ((uint64_t)0x0101010101010101ULL)
#define HIGHS ((uint64_t)0x8080808080808080ULL)

struct plain {
	const char *s, *e;	/* the line */
	struct buf tmp;		/* a string with escapes, unescaped */
	int depth;
};

static json_t *plain_value(struct plain *pl, const char **pp);

static const char *
plain_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Any zero byte in x (exact for "any"; Hacker's Delight 6-1). */
static int
plain_zero8(uint64_t x)
{
	return ((x - ONES) & ~x & HIGHS) != 0;
}

/* Any byte of x below 0x20, '"' or '\\'. */
static int
plain_special8(uint64_t x)
{
	return ((x - ONES * 0x20) & ~x & HIGHS) != 0 ||
	    plain_zero8(x ^ (ONES * '"')) || plain_zero8(x ^ (ONES * '\\'));
}

/* The first '"', '\\' or control byte from p on, or e. */
static const char *
plain_scan(const char *p, const char *e)
{
	uint64_t x;

	while (e - p >= 8) {
		memcpy(&x, p, 8);
		if (plain_special8(x))
			break;
		p += 8;
	}
	while (p < e && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
		p++;
	return p;
}

/*
 * The string at *pp (just past its '"'): its text in *s, *n, *pp past the
 * closing quote.  0: the text is the line's own bytes; 1: it had escapes
 * and is in pl->tmp; -1 for a control byte, a \u escape or a bad escape:
 * left to jansson.
 */
static int
plain_string(struct plain *pl, const char **pp, const char **s, size_t *n)
{
	const char *p = *pp, *q = plain_scan(p, pl->e);
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;

	if (q < pl->e && *q == '"') {	/* no escape: the line's own bytes */
		*s = p;
		*n = (size_t)(q - p);
		*pp = q + 1;
		return 0;
	}
	buf_reset(&pl->tmp);
	for (;;) {
		buf_add(&pl->tmp, p, (size_t)(q - p));
		if (q >= pl->e || *q != '\\' || q + 1 >= pl->e)
			break;
		if ((k = memchr(from, q[1], sizeof from - 1)) == NULL)
			return -1;
		buf_addc(&pl->tmp, to[k - from]);
		p = q + 2;
		q = plain_scan(p, pl->e);
	}
	if (q >= pl->e || *q != '"')
		return -1;
	*s = buf_str(&pl->tmp);
	*n = pl->tmp.len;
	*pp = q + 1;
	return 1;
}

static int
plain_delim(const char *p, const char *e)
{
	return p == e || strchr(" \t\n\r,]}", *p) != NULL;
}

/* An integer of at most 18 digits, no leading zero, not -0; else NULL. */
static json_t *
plain_number(struct plain *pl, const char **pp)
{
	const char *p = *pp;
	int neg = *p == '-';
	long long v = 0;
	size_t nd = 0;

	p += neg;
	if (p < pl->e && *p == '0' && !neg && plain_delim(p + 1, pl->e)) {
		*pp = p + 1;
		return json_integer(0);
	}
	if (p >= pl->e || *p < '1' || *p > '9')
		return NULL;
	while (p < pl->e && *p >= '0' && *p <= '9' && nd < 19) {
		v = v * 10 + (*p++ - '0');
		nd++;
	}
	if (nd > 18 || !plain_delim(p, pl->e))
		return NULL;
	*pp = p;
	return json_integer(neg ? -v : v);
}

static json_t *
plain_word(struct plain *pl, const char **pp)
{
	static const char *const w[] = { "true", "false", "null" };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(w[i]);
		if ((size_t)(pl->e - *pp) >= n && memcmp(*pp, w[i], n) == 0 &&
		    plain_delim(*pp + n, pl->e)) {
			*pp += n;
			return i == 0 ? json_true() : i == 1 ? json_false() :
			    json_null();
		}
	}
	return NULL;
}

/* One "key": value of an object into o, *pp past it; -1: give up. */
static int
plain_member(struct plain *pl, json_t *o, const char **pp)
{
	const char *p = *pp, *k;
	char *own = NULL;
	json_t *v;
	size_t kn, size;
	int r;

	if (p >= pl->e || *p != '"')
		return -1;
	p++;
	if ((r = plain_string(pl, &p, &k, &kn)) < 0)
		return -1;
	p = plain_ws(p, pl->e);
	if (p >= pl->e || *p != ':')
		return -1;
	if (r == 1)		/* in pl->tmp, which the value reuses */
		k = own = xstrndup(k, kn);
	p = plain_ws(p + 1, pl->e);
	v = plain_value(pl, &p);
	size = json_object_size(o);
	/* a repeated key replaces nothing here: jansson refuses and words it */
	if (v != NULL && (json_object_setn_new_nocheck(o, k, kn, v) < 0 ||
	    json_object_size(o) == size))
		v = NULL;
	free(own);
	*pp = p;
	return v != NULL ? 0 : -1;
}

/*
 * The members of an object or the items of an array (*pp just past its
 * '{' or '['), up to close; NULL: give up.
 */
static json_t *
plain_container(struct plain *pl, const char **pp, char close)
{
	json_t *c = close == '}' ? json_object() : json_array(), *v;
	const char *p = plain_ws(*pp, pl->e);
	int ok;

	if (p < pl->e && *p == close) {
		*pp = p + 1;
		return c;
	}
	for (;;) {
		if (close == '}')
			ok = plain_member(pl, c, &p) == 0;
		else
			ok = (v = plain_value(pl, &p)) != NULL &&
			    json_array_append_new(c, v) == 0;
		if (ok)
			p = plain_ws(p, pl->e);
		if (!ok || p >= pl->e || (*p != close && *p != ','))
			break;
		if (*p == close) {
			*pp = p + 1;
			return c;
		}
		p = plain_ws(p + 1, pl->e);
	}
	json_decref(c);
	return NULL;
}

static json_t *
plain_value(struct plain *pl, const char **pp)
{
	const char *p = *pp, *s;
	json_t *v = NULL;
	size_t n;

	if (p >= pl->e)
		return NULL;
	if (*p == '{' || *p == '[') {
		if (++pl->depth > PLAIN_DEPTH)
			return NULL;
		p++;
		v = plain_container(pl, &p, *(p - 1) == '{' ? '}' : ']');
		pl->depth--;
	} else if (*p == '"') {
		p++;
		if (plain_string(pl, &p, &s, &n) >= 0)
			v = json_stringn_nocheck(s, n);
	} else if (*p == '-' || (*p >= '0' && *p <= '9'))
		v = plain_number(pl, &p);
	else
		v = plain_word(pl, &p);
	if (v != NULL)
		*pp = p;
	return v;
}

json_t *
ndj_parse_plain(const char *s, size_t n)
{
	struct plain pl;
	const char *p = plain_ws(s, s + n);
	json_t *v = NULL;

	memset(&pl, 0, sizeof pl);
	pl.s = s;
	pl.e = s + n;
	if (p < pl.e && *p == '{')
		v = plain_value(&pl, &p);
	buf_release(&pl.tmp);
	if (v != NULL && plain_ws(p, pl.e) != pl.e) {
		json_decref(v);		/* more after the object */
		v = NULL;
	}
	return v;
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

/*
 * The length of the run at s (at most n) of bytes a JSON string holds as
 * they are: none below 0x20, no '"', '\\' or 0x7F.
 */
static size_t
plain_run(const char *s, size_t n)
{
	uint64_t x;
	size_t i = 0;

	while (n - i >= 8) {
		memcpy(&x, s + i, 8);
		if (plain_special8(x) || plain_zero8(x ^ (ONES * 0x7F)))
			break;
		i += 8;
	}
	return i;
}

static void
put_string(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, start = 0;
	unsigned char c;
	char esc[7];

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		i += plain_run(s + i, n - i);	/* bytes written as they are */
		if (i >= n)
			break;
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
