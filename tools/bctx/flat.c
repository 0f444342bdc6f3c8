/*
 * flat.c - bctx's reader of flat records: the page and link records bctx
 * assemble reads by the thousand, each an NDJSON line holding one object
 * whose values are strings, numbers, true, false, null or arrays of them.
 * Such a line is checked in one pass and its strings decoded in place in a
 * second, no JSON tree built, nothing copied: the records' fields are the
 * line's bytes.
 *
 * The common reader (ndjson.h) stays the judge of what is JSON.  A line
 * read here is exactly one that json_loadb accepts as the same object: its
 * UTF-8 is checked as ndjson.c checks it (utf8_valid), in the strings that
 * hold a byte other than ASCII (the grammar takes no such byte, nor a NUL,
 * outside a string), and anything this
 * reader does not take for certain (an object within, arrays nested
 * deeper than BCTX_FLAT_DEPTH, a repeated key or one written with an
 * escape, a control byte in a string, \u0000, an escaped surrogate, a
 * number out of range or not in JSON's grammar, text after the object,
 * more than BCTX_FLAT_MAX keys, any other doubt) makes the line one for
 * bctx_reader_json, which hands the line as read to the common reader: the
 * record it makes, or its message with the file and line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "jsonscan.h"
#include "bctx.h"

/* Bytes read at a time: a study's page files are read a chunk at a time,
 * a file of two chunks or less in one read (its end known from its size). */
#define CHUNK (1u << 20)

void
bctx_reader_open(struct bctx_reader *r, const char *path)
{
	struct stat st;
	off_t pos;

	memset(r, 0, sizeof *r);
	r->left = -1;
	if (path == NULL || strcmp(path, "-") == 0) {
		r->fd = 0;
		r->name = "<stdin>";
	} else {
		/* as the common reader's opening (ndj_reader_open) says it */
		if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			die_errno("%s", path);
		r->own = 1;
		r->name = path;
	}
	/* a regular file's end is known from its size: no read to find it */
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && (pos = r->own ? 0 :
	    lseek(r->fd, 0, SEEK_CUR)) >= 0)
		r->left = st.st_size > pos ? st.st_size - pos : 0;
}

void
bctx_reader_close(struct bctx_reader *r)
{
	if (r->own)
		close(r->fd);
	free(r->buf);
	memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- scanner */

/*
 * A line is read in two passes: the first checks it and notes where each
 * key and value starts, writing nothing (a line refused costs no copy);
 * the second decodes the keys and strings of a line taken in place (a
 * string decoded is never longer than written, so each stays within its
 * own quotes, and ends with a NUL where its closing quote was or before).
 */
struct scan {
	const char *p, *end;
	char *w;		/* where decoded bytes go; NULL in the first pass */
	int high;		/* first pass: not 0 when a string's plain
				 * runs (or a few bytes after) hold a byte
				 * other than ASCII */
};

static void
skip_ws(struct scan *sc)
{
	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t' ||
	    *sc->p == '\r' || *sc->p == '\n'))
		sc->p++;
}

static int
plain(char c)
{
	return c != '"' && c != '\\' && (unsigned char)c >= 0x20;
}

/* The bytes at p (before end) a string holds as they are: no '"', no '\\',
 * no control byte; a block at a time, then one by one.  *high is set
 * when a byte passed (or one of the block after them) is not ASCII. */
static const char *
plain_span(const char *p, const char *end, int *high)
{
	jscan_wide_t m;
	int h = 0;

	while (end - p >= JSCAN_WIDE) {
		h |= jscan_wide_high(p);
		if ((m = jscan_wide(p, 0)) != 0) {
			*high |= h;
			return p + jscan_wide_first(m);
		}
		p += JSCAN_WIDE;
	}
	while (p < end && plain(*p))
		h |= (unsigned char)*p++ & 0x80;
	*high |= h;
	return p;
}

/* The bytes plain_span passes at sc->p moved to sc->w, behind them since
 * an escape (w <= p). */
