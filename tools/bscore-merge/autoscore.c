/*
 * autoscore.c - `bscore-merge autoscore`: a first-pass automatic rater (spec
 * 000 §10 "Scoring Automation Opportunities") that reads blinded sheets and
 * scores each response from its overlap with the gold answer, so a pipeline
 * can run end to end without a person.  Its rows are recorded with
 * rater_kind "autoscore" and never pass for human scores.
 *
 * The mapping is data: the rubric's "autoscore" section names the accuracy
 * field and the recall thresholds of each score.  Completeness comes from the
 * question-part coverage of the completeness hint, citation fidelity from
 * citation-pattern detection, and a refusal (EC-05) scores 0/0 with no
 * hallucinations.  Hallucinations are not assessed (count 0, said in the
 * notes): 000 §10 leaves them manual.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bsm.h"
#include "hints.h"
#include "sheet.h"

/* Today's UTC date as YYYY-MM-DD into out (>= 11 bytes). */
static char *
today_utc(char *out, size_t n)
{
	char now[32];

	ctx_utc_now(now, sizeof now);
	snprintf(out, n, "%.10s", now);
	return out;
}

static const char *
cell(const json_t *row, const char *col)
{
	json_t *v = json_object_get(row, col);

	return json_is_string(v) ? json_string_value(v) : "";
}

static json_t *
sections_of(const json_t *row)
{
	json_t *arr = json_array(), *v = json_object_get(row, "source_sections");
	char **parts, **p;

	if (json_is_array(v))
		return json_deep_copy(v);
	if (!json_is_string(v))
		return arr;
	parts = strv_split(json_string_value(v), ';');
	for (p = parts; *p; p++) {
		const char *s = *p;
		while (*s == ' ')
			s++;
		if (*s)
			json_array_append_new(arr, json_string(s));
	}
	strv_free(parts);
	return arr;
}

/* The fields of the rubric's "autoscore" section a score goes to (or NULL). */
struct auto_fields {
	const json_t *thresholds;	/* [{min, value}], highest first */
	const char *acc, *comp, *cit, *cnt, *ref, *notes;
};

static void
auto_fields(const struct bsm_rubric *r, struct auto_fields *af)
{
	json_t *as = json_object_get(r->def, "autoscore");

	if (!json_is_object(as))
		die("rubric %s has no \"autoscore\" section: autoscore cannot rate it", r->name);
	af->thresholds = json_object_get(as, "accuracy_thresholds");
	af->acc = json_get_str(as, "accuracy_field");
	af->comp = json_get_str(as, "completeness_field");
	af->cit = json_get_str(as, "citation_field");
	af->cnt = json_get_str(as, "count_field");
	af->ref = json_get_str(as, "refusal_field");
	af->notes = json_get_str(as, "notes_field");
	if (!af->acc || !bsm_rubric_field(r, af->acc))
		die("rubric %s: autoscore.accuracy_field: expected a field of the rubric", r->name);
}

/*
 * The columns autoscore reads, checked on the header even of a sheet
 * without rows (an NDJSON sheet without records has no columns then).
 */
static void
check_columns(const char *path, const json_t *rows, const json_t *cols)
{
	static const char *const need[] = {
		"response_id", "question", "gold_answer", "response", NULL
	};
	const char *const *n;
	json_t *cv;
	size_t c;
	int has;

	if (!json_array_size(rows) && !json_array_size(cols))
		return;
	for (n = need; *n; n++) {
		has = 0;
		json_array_foreach(cols, c, cv)
			if (!strcmp(json_string_value(cv), *n))
				has = 1;
		if (!has)
			die("%s:1: no %s column: autoscore reads the sheets bscore-merge blind writes",
			    path, *n);
	}
}

/* The accuracy score of a gold-answer term recall: the first threshold met. */
static int
accuracy_of(const struct auto_fields *af, double recall)
{
	json_t *t;
	size_t i;

	json_array_foreach(af->thresholds, i, t)
		if (recall + 1e-9 >= json_number_value(json_object_get(t, "min")))
			return (int)json_integer_value(json_object_get(t, "value"));
	return 0;
}

/* What one response scored, and the evidence the notes give. */
struct auto_score {
	double recall;
	size_t nref, nhit;
	int acc, refusal, covered, cites;
};

