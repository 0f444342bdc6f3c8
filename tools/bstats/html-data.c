/*
 * html-data.c - the data of the results browser: every (site, question,
 * model) of the study with both conditions' scores, responses, transcripts
 * (what binfer recorded of the request and its answer, secrets masked),
 * the gold answer's terms and the terms the autoscore rule credits, and the
 * pair's changed facts; questions, contents and prompts once each, keyed,
 * so that a context shared by twenty models is in the page once.
 * Below html.c; calls html-compare.c (ratings, the other run) and obs.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "words.h"
#include "html.h"

/*
 * What many pairs share, in the page once: questions, contents and prompts
 * by key; runs (what binfer records the same for every request of a model:
 * engine, server, endpoint, model identity ...) in an array, runkeys
 * mapping each run's serialised form to its index; requests (where a
 * request went, its server and warm-ups) and bodies (a request body with
 * its prompts and content cut out) likewise.
 */
struct table {
	json_t *list, *keys;
};

struct shared {
	json_t *questions, *contents, *prompts, *runs, *runkeys;
	json_t *variants;	/* "site\tquestion\tmodel" -> {condition:
				 * rating} of the variant conditions */
	struct table requests, bodies;
};

/* ------------------------------------------------------ secrets */

/* Length of the secret value at s: up to '&', '#', white space or a quote. */
static size_t
value_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !strchr("&#\"' \t\r\n<>", s[n]))
		n++;
	return n;
}

/* 1 when s[0..n) names a secret query parameter or header. */
static int
secret_name(const char *s, size_t n)
{
	static const char *const names[] = { "key", "api_key", "apikey",
	    "api-key", "token", "access_token", "password", "secret", "sig",
	    "signature", "x-api-key", NULL };
	const char *const *p;

	for (p = names; *p; p++)
		if (strlen(*p) == n && strncasecmp(s, *p, n) == 0)
			return 1;
	return 0;
}

/*
 * s with what could be a credential replaced by [MASKED]: the user
 * information of a URL (scheme://USER:PASS@host), the value of a query
 * parameter or header named like a secret (key=, token=, api_key= ...),
 * and the word after "Bearer ".  binfer already masks its API key in every
 * string it writes; this catches what reached the records another way.
 */
static char *
mask_secrets(const char *s)
{
	struct buf b = BUF_INIT;
	const char *p = s;

	while (*p) {
		const char *at, *end;
		size_t n;

		if (strncmp(p, "://", 3) == 0) {
			buf_add(&b, p, 3);
			p += 3;
			end = p + strcspn(p, "/?# \t\r\n\"'<>");
			at = memchr(p, '@', (size_t)(end - p));
			if (at) {
				buf_adds(&b, "[MASKED]");
				p = at;
			}
			continue;
		}
		if (strncasecmp(p, "Bearer ", 7) == 0) {
			buf_add(&b, p, 7);
			p += 7;
			if ((n = value_len(p)) > 0)
				buf_adds(&b, "[MASKED]");
			p += n;
			continue;
		}
		if ((*p == '=' || *p == ':') && b.len > 0) {
			size_t k = b.len;

			while (k > 0 && (isalnum((unsigned char)b.s[k - 1]) ||
			    b.s[k - 1] == '_' || b.s[k - 1] == '-'))
				k--;
			if (secret_name(b.s + k, b.len - k)) {
				buf_addc(&b, *p++);
				while (*p == ' ')
					buf_addc(&b, *p++);
				if ((n = value_len(p)) > 0)
					buf_adds(&b, "[MASKED]");
				p += n;
				continue;
			}
		}
		buf_addc(&b, *p++);
	}
	return buf_detach(&b, NULL);
}

/* A copy of v with every string masked (mask_secrets), recursively. */
static json_t *
masked(const json_t *v, int depth)
{
	const char *k;
	json_t *out, *e;
	size_t i;

	if (json_is_string(v)) {
		char *m = mask_secrets(json_string_value(v));

		out = json_string(m);
		free(m);
		return out ? out : json_null();
	}
	if (!(json_is_object(v) || json_is_array(v)))
		return json_deep_copy(v);
	if (depth >= 8)
		return json_null();	/* deeper than any field binfer writes */
	out = json_is_object(v) ? json_object() : json_array();
	json_object_foreach((json_t *)v, k, e)
		json_set_new(out, k, masked(e, depth + 1));
	json_array_foreach(v, i, e)
		json_array_append_new(out, masked(e, depth + 1));
	return out;
}