static void
move_span(struct scan *sc)
{
	const char *p = sc->p, *end = sc->end;
	char *w = sc->w, x[JSCAN_WIDE];
	jscan_wide_t m;
	size_t k;

	if (w == p) {
		sc->p = plain_span(p, end, &sc->high);
		sc->w += sc->p - p;
		return;
	}
	while (end - p >= JSCAN_WIDE) {
		/* a block loaded before any byte is stored: w < p */
		memcpy(x, p, JSCAN_WIDE);
		if ((m = jscan_wide(p, 0)) == 0) {
			memcpy(w, x, JSCAN_WIDE);
			w += JSCAN_WIDE;
			p += JSCAN_WIDE;
			continue;
		}
		k = jscan_wide_first(m);
		/* the block stored whole where it ends before the escape at
		 * p + k, else no byte past the span written */
		if (p - w >= JSCAN_WIDE)
			memcpy(w, x, JSCAN_WIDE);
		else
			memmove(w, p, k);
		w += k;
		p += k;
		break;
	}
	while (p < end && plain(*p))
		*w++ = *p++;
	sc->p = p;
	sc->w = w;
}

/* One escape after its '\\' at sc->p, decoded at sc->w (in the second
 * pass); -1: not taken. */
static int
escape(struct scan *sc)
{
	uint32_t cp;
	size_t n;
	char u[4], c;

	if (sc->p >= sc->end)
		return -1;
	if ((c = jscan_escape(*sc->p)) != 0) {
		if (sc->w)
			*sc->w++ = c;
		sc->p++;
		return 0;
	}
	/* \u0000 and surrogates: jansson's reading, by the common reader */
	if (*sc->p != 'u' || sc->end - sc->p < 5 || jscan_hex4(sc->p + 1, &cp) < 0 ||
	    cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	if (sc->w) {	/* four bytes at most for the six of \uXXXX */
		n = (size_t)utf8_encode(cp, u);
		memcpy(sc->w, u, n);
		sc->w += n;
	}
	sc->p += 5;
	return 0;
}

/* Past the string at sc->p ('"'), decoded and NUL-terminated at sc->w
 * in the second pass; -1 when not taken. */
static int
string(struct scan *sc)
{
	const char *q, *start = ++sc->p;
	size_t bad;

	sc->high = 0;
	for (;;) {
		if (sc->w)
			move_span(sc);
		else
			sc->p = plain_span(sc->p, sc->end, &sc->high);
		q = sc->p;
		if (q >= sc->end || (unsigned char)*q < 0x20)
			return -1;
		sc->p++;
		if (*q == '"')
			break;
		if (escape(sc) < 0)
			return -1;
	}
	if (sc->w)
		*sc->w = '\0';
	/* the line's UTF-8 checked where it can be other than ASCII: the
	 * grammar takes no such byte outside a string */
	else if (sc->high &&
	    !utf8_valid(start, (size_t)(q - start), &bad))
		return -1;
	return 0;
}

/* A number in JSON's grammar that jansson reads without overflow. */
static int
number(struct scan *sc)
{
	const char *s = sc->p, *p = s;
	char tmp[64];
	int real = 0;

	if (p < sc->end && *p == '-')
		p++;
	if (p < sc->end && *p == '0')
		p++;
	else if (p < sc->end && *p >= '1' && *p <= '9')
		while (p < sc->end && *p >= '0' && *p <= '9')
			p++;
	else
		return -1;
	if (p < sc->end && *p == '.') {
		real = 1;
		if (++p >= sc->end || *p < '0' || *p > '9')
			return -1;
		while (p < sc->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < sc->end && (*p == 'e' || *p == 'E')) {
		real = 1;
		if (++p < sc->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= sc->end || *p < '0' || *p > '9')
			return -1;
		while (p < sc->end && *p >= '0' && *p <= '9')
			p++;
	}
	if ((size_t)(p - s) >= sizeof tmp)
		return -1;
	memcpy(tmp, s, (size_t)(p - s));
	tmp[p - s] = '\0';
	errno = 0;
	if (real)
		strtod(tmp, NULL);
	else
		strtoll(tmp, NULL, 10);
	if (errno == ERANGE)
		return -1;
	sc->p = p;
	return 0;
}

static int
literal(struct scan *sc, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, word, n) != 0)
		return -1;
	sc->p += n;
	return 0;
}

static int value(struct scan *sc, struct bctx_field *f, int depth);

/* After a member or an element: 1 at a ',' (passed), 0 at close (passed),
 * -1 at anything else. */
static int
next_or_close(struct scan *sc, char close)
{
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == ',') {
		sc->p++;
		skip_ws(sc);
		return 1;
	}
	if (sc->p >= sc->end || *sc->p++ != close)
		return -1;
	return 0;
}

/* An array of strings, numbers, literals and arrays (no object: the
 * common reader judges repeated keys at every depth). */
