/*
 * plan.c - bctx plan: from questions.json, site-list.csv and the parsed
 * llms.txt links, the fetch jobs for bfetch (one per site, URL and
 * condition, first appearance first) or, with --report, how many questions
 * of each site get both conditions, one or none, and which URLs could not
 * be mapped and why (spec 001 §2.1 "Archival protocol", §2.5).
 */
#include <string.h>

#include "ctx.h"
#include "bctx.h"

struct plan {
	json_t *jobs;		/* array of job objects, in order */
	json_t *seen;		/* "site\ncond\nkey" -> job, "...\nqid" -> true */
};

/*
 * The job of a page, one per (site, condition, page): the page is the URL's
 * key without its fragment (bctx_url_key), so URLs that differ only by
 * fragment, trailing slash, host case or default port are fetched once,
 * under the first one's spelling without its fragment.
 */
static void
add_job(struct plan *p, const char *site, const char *url, const char *cond,
    const char *qid)
{
	char *uk = bctx_url_key(url);
	char *k = xasprintf("%s\n%s\n%s", site, cond, uk ? uk : url), *kq;
	json_t *job = json_object_get(p->seen, k);

	if (job == NULL) {
		char *fetch = bctx_url_defrag(url);

		job = json_object();
		json_set_str(job, "site_id", site);
		json_set_str(job, "url", fetch);
		json_set_str(job, "condition", cond);
		free(fetch);
		if (qid)
			json_set_new(job, "question_ids", json_array());
		json_array_append_new(p->jobs, job);
		json_object_set(p->seen, k, job);
	}
	if (qid) {
		/* "key\nqid" marks a question already on the job */
		kq = xasprintf("%s\n%s", k, qid);
		if (!json_object_get(p->seen, kq)) {
			json_object_set_new(p->seen, kq, json_true());
			json_array_append_new(json_object_get(job, "question_ids"),
			    json_string(qid));
		}
		free(kq);
	}
	free(k);
	free(uk);
}

/* One --url mapping, as a record (debugging aid). */
static json_t *
map_record(const struct bctx_env *e, const char *site, const struct bctx_map *m)
{
	json_t *r = json_object(), *secs = json_array(), *also = json_array(), *v;
	size_t i;

	json_set_str(r, "site_id", site);
	json_set_str(r, "source_url", m->source);
	json_set_str(r, "mapping", m->rule);
	if (m->a_url)
		json_set_str(r, "a_url", m->a_url);
	else
		json_set_null(r, "a_url");
	if (m->b_url)
		json_set_str(r, "b_url", m->b_url);
	else
		json_set_null(r, "b_url");
	json_set_str(r, "b_condition", m->b_cond);
	if (m->b_rule)
		json_set_str(r, "b_rule", m->b_rule);
	else
		json_set_null(r, "b_rule");
	/* one page, one section: its first listing; the others are named */
	json_array_foreach(m->b_links, i, v) {
		const struct bctx_link *l = bctx_env_link(e, site,
		    (size_t)json_integer_value(v));

		/* the section as the record gave it: a string, null, or none */
		if (l->section || l->section_given)
			json_array_append_new(i == 0 ? secs : also, l->section ?
			    json_string(l->section) : json_null());
	}
	json_set_new(r, "sections", secs);
	json_set_new(r, "also_listed_under", also);
	if (m->a_reason)
		json_set_str(r, "a_reason", m->a_reason);
	json_set_new(r, "exclusion_reason", m->b_reason ? json_string(m->b_reason) :
	    json_null());
	if (m->b_detail)
		json_set_str(r, "detail", m->b_detail);
	return r;
}

struct site_stat {
	long questions, both, a_only, b_only, none, b_partial, urls, unmapped;
};

static void
print_row(FILE *fp, const char *name, const struct site_stat *s)
{
	fprintf(fp, "%s\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\n", name,
	    s->questions, s->both, s->a_only, s->b_only, s->none, s->b_partial,
	    s->urls, s->unmapped);
}

static void
stat_add(struct site_stat *t, const struct site_stat *s)
{
	t->questions += s->questions;
	t->both += s->both;
	t->a_only += s->a_only;
	t->b_only += s->b_only;
	t->none += s->none;
	t->b_partial += s->b_partial;
	t->urls += s->urls;
	t->unmapped += s->unmapped;
}

