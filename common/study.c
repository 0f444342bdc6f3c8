/*
 * study.c - loaders for the study's own files (spec 001 §1.6, §3.5, §3.6 and
 * benchmark-config.json), validating their schemas with positioned errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "fsutil.h"
#include "jsonx.h"
#include "opt.h"
#include "study.h"

const char *const study_complexities[] = {
	"single-fact", "multi-section-synthesis", "conceptual-relationship", NULL,
};

/* A parsed JSON document with its text, for positioned errors. */
struct doc {
	const char *path;
	char *text;
	size_t len;
	json_t *root;
};

#define MAX_STUDY_FILE ((size_t)256 << 20)

static void
doc_load(struct doc *d, const char *path)
{
	json_error_t e;

	d->path = path;
	d->text = read_file(path, &d->len, MAX_STUDY_FILE);
	if (d->text == NULL)
		die_errno("%s", path);
	if (memchr(d->text, '\0', d->len))
		die("%s: NUL byte in a JSON file", path);
	d->root = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES, &e);
	if (d->root == NULL)
		die("%s:%d: invalid JSON: %s", path, e.line, e.text);
}

static void
doc_free(struct doc *d)
{
	free(d->text);
	d->text = NULL;
}

/*
 * The lines of a document's values down to depth 4, keyed by their path
 * written "0/questions/3/text" (json_text_walk), for the list loaders that
 * keep the position of every field.
 */
static void
index_line(const struct json_step *path, size_t n, unsigned long line,
    void *arg)
{
	char key[1024];
	size_t i, off = 0;
	int w;

	for (i = 0; i < n && off < sizeof(key); i++) {
		if (path[i].key)
			w = snprintf(key + off, sizeof(key) - off, "%s%s",
			    i ? "/" : "", path[i].key);
		else
			w = snprintf(key + off, sizeof(key) - off, "%s%zu",
			    i ? "/" : "", path[i].index);
		if (w < 0)
			return;
		off += (size_t)w;
	}
	if (off >= sizeof(key))
		return;
	key[off] = '\0';
	json_object_set_new(arg, key, json_integer((json_int_t)line));
}

static json_t *
doc_line_index(const struct doc *d)
{
	json_t *idx = json_object();

	json_text_walk(d->text, d->len, 4, index_line, idx);
	return idx;
}

/* The line of element j of site i's array arr, and of its fields. */
static void
set_lines(json_t *rec, const json_t *idx, size_t i, const char *arr, size_t j,
    const char *const *fields)
{
	char key[256];
	json_t *lines = json_object();

	snprintf(key, sizeof(key), "%zu/%s/%zu", i, arr, j);
	json_set_int(rec, "_line", json_integer_value(json_object_get(idx, key)));
	for (; *fields; fields++) {
		snprintf(key, sizeof(key), "%zu/%s/%zu/%s", i, arr, j, *fields);
		json_set_int(lines, *fields,
		    json_integer_value(json_object_get(idx, key)));
	}
	json_set_new(rec, "_lines", lines);
}

/*
 * What a loader returns: out itself, or for a list loader {"sites": sites,
 * key: out}.  Takes the references of idx, sites and out.
 */
static json_t *
list_result(int list, json_t *idx, json_t *sites, const char *key, json_t *out)
{
	json_t *r;

	if (!list)
		return out;
	json_decref(idx);
	r = json_object();
	json_set_new(r, "sites", sites);
	json_set_new(r, key, out);
	return r;
}

/* Record a design departure on a list loader's record. */
static void
add_problem(json_t *rec, const char *code, const char *fmt, ...)
    CTX_PRINTF(3, 4);