static int
array(struct scan *sc, int depth)
{
	struct bctx_field el;
	int rc;

	if (depth >= BCTX_FLAT_DEPTH)
		return -1;
	sc->p++;
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == ']') {
		sc->p++;
		return 0;
	}
	do {
		if (value(sc, &el, depth + 1) < 0)
			return -1;
	} while ((rc = next_or_close(sc, ']')) > 0);
	return rc;
}

/* The value at sc->p: its type into f, f->s at its first byte, f->len
 * its length as written (first pass). */
static int
value(struct scan *sc, struct bctx_field *f, int depth)
{
	int rc;

	f->s = sc->p;
	if (sc->p >= sc->end)
		return -1;
	switch (*sc->p) {
	case '[':
		f->type = BCTX_F_ARRAY;
		rc = array(sc, depth);
		break;
	case '{':
		return -1;
	case '"':
		f->type = BCTX_F_STR;
		rc = string(sc);
		break;
	case 't':
		f->type = BCTX_F_TRUE;
		rc = literal(sc, "true");
		break;
	case 'f':
		f->type = BCTX_F_FALSE;
		rc = literal(sc, "false");
		break;
	case 'n':
		f->type = BCTX_F_NULL;
		rc = literal(sc, "null");
		break;
	default:
		f->type = BCTX_F_NUM;
		rc = number(sc);
	}
	f->len = (size_t)(sc->p - f->s);
	return rc;
}

/*
 * Whether key f (its first byte at f->key, its closing quote before end)
 * repeats a key before it; a key written with an escape counts as one
 * (the common reader compares it decoded).  Sets f->klen as written.
 */
static int
repeated(const struct bctx_flat *rec, struct bctx_field *f, const char *end)
{
	size_t i;

	f->klen = (size_t)(end - f->key) - 2;
	if (memchr(f->key + 1, '\\', f->klen))
		return 1;
	for (i = 0; rec->f + i < f; i++)
		if (rec->f[i].klen == f->klen && memcmp(rec->f[i].key + 1,
		    f->key + 1, f->klen) == 0)
			return 1;
	return 0;
}

/* The members of the object at sc->p, checked, their keys and values
 * where they are written (first pass); -1 when not taken. */
static int
members(struct scan *sc, struct bctx_flat *rec)
{
	struct bctx_field *f;
	int rc;

	rec->n = 0;
	skip_ws(sc);
	if (sc->p >= sc->end || *sc->p++ != '{')
		return -1;
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == '}') {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (rec->n == BCTX_FLAT_MAX || sc->p >= sc->end || *sc->p != '"')
			return -1;
		f = &rec->f[rec->n++];
		f->key = sc->p;
		if (string(sc) < 0 || repeated(rec, f, sc->p))
			return -1;
		skip_ws(sc);
		if (sc->p >= sc->end || *sc->p++ != ':')
			return -1;
		skip_ws(sc);
		if (value(sc, f, 0) < 0)
			return -1;
		if ((rc = next_or_close(sc, '}')) <= 0)
			return rc;
	}
}

/* The string written at raw (its '"') decoded in place: its length;
 * it starts at raw + 1. */
static size_t
decode(char *raw, const char *end)
{
	struct scan sc;

	sc.p = raw;
	sc.end = end;
	sc.w = raw + 1;
	string(&sc);		/* checked in the first pass */
	return (size_t)(sc.w - (raw + 1));
}

/* The object of the line [p, end) into rec, its strings decoded in place;
 * -1 when not taken (the line untouched). */
static int
object(char *p, const char *end, struct bctx_flat *rec)
{
	struct scan sc;
	struct bctx_field *f;
	size_t i;
	char *raw;

	sc.p = p;
	sc.end = end;
	sc.w = NULL;
	if (members(&sc, rec) < 0)
		return -1;
	skip_ws(&sc);
	if (sc.p != end)
		return -1;
	/*
	 * The line is the reader's own: p + (x - p) is x, writable.  A key
	 * has no escape (repeated) and a string without one is its bytes as
	 * written: their closing quote becomes their NUL, no decoding.
	 */
	for (i = 0; i < rec->n; i++) {
		f = &rec->f[i];
		raw = p + (f->key - p);
		raw[f->klen + 1] = '\0';
		f->key = raw + 1;
		raw = p + (f->s - p);
		if (f->type == BCTX_F_STR && memchr(raw + 1, '\\', f->len - 2)) {
			f->len = decode(raw, end);
			f->s = raw + 1;
		} else if (f->type == BCTX_F_STR) {
			f->len -= 2;
			raw[f->len + 1] = '\0';
			f->s = raw + 1;
		} else if (f->type == BCTX_F_NUM || f->type == BCTX_F_ARRAY)
			raw[f->len] = '\0';	/* on what follows: ws , or } */
		else
			f->s = NULL;
	}
	return 0;
}