/* What a plan run gathers for the jobs and the report. */
struct plan_run {
	const struct bctx_opts *o;
	struct bctx_env e;
	struct plan p;
	json_t *rules;		/* rule name -> count of source URLs */
	json_t *unmapped;	/* [{site, q, url, why}] */
	json_t *unlisted;	/* [{site, q, url}]: B documents not in llms.txt */
	json_t *stats;		/* site_id -> index into st */
	json_t *order;		/* site ids in site-list order */
	struct site_stat *st;
	size_t nsites;
};

/* Map one source URL of question qid; add its jobs and counts. */
static void
plan_url(struct plan_run *r, const char *site, const char *qid,
    const char *url, struct site_stat *s, long *na, long *nb)
{
	const struct bctx_opts *o = r->o;
	const struct bctx_link *links;
	struct bctx_map m;

	if (!bctx_url_is_http(url))
		die("%s:%lu: %s: source_urls: '%s' is not an absolute http(s) URL",
		    o->questions, bctx_source_line(o->questions, qid, url), qid,
		    url);
	bctx_map_url(&r->e, site, url, &m);
	json_object_set_new(r->rules, m.rule, json_integer(
	    json_integer_value(json_object_get(r->rules, m.rule)) + 1));
	if (m.a_url) {
		(*na)++;
		if (!o->condition || strcmp(o->condition, "A") == 0)
			add_job(&r->p, site, m.a_url, "A", qid);
	}
	if (m.b_url && strcmp(m.b_cond, "B") == 0 &&
	    json_array_size(m.b_links) == 0 &&
	    bctx_env_links(&r->e, site, &links) > 0)
		json_array_append_new(r->unlisted, json_pack("{s:s,s:s,s:s}",
		    "site", site, "q", qid, "url", m.b_url));
	if (m.b_url) {
		(*nb)++;
		if (!o->condition || strcmp(o->condition, "B") == 0)
			add_job(&r->p, site, m.b_url, m.b_cond, qid);
	} else {
		s->unmapped++;
		json_array_append_new(r->unmapped, json_pack("{s:s,s:s,s:s,s:s}",
		    "site", site, "q", qid, "url", url, "why", m.b_detail));
	}
	bctx_map_release(&m);
}

static void
plan_question(struct plan_run *r, const json_t *q)
{
	const struct bctx_opts *o = r->o;
	const char *site = json_string_value(json_object_get(q, "site_id"));
	const char *qid = json_string_value(json_object_get(q, "question_id"));
	json_t *urls = json_object_get(q, "source_urls"), *u;
	struct site_stat *s;
	long na = 0, nb = 0, n;
	size_t j;

	if (o->site && strcmp(site, o->site) != 0)
		return;
	if (o->question && strcmp(qid, o->question) != 0)
		return;
	if (!json_object_get(r->e.sites, site))
		die("%s:%lu: %s: site '%s' is not in %s", o->questions,
		    bctx_source_line(o->questions, qid, qid), qid, site, o->sites);
	s = &r->st[json_integer_value(json_object_get(r->stats, site))];
	n = (long)json_array_size(urls);
	json_array_foreach(urls, j, u)
		plan_url(r, site, qid, json_string_value(u), s, &na, &nb);
	s->questions++;
	s->urls += n;
	if (na > 0 && nb > 0)
		s->both++;
	else if (na > 0)
		s->a_only++;
	else if (nb > 0)
		s->b_only++;
	else
		s->none++;
	if (nb > 0 && nb < n)
		s->b_partial++;
}

/* Print the list of {site, q, url[, why]} entries, or "(none)". */
static void
print_list(FILE *out, const json_t *list, int why)
{
	json_t *x;
	size_t i;

	json_array_foreach(list, i, x) {
		fprintf(out, "%s\t%s\t%s",
		    json_string_value(json_object_get(x, "site")),
		    json_string_value(json_object_get(x, "q")),
		    json_string_value(json_object_get(x, "url")));
		if (why)
			fprintf(out, "\t%s", json_string_value(json_object_get(x,
			    "why")));
		fputc('\n', out);
	}
	if (json_array_size(list) == 0)
		fprintf(out, "(none)\n");
}

