/*
 * check.c - bctx check: does the corpus meet its own pre-registered design?
 *
 * Reads site-list.csv, questions.json and gold-answers.json through the list
 * loaders of common/study.c (the loaders' own schema checks; what departs
 * from the design is kept as a problem instead of being fatal), optionally
 * benchmark-config.json (the corpus freeze date) and the llms.txt records of
 * bmdprep: kind llms/link records (bmdprep --llms) for "source URLs appear
 * in the site's llms.txt", kind check records (bmdprep --check) for IC-1,
 * IC-2 and EC-1, which bmdprep decides and this file only reports.
 *
 * Every rule has an id, its spec section and a level: MUST (exit 1 when
 * found), SHOULD (exit 1 with --strict) and NOTE (the spec's own known
 * inconsistencies, stated with the corpus's figures, never a failure).
 * Findings are kept, sorted by file and line, then printed; the summary
 * table lists every rule with its count ("-" when its input was not given).
 */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "study.h"
#include "bctx.h"
#include "check.h"

enum level { MUST, SHOULD, NOTE };
static const char *const level_name[] = { "MUST", "SHOULD", "NOTE" };

enum need { NEED_NONE, NEED_LINKS, NEED_VERDICTS };

struct rule {
	const char *id;
	const char *section;
	enum level level;
	enum need need;
	const char *what;
};

