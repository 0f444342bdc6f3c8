/*
 * records.c - scored records into struct bst_obs: the fields bstats(1)
 * lists, checked with the record's file and line in every message; and
 * bstats_free, which releases a study.  Each string is held once, in the
 * study's pool (obs.c's set of strings); calls only obs.c.
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

static const char *const CATS[] = { "H-FAB", "H-SRC", "H-EXT", "H-TMP" };

/* v held once in the study's pool (a 100-times study has 858,000
 * ratings and a few thousand distinct strings); NULL stays NULL. */
static char *
intern(struct bst_study *s, const char *v)
{
	size_t i;

	if (!v)
		return NULL;
	s->pool.own = 1;
	i = bst_strs_add(&s->pool, v);	/* may move s->pool.v */
	return (char *)s->pool.v[i];
}

static char *
dup_opt(struct bst_study *s, const json_t *rec, const char *key)
{
	return intern(s, rec_str_opt(rec, key));
}

static int
int_field(const json_t *rec, const char *key, long long lo, long long hi)
{
	long long v = rec_int(rec, key);

	if (v < lo || v > hi)
		ndj_die("%s: expected an integer from %lld to %lld, got %lld",
		    key, lo, hi, v);
	return (int)v;
}

/* An optional share 0..1; -1 when absent or null. */
static double
share_opt(const json_t *rec, const char *key)
{
	json_t *v = json_object_get(rec, key);
	double x;

	if (!v || json_is_null(v))
		return -1;
	x = rec_num(rec, key);
	if (!(x >= 0 && x <= 1))
		ndj_die("%s: expected a number from 0 to 1 or null", key);
	return x;
}

static void
push(struct bst_obs **v, size_t *n, size_t *cap, const struct bst_obs *o)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = *o;
}

/* Issue 30's rule for a variant's name: [A-Za-z0-9][A-Za-z0-9._-]*. */
static int
variant_name_ok(const char *n)
{
	const char *p;

	if (!*n || !isalnum((unsigned char)*n))
		return 0;
	for (p = n; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return 0;
	return 1;
}

static const struct bst_variant *
find_variant(const struct bst_study *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nvars; i++)
		if (strcmp(s->vars[i].name, name) == 0)
			return &s->vars[i];
	return NULL;
}

static void
add_variant(struct bst_study *s, const char *name, const char *of)
{
	if (s->nvars == s->capvars) {
		s->capvars = s->capvars ? 2 * s->capvars : 8;
		s->vars = xreallocarray(s->vars, s->capvars, sizeof *s->vars);
	}
	s->vars[s->nvars].name = intern(s, name);
	s->vars[s->nvars].of = intern(s, of);
	s->nvars++;
}

/*
 * The record's condition: A and B carry no variant_of (the primary
 * analysis, as pre-registered); any other condition is a variant with a
 * well-formed name and its variant_of, declared by --config when a config
 * was given, and the same variant_of in every record.
 */
static void
condition(struct bst_study *s, struct bst_obs *o, const json_t *rec)
{
	const char *c = rec_str(rec, "condition");
	const char *of = rec_str_opt(rec, "variant_of");
	const struct bst_variant *v;

	o->cname = intern(s, c);
	if (!strcmp(c, "A") || !strcmp(c, "B")) {
		if (of)
			ndj_die("variant_of: condition %s is primary and carries "
			    "no variant_of", c);
		o->cond = c[0];
		return;
	}
	o->cond = 'V';
	if (!variant_name_ok(c))
		ndj_die("condition: expected \"A\", \"B\" or a variant's name "
		    "([A-Za-z0-9][A-Za-z0-9._-]*), got \"%s\"", c);
	if (!of)
		ndj_die("condition: \"%s\" is neither A nor B, and a variant's "
		    "record needs variant_of (the condition it varies)", c);
	if (!(v = find_variant(s, c))) {
		if (s->declared)
			ndj_die("condition: \"%s\" is not a variant the config "
			    "(--config) declares", c);
		add_variant(s, c, of);
		return;
	}
	if (strcmp(v->of, of) != 0)
		ndj_die("variant_of: \"%s\", but %s varies \"%s\" (%s)", of, c,
		    v->of, s->declared ? "the config" : "an earlier record");
}

/* The fields every record has: the tuple, the rater, the exclusion. */
static void
common_fields(struct bst_study *s, struct bst_obs *o, const json_t *rec)
{
	o->file = ndj_where_file();
	o->line = ndj_where_line();
	o->primary = rec_bool_opt(rec, "primary", 1);
	condition(s, o, rec);
	o->site = intern(s, rec_str(rec, "site_id"));
	o->question = intern(s, rec_str(rec, "question_id"));
	o->model = intern(s, rec_str(rec, "model_id"));
	o->rater = dup_opt(s, rec, "rater_id");
	o->rater_kind = dup_opt(s, rec, "rater_kind");
	o->reason = dup_opt(s, rec, "exclusion_reason");
	if (o->reason && !*o->reason)	/* "" is no reason (as bscore-merge) */
		o->reason = NULL;
	o->excluded = o->reason != NULL || rec_bool_opt(rec, "excluded", 0);
}

