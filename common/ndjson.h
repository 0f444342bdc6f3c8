/*
 * ndjson.h - the NDJSON record loop every ctxbench program runs.
 *
 * Input is one JSON object per line, UTF-8, LF (a CR before the LF is
 * tolerated).  Lines may be of any length.  Each line is checked before it is
 * parsed: a NUL byte, invalid UTF-8 (with its byte column), a final line
 * without its newline that is not valid JSON, text that is not JSON, and a JSON
 * value that is not an object are input errors: the program stops with
 * "PROGRAM: FILE:LINE: message" and exit status 1.  Empty lines (only
 * white space) are skipped.  Objects with a repeated key are rejected.
 * What a line means is jansson's: json_loadb with JSON_REJECT_DUPLICATES
 * decides what is accepted and words every message; yajl, a faster
 * validating parser, builds the same jansson tree for the lines it reads
 * the same way (ndjson.c says which), so the records are the same.
 *
 * Two ways to use it:
 *  - ndj_run(): the callback loop, for programs that handle one record at a
 *    time and may emit at the end (bread, bstats, bctx assemble).
 *  - struct ndj_reader: pull records one by one, for programs that keep
 *    several in flight (bfetch, binfer), read streams they opened themselves
 *    (btok, bmdprep, bscore-merge's responses and sheets) or read side
 *    inputs (bctx's links files).
 *
 * Output goes through ndj_emit(), to stdout or to the -o file opened with
 * ndj_output_open(); records are written compactly (no spaces), keys in their
 * insertion order, with reals printed in the shortest form that reads back
 * to the same double, and "\n".
 */
#ifndef CTX_NDJSON_H
#define CTX_NDJSON_H

#include <stdio.h>
#include <jansson.h>
#include "err.h"

struct ndj_reader {
	FILE *fp;
	const char *name;	/* for messages: the file name, or "<stdin>" */
	unsigned long line;	/* line number of the record last returned */
	int own;		/* fclose at ndj_reader_close */
	char *iobuf;		/* stdio's buffer of a file opened here, or NULL */
	char *buf;		/* line buffer, grown as needed */
	size_t cap;
	size_t maxline;		/* 0: unlimited; else a longer line is an error */
};

/*
 * Open path ("-" or NULL: stdin) for reading.  Dies (EXIT_DATA) when the file
 * cannot be opened.
 */
void ndj_reader_open(struct ndj_reader *r, const char *path);
/* Wrap an already open stream; name is used in messages. */
void ndj_reader_init(struct ndj_reader *r, FILE *fp, const char *name);
void ndj_reader_close(struct ndj_reader *r);

/*
 * Return the next record (a new reference the caller releases), or NULL at
 * end of input.  Input errors die with the file and line.
 */
json_t *ndj_next(struct ndj_reader *r);

/*
 * Like ndj_next but on an input error returns NULL with *errmsg set to a
 * malloc'd message without the program/file/line prefix (the caller frees it)
 * and r->line at the bad line; at end of input returns NULL with *errmsg NULL.
 */
json_t *ndj_next_err(struct ndj_reader *r, char **errmsg);

/* The position of the record being handled, for messages. */
const char *ndj_where_file(void);
unsigned long ndj_where_line(void);
/* Die with "PROGRAM: FILE:LINE: message" at the current record. */
void ndj_die(const char *fmt, ...) CTX_PRINTF(1, 2) CTX_NORETURN;
void ndj_warn(const char *fmt, ...) CTX_PRINTF(1, 2);
/* Set the position reported by ndj_die (done by ndj_run and ndj_next). */
void ndj_set_where(const char *file, unsigned long line);

/*
 * The record loop.  For each input file in order (none, or "-": stdin) read
 * every record and call each(rec, ctx).  The record is borrowed: the loop
 * releases it after the call (json_incref to keep it).  A non-zero return from
 * each stops the loop and is returned.  After the last record, end(ctx) is
 * called when not NULL and its value returned.
 */
typedef int (*ndj_each_fn)(json_t *rec, void *ctx);
typedef int (*ndj_end_fn)(void *ctx);
int ndj_run(int nfiles, char *const files[], ndj_each_fn each, ndj_end_fn end,
    void *ctx);

/*
 * Output.  ndj_output_open(path) directs ndj_emit to path written atomically
 * (NULL or "-": stdout).  ndj_output_close() flushes, checks for write errors
 * and commits the file; call it once at the end (ctx_exit() does).  A closed
 * pipe (EPIPE) ends the program quietly with status 0... as SIGPIPE would.
 */
void ndj_output_open(const char *path);
/*
 * Direct ndj_emit to fp instead, a stream the caller owns and commits (an
 * atomic group's file, for a program with several outputs); NULL: stdout.
 * ndj_output_close then only flushes it and checks it for errors.
 */
void ndj_output_stream(FILE *fp);
FILE *ndj_output(void);
/* Write rec compactly with "\n".  Does not steal the reference. */
void ndj_emit(json_t *rec);
/* Write and release rec. */
void ndj_emit_free(json_t *rec);
/*
 * A record a program writes itself, in the compact form (json_put_string,
 * json_put_real, json_compact_buf make its pieces): ndj_emit_text writes
 * s[0..n), then "\n" when end (the record's last part); ndj_emit_string
 * writes s[0..n) as json_put_string does, a part at a time (a long string
 * is never held escaped in memory) and returns the number of its bytes
 * that are not UTF-8 continuation bytes (10xxxxxx), counted as it goes:
 * its characters when s is valid UTF-8, as utf8_count counts them.  A
 * write error dies as ndj_emit does.
 */
void ndj_emit_text(const char *s, size_t n, int end);
size_t ndj_emit_string(const char *s, size_t n);
void ndj_output_close(void);

/*
 * Serialise v compactly into a malloc'd string (shortest round-trip reals,
 * UTF-8 kept as is, keys in insertion order).  *len receives the length.
 */
char *json_compact(const json_t *v, size_t *len);
/* Append the compact form of v to out. */
struct buf;
void json_compact_buf(struct buf *out, const json_t *v);
/* Write the compact form of v to fp; returns 0, or -1 on a write error. */
int json_compact_fp(FILE *fp, const json_t *v);
/*
 * The pieces of the compact form, for a program that writes a record
 * without building it (the bytes json_compact_buf writes for the same
 * value):
 *  - json_put_string: s[0..n) quoted, with '"', '\\', the bytes below
 *    0x20 and 0x7F escaped (\n \r \t \b \f, else \u00xx), every other
 *    byte as it is (a NUL as \u0000); s should be valid UTF-8, which is
 *    not checked (a JSON string's value, or text put together from such);
 *  - json_put_real: the shortest decimal that reads back as d, with ".0"
 *    after an integral value; null when d is not finite.
 */
void json_put_string(struct buf *out, const char *s, size_t n);
void json_put_real(struct buf *out, double d);

#endif
