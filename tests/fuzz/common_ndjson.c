/*
 * common_ndjson.c - libFuzzer target for the NDJSON reader: arbitrary bytes
 * as input must give records or clean errors, never a crash; every record
 * must be what json_loadb (JSON_REJECT_DUPLICATES) makes of its line, with
 * the same types, keys in the same order and the same compact form; a line
 * the reader refuses must be one json_loadb refuses, or one ndjson.h names
 * as an error before it (a NUL, invalid UTF-8, a value that is no object);
 * and every record must survive a write/read round trip unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Line number ln (from 1) of data, without its LF and a CR before it. */
static const char *
line_of(const uint8_t *data, size_t size, unsigned long ln, size_t *len)
{
	const uint8_t *p = data, *end = data + size, *nl;

	while (--ln > 0) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			abort();
		p = nl + 1;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	if (*len > 0 && p[*len - 1] == '\r')
		(*len)--;
	return (const char *)p;
}

/* The record rec read from line equals json_loadb's reading of it. */
static void
same_record(json_t *rec, const char *line, size_t n)
{
	json_t *ref = json_loadb(line, n, JSON_REJECT_DUPLICATES, NULL);
	char *a, *b;
	size_t la, lb;

	if (ref == NULL || !json_equal(rec, ref))
		abort();
	a = json_compact(rec, &la);
	b = json_compact(ref, &lb);
	if (la != lb || memcmp(a, b, la) != 0)
		abort();
	free(a);
	free(b);
	json_decref(ref);
}

/* A line the reader refused: json_loadb must not take it for a record. */
static void
refused(const char *line, size_t n)
{
	json_t *ref;

	if (memchr(line, '\0', n) || !utf8_valid(line, n, NULL))
		return;
	ref = json_loadb(line, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
	    NULL);
	if (ref != NULL && json_is_object(ref))
		abort();
	json_decref(ref);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fmemopen((void *)data, size, "r");
	struct ndj_reader r;
	json_t *rec, *back;
	char *msg, *s;
	const char *line;
	size_t len, n;
	json_error_t e;

	if (fp == NULL || size == 0) {
		if (fp)
			fclose(fp);
		return 0;
	}
	ndj_reader_init(&r, fp, "fuzz");
	for (;;) {
		rec = ndj_next_err(&r, &msg);
		if (rec == NULL) {
			if (msg != NULL) {
				line = line_of(data, size, r.line, &n);
				refused(line, n);
			}
			free(msg);
			break;
		}
		line = line_of(data, size, r.line, &n);
		same_record(rec, line, n);
		s = json_compact(rec, &len);
		back = json_loadb(s, len, 0, &e);
		if (back == NULL || !json_equal(rec, back))
			abort();
		json_decref(back);
		free(s);
		json_decref(rec);
	}
	ndj_reader_close(&r);
	fclose(fp);
	return 0;
}
