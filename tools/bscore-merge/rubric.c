/*
 * rubric.c - loading rubric definitions (share/rubrics/NAME.json), typing sheet
 * cells against their fields, and completing scored rows with derived scores
 * and rule checks.  The rules themselves are data: see rubric.h and expr.h.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "rubric.h"

void
bsm_problem(struct bsm_problems *p, const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;
	char tmp[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof tmp) {
		char *big = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		buf_adds(&b, big);
		free(big);
	} else {
		buf_adds(&b, tmp);
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->msg = xreallocarray(p->msg, p->cap, sizeof *p->msg);
	}
	p->msg[p->n++] = buf_detach(&b, NULL);
}

size_t
bsm_problems_report(const struct bsm_problems *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		warn("%s", p->msg[i]);
	return p->n;
}

void
bsm_problems_release(struct bsm_problems *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->msg[i]);
	free(p->msg);
	memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------ loading */

static const char *const type_names[] = {
	"integer", "number", "text", "enum", "bool", "date", "list", "records", NULL
};

struct loader {
	const char *path;
};

static void CTX_NORETURN
bad(struct loader *l, const char *where, const char *msg)
{
	die("%s: %s: %s", l->path, where, msg);
}

static const char *
get_str(struct loader *l, const json_t *o, const char *key, const char *where, int required)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		if (required) {
			char *m = xasprintf("%s: missing", key);
			bad(l, where, m);
		}
		return NULL;
	}
	if (!json_is_string(v)) {
		char *m = xasprintf("%s: expected a string", key);
		bad(l, where, m);
	}
	return json_string_value(v);
}

/* A name that can go into a file name as it is: [A-Za-z0-9_][A-Za-z0-9_-]{0,63}. */
static int
file_name_safe(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && (s[i] != '-' || i == 0))
			return 0;
	return i > 0 && i <= 64;
}

static struct bsm_expr *
get_expr(struct loader *l, const json_t *o, const char *key, const char *where, int required)
{
	const char *s = get_str(l, o, key, where, required);
	struct bsm_expr *e;
	char *err;

	if (!s)
		return NULL;
	e = bsm_expr_parse(s, &err);
	if (!e) {
		char *m = xasprintf("%s: %s in \"%s\"", key, err, s);
		bad(l, where, m);
	}
	return e;
}

static enum bsm_type
parse_type(struct loader *l, const char *s, const char *where)
{
	int i;

	for (i = 0; type_names[i]; i++)
		if (!strcmp(type_names[i], s))
			return (enum bsm_type)i;
	bad(l, where, "type: expected integer, number, text, enum, bool, date, list or records");
}

static void load_rules(struct loader *l, json_t *arr, const char *what,
    struct bsm_rule **out, size_t *n);
static void load_derived(struct loader *l, json_t *arr, const char *what,
    struct bsm_derived **out, size_t *n);

static void
load_field(struct loader *l, json_t *def, struct bsm_field *f, const char *where,
    int top)
{
	json_t *v;
	char *w;

	if (!json_is_object(def))
		bad(l, where, "expected an object");
	f->def = def;
	f->name = get_str(l, def, "name", where, 1);
	f->type = parse_type(l, get_str(l, def, "type", where, 1), where);
	f->required = json_is_true(json_object_get(def, "required"));
	f->nullable = json_is_true(json_object_get(def, "nullable"));
	f->concat = (v = json_object_get(def, "merge")) && json_is_string(v) &&
	    !strcmp(json_string_value(v), "concat");
	if ((v = json_object_get(def, "min")) && json_is_number(v)) {
		f->has_min = 1;
		f->min = json_number_value(v);
	}
	if ((v = json_object_get(def, "max")) && json_is_number(v)) {
		f->has_max = 1;
		f->max = json_number_value(v);
	}
	f->null_words = json_object_get(def, "null_words");
	f->optional_when = get_expr(l, def, "optional_when", where, 0);
	f->dflt = json_object_get(def, "default");
	if (f->type == BT_ENUM) {
		size_t i;
		json_t *item;
		f->values = json_object_get(def, "values");
		if (!json_is_array(f->values) || !json_array_size(f->values))
			bad(l, where, "values: expected a non-empty array");
		json_array_foreach(f->values, i, item)
			if (!json_is_object(item) || !json_is_string(json_object_get(item, "value")))
				bad(l, where, "values: expected objects with a string \"value\"");
	}
	if (f->type == BT_RECORDS) {
		size_t i;
		json_t *items = json_object_get(def, "items"), *item;
		if (!top)
			bad(l, where, "records cannot nest");
		if (!json_is_array(items) || !json_array_size(items))
			bad(l, where, "items: expected a non-empty array");
		f->nitems = json_array_size(items);
		f->items = xcalloc(f->nitems, sizeof *f->items);
		f->item_enums = json_object();
		json_array_foreach(items, i, item) {
			w = xasprintf("%s.items[%zu]", where, i);
			load_field(l, item, &f->items[i], w, 0);
			free(w);
			if (f->items[i].type == BT_ENUM)
				json_object_set(f->item_enums, f->items[i].name, f->items[i].values);
		}
		f->count_field = get_str(l, def, "count_field", where, 0);
		w = xasprintf("%s.item_rules", where);
		load_rules(l, json_object_get(def, "item_rules"), w, &f->item_rules, &f->nitem_rules);
		free(w);
		w = xasprintf("%s.item_derived", where);
		load_derived(l, json_object_get(def, "item_derived"), w, &f->item_derived,
		    &f->nitem_derived);
		free(w);
	}
}

