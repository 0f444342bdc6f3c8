/*
 * merge.c - `bscore-merge merge` and `bscore-merge check`: filled sheets
 * (CSV or NDJSON, any number, any rater) are typed against the rubric,
 * assembled per (response, rater), completed (derived scores, rules) and, for
 * merge, unblinded through the key into scored records, raw-data.csv (spec 000
 * §11) and hallucination-details.json.  Every problem is collected with its
 * sheet and row and reported at once; when any remains nothing is written.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "bsm.h"
#include "key.h"
#include "sheet.h"
#include "sort.h"

/*
 * Fields of a response record dropped from scored records (bulky texts),
 * and of its request (binfer's "request": the body holds the prompt and
 * content again; its body_sha256 stays).
 */
static const char *const bulky_fields[] = {
	"content", "system_prompt", "user_prompt", "response_raw", NULL
};
static const char *const bulky_request_fields[] = { "body", NULL };

/* rec (a copy the caller owns) without its bulky texts. */
static void
drop_bulky(json_t *rec)
{
	json_t *req = json_object_get(rec, "request");
	const char *const *bf;

	for (bf = bulky_fields; *bf; bf++)
		json_object_del(rec, *bf);
	if (json_is_object(req))
		for (bf = bulky_request_fields; *bf; bf++)
			json_object_del(req, *bf);
}

static const char *const rater_kinds[] = { "human", "llm_judge", "autoscore", NULL };

/* One (response, rater, self-check) assembled from every sheet. */
struct entry {
	char *response_id, *rater_id, *kind, *date, *where;
	int self_check, bad;
	json_t *row;		/* typed field values */
	json_t *prov;		/* field -> "FILE:LINE" where it was given */
};

struct merge {
	const struct bsm_opts *o;
	struct bsm_rubric *r;
	struct bsm_problems p;
	json_t *key;		/* NULL for check */
	json_t *known;		/* response_id -> key entry */
	json_t *tuples;		/* "site question model condition" -> response_id */
	json_t *entries;	/* "rid\x1frater\x1fself" -> index+1 */
	struct buf keytext;	/* entry_key's text, reused */
	struct entry *e;
	size_t n, cap;
	json_t *raters;		/* rater_id -> {kind, where} */
};

/*
 * The key of m->entries: response, rater and self-check, in m->keytext,
 * valid until the next call.
 */
static const char *
entry_key(struct merge *m, const char *rid, const char *rater, int self)
{
	buf_reset(&m->keytext);
	buf_addf(&m->keytext, "%s\x1f%s\x1f%d", rid, rater, self);
	return buf_str(&m->keytext);
}

/* The entry of (rid, rater, self), or NULL when there is none. */
static struct entry *
find_entry(struct merge *m, const char *rid, const char *rater, int self)
{
	json_t *v = json_object_get(m->entries, entry_key(m, rid, rater, self));

	return v ? &m->e[json_integer_value(v) - 1] : NULL;
}

static struct entry *
get_entry(struct merge *m, const char *rid, const char *rater, int self, const char *where)
{
	struct entry *e = find_entry(m, rid, rater, self);

	if (e)
		return e;
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->e = xreallocarray(m->e, m->cap, sizeof *m->e);
	}
	e = &m->e[m->n++];
	memset(e, 0, sizeof *e);
	e->response_id = xstrdup(rid);
	e->rater_id = xstrdup(rater);
	e->self_check = self;
	e->where = xstrdup(where);
	e->row = json_object();
	e->prov = json_object();
	json_object_set_new(m->entries, entry_key(m, rid, rater, self),
	    json_integer((json_int_t)m->n));
	return e;
}

/*
 * A cell of a row's header part (response_id, rater_id ...) as text: trimmed,
 * an integer as its digits; NULL when absent, null or of another type.
 */
static char *
cell_text(const json_t *row, const char *col)
{
	json_t *v = json_object_get(row, col);

	if (!v || json_is_null(v))
		return NULL;
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (!json_is_string(v))
		return NULL;
	return bsm_trim(json_string_value(v));
}

static int
has_col(const json_t *cols, const char *name)
{
	size_t i;
	json_t *c;

	json_array_foreach(cols, i, c)
		if (!strcmp(json_string_value(c), name))
			return 1;
	return 0;
}

/* The records field a sheet holds one record per row for, or NULL. */
static const struct bsm_field *
records_sheet_field(const struct bsm_rubric *r, const json_t *cols)
{
	size_t i, k;

	for (i = 0; i < r->nfields; i++) {
		const struct bsm_field *f = &r->fields[i];
		int all = 1, any_top = 0;
		if (f->type != BT_RECORDS)
			continue;
		for (k = 0; k < f->nitems; k++)
			if (f->items[k].required && !has_col(cols, f->items[k].name))
				all = 0;
		for (k = 0; k < r->nfields; k++)
			if (has_col(cols, r->fields[k].name))
				any_top = 1;
		if (all && !any_top)
			return f;
	}
	return NULL;
}

static void
note_rater(struct merge *m, const char *rater, const char *kind, const char *where)
{
	json_t *v = json_object_get(m->raters, rater);

	if (!v) {
		v = json_object();
		json_set_str(v, "kind", kind);
		json_set_str(v, "where", where);
		json_set_int(v, "count", 0);
		json_object_set_new(m->raters, rater, v);
		return;
	}
	if (strcmp(json_string_value(json_object_get(v, "kind")), kind))
		bsm_problem(&m->p, "%s: rater_id \"%s\" is %s here but %s at %s: two raters share one id",
		    where, rater, kind, json_string_value(json_object_get(v, "kind")),
		    json_string_value(json_object_get(v, "where")));
}

