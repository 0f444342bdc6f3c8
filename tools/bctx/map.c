/*
 * map.c - the mapping of a question's source URLs to a Condition A page and
 * a Condition B document (issue 5 "bctx plan"; spec 001 §2.1 step 2,
 * §2.3, §2.5).  The rules, first match wins:
 *
 *  1. user: the URL (without fragment, by key) is the html_url or md_url of
 *     a row of the user mapping CSV for the site: A = html_url, B = md_url
 *     (an empty md_url says the page has no Markdown).
 *  2. llms-txt-source / llms-full-txt-source: the URL is an llms.txt (or
 *     llms-full.txt) file: B is that file's content (fetched as condition
 *     llms_txt / llms_full_txt), A is the site's html_docs_url.
 *  3. md-source: the URL's path ends in .md: B is the URL, A its HTML page
 *     ("/x.md" -> "/x", "/d/index.md" -> "/d/").
 *  4. html-source: any other URL: A is the URL, B is the llms.txt link
 *     listed for it: the same URL, URL.md, URL/index.md, URL/index.html.md
 *     or, for x.html, x.md, compared by key (host case, default port,
 *     trailing slashes and fragment do not matter).  No such link: B is
 *     NO_MARKDOWN_MAPPING.
 *
 * A fragment is not part of what is fetched (fetch_url) but stays on the
 * mapped URLs, so records keep it.
 */
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "bctx.h"

/* The links of site_id, or NULL. */
static struct bctx_links *
site_links(const struct bctx_env *e, const char *site_id)
{
	size_t k = wordset_find(&e->link_sites, site_id, strlen(site_id));

	return k ? &e->links[k - 1] : NULL;
}

static void
links_release(struct bctx_env *e)
{
	size_t i, j;

	for (i = 0; i < e->link_sites.n; i++) {
		for (j = 0; j < e->links[i].n; j++) {
			struct bctx_link *l = &e->links[i].v[j];

			free(l->url);	/* the block of its strings */
		}
		free(e->links[i].v);
	}
	free(e->links);
	wordset_release(&e->link_sites);
	wordset_release(&e->link_keys);
	free(e->key_first);
	free(e->key_last);
	buf_release(&e->kb);
}

void
bctx_env_init(struct bctx_env *e)
{
	memset(e, 0, sizeof *e);
	e->sites = json_object();
	e->llms = json_object();
	e->usermap = json_object();
}

void
bctx_env_free(struct bctx_env *e)
{
	json_decref(e->sites);
	json_decref(e->site_list);
	json_decref(e->llms);
	links_release(e);
	json_decref(e->usermap);
}

void
bctx_env_sites(struct bctx_env *e, const char *path)
{
	size_t i;
	json_t *s;

	e->site_list = study_sites_load(path);
	json_array_foreach(e->site_list, i, s)
		json_object_set(e->sites, json_string_value(json_object_get(s,
		    "site_id")), s);
}

char *
bctx_join_nl(const char *const parts[], size_t n, const char *tail)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(&b, '\n');
		buf_adds(&b, parts[i]);
	}
	buf_adds(&b, tail);
	return buf_detach(&b, NULL);
}

static char *
ikey(const char *site_id, const char *url)
{
	char *k = bctx_url_key(url), *r;
	const char *parts[2];

	parts[0] = site_id;
	parts[1] = k ? k : url;
	r = bctx_join_nl(parts, 2, "");
	free(k);
	return r;
}

/* ikey's key put together in b (its contents replaced); 0, or -1 when
 * url has no key (the URL itself is in its place). */
static int
ikey_into(struct buf *b, const char *site_id, const char *url)
{
	buf_reset(b);
	buf_adds(b, site_id);
	buf_addc(b, '\n');
	if (bctx_url_key_buf(b, url) == 0)
		return 0;
	buf_adds(b, url);
	return -1;
}

static json_t *
array_at(json_t *obj, const char *key)
{
	json_t *a = json_object_get(obj, key);

	if (a == NULL) {
		a = json_array();
		json_object_set_new(obj, key, a);
	}
	return a;
}

/* ------------------------------------------------------------- links */

/* Copy s (NULL: none) to *w, returning the copy, *w moved past it. */
static char *
put_opt(char **w, const char *s, size_t n)
{
	char *c = *w;

	if (s == NULL)
		return NULL;
	memcpy(c, s, n + 1);
	*w += n + 1;
	return c;
}

