/*
 * csv.c - RFC 4180 CSV reader and writer (see csv.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "jsonx.h"
#include "utf8.h"

int
csv_open(struct csv_reader *r, const char *path)
{
	FILE *fp;

	if (strcmp(path, "-") == 0) {
		csv_init(r, stdin, "<stdin>");
		return 0;
	}
	fp = fopen(path, "r");
	if (fp == NULL)
		return -1;
	csv_init(r, fp, path);
	r->own = 1;
	return 0;
}

void
csv_init(struct csv_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
	r->line = 1;
	buf_init(&r->field);
}

void
csv_close(struct csv_reader *r)
{
	if (r->own && r->fp)
		fclose(r->fp);
	r->fp = NULL;
	buf_release(&r->field);
	free(r->offs);
	free(r->fields);
	r->offs = NULL;
	r->fields = NULL;
}

/*
 * The reader's one source of bytes: those given back first (a start that
 * looked like a byte order mark but was text, or the byte after a CR),
 * then the file's.  stdio promises only one ungetc, which is not enough.
 */
static int
rd(struct csv_reader *r)
{
	if (r->nback > 0)
		return r->back[--r->nback];
	return getc_unlocked(r->fp);	/* one thread reads a reader */
}

static void
unrd(struct csv_reader *r, int c)
{
	if (c != EOF && r->nback < (int)(sizeof(r->back) / sizeof(r->back[0])))
		r->back[r->nback++] = c;
}

static int
next(struct csv_reader *r)
{
	int c = rd(r);

	if (c == '\n')
		r->line++;
	return c;
}

static void
end_field(struct csv_reader *r, size_t start)
{
	if (r->nfields == r->capfields) {
		r->capfields = r->capfields ? r->capfields * 2 : 16;
		r->offs = xreallocarray(r->offs, r->capfields, sizeof(*r->offs));
	}
	r->offs[r->nfields++] = start;
	buf_addc(&r->field, '\0');
}

static int
fail(struct csv_reader *r, const char *msg)
{
	snprintf(r->err, sizeof(r->err), "%s", msg);
	return -1;
}

/* After a CR: take the LF of a CRLF; 1 when there was one. */
static int
take_lf(struct csv_reader *r)
{
	int d = rd(r);

	if (d == '\n') {
		r->line++;
		return 1;
	}
	unrd(r, d);
	return 0;
}

/*
 * The first read: skip a UTF-8 byte order mark (EF BB BF).  Any other start
 * is the data's, given back whole: EF also begins the characters U+F000 to
 * U+FFFF (fullwidth forms, for one), which a first field may start with.
 */
static void
skip_bom(struct csv_reader *r)
{
	int c, c2, c3;

	r->started = 1;
	c = rd(r);
	if (c != 0xEF) {
		unrd(r, c);
		return;
	}
	c2 = rd(r);
	c3 = c2 == 0xBB ? rd(r) : EOF;
	if (c2 == 0xBB && c3 == 0xBF)
		return;
	unrd(r, c3);
	unrd(r, c2);
	unrd(r, c);
}

/* Skip empty lines between records; returns the record's first character. */
static int
skip_empty_lines(struct csv_reader *r)
{
	int c;

	for (;;) {
		c = next(r);
		if (c == '\r') {
			if (take_lf(r))
				continue;
			break;
		}
		if (c != '\n')
			break;
	}
	return c;
}

/*
 * A quoted field, its opening quote read: the data up to the closing quote
 * (a doubled quote is one), then *cp receives what ends the field: ',', '\n'
 * (for LF, CRLF or a final CR) or EOF.
 */
static int
read_quoted(struct csv_reader *r, int *cp)
{
	int c, d;

	for (;;) {
		c = next(r);
		if (c == EOF)
			return fail(r, "unterminated quoted field");
		if (c == '"') {
			c = next(r);
			if (c != '"')
				break;
		}
		if (c == '\0')
			return fail(r, "NUL byte in field");
		buf_addc(&r->field, c);
	}
	if (c == '\r') {
		d = rd(r);
		if (d == '\n')
			r->line++;
		else if (d != EOF)
			return fail(r, "text after a closing quote");
		c = '\n';
	}
	if (c != ',' && c != '\n' && c != EOF)
		return fail(r, "text after a closing quote");
	*cp = c;
	return 0;
}