/* Common row header: response id, rater, kind, self-check; NULL entry on a problem. */
static struct entry *
row_entry(struct merge *m, const json_t *row, const char *where)
{
	char *rid = cell_text(row, "response_id"), *rater = cell_text(row, "rater_id");
	char *kind = cell_text(row, "rater_kind"), *self = cell_text(row, "self_check");
	char *date = cell_text(row, "scoring_date");
	struct entry *e = NULL;
	int sc = 0, ok = 1;
	size_t i;

	if ((!rid || !*rid) && m->tuples && json_is_string(json_object_get(row, "site_id"))) {
		/* Response records scored in place (binfer --judge): found by their tuple. */
		char *t = bsm_tuple(row);
		json_t *v = json_object_get(m->tuples, t);
		if (v) {
			free(rid);
			rid = xstrdup(json_string_value(v));
		} else {
			bsm_problem(&m->p, "%s: response %s is not in the key", where, t);
			ok = 0;
		}
		free(t);
	}
	if (!ok) {
		;
	} else if (!rid || !*rid) {
		bsm_problem(&m->p, "%s: response_id: missing", where);
		ok = 0;
	} else if (m->known && !json_object_get(m->known, rid)) {
		bsm_problem(&m->p, "%s: response_id \"%s\" is not in the key", where, rid);
		ok = 0;
	}
	if (!rater || !*rater) {
		bsm_problem(&m->p, "%s: rater_id: missing", where);
		ok = 0;
	}
	if (kind && *kind) {
		for (i = 0; rater_kinds[i]; i++)
			if (!strcmp(rater_kinds[i], kind))
				break;
		if (!rater_kinds[i]) {
			bsm_problem(&m->p, "%s: rater_kind: \"%s\" is not human, llm_judge or autoscore",
			    where, kind);
			ok = 0;
		}
	} else {
		free(kind);
		kind = xstrdup("human");
	}
	if (self && *self && parse_bool(self, &sc) < 0 && strcasecmp(self, "y") && strcasecmp(self, "n")) {
		bsm_problem(&m->p, "%s: self_check: \"%s\" is not yes or no", where, self);
		ok = 0;
	} else if (self && (!strcasecmp(self, "y")))
		sc = 1;
	if (date && *date && !bsm_valid_date(date)) {
		bsm_problem(&m->p, "%s: scoring_date: \"%s\" is not an ISO 8601 date (YYYY-MM-DD)",
		    where, date);
		ok = 0;
	}
	if (ok && sc && m->key) {
		json_t *sub = json_object_get(m->key, "self_check"), *v;
		int in = 0;
		json_array_foreach(sub, i, v)
			if (!strcmp(json_string_value(v), rid))
				in = 1;
		if (!in) {
			bsm_problem(&m->p, "%s: self-check score for %s, which the key's self-check subset does not hold",
			    where, rid);
			ok = 0;
		}
	}
	if (ok) {
		note_rater(m, rater, kind, where);
		e = get_entry(m, rid, rater, sc, where);
		if (!e->kind)
			e->kind = xstrdup(kind);
		if (date && *date && (!e->date || strcmp(date, e->date) > 0)) {
			free(e->date);
			e->date = xstrndup(date, 10);
		}
	}
	free(rid);
	free(rater);
	free(kind);
	free(self);
	free(date);
	return e;
}

static void
provide(struct merge *m, struct entry *e, const struct bsm_field *f, json_t *v,
    const char *where)
{
	json_t *prev = json_object_get(e->prov, f->name);

	if (prev) {
		json_t *old = json_object_get(e->row, f->name);
		if (f->concat && json_is_string(old) && json_is_string(v)) {
			if (json_string_length(v)) {
				char *t = json_string_length(old) ?
				    xasprintf("%s | %s", json_string_value(old), json_string_value(v)) :
				    xstrdup(json_string_value(v));
				json_object_set_new(e->row, f->name, json_string(t));
				free(t);
			}
			json_decref(v);
			return;
		}
		bsm_problem(&m->p, "%s: %s of %s by rater \"%s\" was already given at %s "
		    "(two sheets of one rater, or two raters sharing an id)",
		    where, f->name, e->response_id, e->rater_id, json_string_value(prev));
		json_decref(v);
		e->bad = 1;
		return;
	}
	json_object_set_new(e->prov, f->name, json_string(where));
	json_object_set_new(e->row, f->name, v);
}

/*
 * The header of a sheet (its first line): who, which response, and at least
 * one column of the rubric (a field, or the items of a records field).  A
 * sheet with another header is a problem even when it has no rows.
 */
static int
check_header(struct merge *m, const char *path, const json_t *cols,
    const struct bsm_field *rf)
{
	size_t k;

	if (!has_col(cols, "response_id") && !(m->tuples && has_col(cols, "site_id"))) {
		bsm_problem(&m->p, "%s:1: no response_id column", path);
		return -1;
	}
	if (!has_col(cols, "rater_id")) {
		bsm_problem(&m->p, "%s:1: no rater_id column (the sheet must say who scored it)", path);
		return -1;
	}
	if (rf)
		return 0;
	for (k = 0; k < m->r->nfields; k++)
		if (has_col(cols, m->r->fields[k].name))
			return 0;
	for (k = 0; k < m->r->nderived; k++)
		if (has_col(cols, m->r->derived[k].name))
			return 0;
	bsm_problem(&m->p, "%s:1: no column of rubric %s (such as %s)", path, m->r->name,
	    m->r->fields[0].name);
	return -1;
}

