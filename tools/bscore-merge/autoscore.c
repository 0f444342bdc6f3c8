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

char *
bsm_today(char *out, size_t n)
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

int
bsm_autoscore(const struct bsm_opts *o)
{
	struct bsm_rubric *r = bsm_rubric_load(o->rubric ? o->rubric : "context-collapse");
	json_t *as = json_object_get(r->def, "autoscore"), *seen = json_object();
	struct bsm_problems p;
	const char *acc_f, *comp_f, *cit_f, *cnt_f, *ref_f, *notes_f;
	char today[16];
	int i;

	memset(&p, 0, sizeof p);
	if (!json_is_object(as))
		die("rubric %s has no \"autoscore\" section: autoscore cannot rate it", r->name);
	acc_f = json_string_value(json_object_get(as, "accuracy_field"));
	comp_f = json_string_value(json_object_get(as, "completeness_field"));
	cit_f = json_string_value(json_object_get(as, "citation_field"));
	cnt_f = json_string_value(json_object_get(as, "count_field"));
	ref_f = json_string_value(json_object_get(as, "refusal_field"));
	notes_f = json_string_value(json_object_get(as, "notes_field"));
	if (!acc_f || !bsm_rubric_field(r, acc_f))
		die("rubric %s: autoscore.accuracy_field: expected a field of the rubric", r->name);
	if (o->date)
		snprintf(today, sizeof today, "%s", o->date);
	else
		bsm_today(today, sizeof today);
	ndj_output_open(o->output);
	for (i = 0; i < o->nfiles; i++) {
		json_t *cols, *rows = bsm_sheet_load(o->files[i], r, &cols, &p), *row;
		size_t k;
		if (p.n) {
			bsm_problems_report(&p);
			die("%s: cannot read the sheet", o->files[i]);
		}
		/* The header, even of a sheet without rows (an NDJSON one has no columns then). */
		if (json_array_size(rows) || json_array_size(cols))
			for (k = 0; k < 4; k++) {
				const char *need[] = { "response_id", "question", "gold_answer", "response" };
				size_t c;
				json_t *cv;
				int has = 0;
				json_array_foreach(cols, c, cv)
					if (!strcmp(json_string_value(cv), need[k]))
						has = 1;
				if (!has)
					die("%s:1: no %s column: autoscore reads the sheets bscore-merge blind writes",
					    o->files[i], need[k]);
			}
		json_array_foreach(rows, k, row) {
			const char *rid = cell(row, "response_id"), *q = cell(row, "question");
			const char *gold = cell(row, "gold_answer"), *resp = cell(row, "response");
			json_t *out, *secs, *th, *t;
			size_t nref, nhit, ti;
			double rec;
			int refusal, covered, cites, acc = 0;
			struct buf notes = BUF_INIT;
			const char *sc = cell(row, "self_check");
			if (!*rid || json_object_get(seen, rid) || (*sc && strcasecmp(sc, "no")))
				continue;
			json_object_set_new(seen, rid, json_true());
			secs = sections_of(row);
			rec = bsm_term_recall(gold, resp, &nref, &nhit);
			refusal = bsm_is_refusal(resp);
			th = json_object_get(as, "accuracy_thresholds");
			json_array_foreach(th, ti, t)
				if (rec + 1e-9 >= json_number_value(json_object_get(t, "min"))) {
					acc = (int)json_integer_value(json_object_get(t, "value"));
					break;
				}
			free(bsm_completeness_hint(q, resp, secs, &covered));
			free(bsm_citation_hint(q, resp, secs, &cites));
			if (refusal) {
				acc = 0;
				covered = 0;
			}
			out = json_object();
			json_set_str(out, "response_id", rid);
			json_set_str(out, "rater_id", o->rater ? o->rater : "autoscore");
			json_set_str(out, "rater_kind", "autoscore");
			json_set_str(out, "scoring_date", today);
			json_set_int(out, acc_f, acc);
			if (ref_f)
				json_set_bool(out, ref_f, refusal);
			if (cnt_f)
				json_set_int(out, cnt_f, 0);
			if (comp_f)
				json_set_int(out, comp_f, covered);
			if (cit_f) {
				/* Cited with a source section named: 2; cited without: 1; asked, none: 0. */
				if (cites == 0)
					json_set_null(out, cit_f);
				else
					json_set_int(out, cit_f, cites - 1);
			}
			buf_addf(&notes, "autoscore: gold-answer term recall %.2f (%zu/%zu)",
			    rec, nhit, nref);
			if (refusal)
				buf_adds(&notes, "; refusal (EC-05)");
			if (cit_f && cites == 1)
				buf_adds(&notes, "; attribution asked for but none given");
			if (cit_f && cites == 2)
				buf_adds(&notes, "; citation names no source section");
			buf_adds(&notes, "; hallucinations not assessed");
			if (notes_f)
				json_set_str(out, notes_f, notes.s);
			buf_release(&notes);
			ndj_emit_free(out);
			json_decref(secs);
		}
		json_decref(rows);
		json_decref(cols);
	}
	json_decref(seen);
	bsm_problems_release(&p);
	bsm_rubric_free(r);
	return 0;
}
