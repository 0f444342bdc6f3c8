/*
 * input.c - bmdprep's operands, read once and streamed (see bmdprep.h, and
 * bmdprep(1), DESCRIPTION, for the rules).
 *
 * An operand is read through its file descriptor.  When nothing says what
 * it is, the bytes up to its first non-blank character decide: '{' makes
 * it NDJSON records, anything else one plain document.  The bytes read to
 * decide are kept and served again: to the record reader through a stdio
 * stream of this file's own (fopencookie), so that common/ndjson.c reads
 * and checks the records as in every other program, or as the start of the
 * plain document.
 *
 * Records are never gathered: the reader holds one line, the mode one
 * record and the body it reads from the archive.  Every byte read is
 * counted into lines by a guard, which refuses an over-long line before it
 * is held: 1 MiB when guessing (a plain file with such a line is not
 * Markdown; records with one are refused as the old whole-input check
 * did), BMD_DOC_MAX with --records.  A plain document is held whole, up to
 * BMD_DOC_MAX bytes.  A blank start longer than that (which only records
 * can follow) is not kept: its lines are counted and dropped.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ctx.h"
#include "archive.h"
#include "bmdprep.h"

#define CHUNK ((size_t)1 << 16)
#define GUESS_LINE_MAX ((size_t)1 << 20)

struct input {
	const char *name;	/* for messages: the path, or "<stdin>" */
	int fd;
	int own;		/* fd is closed at the end */
	struct buf ahead;	/* read, not yet handed on */
	size_t served;		/* bytes of ahead given to the record reader */
	unsigned long dropped;	/* lines of a long blank start not kept */
	size_t total;		/* bytes read from fd */
	/* the guard */
	size_t maxline;		/* longest line allowed; 0: no limit */
	int guessing;		/* a long line receives bmdprep(1)'s refusal */
	unsigned long line;	/* the line being read, 1-based */
	size_t linelen;		/* its bytes so far, without the LF */
	unsigned long capline;	/* the line of byte BMD_DOC_MAX + 1, or 0 */
};

