/*
 * conformance.c - the findings of `bctx check --json` (spec 001 §1, §3: does
 * the corpus meet its pre-registered design?) counted per rule and level for
 * the report's "Corpus conformance" section, so that the paper states what
 * departed from the design.
 *
 * One JSON object per line: {"file", "line", "rule", "section", "level":
 * "MUST" | "SHOULD" | "NOTE", "site_id", "question_id", "message"}, null
 * where not applicable.  A record whose "rule" is null is a summary record
 * (bctx may append one) and is skipped, as bstats(1) documents; any other
 * record must name a rule and a known level.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

static const char *const LEVELS[] = { "MUST", "SHOULD", "NOTE" };

static int
finding(json_t *rec, void *ctx)
{
	json_t *c = ctx, *rules = json_object_get(c, "rules"), *r;
	json_t *rule = json_object_get(rec, "rule");
	const char *id, *level, *sec;
	size_t k;
	char key[64];

	if (!rule)
		ndj_die("rule: missing (expected the findings of bctx check --json)");
	if (json_is_null(rule))
		return 0;	/* a summary record */
	id = rec_str(rec, "rule");
	level = rec_str(rec, "level");
	sec = rec_str_opt(rec, "section");
	for (k = 0; k < 3 && strcmp(level, LEVELS[k]); k++)
		;
	if (k == 3)
		ndj_die("level: expected \"MUST\", \"SHOULD\" or \"NOTE\", got \"%s\"",
		    level);
	r = json_object_get(rules, id);
	if (!r) {
		r = json_object();
		json_set_str(r, "rule", id);
		json_set_new(r, "section", json_str_or_null(sec));
		json_set_str(r, "level", level);
		json_set_int(r, "findings", 0);
		json_set_new(r, "examples", json_array());
		json_object_set_new(rules, id, r);
	} else if (strcmp(json_string_value(json_object_get(r, "level")), level)) {
		ndj_die("level: rule %s was %s on an earlier line, %s here", id,
		    json_string_value(json_object_get(r, "level")), level);
	}
	json_set_int(r, "findings",
	    json_integer_value(json_object_get(r, "findings")) + 1);
	if (json_array_size(json_object_get(r, "examples")) < 3) {
		const char *q = rec_str_opt(rec, "question_id");
		const char *st = rec_str_opt(rec, "site_id");

		const char *f = rec_str(rec, "file"), *base = strrchr(f, '/');

		/* a question, a site, or the file's name (no directories) */
		json_array_append_new(json_object_get(r, "examples"),
		    json_string(q ? q : st ? st : base ? base + 1 : f));
	}
	snprintf(key, sizeof key, "%s", level);
	json_set_int(json_object_get(c, "by_level"), key, json_integer_value(
	    json_object_get(json_object_get(c, "by_level"), key)) + 1);
	return 0;
}

void
bstats_conformance(struct bst_study *s, const char *path)
{
	json_t *c = json_object(), *lv = json_object();
	char *files[1];
	size_t k;

	assert(path != NULL);
	for (k = 0; k < 3; k++)
		json_set_int(lv, LEVELS[k], 0);
	json_set_str(c, "test", "corpus_conformance");
	json_set_str(c, "group", "conformance");
	json_set_str(c, "source", path);
	json_set_new(c, "by_level", lv);
	json_set_new(c, "rules", json_object());
	files[0] = (char *)path;
	ndj_run(1, files, finding, NULL, c);
	s->conformance = c;
}
