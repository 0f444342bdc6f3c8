/*
 * jsonx.h - typed access to record fields, with input errors that name the
 * record's position (ndj_die) and the field.
 *
 * The rec_* getters are for the record being handled by the loop: a missing
 * required field or a wrong type dies with "PROGRAM: FILE:LINE: FIELD:
 * expected a string".  The returned pointers are borrowed from the record.
 */
#ifndef CTX_JSONX_H
#define CTX_JSONX_H

#include <jansson.h>
#include <stddef.h>

/* Required string field. */
const char *rec_str(const json_t *rec, const char *key);
/* Optional string: NULL when absent or null; dies on another type. */
const char *rec_str_opt(const json_t *rec, const char *key);
/* Required integer; a real with no fractional part ("2.0") is accepted. */
long long rec_int(const json_t *rec, const char *key);
/* Optional integer: returns def when absent or null. */
long long rec_int_opt(const json_t *rec, const char *key, long long def);
/* Required number (integer or real). */
double rec_num(const json_t *rec, const char *key);
double rec_num_opt(const json_t *rec, const char *key, double def);
/* Optional boolean (true/false); def when absent or null. */
int rec_bool_opt(const json_t *rec, const char *key, int def);
/* Required array / object (borrowed). */
json_t *rec_array(const json_t *rec, const char *key);
json_t *rec_object(const json_t *rec, const char *key);
/* Optional array / object: NULL when absent or null. */
json_t *rec_array_opt(const json_t *rec, const char *key);
json_t *rec_object_opt(const json_t *rec, const char *key);

/*
 * Look a dotted path up in an object ("archive_protocol.rate_limit_ms");
 * NULL when any step is missing.  Borrowed.
 */
json_t *json_path(const json_t *root, const char *dotted);

/* Set key on obj to a new string / integer / real / bool (stealing). */
void json_set_str(json_t *obj, const char *key, const char *val);
void json_set_strn(json_t *obj, const char *key, const char *val, size_t n);
void json_set_int(json_t *obj, const char *key, long long val);
void json_set_real(json_t *obj, const char *key, double val);
void json_set_bool(json_t *obj, const char *key, int val);
void json_set_null(json_t *obj, const char *key);
/* obj[key] = val, stealing val; dies on allocation failure. */
void json_set_new(json_t *obj, const char *key, json_t *val);

/*
 * Small constructors and getters every program shares, so that "or null"
 * means one thing everywhere.  The json_t * results are new references
 * (never NULL: allocation failure dies); json_get_str's result is borrowed.
 *
 *   json_get_str       the string member key of o; NULL when o is not an
 *                      object, key is absent, or its value is not a string
 *   json_str_or_null   a string of s, or null when s is NULL
 *   json_int_or_null   v, or null when v < 0 (the "not reported" of counts)
 *   json_real_or_null  v, or null when v < 0 or not finite (durations)
 *   json_text          the n bytes at s as a string, or null when s is
 *                      NULL; bytes that are not UTF-8 (which callers refuse
 *                      earlier) give a lone U+FFFD, never a dropped field
 */
const char *json_get_str(const json_t *o, const char *key);
json_t *json_str_or_null(const char *s);
json_t *json_int_or_null(long long v);
json_t *json_real_or_null(double v);
json_t *json_text(const char *s, size_t n);

/* Name of a JSON type for messages: "a string", "an array", ... */
const char *json_type_desc(const json_t *v);

/*
 * The elements of an array read from a document, each with its path for
 * messages ("comparisons[2]"):
 *
 *	struct json_each it;
 *	json_t *e;
 *
 *	n = json_each_start(&it, arr, file, "comparisons");
 *	while ((e = json_each_next(&it)) != NULL)
 *		if (!json_is_string(e))
 *			die("%s: %s: expected a string", file, it.where);
 *
 * json_each_start dies "FILE: FIELD: expected an array, got TYPE" when arr
 * is not an array (absent included), else returns its size.  json_each_next
 * returns the next element (borrowed) and sets it.where to "FIELD[I]" and
 * it.i to I, or NULL after the last.  field is borrowed for the walk; a
 * path longer than where holds is cut (never the case for a field name of
 * a config).  The array must not change during the walk.
 */
struct json_each {
	const json_t *arr;
	const char *field;
	size_t i, n;		/* the element returned last; the size */
	size_t next;
	char where[128];
};
size_t json_each_start(struct json_each *it, const json_t *arr, const char *file,
    const char *field);
json_t *json_each_next(struct json_each *it);

/*
 * Find the 1-based line at which the value addressed by path starts in the
 * JSON text (path elements: object keys, or "[N]" array indices as strings
 * "0", "1" ... marked by is_index).  Used to turn a validation error on a
 * parsed document into "FILE:LINE".  Returns 0 when the path is not found.
 */
struct json_step {
	const char *key;	/* object key, or NULL for an array index */
	size_t index;
};
unsigned long json_text_line(const char *text, size_t len,
    const struct json_step *path, size_t npath);

/*
 * Walk JSON text once, in document order, and call fn for every value whose
 * path has at most maxdepth steps (the root has none), with that path and
 * the line where the value starts.  Linear in the text; the text must
 * already have parsed.  Keys in path are borrowed for the call only (an
 * escaped key holds \x01 for each escape and never equals a plain name).
 */
#define JSON_WALK_MAXDEPTH 8
typedef void json_walk_fn(const struct json_step *path, size_t npath,
    unsigned long line, void *arg);
void json_text_walk(const char *text, size_t len, size_t maxdepth,
    json_walk_fn *fn, void *arg);

#endif
