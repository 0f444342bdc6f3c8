/*
 * unit-driver.c - drives common/ from the shell tests: the record loop as a
 * cat, and the study loaders, so their error paths (exit status, messages
 * with file and line) can be checked end to end.
 *
 *     unit-driver ndjson [-o FILE] [FILE...]   copy records through the loop
 *     unit-driver csv FILE                     CSV with header -> NDJSON
 *     unit-driver sites|questions|gold|config FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

static int
each(json_t *rec, void *ctx)
{
	(*(unsigned long *)ctx)++;
	ndj_emit(rec);
	return 0;
}

static void
emit_all(json_t *v)
{
	size_t i;
	json_t *x;
	const char *k;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			ndj_emit(x);
	} else {
		json_object_foreach(v, k, x)
			ndj_emit(x);
	}
}

int
main(int argc, char **argv)
{
	unsigned long n = 0;
	json_t *v;
	int i = 2;

	ctx_init("unit-driver");
	if (argc < 2)
		die_usage("usage: unit-driver ndjson|csv|sites|questions|gold|config ...");
	if (strcmp(argv[1], "ndjson") == 0) {
		if (argc > 3 && strcmp(argv[2], "-o") == 0) {
			ndj_output_open(argv[3]);
			i = 4;
		}
		ndj_run(argc - i, argv + i, each, NULL, &n);
		ctx_exit();
	}
	if (argc != 3)
		die_usage("%s: expected one file", argv[1]);
	if (strcmp(argv[1], "csv") == 0)
		v = csv_load_objects(argv[2]);
	else if (strcmp(argv[1], "sites") == 0)
		v = study_sites_load(argv[2]);
	else if (strcmp(argv[1], "questions") == 0)
		v = study_questions_load(argv[2]);
	else if (strcmp(argv[1], "gold") == 0)
		v = study_gold_load(argv[2]);
	else if (strcmp(argv[1], "config") == 0) {
		v = study_config_load(argv[2]);
		ndj_emit(v);
		json_decref(v);
		ctx_exit();
	} else
		die_usage("unknown mode '%s'", argv[1]);
	emit_all(v);
	json_decref(v);
	ctx_exit();
}
