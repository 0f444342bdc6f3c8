/*
 * csv.h - RFC 4180 CSV reading and writing.
 *
 * Reader: fields separated by commas, records by CRLF or LF; a field may be
 * quoted with '"', inside which commas, CR, LF and doubled quotes ("") are
 * data.  A UTF-8 byte order mark at the start of the file is skipped.  An
 * unterminated quote, a quote inside an unquoted field, text after a closing
 * quote, a NUL byte or invalid UTF-8 is an error with the line where the
 * record starts.  Completely empty lines are skipped (spreadsheets leave
 * them).  Records may have any length.
 *
 * Writer: quotes a field when it holds a comma, quote, CR or LF, or when
 * always-quote mode is on; doubles embedded quotes; ends records with LF or
 * CRLF; optionally starts with a BOM.
 */
#ifndef CTX_CSV_H
#define CTX_CSV_H

#include <stdio.h>
#include <stddef.h>
#include "buf.h"

struct csv_reader {
	FILE *fp;
	const char *name;
	unsigned long line;	/* physical line of the next character */
	unsigned long rec_line;	/* line where the last record started */
	int own;
	int started;		/* BOM check done */
	int back[3];		/* bytes read ahead and given back, last first */
	int nback;
	struct buf field;	/* storage of all fields of the current record */
	size_t *offs;		/* start of each field in field.s */
	size_t nfields, capfields;
	char **fields;		/* pointers into field.s, valid until next read */
	char err[256];
};

/* Open path ("-" for stdin); returns 0, or -1 with errno set. */
int csv_open(struct csv_reader *r, const char *path);
void csv_init(struct csv_reader *r, FILE *fp, const char *name);
void csv_close(struct csv_reader *r);

/*
 * Read the next record.  Returns its number of fields (>= 1), 0 at end of
 * input, or -1 on an error with r->err holding the message ("unterminated
 * quoted field") and r->rec_line the record's first line.  r->fields[i]
 * are NUL-terminated and valid until the next call.
 */
long csv_read(struct csv_reader *r);

/*
 * Read a whole CSV with a header row into a jansson array of objects
 * (strings keyed by header name).  Dies with "FILE:LINE: message" on an
 * error, on a duplicate or empty header name, and on a record whose field
 * count differs from the header's.  Each object also receives "_line", the line
 * where its record starts, for later messages.  Returns a new reference.
 */
#include <jansson.h>
json_t *csv_load_objects(const char *path);
/*
 * The same, also dying with "FILE:LINE: header: missing column 'NAME'" when
 * the header lacks a name of required (NULL-terminated), with or without
 * records after it.
 */
json_t *csv_load_objects_req(const char *path, const char *const *required);

struct csv_writer {
	FILE *fp;
	int crlf;		/* end records with CRLF */
	int quote_all;		/* quote every field */
	int nfield;		/* fields written in the current record */
};

void csv_writer_init(struct csv_writer *w, FILE *fp, int crlf, int quote_all);
/* Write a UTF-8 byte order mark (call before the first record). */
void csv_write_bom(struct csv_writer *w);
void csv_write_field(struct csv_writer *w, const char *s);
void csv_write_fieldn(struct csv_writer *w, const char *s, size_t n);
void csv_end_record(struct csv_writer *w);
/*
 * Write a text cell that a spreadsheet must show as text: a cell starting
 * with '=', '+', '-' or '@' (a formula to Excel, LibreOffice and Google
 * Sheets; OWASP "CSV Injection"), or with a tab or carriage return (which
 * some of them strip before looking), receives one leading space.  Numbers are
 * written with csv_write_field, untouched.
 */
int csv_is_formula(const char *s);
void csv_write_text(struct csv_writer *w, const char *s);
/* Write a whole record of n fields (NULL fields are written empty). */
void csv_write_row(struct csv_writer *w, const char *const *fields, size_t n);

#endif