static void
print_report(struct plan_run *r)
{
	static const char *const names[] = { "md-source", "html-source",
	    "llms-txt-source", "llms-full-txt-source", "user", NULL };
	FILE *out = ndj_output();
	struct site_stat total;
	size_t i;

	memset(&total, 0, sizeof total);
	fprintf(out, "# bctx plan report: per site, questions with both "
	    "conditions mapped, only A, only B, none;\n# b_partial: "
	    "questions with some source URLs unmapped for B; unmapped: "
	    "source URLs without Condition B\n");
	if (!r->e.have_links)
		fprintf(out, "# no llms.txt records given (-l): mapped from the "
		    "URLs alone; HTML pages cannot be mapped to Markdown\n");
	fprintf(out, "site\tquestions\tboth\ta_only\tb_only\tnone\tb_partial\t"
	    "source_urls\tunmapped\n");
	for (i = 0; i < r->nsites; i++) {
		const char *id = json_string_value(json_array_get(r->order, i));
		if (r->o->site && strcmp(id, r->o->site) != 0)
			continue;
		print_row(out, id, &r->st[i]);
		stat_add(&total, &r->st[i]);
	}
	print_row(out, "total", &total);
	fprintf(out, "\nmapping rules used (source URLs):\n");
	for (i = 0; names[i]; i++)
		fprintf(out, "%s\t%lld\n", names[i], (long long)
		    json_integer_value(json_object_get(r->rules, names[i])));
	fprintf(out, "\nunmapped for condition B (NO_MARKDOWN_MAPPING):\n");
	print_list(out, r->unmapped, 1);
	if (r->e.have_links) {
		fprintf(out, "\ncondition B documents not linked from the site's "
		    "llms.txt (001 §3.5):\n");
		print_list(out, r->unlisted, 0);
	}
}

static void
plan_run_free(struct plan_run *r)
{
	free(r->st);
	json_decref(r->order);
	json_decref(r->stats);
	json_decref(r->unmapped);
	json_decref(r->unlisted);
	json_decref(r->rules);
	json_decref(r->p.seen);
	json_decref(r->p.jobs);
	bctx_env_free(&r->e);
}

int
bctx_plan(const struct bctx_opts *o)
{
	struct plan_run r;
	json_t *qs, *q, *s;
	size_t i;

	memset(&r, 0, sizeof r);
	r.o = o;
	bctx_env_init(&r.e);
	bctx_env_sites(&r.e, o->sites);
	for (i = 0; i < o->nlinks; i++)
		bctx_env_links_file(&r.e, o->links[i]);
	if (o->usermap)
		bctx_env_usermap(&r.e, o->usermap);
	if (o->site && !json_object_get(r.e.sites, o->site))
		die("%s: site '%s' is not in the site list", o->sites, o->site);
	if (o->url) {		/* one URL, by hand */
		struct bctx_map m;

		bctx_map_url(&r.e, o->site, o->url, &m);
		ndj_emit_free(map_record(&r.e, o->site, &m));
		bctx_map_release(&m);
		bctx_env_free(&r.e);
		return 0;
	}
	qs = study_questions_load(o->questions);
	r.p.jobs = json_array();
	r.p.seen = json_object();
	r.rules = json_object();
	r.unmapped = json_array();
	r.unlisted = json_array();
	r.stats = json_object();
	r.order = json_array();
	r.st = xcalloc(json_array_size(r.e.site_list) + 1, sizeof *r.st);
	json_array_foreach(r.e.site_list, i, s) {
		json_object_set_new(r.stats, json_string_value(json_object_get(s,
		    "site_id")), json_integer((json_int_t)r.nsites++));
		json_array_append(r.order, json_object_get(s, "site_id"));
	}
	json_array_foreach(qs, i, q)
		plan_question(&r, q);
	if (!o->report)
		json_array_foreach(r.p.jobs, i, s)
			ndj_emit(s);
	else
		print_report(&r);
	json_decref(qs);
	plan_run_free(&r);
	return 0;
}
