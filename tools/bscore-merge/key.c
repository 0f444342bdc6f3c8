/*
 * key.c - the key and the tuples it knows responses by (see key.h); shared
 * by blind.c, which writes the key, and merge.c, which reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "key.h"

const char *const bsm_tuple_fields[] = {
	"site_id", "question_id", "model_id", "condition", NULL
};

char *
bsm_tuple(const json_t *o)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; bsm_tuple_fields[i]; i++) {
		const char *s = json_get_str(o, bsm_tuple_fields[i]);

		if (i)
			buf_addc(&b, ' ');
		buf_adds(&b, s ? s : "?");
	}
	return buf_detach(&b, NULL);
}

const char *
bsm_tuple_missing(const json_t *o)
{
	size_t i;

	for (i = 0; bsm_tuple_fields[i]; i++)
		if (!json_get_str(o, bsm_tuple_fields[i]))
			return bsm_tuple_fields[i];
	return NULL;
}

int
bsm_is_excluded(const json_t *rec)
{
	json_t *e = json_object_get(rec, "exclusion_reason");

	if (json_is_string(e) && json_string_length(e))
		return 1;
	return json_is_true(json_object_get(rec, "excluded"));
}

json_t *
bsm_key_load(const char *path)
{
	json_error_t je;
	json_t *key, *ke;
	const char *bad;
	size_t i;

	key = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!key)
		die("%s:%d: %s", path, je.line, je.text);
	if (!json_is_object(key) ||
	    !json_is_integer(json_object_get(key, "ctxbench_key")) ||
	    !json_is_array(json_object_get(key, "responses")) ||
	    !json_is_string(json_object_get(key, "rubric")))
		die("%s: not a bscore-merge key (written by bscore-merge blind)",
		    path);
	json_array_foreach(json_object_get(key, "responses"), i, ke) {
		if (!json_get_str(ke, "response_id"))
			die("%s: responses[%zu]: response_id: expected a string",
			    path, i);
		if ((bad = bsm_tuple_missing(ke)) != NULL)
			die("%s: responses[%zu]: %s: expected a string", path, i,
			    bad);
	}
	return key;
}
