/*
 * jsonx.c - typed record-field access with positioned errors, dotted-path
 * look-ups, setters, and the line finder for parsed JSON documents.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jsonx.h"
#include "ndjson.h"
#include "utf8.h"

const char *
json_type_desc(const json_t *v)
{
	if (v == NULL)
		return "nothing";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

size_t
json_each_start(struct json_each *it, const json_t *arr, const char *file,
    const char *field)
{
	if (!json_is_array(arr))
		die("%s: %s: expected an array, got %s", file, field,
		    json_type_desc(arr));
	memset(it, 0, sizeof(*it));
	it->arr = arr;
	it->field = field;
	it->n = json_array_size(arr);
	return it->n;
}

json_t *
json_each_next(struct json_each *it)
{
	if (it->next >= it->n)
		return NULL;
	it->i = it->next++;
	snprintf(it->where, sizeof(it->where), "%s[%zu]", it->field, it->i);
	return json_array_get(it->arr, it->i);
}

#define T_(t)	(1u << (t))
#define T_NUMBER	(T_(JSON_INTEGER) | T_(JSON_REAL))

static void
wrong(const char *key, const char *what, const json_t *v)
{
	ndj_die("%s: expected %s, got %s", key, what, json_type_desc(v));
}

/*
 * The field KEY of REC when its type is one of TYPES (a mask of T_(type));
 * NULL when it is absent or null and not REQUIRED.  Dies naming the field
 * and WHAT was expected otherwise.
 */
static json_t *
field(const json_t *rec, const char *key, unsigned types, const char *what,
    int required)
{
	json_t *v = json_object_get(rec, key);

	if (v == NULL || json_is_null(v)) {
		if (required)
			ndj_die("%s: missing (expected %s)", key, what);
		return NULL;
	}
	if (!(types & T_(json_typeof(v))))
		wrong(key, what, v);
	return v;
}

const char *
rec_str(const json_t *rec, const char *key)
{
	return json_string_value(field(rec, key, T_(JSON_STRING), "a string",
	    1));
}

const char *
rec_str_opt(const json_t *rec, const char *key)
{
	return json_string_value(field(rec, key, T_(JSON_STRING), "a string",
	    0));
}

static long long
as_int(const char *key, const json_t *v)
{
	double d;

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v)) {
		d = json_real_value(v);
		if (d == floor(d) && fabs(d) < 9.007199254740992e15)
			return (long long)d;
	}
	wrong(key, "an integer", v);
	return 0;
}

long long
rec_int(const json_t *rec, const char *key)
{
	return as_int(key, field(rec, key, ~0u, "an integer", 1));
}

long long
rec_int_opt(const json_t *rec, const char *key, long long def)
{
	json_t *v = field(rec, key, ~0u, "an integer", 0);

	return v == NULL ? def : as_int(key, v);
}

double
rec_num(const json_t *rec, const char *key)
{
	return json_number_value(field(rec, key, T_NUMBER, "a number", 1));
}

double
rec_num_opt(const json_t *rec, const char *key, double def)
{
	json_t *v = field(rec, key, T_NUMBER, "a number", 0);

	return v == NULL ? def : json_number_value(v);
}

int
rec_bool_opt(const json_t *rec, const char *key, int def)
{
	json_t *v = field(rec, key, T_(JSON_TRUE) | T_(JSON_FALSE),
	    "a boolean", 0);

	return v == NULL ? def : json_is_true(v);
}

json_t *
rec_array(const json_t *rec, const char *key)
{
	return field(rec, key, T_(JSON_ARRAY), "an array", 1);
}

json_t *
rec_object(const json_t *rec, const char *key)
{
	return field(rec, key, T_(JSON_OBJECT), "an object", 1);
}

json_t *
rec_array_opt(const json_t *rec, const char *key)
{
	return field(rec, key, T_(JSON_ARRAY), "an array", 0);
}

json_t *
rec_object_opt(const json_t *rec, const char *key)
{
	return field(rec, key, T_(JSON_OBJECT), "an object", 0);
}