static void
in_open(struct input *in, const char *path, int input)
{
	memset(in, 0, sizeof *in);
	in->line = 1;
	if (input == BMD_INPUT_GUESS) {
		in->maxline = GUESS_LINE_MAX;
		in->guessing = 1;
	} else if (input == BMD_INPUT_RECORDS) {
		in->maxline = BMD_DOC_MAX;
	}
	if (strcmp(path, "-") == 0) {
		in->name = "<stdin>";
		in->fd = 0;
		return;
	}
	in->name = path;
	if ((in->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		die_errno("%s", path);
	in->own = 1;
}

static void
in_close(struct input *in)
{
	buf_release(&in->ahead);
	if (in->own)
		close(in->fd);
}

/* Up to want bytes from fd into dst; 0 at the end.  Dies on an error. */
static size_t
raw_read(struct input *in, char *dst, size_t want)
{
	ssize_t got;

	while ((got = read(in->fd, dst, want)) < 0)
		if (errno != EINTR)
			die_errno("%s", in->name);
	return (size_t)got;
}

/* A line longer than in->maxline: the refusal (the line complete or not). */
static void
too_long(struct input *in, int complete)
{
	char tmp[8192];
	size_t got, k;
	const char *nl;

	if (!in->guessing)
		die("%s:%lu: a line longer than %zu bytes, the limit for one "
		    "record", in->name, in->line, in->maxline);
	/* bmdprep(1)'s message gives the line's whole length: count it */
	while (!complete && (got = raw_read(in, tmp, sizeof tmp)) > 0) {
		nl = memchr(tmp, '\n', got);
		k = nl ? (size_t)(nl - tmp) : got;
		in->linelen += k;
		complete = nl != NULL;
	}
	die("%s:%lu: a line of %zu bytes: not a Markdown or llms.txt file "
	    "(give --raw to take it as one)", in->name, in->line, in->linelen);
}

/* Count p[0..n), the bytes just read, into lines; refuse a long one. */
static void
guard(struct input *in, const char *p, size_t n)
{
	const char *nl;
	size_t k;

	while (n > 0) {
		nl = memchr(p, '\n', n);
		k = nl ? (size_t)(nl - p) : n;
		in->linelen += k;
		if (in->maxline && in->linelen > in->maxline)
			too_long(in, nl != NULL);
		if (!nl)
			return;
		in->line++;
		in->linelen = 0;
		p = nl + 1;
		n -= k + 1;
	}
}

/*
 * Read up to want bytes into dst through the guard.  A read never crosses
 * byte BMD_DOC_MAX + 1, so that the line where a document passes the
 * limit is known exactly.
 */
static size_t
in_read(struct input *in, char *dst, size_t want)
{
	size_t got;

	if (in->total <= BMD_DOC_MAX && want > BMD_DOC_MAX + 1 - in->total)
		want = BMD_DOC_MAX + 1 - in->total;
	got = raw_read(in, dst, want);
	guard(in, dst, got);
	in->total += got;
	if (got > 0 && in->total == BMD_DOC_MAX + 1)
		in->capline = in->line - (dst[got - 1] == '\n');
	return got;
}

/* Read up to want more bytes onto in->ahead; 0 at the end. */
static size_t
fill(struct input *in, size_t want)
{
	size_t got;

	buf_grow(&in->ahead, want);
	got = in_read(in, in->ahead.s + in->ahead.len, want);
	in->ahead.len += got;
	in->ahead.s[in->ahead.len] = '\0';
	return got;
}

static int
blank_byte(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * A blank start longer than a document can be: only records may follow,
 * and for them its lines only count.  Keep the current line, release the
 * rest.
 */
static void
drop_blank_lines(struct input *in)
{
	const char *p = in->ahead.s, *end = p + in->ahead.len, *nl, *keep = p;
	struct buf kept = BUF_INIT;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		in->dropped++;
		keep = p = nl + 1;
	}
	buf_add(&kept, keep, (size_t)(end - keep));
	buf_release(&in->ahead);
	in->ahead = kept;
}

/*
 * When nothing says what the operand is: read up to its first non-blank
 * character (after a byte order mark).  Returns 1 for records ('{'), 0 for
 * a plain document.
 */
static int
guess_records(struct input *in)
{
	size_t i;
	int bom;

	while (in->ahead.len < 3 && fill(in, CHUNK) > 0)
		;
	bom = in->ahead.len >= 3 && memcmp(in->ahead.s, "\xef\xbb\xbf", 3) == 0;
	i = bom ? 3 : 0;
	for (;;) {
		while (i < in->ahead.len && blank_byte(in->ahead.s[i]))
			i++;
		if (i < in->ahead.len)
			break;
		if (in->total > BMD_DOC_MAX) {
			drop_blank_lines(in);
			i = in->ahead.len;
		}
		if (fill(in, CHUNK) == 0)
			break;
	}
	if (i < in->ahead.len && in->ahead.s[i] == '{' && bom)
		die("%s:1: a UTF-8 byte order mark before NDJSON records: remove "
		    "it (or give --raw to take the file as Markdown)", in->name);
	return i < in->ahead.len && in->ahead.s[i] == '{';
}

/* The record reader's stream: what was read ahead first, then the fd. */
static ssize_t
cookie_read(void *cookie, char *dst, size_t size)
{
	struct input *in = cookie;
	size_t n = in->ahead.len - in->served;

	if (n == 0)
		return (ssize_t)in_read(in, dst, size);
	if (n > size)
		n = size;
	memcpy(dst, in->ahead.s + in->served, n);
	in->served += n;
	if (in->served == in->ahead.len) {
		buf_release(&in->ahead);
		in->served = 0;
	}
	return (ssize_t)n;
}

static void
each_record(struct input *in, bmd_record_fn *record, void *arg)
{
	cookie_io_functions_t io = { cookie_read, NULL, NULL, NULL };
	struct ndj_reader r;
	json_t *rec;
	FILE *fp;

	if ((fp = fopencookie(in, "r", io)) == NULL)
		die_errno("%s", in->name);
	setvbuf(fp, NULL, _IOFBF, CHUNK);
	ndj_reader_init(&r, fp, in->name);
	r.line = in->dropped;
	while ((rec = ndj_next(&r)) != NULL) {
		record(rec, arg);
		json_decref(rec);
	}
	ndj_reader_close(&r);
	fclose(fp);
}

/*
 * The rest of a plain document onto in->ahead, at most BMD_DOC_MAX bytes.
 * A regular file's buffer is sized once, with a byte to spare for the read
 * that finds its end; one known to be too large is only read through to
 * the line where it passes the limit, not held.
 */
static void
read_document(struct input *in)
{
	struct stat st;
	char tmp[CHUNK];
	size_t room;

	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size > in->total) {
		if ((size_t)st.st_size > BMD_DOC_MAX)
			while (in->total <= BMD_DOC_MAX &&
			    in_read(in, tmp, sizeof tmp) > 0)
				;
		else
			buf_grow(&in->ahead, (size_t)st.st_size - in->total + 1);
	}
	while (in->total <= BMD_DOC_MAX) {
		room = in->ahead.cap > 0 ? in->ahead.cap - in->ahead.len - 1 : 0;
		if (fill(in, room > 0 ? room : CHUNK) == 0)
			break;
	}
	if (in->total > BMD_DOC_MAX)
		die("%s:%lu: larger than %zu bytes, the limit for one document",
		    in->name, in->capline, BMD_DOC_MAX);
}

/*
 * A guessed plain document whose first non-blank line is a whole JSON value
 * other than an object ("[...]", a number, a string) is refused.
 */
static void
refuse_json_value(const struct input *in)
{
	const char *s = in->ahead.s, *nl, *what;
	size_t n = in->ahead.len, i = 0, e;
	unsigned long ln = 1;
	json_t *v;

	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && blank_byte(s[i]))
		i++;
	nl = memchr(s + i, '\n', n - i);
	e = nl ? (size_t)(nl - s) : n;
	if ((v = json_loadb(s + i, e - i, JSON_DECODE_ANY, NULL)) == NULL)
		return;
	what = json_type_desc(v);	/* a static string */
	json_decref(v);
	for (e = 0; e < i; e++)
		ln += s[e] == '\n';
	die("%s:%lu: %s, not an NDJSON record nor Markdown (give --raw to take "
	    "it as Markdown)", in->name, ln, what);
}

