/*
 * flat.c - bctx's reader of flat records: the page and link records bctx
 * assemble reads by the thousand, each an NDJSON line holding one object
 * whose values are strings, numbers, true, false or null.  Such a line is
 * read in one pass, its strings decoded into one buffer, no JSON tree built:
 * the records' fields are taken straight from the line.
 *
 * The common reader (ndjson.h) stays the judge of what is JSON.  A line
 * read here is exactly one that json_loadb accepts as the same object: its
 * UTF-8 is checked as ndjson.c checks it (utf8_valid), and anything this
 * reader does not take for certain (a nested array or object, a repeated
 * key, a control byte in a string, \u0000, an escaped surrogate, a number
 * out of range or not in JSON's grammar, text after the object, more than
 * BCTX_FLAT_MAX keys, any other doubt) makes the line one for
 * bctx_reader_json, which hands the line as read to the common reader: the
 * record it makes, or its message with the file and line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bctx.h"

void
bctx_reader_open(struct bctx_reader *r, const char *path)
{
	memset(r, 0, sizeof *r);
	if (path == NULL || strcmp(path, "-") == 0) {
		r->fp = stdin;
		r->name = "<stdin>";
		return;
	}
	r->fp = fopen(path, "rb");
	if (r->fp == NULL)
		die_errno("%s", path);
	r->name = path;
	r->own = 1;
}

void
bctx_reader_close(struct bctx_reader *r)
{
	if (r->own && r->fp)
		fclose(r->fp);
	free(r->line);
	buf_release(&r->dec);
	memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- scanner */

struct scan {
	const char *p, *end;
	struct buf *dec;	/* room for the whole line: never moves */
};

static void
skip_ws(struct scan *sc)
{
	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t' ||
	    *sc->p == '\r' || *sc->p == '\n'))
		sc->p++;
}

#define ONES8 ((uint64_t)0x0101010101010101ULL)
#define HIGH8 ((uint64_t)0x8080808080808080ULL)

/* Whether any byte of x is zero (Hacker's Delight 6-1, exact for "any"). */
static int
has_zero(uint64_t x)
{
	return ((x - ONES8) & ~x & HIGH8) != 0;
}

/* The bytes at p (before end) a string holds as they are: no '"', no '\\',
 * no control byte; eight at a time, then one by one. */
static const char *
plain_span(const char *p, const char *end)
{
	uint64_t x;

	while (end - p >= 8) {
		memcpy(&x, p, 8);
		if (((x - ONES8 * 0x20) & ~x & HIGH8) != 0 ||
		    has_zero(x ^ (ONES8 * '"')) || has_zero(x ^ (ONES8 * '\\')))
			break;
		p += 8;
	}
	while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
		p++;
	return p;
}

static int
hex4(const char *p, uint32_t *cp)
{
	int i, d;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -1;
		*cp = *cp << 4 | (uint32_t)d;
	}
	return 0;
}

/* One escape after its '\\' at sc->p, decoded into dec; -1: not taken. */
static int
escape(struct scan *sc)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *q;
	uint32_t cp;
	char u[4];

	if (sc->p >= sc->end)
		return -1;
	if (*sc->p != '\0' && (q = strchr(from, *sc->p)) != NULL) {
		buf_addc(sc->dec, to[q - from]);
		sc->p++;
		return 0;
	}
	/* \u0000 and surrogates: jansson's reading, by the common reader */
	if (*sc->p != 'u' || sc->end - sc->p < 5 || hex4(sc->p + 1, &cp) < 0 ||
	    cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	buf_add(sc->dec, u, (size_t)utf8_encode(cp, u));
	sc->p += 5;
	return 0;
}

/* The string at sc->p ('"'), decoded and NUL-terminated in dec: its
 * offset there and length; -1 when not taken. */