/* Load one element (elem) from item, an object named w in messages. */
typedef void load_item_fn(struct loader *l, const json_t *item, const char *w,
    void *elem);

/*
 * An optional array member of objects, each loaded by fn into an element of
 * size bytes: NULL with *n 0 when absent or null, else a zeroed array of *n
 * + 1 elements.  Dies naming what (what[i] for an element) when it is not
 * an array or an element is not an object.
 */
static void *
load_array(struct loader *l, const json_t *arr, const char *what, size_t size,
    size_t *n, load_item_fn *fn)
{
	json_t *item;
	size_t i;
	char *v, *w;

	*n = 0;
	if (!arr || json_is_null(arr))
		return NULL;
	if (!json_is_array(arr))
		bad(l, what, "expected an array");
	v = xcalloc(json_array_size(arr) + 1, size);
	json_array_foreach(arr, i, item) {
		w = xasprintf("%s[%zu]", what, i);
		if (!json_is_object(item))
			bad(l, w, "expected an object");
		fn(l, item, w, v + i * size);
		free(w);
	}
	*n = json_array_size(arr);
	return v;
}

/* A rule: {id, message, when, require}. */
static void
load_rule(struct loader *l, const json_t *item, const char *w, void *elem)
{
	struct bsm_rule *r = elem;

	r->id = get_str(l, item, "id", w, 1);
	r->message = get_str(l, item, "message", w, 1);
	r->when = get_expr(l, item, "when", w, 0);
	r->require = get_expr(l, item, "require", w, 1);
}

static void
load_rules(struct loader *l, json_t *arr, const char *what, struct bsm_rule **out, size_t *n)
{
	*out = load_array(l, arr, what, sizeof **out, n, load_rule);
}

/* The "cases" of derived value d: {when, value}, a case without when the default. */
static void
load_cases(struct loader *l, struct bsm_derived *d, json_t *cases, const char *w)
{
	json_t *c;
	size_t j;
	char *cw;

	d->ncases = json_array_size(cases);
	d->case_when = xcalloc(d->ncases + 1, sizeof *d->case_when);
	d->case_value = xcalloc(d->ncases + 1, sizeof *d->case_value);
	json_array_foreach(cases, j, c) {
		cw = xasprintf("%s.cases[%zu]", w, j);
		if (!json_is_object(c) || !json_object_get(c, "value"))
			bad(l, cw, "expected an object with a \"value\"");
		d->case_when[j] = get_expr(l, c, "when", cw, 0);
		d->case_value[j] = json_object_get(c, "value");
		free(cw);
	}
}

/* A derived value: {name, type, when, expr or cases, round}. */
static void
load_one_derived(struct loader *l, const json_t *item, const char *w, void *elem)
{
	struct bsm_derived *d = elem;
	json_t *cases, *rnd;
	const char *t;

	d->name = get_str(l, item, "name", w, 1);
	t = get_str(l, item, "type", w, 0);
	d->type = t ? parse_type(l, t, w) : BT_NUMBER;
	d->when = get_expr(l, item, "when", w, 0);
	d->expr = get_expr(l, item, "expr", w, 0);
	d->round = -1;
	if ((rnd = json_object_get(item, "round")) && json_is_integer(rnd))
		d->round = (int)json_integer_value(rnd);
	cases = json_object_get(item, "cases");
	if (!d->expr && !json_is_array(cases))
		bad(l, w, "expected \"expr\" or \"cases\"");
	if (json_is_array(cases))
		load_cases(l, d, cases, w);
}

