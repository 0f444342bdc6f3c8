/*
 * rubric.h - rubric definitions read at run time from share/rubrics/NAME.json
 * (spec 000, 002, 004 and any a study adds), the typing of sheet cells
 * against them, and the completion of a scored row: defaults, derived scores
 * computed from the rubric's formulas, and every rule checked.
 *
 * A definition lists "fields" (what raters fill: integer with min/max,
 * number, text, enum, bool, date, list, records with "items"), "passes"
 * (the per-metric scoring passes in order), "derived" (formulas or cases,
 * never typed by raters), "rules" ({when, require, message}) and "raw_data"
 * (the columns of raw-data.csv).  Labels, "scale", "checklist" and
 * "guidance" are there for people and for pages that show the rubric.
 */
#ifndef BSM_RUBRIC_H
#define BSM_RUBRIC_H

#include <jansson.h>
#include "expr.h"

/* A list of problems, reported all at once. */
struct bsm_problems {
	char **msg;
	size_t n, cap;
};
void bsm_problem(struct bsm_problems *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print every problem as "PROG: message"; returns their number. */
size_t bsm_problems_report(const struct bsm_problems *p);
void bsm_problems_release(struct bsm_problems *p);

enum bsm_type {
	BT_INTEGER, BT_NUMBER, BT_TEXT, BT_ENUM, BT_BOOL, BT_DATE, BT_LIST,
	BT_RECORDS
};

struct bsm_rule {
	const char *id, *message;
	struct bsm_expr *when, *require;
};

struct bsm_derived {
	const char *name;
	enum bsm_type type;
	struct bsm_expr *when;		/* optional guard (item derived) */
	struct bsm_expr *expr;		/* or cases */
	size_t ncases;
	struct bsm_expr **case_when;	/* NULL: the default case */
	json_t **case_value;
	int round;			/* decimals, -1: none */
};

struct bsm_field {
	const char *name;
	enum bsm_type type;
	json_t *def;			/* the definition (borrowed from the rubric) */
	int required, nullable, concat;
	int has_min, has_max;
	double min, max;
	json_t *null_words;		/* array of strings meaning null */
	json_t *values;			/* enum: array of {value, ...} */
	json_t *dflt;			/* default when absent, or NULL */
	struct bsm_expr *optional_when;	/* a required field may be absent when true */
	const char *count_field;	/* records: the count it must match */
	struct bsm_field *items;	/* records: item fields */
	size_t nitems;
	struct bsm_derived *item_derived;
	size_t nitem_derived;
	struct bsm_rule *item_rules;
	size_t nitem_rules;
	json_t *item_enums;		/* item field name -> values */
};

struct bsm_rubric {
	json_t *def;
	const char *name;
	char *path;
	struct bsm_field *fields;
	size_t nfields;
	struct bsm_derived *derived;
	size_t nderived;
	struct bsm_rule *rules;
	size_t nrules;
	json_t *enums;			/* field name -> values */
	json_t *aliases;
};

/*
 * Load a rubric by name (share/rubrics/NAME.json, found by ctx_share_file():
 * $CTXBENCH_SHARE, the source tree or the installed copy beside the binary,
 * or CTX_SHAREDIR) or
 * by path (anything with a '/' or ending in .json).  The definition is
 * checked; a bad one dies with "FILE: where: message".
 */
struct bsm_rubric *bsm_rubric_load(const char *name);
void bsm_rubric_free(struct bsm_rubric *r);

const struct bsm_field *bsm_rubric_field(const struct bsm_rubric *r,
    const char *name);
/* A copy of s without leading and trailing spaces, tabs, CRs and LFs; malloc'd. */
char *bsm_trim(const char *s);
/*
 * Canonical column name of a sheet header cell: trimmed, lower case, runs of
 * spaces and '-' as '_', then the rubric's aliases.  malloc'd.
 */
char *bsm_canon_column(const struct bsm_rubric *r, const char *header);

/*
 * Type one cell (a string from a CSV sheet, or any JSON value from an NDJSON
 * sheet) for field f.  Returns 0 with *out a new reference, 1 when the cell
 * is empty (no value; *out NULL), or -1 with *err a malloc'd message.
 * Integers accept "2", " 2 ", "2.0" and 2.0, not 2.5; nullable fields map
 * their null words ("", "N/A" ...) to null; records accept a JSON array.
 */
int bsm_type_cell(const struct bsm_field *f, const json_t *cell, json_t **out,
    char **err);

/*
 * Type one item of records field f (an object keyed by item field names,
 * string or JSON values); unknown keys other than response_id, rater_id and
 * "_..." are errors.  0 with *out, or -1 with *err malloc'd.
 */
int bsm_type_item(const struct bsm_field *f, const json_t *item, json_t **out,
    char **err);
/* 1 when s starts with a valid ISO 8601 calendar date YYYY-MM-DD. */
int bsm_valid_date(const char *s);

/*
 * Complete a row of typed values: defaults for absent optional fields,
 * "missing FIELD" for absent required ones (unless the field's
 * "optional_when" holds; the row may carry rater_kind for such expressions), item derived values and rules of
 * records fields, derived scores (a value already in row for a derived name,
 * typed by a rater, must agree with the computed one), then the rules.  Each
 * problem is added to p prefixed with where.  Returns the number of problems
 * added.
 */
size_t bsm_rubric_finish(const struct bsm_rubric *r, json_t *row,
    struct bsm_problems *p, const char *where);

#endif