void
bmd_input_each(const struct bmd_run *run, int nfiles, char *const files[],
    bmd_record_fn *record, bmd_plain_fn *plain, void *arg)
{
	struct input in;
	int k;

	for (k = 0; k < (nfiles > 0 ? nfiles : 1); k++) {
		in_open(&in, nfiles > 0 ? files[k] : "-", run->input);
		if (run->input == BMD_INPUT_RECORDS ||
		    (run->input == BMD_INPUT_GUESS && guess_records(&in))) {
			each_record(&in, record, arg);
		} else {
			read_document(&in);
			if (run->input == BMD_INPUT_GUESS)
				refuse_json_value(&in);
			plain(in.ahead.s ? in.ahead.s : "", in.ahead.len, in.name,
			    arg);
		}
		in_close(&in);
	}
}

char *
bmd_input_read(const char *path, size_t *n)
{
	struct input in;
	char *s;

	in_open(&in, path, BMD_INPUT_RAW);
	read_document(&in);
	s = buf_detach(&in.ahead, n);
	in_close(&in);
	return s;
}

int
bmd_fetched(const json_t *rec)
{
	const char *st = rec_str_opt(rec, "fetch_status");

	if (st && strcmp(st, "SUCCESS") == 0 &&
	    rec_str_opt(rec, "archive_path") == NULL)
		ndj_die("archive_path: expected a string for a successful fetch");
	return (!st || strcmp(st, "SUCCESS") == 0) &&
	    rec_str_opt(rec, "archive_path") != NULL;
}

char *
bmd_fetched_body(const struct bmd_run *run, const json_t *rec, size_t *n)
{
	return archive_read(run->archive, rec, n, BMD_DOC_MAX);
}