/*
 * An unquoted field starting with *cp: the data up to ',', a line end or
 * EOF, which is left in *cp ('\n' for LF, CRLF or a final CR; a CR before
 * anything else is data).
 */
static int
read_plain(struct csv_reader *r, int *cp)
{
	int c = *cp, d;

	while (c != ',' && c != '\n' && c != EOF) {
		if (c == '\r') {
			d = rd(r);
			if (d == '\n' || d == EOF) {
				if (d == '\n')
					r->line++;
				c = '\n';
				break;
			}
			unrd(r, d);
		} else if (c == '"') {
			return fail(r, "quote inside an unquoted field");
		} else if (c == '\0') {
			return fail(r, "NUL byte in field");
		}
		buf_addc(&r->field, c);
		c = next(r);
	}
	*cp = c;
	return 0;
}

/* Point r->fields at the fields read, NULL-terminated. */
static void
index_fields(struct csv_reader *r)
{
	size_t i;

	r->fields = xreallocarray(r->fields, r->nfields + 1, sizeof(*r->fields));
	for (i = 0; i < r->nfields; i++)
		r->fields[i] = r->field.s + r->offs[i];
	r->fields[r->nfields] = NULL;
}

long
csv_read(struct csv_reader *r)
{
	int c, rc;
	size_t start, bad;

	buf_reset(&r->field);
	r->nfields = 0;
	r->err[0] = '\0';
	if (!r->started)
		skip_bom(r);
	c = skip_empty_lines(r);
	if (c == EOF)
		return ferror(r->fp) ? fail(r, strerror(errno)) : 0;
	r->rec_line = r->line;
	for (;;) {		/* one field per iteration; c is its first char */
		start = r->field.len;
		rc = c == '"' ? read_quoted(r, &c) : read_plain(r, &c);
		if (rc < 0)
			return -1;
		if (r->field.len > start &&
		    !utf8_valid(r->field.s + start, r->field.len - start, &bad)) {
			snprintf(r->err, sizeof(r->err),
			    "invalid UTF-8 in field %zu", r->nfields + 1);
			return -1;
		}
		end_field(r, start);
		if (c != ',')
			break;		/* '\n' or EOF */
		c = next(r);
		if (c == '\n' || c == EOF || c == '\r') {
			/* An empty last field. */
			if (c == '\r')
				take_lf(r);
			buf_grow(&r->field, 0);
			end_field(r, r->field.len);
			break;
		}
	}
	index_fields(r);
	return (long)r->nfields;
}

json_t *
csv_load_objects(const char *path)
{
	return csv_load_objects_req(path, NULL);
}

/*
 * Release what csv_load_objects_req holds, then die with msg: a loader that
 * dies leaves nothing allocated behind (clean under LeakSanitizer, and a fuzz
 * target's exit hook can go on).
 */
static void
load_fail(struct csv_reader *r, char **head, long nhead, json_t *out,
    const char *msg)
{
	long i;

	for (i = 0; i < nhead; i++)
		free(head[i]);
	free(head);
	json_decref(out);
	csv_close(r);
	die("%s", msg);
}