/* ------------------------------------------------------ transcripts */

/*
 * The prompt of a context as the record holds it (bctx assemble's
 * system_prompt and user_prompt, kept by merge --keep-texts), into
 * sh->prompts once under key: {system, user} or, when the user prompt
 * holds the content, {system, before, after} around it.
 */
static json_t *
prompt(const json_t *rec, const char *key, struct shared *sh)
{
	const char *sys = json_get_str(rec, "system_prompt");
	const char *user = json_get_str(rec, "user_prompt");
	const char *content = json_get_str(rec, "content"), *at;
	json_t *p;

	if (!sys && !user)
		return json_null();
	if (json_object_get(sh->prompts, key))
		return json_string(key);
	p = json_object();
	json_set_new(p, "system", json_str_or_null(sys));
	at = user && content && *content ? strstr(user, content) : NULL;
	if (at) {
		json_set_new(p, "before", json_text(user, (size_t)(at - user)));
		json_set_str(p, "after", at + strlen(content));
	} else {
		json_set_new(p, "user", json_str_or_null(user));
	}
	json_object_set_new(sh->prompts, key, p);
	return json_string(key);
}

/* The fields of a response record (binfer(1), "Output records") in a run,
 * then in a request: where a credential could stand, so all of them are
 * masked (mask_secrets); the texts of the study (contents, prompts,
 * answers, facts) are shown as they are: binfer masked its key there. */
static const char *const run_fields[] = { "model_id", "model_family", "tier",
    "engine", "server", "server_version", "endpoint", "model_digest",
    "model_identity", "num_ctx", NULL };
static const char *const request_fields[] = { "request_hash",
    "finish_reason", "output_truncated", "thinking_stripped",
    "input_token_count", "expected_prompt_tokens", "prompt_eval_count",
    "output_token_count", "timings", "error", "cache", NULL };

/* The fields of names that rec has into o, masked. */
static void
copy_masked(json_t *o, const json_t *rec, const char *const *names)
{
	json_t *v;

	for (; *names; names++)
		if ((v = json_object_get(rec, *names)) != NULL)
			json_set_new(o, *names, masked(v, 0));
}

/* The index of o (a reference stolen) in t, added when new. */
static long long
table_index(json_t *o, struct table *t)
{
	json_t *at;
	char *k = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	long long i;

	if (!k)
		die("cannot serialise a request of the results browser");
	if ((at = json_object_get(t->keys, k)) != NULL) {
		i = json_integer_value(at);
		json_decref(o);
	} else {
		i = (long long)json_array_size(t->list);
		json_array_append_new(t->list, o);
		json_set_int(t->keys, k, i);
	}
	free(k);
	return i;
}

/* The index of rec's run in sh->runs, added when new. */
static long long
run_of(const json_t *rec, struct shared *sh)
{
	json_t *r = json_object(), *at;
	char *k;
	long long i;

	copy_masked(r, rec, run_fields);
	k = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
	if (!k)
		die("cannot serialise a run of the results browser");
	if ((at = json_object_get(sh->runkeys, k)) != NULL) {
		i = json_integer_value(at);
		json_decref(r);
	} else {
		i = (long long)json_array_size(sh->runs);
		json_array_append_new(sh->runs, r);
		json_set_int(sh->runkeys, k, i);
	}
	free(k);
	return i;
}

/*
 * The texts of one context as the page holds them (key into its prompts
 * and contents): the system prompt, the user prompt (whole, or rebuilt
 * around the content) and the content; NULL where the page has none.
 * Strings are malloc'd or borrowed as released by held_release.
 */
struct held {
	const char *system, *content;
	char *user;
};

