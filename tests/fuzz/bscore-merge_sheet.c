/*
 * bscore-merge_sheet.c - libFuzzer target for bscore-merge's sheet reader:
 * arbitrary bytes read as a CSV or NDJSON sheet (chosen by the first byte)
 * must give rows or problems, never a crash; every cell is then typed against
 * every field of the context-collapse and dual-track rubrics and each row
 * completed (derived scores, rules), as merge does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bscore-merge/rubric.h"
#include "../../tools/bscore-merge/sheet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bsm_rubric *rubrics[2];

static void
exercise(const struct bsm_rubric *r, const uint8_t *data, size_t size)
{
	struct bsm_problems p;
	FILE *fp;
	json_t *rows, *cols, *row;
	size_t i, k;
	const char *name = size && data[0] == '{' ? "fuzz.ndjson" : "fuzz.csv";

	memset(&p, 0, sizeof p);
	fp = fmemopen((void *)data, size, "r");
	if (!fp)
		return;
	rows = bsm_sheet_read(fp, name, r, &cols, &p);
	fclose(fp);
	json_array_foreach(rows, i, row) {
		json_t *typed = json_object();
		for (k = 0; k < r->nfields; k++) {
			const struct bsm_field *f = &r->fields[k];
			json_t *v;
			char *err;
			int rc = bsm_type_cell(f, json_object_get(row, f->name), &v, &err);
			if (rc < 0)
				free(err);
			else if (rc == 0)
				json_object_set_new(typed, f->name, v);
			if (f->type == BT_RECORDS && rc < 0) {
				json_t *it;
				if (bsm_type_item(f, row, &it, &err) < 0)
					free(err);
				else
					json_decref(it);
			}
		}
		bsm_rubric_finish(r, typed, &p, "fuzz");
		json_decref(typed);
	}
	json_decref(rows);
	json_decref(cols);
	bsm_problems_release(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!rubrics[0]) {
		err_init("bscore-merge_sheet");
		rubrics[0] = bsm_rubric_load("context-collapse");
		rubrics[1] = bsm_rubric_load("dual-track");
	}
	exercise(rubrics[0], data, size);
	exercise(rubrics[1], data, size);
	return 0;
}
