/*
 * common_csv.c - libFuzzer target for the CSV reader: arbitrary bytes give
 * records or a clean error; every record read is written back and must read
 * back identically.
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
	FILE *fp = fmemopen((void *)data, size, "r"), *out, *in;
	struct csv_reader r, r2;
	struct csv_writer w;
	char *buf = NULL;
	size_t buflen = 0;
	long n, i;

	if (fp == NULL || size == 0) {
		if (fp)
			fclose(fp);
		return 0;
	}
	csv_init(&r, fp, "fuzz");
	while ((n = csv_read(&r)) > 0) {
		int empty = n == 1 && r.fields[0][0] == '\0';

		out = open_memstream(&buf, &buflen);
		csv_writer_init(&w, out, 0, empty);
		for (i = 0; i < n; i++)
			csv_write_field(&w, r.fields[i]);
		csv_end_record(&w);
		fclose(out);
		in = fmemopen(buf, buflen, "r");
		csv_init(&r2, in, "roundtrip");
		if (csv_read(&r2) != n)
			abort();
		for (i = 0; i < n; i++)
			if (strcmp(r.fields[i], r2.fields[i]) != 0)
				abort();
		csv_close(&r2);
		fclose(in);
		free(buf);
		buf = NULL;
	}
	csv_close(&r);
	fclose(fp);
	return 0;
}