static void
held_init(struct held *h, const char *key, const struct shared *sh)
{
	const json_t *pr = json_object_get(sh->prompts, key);
	const char *before = json_get_str(pr, "before");

	h->system = json_get_str(pr, "system");
	h->content = json_get_str(sh->contents, key);
	if (json_get_str(pr, "user"))
		h->user = xstrdup(json_get_str(pr, "user"));
	else if (before && h->content && json_get_str(pr, "after"))
		h->user = xasprintf("%s%s%s", before, h->content,
		    json_get_str(pr, "after"));
	else
		h->user = NULL;
}

static void
held_release(struct held *h)
{
	free(h->user);
}

/*
 * One message of a request body, for the page: a message whose content is
 * the context's system or user prompt as the page holds it becomes
 * {message, prompt: "system" | "user"}; one that holds the context's
 * content, {message, before, after} around it; the content is then emptied
 * in the parsed body and the page puts it back.  NULL when the message is
 * neither.
 */
static json_t *
cut(json_t *m, size_t i, const struct held *h)
{
	const char *c = json_get_str(m, "content"), *at;
	json_t *x;

	if (!c)
		return NULL;
	if (h->system && strcmp(c, h->system) == 0)
		x = json_pack("{s:I,s:s}", "message", (json_int_t)i, "prompt", "system");
	else if (h->user && strcmp(c, h->user) == 0)
		x = json_pack("{s:I,s:s}", "message", (json_int_t)i, "prompt", "user");
	else if (h->content && *h->content && (at = strstr(c, h->content)) != NULL)
		x = json_pack("{s:I,s:o,s:s}", "message", (json_int_t)i,
		    "before", json_text(c, (size_t)(at - c)),
		    "after", at + strlen(h->content));
	else
		return NULL;
	json_object_set_new(m, "content", json_string(""));
	return x;
}

/*
 * The request body binfer recorded (request.body, the bytes it sent with
 * its API key masked), for the page: {json, cuts}, the body parsed with
 * the context's prompts and content cut out of its messages (cut) and put
 * in sh's bodies (json: its index), so that twenty models' requests for
 * one context do not carry them twenty times nor a model's requests its
 * parameters each; {text} when the body is no JSON object; null when the
 * record holds no body (merged without --keep-texts).  The body is the
 * study's text: shown as it is.
 */
static json_t *
request_body(const char *body, const struct held *h, struct shared *sh)
{
	json_t *b, *cuts, *m, *x;
	size_t i;

	if (!body)
		return json_null();
	b = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(b)) {
		json_decref(b);
		return json_pack("{s:s}", "text", body);
	}
	cuts = json_array();
	json_array_foreach(json_object_get(b, "messages"), i, m) {
		if ((x = cut(m, i, h)) != NULL)
			json_array_append_new(cuts, x);
	}
	return json_pack("{s:I,s:o}", "json", (json_int_t)table_index(b,
	    &sh->bodies), "cuts", cuts);
}

/*
 * The record's request (binfer(1): where it went, the server, the warm-ups
 * before it), masked like the run's fields, as an index into sh's
 * requests; the body's SHA-256 beside it; its body apart, as request_body
 * gives it.  A cache key equal to the request's hash is left out.
 */
static void
request_of(json_t *t, const json_t *rec, const char *key, struct shared *sh)
{
	const json_t *req = json_object_get(rec, "request");
	json_t *r, *fields;
	struct held h;

	if (!json_is_object(req)) {
		json_set_null(t, "request");
		json_set_null(t, "body");
		return;
	}
	fields = json_copy((json_t *)req);	/* shallow: the body is not masked */
	json_object_del(fields, "body");
	json_object_del(fields, "body_sha256");
	r = masked(fields, 0);
	json_decref(fields);
	json_set_int(t, "request", table_index(r, &sh->requests));
	json_set_new(t, "body_sha256", masked(json_object_get(req, "body_sha256") ?
	    json_object_get(req, "body_sha256") : json_null(), 0));
	held_init(&h, key, sh);
	json_set_new(t, "body", request_body(json_get_str(req, "body"), &h, sh));
	held_release(&h);
	r = json_object_get(t, "cache");
	if (json_is_object(r) && json_get_str(r, "key") && json_get_str(rec,
	    "request_hash") && strcmp(json_get_str(r, "key"),
	    json_get_str(rec, "request_hash")) == 0)
		json_object_del(r, "key");	/* the page's: request_hash */
}