/* Spec 002 / 004 ratings: they enter the agreement analysis only. */
static void
alt_rubric(struct bst_study *s, struct bst_obs *o, const json_t *rec)
{
	if (!o->excluded && o->rubric == BST_R002) {
		o->q = rec_num(rec, "quality_score");
		if (o->q < 0 || o->q > 1)
			ndj_die("quality_score: expected a number from 0 to 1");
	} else if (!o->excluded) {
		o->t1 = rec_num(rec, "factual_accuracy_score");
		o->t2 = rec_num(rec, "reasoning_quality");
		if (o->t1 < 0 || o->t1 > 100 || o->t2 < 0 || o->t2 > 100)
			ndj_die("factual_accuracy_score, reasoning_quality: "
			    "expected numbers from 0 to 100");
	}
	push(&s->alt, &s->nalt, &s->capalt, o);
}

static unsigned
categories(const json_t *rec)
{
	json_t *h = rec_array_opt(rec, "hallucinations");
	unsigned cats = 0;
	size_t i, k;

	for (i = 0; h && i < json_array_size(h); i++) {
		json_t *e = json_array_get(h, i);
		const char *c = json_is_object(e) ?
		    json_string_value(json_object_get(e, "category")) : NULL;

		if (!c)
			ndj_die("hallucinations[%zu]: expected an object with a "
			    "category", i);
		for (k = 0; k < 4; k++)
			if (strcmp(c, CATS[k]) == 0)
				cats |= 1u << k;
	}
	return cats;
}

/* The spec 000 scores of a record that is not excluded. */
static void
scores(struct bst_obs *o, const json_t *rec)
{
	json_t *cf = json_object_get(rec, "citation_fidelity");
	json_t *rt = json_object_get(rec, "ref_token_count");

	/* one cause, one message: a response nobody scored yet */
	if (!json_object_get(rec, "factual_accuracy") &&
	    !json_object_get(rec, "hallucination_count") &&
	    !json_object_get(rec, "completeness"))
		ndj_die("no scores (factual_accuracy, hallucination_count, "
		    "completeness): the record is not scored — run bscore-merge "
		    "first (blind, then merge the raters' sheets)");
	o->fa = int_field(rec, "factual_accuracy", 0, 3);
	o->hc = int_field(rec, "hallucination_count", 0, 1000000);
	o->comp = int_field(rec, "completeness", 0, 1);
	if (cf && !json_is_null(cf))
		o->cf = int_field(rec, "citation_fidelity", 0, 2);
	o->tok = (double)rec_int(rec, "input_token_count");
	if (o->tok < 0)
		ndj_die("input_token_count: expected a count >= 0");
	if (rt && !json_is_null(rt)) {
		o->reftok = (double)rec_int(rec, "ref_token_count");
		o->has_reftok = 1;
	}
	o->cats = categories(rec);
}

/* A fact's value as text: a string as it is, anything else as JSON. */
static char *
value_text(const json_t *v)
{
	char *j;

	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	j = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	if (!j)
		return xstrdup("null");
	return j;	/* malloc'd by jansson's default allocator: free() */
}

/* One changed fact {kind, key, a, b} as "key: a → b" (values may be
 * strings or numbers). */
static char *
fact_text(const json_t *f, size_t i)
{
	const char *k = json_is_object(f) ? json_string_value(json_object_get(f,
	    "key")) : NULL;
	char *a, *b, *out;
	size_t len;

	if (!k)
		ndj_die("facts_changed[%zu]: expected an object with a key", i);
	a = value_text(json_object_get(f, "a"));
	b = value_text(json_object_get(f, "b"));
	len = strlen(k) + strlen(a) + strlen(b) + 16;
	out = xmalloc(len);
	snprintf(out, len, "%s: %s → %s", k, a, b);
	free(a);
	free(b);
	return out;
}

/* bctx's facts_changed list and its count (absent or null: -1). */
static void
fact_fields(struct bst_obs *o, const json_t *rec)
{
	json_t *l = json_object_get(rec, "facts_changed");
	json_t *c = json_object_get(rec, "facts_changed_count");

	o->facts_b_in_a = share_opt(rec, "facts_b_in_a");
	o->facts_a_in_b = share_opt(rec, "facts_a_in_b");
	o->facts_changed = -1;
	if (l && !json_is_null(l)) {
		if (!json_is_array(l))
			ndj_die("facts_changed: expected an array or null");
		o->facts_changed = (long)json_array_size(l);
		if (json_array_size(l) > 0)
			o->fact_eg = fact_text(json_array_get(l, 0), 0);
	}
	if (c && !json_is_null(c))
		o->facts_changed = (long)int_field(rec, "facts_changed_count", 0,
		    1000000000);
}