/* ---------------------------------------------------------------- lines */

/*
 * More bytes after the unread ones [beg, fill), moved to the start of the
 * buffer: a chunk, or what is left of a regular file when no more than two
 * (a chunk would leave less than one more, which a line longer than the
 * chunk would grow the buffer for, moving what was read).  The number of
 * bytes read, 0 at end of input; a read error dies.
 */
static size_t
fill_more(struct bctx_reader *r)
{
	size_t want;
	ssize_t got;
	int e;

	if (r->left == 0)
		return 0;
	if (r->beg > 0) {
		memmove(r->buf, r->buf + r->beg, r->fill - r->beg);
		r->fill -= r->beg;
		r->beg = 0;
	}
	want = r->left > 0 && r->left <= 2 * (off_t)CHUNK ? (size_t)r->left :
	    CHUNK;
	/* the room after a line begun will do, unless it is small: the
	 * buffer grows for long lines only */
	if (r->cap > r->fill + want / 4 && r->cap - r->fill - 1 < want)
		want = r->cap - r->fill - 1;
	if (r->cap - r->fill < want + 1) {
		r->cap = r->fill + want + 1 > 2 * r->cap ? r->fill + want + 1 :
		    2 * r->cap;
		r->buf = xrealloc(r->buf, r->cap);
	}
	while ((got = read(r->fd, r->buf + r->fill, want)) < 0 && errno == EINTR)
		;
	if (got < 0) {
		e = errno;
		ndj_set_where(r->name, r->lineno + 1);
		ndj_die("read error: %s", strerror(e));
	}
	r->fill += (size_t)got;
	if (got == 0)
		r->left = 0;
	else if (r->left > 0)
		r->left = r->left > got ? r->left - got : 0;
	return (size_t)got;
}

/* The next line into r->line and r->len (with its newline, if any); 0 at
 * end of input. */
static int
next_line(struct bctx_reader *r)
{
	size_t seen = 0;
	char *nl;

	for (;;) {
		nl = r->fill > r->beg + seen ? memchr(r->buf + r->beg + seen,
		    '\n', r->fill - r->beg - seen) : NULL;
		if (nl != NULL)
			break;
		seen = r->fill - r->beg;
		if (fill_more(r) == 0) {
			if (r->fill == r->beg)
				return 0;
			nl = r->buf + r->fill - 1;	/* no newline at the end */
			break;
		}
	}
	r->line = r->buf + r->beg;
	r->len = (size_t)(nl + 1 - r->line);
	r->beg += r->len;
	return 1;
}

int
bctx_reader_next(struct bctx_reader *r, struct bctx_flat *rec)
{
	struct scan sc;
	size_t len;

	while (next_line(r)) {
		r->lineno++;
		ndj_set_where(r->name, r->lineno);
		len = r->len;
		if (len > 0 && r->line[len - 1] == '\n')
			len--;
		if (len > 0 && r->line[len - 1] == '\r')
			len--;
		sc.p = r->line;
		sc.end = r->line + len;
		skip_ws(&sc);
		if (sc.p == sc.end)	/* a blank line */
			continue;
		rec->from = r;
		return object(r->line, r->line + len, rec) == 0 ?
		    BCTX_READ_FLAT : BCTX_READ_JSON;
	}
	return BCTX_READ_END;
}

void
bctx_reader_each(const char *path, bctx_flat_fn flat, bctx_json_fn json,
    void *arg)
{
	struct bctx_reader r;
	struct bctx_flat rec;
	json_t *v;
	int k;

	bctx_reader_open(&r, path);
	while ((k = bctx_reader_next(&r, &rec)) != BCTX_READ_END) {
		if (k == BCTX_READ_FLAT && flat(&rec, arg) == 0)
			continue;
		/* a record with a word to say about, or no flat one */
		v = k == BCTX_READ_FLAT ? bctx_flat_object(&rec) :
		    bctx_reader_json(&r);
		json(v, arg);
		json_decref(v);
	}
	bctx_reader_close(&r);
}

