/*
 * judge.c - the LLM-as-judge first pass of 000 §10: the rubric's prompts,
 * one judge request per scored response record, and the verdict parsed
 * from the judge's answer into the record's score fields.  Judge scores are
 * never primary: a human verifies them.  Called by job.c (and opts.c for
 * the rubric); builds requests with request.c and never finishes a job
 * itself.
 */
#include <string.h>

#include "ctx.h"
#include "run.h"

/*
 * A file of share/binfer, found by ctx_share_path(); when it is nowhere, the
 * installed path, so the caller's error names where it was expected.
 */
static char *
share_path(const char *name)
{
	char *rel = xasprintf("binfer/%s", name), *p = ctx_share_path(rel);

	if (p == NULL)
		p = xasprintf("%s/%s", CTX_SHAREDIR, rel);
	free(rel);
	return p;
}

void
judge_load_rubric(struct binfer_opts *o)
{
	const char *name = o->rubric;
	char *path, *text, *sep;
	size_t len;

	if (strchr(name, '/')) {
		path = xstrdup(name);
	} else {
		text = xasprintf("judge-%s.txt", name);
		path = share_path(text);
		free(text);
	}
	text = read_file(path, &len, 1u << 20);
	if (!text)
		die_errno("%s", path);
	sep = strstr(text, "\n%%\n");
	if (!sep)
		die("%s: expected the system prompt, a line %%%%, then the user prompt", path);
	*sep = '\0';
	o->judge_system = xstrdup(text);
	o->judge_user = xstrdup(sep + 4);
	free(text);
	free(path);
}

enum job_status
judge_prepare(const struct binfer_run *R, struct job *j)
{
	const struct binfer_opts *o = R->o;
	json_t *rec = j->rec, *vars;
	const char *mid = rec_str_opt(rec, "model_id");
	char *user;
	long long est;

	if (rec_bool_opt(rec, "excluded", 0) || !rec_str_opt(rec, "response_text"))
		return JOB_PASS;	/* nothing to score */
	if (mid && strcmp(mid, o->model_id) == 0)
		ndj_die("model_id: %s cannot judge its own responses (000 §10)", mid);
	vars = json_pack("{s:s,s:s,s:s,s:s}",
	    "question_text", rec_str(rec, "question_text"),
	    "gold_answer", rec_str(rec, "gold_answer"),
	    "response_text", rec_str(rec, "response_text"),
	    "complexity", rec_str_opt(rec, "complexity") ? rec_str(rec, "complexity") : "");
	user = binfer_fill_template(o->judge_user, vars);
	json_decref(vars);
	/* No btok count for the judge's prompt: bound it by its bytes / 2. */
	est = (long long)((strlen(user) + strlen(o->judge_system) + 1) / 2);
	j->expected = -1;
	if (o->engine == BINFER_OLLAMA)
		j->num_ctx = binfer_num_ctx_for(R, est);
	job_set_body(R, j, o->judge_system, user);
	free(user);
	return JOB_SEND;
}

static char *
utc_date(void)
{
	char now[32];

	ctx_utc_now(now, sizeof(now));
	now[10] = '\0';
	return xstrdup(now);
}

/* A field of a parsed verdict (new reference), null without one. */
static json_t *
verdict_field(json_t *v, const char *key)
{
	json_t *f = v ? json_object_get(v, key) : NULL;

	return f ? json_incref(f) : json_null();
}

static json_t *
judge_object(const struct binfer_run *R, const struct job *j, const char *endpoint,
    const struct binfer_result *r, const char *raw, const char *err,
    const struct binfer_origin *g)
{
	const struct binfer_opts *o = R->o;
	json_t *jd = json_object();

	json_set_str(jd, "model_id", o->model_id);
	json_set_str(jd, "model_tag", o->model_tag);
	json_set_str(jd, "template", o->rubric);
	json_set_str(jd, "engine", binfer_engine_name(o->engine));
	json_set_str(jd, "server", binfer_server_name(R->kind));
	json_set_new(jd, "server_version", json_str_or_null(R->version));
	json_set_new(jd, "endpoint", json_str_or_null(endpoint));
	json_set_str(jd, "request_hash", j->hash);
	json_set_new(jd, "response_raw", json_str_or_null(raw));
	json_set_new(jd, "finish_reason", json_str_or_null(r ? r->finish_reason : NULL));
	json_set_new(jd, "prompt_eval_count", json_int_or_null(r ? r->prompt_eval_count : -1));
	json_set_new(jd, "output_token_count", json_int_or_null(r ? r->eval_count : -1));
	json_set_new(jd, "model_digest", json_str_or_null(binfer_model_digest(R, r)));
	json_set_new(jd, "error", json_str_or_null(err));
	json_set_new(jd, "request", binfer_request_json(g));
	json_set_new(jd, "cache", binfer_cache_json(j, g));
	return jd;
}