static void
add_problem(json_t *rec, const char *code, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	json_t *p = json_object_get(rec, "_problems"), *o;

	if (p == NULL) {
		p = json_array();
		json_set_new(rec, "_problems", p);
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o = json_object();
	json_set_str(o, "code", code);
	json_set_str(o, "message", msg);
	json_array_append_new(p, o);
}

/* Die at the line of the value addressed by steps. */
static void doc_die(const struct doc *d, const struct json_step *steps,
    size_t n, const char *fmt, ...) CTX_PRINTF(4, 5) CTX_NORETURN;

static void
doc_die(const struct doc *d, const struct json_step *steps, size_t n,
    const char *fmt, ...)
{
	va_list ap;
	unsigned long line;
	char msg[1024];

	line = json_text_line(d->text, d->len, steps, n);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		die("%s:%lu: %s", d->path, line, msg);
	die("%s: %s", d->path, msg);
}

/* A required string member; dies naming site/question and field. */
static const char *
doc_str(const struct doc *d, const json_t *obj, struct json_step *steps,
    size_t n, const char *key)
{
	json_t *v = json_object_get(obj, key);

	steps[n].key = key;
	steps[n].index = 0;
	if (v == NULL)
		doc_die(d, steps, n, "%s: missing (expected a string)", key);
	if (!json_is_string(v))
		doc_die(d, steps, n + 1, "%s: expected a string, got %s", key,
		    json_type_desc(v));
	if (json_string_length(v) == 0)
		doc_die(d, steps, n + 1, "%s: must not be empty", key);
	return json_string_value(v);
}

static json_t *
doc_array(const struct doc *d, const json_t *obj, struct json_step *steps,
    size_t n, const char *key, int strings, int nonempty)
{
	json_t *v = json_object_get(obj, key), *x;
	size_t i;

	steps[n].key = key;
	steps[n].index = 0;
	if (v == NULL)
		doc_die(d, steps, n, "%s: missing (expected an array)", key);
	if (!json_is_array(v))
		doc_die(d, steps, n + 1, "%s: expected an array, got %s", key,
		    json_type_desc(v));
	if (nonempty && json_array_size(v) == 0)
		doc_die(d, steps, n + 1, "%s: must not be empty", key);
	if (strings) {
		json_array_foreach(v, i, x) {
			steps[n + 1].key = NULL;
			steps[n + 1].index = i;
			if (!json_is_string(x))
				doc_die(d, steps, n + 2, "%s[%zu]: expected a string, got %s",
				    key, i, json_type_desc(x));
		}
	}
	return v;
}

/* ---------------------------------------------------------------- config */

static void
cfg_check(const struct doc *d, const char *key, json_type type)
{
	json_t *v = json_object_get(d->root, key);
	struct json_step st[1] = { { key, 0 } };

	if (v == NULL || json_is_null(v))
		return;
	if (json_typeof(v) != type)
		doc_die(d, st, 1, "%s: expected %s, got %s", key,
		    type == JSON_OBJECT ? "an object" : "an array", json_type_desc(v));
}

static void
cfg_check_num(const struct doc *d, const char *sect, const char *key)
{
	json_t *s = json_object_get(d->root, sect), *v;
	struct json_step st[2] = { { sect, 0 }, { key, 0 } };

	if (s == NULL || (v = json_object_get(s, key)) == NULL || json_is_null(v))
		return;
	if (!json_is_number(v))
		doc_die(d, st, 2, "%s.%s: expected a number, got %s", sect, key,
		    json_type_desc(v));
}

static void
cfg_check_str(const struct doc *d, const char *sect, const char *key)
{
	json_t *s = json_object_get(d->root, sect), *v;
	struct json_step st[2] = { { sect, 0 }, { key, 0 } };

	if (s == NULL || (v = json_object_get(s, key)) == NULL || json_is_null(v))
		return;
	if (!json_is_string(v))
		doc_die(d, st, 2, "%s.%s: expected a string, got %s", sect, key,
		    json_type_desc(v));
}

json_t *
study_config_load(const char *path)
{
	static const char *nums[][2] = {
		{ "inference_parameters", "temperature" },
		{ "inference_parameters", "seed" },
		{ "inference_parameters", "top_p" },
		{ "inference_parameters", "top_k" },
		{ "inference_parameters", "repeat_penalty" },
		{ "inference_parameters", "num_predict" },
		{ "inference_parameters", "num_ctx_overhead" },
		{ "inference_endpoint", "request_timeout_seconds" },
		{ "inference_endpoint", "warmup_prompt_count" },
		{ "extraction", "min_content_length_chars" },
		{ "archive_protocol", "fetch_timeout_seconds" },
		{ "archive_protocol", "rate_limit_ms" },
	};
	static const char *strs[][2] = {
		{ "prompt_template", "system_prompt" },
		{ "prompt_template", "user_prompt" },
		{ "inference_endpoint", "base_url" },
		{ "inference_endpoint", "api_path" },
		{ "inference_endpoint", "engine" },
		{ "archive_protocol", "user_agent" },
	};
	static const char *sects[] = {
		"inference_endpoint", "inference_parameters", "prompt_template",
		"extraction", "archive_protocol", "paths", "run_protocol",
	};
	struct doc d;
	struct json_step st[3];
	json_t *models, *m, *root;
	size_t i, k;
	char *dir;

	doc_load(&d, path);
	if (!json_is_object(d.root))
		die("%s:1: expected a JSON object, got %s", path, json_type_desc(d.root));
	for (i = 0; i < sizeof(sects) / sizeof(sects[0]); i++)
		cfg_check(&d, sects[i], JSON_OBJECT);
	cfg_check(&d, "models", JSON_ARRAY);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		cfg_check_num(&d, nums[i][0], nums[i][1]);
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		cfg_check_str(&d, strs[i][0], strs[i][1]);
	models = json_object_get(d.root, "models");
	json_array_foreach(models, i, m) {
		st[0].key = "models";
		st[1].key = NULL;
		st[1].index = i;
		if (!json_is_object(m))
			doc_die(&d, st, 2, "models[%zu]: expected an object, got %s",
			    i, json_type_desc(m));
		doc_str(&d, m, st, 2, "model_id");
		doc_str(&d, m, st, 2, "family");
		if (json_object_get(m, "tokenizer"))
			doc_str(&d, m, st, 2, "tokenizer");
		for (k = 0; k < i; k++)
			if (strcmp(json_string_value(json_object_get(json_array_get(models,
			    k), "model_id")), json_string_value(json_object_get(m,
			    "model_id"))) == 0) {
				st[2].key = "model_id";
				doc_die(&d, st, 3, "models[%zu]: model_id '%s' appears twice",
				    i, json_string_value(json_object_get(m, "model_id")));
			}
	}
	root = d.root;
	dir = path_dirname(path);
	json_set_str(root, "_config_dir", dir);
	free(dir);
	doc_free(&d);
	return root;
}

double
cfg_num(const json_t *cfg, const char *dotted, double def)
{
	json_t *v = json_path(cfg, dotted);

	return v && json_is_number(v) ? json_number_value(v) : def;
}

long long
cfg_int(const json_t *cfg, const char *dotted, long long def)
{
	json_t *v = json_path(cfg, dotted);

	if (v && json_is_integer(v))
		return json_integer_value(v);
	if (v && json_is_real(v))
		return (long long)json_real_value(v);
	return def;
}

const char *
cfg_str(const json_t *cfg, const char *dotted, const char *def)
{
	json_t *v = json_path(cfg, dotted);

	return v && json_is_string(v) ? json_string_value(v) : def;
}

int
cfg_bool(const json_t *cfg, const char *dotted, int def)
{
	json_t *v = json_path(cfg, dotted);

	return v && json_is_boolean(v) ? json_is_true(v) : def;
}

json_t *
cfg_model(const json_t *cfg, const char *model_id)
{
	json_t *models = json_object_get(cfg, "models"), *m;
	size_t i;

	json_array_foreach(models, i, m) {
		const char *id = json_string_value(json_object_get(m, "model_id"));

		if (id && strcmp(id, model_id) == 0)
			return m;
	}
	return NULL;
}

const char *
cfg_model_tokenizer(const json_t *model)
{
	const char *tok = json_string_value(json_object_get(model, "tokenizer"));
	const char *fam = json_string_value(json_object_get(model, "family"));
	const char *id = json_string_value(json_object_get(model, "model_id"));

	if (tok)
		return tok;
	if (!fam)
		return NULL;
	if (strcmp(fam, "llama") == 0)
		return "llama3";
	if (strcmp(fam, "mistral") == 0)
		return id && strstr(id, "large") ? "mistral-v3" : "mistral";
	return fam;
}

char *
cfg_path(const json_t *cfg, const char *key)
{
	json_t *paths = json_object_get(cfg, "paths");
	const char *p = json_string_value(json_object_get(paths, key));
	const char *dir = json_string_value(json_object_get(cfg, "_config_dir"));

	if (p == NULL)
		return NULL;
	if (p[0] == '/' || dir == NULL)
		return xstrdup(p);
	return path_join(dir, p);
}

/* ---------------------------------------------------------------- sites */

/*
 * A departure of a site-list.csv row: die (the loader), or keep it on the
 * row as a problem (the list loader of bctx check).
 */
#define SITE_FAIL(code, ...) do {					\
	if (!list)							\
		die(__VA_ARGS__);					\
	add_problem(row, code, __VA_ARGS__);				\
} while (0)