json_t *
json_path(const json_t *root, const char *dotted)
{
	const json_t *cur = root;
	const char *p = dotted, *dot;
	char key[256];
	size_t n;

	while (cur && *p) {
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof(key) || !json_is_object(cur))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		cur = json_object_get(cur, key);
		p += n;
		if (*p == '.')
			p++;
	}
	return (json_t *)cur;
}

void
json_set_new(json_t *obj, const char *key, json_t *val)
{
	if (val == NULL || json_object_set_new(obj, key, val) < 0)
		die("out of memory setting %s", key);
}

void
json_set_str(json_t *obj, const char *key, const char *val)
{
	json_set_new(obj, key, val ? json_string(val) : json_null());
}

void
json_set_strn(json_t *obj, const char *key, const char *val, size_t n)
{
	json_set_new(obj, key, json_stringn(val, n));
}

void
json_set_int(json_t *obj, const char *key, long long val)
{
	json_set_new(obj, key, json_integer(val));
}

void
json_set_real(json_t *obj, const char *key, double val)
{
	json_set_new(obj, key, isfinite(val) ? json_real(val) : json_null());
}

void
json_set_bool(json_t *obj, const char *key, int val)
{
	json_set_new(obj, key, json_boolean(val));
}

void
json_set_null(json_t *obj, const char *key)
{
	json_set_new(obj, key, json_null());
}

/* ---------------------------------------------------------- constructors */

static json_t *
made(json_t *v)
{
	if (v == NULL)
		die("out of memory");
	return v;
}

const char *
json_get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

json_t *
json_str_or_null(const char *s)
{
	return made(s ? json_string(s) : json_null());
}

json_t *
json_int_or_null(long long v)
{
	return made(v < 0 ? json_null() : json_integer(v));
}

json_t *
json_real_or_null(double v)
{
	return made(v < 0 || !isfinite(v) ? json_null() : json_real(v));
}

json_t *
json_text(const char *s, size_t n)
{
	json_t *v;

	if (s == NULL)
		return made(json_null());
	v = json_stringn(s, n);
	if (v == NULL && utf8_valid(s, n, NULL))
		die("out of memory");
	return v ? v : made(json_string("\xef\xbf\xbd"));
}

/* ---------------------------------------------------------------- lines */

/*
 * A minimal scanner over JSON text that follows a path of keys and indices
 * and reports the line where the addressed value starts.  It trusts that
 * the text already parsed (it is only called after json_loadb succeeded).
 */
struct scan {
	const char *s, *end;
	unsigned long line;
};

static void
ws(struct scan *sc)
{
	while (sc->s < sc->end && (*sc->s == ' ' || *sc->s == '\t' ||
	    *sc->s == '\n' || *sc->s == '\r')) {
		if (*sc->s == '\n')
			sc->line++;
		sc->s++;
	}
}

/* Skip a string starting at '"'; copy up to cap-1 raw bytes into out. */
static void
skip_string(struct scan *sc, char *out, size_t cap)
{
	size_t n = 0;

	sc->s++;
	while (sc->s < sc->end && *sc->s != '"') {
		if (*sc->s == '\\' && sc->s + 1 < sc->end) {
			if (out && n + 1 < cap)
				out[n++] = '\x01';	/* escapes never match */
			sc->s += 2;
			continue;
		}
		if (out && n + 1 < cap)
			out[n++] = *sc->s;
		sc->s++;
	}
	if (out)
		out[n] = '\0';
	if (sc->s < sc->end)
		sc->s++;
}

static void skip_value(struct scan *sc);