json_t *
csv_load_objects_req(const char *path, const char *const *required)
{
	struct csv_reader r;
	json_t *out = NULL, *obj;
	char **head = NULL;
	char msg[1024];
	long n, nhead = 0, i, j;

	if (csv_open(&r, path) < 0)
		die_errno("%s", path);
	n = csv_read(&r);
	if (n < 0) {
		snprintf(msg, sizeof(msg), "%s:%lu: %s", path,
		    r.rec_line ? r.rec_line : r.line, r.err);
		load_fail(&r, head, nhead, out, msg);
	}
	if (n == 0) {
		snprintf(msg, sizeof(msg), "%s: empty file: expected a header row",
		    path);
		load_fail(&r, head, nhead, out, msg);
	}
	head = xcalloc((size_t)n, sizeof(*head));
	for (i = 0; i < n; i++) {
		if (r.fields[i][0] == '\0') {
			snprintf(msg, sizeof(msg), "%s:%lu: header field %ld is empty",
			    path, r.rec_line, i + 1);
			load_fail(&r, head, nhead, out, msg);
		}
		for (j = 0; j < i; j++)
			if (strcmp(head[j], r.fields[i]) == 0) {
				snprintf(msg, sizeof(msg),
				    "%s:%lu: header '%s' appears twice", path,
				    r.rec_line, r.fields[i]);
				load_fail(&r, head, nhead, out, msg);
			}
		head[i] = xstrdup(r.fields[i]);
		nhead = i + 1;
	}
	for (j = 0; required && required[j]; j++) {
		for (i = 0; i < nhead && strcmp(head[i], required[j]) != 0; i++)
			;
		if (i == nhead) {
			snprintf(msg, sizeof(msg),
			    "%s:%lu: header: missing column '%s'", path,
			    r.rec_line, required[j]);
			load_fail(&r, head, nhead, out, msg);
		}
	}
	out = json_array();
	while ((n = csv_read(&r)) != 0) {
		if (n < 0) {
			snprintf(msg, sizeof(msg), "%s:%lu: %s", path, r.rec_line,
			    r.err);
			load_fail(&r, head, nhead, out, msg);
		}
		if (n != nhead) {
			snprintf(msg, sizeof(msg),
			    "%s:%lu: expected %ld fields as in the header, got %ld",
			    path, r.rec_line, nhead, n);
			load_fail(&r, head, nhead, out, msg);
		}
		obj = json_object();
		for (i = 0; i < n; i++)
			json_set_str(obj, head[i], r.fields[i]);
		json_set_int(obj, "_line", (long long)r.rec_line);
		json_array_append_new(out, obj);
	}
	for (i = 0; i < nhead; i++)
		free(head[i]);
	free(head);
	csv_close(&r);
	return out;
}

/* ---------------------------------------------------------------- writer */

void
csv_writer_init(struct csv_writer *w, FILE *fp, int crlf, int quote_all)
{
	w->fp = fp;
	w->crlf = crlf;
	w->quote_all = quote_all;
	w->nfield = 0;
}

void
csv_write_bom(struct csv_writer *w)
{
	fputs("\xEF\xBB\xBF", w->fp);
}

void
csv_write_fieldn(struct csv_writer *w, const char *s, size_t n)
{
	size_t i;
	int q = w->quote_all;

	if (w->nfield++)
		putc(',', w->fp);
	for (i = 0; !q && i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			q = 1;
	/*
	 * A field starting with U+FEFF, written first in a file, would be read
	 * back as a byte order mark and lost: quoted, it is the field's.
	 */
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		q = 1;
	if (!q) {
		fwrite(s, 1, n, w->fp);
		return;
	}
	putc('"', w->fp);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			putc('"', w->fp);
		putc(s[i], w->fp);
	}
	putc('"', w->fp);
}

void
csv_write_field(struct csv_writer *w, const char *s)
{
	csv_write_fieldn(w, s ? s : "", s ? strlen(s) : 0);
}

int
csv_is_formula(const char *s)
{
	return s && (*s == '=' || *s == '+' || *s == '-' || *s == '@' ||
	    *s == '\t' || *s == '\r');
}

void
csv_write_text(struct csv_writer *w, const char *s)
{
	char *t;

	if (!csv_is_formula(s)) {
		csv_write_field(w, s);
		return;
	}
	t = xasprintf(" %s", s);
	csv_write_field(w, t);
	free(t);
}

void
csv_end_record(struct csv_writer *w)
{
	fputs(w->crlf ? "\r\n" : "\n", w->fp);
	w->nfield = 0;
}

void
csv_write_row(struct csv_writer *w, const char *const *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		csv_write_field(w, fields[i]);
	csv_end_record(w);
}