/* The rules, in the order of the summary table and of bctx(1). */
static const struct rule rules[] = {
	{ "SL-REQUIRED", "001 §1.6", MUST, NEED_NONE,
	    "every required site-list.csv column present and non-empty" },
	{ "SL-TYPE", "001 §1.6", MUST, NEED_NONE,
	    "llms_txt_page_count an integer, has_llms_full TRUE or FALSE" },
	{ "SL-STATUS", "001 §1.6", MUST, NEED_NONE,
	    "verification_status PASS, FAIL or EXCLUDED" },
	{ "SL-ID", "001 §1.6", MUST, NEED_NONE,
	    "site_id of the form S001, unique" },
	{ "SL-DATE", "001 §1.6", MUST, NEED_NONE,
	    "verification_date an ISO 8601 calendar date" },
	{ "SL-URL", "001 §1.6", MUST, NEED_NONE,
	    "llms_txt_url and html_docs_url absolute http(s) URLs" },
	{ "SL-SECTOR", "001 §1.3", MUST, NEED_NONE,
	    "sector one of the eight of the taxonomy" },
	{ "SL-EXCLUSION", "001 §1.6", SHOULD, NEED_NONE,
	    "an EXCLUDED site names its criterion (EC-n), others none" },
	{ "SL-ORDER", "001 §1.6", SHOULD, NEED_NONE,
	    "rows sorted by site_id" },
	{ "CORPUS-SIZE", "001 §1.3", SHOULD, NEED_NONE,
	    "30 to 50 included (PASS) sites" },
	{ "SECTOR-COUNT", "001 §1.3", MUST, NEED_NONE,
	    "at least 4 sectors among the included sites" },
	{ "SECTOR-CAP", "001 §1.3", MUST, NEED_NONE,
	    "no sector above 40 % of the included sites" },
	{ "SITE-MATCH", "001 §3.5", MUST, NEED_NONE,
	    "each questions.json site once, a PASS site of site-list.csv, "
	    "same domain" },
	{ "Q-ID", "001 §3.5", MUST, NEED_NONE,
	    "question_id is {site_id}-Qnn of its own site" },
	{ "Q-DUP", "001 §3.5", MUST, NEED_NONE,
	    "question_id unique across the corpus" },
	{ "Q-COUNT", "001 §3.2", MUST, NEED_NONE,
	    "5 to 10 questions per included site" },
	{ "Q-MIX", "001 §3.2", MUST, NEED_NONE,
	    "per site >= 2 single-fact, >= 2 multi-section-synthesis, "
	    ">= 1 conceptual-relationship" },
	{ "Q-TEXT", "001 §3.5", MUST, NEED_NONE,
	    "question text ends with '?'" },
	{ "Q-SECTIONS", "001 §3.3", MUST, NEED_NONE,
	    "single-fact: one source section; others: two or more (QG-6)" },
	{ "Q-URL", "001 §3.5", MUST, NEED_NONE,
	    "source URLs absolute http(s), none twice in a question" },
	{ "Q-LLMS", "001 §3.5", MUST, NEED_LINKS,
	    "source URLs appear in the site's llms.txt" },
	{ "G-MISSING", "001 §3.6", MUST, NEED_NONE,
	    "every question has a gold answer" },
	{ "G-ORPHAN", "001 §3.6", MUST, NEED_NONE,
	    "every gold answer answers a question of its site" },
	{ "G-DUP", "001 §3.6", MUST, NEED_NONE,
	    "one gold answer per question" },
	{ "G-SENTENCES", "001 §3.4", SHOULD, NEED_NONE,
	    "gold answer of 1 to 3 complete sentences (GA-2)" },
	{ "G-URLS", "001 §3.6", SHOULD, NEED_NONE,
	    "gold source_urls the question's source_urls" },
	{ "G-DATE", "001 §3.6", MUST, NEED_NONE,
	    "verified_date an ISO 8601 calendar date" },
	{ "DATE-FREEZE", "001 §1.2", MUST, NEED_NONE,
	    "no verification date in the future or after the corpus freeze" },
	{ "IC-1", "001 §1.1", MUST, NEED_VERDICTS,
	    "each included site's llms.txt fetched and parsed" },
	{ "IC-2", "001 §1.1", MUST, NEED_VERDICTS,
	    "llms.txt links >= 5 distinct Markdown pages" },
	{ "EC-1", "001 §1.2", MUST, NEED_VERDICTS,
	    "llms.txt is not a bare link list without descriptions" },
	{ "SPEC-SECTOR", "001 §1.3", NOTE, NEED_NONE,
	    "the documented Developer Tools share against the corpus's" },
	{ "SPEC-CR", "001 §3.2", NOTE, NEED_NONE,
	    "the rationale's 2 per level against the minimum of 1 "
	    "conceptual-relationship" },
	{ "SPEC-URLS", "001 §3.5", NOTE, NEED_NONE,
	    "the schema's example cites HTML pages that no llms.txt lists" },
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* The §1.3 taxonomy. */
static const char *const sectors[] = {
	"Developer Tools & APIs", "AI & ML Platforms", "Cloud Infrastructure",
	"SaaS Product Documentation", "Open Source Projects",
	"Enterprise Software", "Education & Learning", "Other", NULL,
};

/* Files in the order findings are printed. */
enum { F_SITES, F_QUESTIONS, F_GOLD, F_LINKS };

struct finding {
	const char *file;	/* borrowed: a path of the command line */
	int forder;		/* F_* (links: F_LINKS + file index) */
	unsigned long line;	/* 0: the file as a whole */
	size_t rule, seq;
	char *site, *qid, *msg;
};

struct check {
	const char *sites_path, *questions_path, *gold_path, *config_path;
	char **links;		/* link record files (NULL-terminated) */
	size_t nlinks;
	int json, strict;
	char today[11], freeze[11];	/* "" when unknown */
	struct finding *f;
	size_t n, cap;
	size_t count[NRULES];
	int have_links, have_verdicts;
	json_t *sites, *site_by_id;	/* study_sites_list, site_id -> row */
	json_t *questions, *gold;	/* study_questions_list / _gold_list */
	json_t *q_by_id;		/* question_id -> first question */
	struct bctx_env env;
	json_t *verdicts;		/* [{rec, file, forder, line}] */
};

static size_t
rule_index(const char *id)
{
	size_t i;

	for (i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return i;
	abort();	/* a rule id of this file that the table lacks */
}

static void find(struct check *ck, int forder, const char *file,
    unsigned long line, const char *rule, const char *site, const char *qid,
    const char *fmt, ...) CTX_PRINTF(8, 9);

/* Record a finding. */
static void
find(struct check *ck, int forder, const char *file, unsigned long line,
    const char *rule, const char *site, const char *qid, const char *fmt, ...)
{
	struct finding *f;
	va_list ap;
	char msg[2048];

	if (ck->n == ck->cap) {
		ck->cap = ck->cap ? ck->cap * 2 : 64;
		ck->f = xreallocarray(ck->f, ck->cap, sizeof *ck->f);
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f = &ck->f[ck->n];
	f->file = file;
	f->forder = forder;
	f->line = line;
	f->rule = rule_index(rule);
	f->seq = ck->n++;
	f->site = site ? xstrdup(site) : NULL;
	f->qid = qid ? xstrdup(qid) : NULL;
	f->msg = xstrdup(msg);
	ck->count[f->rule]++;
}

static unsigned long
jline(const json_t *rec)
{
	return (unsigned long)json_integer_value(json_object_get(rec, "_line"));
}

static unsigned long
fline(const json_t *rec, const char *field)
{
	unsigned long l = (unsigned long)json_integer_value(json_object_get(
	    json_object_get(rec, "_lines"), field));

	return l ? l : jline(rec);
}

/* A loader message without its "FILE:LINE: " or "FILE: " prefix. */
static const char *
strip_where(const char *msg, const char *path)
{
	size_t n = strlen(path);
	const char *s = msg;

	if (strncmp(s, path, n) != 0 || s[n] != ':')
		return msg;
	s += n + 1;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == ':')
		s++;
	if (*s == ' ')
		s++;
	return s;
}

/* ---------------------------------------------------------------- dates */

/* 1 when s is an ISO 8601 calendar date YYYY-MM-DD that exists. */
static int
iso_date(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
		30, 31 };
	int y, m, d, i;

	if (s == NULL || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return 0;
	return 1;
}

/* DATE-FREEZE for a valid date (ISO dates compare as strings). */
static void
check_freeze(struct check *ck, int forder, const char *file,
    unsigned long line, const char *site, const char *qid, const char *field,
    const char *date)
{
	if (ck->today[0] && strcmp(date, ck->today) > 0)
		find(ck, forder, file, line, "DATE-FREEZE", site, qid,
		    "%s %s is in the future (today is %s)", field, date, ck->today);
	else if (ck->freeze[0] && strcmp(date, ck->freeze) > 0)
		find(ck, forder, file, line, "DATE-FREEZE", site, qid,
		    "%s %s is after the corpus freeze of %s", field, date,
		    ck->freeze);
}

/* ---------------------------------------------------------------- sites */

static int
one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* site_id of the form S001 (S and three or more digits). */
static int
site_id_ok(const char *s)
{
	size_t i;

	if (s == NULL || s[0] != 'S' || strlen(s) < 4)
		return 0;
	for (i = 1; s[i]; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static const char *const problem_rules[][2] = {
	{ "required", "SL-REQUIRED" }, { "type", "SL-TYPE" },
	{ "enum", "SL-STATUS" }, { "duplicate", "SL-ID" },
	{ "foreign_id", NULL }, { "duplicate_id", NULL },
};

/*
 * The loader's problems of a row or record as findings; rule_of maps the
 * problem codes of questions and gold answers.  A missing column is
 * reported once, at the header.
 */
static void
report_problems(struct check *ck, int forder, const char *path,
    const json_t *rec, const char *foreign_rule, const char *dup_rule,
    int *missing_seen)
{
	json_t *p;
	size_t i, k;
	const char *code, *msg, *rule;

	json_array_foreach(json_object_get(rec, "_problems"), i, p) {
		code = json_get_str(p, "code");
		msg = json_get_str(p, "message");
		rule = NULL;
		for (k = 0; k < sizeof(problem_rules) / sizeof(problem_rules[0]); k++)
			if (strcmp(code, problem_rules[k][0]) == 0)
				rule = problem_rules[k][1];
		if (strcmp(code, "foreign_id") == 0)
			rule = foreign_rule;
		else if (strcmp(code, "duplicate_id") == 0)
			rule = dup_rule;
		if (strncmp(strip_where(msg, path), "missing column", 14) == 0) {
			if (*missing_seen)
				continue;
			*missing_seen = 1;
			find(ck, forder, path, 1, rule, NULL, NULL, "%s",
			    strip_where(msg, path));
			continue;
		}
		find(ck, forder, path, forder == F_SITES ? jline(rec) :
		    fline(rec, "question_id"), rule, json_get_str(rec, "site_id"),
		    json_get_str(rec, "question_id"), "%s", strip_where(msg, path));
	}
}

/* The §1.6 columns the loader leaves optional but the schema requires. */
static void
site_required(struct check *ck, const json_t *row, int *missing)
{
	static const char *more[] = { "llms_txt_page_count", "has_llms_full",
		"verification_date" };
	const char *p = ck->sites_path, *id = json_get_str(row, "site_id");
	json_t *v;
	size_t k;

	for (k = 0; k < 3; k++) {
		v = json_object_get(row, more[k]);
		if (v == NULL) {
			if (!missing[k])
				find(ck, F_SITES, p, 1, "SL-REQUIRED", NULL, NULL,
				    "missing column '%s'", more[k]);
			missing[k] = 1;
		} else if (json_is_null(v) || (json_is_string(v) &&
		    json_string_length(v) == 0 && k != 1)) {
			find(ck, F_SITES, p, jline(row), "SL-REQUIRED", id, NULL,
			    "%s: must not be empty", more[k]);
		}
	}
}

/* Site ids in order: S999 before S1000 (numbers by length), else bytes. */
static int
id_cmp(const char *a, const char *b)
{
	if (site_id_ok(a) && site_id_ok(b) && strlen(a) != strlen(b))
		return strlen(a) < strlen(b) ? -1 : 1;
	return strcmp(a, b);
}

/* The per-row rules of one site-list.csv row. */
static void
site_row(struct check *ck, const json_t *row, const char *prev)
{
	const char *p = ck->sites_path, *id = json_get_str(row, "site_id");
	const char *date = json_get_str(row, "verification_date");
	const char *st = json_get_str(row, "verification_status");
	const char *why = json_get_str(row, "exclusion_reason");
	const char *sector = json_get_str(row, "sector");
	const char *llms = json_get_str(row, "llms_txt_url");
	const char *html = json_get_str(row, "html_docs_url");
	unsigned long l = jline(row);

	if (id && *id && !site_id_ok(id))
		find(ck, F_SITES, p, l, "SL-ID", id, NULL, "site_id '%s' is not of "
		    "the form S001", id);
	if (date && *date && !iso_date(date))
		find(ck, F_SITES, p, l, "SL-DATE", id, NULL, "verification_date "
		    "'%s' is not an ISO 8601 calendar date", date);
	else if (date && *date)
		check_freeze(ck, F_SITES, p, l, id, NULL, "verification_date", date);
	if (llms && *llms && !bctx_url_is_http(llms))
		find(ck, F_SITES, p, l, "SL-URL", id, NULL, "llms_txt_url '%s' is "
		    "not an absolute http(s) URL", llms);
	if (html && *html && !bctx_url_is_http(html))
		find(ck, F_SITES, p, l, "SL-URL", id, NULL, "html_docs_url '%s' is "
		    "not an absolute http(s) URL", html);
	if (sector && *sector && !one_of(sector, sectors))
		find(ck, F_SITES, p, l, "SL-SECTOR", id, NULL, "sector '%s' is not "
		    "in the taxonomy of 001 §1.3", sector);
	if (st && strcmp(st, "EXCLUDED") == 0 && (why == NULL ||
	    strncmp(why, "EC-", 3) != 0 || why[3] < '1' || why[3] > '5'))
		find(ck, F_SITES, p, l, "SL-EXCLUSION", id, NULL, "EXCLUDED "
		    "without an exclusion criterion EC-1 to EC-5 in exclusion_reason");
	else if (st && strcmp(st, "EXCLUDED") != 0 && why && *why)
		find(ck, F_SITES, p, l, "SL-EXCLUSION", id, NULL, "exclusion_reason "
		    "'%s' on a site that is %s", why, st);
	if (prev && id && *id && id_cmp(id, prev) < 0)
		find(ck, F_SITES, p, l, "SL-ORDER", id, NULL, "site_id '%s' after "
		    "'%s': rows not sorted by site_id", id, prev);
}

/* 1 when the row is an included site: PASS, and its site_id seen first. */
static int
included(const struct check *ck, const json_t *row)
{
	const char *id = json_get_str(row, "site_id"), *st = json_get_str(row,
	    "verification_status");

	return id && st && strcmp(st, "PASS") == 0 &&
	    json_object_get(ck->site_by_id, id) == row;
}

/* §1.3: corpus size, sector count and cap, and the documented share. */
static void
sector_rules(struct check *ck)
{
	const char *p = ck->sites_path, *s;
	json_t *count = json_object(), *row, *v;
	size_t i, n = 0, dev = 0;

	json_array_foreach(ck->sites, i, row) {
		if (!included(ck, row) || (s = json_get_str(row, "sector")) == NULL)
			continue;
		n++;
		v = json_object_get(count, s);
		json_object_set_new(count, s, json_integer(v ?
		    json_integer_value(v) + 1 : 1));
	}
	if (n < 30 || n > 50)
		find(ck, F_SITES, p, 0, "CORPUS-SIZE", NULL, NULL, "%zu included "
		    "sites, outside the target of 30 to 50", n);
	if (json_object_size(count) < 4)
		find(ck, F_SITES, p, 0, "SECTOR-COUNT", NULL, NULL, "%zu sector%s "
		    "among the included sites, fewer than 4",
		    json_object_size(count), json_object_size(count) == 1 ? "" : "s");
	for (i = 0; sectors[i]; i++) {
		v = json_object_get(count, sectors[i]);
		if (v && (size_t)json_integer_value(v) * 100 > n * 40)
			find(ck, F_SITES, p, 0, "SECTOR-CAP", NULL, NULL, "sector '%s' "
			    "holds %lld of %zu included sites (%.1f %%), above 40 %%",
			    sectors[i], json_integer_value(v), n,
			    100.0 * (double)json_integer_value(v) / (double)n);
		if (v && i == 0)
			dev = (size_t)json_integer_value(v);
	}
	if (n > 0)
		find(ck, F_SITES, p, 0, "SPEC-SECTOR", NULL, NULL, "001 §1.3 "
		    "documents Developer Tools & APIs as 30 %% (11 of 37 sites); "
		    "this corpus: %zu of %zu included sites (%.1f %%)", dev, n,
		    100.0 * (double)dev / (double)n);
	json_decref(count);
}

static void
check_sites(struct check *ck)
{
	json_t *row;
	size_t i;
	int missing = 0, more[3] = { 0, 0, 0 };
	const char *prev = NULL, *id;

	json_array_foreach(ck->sites, i, row) {
		report_problems(ck, F_SITES, ck->sites_path, row, NULL, NULL,
		    &missing);
		site_required(ck, row, more);
		site_row(ck, row, prev);
		id = json_get_str(row, "site_id");
		if (id && *id) {
			if (json_object_get(ck->site_by_id, id) == NULL)
				json_object_set(ck->site_by_id, id, row);
			prev = id;
		}
	}
	sector_rules(ck);
}

/* ---------------------------------------------------------------- questions */

struct mix {
	size_t n, sf, ms, cr;
};

static void
mix_add(struct mix *m, const char *cx)
{
	m->n++;
	if (strcmp(cx, "single-fact") == 0)
		m->sf++;
	else if (strcmp(cx, "multi-section-synthesis") == 0)
		m->ms++;
	else
		m->cr++;
}

/* Q-COUNT and Q-MIX of one site's questions. */
static void
mix_rules(struct check *ck, const char *file, int forder, unsigned long line,
    const char *site, const struct mix *m)
{
	if (m->n < 5 || m->n > 10)
		find(ck, forder, file, line, "Q-COUNT", site, NULL, "%zu question%s, "
		    "expected 5 to 10", m->n, m->n == 1 ? "" : "s");
	if (m->sf < 2 || m->ms < 2 || m->cr < 1)
		find(ck, forder, file, line, "Q-MIX", site, NULL, "%zu single-fact, "
		    "%zu multi-section-synthesis, %zu conceptual-relationship; "
		    "expected at least 2, 2 and 1", m->sf, m->ms, m->cr);
}

/* SITE-MATCH of one questions.json site object. */
static void
site_match(struct check *ck, const json_t *s, json_t *seen)
{
	const char *p = ck->questions_path, *id = json_get_str(s, "site_id");
	const char *dom = json_get_str(s, "domain"), *st, *rdom;
	json_t *row = json_object_get(ck->site_by_id, id);
	unsigned long l = jline(s);

	if (json_object_get(seen, id)) {
		find(ck, F_QUESTIONS, p, l, "SITE-MATCH", id, NULL, "site '%s' "
		    "appears twice in questions.json", id);
		return;
	}
	json_object_set_new(seen, id, json_true());
	if (row == NULL) {
		find(ck, F_QUESTIONS, p, l, "SITE-MATCH", id, NULL, "site '%s' is "
		    "not in site-list.csv", id);
		return;
	}
	st = json_get_str(row, "verification_status");
	/* another status is SL-STATUS's, an empty one SL-REQUIRED's */
	if (st && (strcmp(st, "FAIL") == 0 || strcmp(st, "EXCLUDED") == 0))
		find(ck, F_QUESTIONS, p, l, "SITE-MATCH", id, NULL, "site '%s' has "
		    "questions but is %s in site-list.csv", id, st);
	rdom = json_get_str(row, "domain");
	if (dom && rdom && *rdom && strcmp(dom, rdom) != 0)
		find(ck, F_QUESTIONS, p, l, "SITE-MATCH", id, NULL, "domain '%s' "
		    "differs from site-list.csv's '%s'", dom, rdom);
}

/* The per-site rules: SITE-MATCH, Q-COUNT, Q-MIX; PASS sites without any. */
static void
check_site_sets(struct check *ck)
{
	json_t *qsites = json_object_get(ck->questions, "sites");
	json_t *qs = json_object_get(ck->questions, "questions");
	json_t *seen = json_object(), *s, *q, *row;
	struct mix *mix;
	size_t i, n = json_array_size(qsites);

	mix = xcalloc(n + 1, sizeof *mix);
	json_array_foreach(qs, i, q)
		mix_add(&mix[json_integer_value(json_object_get(q, "_site_index"))],
		    json_get_str(q, "complexity"));
	json_array_foreach(qsites, i, s) {
		site_match(ck, s, seen);
		mix_rules(ck, ck->questions_path, F_QUESTIONS, jline(s),
		    json_get_str(s, "site_id"), &mix[i]);
	}
	json_array_foreach(ck->sites, i, row) {
		if (included(ck, row) && !json_object_get(seen, json_get_str(row,
		    "site_id"))) {
			struct mix none = { 0, 0, 0, 0 };

			mix_rules(ck, ck->sites_path, F_SITES, jline(row),
			    json_get_str(row, "site_id"), &none);
		}
	}
	free(mix);
	json_decref(seen);
}

/* Q-ID: "{site_id}-Q" and two digits, exactly. */
static int
qid_form_ok(const char *qid, const char *site)
{
	size_t n = strlen(site);

	return strncmp(qid, site, n) == 0 && qid[n] == '-' && qid[n + 1] == 'Q' &&
	    qid[n + 2] >= '0' && qid[n + 2] <= '9' && qid[n + 3] >= '0' &&
	    qid[n + 3] <= '9' && qid[n + 4] == '\0';
}

/* 1 when the last character other than white space is c. */
static int
ends_with(const char *s, char c)
{
	size_t n = strlen(s);

	while (n > 0 && strchr(" \t\r\n", s[n - 1]))
		n--;
	return n > 0 && s[n - 1] == c;
}

/* Q-URL and Q-LLMS of one question. */
static void
question_urls(struct check *ck, const json_t *q, const char *site,
    const char *qid)
{
	const char *p = ck->questions_path, *u;
	json_t *urls = json_object_get(q, "source_urls"), *v, *seen = json_object();
	unsigned long l = fline(q, "source_urls");
	size_t i;
	char *key, *k0;

	json_array_foreach(urls, i, v) {
		u = json_string_value(v);
		if (!bctx_url_is_http(u)) {
			find(ck, F_QUESTIONS, p, l, "Q-URL", site, qid, "source URL "
			    "'%s' is not an absolute http(s) URL", u);
			continue;
		}
		/* the same page under two fragments names two sections: fine */
		k0 = bctx_url_key(u);
		key = xasprintf("%s%s", k0, bctx_url_fragment(u) ?
		    bctx_url_fragment(u) : "");
		free(k0);
		if (json_object_get(seen, key))
			find(ck, F_QUESTIONS, p, l, "Q-URL", site, qid, "source URL "
			    "'%s' listed twice", u);
		json_object_set_new(seen, key, json_true());
		if (ck->have_links) {
			char *dk = bctx_url_defrag(u);
			const struct bctx_link *links;

			if (bctx_env_link_first(&ck->env, site, dk) == 0)
				find(ck, F_QUESTIONS, p, l, "Q-LLMS", site, qid,
				    "source URL '%s' is %snot listed in the site's llms.txt",
				    u, bctx_env_links(&ck->env, site, &links) ? "" :
				    "(no llms.txt links for the site) ");
			free(dk);
		}
		free(key);
	}
	json_decref(seen);
}

static void
question_rules(struct check *ck, const json_t *q)
{
	const char *p = ck->questions_path, *site = json_get_str(q, "site_id");
	const char *qid = json_get_str(q, "question_id");
	const char *cx = json_get_str(q, "complexity");
	size_t ns = json_array_size(json_object_get(q, "source_sections"));
	int foreign = 0;
	json_t *pr;
	size_t i;

	json_array_foreach(json_object_get(q, "_problems"), i, pr)
		if (strcmp(json_get_str(pr, "code"), "foreign_id") == 0)
			foreign = 1;
	if (!foreign && !qid_form_ok(qid, site))
		find(ck, F_QUESTIONS, p, fline(q, "question_id"), "Q-ID", site, qid,
		    "question_id '%s' is not of the form %s-Qnn", qid, site);
	if (!ends_with(json_get_str(q, "text"), '?'))
		find(ck, F_QUESTIONS, p, fline(q, "text"), "Q-TEXT", site, qid,
		    "text does not end with '?'");
	if (strcmp(cx, "single-fact") == 0 && ns != 1)
		find(ck, F_QUESTIONS, p, fline(q, "source_sections"), "Q-SECTIONS",
		    site, qid, "single-fact with %zu source sections, expected one",
		    ns);
	else if (strcmp(cx, "single-fact") != 0 && ns < 2)
		find(ck, F_QUESTIONS, p, fline(q, "source_sections"), "Q-SECTIONS",
		    site, qid, "%s with %zu source section%s, expected two or more",
		    cx, ns, ns == 1 ? "" : "s");
	question_urls(ck, q, site, qid);
}

/* The spec's notes on questions: SPEC-CR and SPEC-URLS. */
static void
question_notes(struct check *ck)
{
	json_t *qs = json_object_get(ck->questions, "questions"), *q, *u;
	json_t *qsites = json_object_get(ck->questions, "sites");
	size_t i, j, nsites = json_array_size(qsites), few = 0, ncr = 0;
	size_t nurl = 0, nhtml = 0, *cr;

	cr = xcalloc(nsites + 1, sizeof *cr);
	json_array_foreach(qs, i, q) {
		if (strcmp(json_get_str(q, "complexity"), "conceptual-relationship") == 0) {
			cr[json_integer_value(json_object_get(q, "_site_index"))]++;
			ncr++;
		}
		json_array_foreach(json_object_get(q, "source_urls"), j, u) {
			nurl++;
			if (bctx_url_kind(json_string_value(u)) == BCTX_URL_HTML)
				nhtml++;
		}
	}
	for (i = 0; i < nsites; i++)
		if (cr[i] < 2)
			few++;
	free(cr);
	find(ck, F_QUESTIONS, ck->questions_path, 0, "SPEC-CR", NULL, NULL,
	    "001 §3.2 asks for 1 conceptual-relationship question per site but "
	    "its rationale counts on 2 per level (74+ over 37 sites); this "
	    "corpus: %zu conceptual-relationship questions, %zu of %zu sites "
	    "with fewer than 2", ncr, few, nsites);
	find(ck, F_QUESTIONS, ck->questions_path, 0, "SPEC-URLS", NULL, NULL,
	    "the example of 001 §3.5 cites HTML pages while source_urls \"must "
	    "be URLs that appear in the site's llms.txt\", which links Markdown; "
	    "this corpus: %zu of %zu source URLs are HTML pages", nhtml, nurl);
}

static void
check_questions(struct check *ck)
{
	json_t *qs = json_object_get(ck->questions, "questions"), *q;
	size_t i;
	int missing = 0;

	json_array_foreach(qs, i, q) {
		report_problems(ck, F_QUESTIONS, ck->questions_path, q, "Q-ID",
		    "Q-DUP", &missing);
		question_rules(ck, q);
		if (json_object_get(ck->q_by_id, json_get_str(q, "question_id")) == NULL)
			json_object_set(ck->q_by_id, json_get_str(q, "question_id"), q);
	}
	check_site_sets(ck);
	question_notes(ck);
}

/* ---------------------------------------------------------------- gold */

/*
 * Sentences of a gold answer (GA-2): a '.', '!' or '?' followed by white
 * space and an upper-case letter or digit, or by the end of the text, ends
 * one, so "e.g. the" and "v1.2" do not.  Returns 0 for text that does not
 * end with such a mark (an unfinished sentence).
 */
static size_t
sentences(const char *s)
{
	size_t n = 0, i, len = strlen(s);
	const char *t;

	while (len > 0 && strchr(" \t\r\n", s[len - 1]))
		len--;
	if (len == 0 || !strchr(".!?", s[len - 1]))
		return 0;
	for (i = 0; i < len; i++) {
		if (!strchr(".!?", s[i]))
			continue;
		if (i + 1 == len) {
			n++;
			break;
		}
		t = s + i + 1;
		if (*t == '"' || *t == ')' || *t == '\'')
			t++;
		if (*t != ' ' && *t != '\n')
			continue;
		while (*t == ' ' || *t == '\n')
			t++;
		if ((*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9'))
			n++;
	}
	return n;
}

/* 1 when the two arrays of URLs hold the same URLs (as keys). */
static int
same_urls(const json_t *a, const json_t *b)
{
	json_t *ka = json_object(), *kb = json_object(), *v;
	size_t i;
	char *k;
	int same;

	json_array_foreach(a, i, v) {
		k = bctx_url_key(json_string_value(v));
		json_object_set_new(ka, k ? k : json_string_value(v), json_true());
		free(k);
	}
	json_array_foreach(b, i, v) {
		k = bctx_url_key(json_string_value(v));
		json_object_set_new(kb, k ? k : json_string_value(v), json_true());
		free(k);
	}
	same = json_equal(ka, kb);
	json_decref(ka);
	json_decref(kb);
	return same;
}

static void
answer_rules(struct check *ck, const json_t *a, json_t *answered)
{
	const char *p = ck->gold_path, *site = json_get_str(a, "site_id");
	const char *qid = json_get_str(a, "question_id");
	const char *date = json_get_str(a, "verified_date");
	const json_t *q = json_object_get(ck->q_by_id, qid);
	size_t ns;

	if (q == NULL)
		find(ck, F_GOLD, p, fline(a, "question_id"), "G-ORPHAN", site, qid,
		    "gold answer for '%s', which questions.json does not hold", qid);
	else if (strcmp(json_get_str(q, "site_id"), site) != 0)
		find(ck, F_GOLD, p, fline(a, "question_id"), "G-ORPHAN", site, qid,
		    "gold answer under site '%s' for a question of site '%s'", site,
		    json_get_str(q, "site_id"));
	else
		json_object_set_new(answered, qid, json_true());
	ns = sentences(json_get_str(a, "gold_answer"));
	if (ns == 0)
		find(ck, F_GOLD, p, fline(a, "gold_answer"), "G-SENTENCES", site, qid,
		    "gold answer does not end a sentence with '.', '!' or '?'");
	else if (ns > 3)
		find(ck, F_GOLD, p, fline(a, "gold_answer"), "G-SENTENCES", site, qid,
		    "gold answer of %zu sentences, expected 1 to 3", ns);
	if (q && !same_urls(json_object_get(a, "source_urls"),
	    json_object_get(q, "source_urls")))
		find(ck, F_GOLD, p, fline(a, "source_urls"), "G-URLS", site, qid,
		    "gold source_urls differ from the question's");
	if (date == NULL)
		find(ck, F_GOLD, p, jline(a), "G-DATE", site, qid,
		    "verified_date missing");
	else if (!iso_date(date))
		find(ck, F_GOLD, p, fline(a, "verified_date"), "G-DATE", site, qid,
		    "verified_date '%s' is not an ISO 8601 calendar date", date);
	else
		check_freeze(ck, F_GOLD, p, fline(a, "verified_date"), site, qid,
		    "verified_date", date);
}

static void
check_gold(struct check *ck)
{
	json_t *as = json_object_get(ck->gold, "answers"), *a, *q;
	json_t *answered = json_object();
	size_t i;
	int missing = 0;

	json_array_foreach(as, i, a) {
		report_problems(ck, F_GOLD, ck->gold_path, a, "G-ORPHAN", "G-DUP",
		    &missing);
		answer_rules(ck, a, answered);
	}
	json_array_foreach(json_object_get(ck->questions, "questions"), i, q)
		if (!json_object_get(answered, json_get_str(q, "question_id")))
			find(ck, F_QUESTIONS, ck->questions_path, fline(q,
			    "question_id"), "G-MISSING", json_get_str(q, "site_id"),
			    json_get_str(q, "question_id"), "no gold answer for this question");
	json_decref(answered);
}

/* ---------------------------------------------------------------- llms.txt */

/* Read the -l files: link records into the env, check records kept. */
static void
read_links(struct check *ck)
{
	struct ndj_reader r;
	json_t *rec, *v;
	const char *kind;
	size_t i;

	ck->verdicts = json_array();
	for (i = 0; i < ck->nlinks; i++) {
		ndj_reader_open(&r, ck->links[i]);
		while ((rec = ndj_next(&r)) != NULL) {
			kind = rec_str_opt(rec, "kind");
			if (kind && strcmp(kind, "check") == 0) {
				rec_str(rec, "site_id");
				rec_str(rec, "verdict");
				v = json_object();
				json_set_new(v, "rec", json_incref(rec));
				json_set_int(v, "file", (long long)i);
				json_set_int(v, "line", (long long)r.line);
				json_array_append_new(ck->verdicts, v);
				ck->have_verdicts = 1;
			} else {
				bctx_env_add_llms(rec, &ck->env);
			}
			json_decref(rec);
		}
		ndj_reader_close(&r);
	}
	ck->have_links = ck->env.have_links;
}

/* The reason bmdprep gave for a failed criterion ("IC-2: ..."), or what. */
static const char *
reason_for(const json_t *rec, const char *crit, const char *what)
{
	json_t *v;
	size_t i, n = strlen(crit);

	json_array_foreach(json_object_get(rec, "reasons"), i, v)
		if (json_is_string(v) && strncmp(json_string_value(v), crit, n) == 0)
			return json_string_value(v);
	return what;
}

static void
check_verdicts(struct check *ck)
{
	json_t *v, *rec, *seen = json_object(), *row;
	size_t i;
	int fi;
	const char *site, *file;
	unsigned long l;

	json_array_foreach(ck->verdicts, i, v) {
		rec = json_object_get(v, "rec");
		fi = (int)json_integer_value(json_object_get(v, "file"));
		file = ck->links[fi];
		l = (unsigned long)json_integer_value(json_object_get(v, "line"));
		site = json_get_str(rec, "site_id");
		json_object_set_new(seen, site, json_true());
		if (json_is_false(json_object_get(rec, "ic1")))
			find(ck, F_LINKS + fi, file, l, "IC-1", site, NULL, "%s",
			    reason_for(rec, "IC-1", "IC-1 failed"));
		if (json_is_false(json_object_get(rec, "ic2")))
			find(ck, F_LINKS + fi, file, l, "IC-2", site, NULL, "%s",
			    reason_for(rec, "IC-2", "IC-2 failed"));
		if (json_is_true(json_object_get(rec, "ec1")))
			find(ck, F_LINKS + fi, file, l, "EC-1", site, NULL, "%s",
			    reason_for(rec, "EC-1", "EC-1: a bare link list"));
	}
	json_array_foreach(ck->sites, i, row)
		if (included(ck, row) && !json_object_get(seen, json_get_str(row, "site_id")))
			find(ck, F_SITES, ck->sites_path, jline(row), "IC-1",
			    json_get_str(row, "site_id"), NULL, "no bmdprep --check record for "
			    "this site's llms.txt");
	json_decref(seen);
}

/* ---------------------------------------------------------------- output */

static int
finding_cmp(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	unsigned long lx = x->line ? x->line : ULONG_MAX;
	unsigned long ly = y->line ? y->line : ULONG_MAX;

	if (x->forder != y->forder)
		return x->forder < y->forder ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
rule_checked(const struct check *ck, size_t r)
{
	return rules[r].need == NEED_NONE ||
	    (rules[r].need == NEED_LINKS && ck->have_links) ||
	    (rules[r].need == NEED_VERDICTS && ck->have_verdicts);
}

static void
emit_json(const struct finding *f)
{
	json_t *o = json_object();

	json_set_str(o, "file", f->file);
	json_set_new(o, "line", f->line ? json_integer((json_int_t)f->line) :
	    json_null());
	json_set_str(o, "rule", rules[f->rule].id);
	json_set_str(o, "section", rules[f->rule].section);
	json_set_str(o, "level", level_name[rules[f->rule].level]);
	json_set_str(o, "site_id", f->site);
	json_set_str(o, "question_id", f->qid);
	json_set_str(o, "message", f->msg);
	ndj_emit_free(o);
}

static void
emit_text(FILE *fp, const struct finding *f)
{
	const struct rule *r = &rules[f->rule];

	if (f->line)
		fprintf(fp, "%s:%lu: ", f->file, f->line);
	else
		fprintf(fp, "%s: ", f->file);
	fprintf(fp, "%s (%s) %s: ", r->id, r->section, level_name[r->level]);
	if (f->qid)
		fprintf(fp, "%s: ", f->qid);
	else if (f->site)
		fprintf(fp, "%s: ", f->site);
	fprintf(fp, "%s\n", f->msg);
}

static void
summary(const struct check *ck, FILE *fp, const size_t *bylevel)
{
	size_t r;

	fprintf(fp, "\n%-13s %-9s %-6s %8s  %s\n", "rule", "section", "level",
	    "findings", "what the rule asks");
	for (r = 0; r < NRULES; r++) {
		fprintf(fp, "%-13s %-10s %-6s ", rules[r].id, rules[r].section,
		    level_name[rules[r].level]);
		if (rule_checked(ck, r))
			fprintf(fp, "%8zu", ck->count[r]);
		else
			fprintf(fp, "%8s", "-");
		fprintf(fp, "  %s\n", rules[r].what);
	}
	fprintf(fp, "\n%zu sites, %zu questions, %zu gold answers: %zu MUST, "
	    "%zu SHOULD, %zu NOTE findings%s%s%s\n", json_array_size(ck->sites),
	    json_array_size(json_object_get(ck->questions, "questions")),
	    json_array_size(json_object_get(ck->gold, "answers")), bylevel[MUST],
	    bylevel[SHOULD], bylevel[NOTE],
	    ck->have_links ? "" : "; Q-LLMS not checked (no link records)",
	    ck->have_verdicts ? "" : "; IC-1, IC-2, EC-1 not checked (no "
	    "bmdprep --check records)",
	    ck->freeze[0] ? "" : "; no corpus freeze date");
}

/* Print everything; return the exit status. */
static int
report(struct check *ck)
{
	size_t i, bylevel[3] = { 0, 0, 0 }, r;
	FILE *fp = ndj_output();
	int status;
	char line[4096];
	size_t off = 0;

	qsort(ck->f, ck->n, sizeof *ck->f, finding_cmp);
	for (i = 0; i < ck->n; i++) {
		if (ck->json)
			emit_json(&ck->f[i]);
		else
			emit_text(fp, &ck->f[i]);
	}
	for (r = 0; r < NRULES; r++)
		bylevel[rules[r].level] += ck->count[r];
	if (!ck->json)
		summary(ck, fp, bylevel);
	status = bylevel[MUST] > 0 || (ck->strict && bylevel[SHOULD] > 0);
	if (status) {
		for (r = 0; r < NRULES && off < sizeof(line); r++)
			if (ck->count[r] && (rules[r].level == MUST ||
			    (ck->strict && rules[r].level == SHOULD)))
				off += (size_t)snprintf(line + off, sizeof(line) - off,
				    "%s%s %zu", off ? ", " : "", rules[r].id, ck->count[r]);
		warn("check: %s rules failed: %s", ck->strict ? "MUST or SHOULD" :
		    "MUST", line);
	}
	return status;
}

/* ---------------------------------------------------------------- main */

static const char usage[] =
"usage: bctx check -s SITES -q QUESTIONS -g GOLD [-c CONFIG] [-l LINKS]...\n"
"                  [--freeze DATE] [--today DATE] [--strict] [--json]\n"
"                  [-o FILE]\n"
"\n"
"The corpus against the rules of spec 001 §1.1-1.3, §1.6, §3.2-3.6: one\n"
"finding per line (FILE:LINE: RULE (SECTION) LEVEL: what), then a table per\n"
"rule.  Exit 1 when a MUST rule fails (--strict: a SHOULD rule too).\n"
"\n"
"  -s, --sites FILE       site-list.csv (spec 001 §1.6)\n"
"  -q, --questions FILE   questions.json (spec 001 §3.5)\n"
"  -g, --gold FILE        gold-answers.json (spec 001 §3.6)\n"
"  -c, --config FILE      benchmark-config.json: its \"created\" date is the\n"
"                         corpus freeze unless --freeze is given\n"
"  -l, --links FILE       bmdprep --llms records (Q-LLMS) and bmdprep --check\n"
"                         records (IC-1, IC-2, EC-1); repeatable\n"
"      --freeze DATE      the corpus freeze date (YYYY-MM-DD)\n"
"      --json             one JSON record per finding, no table\n"
"      --strict           SHOULD rules fail too\n"
"      --today DATE       the date against which future dates are found\n"
"                         (default: today, UTC)\n"
"  -o, --output FILE      write the output to FILE (atomically)\n"
"  -h, --help             show this help\n";

enum { OPT_FREEZE = 256, OPT_JSON, OPT_STRICT, OPT_TODAY };

static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "freeze", required_argument, NULL, OPT_FREEZE },
	{ "gold", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "links", required_argument, NULL, 'l' },
	{ "output", required_argument, NULL, 'o' },
	{ "questions", required_argument, NULL, 'q' },
	{ "sites", required_argument, NULL, 's' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
set_date(char *dst, const char *opt, const char *s)
{
	if (!iso_date(s))
		die_usage("%s: expected an ISO 8601 date YYYY-MM-DD, got '%s'", opt,
		    s);
	memcpy(dst, s, 11);
}

static void
parse_opts(struct check *ck, int argc, char *argv[], const char **output)
{
	int c;

	while ((c = opt_getopt(argc, argv, "c:g:hl:o:q:s:V", longopts,
	    "check")) != -1) {
		switch (c) {
		case 'c': ck->config_path = optarg; break;
		case OPT_FREEZE: set_date(ck->freeze, "--freeze", optarg); break;
		case 'g': ck->gold_path = optarg; break;
		case 'h': opt_help(usage); break;
		case OPT_JSON: ck->json = 1; break;
		case 'l':
			ck->links = xreallocarray(ck->links, ck->nlinks + 2,
			    sizeof *ck->links);
			ck->links[ck->nlinks++] = optarg;
			ck->links[ck->nlinks] = NULL;
			break;
		case 'o': *output = optarg; break;
		case 'q': ck->questions_path = optarg; break;
		case 's': ck->sites_path = optarg; break;
		case OPT_STRICT: ck->strict = 1; break;
		case OPT_TODAY: set_date(ck->today, "--today", optarg); break;
		case 'V': opt_version(); break;
		default: die_usage("bad option");
		}
	}
	if (optind < argc)
		die_usage("check takes no file arguments (links go with -l)");
	if (ck->sites_path == NULL || ck->questions_path == NULL ||
	    ck->gold_path == NULL)
		die_usage("check needs -s/--sites, -q/--questions and -g/--gold");
}

/* The freeze date from the config's "created" when --freeze is not given. */
static void
config_freeze(struct check *ck)
{
	json_t *cfg;
	const char *created;

	if (ck->config_path == NULL)
		return;
	cfg = study_config_load(ck->config_path);
	created = cfg_str(cfg, "created", NULL);
	if (ck->freeze[0] == '\0' && created && iso_date(created))
		memcpy(ck->freeze, created, 11);
	json_decref(cfg);
}

static void
check_free(struct check *ck)
{
	size_t i;

	for (i = 0; i < ck->n; i++) {
		free(ck->f[i].site);
		free(ck->f[i].qid);
		free(ck->f[i].msg);
	}
	free(ck->f);
	free(ck->links);
	json_decref(ck->sites);
	json_decref(ck->site_by_id);
	json_decref(ck->questions);
	json_decref(ck->gold);
	json_decref(ck->q_by_id);
	json_decref(ck->verdicts);
	bctx_env_free(&ck->env);
}

void
bctx_check_main(int argc, char *argv[])
{
	struct check ck;
	const char *output = NULL;
	char now[32];
	int status;

	memset(&ck, 0, sizeof ck);
	parse_opts(&ck, argc, argv, &output);
	if (ck.today[0] == '\0')
		memcpy(ck.today, ctx_utc_now(now, sizeof(now)), 10);
	config_freeze(&ck);
	bctx_env_init(&ck.env);
	ck.sites = study_sites_list(ck.sites_path);
	ck.questions = study_questions_list(ck.questions_path);
	ck.gold = study_gold_list(ck.gold_path);
	ck.site_by_id = json_object();
	ck.q_by_id = json_object();
	read_links(&ck);
	ndj_output_open(output);
	check_sites(&ck);
	check_questions(&ck);
	check_gold(&ck);
	if (ck.have_verdicts)
		check_verdicts(&ck);
	status = report(&ck);
	check_free(&ck);
	ndj_output_close();
	if (fflush(stdout) == EOF || ferror(stdout))
		die_errno("write error");
	exit(status);
}