/*
 * What binfer recorded of one request: its run (an index into the page's
 * runs), the request's own fields that exist on this record, the request
 * as sent and its cache provenance, and the raw answer when it differs
 * from the response text.
 */
static json_t *
transcript(const json_t *rec, const char *key, struct shared *sh)
{
	const char *raw = json_get_str(rec, "response_raw");
	const char *text = json_get_str(rec, "response_text");
	json_t *t = json_object();

	json_set_int(t, "run", run_of(rec, sh));
	copy_masked(t, rec, request_fields);
	json_set_new(t, "prompt", prompt(rec, key, sh));
	request_of(t, rec, key, sh);
	if (raw && (!text || strcmp(raw, text) != 0)) {
		json_set_str(t, "response_raw", raw);
	} else {
		json_set_new(t, "response_raw", json_null());
		json_set_bool(t, "raw_same", raw != NULL);
	}
	return t;
}

/* ------------------------------------------------------ gold terms */

/* The gold answer's content words, distinct, in order (common/words.h). */
static json_t *
gold_terms(const char *gold)
{
	struct wordset g = WORDSET_INIT;
	json_t *a = json_array();
	size_t i;

	if (gold)
		words_add(&g, gold, strlen(gold), WORDS_CONTENT);
	for (i = 0; i < g.n; i++)
		json_array_append_new(a, json_string(g.v[i].word));
	wordset_release(&g);
	return a;
}

/*
 * The gold terms (of terms) that the autoscore rule credits in response:
 * a term counts when the first five characters of one of the response's
 * content words equal its own (bscore-merge autoscore, hints.c).  Sets
 * side's "credited" (indices into terms) and "credit" ([hits, terms] over
 * distinct five-character prefixes, the recall autoscore reports).
 */
static void
credited(json_t *side, const json_t *terms, const char *gold,
    const char *response)
{
	struct wordset r5 = WORDSET_INIT, g5 = WORDSET_INIT;
	json_t *idx = json_array(), *t;
	size_t i, hit = 0;

	words_add(&r5, response, strlen(response), WORDS_CONTENT | WORDS_PREFIX5);
	words_add(&g5, gold, strlen(gold), WORDS_CONTENT | WORDS_PREFIX5);
	json_array_foreach(terms, i, t) {
		struct wordset one = WORDSET_INIT;

		words_add(&one, json_string_value(t), json_string_length(t),
		    WORDS_PREFIX5);
		if (one.n && wordset_count(&r5, one.v[0].word))
			json_array_append_new(idx, json_integer((json_int_t)i));
		wordset_release(&one);
	}
	for (i = 0; i < g5.n; i++)
		if (wordset_count(&r5, g5.v[i].word))
			hit++;
	json_set_new(side, "credited", idx);
	json_set_new(side, "credit", json_pack("[I,I]", (json_int_t)hit,
	    (json_int_t)g5.n));
	wordset_release(&r5);
	wordset_release(&g5);
}

/* ------------------------------------------------------ one pair */

/* One condition of a tuple; its content and prompt go into sh once. */
static json_t *
side(const struct bst_obs *o, const struct bst_runidx *x, struct shared *sh,
    const json_t *q)
{
	json_t *j = bst_html_rating(o), *c = json_object_get(o->rec, "content");
	const char *resp = json_get_str(o->rec, "response_text");
	const char *gold = json_get_str(q, "gold_answer");
	char key[512];

	json_set_new(j, "tok", o->excluded ? json_null() : json_real(o->tok));
	json_set_new(j, "reftok", !o->excluded && o->has_reftok ?
	    json_real(o->reftok) : json_null());
	json_set_new(j, "gold_coverage", json_real_or_null(o->gold_cov));
	json_set_new(j, "response", json_str_or_null(resp));
	json_set_new(j, "response_id", json_str_or_null(json_get_str(o->rec,
	    "response_id")));
	snprintf(key, sizeof key, "%s\t%s\t%c", o->site, o->question, o->cond);
	if (json_is_string(c)) {
		if (!json_object_get(sh->contents, key))
			json_object_set(sh->contents, key, c);
		json_set_str(j, "content", key);
	} else {
		json_set_null(j, "content");
	}
	if (resp && gold)
		credited(j, json_object_get(q, "terms"), gold, resp);
	json_set_new(j, "tx", transcript(o->rec, key, sh));
	json_set_new(j, "other", x->s ? bst_html_rating(bst_runidx_get(x, o,
	    o->cond)) : json_null());
	return j;
}