/* The strings of link l copied into one block, l->url at its start;
 * key: the URL's key (NULL: none). */
static void
link_strings(struct bctx_link *l, const char *url, const char *section,
    const char *title, const char *desc, const char *key)
{
	size_t nu = strlen(url), ns = section ? strlen(section) : 0;
	size_t nt = title ? strlen(title) : 0, nd = desc ? strlen(desc) : 0;
	size_t nk = key ? strlen(key) : 0;
	char *w = xmalloc(nu + ns + nt + nd + nk + 5);

	l->url = put_opt(&w, url, nu);
	l->section = put_opt(&w, section, ns);
	l->title = put_opt(&w, title, nt);
	l->desc = put_opt(&w, desc, nd);
	l->key = put_opt(&w, key, nk);
}

/*
 * Add a link of site_id (the strings copied); section_given: the record
 * has a section field, null or not.
 */
static void
add_link(struct bctx_env *e, const char *site_id, const char *url,
    const char *section, int section_given, const char *title,
    const char *desc)
{
	struct bctx_links *ls = site_links(e, site_id);
	struct bctx_link *l;
	size_t k;
	size_t *last;
	int has_key;

	if (ls == NULL) {
		wordset_add(&e->link_sites, site_id, strlen(site_id));
		k = e->link_sites.n;
		e->links = xreallocarray(e->links, k, sizeof *e->links);
		ls = &e->links[k - 1];
		memset(ls, 0, sizeof *ls);
	}
	if (ls->n == ls->cap)
		ls->v = xreallocarray(ls->v, ls->cap = ls->cap ? 2 * ls->cap : 64,
		    sizeof *ls->v);
	/* the links of one key chained in order (positions + 1), found by
	 * the key in the hashed set */
	has_key = ikey_into(&e->kb, site_id, url) == 0;
	/* added at once, found again only when repeated */
	if (wordset_add(&e->link_keys, e->kb.s, e->kb.len) == 1) {
		k = e->link_keys.n;
		if (k > e->key_cap) {
			e->key_cap = e->key_cap ? 2 * e->key_cap : 64;
			e->key_first = xreallocarray(e->key_first, e->key_cap,
			    sizeof *e->key_first);
			e->key_last = xreallocarray(e->key_last, e->key_cap,
			    sizeof *e->key_last);
		}
		e->key_first[k - 1] = ls->n + 1;
	} else {
		k = wordset_find(&e->link_keys, e->kb.s, e->kb.len);
		last = &e->key_last[k - 1];
		ls->v[*last - 1].next = ls->n + 1;
	}
	e->key_last[k - 1] = ls->n + 1;
	l = &ls->v[ls->n++];
	l->next = 0;
	link_strings(l, url, section, title, desc, has_key ? e->kb.s +
	    strlen(site_id) + 1 : NULL);
	l->section_given = section_given;
	e->have_links = 1;
}

void
bctx_env_add_llms(json_t *rec, void *env)
{
	struct bctx_env *e = env;
	const char *kind = rec_str_opt(rec, "kind"), *site, *url, *sec, *title;
	const char *desc;

	if (kind == NULL)
		return;
	if (strcmp(kind, "llms") == 0) {
		site = rec_str(rec, "site_id");
		rec_str(rec, "llms_txt_url");
		rec_str_opt(rec, "title");
		rec_str_opt(rec, "summary");
		rec_str_opt(rec, "info");
		rec_str_opt(rec, "content");
		json_array_append(array_at(e->llms, site), rec);
		e->have_links = 1;
	} else if (strcmp(kind, "link") == 0) {
		site = rec_str(rec, "site_id");
		url = rec_str(rec, "url");
		sec = rec_str_opt(rec, "section");
		title = rec_str_opt(rec, "title");
		desc = rec_str_opt(rec, "description");
		rec_bool_opt(rec, "optional", 0);
		add_link(e, site, url, sec, json_object_get(rec, "section") != NULL,
		    title, desc);
	}
}

