/*
 * key.h - the key `bscore-merge blind` writes and `merge` reads, and what it
 * knows a response record by.  A response is named by its tuple (site_id,
 * question_id, model_id, condition); an excluded one (a non-empty
 * exclusion_reason, or "excluded": true) is not blinded but listed in the
 * key's "excluded" array with its reason.
 */
#ifndef BSM_KEY_H
#define BSM_KEY_H

#include <jansson.h>

/* The four fields of a tuple, in order (NULL-terminated). */
extern const char *const bsm_tuple_fields[];

/*
 * "SITE QUESTION MODEL CONDITION" of o, for matching and for messages ("?"
 * for a field that is not a string).  malloc'd.
 */
char *bsm_tuple(const json_t *o);
/* The first tuple field of o that is not a string, or NULL when all are. */
const char *bsm_tuple_missing(const json_t *o);

/* 1 when the response record rec is excluded (see above). */
int bsm_is_excluded(const json_t *rec);

/*
 * The key at path, loaded and checked: an object with ctxbench_key, rubric
 * and responses whose response_id and tuple fields are strings; dies with
 * "FILE[:LINE]: what" otherwise.  A new reference.
 */
json_t *bsm_key_load(const char *path);

#endif