static int
string(struct scan *sc, size_t *off, size_t *len)
{
	const char *q;

	sc->p++;
	*off = sc->dec->len;
	for (;;) {
		q = plain_span(sc->p, sc->end);
		buf_add(sc->dec, sc->p, (size_t)(q - sc->p));
		sc->p = q;
		if (q >= sc->end || (unsigned char)*q < 0x20)
			return -1;
		sc->p++;
		if (*q == '"')
			break;
		if (escape(sc) < 0)
			return -1;
	}
	*len = sc->dec->len - *off;
	buf_addc(sc->dec, '\0');
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

/* The value at sc->p into f (offsets into dec for a string). */
static int
value(struct scan *sc, struct bctx_field *f, size_t *off)
{
	const char *s = sc->p;

	if (s >= sc->end)
		return -1;
	switch (*s) {
	case '"':
		f->type = BCTX_F_STR;
		return string(sc, off, &f->len);
	case 't':
		f->type = BCTX_F_TRUE;
		return literal(sc, "true");
	case 'f':
		f->type = BCTX_F_FALSE;
		return literal(sc, "false");
	case 'n':
		f->type = BCTX_F_NULL;
		return literal(sc, "null");
	default:
		f->type = BCTX_F_NUM;
		if (number(sc) < 0)
			return -1;
		/* the number's text, as written */
		f->len = (size_t)(sc->p - s);
		*off = sc->dec->len;
		buf_add(sc->dec, s, f->len);
		buf_addc(sc->dec, '\0');
		return 0;
	}
}

/* The object of the line into rec; -1 when not taken. */
static int
object(struct scan *sc, struct bctx_flat *rec)
{
	size_t koff[BCTX_FLAT_MAX], voff[BCTX_FLAT_MAX], i, j;
	struct bctx_field *f;

	rec->n = 0;
	skip_ws(sc);
	if (sc->p >= sc->end || *sc->p++ != '{')
		return -1;
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == '}')
		sc->p++;
	else
		for (;;) {
			if (rec->n == BCTX_FLAT_MAX || sc->p >= sc->end ||
			    *sc->p != '"')
				return -1;
			f = &rec->f[rec->n];
			if (string(sc, &koff[rec->n], &f->klen) < 0)
				return -1;
			skip_ws(sc);
			if (sc->p >= sc->end || *sc->p++ != ':')
				return -1;
			skip_ws(sc);
			if (value(sc, f, &voff[rec->n]) < 0)
				return -1;
			rec->n++;
			skip_ws(sc);
			if (sc->p < sc->end && *sc->p == ',') {
				sc->p++;
				skip_ws(sc);
				continue;
			}
			if (sc->p >= sc->end || *sc->p++ != '}')
				return -1;
			break;
		}
	skip_ws(sc);
	if (sc->p != sc->end)
		return -1;
	/* dec did not move (room for the line was made first): point into it */
	for (i = 0; i < rec->n; i++) {
		f = &rec->f[i];
		f->key = sc->dec->s + koff[i];
		f->s = f->type == BCTX_F_STR || f->type == BCTX_F_NUM ?
		    sc->dec->s + voff[i] : NULL;
		for (j = 0; j < i; j++)		/* a repeated key */
			if (rec->f[j].klen == f->klen &&
			    memcmp(rec->f[j].key, f->key, f->klen) == 0)
				return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- lines */

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

int
bctx_reader_next(struct bctx_reader *r, struct bctx_flat *rec)
{
	struct scan sc;
	ssize_t got;
	size_t len, bad;

	for (;;) {
		errno = 0;
		got = getdelim(&r->line, &r->cap, '\n', r->fp);
		if (got < 0) {
			if (errno == ENOMEM)
				die("%s: out of memory reading a line", r->name);
			if (!ferror(r->fp))
				return BCTX_READ_END;
			got = errno;
			ndj_set_where(r->name, r->lineno + 1);
			ndj_die("read error: %s", strerror((int)got));
		}
		r->lineno++;
		r->len = (size_t)got;
		ndj_set_where(r->name, r->lineno);
		len = r->len;
		if (len > 0 && r->line[len - 1] == '\n')
			len--;
		if (len > 0 && r->line[len - 1] == '\r')
			len--;
		if (memchr(r->line, '\0', len) || !utf8_valid(r->line, len, &bad))
			return BCTX_READ_JSON;
		if (blank(r->line, len))
			continue;
		buf_reset(&r->dec);
		buf_grow(&r->dec, len + 1);
		sc.p = r->line;
		sc.end = r->line + len;
		sc.dec = &r->dec;
		return object(&sc, rec) == 0 ? BCTX_READ_FLAT : BCTX_READ_JSON;
	}
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