/* The question of o into sh once; returns it (borrowed). */
static const json_t *
question(const struct bst_obs *o, const char *qkey, struct shared *sh)
{
	json_t *q = json_object_get(sh->questions, qkey);
	const char *gold = json_get_str(o->rec, "gold_answer");

	if (q)
		return q;
	q = json_object();
	json_set_new(q, "question_text", json_str_or_null(json_get_str(o->rec,
	    "question_text")));
	json_set_new(q, "gold_answer", json_str_or_null(gold));
	json_set_new(q, "terms", gold_terms(gold));
	json_object_set_new(sh->questions, qkey, q);
	return q;
}

/* A changed fact of bctx when it is one ({key, a, b} strings), else NULL. */
static json_t *
fact(const json_t *f)
{
	const char *k = json_get_str(f, "key"), *a = json_get_str(f, "a");
	const char *b = json_get_str(f, "b");

	if (!k || !a || !b)
		return NULL;
	return json_pack("{s:s?,s:s,s:s,s:s}", "kind", json_get_str(f, "kind"),
	    "key", k, "a", a, "b", b);
}

/*
 * The pair's facts as bctx recorded them on rec (ctxbench-records(5)):
 * {changed, changed_count, b_in_a, a_in_b, gold_only_a, gold_only_b},
 * or null when the record carries none (not measured).  The documents'
 * own text, like the contents and prompts, is shown as it is.
 */
static json_t *
facts(const json_t *rec)
{
	static const char *const pass[][2] = {
		{ "facts_changed_count", "changed_count" },
		{ "facts_b_in_a", "b_in_a" }, { "facts_a_in_b", "a_in_b" },
		{ "gold_facts_only_a", "gold_only_a" },
		{ "gold_facts_only_b", "gold_only_b" }, { NULL, NULL } };
	json_t *ch = json_object_get(rec, "facts_changed"), *f = json_object(),
	    *list = json_array(), *e, *v;
	size_t i;
	int any = json_is_array(ch);

	json_array_foreach(ch, i, e) {
		if ((v = fact(e)) != NULL)
			json_array_append_new(list, v);
	}
	json_set_new(f, "changed", list);
	for (i = 0; pass[i][0]; i++) {
		if ((v = json_object_get(rec, pass[i][0])) != NULL) {
			json_set_new(f, pass[i][1], json_incref(v));
			any = 1;
		}
	}
	if (!any) {
		json_decref(f);
		return json_null();
	}
	return f;
}

static void
deltas(json_t *p, const struct bst_obs *a, const struct bst_obs *b)
{
	int paired = a && b && !a->excluded && !b->excluded;

	json_set_new(p, "d_acc", paired ? json_real(bst_delta(M_ACC, a, b)) :
	    json_null());
	json_set_new(p, "d_hall", paired && !bst_html_unassessed(a) &&
	    !bst_html_unassessed(b) ? json_real(bst_delta(M_HALL, a, b)) :
	    json_null());
	json_set_new(p, "d_tok", paired ? json_real(bst_delta(M_TOK, a, b)) :
	    json_null());
	if (paired && (b->par_b_in_a >= 0 || b->drift >= 0)) {
		json_t *par = json_object();

		json_set_new(par, "b_in_a", json_real_or_null(b->par_b_in_a));
		json_set_new(par, "a_in_b", json_real_or_null(b->par_a_in_b));
		json_set_new(par, "drift", b->drift >= 0 ? json_boolean(b->drift) :
		    json_null());
		json_set_new(p, "parity", par);
	} else {
		json_set_null(p, "parity");
	}
}

