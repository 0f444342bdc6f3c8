/*
 * drift.c - the records of `bctx drift` (spec 001 §7 L-SL-2: the same
 * study's pages archived twice, months apart) read for the report's
 * "Content drift between snapshots" section (report-drift.c).
 *
 * One JSON object per line, each with a "kind": drift_page (one page:
 * site_id, url, condition, status; a changed page also its
 * facts_changed, facts_changed_count, words_removed, words_added and
 * word_similarity), drift_site (one site and condition) and
 * drift_condition (one condition), the summaries carrying the count of
 * each status and old_pages.  Every field the report uses is checked; the
 * rates are computed here again from the counts, so a record cannot
 * state a rate its counts do not give.
 */
#include <string.h>

#include "ctx.h"
#include "bstats.h"

static const char *const STATUS[] = { "unchanged", "same_content",
	"changed", "gone", "new", "excluded" };
#define NSTATUS (sizeof STATUS / sizeof STATUS[0])

/* A count field: an integer, at least 0. */
static long long
count_field(json_t *rec, const char *k)
{
	long long v = rec_int(rec, k);

	if (v < 0)
		ndj_die("%s: expected a count (0 or more), got %lld", k, v);
	return v;
}

static void
summary(json_t *rec, json_t *out)
{
	json_t *o = json_object();
	long long old, n[NSTATUS];
	size_t k;

	if (strcmp(rec_str(rec, "kind"), "drift_site") == 0)
		json_set_str(o, "site_id", rec_str(rec, "site_id"));
	json_set_str(o, "condition", rec_str(rec, "condition"));
	for (k = 0; k < NSTATUS; k++)
		json_set_int(o, STATUS[k], n[k] = count_field(rec, STATUS[k]));
	old = count_field(rec, "old_pages");
	if (old != n[0] + n[1] + n[2] + n[3])
		ndj_die("old_pages: %lld, but unchanged + same_content + changed "
		    "+ gone is %lld", old, n[0] + n[1] + n[2] + n[3]);
	json_set_int(o, "old_pages", old);
	json_set_int(o, "drifted", n[2] + n[3]);
	json_set_int(o, "facts_changed", count_field(rec, "facts_changed"));
	json_array_append_new(out, o);
}

static void
page(json_t *rec, json_t *d)
{
	const char *st = rec_str(rec, "status");
	json_t *o, *fc;
	size_t k;

	rec_str(rec, "site_id");
	rec_str(rec, "url");
	rec_str(rec, "condition");
	for (k = 0; k < NSTATUS && strcmp(st, STATUS[k]); k++)
		;
	if (k == NSTATUS)
		ndj_die("status: expected unchanged, same_content, changed, gone, "
		    "new or excluded, got \"%s\"", st);
	json_set_int(d, "pages", json_integer_value(json_object_get(d,
	    "pages")) + 1);
	if (strcmp(st, "changed"))
		return;
	fc = rec_array(rec, "facts_changed");
	for (k = 0; k < json_array_size(fc); k++) {
		json_t *f = json_array_get(fc, k);

		if (!json_is_object(f) || !json_is_string(json_object_get(f,
		    "key")) || !json_is_string(json_object_get(f, "old")) ||
		    !json_is_string(json_object_get(f, "new")))
			ndj_die("facts_changed[%zu]: expected {kind, key, old, "
			    "new} with string values", k);
	}
	count_field(rec, "facts_changed_count");
	count_field(rec, "words_removed");
	count_field(rec, "words_added");
	rec_num_opt(rec, "word_similarity", 0);
	o = json_deep_copy(rec);
	json_array_append_new(json_object_get(d, "changed"), o);
}

static int
record(json_t *rec, void *ctx)
{
	json_t *d = ctx;
	const char *kind = rec_str(rec, "kind");

	if (strcmp(kind, "drift_page") == 0)
		page(rec, d);
	else if (strcmp(kind, "drift_site") == 0)
		summary(rec, json_object_get(d, "sites"));
	else if (strcmp(kind, "drift_condition") == 0)
		summary(rec, json_object_get(d, "conditions"));
	else
		ndj_die("kind: expected drift_page, drift_site or "
		    "drift_condition (the records of bctx drift), got \"%s\"",
		    kind);
	return 0;
}

void
bstats_drift(struct bst_study *s, const char *path)
{
	json_t *d = json_object();
	char *files[1];

	json_set_int(d, "pages", 0);
	json_set_new(d, "conditions", json_array());
	json_set_new(d, "sites", json_array());
	json_set_new(d, "changed", json_array());
	files[0] = (char *)path;
	ndj_run(1, files, record, NULL, d);
	if (json_array_size(json_object_get(d, "conditions")) == 0)
		die("%s: no drift_condition record (expected the output of bctx "
		    "drift)", path);
	json_decref(s->drift);
	s->drift = d;
}
