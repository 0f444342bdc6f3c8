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
		json_t *l = bctx_env_link(e, site, (size_t)json_integer_value(v));
		json_array_append(i == 0 ? secs : also, json_object_get(l, "section"));
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

int
bctx_plan(const struct bctx_opts *o)
{
	struct bctx_env e;
	struct plan p;
	json_t *qs, *q, *urls, *u, *rules, *unmapped, *unlisted, *stats, *order;
	struct site_stat *st, total;
	size_t i, j, nsites = 0;
	FILE *out;

	bctx_env_init(&e);
	bctx_env_sites(&e, o->sites);
	for (i = 0; i < o->nlinks; i++)
		bctx_env_links_file(&e, o->links[i]);
	if (o->usermap)
		bctx_env_usermap(&e, o->usermap);
	if (o->site && !json_object_get(e.sites, o->site))
		die("%s: site '%s' is not in the site list", o->sites, o->site);

	if (o->url) {		/* one URL, by hand */
		struct bctx_map m;

		bctx_map_url(&e, o->site, o->url, &m);
		ndj_emit_free(map_record(&e, o->site, &m));
		bctx_map_release(&m);
		bctx_env_free(&e);
		return 0;
	}

	qs = study_questions_load(o->questions);
	p.jobs = json_array();
	p.seen = json_object();
	rules = json_object();
	unmapped = json_array();
	unlisted = json_array();
	stats = json_object();
	order = json_array();
	st = xcalloc(json_array_size(e.site_list) + json_array_size(qs) + 1,
	    sizeof *st);
	memset(&total, 0, sizeof total);
	{
		json_t *s;
		json_array_foreach(e.site_list, i, s) {
			json_object_set_new(stats, json_string_value(json_object_get(s,
			    "site_id")), json_integer((json_int_t)nsites++));
			json_array_append(order, json_object_get(s, "site_id"));
		}
	}
	json_array_foreach(qs, i, q) {
		const char *site = json_string_value(json_object_get(q, "site_id"));
		const char *qid = json_string_value(json_object_get(q, "question_id"));
		struct site_stat *s;
		long na = 0, nb = 0, n;

		if (o->site && strcmp(site, o->site) != 0)
			continue;
		if (o->question && strcmp(qid, o->question) != 0)
			continue;
		if (!json_object_get(e.sites, site))
			die("%s:%lu: %s: site '%s' is not in %s", o->questions,
			    bctx_source_line(o->questions, qid, qid), qid, site, o->sites);
		s = &st[json_integer_value(json_object_get(stats, site))];
		urls = json_object_get(q, "source_urls");
		n = (long)json_array_size(urls);
		json_array_foreach(urls, j, u) {
			struct bctx_map m;
			const char *url = json_string_value(u);

			if (!bctx_url_is_http(url))
				die("%s:%lu: %s: source_urls: '%s' is not an absolute "
				    "http(s) URL", o->questions, bctx_source_line(o->questions,
				    qid, url), qid, url);
			bctx_map_url(&e, site, url, &m);
			json_object_set_new(rules, m.rule, json_integer(
			    json_integer_value(json_object_get(rules, m.rule)) + 1));
			if (m.a_url) {
				na++;
				if (!o->condition || strcmp(o->condition, "A") == 0)
					add_job(&p, site, m.a_url, "A", qid);
			}
			if (m.b_url && strcmp(m.b_cond, "B") == 0 &&
			    json_array_size(m.b_links) == 0 &&
			    json_array_size(json_object_get(e.links, site)) > 0)
				json_array_append_new(unlisted, json_pack("{s:s,s:s,s:s}",
				    "site", site, "q", qid, "url", m.b_url));
			if (m.b_url) {
				nb++;
				if (!o->condition || strcmp(o->condition, "B") == 0)
					add_job(&p, site, m.b_url, m.b_cond, qid);
			} else {
				s->unmapped++;
				json_array_append_new(unmapped, json_pack("{s:s,s:s,s:s,s:s}",
				    "site", site, "q", qid, "url", url, "why", m.b_detail));
			}
			bctx_map_release(&m);
		}
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
	if (!o->report) {
		json_t *job;
		json_array_foreach(p.jobs, i, job)
			ndj_emit(job);
	} else {
		out = ndj_output();
		fprintf(out, "# bctx plan report: per site, questions with both "
		    "conditions mapped, only A, only B, none;\n# b_partial: "
		    "questions with some source URLs unmapped for B; unmapped: "
		    "source URLs without Condition B\n");
		if (!e.have_links)
			fprintf(out, "# no llms.txt records given (-l): mapped from the "
			    "URLs alone; HTML pages cannot be mapped to Markdown\n");
		fprintf(out, "site\tquestions\tboth\ta_only\tb_only\tnone\tb_partial\t"
		    "source_urls\tunmapped\n");
		for (i = 0; i < nsites; i++) {
			const char *id = json_string_value(json_array_get(order, i));
			if (o->site && strcmp(id, o->site) != 0)
				continue;
			print_row(out, id, &st[i]);
			stat_add(&total, &st[i]);
		}
		print_row(out, "total", &total);
		fprintf(out, "\nmapping rules used (source URLs):\n");
		{
			static const char *const names[] = { "md-source", "html-source",
			    "llms-txt-source", "llms-full-txt-source", "user", NULL };
			for (i = 0; names[i]; i++)
				fprintf(out, "%s\t%lld\n", names[i], (long long)
				    json_integer_value(json_object_get(rules, names[i])));
		}
		fprintf(out, "\nunmapped for condition B (NO_MARKDOWN_MAPPING):\n");
		{
			json_t *x;
			json_array_foreach(unmapped, i, x)
				fprintf(out, "%s\t%s\t%s\t%s\n",
				    json_string_value(json_object_get(x, "site")),
				    json_string_value(json_object_get(x, "q")),
				    json_string_value(json_object_get(x, "url")),
				    json_string_value(json_object_get(x, "why")));
			if (json_array_size(unmapped) == 0)
				fprintf(out, "(none)\n");
		}
		if (e.have_links) {
			json_t *x;
			fprintf(out, "\ncondition B documents not linked from the site's "
			    "llms.txt (001 §3.5):\n");
			json_array_foreach(unlisted, i, x)
				fprintf(out, "%s\t%s\t%s\n",
				    json_string_value(json_object_get(x, "site")),
				    json_string_value(json_object_get(x, "q")),
				    json_string_value(json_object_get(x, "url")));
			if (json_array_size(unlisted) == 0)
				fprintf(out, "(none)\n");
		}
	}
	free(st);
	json_decref(order);
	json_decref(stats);
	json_decref(unmapped);
	json_decref(unlisted);
	json_decref(rules);
	json_decref(p.seen);
	json_decref(p.jobs);
	json_decref(qs);
	bctx_env_free(&e);
	return 0;
}