/* The tuple of s->idx[i .. ): one or two conditions; returns the next i. */
static size_t
tuple(const struct bst_study *s, size_t i, json_t *pairs,
    const struct bst_runidx *x, struct shared *sh)
{
	const struct bst_obs *o = s->idx[i], *a = NULL, *b = NULL;
	json_t *p = json_object();
	const json_t *q;
	char qkey[512];
	size_t j;

	j = i;
	do {	/* o itself, then the rest of its triple */
		if (s->idx[j]->cond == 'A')
			a = s->idx[j];
		else
			b = s->idx[j];
	} while (++j < s->nobs && bst_same_triple(s->idx[j], o));
	snprintf(qkey, sizeof qkey, "%s\t%s", o->site, o->question);
	q = question(o, qkey, sh);
	json_set_int(p, "order", (long long)json_array_size(pairs));
	json_set_str(p, "site", o->site);
	json_set_str(p, "question", o->question);
	json_set_str(p, "model", o->model);
	json_set_new(p, "tier", json_str_or_null(o->tier));
	json_set_new(p, "complexity", json_str_or_null(o->complexity));
	json_set_new(p, "sector", json_str_or_null(o->sector));
	json_set_str(p, "qkey", qkey);
	json_set_new(p, "A", a ? side(a, x, sh, q) : json_null());
	json_set_new(p, "B", b ? side(b, x, sh, q) : json_null());
	deltas(p, a, b);
	json_set_new(p, "facts", facts((b ? b : a)->rec));
	snprintf(qkey, sizeof qkey, "%s\t%s\t%s", o->site, o->question,
	    o->model);
	if (json_object_get(sh->variants, qkey))
		json_object_set(p, "variants", json_object_get(sh->variants,
		    qkey));
	json_array_append_new(pairs, p);
	return j;
}

/*
 * The ratings of the variant conditions (issue 30) by tuple, for the grid:
 * scores and tokens, shown beside A and B; a variant's tuple without an A
 * or B rating has no row of the table.  Sets d.conditions (A, B, then the
 * variants by name) when there are any, so that a study without variants
 * gives the same page as before.
 */
static json_t *
variant_ratings(const struct bst_study *s, json_t *d)
{
	json_t *by = json_object(), *names = json_object(), *conds, *t, *v;
	const char *name;
	char key[512];
	size_t i;

	for (i = 0; i < s->nvar; i++) {
		const struct bst_obs *o = &s->var[i];

		snprintf(key, sizeof key, "%s\t%s\t%s", o->site, o->question,
		    o->model);
		if (!(t = json_object_get(by, key))) {
			t = json_object();
			json_object_set_new(by, key, t);
		}
		v = bst_html_rating(o);
		json_set_new(v, "tok", o->excluded ? json_null() :
		    json_real(o->tok));
		json_object_set_new(t, o->cname, v);
		json_object_set_new(names, o->cname, json_true());
	}
	if (s->nvar > 0) {
		conds = json_pack("[s,s]", "A", "B");
		json_object_foreach(names, name, v)
			json_array_append_new(conds, json_string(name));
		json_set_new(d, "conditions", conds);
	}
	json_decref(names);
	return by;
}

json_t *
bst_html_data(const struct bst_study *s, const struct bst_runidx *x,
    const char *md)
{
	struct shared sh = { json_object(), json_object(), json_object(),
	    json_array(), json_object(), NULL, { json_array(), json_object() },
	    { json_array(), json_object() } };
	json_t *d = json_object(), *pairs = json_array();
	size_t i;

	sh.variants = variant_ratings(s, d);
	for (i = 0; i < s->nobs; )
		i = tuple(s, i, pairs, x, &sh);
	json_set_str(d, "sign", BST_SIGN);
	json_set_str(d, "report", md);
	json_set_new(d, "pairs", pairs);
	json_set_new(d, "questions", sh.questions);
	json_set_new(d, "contents", sh.contents);
	json_set_new(d, "prompts", sh.prompts);
	json_set_new(d, "runs", sh.runs);
	json_set_new(d, "requests", sh.requests.list);
	json_set_new(d, "bodies", sh.bodies.list);
	json_decref(sh.runkeys);
	json_decref(sh.variants);
	json_decref(sh.requests.keys);
	json_decref(sh.bodies.keys);
	return d;
}