static void
site_columns(json_t *row, const char *path, unsigned long line, int list)
{
	json_t *v;
	long long n;
	int b;
	const char *s;

	if ((v = json_object_get(row, "llms_txt_page_count")) != NULL) {
		s = json_string_value(v);
		if (*s == '\0')
			json_set_null(row, "llms_txt_page_count");
		else if (parse_int(s, &n) < 0 || n < 0)
			SITE_FAIL("type", "%s:%lu: llms_txt_page_count: expected a "
			    "non-negative integer, got '%s'", path, line, s);
		else
			json_set_int(row, "llms_txt_page_count", n);
	}
	if ((v = json_object_get(row, "has_llms_full")) != NULL) {
		s = json_string_value(v);
		if (*s == '\0')
			json_set_bool(row, "has_llms_full", 0);
		else if (parse_bool(s, &b) < 0)
			SITE_FAIL("type", "%s:%lu: has_llms_full: expected TRUE or "
			    "FALSE, got '%s'", path, line, s);
		else
			json_set_bool(row, "has_llms_full", b);
	}
	s = json_string_value(json_object_get(row, "verification_status"));
	if (s && *s && strcmp(s, "PASS") && strcmp(s, "FAIL") &&
	    strcmp(s, "EXCLUDED"))
		SITE_FAIL("enum", "%s:%lu: verification_status: expected PASS, "
		    "FAIL or EXCLUDED, got '%s'", path, line, s);
}