static void
load_derived(struct loader *l, json_t *arr, const char *what, struct bsm_derived **out,
    size_t *n)
{
	*out = load_array(l, arr, what, sizeof **out, n, load_one_derived);
}

struct bsm_rubric *
bsm_rubric_load(const char *name)
{
	struct bsm_rubric *r = xcalloc(1, sizeof *r);
	struct loader l;
	json_error_t je;
	json_t *fields, *item;
	size_t i, len = strlen(name);
	char *w;

	if (strchr(name, '/') || (len > 5 && !strcmp(name + len - 5, ".json"))) {
		r->path = xstrdup(name);
	} else {
		char *rel;
		for (i = 0; i < len; i++)
			if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
				die_usage("--rubric: %s: not a rubric name", name);
		rel = xasprintf("rubrics/%s.json", name);
		r->path = ctx_share_file(rel);
		free(rel);
	}
	l.path = r->path;
	r->def = json_load_file(r->path, JSON_REJECT_DUPLICATES, &je);
	if (!r->def) {
		if (access(r->path, F_OK) != 0)
			die("%s: no such rubric (%s)", name, r->path);
		die("%s:%d: %s", r->path, je.line, je.text);
	}
	if (!json_is_object(r->def))
		die("%s: expected a JSON object", r->path);
	r->name = get_str(&l, r->def, "rubric", "rubric", 1);
	fields = json_object_get(r->def, "fields");
	if (!json_is_array(fields) || !json_array_size(fields))
		die("%s: fields: expected a non-empty array", r->path);
	r->nfields = json_array_size(fields);
	r->fields = xcalloc(r->nfields, sizeof *r->fields);
	r->enums = json_object();
	json_array_foreach(fields, i, item) {
		size_t j;
		w = xasprintf("fields[%zu]", i);
		load_field(&l, item, &r->fields[i], w, 1);
		for (j = 0; j < i; j++)
			if (!strcmp(r->fields[j].name, r->fields[i].name))
				bad(&l, w, "duplicate field name");
		if (r->fields[i].type == BT_ENUM)
			json_object_set(r->enums, r->fields[i].name, r->fields[i].values);
		free(w);
	}
	load_rules(&l, json_object_get(r->def, "rules"), "rules", &r->rules, &r->nrules);
	load_derived(&l, json_object_get(r->def, "derived"), "derived", &r->derived,
	    &r->nderived);
	r->aliases = json_object_get(r->def, "aliases");
	if (r->aliases && !json_is_object(r->aliases))
		die("%s: aliases: expected an object", r->path);
	/* Passes name fields that exist; their names go into file names. */
	{
		json_t *passes = json_object_get(r->def, "passes"), *pf;
		size_t j;
		if (passes && !json_is_array(passes))
			die("%s: passes: expected an array", r->path);
		json_array_foreach(passes, i, item) {
			const char *pn;
			w = xasprintf("passes[%zu]", i);
			pn = get_str(&l, item, "name", w, 1);
			if (pn && !file_name_safe(pn))
				bad(&l, w, "name: expected letters, digits, '_' and '-' "
				    "(it names the pass's sheet files)");
			json_array_foreach(json_object_get(item, "fields"), j, pf)
				if (!json_is_string(pf) || !bsm_rubric_field(r, json_string_value(pf)))
					bad(&l, w, "fields: names a field the rubric does not define");
			free(w);
		}
	}
	return r;
}

static void
free_rules(struct bsm_rule *rules, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		bsm_expr_free(rules[i].when);
		bsm_expr_free(rules[i].require);
	}
	free(rules);
}

static void
free_derived(struct bsm_derived *d, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		bsm_expr_free(d[i].when);
		bsm_expr_free(d[i].expr);
		for (j = 0; j < d[i].ncases; j++)
			bsm_expr_free(d[i].case_when[j]);
		free(d[i].case_when);
		free(d[i].case_value);
	}
	free(d);
}