int
bctx_env_add_flat(const struct bctx_flat *rec, void *env)
{
	struct bctx_env *e = env;
	const struct bctx_field *opt = bctx_flat_get(rec, "optional");
	const struct bctx_field *sec = bctx_flat_get(rec, "section");
	const char *kind, *site, *url, *section, *title, *desc;

	if (bctx_flat_str_opt(rec, "kind", &kind) < 0 || kind == NULL ||
	    strcmp(kind, "link") != 0 ||
	    bctx_flat_str_opt(rec, "site_id", &site) < 0 || !site ||
	    bctx_flat_str_opt(rec, "url", &url) < 0 || !url ||
	    bctx_flat_str_opt(rec, "section", &section) < 0 ||
	    bctx_flat_str_opt(rec, "title", &title) < 0 ||
	    bctx_flat_str_opt(rec, "description", &desc) < 0 ||
	    (opt && opt->type != BCTX_F_TRUE && opt->type != BCTX_F_FALSE &&
	    opt->type != BCTX_F_NULL))
		return -1;
	add_link(e, site, url, section, sec != NULL, title, desc);
	return 0;
}

void
bctx_env_links_file(struct bctx_env *e, const char *path)
{
	bctx_reader_each(path, bctx_env_add_flat, bctx_env_add_llms, e);
}

void
bctx_env_usermap(struct bctx_env *e, const char *path)
{
	json_t *rows = csv_load_objects(path), *row, *v;
	static const char *const cols[] = { "site_id", "html_url", "md_url", NULL };
	size_t i, c;

	json_array_foreach(rows, i, row) {
		unsigned long line = (unsigned long)json_integer_value(
		    json_object_get(row, "_line"));
		const char *site, *html, *md;
		char *k;

		for (c = 0; cols[c]; c++)
			if (json_object_get(row, cols[c]) == NULL)
				die("%s: missing column '%s' (expected site_id,html_url,"
				    "md_url)", path, cols[c]);
		site = json_string_value(json_object_get(row, "site_id"));
		html = json_string_value(json_object_get(row, "html_url"));
		md = json_string_value(json_object_get(row, "md_url"));
		if (*site == '\0')
			die("%s:%lu: site_id: must not be empty", path, line);
		if (json_object_size(e->sites) > 0 && !json_object_get(e->sites, site))
			die("%s:%lu: site_id '%s' is not in the site list", path, line,
			    site);
		if (!bctx_url_is_http(html))
			die("%s:%lu: html_url: expected an absolute http(s) URL, got '%s'",
			    path, line, html);
		if (*md != '\0' && !bctx_url_is_http(md))
			die("%s:%lu: md_url: expected an absolute http(s) URL or "
			    "nothing, got '%s'", path, line, md);
		v = json_pack("{s:s,s:s,s:I}", "html_url", html, "md_url", md,
		    "line", (json_int_t)line);
		k = ikey(site, html);
		if (json_object_get(e->usermap, k))
			die("%s:%lu: '%s' is mapped twice for site %s", path, line, html,
			    site);
		json_object_set(e->usermap, k, v);
		free(k);
		if (*md != '\0') {
			k = ikey(site, md);
			if (!json_object_get(e->usermap, k))
				json_object_set(e->usermap, k, v);
			free(k);
		}
		json_decref(v);
	}
	json_decref(rows);
}

const struct bctx_link *
bctx_env_link(const struct bctx_env *e, const char *site_id, size_t pos)
{
	const struct bctx_links *ls = site_links(e, site_id);

	return ls && pos < ls->n ? &ls->v[pos] : NULL;
}

size_t
bctx_env_links(const struct bctx_env *e, const char *site_id,
    const struct bctx_link **v)
{
	const struct bctx_links *ls = site_links(e, site_id);

	*v = ls ? ls->v : NULL;
	return ls ? ls->n : 0;
}

size_t
bctx_env_link_first(const struct bctx_env *e, const char *site_id,
    const char *url)
{
	struct buf b = BUF_INIT;
	size_t k;

	ikey_into(&b, site_id, url);
	k = wordset_find(&e->link_keys, b.s, b.len);
	buf_release(&b);
	return k ? e->key_first[k - 1] : 0;
}

/* The positions of site_id's links of url's key, a new array, or NULL. */
static json_t *
lookup_links(const struct bctx_env *e, const char *site_id, const char *url)
{
	const struct bctx_links *ls = site_links(e, site_id);
	size_t i = bctx_env_link_first(e, site_id, url);
	json_t *hits;

	if (i == 0 || ls == NULL)
		return NULL;
	hits = json_array();
	for (; i; i = ls->v[i - 1].next)
		json_array_append_new(hits, json_integer((json_int_t)(i - 1)));
	return hits;
}

static char *
with_frag(const char *url, const char *frag)
{
	char *d;

	if (frag == NULL)
		return xstrdup(url);
	d = bctx_url_defrag(url);
	{
		char *r = xasprintf("%s%s", d, frag);
		free(d);
		return r;
	}
}