static json_t *
sites_read(const char *path, int list)
{
	static const char *const required[] = {
		"site_id", "domain", "llms_txt_url", "html_docs_url", "sector",
		"verification_status", NULL,
	};
	json_t *rows, *row, *v, *seen;
	size_t i, k;
	const char *id;

	/* the list loader reports a missing column as a finding */
	rows = list ? csv_load_objects(path) : csv_load_objects_req(path, required);
	seen = json_object();
	json_array_foreach(rows, i, row) {
		unsigned long line = (unsigned long)json_integer_value(
		    json_object_get(row, "_line"));

		for (k = 0; required[k]; k++) {
			v = json_object_get(row, required[k]);
			if (v == NULL)
				SITE_FAIL("required", "%s: missing column '%s'", path,
				    required[k]);
			else if (json_string_length(v) == 0)
				SITE_FAIL("required", "%s:%lu: %s: must not be empty",
				    path, line, required[k]);
		}
		site_columns(row, path, line, list);
		id = json_string_value(json_object_get(row, "site_id"));
		if (id && *id && json_object_get(seen, id))
			SITE_FAIL("duplicate", "%s:%lu: site_id '%s' appears twice",
			    path, line, id);
		else if (id && *id)
			json_object_set_new(seen, id, json_true());
		if (!list)
			json_object_del(row, "_line");
	}
	json_decref(seen);
	return rows;
}

#undef SITE_FAIL

json_t *
study_sites_load(const char *path)
{
	return sites_read(path, 0);
}

json_t *
study_sites_list(const char *path)
{
	return sites_read(path, 1);
}

/* ---------------------------------------------------------------- questions */

static int
one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

static const char *const question_fields[] = {
	"question_id", "text", "complexity", "source_sections", "source_urls",
	NULL,
};
static const char *const answer_fields[] = {
	"question_id", "gold_answer", "source_urls", "verified_date", NULL,
};