/*
 * A row no rater scores here: an excluded response passed through unscored,
 * or one scored with another rubric (a problem).
 */
static int
row_skipped(struct merge *m, const json_t *row, const char *where)
{
	json_t *rb = json_object_get(row, "rubric");
	json_t *ex = json_object_get(row, "exclusion_reason");

	if (json_is_string(ex) && json_string_length(ex) &&
	    !json_object_get(row, "rater_id"))
		return 1;
	if (json_is_string(rb) && json_string_length(rb) &&
	    strcmp(json_string_value(rb), m->r->name)) {
		bsm_problem(&m->p, "%s: scored with rubric %s, not %s", where,
		    json_string_value(rb), m->r->name);
		return 1;
	}
	return 0;
}

/*
 * Append one typed item to the records field rf of entry e.  All of an
 * entry's items come from one records sheet (path); another sheet giving
 * them again is a problem.
 */
static void
append_item(struct merge *m, struct entry *e, const struct bsm_field *rf,
    json_t *typed, const char *path, const char *where)
{
	json_t *prov = json_object_get(e->prov, rf->name);
	char *tag = xasprintf("records:%s", path);

	if (prov && strcmp(json_string_value(prov), tag)) {
		bsm_problem(&m->p, "%s: %s of %s by rater \"%s\" was already given at %s",
		    where, rf->name, e->response_id, e->rater_id, json_string_value(prov));
		e->bad = 1;
		json_decref(typed);
	} else {
		if (!prov) {
			json_object_set_new(e->prov, rf->name, json_string(tag));
			json_object_set_new(e->row, rf->name, json_array());
		}
		json_array_append_new(json_object_get(e->row, rf->name), typed);
	}
	free(tag);
}

/* A row of a records sheet: one item of records field rf. */
static void
take_item(struct merge *m, struct entry *e, const struct bsm_field *rf,
    const json_t *row, const char *path, const char *where)
{
	json_t *item = json_object(), *typed, *c;
	char *err;
	size_t k;

	for (k = 0; k < rf->nitems; k++)
		if ((c = json_object_get(row, rf->items[k].name)) != NULL)
			json_object_set(item, rf->items[k].name, c);
	if (bsm_type_item(rf, item, &typed, &err) < 0) {
		bsm_problem(&m->p, "%s: %s record: %s", where, rf->name, err);
		free(err);
		e->bad = 1;
	} else {
		append_item(m, e, rf, typed, path, where);
	}
	json_decref(item);
}

/*
 * 1 when a sheet gives e's response a second time (seen: response, rater
 * and self-check -> the line where the sheet first gave it).
 */
static int
row_repeated(struct merge *m, json_t *seen, struct entry *e, const json_t *row,
    const char *where)
{
	char *sk = xasprintf("%s\x1f%s\x1f%d", e->response_id, e->rater_id,
	    e->self_check);
	json_t *prev = json_object_get(seen, sk);

	if (prev) {
		bsm_problem(&m->p, "%s: duplicate response_id %s for rater \"%s\" (first at line %lld)",
		    where, e->response_id, e->rater_id, (long long)json_integer_value(prev));
		e->bad = 1;
	} else {
		json_object_set_new(seen, sk, json_incref(json_object_get(row, "_line")));
	}
	free(sk);
	return prev != NULL;
}

/*
 * The value a row gives field f, typed; an empty cell gives the field's
 * default (empty text, null, or its "default").  0 with *v a new reference,
 * 1 when there is nothing to give, -1 on a problem.
 */
static int
field_value(struct merge *m, struct entry *e, const struct bsm_field *f,
    const json_t *cell, json_t **v, const char *where)
{
	char *err;
	int rc = bsm_type_cell(f, cell, v, &err);

	if (rc < 0) {
		bsm_problem(&m->p, "%s: %s: %s", where, f->name, err);
		free(err);
		e->bad = 1;
		return -1;
	}
	if (rc == 0)
		return 0;
	if (f->required) {
		bsm_problem(&m->p, "%s: %s: missing value for %s", where, f->name,
		    e->response_id);
		e->bad = 1;
		return -1;
	}
	*v = f->type == BT_TEXT ? json_string("") : json_null();
	if (f->dflt) {
		json_decref(*v);
		*v = json_incref(f->dflt);
	}
	if (f->type == BT_RECORDS) {
		json_decref(*v);
		return 1;
	}
	return 0;
}

/* A row of a scoring sheet: the rubric's fields and any derived scores given. */
static void
take_fields(struct merge *m, struct entry *e, const json_t *row, const char *where)
{
	const struct bsm_field *f;
	json_t *cell, *v;
	size_t k;

	for (k = 0; k < m->r->nfields; k++) {
		f = &m->r->fields[k];
		cell = json_object_get(row, f->name);
		if (cell && field_value(m, e, f, cell, &v, where) == 0)
			provide(m, e, f, v, where);
	}
	for (k = 0; k < m->r->nderived; k++) {
		const char *dn = m->r->derived[k].name;

		cell = json_object_get(row, dn);
		if (cell && !json_is_null(cell) &&
		    !(json_is_string(cell) && !json_string_length(cell)))
			json_object_set(e->row, dn, cell);
	}
}