static void
score_response(const struct auto_fields *af, const json_t *row, struct auto_score *sc)
{
	const char *q = cell(row, "question"), *gold = cell(row, "gold_answer");
	const char *resp = cell(row, "response");
	json_t *secs = sections_of(row);

	sc->recall = bsm_term_recall(gold, resp, &sc->nref, &sc->nhit);
	sc->refusal = bsm_is_refusal(resp);
	sc->acc = accuracy_of(af, sc->recall);
	free(bsm_completeness_hint(q, resp, secs, &sc->covered));
	free(bsm_citation_hint(q, resp, secs, &sc->cites));
	if (sc->refusal) {
		sc->acc = 0;
		sc->covered = 0;
	}
	json_decref(secs);
}

/* The record of a scored response: the rubric's fields and the notes. */
static json_t *
score_record(const struct auto_fields *af, const struct auto_score *sc,
    const char *rid, const char *rater, const char *date)
{
	json_t *out = json_object();
	struct buf notes = BUF_INIT;

	json_set_str(out, "response_id", rid);
	json_set_str(out, "rater_id", rater);
	json_set_str(out, "rater_kind", "autoscore");
	json_set_str(out, "scoring_date", date);
	json_set_int(out, af->acc, sc->acc);
	if (af->ref)
		json_set_bool(out, af->ref, sc->refusal);
	if (af->cnt)
		json_set_int(out, af->cnt, 0);
	if (af->comp)
		json_set_int(out, af->comp, sc->covered);
	/* Cited with a source section named: 2; cited without: 1; asked, none: 0. */
	if (af->cit && sc->cites == 0)
		json_set_null(out, af->cit);
	else if (af->cit)
		json_set_int(out, af->cit, sc->cites - 1);
	buf_addf(&notes, "autoscore: gold-answer term recall %.2f (%zu/%zu)",
	    sc->recall, sc->nhit, sc->nref);
	if (sc->refusal)
		buf_adds(&notes, "; refusal (EC-05)");
	if (af->cit && sc->cites == 1)
		buf_adds(&notes, "; attribution asked for but none given");
	if (af->cit && sc->cites == 2)
		buf_adds(&notes, "; citation names no source section");
	buf_adds(&notes, "; hallucinations not assessed");
	if (af->notes)
		json_set_str(out, af->notes, notes.s);
	buf_release(&notes);
	return out;
}

int
bsm_autoscore(const struct bsm_opts *o)
{
	struct bsm_rubric *r = bsm_rubric_load(o->rubric ? o->rubric : "context-collapse");
	json_t *seen = json_object(), *cols, *rows, *row;
	struct bsm_problems p;
	struct auto_fields af;
	struct auto_score sc;
	const char *rid, *self;
	char today[16];
	size_t k;
	int i;

	memset(&p, 0, sizeof p);
	auto_fields(r, &af);
	if (o->date)
		snprintf(today, sizeof today, "%s", o->date);
	else
		today_utc(today, sizeof today);
	ndj_output_open(o->output);
	for (i = 0; i < o->nfiles; i++) {
		rows = bsm_sheet_load(o->files[i], r, &cols, &p);
		if (p.n) {
			bsm_problems_report(&p);
			die("%s: cannot read the sheet", o->files[i]);
		}
		check_columns(o->files[i], rows, cols);
		json_array_foreach(rows, k, row) {
			/* each response once (its first row), never a self-check row */
			rid = cell(row, "response_id");
			self = cell(row, "self_check");
			if (!*rid || json_object_get(seen, rid) || (*self && strcasecmp(self, "no")))
				continue;
			json_object_set_new(seen, rid, json_true());
			score_response(&af, row, &sc);
			ndj_emit_free(score_record(&af, &sc, rid,
			    o->rater ? o->rater : "autoscore", today));
		}
		json_decref(rows);
		json_decref(cols);
	}
	warn("%zu responses scored by %s from %d sheet%s", json_object_size(seen),
	    o->rater ? o->rater : "autoscore", o->nfiles, o->nfiles == 1 ? "" : "s");
	json_decref(seen);
	bsm_problems_release(&p);
	bsm_rubric_free(r);
	return 0;
}
