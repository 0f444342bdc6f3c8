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

/*
 * The record of one line (s, n: valid UTF-8 without a NUL byte, no
 * newline) when the line keeps to the plain subset of JSON read here
 * without jansson's lexer: an object of strings without \u escapes,
 * integers of at most 18 digits without a leading zero, true, false, null,
 * and arrays and objects of these nested at most 64 deep, no key repeated
 * in an object.  The tree is the one json_loadb(s, n,
 * JSON_REJECT_DUPLICATES | JSON_DECODE_ANY) makes of the line (same types,
 * same keys in the same order), a new reference.  NULL for a line outside
 * the subset, valid or not: ndj_next_err then gives it to json_loadb,
 * which decides and words any error, so nothing jansson refuses is taken.
 */
json_t *ndj_parse_plain(const char *s, size_t n);

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

#endif