static void
skip_value(struct scan *sc)
{
	int depth = 0;

	ws(sc);
	if (sc->s >= sc->end)
		return;
	if (*sc->s == '"') {
		skip_string(sc, NULL, 0);
		return;
	}
	if (*sc->s != '{' && *sc->s != '[') {
		while (sc->s < sc->end && strchr(",]} \t\r\n", *sc->s) == NULL)
			sc->s++;
		return;
	}
	for (; sc->s < sc->end; ) {
		char c = *sc->s;

		if (c == '"') {
			skip_string(sc, NULL, 0);
			continue;
		}
		if (c == '\n')
			sc->line++;
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			depth--;
			if (depth == 0) {
				sc->s++;
				return;
			}
		}
		sc->s++;
	}
}

unsigned long
json_text_line(const char *text, size_t len, const struct json_step *path,
    size_t npath)
{
	struct scan sc = { text, text + len, 1 };
	size_t k, idx;
	char key[512];

	for (k = 0; k < npath; k++) {
		ws(&sc);
		if (sc.s >= sc.end)
			return 0;
		if (path[k].key) {
			if (*sc.s != '{')
				return 0;
			sc.s++;
			for (;;) {
				ws(&sc);
				if (sc.s >= sc.end || *sc.s != '"')
					return 0;
				skip_string(&sc, key, sizeof(key));
				ws(&sc);
				if (sc.s < sc.end && *sc.s == ':')
					sc.s++;
				if (strcmp(key, path[k].key) == 0)
					break;
				skip_value(&sc);
				ws(&sc);
				if (sc.s < sc.end && *sc.s == ',')
					sc.s++;
				else
					return 0;
			}
		} else {
			if (*sc.s != '[')
				return 0;
			sc.s++;
			for (idx = 0; idx < path[k].index; idx++) {
				skip_value(&sc);
				ws(&sc);
				if (sc.s < sc.end && *sc.s == ',')
					sc.s++;
				else
					return 0;
			}
		}
	}
	ws(&sc);
	return sc.line;
}

/*
 * One value of json_text_walk: report it, then descend into an object or
 * array while the path stays within maxdepth.  Recursion is bounded by
 * maxdepth (the caller's, a small constant), deeper values are skipped.
 */
static void
walk_value(struct scan *sc, struct json_step *path, char (*keys)[512],
    size_t n, size_t maxdepth, json_walk_fn *fn, void *arg)
{
	size_t idx;

	ws(sc);
	if (sc->s >= sc->end)
		return;
	fn(path, n, sc->line, arg);
	if (n >= maxdepth || (*sc->s != '{' && *sc->s != '[')) {
		skip_value(sc);
		return;
	}
	if (*sc->s == '{') {
		sc->s++;
		for (;;) {
			ws(sc);
			if (sc->s >= sc->end || *sc->s != '"')
				break;
			skip_string(sc, keys[n], sizeof(keys[n]));
			ws(sc);
			if (sc->s < sc->end && *sc->s == ':')
				sc->s++;
			path[n].key = keys[n];
			path[n].index = 0;
			walk_value(sc, path, keys, n + 1, maxdepth, fn, arg);
			ws(sc);
			if (sc->s >= sc->end || *sc->s != ',')
				break;
			sc->s++;
		}
	} else {
		sc->s++;
		for (idx = 0;; idx++) {
			ws(sc);
			if (sc->s >= sc->end || *sc->s == ']')
				break;
			path[n].key = NULL;
			path[n].index = idx;
			walk_value(sc, path, keys, n + 1, maxdepth, fn, arg);
			ws(sc);
			if (sc->s >= sc->end || *sc->s != ',')
				break;
			sc->s++;
		}
	}
	ws(sc);
	if (sc->s < sc->end)
		sc->s++;	/* the closing '}' or ']' */
}

void
json_text_walk(const char *text, size_t len, size_t maxdepth,
    json_walk_fn *fn, void *arg)
{
	struct scan sc = { text, text + len, 1 };
	struct json_step path[JSON_WALK_MAXDEPTH];
	char keys[JSON_WALK_MAXDEPTH][512];

	if (maxdepth > JSON_WALK_MAXDEPTH)
		maxdepth = JSON_WALK_MAXDEPTH;
	walk_value(&sc, path, keys, 0, maxdepth, fn, arg);
}