/*
 * The bscore-merge rubric a judge template scores for: template 000 is the
 * prompt for spec 000's rubric, which bscore-merge names context-collapse;
 * another template names its rubric itself.  The record's "rubric" is what
 * bscore-merge merge checks the ratings against.
 */
static const char *
judge_rubric_name(const char *template)
{
	return strcmp(template, "000") == 0 ? "context-collapse" : template;
}

/* Judge mode: the scores parsed from the judge's answer. */
enum binfer_reason
judge_put(const struct binfer_run *R, struct job *j, const char *endpoint,
    const struct binfer_result *r, const char *err, const struct binfer_origin *g)
{
	json_t *rec = j->rec, *v = NULL;
	const char *verr = err;
	char *raw = r ? binfer_raw_text(r) : NULL, *text = raw ? binfer_strip_thinking(raw) : NULL;
	char *rater = xasprintf("llm_judge:%s", R->o->model_id), *date = utc_date();

	if (text)
		v = binfer_parse_verdict(text, &verr);
	json_set_str(rec, "rater_id", rater);
	json_set_str(rec, "rater_kind", "llm_judge");
	/* Judge scores are a first pass a human verifies (000 §10). */
	json_set_bool(rec, "primary", 0);
	json_set_str(rec, "rubric", judge_rubric_name(R->o->rubric));
	json_set_new(rec, "factual_accuracy", verdict_field(v, "factual_accuracy"));
	json_set_new(rec, "completeness", verdict_field(v, "completeness"));
	json_set_new(rec, "hallucination_count", verdict_field(v, "hallucination_count"));
	json_set_new(rec, "scoring_notes", verdict_field(v, "rationale"));
	json_set_str(rec, "scoring_date", date);
	json_set_new(rec, "judge", judge_object(R, j, endpoint, r, raw, v ? NULL : verr, g));
	json_decref(v);
	free(raw);
	free(text);
	free(rater);
	free(date);
	return r && !v ? REASON_JUDGE_ERROR : REASON_N;
}

/* The first JSON object in text that has factual_accuracy (new reference), or NULL. */
static json_t *
first_verdict(const char *text)
{
	const char *p = text;
	json_error_t je;
	json_t *o;

	while ((p = strchr(p, '{')) != NULL) {
		o = json_loads(p, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &je);
		if (json_is_object(o) && json_object_get(o, "factual_accuracy"))
			return o;
		json_decref(o);
		p++;
	}
	return NULL;
}

/* What is wrong with a verdict's scores (static text), or NULL. */
static const char *
verdict_check(const json_t *fa, const json_t *co, const json_t *hc)
{
	if (!json_is_integer(fa) || json_integer_value(fa) < 0 ||
	    json_integer_value(fa) > 3)
		return "factual_accuracy: expected an integer 0 to 3";
	if (co && !json_is_null(co) && !(json_is_integer(co) &&
	    (json_integer_value(co) == 0 || json_integer_value(co) == 1)))
		return "completeness: expected 0 or 1";
	if (hc && !json_is_null(hc) && !(json_is_integer(hc) &&
	    json_integer_value(hc) >= 0))
		return "hallucination_count: expected a non-negative integer";
	return NULL;
}

json_t *
binfer_parse_verdict(const char *text, const char **err)
{
	json_t *o = first_verdict(text), *fa, *co, *hc, *ra, *v;

	if (!o) {
		*err = "no JSON object with factual_accuracy in the judge's answer";
		return NULL;
	}
	fa = json_object_get(o, "factual_accuracy");
	co = json_object_get(o, "completeness");
	hc = json_object_get(o, "hallucination_count");
	ra = json_object_get(o, "rationale");
	if ((*err = verdict_check(fa, co, hc)) != NULL) {
		json_decref(o);
		return NULL;
	}
	v = json_object();
	json_set_int(v, "factual_accuracy", json_integer_value(fa));
	json_set_new(v, "completeness", co ? json_incref(co) : json_null());
	json_set_new(v, "hallucination_count", hc ? json_incref(hc) : json_null());
	json_set_new(v, "rationale", json_is_string(ra) ? json_incref(ra) : json_null());
	json_decref(o);
	return v;
}