void
bsm_rubric_free(struct bsm_rubric *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nfields; i++) {
		struct bsm_field *f = &r->fields[i];
		free(f->items);
		bsm_expr_free(f->optional_when);
		free_rules(f->item_rules, f->nitem_rules);
		free_derived(f->item_derived, f->nitem_derived);
		json_decref(f->item_enums);
	}
	free(r->fields);
	free_rules(r->rules, r->nrules);
	free_derived(r->derived, r->nderived);
	json_decref(r->enums);
	json_decref(r->def);
	free(r->path);
	free(r);
}

const struct bsm_field *
bsm_rubric_field(const struct bsm_rubric *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (!strcmp(r->fields[i].name, name))
			return &r->fields[i];
	return NULL;
}

char *
bsm_canon_column(const struct bsm_rubric *r, const char *h)
{
	struct buf b = BUF_INIT;
	const char *e;
	json_t *a;
	int sep = 0;

	while (*h == ' ' || *h == '\t')
		h++;
	e = h + strlen(h);
	while (e > h && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	buf_adds(&b, "");
	for (; h < e; h++) {
		unsigned char c = (unsigned char)*h;
		if (c == ' ' || c == '-' || c == '\t') {
			sep = 1;
			continue;
		}
		if (sep && b.len)
			buf_addc(&b, '_');
		sep = 0;
		buf_addc(&b, c < 0x80 ? tolower(c) : c);
	}
	if (r && r->aliases && (a = json_object_get(r->aliases, b.s)) && json_is_string(a)) {
		buf_reset(&b);
		buf_adds(&b, json_string_value(a));
	}
	return buf_detach(&b, NULL);
}

/* ------------------------------------------------------------ typing cells */

char *
bsm_trim(const char *s)
{
	const char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

static int
is_null_word(const struct bsm_field *f, const char *s)
{
	size_t i;
	json_t *w;

	if (!f->null_words)
		return *s == '\0';
	json_array_foreach(f->null_words, i, w)
		if (json_is_string(w) && !strcasecmp(json_string_value(w), s))
			return 1;
	return 0;
}

static int
valid_date(const char *s)
{
	int y, m, d, mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	size_t i;

	if (strlen(s) < 10)
		return 0;
	for (i = 0; i < 10; i++)
		if ((i == 4 || i == 7) ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return 0;
	if (s[10] && s[10] != 'T' && s[10] != ' ')
		return 0;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1900 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 0;
	return 1;
}

int
bsm_valid_date(const char *s)
{
	return valid_date(s);
}

static const char *
range_text(const struct bsm_field *f, char *buf, size_t n)
{
	if (f->has_min && f->has_max)
		snprintf(buf, n, "%g-%g", f->min, f->max);
	else if (f->has_min)
		snprintf(buf, n, ">= %g", f->min);
	else
		snprintf(buf, n, "<= %g", f->max);
	return buf;
}

static int type_records(const struct bsm_field *f, const json_t *v, json_t **out,
    char **err);

/* A records cell: a JSON array, or a string holding one (as a CSV cell does). */
static int
type_records_cell(const struct bsm_field *f, const json_t *cell, json_t **out, char **err)
{
	json_error_t je;
	json_t *v;
	char *s;
	int rc;

	if (!json_is_string(cell))
		return type_records(f, cell, out, err);
	s = bsm_trim(json_string_value(cell));
	if (!*s) {
		free(s);
		return 1;
	}
	v = json_loads(s, JSON_REJECT_DUPLICATES, &je);
	free(s);
	if (!v) {
		*err = xasprintf("expected a JSON array of records (%s)", je.text);
		return -1;
	}
	rc = type_records(f, v, out, err);
	json_decref(v);
	return rc;
}

/* An integer or number cell (s: its trimmed text, NULL when not a string). */
static int
type_number(const struct bsm_field *f, const json_t *cell, const char *s, json_t **out,
    char **err)
{
	char rb[64];
	double d;

	if (json_is_number(cell))
		d = json_number_value(cell);
	else if (!s || parse_real(s, &d) < 0) {
		*err = s ? xasprintf("\"%s\" is not a number", s) :
		    xasprintf("expected a number, got %s", json_type_desc(cell));
		return -1;
	}
	if (f->type == BT_INTEGER && (d != floor(d) || fabs(d) > 1e15)) {
		*err = xasprintf("%g is not a whole number", d);
		return -1;
	}
	if ((f->has_min && d < f->min) || (f->has_max && d > f->max)) {
		*err = xasprintf("%g is out of range %s", d, range_text(f, rb, sizeof rb));
		return -1;
	}
	*out = f->type == BT_INTEGER ? json_integer((json_int_t)d) : json_real(d);
	return 0;
}

/*
 * The typers of one cell by field type, after bsm_type_cell has dealt with
 * null and empty cells: cell is the cell, s its trimmed text (the text as it
 * is for BT_TEXT) or NULL when the cell is not a string.  0 with *out, or -1
 * with *err.
 */
static int
type_text(const json_t *cell, const char *s, json_t **out, char **err)
{
	if (!json_is_string(cell)) {
		*err = xasprintf("expected text, got %s", json_type_desc(cell));
		return -1;
	}
	*out = json_string(s);
	if (!*out)
		*out = json_string("");
	return 0;
}

static int
type_enum(const struct bsm_field *f, const json_t *cell, const char *s,
    json_t **out, char **err)
{
	struct buf b = BUF_INIT;
	const char *val;
	size_t i;
	json_t *v;

	if (!s) {
		*err = xasprintf("expected text, got %s", json_type_desc(cell));
		return -1;
	}
	json_array_foreach(f->values, i, v) {
		val = json_string_value(json_object_get(v, "value"));
		if (!strcasecmp(val, s)) {
			*out = json_string(val);
			return 0;
		}
	}
	json_array_foreach(f->values, i, v) {
		if (i)
			buf_adds(&b, ", ");
		buf_adds(&b, json_string_value(json_object_get(v, "value")));
	}
	*err = xasprintf("\"%s\" is not one of %s", s, b.s);
	buf_release(&b);
	return -1;
}

static int
type_bool(const json_t *cell, const char *s, json_t **out, char **err)
{
	int bv;

	if (json_is_boolean(cell))
		bv = json_is_true(cell);
	else if (s && (!strcasecmp(s, "y") || !strcasecmp(s, "n")))
		bv = (s[0] == 'y' || s[0] == 'Y');
	else if (!s || parse_bool(s, &bv) < 0) {
		*err = s ? xasprintf("\"%s\" is not yes or no", s) :
		    xasprintf("expected a boolean, got %s", json_type_desc(cell));
		return -1;
	}
	*out = json_boolean(bv);
	return 0;
}

static int
type_date(const char *s, json_t **out, char **err)
{
	if (!s || !valid_date(s)) {
		*err = xasprintf("\"%s\" is not an ISO 8601 date (YYYY-MM-DD)", s ? s : "");
		return -1;
	}
	*out = json_stringn(s, 10);
	return 0;
}

/* A JSON array as it is, or comma-separated text (empty items dropped). */
static int
type_list(const json_t *cell, const char *s, json_t **out, char **err)
{
	char **v, **q, *t;

	if (json_is_array(cell)) {
		*out = json_deep_copy(cell);
		return 0;
	}
	if (!s) {
		*err = xasprintf("expected a list, got %s", json_type_desc(cell));
		return -1;
	}
	v = strv_split(s, ',');
	*out = json_array();
	for (q = v; *q; q++) {
		t = bsm_trim(*q);
		if (*t)
			json_array_append_new(*out, json_string(t));
		free(t);
	}
	strv_free(v);
	return 0;
}

int
bsm_type_cell(const struct bsm_field *f, const json_t *cell, json_t **out, char **err)
{
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	*err = NULL;
	if (!cell || json_is_null(cell))
		return f->nullable ? (*out = json_null(), 0) : 1;
	if (f->type == BT_RECORDS)
		return type_records_cell(f, cell, out, err);
	if (json_is_string(cell)) {
		s = f->type == BT_TEXT ? xstrdup(json_string_value(cell)) :
		    bsm_trim(json_string_value(cell));
		if (f->nullable && is_null_word(f, s)) {
			free(s);
			*out = json_null();
			return 0;
		}
		if (!*s && f->type != BT_TEXT) {
			free(s);
			return 1;
		}
	}
	switch (f->type) {
	case BT_INTEGER:
	case BT_NUMBER:
		rc = type_number(f, cell, s, out, err);
		break;
	case BT_TEXT:
		rc = type_text(cell, s, out, err);
		break;
	case BT_ENUM:
		rc = type_enum(f, cell, s, out, err);
		break;
	case BT_BOOL:
		rc = type_bool(cell, s, out, err);
		break;
	case BT_DATE:
		rc = type_date(s, out, err);
		break;
	case BT_LIST:
		rc = type_list(cell, s, out, err);
		break;
	case BT_RECORDS:
		break;
	}
	free(s);
	return rc;
}

int
bsm_type_item(const struct bsm_field *f, const json_t *item, json_t **out, char **err)
{
	const char *key;
	json_t *v, *o;
	size_t k;

	*out = NULL;
	if (!json_is_object(item)) {
		*err = xasprintf("expected an object, got %s", json_type_desc(item));
		return -1;
	}
	json_object_foreach((json_t *)item, key, v) {
		for (k = 0; k < f->nitems; k++)
			if (!strcmp(f->items[k].name, key))
				break;
		if (k == f->nitems && key[0] != '_' && strcmp(key, "response_id") &&
		    strcmp(key, "rater_id")) {
			*err = xasprintf("unknown field \"%s\"", key);
			return -1;
		}
	}
	o = json_object();
	for (k = 0; k < f->nitems; k++) {
		const struct bsm_field *it = &f->items[k];
		json_t *tv;
		char *e;
		int rc = bsm_type_cell(it, json_object_get(item, it->name), &tv, &e);
		if (rc < 0) {
			*err = xasprintf("%s: %s", it->name, e);
			free(e);
			json_decref(o);
			return -1;
		}
		if (rc == 1 || (tv && json_is_string(tv) && !json_string_length(tv) && it->required)) {
			json_decref(tv);
			if (it->required) {
				*err = xasprintf("%s: missing", it->name);
				json_decref(o);
				return -1;
			}
			tv = json_null();
		}
		json_object_set_new(o, it->name, tv);
	}
	*out = o;
	return 0;
}

static int
type_records(const struct bsm_field *f, const json_t *v, json_t **out, char **err)
{
	size_t i;
	json_t *item, *arr;

	if (!json_is_array(v)) {
		*err = xasprintf("expected an array of records, got %s", json_type_desc(v));
		return -1;
	}
	arr = json_array();
	json_array_foreach(v, i, item) {
		json_t *t;
		char *e;
		if (bsm_type_item(f, item, &t, &e) < 0) {
			*err = xasprintf("record %zu: %s", i + 1, e);
			free(e);
			json_decref(arr);
			return -1;
		}
		json_array_append_new(arr, t);
	}
	*out = arr;
	return 0;
}

/* ------------------------------------------------------------ finishing rows */

static json_t *
round_value(json_t *v, const struct bsm_derived *d)
{
	double x, m;

	if (!json_is_number(v))
		return v;
	x = json_number_value(v);
	if (d->type == BT_INTEGER) {
		json_decref(v);
		return json_integer((json_int_t)floor(x + 0.5 + 1e-9));
	}
	if (d->round >= 0) {
		m = pow(10, d->round);
		/* Half away from zero, after removing binary noise: 0.875 -> 0.88. */
		x = floor(x * m + 0.5 + 1e-9) / m;
		json_decref(v);
		return json_real(x);
	}
	return v;
}

static json_t *
compute(const struct bsm_derived *d, const json_t *row, const json_t *enums)
{
	size_t j;

	if (d->expr)
		return round_value(bsm_expr_eval(d->expr, row, enums), d);
	for (j = 0; j < d->ncases; j++) {
		int hit = 1;
		if (d->case_when[j]) {
			json_t *t = bsm_expr_eval(d->case_when[j], row, enums);
			hit = bsm_truthy(t);
			json_decref(t);
		}
		if (hit) {
			json_t *v = d->case_value[j];
			if (d->type == BT_INTEGER && json_is_number(v))
				return json_integer((json_int_t)json_number_value(v));
			if (d->type == BT_NUMBER && json_is_integer(v))
				return json_real((double)json_integer_value(v));
			return json_incref(v);
		}
	}
	return json_null();
}

static int
agrees(const json_t *typed, const json_t *computed)
{
	if (json_is_string(typed)) {
		const char *s = json_string_value(typed);
		double d;
		char *t = bsm_trim(s);
		int r;
		if (!*t) {
			free(t);
			return 1;	/* left empty: fine */
		}
		if (json_is_number(computed)) {
			r = parse_real(t, &d) == 0 && fabs(d - json_number_value(computed)) < 0.0051;
		} else if (json_is_string(computed)) {
			r = !strcasecmp(t, json_string_value(computed));
		} else {
			r = 0;
		}
		free(t);
		return r;
	}
	if (json_is_number(typed) && json_is_number(computed))
		return fabs(json_number_value(typed) - json_number_value(computed)) < 0.0051;
	return json_equal((json_t *)typed, (json_t *)computed);
}

static char *
show(const json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return json_compact(v, NULL);
}

static void
check_rules(const struct bsm_rule *rules, size_t n, const json_t *row,
    const json_t *enums, struct bsm_problems *p, const char *where)
{
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *t;
		int applies = 1, ok;
		if (rules[i].when) {
			t = bsm_expr_eval(rules[i].when, row, enums);
			applies = bsm_truthy(t);
			json_decref(t);
		}
		if (!applies)
			continue;
		t = bsm_expr_eval(rules[i].require, row, enums);
		ok = bsm_truthy(t);
		json_decref(t);
		if (!ok)
			bsm_problem(p, "%s: rule %s: %s", where, rules[i].id, rules[i].message);
	}
}

size_t
bsm_rubric_finish(const struct bsm_rubric *r, json_t *row, struct bsm_problems *p,
    const char *where)
{
	size_t before = p->n, i, j, k;
	int missing = 0;

	for (i = 0; i < r->nfields; i++) {
		const struct bsm_field *f = &r->fields[i];
		json_t *v = json_object_get(row, f->name);
		if (v && !(json_is_null(v) && !f->nullable))
			continue;
		if (f->required && !(v && f->nullable)) {
			int optional = 0;
			if (f->optional_when) {
				json_t *t = bsm_expr_eval(f->optional_when, row, r->enums);
				optional = bsm_truthy(t);
				json_decref(t);
			}
			if (!optional) {
				bsm_problem(p, "%s: %s: missing", where, f->name);
				missing = 1;
				continue;
			}
		}
		if (v)
			continue;
		if (f->dflt)
			json_object_set(row, f->name, f->dflt);
		else if (f->type == BT_RECORDS)
			json_object_set_new(row, f->name, json_array());
		else if (f->type == BT_TEXT)
			json_object_set_new(row, f->name, json_string(""));
		else if (f->type == BT_LIST)
			json_object_set_new(row, f->name, json_array());
		else
			json_object_set_new(row, f->name, json_null());
	}
	/* Records: item derived values and item rules. */
	for (i = 0; i < r->nfields; i++) {
		const struct bsm_field *f = &r->fields[i];
		json_t *arr = json_object_get(row, f->name), *item;
		if (f->type != BT_RECORDS || !json_is_array(arr))
			continue;
		json_array_foreach(arr, j, item) {
			char *w = xasprintf("%s: %s record %zu", where, f->name, j + 1);
			for (k = 0; k < f->nitem_derived; k++) {
				const struct bsm_derived *d = &f->item_derived[k];
				json_t *t;
				int hit = 1;
				if (d->when) {
					t = bsm_expr_eval(d->when, item, f->item_enums);
					hit = bsm_truthy(t);
					json_decref(t);
				}
				if (hit)
					json_object_set_new(item, d->name,
					    compute(d, item, f->item_enums));
			}
			/* Derived item values computed as reals become integers for integer items. */
			for (k = 0; k < f->nitems; k++) {
				json_t *iv = json_object_get(item, f->items[k].name);
				if (f->items[k].type == BT_INTEGER && json_is_real(iv))
					json_object_set_new(item, f->items[k].name,
					    json_integer((json_int_t)json_real_value(iv)));
			}
			check_rules(f->item_rules, f->nitem_rules, item, f->item_enums, p, w);
			free(w);
		}
	}
	if (missing)
		return p->n - before;
	for (i = 0; i < r->nderived; i++) {
		const struct bsm_derived *d = &r->derived[i];
		json_t *typed = json_object_get(row, d->name);
		json_t *v = compute(d, row, r->enums);
		if (typed && !json_is_null(typed) && !agrees(typed, v)) {
			char *a = show(typed), *b = show(v);
			bsm_problem(p, "%s: %s: typed as %s but the rubric gives %s "
			    "(derived scores are computed, leave them empty)", where, d->name, a, b);
			free(a);
			free(b);
		}
		json_object_set_new(row, d->name, v);
	}
	check_rules(r->rules, r->nrules, row, r->enums, p, where);
	return p->n - before;
}