/*
 * Take every row of the sheet at path: a scoring sheet (fields of the
 * rubric) or a records sheet (items of one records field).
 */
static void
take_sheet(struct merge *m, const char *path)
{
	json_t *cols = NULL, *rows = bsm_sheet_load(path, m->r, &cols, &m->p), *row;
	const struct bsm_field *rf = records_sheet_field(m->r, cols);
	json_t *seen = json_object();
	struct entry *e;
	char *where;
	size_t i;

	/* An NDJSON sheet without records has no columns: nothing to check. */
	if (!json_array_size(rows) && !json_array_size(cols))
		goto out;
	if (check_header(m, path, cols, rf) < 0)
		goto out;
	json_array_foreach(rows, i, row) {
		where = xasprintf("%s:%lld", path,
		    (long long)json_integer_value(json_object_get(row, "_line")));
		if (row_skipped(m, row, where))
			e = NULL;
		else
			e = row_entry(m, row, where);
		if (e && rf)
			take_item(m, e, rf, row, path, where);
		else if (e && !row_repeated(m, seen, e, row, where))
			take_fields(m, e, row, where);
		free(where);
	}
out:
	json_decref(rows);
	json_decref(cols);
	json_decref(seen);
}

static int
kind_rank(const char *k)
{
	size_t i;

	for (i = 0; rater_kinds[i]; i++)
		if (!strcmp(rater_kinds[i], k))
			return (int)i;
	return 9;
}

/*
 * Order raters (arg: the struct merge): human before llm_judge before
 * autoscore, then most scored, then id.
 */
static int
cmp_rater(const void *a, const void *b, void *arg)
{
	const struct merge *m = arg;
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	json_t *rx = json_object_get(m->raters, x), *ry = json_object_get(m->raters, y);
	int kx = kind_rank(json_string_value(json_object_get(rx, "kind")));
	int ky = kind_rank(json_string_value(json_object_get(ry, "kind")));
	long long cx = json_integer_value(json_object_get(rx, "count"));
	long long cy = json_integer_value(json_object_get(ry, "count"));

	if (kx != ky)
		return kx - ky;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x, y);
}

static void
finish_entries(struct merge *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct entry *e = &m->e[i];
		char *where;
		if (e->bad)
			continue;
		if (!e->date) {
			bsm_problem(&m->p, "%s: scoring_date: missing for %s by rater \"%s\"",
			    e->where, e->response_id, e->rater_id);
			continue;
		}
		where = xasprintf("%s: %s by rater \"%s\"", e->where, e->response_id, e->rater_id);
		json_set_str(e->row, "rater_kind", e->kind);
		bsm_rubric_finish(m->r, e->row, &m->p, where);
		json_object_del(e->row, "rater_kind");
		free(where);
		if (!e->self_check) {
			json_t *rv = json_object_get(m->raters, e->rater_id);
			json_set_int(rv, "count", json_integer_value(json_object_get(rv, "count")) + 1);
		}
	}
}

static void
init_merge(struct merge *m, const struct bsm_opts *o, const char *rubric)
{
	memset(m, 0, sizeof *m);
	m->o = o;
	m->r = bsm_rubric_load(rubric);
	m->entries = json_object();
	buf_init(&m->keytext);
	m->raters = json_object();
}

static void
release_merge(struct merge *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->e[i].response_id);
		free(m->e[i].rater_id);
		free(m->e[i].kind);
		free(m->e[i].date);
		free(m->e[i].where);
		json_decref(m->e[i].row);
		json_decref(m->e[i].prov);
	}
	free(m->e);
	json_decref(m->entries);
	buf_release(&m->keytext);
	json_decref(m->raters);
	json_decref(m->key);
	json_decref(m->known);
	json_decref(m->tuples);
	bsm_problems_release(&m->p);
	bsm_rubric_free(m->r);
}

/*
 * Every sheet file opens, or the run stops here with one line per missing
 * file: a missing file is one cause, not a problem for each response it held.
 */
static void
sheets_readable(const struct bsm_opts *o)
{
	int i, bad = 0, last = -1, err = 0;

	for (i = 0; i < o->nfiles; i++)
		if (strcmp(o->files[i], "-") && access(o->files[i], R_OK) < 0) {
			err = errno;
			if (bad++)
				warn("%s: cannot open: %s", o->files[last], strerror(err));
			last = i;
		}
	if (bad == 1)
		die("%s: cannot open: %s; nothing written", o->files[last],
		    strerror(err));
	if (bad)
		die("%s: cannot open: %s; %d sheet files cannot be read, nothing "
		    "written", o->files[last], strerror(err), bad);
}

static int
fail_problems(struct merge *m)
{
	size_t n = bsm_problems_report(&m->p);

	warn("%zu problem%s; nothing written", n, n == 1 ? "" : "s");
	return EXIT_DATA;
}

/* The scored fields of an entry, in rubric order, onto out. */
static void
put_scores(struct merge *m, json_t *out, const struct entry *e)
{
	size_t i;

	json_set_str(out, "rubric", m->r->name);
	for (i = 0; i < m->r->nfields; i++) {
		json_t *v = e ? json_object_get(e->row, m->r->fields[i].name) : NULL;
		json_set_new(out, m->r->fields[i].name, v ? json_incref(v) : json_null());
	}
	for (i = 0; i < m->r->nderived; i++) {
		json_t *v = e ? json_object_get(e->row, m->r->derived[i].name) : NULL;
		json_set_new(out, m->r->derived[i].name, v ? json_incref(v) : json_null());
	}
	if (e)
		json_set_str(out, "scoring_date", e->date);
	else
		json_set_null(out, "scoring_date");
}