/* bctx's A<->B parity fields (null, or absent in older data: -1). */
static void
parity_fields(struct bst_obs *o, const json_t *rec)
{
	json_t *d = json_object_get(rec, "pair_drift");

	o->gold_cov = share_opt(rec, "gold_coverage");
	o->par_b_in_a = share_opt(rec, "parity_b_in_a");
	o->par_a_in_b = share_opt(rec, "parity_a_in_b");
	o->par_code_b_in_a = share_opt(rec, "parity_code_b_in_a");
	o->par_code_a_in_b = share_opt(rec, "parity_code_a_in_b");
	fact_fields(o, rec);
	o->drift = -1;
	if (d && !json_is_null(d)) {
		if (!json_is_boolean(d))
			ndj_die("pair_drift: expected true, false or null");
		o->drift = json_is_true(d);
	}
}

void
bstats_add_record(struct bst_study *s, json_t *rec)
{
	struct bst_obs o;
	const char *rubric = rec_str_opt(rec, "rubric");

	memset(&o, 0, sizeof o);
	common_fields(s, &o, rec);
	if (rubric && (!strcmp(rubric, "answer-quality") ||
	    !strcmp(rubric, "dual-track"))) {
		if (o.cond == 'V') {	/* exploratory: 000's scores only */
			s->nvar_other++;
			return;
		}
		o.rubric = rubric[0] == 'a' ? BST_R002 : BST_R004;
		alt_rubric(s, &o, rec);
		return;
	}
	o.complexity = dup_opt(s, rec, "complexity");
	o.tier = dup_opt(s, rec, "tier");
	o.sector = dup_opt(s, rec, "sector");
	o.lm = dup_opt(s, rec, "last_modified");
	o.family = dup_opt(s, rec, "model_family");
	o.self_check = rec_bool_opt(rec, "self_check", 0);
	if (o.excluded && !o.reason)
		o.reason = intern(s, "UNSPECIFIED");
	o.cf = -1;
	if (!o.excluded)
		scores(&o, rec);
	parity_fields(&o, rec);
	if (o.cond == 'V') {	/* beside the primary analysis (compare.c) */
		if (!o.primary) {
			free(o.fact_eg);
			s->nvar_other++;
		} else {
			push(&s->var, &s->nvar, &s->capvar, &o);
		}
	} else if (o.primary) {
		if (s->opt.keep_records)
			o.rec = json_incref(rec);
		push(&s->obs, &s->nobs, &s->capobs, &o);
	} else {
		push(&s->sec, &s->nsec, &s->capsec, &o);
	}
}

void
bstats_declare(struct bst_study *s, const struct bst_variant *v, size_t nv,
    const struct bst_cmp *cmp, size_t nc)
{
	size_t i;

	for (i = 0; i < nv; i++)
		add_variant(s, v[i].name, v[i].of);
	s->cmp = xreallocarray(NULL, nc + 1, sizeof *s->cmp);
	for (i = 0; i < nc; i++) {
		s->cmp[i].x = intern(s, cmp[i].x);
		s->cmp[i].y = intern(s, cmp[i].y);
		s->cmp[i].family = NULL;
	}
	s->ncmp = nc;
	s->declared = 1;
}

void
bstats_free(struct bst_study *s)
{
	size_t i;

	for (i = 0; i < s->nobs; i++) {	/* the strings are the pool's */
		free(s->obs[i].fact_eg);
		json_decref(s->obs[i].rec);
	}
	for (i = 0; i < s->nsec; i++)
		free(s->sec[i].fact_eg);
	for (i = 0; i < s->nalt; i++)
		free(s->alt[i].fact_eg);
	for (i = 0; i < s->nvar; i++)
		free(s->var[i].fact_eg);
	for (i = 0; i < s->ncmp; i++)
		free(s->cmp[i].family);
	free(s->var);
	free(s->vars);
	free(s->cmp);
	bst_strs_free(&s->pool);
	free(s->alt);
	free(s->obs);
	free(s->sec);
	bstats_free_analysis(s);
	json_decref(s->conformance);
	json_decref(s->drift);
}

void
bstats_free_analysis(struct bst_study *s)
{
	free(s->idx);
	free(s->pairs);
	json_decref(s->results);
	json_decref(s->exclusions);
	s->idx = NULL;
	s->pairs = NULL;
	s->npairs = 0;
	s->results = s->exclusions = NULL;
}