json_t *
bctx_reader_json(struct bctx_reader *r)
{
	struct ndj_reader nr;
	FILE *fp;
	json_t *v;

	fp = fmemopen(r->line, r->len, "r");
	if (fp == NULL)
		die_errno("%s:%lu", r->name, r->lineno);
	ndj_reader_init(&nr, fp, r->name);
	nr.line = r->lineno - 1;
	nr.cap = r->len + 1;		/* room for the line at once */
	nr.buf = xmalloc(nr.cap);
	v = ndj_next(&nr);
	ndj_reader_close(&nr);
	fclose(fp);
	if (v == NULL)
		die("%s:%lu: no record on the line", r->name, r->lineno);
	return v;
}

const struct bctx_field *
bctx_flat_get(const struct bctx_flat *rec, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < rec->n; i++)
		if (rec->f[i].klen == n && memcmp(rec->f[i].key, key, n) == 0)
			return &rec->f[i];
	return NULL;
}

/*
 * The array of strings written at f (checked in the first pass) as the
 * array json_loadb makes, each string copied and decoded there; NULL
 * when an element is not a string (json_loadb reads that array).
 */
static json_t *
string_array(const struct bctx_field *f)
{
	const char *p = f->s + 1, *end = f->s + f->len, *q;
	struct buf t = BUF_INIT;
	json_t *a = json_array();
	size_t n;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
		    *p == '\n'))
			p++;
		if (p >= end || *p == ']')
			break;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '"') {
			json_decref(a);
			a = NULL;
			break;
		}
		for (q = p + 1; q < end && *q != '"'; q++)
			if (*q == '\\')
				q++;
		buf_reset(&t);
		buf_add(&t, p, (size_t)(q + 1 - p));
		n = decode(t.s, t.s + t.len);
		json_array_append_new(a, json_stringn_nocheck(t.s + 1, n));
		p = q + 1;
	}
	buf_release(&t);
	return a;
}

json_t *
bctx_flat_value(const struct bctx_field *f)
{
	json_t *a;

	if (f == NULL)
		return json_null();
	switch (f->type) {
	case BCTX_F_STR:
		return json_stringn_nocheck(f->s, f->len);
	case BCTX_F_NUM:	/* as jansson's lexer reads it */
		if (strpbrk(f->s, ".eE"))
			return json_real(strtod(f->s, NULL));
		return json_integer(strtoll(f->s, NULL, 10));
	case BCTX_F_ARRAY:	/* checked: jansson reads it, unless it
				 * holds strings alone */
		if ((a = string_array(f)) != NULL)
			return a;
		return json_loadb(f->s, f->len, JSON_DECODE_ANY, NULL);
	case BCTX_F_TRUE:
		return json_true();
	case BCTX_F_FALSE:
		return json_false();
	case BCTX_F_NULL:
		break;
	}
	return json_null();
}

json_t *
bctx_flat_object(const struct bctx_flat *rec)
{
	json_t *o = json_object(), *v;
	size_t i;

	for (i = 0; i < rec->n; i++) {
		/* the first pass checked the value as jansson reads it */
		if ((v = bctx_flat_value(&rec->f[i])) == NULL)
			ndj_die("%s: a value jansson does not read", rec->f[i].key);
		json_object_setn_new_nocheck(o, rec->f[i].key, rec->f[i].klen, v);
	}
	return o;
}

const char *
bctx_flat_keep(const struct bctx_flat *rec, const struct bctx_field *f,
    char **owner)
{
	struct bctx_reader *r = rec->from;
	size_t rest = r->fill - r->beg;

	/* the buffer given away only when the string is most of it: a
	 * short string does not hold a long buffer */
	if (rest >= f->len || f->len < r->cap / 2) {
		*owner = xstrndup(f->s, f->len);
		return *owner;
	}
	*owner = r->buf;
	r->cap = rest + 1;
	r->buf = xmalloc(r->cap);
	memcpy(r->buf, *owner + r->beg, rest);
	r->fill = rest;
	r->beg = 0;
	r->line = NULL;
	r->len = 0;
	return f->s;
}

int
bctx_flat_str_opt(const struct bctx_flat *rec, const char *key,
    const char **s)
{
	const struct bctx_field *f = bctx_flat_get(rec, key);

	*s = NULL;
	if (f == NULL || f->type == BCTX_F_NULL)
		return 0;
	if (f->type != BCTX_F_STR)
		return -1;
	*s = f->s;
	return 0;
}