int
bsm_check(const struct bsm_opts *o)
{
	struct merge m;
	int i;
	size_t k;

	sheets_readable(o);
	init_merge(&m, o, o->rubric ? o->rubric : "context-collapse");
	for (i = 0; i < o->nfiles; i++)
		take_sheet(&m, o->files[i]);
	finish_entries(&m);
	if (m.p.n) {
		int rc = fail_problems(&m);
		release_merge(&m);
		return rc;
	}
	ndj_output_open(o->output);
	for (k = 0; k < m.n; k++) {
		json_t *out = json_object();
		json_set_str(out, "response_id", m.e[k].response_id);
		json_set_str(out, "rater_id", m.e[k].rater_id);
		json_set_str(out, "rater_kind", m.e[k].kind);
		if (m.e[k].self_check)
			json_set_bool(out, "self_check", 1);
		put_scores(&m, out, &m.e[k]);
		ndj_emit_free(out);
	}
	warn("%zu rows valid in %d sheet%s", m.n, o->nfiles,
	    o->nfiles == 1 ? "" : "s");
	release_merge(&m);
	return 0;
}

/* ------------------------------------------------------------ merge */

struct resp {
	json_t *rec;
	char *where;
	const char *rid;	/* NULL for excluded */
};

/* One merge run: the key, the responses matched against it, the raters. */
struct run {
	const struct bsm_opts *o;
	struct merge m;
	json_t *bytuple;	/* tuple -> key entry (blinded or excluded) */
	json_t *matched;	/* tuple -> "FILE:LINE" of its response */
	json_t *scored;		/* response_id -> 1 (scored), 2 (by --primary) */
	struct resp *rs;
	size_t nrs, caprs;
	char **order;		/* rater ids, the primary's kind first */
	size_t norder;
};

/* Read the key written by blind; the merge's rubric is the key's. */
static void
load_key(struct run *u)
{
	const struct bsm_opts *o = u->o;
	json_t *key = bsm_key_load(o->key), *ke;
	const char *rubric;
	size_t i;

	rubric = json_string_value(json_object_get(key, "rubric"));
	if (o->rubric && strcmp(o->rubric, rubric)) {
		struct bsm_rubric *tmp = bsm_rubric_load(o->rubric);
		if (strcmp(tmp->name, rubric))
			die("%s: the key was written for rubric %s, not %s", o->key, rubric, tmp->name);
		bsm_rubric_free(tmp);
	}
	init_merge(&u->m, o, o->rubric ? o->rubric : rubric);
	u->m.key = key;
	u->m.known = json_object();
	u->m.tuples = json_object();
	u->bytuple = json_object();
	json_array_foreach(json_object_get(key, "responses"), i, ke) {
		const char *rid = json_string_value(json_object_get(ke, "response_id"));
		char *t = bsm_tuple(ke);
		json_object_set(u->m.known, rid, ke);
		json_object_set(u->bytuple, t, ke);
		json_object_set_new(u->m.tuples, t, json_string(rid));
		free(t);
	}
	json_array_foreach(json_object_get(key, "excluded"), i, ke) {
		char *t = bsm_tuple(ke);
		json_object_set(u->bytuple, t, ke);
		free(t);
	}
}

