/*
 * bstats_analysis.c - libFuzzer target for the whole analysis of bstats
 * (records.c to html.c): the input is read as a study, six bytes a scored
 * record (site, question, model, condition, scores, tokens, tier,
 * complexity, exclusion, second rating, parity, a variant of A or B), in
 * the ranges bstats accepts, so every degenerate study the bytes can
 * describe (one pair, one group, constant scores, every pair excluded, ties
 * everywhere) runs through pairing, every test, BH, the exploratory
 * comparisons, the report and the figures (the browser needs its page files
 * and is driven by tests/bstats/browser.t).
 * Invariants: nothing crashes or leaks, no output holds "nan" or "inf", and
 * every result that is not computable says why.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/bstats/bstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const TIERS[] = { "small", "medium", "large" };
static const char *const CX[] = { "single-fact", "multi-section-synthesis",
    "conceptual-relationship" };

static json_t *
record(const uint8_t *b, int primary)
{
	char site[8], q[8], m[8];
	json_t *r;

	snprintf(site, sizeof site, "S%d", b[0] % 11);
	snprintf(q, sizeof q, "Q%d", b[1] % 7);
	snprintf(m, sizeof m, "m%d", b[2] % 4);
	r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b}",
	    "site_id", site, "question_id", q, "model_id", m,
	    "condition", b[3] & 1 ? "B" : "A", "tier", TIERS[b[2] % 3],
	    "complexity", CX[b[1] % 3], "factual_accuracy", b[4] % 4,
	    "hallucination_count", (b[4] >> 2) % 3, "completeness", (b[4] >> 4) & 1,
	    "input_token_count", b[5] * 7 + (b[3] >> 1) % 3, "primary", primary);
	json_object_set_new(r, "citation_fidelity", b[3] & 2 ? json_integer(b[5] % 3) :
	    json_null());
	if ((b[3] & 0x1c) == 0x1c)
		json_object_set_new(r, "exclusion_reason", json_string("JS_ONLY"));
	if (b[3] & 0x20) {
		json_object_set_new(r, "parity_b_in_a", json_real((b[5] % 11) / 10.0));
		json_object_set_new(r, "parity_a_in_b", json_real((b[4] % 11) / 10.0));
		json_object_set_new(r, "pair_drift", json_boolean(b[5] % 11 < 7));
	}
	if (!primary)
		json_object_set_new(r, "rater_id", json_string("r2"));
	if (b[3] & 0x80) {	/* a variant of the condition (issue 30) */
		json_object_set_new(r, "variant_of", json_string(b[3] & 1 ? "B" :
		    "A"));
		json_object_set_new(r, "condition", json_string(b[3] & 1 ?
		    "B-plain" : "A-whole"));
	}
	return r;
}

/* w ("nan", "inf") never stands as a word of its own in s. */
static void
no_word(const char *s, const char *w)
{
	const char *p;
	size_t n = strlen(w);

	for (p = s; (p = strstr(p, w)) != NULL; p++) {
		int before = p > s && ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z');
		int after = (p[n] | 0x20) >= 'a' && (p[n] | 0x20) <= 'z';

		assert(before || after);
	}
}

static void
outputs(struct bst_study *s)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&buf, &len);
	json_t *r;

	assert(fp);
	bstats_report(s, fp);
	for (i = 0; i < BST_NFIGURES; i++)
		bstats_figure_svg(s, i, fp);
	json_array_foreach(s->results, i, r) {
		char *j = json_dumps(r, JSON_COMPACT);

		assert(j);
		fputs(j, fp);
		if (json_is_false(json_object_get(r, "computable")))
			assert(json_is_string(json_object_get(r, "reason")));
		free(j);
	}
	fclose(fp);
	no_word(buf, "nan");
	no_word(buf, "inf");
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bst_study s;
	json_t *seen = json_object();
	size_t i;

	memset(&s, 0, sizeof s);
	s.opt.seed = 1;
	s.opt.nboot = 100;
	s.opt.alpha = 0.05;
	s.opt.level = 0.95;
	for (i = 0; i + 6 <= size && i < 6 * 400; i += 6) {
		json_t *r = record(data + i, !(data[i + 3] & 0x40));
		char key[64];

		/* a second primary rating of a tuple stops bstats: skip it */
		snprintf(key, sizeof key, "%s|%s|%s|%s|%d",
		    json_string_value(json_object_get(r, "site_id")),
		    json_string_value(json_object_get(r, "question_id")),
		    json_string_value(json_object_get(r, "model_id")),
		    json_string_value(json_object_get(r, "condition")),
		    json_is_true(json_object_get(r, "primary")) ? 1 : (int)i);
		if (!json_object_get(seen, key)) {
			json_object_set_new(seen, key, json_true());
			bstats_add_record(&s, r);
		}
		json_decref(r);
	}
	json_decref(seen);
	if (s.nobs > 0) {
		bstats_analyse(&s);
		outputs(&s);
	}
	bstats_free(&s);
	return 0;
}