/*
 * The site objects of questions.json or gold-answers.json for the list
 * loaders: {site_id, domain, _line, _index}.
 */
static json_t *
site_entry(const char *site_id, const char *domain, const json_t *idx,
    size_t i)
{
	json_t *o = json_object();
	char key[32];

	snprintf(key, sizeof(key), "%zu", i);
	json_set_str(o, "site_id", site_id);
	json_set_new(o, "domain", domain ? json_string(domain) : json_null());
	json_set_int(o, "_line", json_integer_value(json_object_get(idx, key)));
	json_set_int(o, "_index", (long long)i);
	return o;
}

/*
 * A question_id's departures (not of its site, seen before): fatal for the
 * loader, kept as problems by the list loader.
 */
static void
qid_check(const struct doc *d, const struct json_step *st, size_t n,
    json_t *rec, json_t *seen, const char *site_id, const char *qid,
    int answers)
{
	if (strncmp(qid, site_id, strlen(site_id)) != 0 ||
	    qid[strlen(site_id)] != '-') {
		if (rec == NULL && answers)
			doc_die(d, st, n, "question_id '%s' does not belong to "
			    "site '%s'", qid, site_id);
		if (rec == NULL)
			doc_die(d, st, n, "question_id '%s' does not belong to "
			    "site '%s' (expected '%s-Qnn')", qid, site_id, site_id);
		add_problem(rec, "foreign_id", "question_id '%s' does not belong "
		    "to site '%s'", qid, site_id);
	}
	if (json_object_get(seen, qid)) {
		if (rec == NULL)
			doc_die(d, st, n, "question_id '%s' appears twice", qid);
		add_problem(rec, "duplicate_id", "question_id '%s' appears twice",
		    qid);
	}
	json_object_set_new(seen, qid, json_true());
}

/*
 * questions.json and gold-answers.json have one shape: an array of site
 * objects {site_id, domain, ITEMS: [...]} whose items are objects with a
 * question_id unique in the file and prefixed by its site's id.  One walker
 * reads both: it checks the sites and the ids, keeps the lines for a list
 * loader and collects the records; each file's item function checks and
 * copies the rest of an item.
 */
struct walk;
typedef void walk_item_fn(const struct walk *w, struct json_step *st,
    const json_t *item, json_t *rec, const char *site_id, const char *domain);

struct study_file {
	const char *items;		/* "questions" or "answers" */
	const char *noun;		/* "question" or "answer", for messages */
	const char *const *fields;	/* the item fields a list keeps lines of */
	int answers;			/* gold-answers.json: domain optional,
					 * records keyed by question_id */
	walk_item_fn *item;
};

struct walk {
	const struct study_file *f;
	struct doc d;
	int list;
	json_t *out;		/* the records: an array, or keyed by id */
	json_t *seen;		/* question_id -> true */
	json_t *idx;		/* list loaders: lines by path */
	json_t *sites;		/* list loaders: the site entries */
};

/* Item j of site i: its id checked, rec filled, put into the result. */
static void
walk_item(struct walk *w, struct json_step *st, size_t i, size_t j,
    const json_t *item, const char *site_id, const char *domain)
{
	json_t *rec;
	const char *qid;

	st[1].key = w->f->items;
	st[2].key = NULL;
	st[2].index = j;
	if (!json_is_object(item))
		doc_die(&w->d, st, 3, "%s %s %zu: expected an object, got %s",
		    site_id, w->f->noun, j + 1, json_type_desc(item));
	qid = doc_str(&w->d, item, st, 3, "question_id");
	rec = json_object();
	qid_check(&w->d, st, 4, w->list ? rec : NULL, w->seen, site_id, qid,
	    w->f->answers);
	w->f->item(w, st, item, rec, site_id, domain);
	if (w->list) {
		set_lines(rec, w->idx, i, w->f->items, j, w->f->fields);
		json_set_int(rec, "_site_index", (long long)i);
	}
	if (json_is_array(w->out))
		json_array_append_new(w->out, rec);
	else
		json_object_set_new(w->out, qid, rec);
}