/* 1 when rec and key entry ke name the same variant_of (or neither has one). */
static int
same_variant(const json_t *rec, const json_t *ke)
{
	const char *a = json_get_str(rec, "variant_of"), *b = json_get_str(ke, "variant_of");

	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* The problems of one response record matched (or not) against key entry ke. */
static void
check_response(struct run *u, const json_t *rec, const char *where, const char *t,
    const json_t *ke)
{
	struct bsm_problems *p = &u->m.p;
	const char *want;
	json_t *txt;
	char hex[65];

	if (json_object_get(u->matched, t)) {
		bsm_problem(p, "%s: duplicate response for %s (first at %s)", where, t,
		    json_string_value(json_object_get(u->matched, t)));
		return;
	}
	if (!ke) {
		bsm_problem(p, "%s: response %s is not in the key %s", where, t, u->o->key);
		return;
	}
	if (bsm_is_excluded(rec) != !json_object_get(ke, "response_id")) {
		bsm_problem(p, "%s: response %s is %s here but %s in the key", where, t,
		    bsm_is_excluded(rec) ? "excluded" : "not excluded",
		    bsm_is_excluded(rec) ? "blinded" : "excluded");
		return;
	}
	if (!same_variant(rec, ke)) {
		bsm_problem(p, "%s: response %s: variant_of differs from the key's", where, t);
		return;
	}
	if (bsm_is_excluded(rec))
		return;
	txt = json_object_get(rec, "response_text");
	if (!json_is_string(txt)) {
		bsm_problem(p, "%s: response_text: expected a string", where);
		return;
	}
	sha256_hex(json_string_value(txt), json_string_length(txt), hex);
	want = json_string_value(json_object_get(ke, "response_sha256"));
	if (strcmp(hex, want ? want : ""))
		bsm_problem(p, "%s: response %s: response_text differs from the one blinded into the key",
		    where, t);
}

/* Take one response record (owned), read at where (owned). */
static void
take_response(struct run *u, json_t *rec, char *where)
{
	struct resp *r;
	json_t *ke;
	const char *bad;
	char *t;

	if ((bad = bsm_tuple_missing(rec)) != NULL) {
		bsm_problem(&u->m.p, "%s: %s: expected a string", where, bad);
		json_decref(rec);
		free(where);
		return;
	}
	t = bsm_tuple(rec);
	ke = json_object_get(u->bytuple, t);
	check_response(u, rec, where, t, ke);
	json_object_set_new(u->matched, t, json_string(where));
	if (u->nrs == u->caprs) {
		u->caprs = u->caprs ? u->caprs * 2 : 64;
		u->rs = xreallocarray(u->rs, u->caprs, sizeof *u->rs);
	}
	r = &u->rs[u->nrs++];
	r->rec = rec;
	r->where = where;
	r->rid = ke ? json_string_value(json_object_get(ke, "response_id")) : NULL;
	free(t);
}

/* The response records (-r, else stdin), and the key's tuples none answered. */
/* 0, or -1 (one problem recorded) when the input is not binfer's. */
static int
read_responses(struct run *u)
{
	const struct bsm_opts *o = u->o;
	size_t i, n = o->nresponses ? o->nresponses : 1;
	const char *t;
	json_t *ke;

	u->matched = json_object();
	for (i = 0; i < n; i++) {
		struct ndj_reader nr;
		json_t *rec;
		char *err;
		ndj_reader_open(&nr, o->nresponses ? o->responses[i] : NULL);
		while ((rec = ndj_next_err(&nr, &err)) != NULL) {
			if (!json_object_get(rec, "model_id") &&
			    !json_object_get(rec, "response_text")) {
				bsm_problem(&u->m.p, "%s:%lu: no model_id or response_text: "
				    "merge reads binfer's responses (run binfer first)",
				    nr.name, nr.line);
				json_decref(rec);
				ndj_reader_close(&nr);
				return -1;
			}
			take_response(u, rec, xasprintf("%s:%lu", nr.name, nr.line));
		}
		if (err) {
			bsm_problem(&u->m.p, "%s:%lu: %s", nr.name, nr.line, err);
			free(err);
		}
		ndj_reader_close(&nr);
	}
	json_object_foreach(u->bytuple, t, ke)
		if (!json_object_get(u->matched, t))
			bsm_problem(&u->m.p, "%s: %s %s has no response record in the input", o->key,
			    json_object_get(ke, "response_id") ? "response" : "excluded tuple", t);
	return 0;
}

/* Raters in order (human first, then most scored), and who scored what. */
static void
order_raters(struct run *u)
{
	const struct bsm_opts *o = u->o;
	const char *rid;
	json_t *v;
	size_t j = 0;

	u->norder = json_object_size(u->m.raters);
	u->order = xcalloc(u->norder + 1, sizeof *u->order);
	json_object_foreach(u->m.raters, rid, v)
		u->order[j++] = (char *)rid;
	ctx_sort(u->order, u->norder, sizeof *u->order, cmp_rater, &u->m);
	u->scored = json_object();
	for (j = 0; j < u->m.n; j++) {
		const struct entry *e = &u->m.e[j];
		if (e->self_check)
			continue;
		if (o->primary && !strcmp(e->rater_id, o->primary))
			json_object_set_new(u->scored, e->response_id, json_integer(2));
		else if (!json_object_get(u->scored, e->response_id))
			json_object_set_new(u->scored, e->response_id, json_integer(1));
	}
}

/* Every blinded response is scored; by the primary rater when one is named. */
static void
check_scored(struct run *u)
{
	const struct bsm_opts *o = u->o;
	int have_primary = o->primary && json_object_get(u->m.raters, o->primary);
	size_t i;

	if (o->primary && !have_primary)
		bsm_problem(&u->m.p, "--primary: no sheet was scored by rater \"%s\"", o->primary);
	for (i = 0; i < u->nrs; i++) {
		json_t *v;
		if (!u->rs[i].rid)
			continue;
		v = json_object_get(u->scored, u->rs[i].rid);
		if (!v)
			bsm_problem(&u->m.p, "%s: response %s has not been scored by any rater",
			    o->key, u->rs[i].rid);
		else if (have_primary && json_integer_value(v) != 2)
			bsm_problem(&u->m.p, "%s: response %s has not been scored by the primary rater \"%s\"",
			    o->key, u->rs[i].rid, o->primary);
	}
}

static void
release_run(struct run *u)
{
	size_t i;

	for (i = 0; i < u->nrs; i++) {
		json_decref(u->rs[i].rec);
		free(u->rs[i].where);
	}
	free(u->rs);
	free(u->order);
	json_decref(u->scored);
	json_decref(u->matched);
	json_decref(u->bytuple);
	release_merge(&u->m);
}

/* ------------------------------------------------------------ outputs */

/*
 * The outputs of a merge: staged in one atomic group, then committed all or
 * none (commit_outputs).
 */
struct outputs {
	struct atomic_group *g;
	FILE *sfp, *rfp, *dfp;	/* scored records, raw-data.csv, details */
	struct csv_writer rw;
	int variant_col;	/* raw-data.csv has a variant_of column */
	json_t *details;	/* response_id -> its records fields */
	json_t *in2set;		/* response_id -> true: second-rater subset */
};

static FILE *
out_open(struct outputs *os, const char *path)
{
	FILE *fp = atomic_group_open(os->g, path, 0644);

	if (!fp)
		die_errno("%s", path);
	return fp;
}

/*
 * Every output is written and synced before any is renamed into place, and
 * a rename that fails undoes the others (atomic.h): a full disk or another
 * write error leaves every output as it was, and the message names the file.
 */
static void
commit_outputs(struct outputs *os)
{
	char *bad;

	if (atomic_group_commit(os->g, &bad) < 0)
		die("%s: cannot write: %s; no output written", bad,
		    strerror(errno));
}

static char *
value_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return xstrdup("");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_true(v))
		return xstrdup("true");
	if (json_is_false(v))
		return xstrdup("false");
	return json_compact(v, NULL);
}

