/*
 * common_ndjson.c - libFuzzer target for the NDJSON reader: arbitrary bytes
 * as input must give records or clean errors, never a crash, and every
 * record must survive a write/read round trip unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fmemopen((void *)data, size, "r");
	struct ndj_reader r;
	json_t *rec, *back;
	char *msg, *s;
	size_t len;
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
			free(msg);
			break;
		}
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