void
bctx_map_url(const struct bctx_env *e, const char *site_id, const char *url,
    struct bctx_map *m)
{
	const char *frag = bctx_url_fragment(url);
	char *defrag = bctx_url_defrag(url), *k;
	json_t *site = json_object_get(e->sites, site_id), *um, *hits;
	enum bctx_kind kind = bctx_url_kind(defrag);

	memset(m, 0, sizeof *m);
	m->source = url;
	m->b_cond = "B";
	k = ikey(site_id, defrag);
	um = json_object_get(e->usermap, k);
	free(k);
	if (um) {
		const char *html = json_string_value(json_object_get(um, "html_url"));
		const char *md = json_string_value(json_object_get(um, "md_url"));

		m->rule = "user";
		m->a_url = with_frag(html, frag);
		if (*md) {
			m->b_url = with_frag(md, frag);
			m->b_rule = "user";
			if ((hits = lookup_links(e, site_id, md)) != NULL)
				m->b_links = hits;
		} else {
			m->b_reason = "NO_MARKDOWN_MAPPING";
			m->b_detail = xasprintf("the user mapping (line %lld) gives "
			    "no md_url", (long long)json_integer_value(
			    json_object_get(um, "line")));
		}
	} else if (kind == BCTX_URL_LLMS || kind == BCTX_URL_LLMS_FULL) {
		m->rule = kind == BCTX_URL_LLMS ? "llms-txt-source" :
		    "llms-full-txt-source";
		m->b_cond = kind == BCTX_URL_LLMS ? "llms_txt" : "llms_full_txt";
		m->b_url = xstrdup(url);
		m->b_rule = "llms-txt";
		if (site)
			m->a_url = xstrdup(json_string_value(json_object_get(site,
			    "html_docs_url")));
		else {
			m->a_reason = "NO_HTML_MAPPING";
		}
	} else if (kind == BCTX_URL_MD) {
		char *html = bctx_md_to_html(defrag);

		m->rule = "md-source";
		m->b_url = xstrdup(url);
		m->b_rule = "md-source";
		m->a_url = with_frag(html, frag);
		free(html);
		if ((hits = lookup_links(e, site_id, defrag)) != NULL)
			m->b_links = hits;
	} else {
		char *cand[BCTX_MAXCAND];
		const char *rule[BCTX_MAXCAND];
		size_t n = bctx_md_candidates(defrag, cand, rule), i;

		m->rule = "html-source";
		m->a_url = xstrdup(url);
		for (i = 0; i < n; i++) {
			if (m->b_url == NULL &&
			    (hits = lookup_links(e, site_id, cand[i])) != NULL) {
				const struct bctx_link *l = bctx_env_link(e, site_id,
				    (size_t)json_integer_value(json_array_get(hits, 0)));
				m->b_url = with_frag(l->url, frag);
				m->b_rule = rule[i];
				m->b_links = hits;
			}
			free(cand[i]);
		}
		if (m->b_url == NULL) {
			m->b_reason = "NO_MARKDOWN_MAPPING";
			if (site_links(e, site_id) == NULL)
				m->b_detail = xstrdup("no llms.txt links for the site");
			else
				m->b_detail = xstrdup("no llms.txt link for the URL, URL.md, "
				    "URL/index.md or URL/index.html.md");
		}
	}
	free(defrag);
}

void
bctx_map_release(struct bctx_map *m)
{
	free(m->a_url);
	free(m->b_url);
	free(m->b_detail);
	json_decref(m->b_links);
	memset(m, 0, sizeof *m);
}

unsigned long
bctx_source_line(const char *path, const char *qid, const char *value)
{
	size_t len;
	char *text = read_file(path, &len, 0), *q, *v, *p, *needle;
	json_t *s = json_string(value);
	unsigned long line = 0;

	if (text == NULL || s == NULL)
		goto out;
	needle = xasprintf("\"%s\"", qid);
	q = strstr(text, needle);
	free(needle);
	if (q == NULL)
		goto out;
	needle = json_dumps(s, JSON_ENCODE_ANY);
	v = needle ? strstr(q, needle) : NULL;
	free(needle);
	if (v == NULL)
		v = q;
	line = 1;
	for (p = text; p < v; p++)
		if (*p == '\n')
			line++;
out:
	json_decref(s);
	free(text);
	return line;
}