/* The join column: the strings of a list (or of one field of its items). */
static char *
joined(const json_t *rec, const char *join)
{
	const char *dot = strchr(join, '.');
	char *arrname = dot ? xstrndup(join, (size_t)(dot - join)) : xstrdup(join);
	json_t *arr = json_object_get(rec, arrname), *it;
	struct buf b = BUF_INIT;
	size_t j;

	buf_adds(&b, "");
	json_array_foreach(arr, j, it) {
		json_t *v = dot ? json_object_get(it, dot + 1) : it;
		if (json_is_string(v)) {
			if (b.len)
				buf_addc(&b, ',');
			buf_adds(&b, json_string_value(v));
		}
	}
	free(arrname);
	return buf_detach(&b, NULL);
}

/*
 * One row of raw-data.csv.  Text cells are written as the blind sheets write
 * them (csv_write_text: a formula-like cell receives a leading space), unless
 * --raw-csv; numbers are written as they are.
 */
static void
raw_row(struct merge *m, struct outputs *os, const json_t *rec)
{
	json_t *cols = json_object_get(m->r->def, "raw_data"), *c;
	struct csv_writer *w = &os->rw;
	size_t i;

	json_array_foreach(cols, i, c) {
		const char *col = json_string_value(json_object_get(c, "column"));
		const char *field = json_string_value(json_object_get(c, "field"));
		const char *join = json_string_value(json_object_get(c, "join"));
		json_t *v = join ? NULL : json_object_get(rec, field ? field : col);
		char *t = join ? joined(rec, join) : value_text(v);
		if (m->o->raw_csv || (!join && !json_is_string(v)))
			csv_write_field(w, t);
		else
			csv_write_text(w, t);
		free(t);
		if (os->variant_col == (int)i + 1)
			csv_write_text(w, json_get_str(rec, "variant_of") ?
			    json_get_str(rec, "variant_of") : "");
	}
	csv_end_record(w);
}

/*
 * Where raw-data.csv's variant_of column goes: 0 when no response varies
 * a condition (the columns are the rubric's alone), else 1 + the index of
 * the rubric's condition column it follows (the last column without one).
 */
static int
variant_column(const struct run *u)
{
	json_t *cols = json_object_get(u->m.r->def, "raw_data"), *c;
	size_t i;
	int any = 0;

	for (i = 0; i < u->nrs && !any; i++)
		any = json_get_str(u->rs[i].rec, "variant_of") != NULL;
	if (!any)
		return 0;
	json_array_foreach(cols, i, c)
		if (strcmp(json_string_value(json_object_get(c, "column")),
		    "condition") == 0)
			return (int)i + 1;
	return (int)json_array_size(cols);
}

static void
open_outputs(struct run *u, struct outputs *os)
{
	const struct bsm_opts *o = u->o;
	json_t *c, *sub2;
	size_t i;

	memset(os, 0, sizeof *os);
	os->g = atomic_group_new();
	os->details = json_object();
	os->sfp = o->output && strcmp(o->output, "-") ? out_open(os, o->output) : stdout;
	if (o->raw_data) {
		os->rfp = out_open(os, o->raw_data);
		csv_writer_init(&os->rw, os->rfp, o->crlf, 0);
		if (o->bom)
			csv_write_bom(&os->rw);
		os->variant_col = variant_column(u);
		json_array_foreach(json_object_get(u->m.r->def, "raw_data"), i, c) {
			csv_write_field(&os->rw, json_string_value(json_object_get(c, "column")));
			if (os->variant_col == (int)i + 1)
				csv_write_field(&os->rw, "variant_of");
		}
		csv_end_record(&os->rw);
	}
	if (o->details)
		os->dfp = out_open(os, o->details);
	sub2 = json_object_get(u->m.key, "second_rater");
	os->in2set = json_object();
	json_array_foreach(sub2, i, c)
		if (json_is_string(c))
			json_object_set_new(os->in2set, json_string_value(c), json_true());
}

static void
emit(FILE *fp, const json_t *out)
{
	json_compact_fp(fp, out);
	fputc('\n', fp);
}

/* An excluded tuple: one unscored record, and its raw-data row with the reason. */
static void
write_excluded(struct run *u, struct outputs *os, const struct resp *r, const json_t *base)
{
	json_t *out = json_deep_copy(base);
	const char *why;
	char *note;

	json_set_null(out, "response_id");
	json_set_null(out, "rater_id");
	json_set_null(out, "rater_kind");
	json_set_bool(out, "primary", 1);
	put_scores(&u->m, out, NULL);
	emit(os->sfp, out);
	if (os->rfp) {
		why = json_string_value(json_object_get(r->rec, "exclusion_reason"));
		note = xasprintf("excluded: %s", why ? why : "excluded");
		json_set_str(out, "scoring_notes", note);
		json_set_str(out, "notes", note);
		json_set_str(out, "justification", note);
		free(note);
		raw_row(&u->m, os, out);
	}
	json_decref(out);
}