static json_t *
study_walk(const struct study_file *f, const char *path, int list)
{
	struct walk w;
	struct json_step st[6];
	json_t *site, *items, *item;
	const char *site_id, *domain;
	size_t i, j;

	memset(&w, 0, sizeof(w));
	w.f = f;
	w.list = list;
	doc_load(&w.d, path);
	if (!json_is_array(w.d.root))
		die("%s:1: expected an array of site objects, got %s", path,
		    json_type_desc(w.d.root));
	if (list) {
		w.idx = doc_line_index(&w.d);
		w.sites = json_array();
	}
	w.out = list || !f->answers ? json_array() : json_object();
	w.seen = json_object();
	json_array_foreach(w.d.root, i, site) {
		st[0].key = NULL;
		st[0].index = i;
		if (!json_is_object(site))
			doc_die(&w.d, st, 1, "site %zu: expected an object, got %s",
			    i + 1, json_type_desc(site));
		site_id = doc_str(&w.d, site, st, 1, "site_id");
		domain = f->answers ? json_get_str(site, "domain") :
		    doc_str(&w.d, site, st, 1, "domain");
		items = doc_array(&w.d, site, st, 1, f->items, 0, 0);
		if (list)
			json_array_append_new(w.sites, site_entry(site_id, domain,
			    w.idx, i));
		json_array_foreach(items, j, item)
			walk_item(&w, st, i, j, item, site_id, domain);
	}
	json_decref(w.seen);
	json_decref(w.d.root);
	doc_free(&w.d);
	return list_result(list, w.idx, w.sites, f->items, w.out);
}

/* A question of questions.json (st addresses it with 3 steps). */
static void
question_item(const struct walk *w, struct json_step *st, const json_t *q,
    json_t *rec, const char *site_id, const char *domain)
{
	const char *cx;

	doc_str(&w->d, q, st, 3, "text");
	cx = doc_str(&w->d, q, st, 3, "complexity");
	if (!one_of(cx, study_complexities))
		doc_die(&w->d, st, 4, "complexity: expected single-fact, "
		    "multi-section-synthesis or conceptual-relationship, got '%s'",
		    cx);
	doc_array(&w->d, q, st, 3, "source_sections", 1, 0);
	doc_array(&w->d, q, st, 3, "source_urls", 1, 1);
	json_set_str(rec, "site_id", site_id);
	json_set_str(rec, "domain", domain);
	json_set_str(rec, "question_id", json_get_str(q, "question_id"));
	json_set_str(rec, "text", json_get_str(q, "text"));
	json_set_str(rec, "complexity", cx);
	json_set_new(rec, "source_sections",
	    json_deep_copy(json_object_get(q, "source_sections")));
	json_set_new(rec, "source_urls",
	    json_deep_copy(json_object_get(q, "source_urls")));
}

/* An answer of gold-answers.json (st addresses it with 3 steps). */
static void
answer_item(const struct walk *w, struct json_step *st, const json_t *a,
    json_t *rec, const char *site_id, const char *domain)
{
	json_t *urls;

	(void)domain;
	doc_str(&w->d, a, st, 3, "gold_answer");
	urls = doc_array(&w->d, a, st, 3, "source_urls", 1, 0);
	json_set_str(rec, "site_id", site_id);
	json_set_str(rec, "question_id", json_get_str(a, "question_id"));
	json_set_str(rec, "gold_answer", json_get_str(a, "gold_answer"));
	json_set_new(rec, "source_urls", json_deep_copy(urls));
	json_set_str(rec, "verified_date", json_get_str(a, "verified_date"));
}

static const struct study_file questions_file = {
	"questions", "question", question_fields, 0, question_item,
};
static const struct study_file gold_file = {
	"answers", "answer", answer_fields, 1, answer_item,
};

json_t *
study_questions_load(const char *path)
{
	return study_walk(&questions_file, path, 0);
}

json_t *
study_questions_list(const char *path)
{
	return study_walk(&questions_file, path, 1);
}

json_t *
study_gold_load(const char *path)
{
	return study_walk(&gold_file, path, 0);
}

json_t *
study_gold_list(const char *path)
{
	return study_walk(&gold_file, path, 1);
}