/* The records fields (hallucinations ...) of the primary entry, for --details. */
static void
add_details(struct run *u, struct outputs *os, const char *rid, const struct entry *e)
{
	const struct bsm_rubric *r = u->m.r;
	json_t *d = json_object();
	size_t fi;
	int any = 0;

	json_set_str(d, "response_id", rid);
	json_set_str(d, "rater_id", e->rater_id);
	for (fi = 0; fi < r->nfields; fi++) {
		const struct bsm_field *f = &r->fields[fi];
		if (f->type != BT_RECORDS)
			continue;
		any = 1;
		if (f->count_field)
			json_set_new(d, f->count_field,
			    json_incref(json_object_get(e->row, f->count_field)));
		json_set_new(d, f->name, json_incref(json_object_get(e->row, f->name)));
	}
	if (any)
		json_object_set(os->details, rid, d);
	json_decref(d);
}

/*
 * The record of one rater's score (self: that rater's self-check) of a
 * blinded response, when there is one.  The first rater in order with a
 * score, or the --primary rater, gives the primary record (*primary_done).
 */
static void
write_rating(struct run *u, struct outputs *os, const struct resp *r,
    const json_t *base, const char *rater, int self, int *primary_done)
{
	const struct bsm_opts *o = u->o;
	struct entry *e = find_entry(&u->m, r->rid, rater, self);
	json_t *out;
	int prim = 0;

	if (!e)
		return;
	if (!self && !*primary_done && (!o->primary || !strcmp(o->primary, rater)))
		prim = *primary_done = 1;
	out = json_deep_copy(base);
	json_set_str(out, "response_id", r->rid);
	json_set_str(out, "rater_id", e->rater_id);
	json_set_str(out, "rater_kind", e->kind);
	json_set_bool(out, "primary", prim);
	json_set_bool(out, "self_check", self);
	json_set_bool(out, "second_rater_subset", json_object_get(os->in2set, r->rid) != NULL);
	put_scores(&u->m, out, e);
	emit(os->sfp, out);
	if (prim && os->rfp)
		raw_row(&u->m, os, out);
	if (prim && os->dfp)
		add_details(u, os, r->rid, e);
	json_decref(out);
}

/* One record per (rater, self-check) of a blinded response, primary first. */
static void
write_scored(struct run *u, struct outputs *os, const struct resp *r, const json_t *base)
{
	size_t i;
	int self, primary_done = 0;

	for (self = 0; self <= 1; self++)
		for (i = 0; i < u->norder; i++)
			write_rating(u, os, r, base, u->order[i], self, &primary_done);
}

static void
write_outputs(struct run *u)
{
	struct outputs os;
	size_t i;

	open_outputs(u, &os);
	for (i = 0; i < u->nrs; i++) {
		const struct resp *r = &u->rs[i];
		json_t *base = json_deep_copy(r->rec);
		if (!u->o->keep_texts)
			drop_bulky(base);
		if (r->rid)
			write_scored(u, &os, r, base);
		else
			write_excluded(u, &os, r, base);
		json_decref(base);
	}
	if (os.dfp) {
		char *s = json_dumps(os.details, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (s == NULL)
			die("%s: cannot serialise the details", u->o->details);
		fputs(s, os.dfp);
		fputc('\n', os.dfp);
		free(s);
	}
	if (os.sfp == stdout && fflush(stdout) == EOF)
		die_errno("write error");
	commit_outputs(&os);
	json_decref(os.details);
	json_decref(os.in2set);
}

/* The one-line account of a merge. */
static void
merge_summary(const struct run *u)
{
	size_t i, scored = 0;

	for (i = 0; i < u->nrs; i++)
		scored += u->rs[i].rid != NULL;
	warn("%zu responses: %zu scored, %zu excluded; %zu rater%s, %d sheet%s",
	    u->nrs, scored, u->nrs - scored, u->norder, u->norder == 1 ? "" : "s",
	    u->o->nfiles, u->o->nfiles == 1 ? "" : "s");
}

int
bsm_merge(const struct bsm_opts *o)
{
	struct run u;
	const char *first;
	int rc;

	memset(&u, 0, sizeof u);
	u.o = o;
	sheets_readable(o);
	load_key(&u);
	if (read_responses(&u) < 0) {
		rc = fail_problems(&u.m);
		release_run(&u);
		return rc;
	}
	for (rc = 0; rc < o->nfiles; rc++)
		take_sheet(&u.m, o->files[rc]);
	finish_entries(&u.m);
	order_raters(&u);
	check_scored(&u);
	if (u.m.p.n) {
		rc = fail_problems(&u.m);
		release_run(&u);
		return rc;
	}
	first = o->primary ? o->primary : u.order[0];
	write_outputs(&u);
	/* after the outputs are committed: a failed run says one thing */
	if (u.norder && kind_rank(json_string_value(json_object_get(json_object_get(u.m.raters,
	    first), "kind"))) > 0)
		warn("warning: the primary rater is not human; spec 000 §10 requires human verification");
	merge_summary(&u);
	release_run(&u);
	return 0;
}
