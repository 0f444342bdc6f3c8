/*
 * assemble.c - bctx assemble: one context record per (site, question,
 * condition) from the questions, the extracted pages (bread records,
 * condition A), the prepared Markdown (bmdprep records, condition B) and
 * the parsed llms.txt (bmdprep --llms records).  Pages are found by
 * (site_id, url, condition), the URL being the one bctx plan mapped the
 * source URL to: never by URL alone (spec 001 §2.4, §2.5; DESIGN.md
 * "Keys").
 *
 * Condition A: page texts in source_urls order joined by "\n\n---\n\n".
 * Condition B: the <project><section><doc> context of §2.3 holding only
 * the question's documents, sections in llms.txt order, documents in link
 * order; a document linked from an Optional section appears only because
 * the question cites it.  --style reference writes it as the reference
 * create_ctx does (llms_txt/core.py with fastcore's to_xml, do_escape off).
 *
 * The condition variants the config declares (variants.h; spec 001 §7
 * L-IV-2..4) follow each question's A and B records, in declaration order:
 * B-plain is B's documents joined without the tags, A-markdown and A-whole
 * are assembled as A from the page records bread --variant stamped with
 * their name, and a prompt variant is the content of its `of` under its own
 * template.  Without variants the output is what it always was.
 */
#define _XOPEN_SOURCE 700
#include <assert.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "variants.h"
#include "words.h"
#include "bctx.h"

/*
 * What the contexts read of a page record kept (a wanted one): the body
 * (text for condition A and its variants, markdown otherwise) when the
 * page is usable, why it may not be, and the values its page entry copies
 * as given (new references, null when absent).
 */
struct page {
	const char *fetch_status;	/* NULL when absent or null (the string
					 * of fetch_status_v) */
	char *exclusion;	/* exclusion_reason, NULL when absent or null */
	long long http_status;
	int has_http;		/* http_status is an integer */
	int is_text;		/* the body is bread's text (condition A) */
	int usable;
	const char *body;	/* NULL when not a string or not usable */
	size_t blen;		/* strlen(body) */
	char *block;		/* the block holding body, or NULL */
	json_t *archive_path, *fetch_status_v, *last_modified;
};

struct asm_state {
	const struct bctx_opts *o;
	struct bctx_env env;
	struct wordset wanted;	/* "site\nkey" of every page a context may use */
	struct wordset pagekeys;	/* "site\ncond\nurl#fragment" */
	struct buf uk;		/* the URL key of the page at hand */
	struct buf key;		/* an index key put together */
	struct page *pagev;	/* the page of pagekeys' word i */
	size_t pagecap;
	json_t *gold;		/* question_id -> gold object, or NULL */
	json_t *cfg;
	struct variants vars;	/* the config's variants (none without -c) */
	json_t *vseen;		/* variant -> true: a page record carried it */
	size_t ncontexts;	/* context records written */
	json_t *excluded;	/* exclusion_reason -> contexts excluded for it */
	struct out {		/* the context record being written */
		struct buf b;	/* its members not yet written */
		size_t n;	/* members so far */
	} out;
};

/* ---------------------------------------------------------------- page index */

static int
usable(const json_t *rec)
{
	const char *fs = json_string_value(json_object_get(rec, "fetch_status"));
	json_t *ex = json_object_get(rec, "exclusion_reason");

	return (fs == NULL || strcmp(fs, "SUCCESS") == 0) &&
	    (ex == NULL || json_is_null(ex));
}

/*
 * The index key of a page into b: site, condition and the URL's key (host
 * case, default port, trailing slash do not matter), with the fragment
 * when with_frag: two questions may cite two anchors of one page.  k is
 * the URL's key (url_key_into, NULL when it has none).  The keys of the
 * page index are put together in buffers of the state, not allocated one
 * by one.
 */
static void
page_key_into(struct buf *b, const char *site, const char *cond,
    const char *url, const char *k, int with_frag)
{
	const char *f = bctx_url_fragment(url);

	buf_reset(b);
	buf_adds(b, site);
	buf_addc(b, '\n');
	buf_adds(b, cond);
	buf_addc(b, '\n');
	buf_adds(b, k ? k : url);
	if (k && f && with_frag)
		buf_adds(b, f);
}

/* The key of url (bctx_url_key) into b, or NULL when it has none. */
static const char *
url_key_into(struct buf *b, const char *url)
{
	buf_reset(b);
	return bctx_url_key_buf(b, url) == 0 ? buf_str(b) : NULL;
}

/* Add "site\nkey(url)" to the wanted pages (url may be NULL). */
static void
want_url(struct asm_state *st, const char *site, const char *url)
{
	struct buf *b = &st->key;

	if (url == NULL)
		return;
	buf_reset(b);
	buf_adds(b, site);
	buf_addc(b, '\n');
	if (bctx_url_key_buf(b, url) == 0)
		wordset_add(&st->wanted, b->s, b->len);
}

/*
 * The pages the questions may use, before any page is read: for each
 * source URL the URL itself, its HTML page (.md source), every Markdown
 * form an llms.txt may list it under, and what the mapping known so far
 * (user map, llms.txt records given with -l, the site list) says.  Only
 * these pages are kept, so memory follows the questions, not the input.
 * With --all-links every page of a question's site is wanted ("site\n").
 */
static void
want_pages(struct asm_state *st, const json_t *qs)
{
	const struct bctx_opts *o = st->o;
	const json_t *q, *u;
	size_t i, j, k, nc;

	json_array_foreach(qs, i, q) {
		const char *site = json_string_value(json_object_get(q, "site_id"));
		const char *qid = json_string_value(json_object_get(q,
		    "question_id"));

		if ((o->site && strcmp(site, o->site) != 0) ||
		    (o->question && strcmp(qid, o->question) != 0))
			continue;
		if (o->all_links) {
			char *sk = xasprintf("%s\n", site);
			wordset_add(&st->wanted, sk, strlen(sk));
			free(sk);
		}
		json_array_foreach(json_object_get(q, "source_urls"), j, u) {
			const char *url = json_string_value(u);
			char *cand[BCTX_MAXCAND], *h;
			const char *rule[BCTX_MAXCAND];
			struct bctx_map m;

			if (!url || !bctx_url_is_http(url))
				continue;
			want_url(st, site, url);
			h = bctx_md_to_html(url);
			want_url(st, site, h);
			free(h);
			nc = bctx_md_candidates(url, cand, rule);
			for (k = 0; k < nc; k++) {
				want_url(st, site, cand[k]);
				free(cand[k]);
			}
			bctx_map_url(&st->env, site, url, &m);
			want_url(st, site, m.a_url);
			want_url(st, site, m.b_url);
			bctx_map_release(&m);
		}
	}
}

/* A page some context may use (see want_pages)?  k: its URL's key (NULL:
 * none). */
static int
wanted(struct asm_state *st, const char *site, const char *k)
{
	struct buf *b = &st->key;

	buf_reset(b);
	buf_adds(b, site);
	buf_addc(b, '\n');
	buf_adds(b, k ? k : "");
	/* the site's every page first: --all-links asks that alone */
	return wordset_find(&st->wanted, b->s, strlen(site) + 1) > 0 ||
	    wordset_find(&st->wanted, b->s, b->len) > 0;
}

static void
page_release(struct page *p)
{
	free(p->exclusion);
	free(p->block);
	json_decref(p->archive_path);
	json_decref(p->fetch_status_v);
	json_decref(p->last_modified);
}

/*
 * Does a context want the page of site's url?  When it does, st->uk holds
 * the URL's key for keep_page (*has_k: there is one); when none does, the
 * record is validated, not kept.  variant (NULL: none) is noted as seen.
 * The readers of both forms of a page record ask this before they copy
 * the page.
 */
static int
wanted_key(struct asm_state *st, const char *site, const char *url,
    const char *variant, int *has_k)
{
	const char *k;

	if (variant)
		json_object_set_new(st->vseen, variant, json_true());
	k = url_key_into(&st->uk, url);
	*has_k = k != NULL;
	return wanted(st, site, k);
}

/*
 * Keep page p (taken) of site's url (has_k: st->uk holds its key, from
 * wanted_key) under condition cond, or under variant's name when not NULL
 * (a variant's pages apart from condition A's).  A re-run may repeat a
 * page: a usable record wins, else the last.
 */
static void
keep_page(struct asm_state *st, const char *site, const char *cond,
    const char *variant, const char *url, int has_k, struct page *p)
{
	size_t k;

	page_key_into(&st->key, site, variant ? variant : cond, url,
	    has_k ? buf_str(&st->uk) : NULL, 1);
	/* added at once: a page is seldom repeated */
	if (wordset_add(&st->pagekeys, st->key.s, st->key.len) == 1) {
		k = st->pagekeys.n;
		if (k > st->pagecap)
			st->pagev = xreallocarray(st->pagev, st->pagecap =
			    st->pagecap ? 2 * st->pagecap : 64, sizeof *st->pagev);
		st->pagev[k - 1] = *p;
		return;
	}
	k = wordset_find(&st->pagekeys, st->key.s, st->key.len);
	if (p->usable || !st->pagev[k - 1].usable) {
		page_release(&st->pagev[k - 1]);
		st->pagev[k - 1] = *p;
	} else
		page_release(p);
}

static json_t *
value_or_null(json_t *v)
{
	return v ? json_incref(v) : json_null();
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A page record read by the common reader (any record bctx takes) into
 * the struct asm_state at arg. */
static void
index_page_json(json_t *rec, void *arg)
{
	struct asm_state *st = arg;
	const char *site, *url, *cond, *fs, *variant, *body;
	struct page p;
	json_t *h;
	int k;

	if (json_object_get(rec, "kind")) {
		bctx_env_add_llms(rec, &st->env);
		return;
	}
	site = rec_str(rec, "site_id");
	url = rec_str(rec, "url");
	cond = rec_str(rec, "condition");
	fs = rec_str_opt(rec, "fetch_status");
	variant = rec_str_opt(rec, "variant");
	if (variant && strcmp(cond, "A") != 0)
		ndj_die("variant: a variant's page is a condition A record (bread "
		    "--variant), not condition %s", cond);
	rec_str_opt(rec, "exclusion_reason");
	if (usable(rec)) {
		if (strcmp(cond, "A") == 0 && fs && !json_object_get(rec, "text"))
			ndj_die("no text: a fetched condition A page is read from "
			    "bread's records (run bread first)");
		if (strcmp(cond, "B") == 0 && fs &&
		    !json_object_get(rec, "markdown"))
			ndj_die("no markdown: a fetched condition B page is read "
			    "from bmdprep's records (run bmdprep first)");
		if (strcmp(cond, "A") == 0 && fs)
			rec_str(rec, "text");		/* bread's output */
		else if (strcmp(cond, "B") == 0 && fs)
			rec_str(rec, "markdown");	/* bmdprep's output */
	}
	if (!wanted_key(st, site, url, variant, &k))
		return;
	memset(&p, 0, sizeof p);
	p.exclusion = dup_or_null(rec_str_opt(rec, "exclusion_reason"));
	h = json_object_get(rec, "http_status");
	p.has_http = json_is_integer(h);
	p.http_status = p.has_http ? (long long)json_integer_value(h) : 0;
	p.is_text = strcmp(cond, "A") == 0;
	p.usable = usable(rec);
	body = json_string_value(json_object_get(rec, p.is_text ? "text" :
	    "markdown"));
	p.body = p.block = p.usable ? dup_or_null(body) : NULL;
	p.blen = p.body ? strlen(p.body) : 0;
	p.archive_path = value_or_null(json_object_get(rec, "archive_path"));
	p.fetch_status_v = value_or_null(json_object_get(rec, "fetch_status"));
	p.fetch_status = json_string_value(p.fetch_status_v);
	p.last_modified = value_or_null(json_object_get(rec, "last_modified"));
	keep_page(st, site, cond, variant, url, k, &p);
}

/*
 * A flat page record that index_page_json would take without a word: its
 * page kept when wanted, 0.  -1 (nothing done) for any other record:
 * index_page_json reads it and says what is wrong with it.  arg: the
 * struct asm_state.
 */
static int
index_page_flat(const struct bctx_flat *rec, void *arg)
{
	struct asm_state *st = arg;
	const struct bctx_field *h, *bf;
	const char *site, *url, *cond, *fs, *variant, *ex;
	struct page p;
	int is_a, use, k;

	if (bctx_flat_get(rec, "kind"))		/* an llms.txt record */
		return bctx_env_add_flat(rec, &st->env);
	if (bctx_flat_str_opt(rec, "site_id", &site) < 0 || !site ||
	    bctx_flat_str_opt(rec, "url", &url) < 0 || !url ||
	    bctx_flat_str_opt(rec, "condition", &cond) < 0 || !cond ||
	    bctx_flat_str_opt(rec, "fetch_status", &fs) < 0 ||
	    bctx_flat_str_opt(rec, "variant", &variant) < 0 ||
	    bctx_flat_str_opt(rec, "exclusion_reason", &ex) < 0)
		return -1;
	is_a = strcmp(cond, "A") == 0;
	if (variant && !is_a)
		return -1;
	use = (fs == NULL || strcmp(fs, "SUCCESS") == 0) && ex == NULL;
	bf = bctx_flat_get(rec, is_a ? "text" : "markdown");
	/* a fetched usable A or B page has its text or markdown */
	if (use && fs && (is_a || strcmp(cond, "B") == 0) &&
	    (bf == NULL || bf->type != BCTX_F_STR))
		return -1;
	if (!wanted_key(st, site, url, variant, &k))
		return 0;
	memset(&p, 0, sizeof p);
	p.exclusion = dup_or_null(ex);
	h = bctx_flat_get(rec, "http_status");
	p.has_http = h && h->type == BCTX_F_NUM && !strpbrk(h->s, ".eE");
	p.http_status = p.has_http ? strtoll(h->s, NULL, 10) : 0;
	p.is_text = is_a;
	p.usable = use;
	/* a long body kept where it was read, not copied */
	if (use && bf && bf->type == BCTX_F_STR) {
		p.body = bctx_flat_keep(rec, bf, &p.block);
		p.blen = bf->len;	/* no NUL: \u0000 is the common reader's */
	}
	p.archive_path = bctx_flat_value(bctx_flat_get(rec, "archive_path"));
	p.fetch_status_v = bctx_flat_value(bctx_flat_get(rec, "fetch_status"));
	p.fetch_status = json_string_value(p.fetch_status_v);
	p.last_modified = bctx_flat_value(bctx_flat_get(rec, "last_modified"));
	keep_page(st, site, cond, variant, url, k, &p);
	return 0;
}

/* Every record of the page files (none: standard input). */
static void
read_pages(struct asm_state *st, int nfiles, char *const files[])
{
	int i;

	for (i = 0; i < (nfiles > 0 ? nfiles : 1); i++)
		bctx_reader_each(nfiles > 0 ? files[i] : NULL, index_page_flat,
		    index_page_json, st);
}

/* The page of site's url under cond; uk: the URL's key (NULL: none). */
static const struct page *
find_page_key(struct asm_state *st, const char *site, const char *cond,
    const char *url, const char *uk)
{
	size_t k;

	page_key_into(&st->key, site, cond, url, uk, 1);
	k = wordset_find(&st->pagekeys, st->key.s, st->key.len);
	if (k == 0 && bctx_url_fragment(url)) {
		page_key_into(&st->key, site, cond, url, uk, 0);
		k = wordset_find(&st->pagekeys, st->key.s, st->key.len);
	}
	return k ? &st->pagev[k - 1] : NULL;
}

static const struct page *
find_page(struct asm_state *st, const char *site, const char *cond,
    const char *url)
{
	return find_page_key(st, site, cond, url, url_key_into(&st->uk, url));
}

/* Why a page cannot be used (a §2.5 reason), or NULL. */
static const char *
page_reason(const struct page *p, char *tmp, size_t tmplen)
{
	if (p == NULL)
		return "NOT_ARCHIVED";
	if (p->fetch_status && strcmp(p->fetch_status, "SUCCESS") != 0) {
		if (strcmp(p->fetch_status, "HTTP_ERROR") == 0 && p->has_http) {
			snprintf(tmp, tmplen, "HTTP_%lld", p->http_status);
			return tmp;
		}
		return p->fetch_status;
	}
	if (p->exclusion)
		return p->exclusion;
	if (p->body == NULL)
		return "NOT_ARCHIVED";
	if (*p->body == '\0')
		return p->is_text ? "JS_ONLY" : "EMPTY_CONTENT";
	return NULL;
}

/* ---------------------------------------------------------------- helpers */

static time_t
http_date(const char *s)
{
	struct tm tm;
	const char *e;

	memset(&tm, 0, sizeof tm);
	e = strptime(s, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (e == NULL || *e != '\0') {
		memset(&tm, 0, sizeof tm);
		e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
		if (e == NULL)
			return (time_t)-1;
	}
	return timegm(&tm);
}

/* {url, reason} appended to dropped, made as json_pack("{s:s,s:s}")
 * makes it, without reading a format: nothing appended when either
 * string is missing or not UTF-8, where json_pack gives NULL. */
static void
add_dropped(json_t *dropped, const char *url, const char *reason)
{
	json_t *u = url ? json_string(url) : NULL;
	json_t *r = reason ? json_string(reason) : NULL, *o;

	if (u == NULL || r == NULL) {
		json_decref(u);
		json_decref(r);
		return;
	}
	o = json_object();
	json_object_set_new(o, "url", u);
	json_object_set_new(o, "reason", r);
	json_array_append_new(dropped, o);
}

/*
 * The provenance of a page in a context record: url and source, the three
 * values as given (NULL: null).  All borrowed: the mappings, the links and
 * the pages kept outlive the records, and an entry is written as the
 * object {url, source_url, archive_path, fetch_status, last_modified}
 * (out_pages) without one being built.
 */
struct entry {
	const char *url, *source;
	const json_t *archive_path, *fetch_status, *last_modified;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

static void
add_entry(struct entries *es, const char *url, const char *source,
    const json_t *archive_path, const json_t *fetch_status,
    const json_t *last_modified)
{
	struct entry *e;

	if (es->n == es->cap)
		es->v = xreallocarray(es->v, es->cap = es->cap ? 2 * es->cap : 16,
		    sizeof *es->v);
	e = &es->v[es->n++];
	e->url = url;
	e->source = source;
	e->archive_path = archive_path;
	e->fetch_status = fetch_status;
	e->last_modified = last_modified;
}

/* The page entry of a page kept. */
static void
kept_entry(struct entries *es, const char *url, const char *source,
    const struct page *p)
{
	add_entry(es, url, source, p->archive_path, p->fetch_status_v,
	    p->last_modified);
}

/* The page entry of a record (an llms record). */
static void
record_entry(struct entries *es, const char *url, const char *source,
    const json_t *rec)
{
	add_entry(es, url, source, json_object_get(rec, "archive_path"),
	    json_object_get(rec, "fetch_status"),
	    json_object_get(rec, "last_modified"));
}

static void
trim_newlines(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	buf_add(b, s, n);
}

/* The first "# " heading of Markdown, else NULL (malloc'd). */
static char *
md_title(const char *md)
{
	const char *p = md;

	while (p && *p) {
		if (p[0] == '#' && p[1] == ' ') {
			size_t n = strcspn(p + 2, "\r\n");
			return xstrndup(p + 2, n);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* ---------------------------------------------------------------- condition B */

struct doc {
	long pos;		/* link position, -1 unlisted */
	const char *section;	/* borrowed */
	const char *title;	/* borrowed, may be NULL */
	const char *desc;	/* borrowed, may be NULL */
	char *url;		/* NULL: not written (reference --all-links) */
	const char *body;	/* borrowed */
	size_t blen;		/* strlen(body) */
	char *fallback_title;
};

static int
doc_cmp(const void *a, const void *b)
{
	const struct doc *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

static json_t *
llms_record(const struct asm_state *st, const char *site, const char *url)
{
	json_t *arr = json_object_get(st->env.llms, site), *r;
	size_t i;
	char *k = url ? bctx_url_key(url) : NULL;

	json_array_foreach(arr, i, r) {
		char *rk;
		int eq;

		if (k == NULL) {
			free(k);
			return r;
		}
		rk = bctx_url_key(json_string_value(json_object_get(r,
		    "llms_txt_url")));
		eq = rk && strcmp(rk, k) == 0;
		free(rk);
		if (eq) {
			free(k);
			return r;
		}
	}
	free(k);
	return NULL;
}

static void
render_doc(struct buf *b, const struct doc *d, int reference)
{
	const char *title = d->title ? d->title : d->fallback_title;

	buf_adds(b, "<doc");
	if (reference) {
		if (title)
			bctx_ref_attr(b, "title", title);
		if (d->desc)
			bctx_ref_attr(b, "desc", d->desc);
		buf_addc(b, '>');
		buf_add(b, d->body, d->blen);
		buf_adds(b, "</doc>");
	} else {
		if (title)
			bctx_xml_attr(b, "title", title);
		bctx_xml_attr(b, "url", d->url);
		buf_adds(b, ">\n");
		trim_newlines(b, d->body);
		buf_adds(b, "\n</doc>\n");
	}
}

/*
 * The documents of each section name, in docs order: chains through
 * next[], found by name in constant time (no pass over every document for
 * every section).
 */
struct by_section {
	struct wordset names;	/* distinct section names, first seen first */
	size_t *head, *tail;	/* per name: first and last doc index + 1 */
	size_t *next;		/* per doc: the next doc index + 1, 0 at end */
};

static void
by_section_init(struct by_section *bs, const struct doc *docs, size_t ndocs)
{
	size_t j, k;

	memset(&bs->names, 0, sizeof bs->names);
	bs->head = xcalloc(ndocs + 1, sizeof *bs->head);
	bs->tail = xcalloc(ndocs + 1, sizeof *bs->tail);
	bs->next = xcalloc(ndocs + 1, sizeof *bs->next);
	for (j = 0; j < ndocs; j++) {
		const char *sec = docs[j].section;

		if ((k = wordset_find(&bs->names, sec, strlen(sec))) == 0) {
			wordset_add(&bs->names, sec, strlen(sec));
			k = bs->names.n;
			bs->head[k - 1] = j + 1;
		} else
			bs->next[bs->tail[k - 1] - 1] = j + 1;
		bs->tail[k - 1] = j + 1;
	}
}

/* Index + 1 of the first document of section name, 0 when none. */
static size_t
by_section_first(const struct by_section *bs, const char *name)
{
	size_t k = wordset_find(&bs->names, name, strlen(name));

	return k ? bs->head[k - 1] : 0;
}

static void
by_section_release(struct by_section *bs)
{
	wordset_release(&bs->names);
	free(bs->head);
	free(bs->tail);
	free(bs->next);
}

/*
 * Render the project: llms (may be NULL), the llms.txt document (ldoc, may
 * be NULL), docs sorted by link position, sections in order secs[] (names)
 * with empty ones kept when keep_empty.
 */
static void
render_project(struct buf *b, const struct asm_state *st, const char *domain,
    const json_t *llms, const struct doc *ldoc, struct doc *docs, size_t ndocs,
    const json_t *secs, int keep_empty)
{
	int ref = st->o->reference;
	const char *title = llms ? json_string_value(json_object_get(llms, "title"))
	    : domain;
	const char *summary = llms ? json_string_value(json_object_get(llms,
	    "summary")) : NULL;
	const char *info = llms ? json_string_value(json_object_get(llms, "info"))
	    : NULL;
	struct by_section bs;
	size_t i, j;
	char *tag = NULL;

	/* room for the bodies at once: no long body moved as b grows */
	for (i = 0, j = ldoc ? ldoc->blen : 0; i < ndocs; i++)
		j += docs[i].blen;
	buf_grow(b, j);
	buf_adds(b, "<project");
	if (title)
		(ref ? bctx_ref_attr : bctx_xml_attr)(b, "title", title);
	if (summary)
		(ref ? bctx_ref_attr : bctx_xml_attr)(b, "summary", summary);
	buf_addc(b, '>');
	if (ref) {
		if (info)
			buf_adds(b, info);
	} else {
		buf_addc(b, '\n');
		if (info && *info) {
			trim_newlines(b, info);
			buf_addc(b, '\n');
		}
	}
	if (ldoc)
		render_doc(b, ldoc, ref);
	by_section_init(&bs, docs, ndocs);
	for (i = 0; i < json_array_size(secs); i++) {
		const char *name = json_string_value(json_array_get(secs, i));
		int n = 0;

		for (j = by_section_first(&bs, name); j; j = bs.next[j - 1])
			n++;
		if (n == 0 && !keep_empty)
			continue;
		/*
		 * create_ctx's mk_ctx: skip = '' if optional else 'Optional',
		 * the section named skip is left out: with optional=True that
		 * drops a section without a name (reference style only; the
		 * methodology style loses no section)
		 */
		if (keep_empty && !st->o->optional && strcmp(name, "Optional") == 0)
			continue;
		if (keep_empty && ref && st->o->optional && *name == '\0')
			continue;
		if (ref)
			bctx_ref_section_start(b, name, n);
		else {
			tag = bctx_py_lower(name);
			buf_addc(b, '<');
			buf_adds(b, tag);
			buf_adds(b, ">\n");
		}
		/* the documents straight into b: a body is copied once */
		for (j = by_section_first(&bs, name); j; j = bs.next[j - 1])
			render_doc(b, &docs[j - 1], ref);
		if (ref)
			bctx_ref_section_end(b, name, n);
		else {
			buf_adds(b, "</");
			buf_adds(b, tag);
			buf_adds(b, ">\n");
			free(tag);
		}
	}
	buf_adds(b, "</project>");
	by_section_release(&bs);
}

/* Section names in order: the llms record's list, then any other seen. */
static json_t *
section_order(const struct asm_state *st, const char *site, const json_t *llms,
    const struct doc *docs, size_t ndocs)
{
	json_t *out = json_array(), *seen = json_object(), *v;
	const struct bctx_link *links;
	size_t i, nlinks = bctx_env_links(&st->env, site, &links);

#define ADD(name) do { if ((name) && !json_object_get(seen, (name))) { \
	json_object_set_new(seen, (name), json_true()); \
	json_array_append_new(out, json_string(name)); } } while (0)
	if (llms)
		json_array_foreach(json_object_get(llms, "sections"), i, v)
			if (json_is_string(v))
				ADD(json_string_value(v));
	for (i = 0; i < nlinks; i++)
		ADD(links[i].section);
	for (i = 0; i < ndocs; i++)
		ADD(docs[i].section);
#undef ADD
	json_decref(seen);
	return out;
}

/* ---------------------------------------------------------------- contexts */

struct result {
	struct buf content;
	/* B: the documents' bodies alone, for parity and B-plain, when asked */
	struct buf plain;
	size_t *starts;		/* B: where each body starts in plain */
	size_t nstarts, capstarts;
	struct entries pages;
	json_t *dropped;
	int ndocs;
	int excluded;
};

/* Add a document's body to the plain text of r, noting where it starts. */
static void
plain_add(struct result *r, const char *body)
{
	struct buf *b = &r->plain;

	if (b->len > 0)
		buf_addc(b, '\n');
	if (r->nstarts == r->capstarts)
		r->starts = xreallocarray(r->starts, r->capstarts = r->capstarts ?
		    2 * r->capstarts : 16, sizeof *r->starts);
	r->starts[r->nstarts++] = b->len;
	trim_newlines(b, body);
	buf_addc(b, '\n');
}

/* A page seen before in this context (by URL key, fragment dropped)? */
static int
seen_page(json_t *used, const char *url)
{
	char *k = bctx_url_key(url);
	int seen;

	if (k == NULL)
		k = bctx_url_defrag(url);
	seen = json_object_get(used, k) != NULL;
	if (!seen)
		json_object_set_new(used, k, json_true());
	free(k);
	return seen;
}

/* Condition A, or a variant of it whose pages are indexed under cond. */
static void
assemble_a(struct asm_state *st, const char *site, const char *cond,
    struct bctx_map *maps, size_t n, struct result *r)
{
	json_t *used = json_object();
	size_t i;
	char tmp[32];

	for (i = 0; i < n; i++) {
		struct bctx_map *m = &maps[i];
		const struct page *rec;
		const char *why;

		if (m->a_url == NULL) {
			add_dropped(r->dropped, m->source, m->a_reason);
			continue;
		}
		if (seen_page(used, m->a_url))
			continue;
		rec = find_page(st, site, cond, m->a_url);
		if ((why = page_reason(rec, tmp, sizeof tmp)) != NULL) {
			add_dropped(r->dropped, m->a_url, why);
			continue;
		}
		if (r->ndocs++ > 0)
			buf_adds(&r->content, "\n\n---\n\n");
		buf_add(&r->content, rec->body, rec->blen);
		kept_entry(&r->pages, m->a_url, m->source, rec);
	}
	json_decref(used);
}

/* The documents of a Condition B context. */
struct docs {
	struct doc *v;
	size_t n, cap;
	struct doc ldoc;	/* the llms.txt itself, when have_ldoc */
	int have_ldoc;
};

static struct doc *
doc_push(struct docs *d, long pos, const char *section, const char *url,
    const struct page *rec)
{
	struct doc *x;

	if (d->n == d->cap)
		d->v = xreallocarray(d->v, d->cap = d->cap ? 2 * d->cap : 8,
		    sizeof *d->v);
	x = &d->v[d->n++];
	memset(x, 0, sizeof *x);
	x->pos = pos;
	x->section = section;
	x->url = url ? bctx_url_defrag(url) : NULL;
	x->body = rec->body;
	x->blen = rec->blen;
	return x;
}

/* Fill title and description from the llms.txt link l. */
static void
doc_link(struct doc *x, const struct bctx_link *l)
{
	x->title = l->title;
	x->desc = l->desc;
}

static void
docs_release(struct docs *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].url);
		free(d->v[i].fallback_title);
	}
	free(d->v);
	free(d->ldoc.url);
	free(d->ldoc.fallback_title);
}

/*
 * --all-links: every link of the llms.txt, as create_ctx(optional=...)
 * builds it.  The reference repeats a page listed several times; the
 * methodology style keeps its first listing only.
 */
static void
all_links(struct asm_state *st, const char *site, struct docs *d,
    struct result *r)
{
	const struct bctx_link *links;
	json_t *used = json_object();
	char tmp[32];
	size_t i, nlinks = bctx_env_links(&st->env, site, &links);

	for (i = 0; i < nlinks; i++) {
		const struct bctx_link *l = &links[i];
		const char *sec = l->section;
		const char *url = l->url;
		const struct page *rec;
		const char *why;

		if (sec && strcmp(sec, "Optional") == 0 && !st->o->optional)
			continue;
		if (!st->o->reference && seen_page(used, url))
			continue;
		/* the link's URL key made once, as it was read */
		rec = find_page_key(st, site, "B", url, l->key);
		if ((why = page_reason(rec, tmp, sizeof tmp)) != NULL) {
			add_dropped(r->dropped, url, why);
			continue;
		}
		/* the reference style writes no document's URL */
		doc_link(doc_push(d, (long)i, sec ? sec : "Docs",
		    st->o->reference ? NULL : url, rec), l);
		kept_entry(&r->pages, url, url, rec);
	}
	json_decref(used);
}

/* The llms.txt (or llms-full.txt) cited as a source: its whole content. */
static void
llms_doc(struct asm_state *st, const char *site, const struct bctx_map *m,
    struct docs *d, struct result *r)
{
	char *fk = bctx_url_defrag(m->b_url);
	const json_t *lrec = llms_record(st, site, fk);
	const struct page *rec;
	const char *why, *slash;
	char tmp[32];

	if (lrec && json_is_string(json_object_get(lrec, "content"))) {
		if (!d->have_ldoc) {
			d->have_ldoc = 1;
			d->ldoc.pos = -1;
			d->ldoc.title = json_string_value(json_object_get(lrec, "title"));
			d->ldoc.url = xstrdup(fk);
			d->ldoc.body = json_string_value(json_object_get(lrec, "content"));
			d->ldoc.blen = strlen(d->ldoc.body);
			if (d->ldoc.title == NULL)
				d->ldoc.fallback_title = xstrdup("llms.txt");
			record_entry(&r->pages, m->b_url, m->source, lrec);
		}
		free(fk);
		return;
	}
	/* no parsed llms.txt: a prepared copy (bmdprep on the llms_txt /
	 * llms_full_txt manifest record) will do */
	rec = find_page(st, site, m->b_cond, m->b_url);
	why = page_reason(rec, tmp, sizeof tmp);
	if (why)
		add_dropped(r->dropped, m->b_url, why);
	else if (!d->have_ldoc) {
		slash = strrchr(fk, '/');
		d->have_ldoc = 1;
		d->ldoc.pos = -1;
		d->ldoc.url = xstrdup(fk);
		d->ldoc.body = rec->body;
		d->ldoc.blen = rec->blen;
		d->ldoc.fallback_title = xstrdup(slash ? slash + 1 : fk);
		kept_entry(&r->pages, m->b_url, m->source, rec);
	}
	free(fk);
}

/*
 * The question's documents: one per page (by URL key), under the page's
 * first llms.txt listing, or in "Docs" after every listed one when the
 * llms.txt does not list it.
 */
static void
question_docs(struct asm_state *st, const char *site, struct bctx_map *maps,
    size_t n, struct docs *d, struct result *r)
{
	const struct bctx_link *links, *l;
	size_t nlinks = bctx_env_links(&st->env, site, &links);
	json_t *used = json_object();
	char tmp[32];
	size_t i;

	for (i = 0; i < n; i++) {
		struct bctx_map *m = &maps[i];
		const struct page *rec;
		const char *why, *sec;
		struct doc *x;
		long pos;

		if (m->b_url == NULL) {
			add_dropped(r->dropped, m->source, m->b_reason);
			continue;
		}
		if (seen_page(used, m->b_url))
			continue;
		if (strcmp(m->b_cond, "B") != 0) {
			llms_doc(st, site, m, d, r);
			continue;
		}
		rec = find_page(st, site, "B", m->b_url);
		if ((why = page_reason(rec, tmp, sizeof tmp)) != NULL) {
			add_dropped(r->dropped, m->b_url, why);
			continue;
		}
		kept_entry(&r->pages, m->b_url, m->source, rec);
		if (json_array_size(m->b_links) == 0) {
			x = doc_push(d, (long)nlinks + (long)i, "Docs",
			    m->b_url, rec);
			x->fallback_title = md_title(x->body);
			if (x->fallback_title == NULL)
				x->fallback_title = xstrdup(x->url);
			continue;
		}
		pos = (long)json_integer_value(json_array_get(m->b_links, 0));
		l = bctx_env_link(&st->env, site, (size_t)pos);
		sec = l->section;
		doc_link(doc_push(d, pos, sec ? sec : "Docs", m->b_url, rec), l);
	}
	json_decref(used);
}

/* Condition B; with_plain: also the plain text of its documents. */
static void
assemble_b(struct asm_state *st, const char *site, const char *domain,
    struct bctx_map *maps, size_t n, struct result *r, int with_plain)
{
	const json_t *llms = llms_record(st, site, NULL);
	struct docs d;
	json_t *secs;
	size_t i;

	memset(&d, 0, sizeof d);
	if (st->o->all_links && llms == NULL) {
		add_dropped(r->dropped, site, "NO_MARKDOWN_MAPPING");
		return;
	}
	if (st->o->all_links)
		all_links(st, site, &d, r);
	else
		question_docs(st, site, maps, n, &d, r);
	if (d.n > 0 || d.have_ldoc || st->o->all_links) {
		if (d.n > 1)
			qsort(d.v, d.n, sizeof *d.v, doc_cmp);
		if (d.have_ldoc && with_plain)
			plain_add(r, d.ldoc.body);
		for (i = 0; i < d.n && with_plain; i++)
			plain_add(r, d.v[i].body);
		secs = section_order(st, site, llms, d.v, d.n);
		render_project(&r->content, st, domain, llms, d.have_ldoc ?
		    &d.ldoc : NULL, d.v, d.n, secs, st->o->all_links);
		json_decref(secs);
		r->ndocs = (int)d.n + d.have_ldoc + st->o->all_links;
	}
	docs_release(&d);
}

static char *
fill_template(const char *tpl, const char *content, const char *question)
{
	struct buf b = BUF_INIT;
	const char *p = tpl;

	while (*p) {
		if (strncmp(p, "{assembled_content}", 19) == 0) {
			buf_adds(&b, content);
			p += 19;
		} else if (strncmp(p, "{question_text}", 15) == 0) {
			buf_adds(&b, question);
			p += 15;
		} else
			buf_addc(&b, *p++);
	}
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

/*
 * Assemble the content of one condition of question q into r: B, or A or
 * a variant of A assembled as A from the pages indexed under cond.  B's
 * plain text is made when with_plain (A's would be its content: none).
 */
static void
build_context(struct asm_state *st, const json_t *q, const char *cond,
    struct bctx_map *maps, size_t n, struct result *r, int with_plain)
{
	const char *site = json_string_value(json_object_get(q, "site_id"));
	const char *domain = json_string_value(json_object_get(q, "domain"));

	memset(r, 0, sizeof *r);
	r->dropped = json_array();
	if (strcmp(cond, "B") != 0)
		assemble_a(st, site, cond, maps, n, r);
	else
		assemble_b(st, site, domain, maps, n, r, with_plain);
	r->excluded = r->ndocs == 0;
	if (r->excluded) {
		buf_reset(&r->content);
		buf_reset(&r->plain);
	}
}

static void
result_release(struct result *r)
{
	free(r->pages.v);
	json_decref(r->dropped);
	buf_release(&r->content);
	buf_release(&r->plain);
	free(r->starts);
}

/* The mapping rules of the question's URLs, joined by '+' (malloc'd). */
static char *
mapping_rules(const struct asm_state *st, const char *cond,
    const struct bctx_map *maps, size_t n)
{
	struct buf mapping = BUF_INIT;
	json_t *rules = json_object();
	size_t i;

	if (st->o->all_links && strcmp(cond, "B") == 0)
		buf_adds(&mapping, "all-links");
	else
		for (i = 0; i < n; i++)
			if (!json_object_get(rules, maps[i].rule)) {
				json_object_set_new(rules, maps[i].rule, json_true());
				if (mapping.len)
					buf_addc(&mapping, '+');
				buf_adds(&mapping, maps[i].rule);
			}
	json_decref(rules);
	buf_adds(&mapping, "");
	return buf_detach(&mapping, NULL);
}

/* The latest Last-Modified of the pages (borrowed), or NULL. */
static const char *
latest_modified(const struct entries *pages)
{
	const char *lm = NULL;
	time_t best = (time_t)-1;
	size_t i;

	for (i = 0; i < pages->n; i++) {
		const char *s = json_string_value(pages->v[i].last_modified);
		time_t t;
		if (s == NULL)
			continue;
		t = http_date(s);
		if (lm == NULL || (t != (time_t)-1 && t > best)) {
			if (t != (time_t)-1 || lm == NULL)
				lm = s;
			if (t != (time_t)-1)
				best = t;
		}
	}
	return lm;
}

/*
 * The context record is written as it is put together, member by member
 * (no JSON tree), in the compact form ndj_emit writes: the same bytes.  A
 * member's value is a string (NULL: null), a JSON value as given or a
 * number; the content is written straight from its buffer.
 */
/* "key": for a key of this file's own, plain ASCII that JSON writes as
 * it is (json_put_string would pass every byte). */
static void
put_key(struct buf *b, const char *key)
{
	buf_addc(b, '"');
	buf_adds(b, key);
	buf_add(b, "\":", 2);
}

static void
out_key(struct out *o, const char *key)
{
	buf_addc(&o->b, o->n++ ? ',' : '{');
	put_key(&o->b, key);
}

static void
out_str(struct out *o, const char *key, const char *v)
{
	out_key(o, key);
	if (v)
		json_put_string(&o->b, v, strlen(v));
	else
		buf_adds(&o->b, "null");
}

/* A value copied as given; none (NULL) is the error json_set_new dies of. */
static void
out_json(struct out *o, const char *key, const json_t *v)
{
	if (v == NULL)
		die("out of memory setting %s", key);
	out_key(o, key);
	json_compact_buf(&o->b, v);
}

/* What is put together so far written out once it is OUT_PART bytes: a
 * record is never held whole. */
#define OUT_PART 65536

static void
out_flush(struct out *o, size_t over)
{
	if (o->b.len < over)
		return;
	ndj_emit_text(o->b.s, o->b.len, 0);
	buf_reset(&o->b);
}

/* An array (the pages, the dropped URLs), written a part at a time. */
static void
out_array(struct out *o, const char *key, const json_t *a)
{
	const json_t *v;
	size_t i;

	out_key(o, key);
	buf_addc(&o->b, '[');
	json_array_foreach(a, i, v) {
		if (i > 0)
			buf_addc(&o->b, ',');
		json_compact_buf(&o->b, v);
		out_flush(o, OUT_PART);
	}
	buf_addc(&o->b, ']');
}

/* A value as given, or null (v NULL), as a member of an object. */
static void
put_member(struct buf *b, const char *key, const json_t *v)
{
	put_key(b, key);
	if (v)
		json_compact_buf(b, v);
	else
		buf_adds(b, "null");
}

/* The page entries, as out_array writes an array of their objects. */
static void
out_pages(struct out *o, const struct entries *es)
{
	const struct entry *e;
	size_t i;

	out_key(o, "pages");
	buf_addc(&o->b, '[');
	for (i = 0; i < es->n; i++) {
		e = &es->v[i];
		buf_adds(&o->b, i > 0 ? ",{" : "{");
		put_key(&o->b, "url");
		json_put_string(&o->b, e->url, strlen(e->url));
		buf_addc(&o->b, ',');
		put_key(&o->b, "source_url");
		json_put_string(&o->b, e->source, strlen(e->source));
		buf_addc(&o->b, ',');
		put_member(&o->b, "archive_path", e->archive_path);
		buf_addc(&o->b, ',');
		put_member(&o->b, "fetch_status", e->fetch_status);
		buf_addc(&o->b, ',');
		put_member(&o->b, "last_modified", e->last_modified);
		buf_addc(&o->b, '}');
		out_flush(o, OUT_PART);
	}
	buf_addc(&o->b, ']');
}

/* A value copied as given, null when there is none. */
static void
out_json_or_null(struct out *o, const char *key, const json_t *v)
{
	out_key(o, key);
	if (v)
		json_compact_buf(&o->b, v);
	else
		buf_adds(&o->b, "null");
}

static void
out_null(struct out *o, const char *key)
{
	out_key(o, key);
	buf_adds(&o->b, "null");
}

static void
out_bool(struct out *o, const char *key, int v)
{
	out_key(o, key);
	buf_adds(&o->b, v ? "true" : "false");
}

static void
out_int(struct out *o, const char *key, long long v)
{
	out_key(o, key);
	buf_addf(&o->b, "%lld", v);
}

/* A share rounded to four decimals, null when undefined (< 0). */
static void
out_share(struct out *o, const char *key, double v)
{
	out_key(o, key);
	if (v < 0)
		buf_adds(&o->b, "null");
	else
		json_put_real(&o->b, (double)(long long)(v * 10000 + 0.5) / 10000);
}

/*
 * The parity fields (null without a pair: par == NULL): word, code and
 * fact shares, the changed facts with their count, with -g the gold
 * answer's facts on one side only (null without one), the drift flag.
 */
static void
out_parity(struct out *o, const struct bctx_parity *par, int with_gold)
{
	static const struct bctx_parity none = { -1, -1, -1, -1, -1, -1,
		NULL, NULL, NULL, 0, 0 };
	const struct bctx_parity *p = par ? par : &none;

	out_share(o, "parity_b_in_a", p->b_in_a);
	out_share(o, "parity_a_in_b", p->a_in_b);
	out_share(o, "parity_code_b_in_a", p->code_b_in_a);
	out_share(o, "parity_code_a_in_b", p->code_a_in_b);
	out_share(o, "facts_b_in_a", p->facts_b_in_a);
	out_share(o, "facts_a_in_b", p->facts_a_in_b);
	out_json_or_null(o, "facts_changed", p->changed);
	if (par)
		out_int(o, "facts_changed_count", (long long)par->nchanged);
	else
		out_null(o, "facts_changed_count");
	if (with_gold) {
		out_json_or_null(o, "gold_facts_only_a", p->gold_only_a);
		out_json_or_null(o, "gold_facts_only_b", p->gold_only_b);
	}
	if (par)
		out_bool(o, "pair_drift", par->drift);
	else
		out_null(o, "pair_drift");
}

/* Count a context written, excluded for reason (NULL: not excluded). */
static void
count_context(struct asm_state *st, const char *reason)
{
	json_t *v;

	st->ncontexts++;
	if (reason == NULL)
		return;
	v = json_object_get(st->excluded, reason);
	json_object_set_new(st->excluded, reason, json_integer(v ?
	    json_integer_value(v) + 1 : 1));
}

/*
 * The end of the run: a run with no context, or none that is not excluded,
 * is an error (unless --allow-empty); else one summary line.
 */
static void
summary(const struct asm_state *st, int nfiles, char *const files[])
{
	struct buf why = BUF_INIT;
	size_t nexcl = 0;
	const char *k;
	json_t *v;

	json_object_foreach(st->excluded, k, v) {
		nexcl += (size_t)json_integer_value(v);
		buf_addf(&why, "%s%s %lld", why.len ? ", " : "", k,
		    (long long)json_integer_value(v));
	}
	if (st->ncontexts == 0)
		die_empty(st->o->allow_empty, "%s: no question selected, no context "
		    "assembled", st->o->questions);
	if (nexcl == st->ncontexts)
		die_empty(st->o->allow_empty, "%s: all %zu contexts are excluded "
		    "(%s), nothing assembled: the pages come from bread's and "
		    "bmdprep's records", nfiles ? files[0] : "<stdin>",
		    st->ncontexts, buf_str(&why));
	warn("contexts: %zu  usable %zu  excluded %zu%s%s%s", st->ncontexts,
	    st->ncontexts - nexcl, nexcl, nexcl ? " (" : "", buf_str(&why),
	    nexcl ? ")" : "");
	buf_release(&why);
}

/*
 * The prompts of a context with -c: the config's template, or a prompt
 * variant's own (v); null without a config or for an excluded context.
 */
static void
out_prompts(const struct asm_state *st, struct out *o, const struct variant *v,
    const struct result *r, const char *qtext)
{
	const char *sys, *user;
	char *u;

	if (st->cfg == NULL || r->excluded) {
		out_null(o, "system_prompt");
		out_null(o, "user_prompt");
		return;
	}
	if (v && v->kind == VARIANT_PROMPT) {
		sys = v->system_prompt;
		user = v->user_prompt;
	} else {
		sys = cfg_str(st->cfg, "prompt_template.system_prompt", "");
		user = cfg_str(st->cfg, "prompt_template.user_prompt",
		    "Content:\n{assembled_content}\n\nQuestion: {question_text}");
	}
	u = fill_template(user, buf_str(&r->content), qtext);
	out_str(o, "system_prompt", sys);
	out_str(o, "user_prompt", u);
	free(u);
}

/* The question's own members of its context record (v: a variant). */
static void
out_question(const struct asm_state *st, struct out *o, const json_t *q,
    const char *cond, const struct variant *v)
{
	const char *site = json_string_value(json_object_get(q, "site_id"));
	const char *qid = json_string_value(json_object_get(q, "question_id"));
	const json_t *g, *site_obj, *sector;

	out_str(o, "site_id", site);
	out_str(o, "domain", json_string_value(json_object_get(q, "domain")));
	out_str(o, "question_id", qid);
	out_str(o, "condition", cond);
	if (v)
		out_str(o, "variant_of", v->of);
	out_json(o, "complexity", json_object_get(q, "complexity"));
	out_str(o, "question_text", json_string_value(json_object_get(q,
	    "text")));
	out_json(o, "source_urls", json_object_get(q, "source_urls"));
	out_json(o, "source_sections", json_object_get(q, "source_sections"));
	if (st->gold) {
		g = json_object_get(st->gold, qid);
		out_json(o, "gold_answer", g ? json_object_get(g, "gold_answer") :
		    json_null());
	}
	if (st->env.site_list) {
		site_obj = json_object_get(st->env.sites, site);
		sector = site_obj ? json_object_get(site_obj, "sector") : NULL;
		out_json_or_null(o, "sector", sector);
	}
}

/*
 * Write the context record of condition cond (v: its declaration when it
 * is a variant, NULL for A and B); r stays the caller's.
 */
static void
emit_context(struct asm_state *st, const json_t *q, const char *cond,
    const struct variant *v, const struct bctx_map *maps, size_t n,
    const struct result *r, const struct bctx_parity *par)
{
	const char *qid = json_string_value(json_object_get(q, "question_id"));
	const char *qtext = json_string_value(json_object_get(q, "text"));
	const char *lm, *reason = NULL;
	struct out *o = &st->out;
	const json_t *g;
	char *mapping;
	size_t chars;

	if (r->excluded)
		reason = json_array_size(r->dropped) > 0 ? json_string_value(
		    json_object_get(json_array_get(r->dropped, 0), "reason")) :
		    "NOT_ARCHIVED";
	mapping = mapping_rules(st, v ? variants_base(&st->vars, cond) : cond,
	    maps, n);
	lm = latest_modified(&r->pages);
	buf_reset(&o->b);
	o->n = 0;
	out_question(st, o, q, cond, v);
	/* JSON strings and ASCII put together: valid UTF-8, not checked
	 * again, its characters counted as it is written */
	out_key(o, "content");
	out_flush(o, 0);
	chars = ndj_emit_string(buf_str(&r->content), r->content.len);
	out_int(o, "content_chars", (long long)chars);
	out_pages(o, &r->pages);
	out_array(o, "dropped_urls", r->dropped);
	out_str(o, "mapping", mapping);
	out_str(o, "last_modified", lm);
	out_bool(o, "excluded", r->excluded);
	out_str(o, "exclusion_reason", reason);
	count_context(st, reason);
	out_prompts(st, o, v, r, qtext);
	if (st->gold) {
		g = json_object_get(st->gold, qid);
		out_share(o, "gold_coverage", g && !r->excluded ?
		    bctx_gold_coverage(json_string_value(json_object_get(g,
		    "gold_answer")), buf_str(&r->content)) : -1);
	}
	out_parity(o, par, st->gold != NULL);
	buf_addc(&o->b, '}');
	free(mapping);
	ndj_emit_text(o->b.s, o->b.len, 1);
}

/* The gold answer of question q (borrowed), or NULL. */
static const char *
gold_text(const struct asm_state *st, const json_t *q)
{
	const json_t *g;

	if (st->gold == NULL)
		return NULL;
	g = json_object_get(st->gold, json_string_value(json_object_get(q,
	    "question_id")));
	return g ? json_string_value(json_object_get(g, "gold_answer")) : NULL;
}

/* One condition of a question: A, B or a declared variant. */
struct cond_ctx {
	const char *name;
	const struct variant *v;	/* NULL for A and B */
	struct result r;
	struct bctx_parity par;		/* when own_par */
	int own_par;
	const struct bctx_parity *pp;	/* the record's parity, or NULL */
};

/* A copy of src sharing its page lists (which nobody changes any more). */
static void
result_copy(struct result *dst, const struct result *src)
{
	memset(dst, 0, sizeof *dst);
	buf_add(&dst->content, buf_str(&src->content), src->content.len);
	buf_add(&dst->plain, buf_str(&src->plain), src->plain.len);
	if (src->nstarts) {
		dst->starts = xreallocarray(NULL, src->nstarts, sizeof *dst->starts);
		memcpy(dst->starts, src->starts, src->nstarts * sizeof *dst->starts);
	}
	dst->nstarts = dst->capstarts = src->nstarts;
	if (src->pages.n) {
		dst->pages.v = xreallocarray(NULL, src->pages.n,
		    sizeof *dst->pages.v);
		memcpy(dst->pages.v, src->pages.v, src->pages.n *
		    sizeof *dst->pages.v);
	}
	dst->pages.n = dst->pages.cap = src->pages.n;
	dst->dropped = json_incref(src->dropped);
	dst->ndocs = src->ndocs;
	dst->excluded = src->excluded;
}

/*
 * The parity of the pair (a, b) into c when both sides are there (an A
 * side's plain text is its content).
 */
static void
own_parity(const struct asm_state *st, const json_t *q, const struct result *a,
    const struct result *b, struct cond_ctx *c)
{
	if (a->excluded || b->excluded)
		return;
	bctx_parity(buf_str(&a->content), a->content.len, buf_str(&b->plain),
	    b->plain.len, b->starts, b->nstarts, gold_text(st, q), &c->par);
	c->own_par = 1;
	c->pp = &c->par;
}

/* The condition called name among the first n of cs (declared earlier). */
static struct cond_ctx *
cond_find(struct cond_ctx *cs, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(cs[i].name, name) == 0)
			return &cs[i];
	return NULL;
}

/*
 * Variant c of question q, after A (cs[0]), B (cs[1]) and the variants
 * declared before it (cs[2..k)).  B-plain: B's documents, their bodies
 * joined by a blank line, B's parity; A-markdown, A-whole: assembled as A
 * from their own pages, their parity against B; a prompt variant: its
 * `of`'s content and parity (its template differs, see set_prompts).
 */
static void
build_variant(struct asm_state *st, const json_t *q, struct bctx_map *maps,
    size_t n, struct cond_ctx *cs, size_t k)
{
	struct cond_ctx *c = &cs[k], *of;
	struct buf *b;

	switch (c->v->kind) {
	case VARIANT_B_PLAIN:
		result_copy(&c->r, &cs[1].r);
		b = &c->r.content;
		buf_reset(b);
		buf_add(b, buf_str(&c->r.plain), c->r.plain.len);
		while (b->len > 0 && buf_str(b)[b->len - 1] == '\n')
			buf_setlen(b, b->len - 1);
		c->pp = cs[1].pp;
		break;
	case VARIANT_A_MARKDOWN:
	case VARIANT_A_WHOLE:
		build_context(st, q, c->name, maps, n, &c->r, 0);
		own_parity(st, q, &c->r, &cs[1].r, c);
		break;
	case VARIANT_PROMPT:
		of = cond_find(cs, k, c->v->of);
		assert(of != NULL);	/* variants_load: `of` declared before */
		result_copy(&c->r, &of->r);
		c->pp = of->pp;
		break;
	}
}

/* Is condition name (A, B or a variant) one --condition asks for? */
static int
wanted_condition(const struct asm_state *st, const char *name)
{
	const char *want = st->o->condition;

	return want == NULL || strcmp(want, variants_base(&st->vars, name)) == 0;
}

/*
 * The conditions of question q: A and B assembled together so that each
 * record carries the pair's parity, then the variants; written in that
 * order as --condition asks (A or B: that condition and its variants).
 */
static void
emit_question(struct asm_state *st, const json_t *q, struct bctx_map *maps,
    size_t n)
{
	size_t nc = 2 + st->vars.nv, i;
	struct cond_ctx *cs = xcalloc(nc, sizeof *cs);

	cs[0].name = "A";
	cs[1].name = "B";
	build_context(st, q, "A", maps, n, &cs[0].r, 0);
	/* B's plain text serves the parity with A or a variant, and B-plain */
	build_context(st, q, "B", maps, n, &cs[1].r, !cs[0].r.excluded ||
	    st->vars.nv > 0);
	own_parity(st, q, &cs[0].r, &cs[1].r, &cs[0]);
	cs[1].pp = cs[0].pp;
	for (i = 2; i < nc; i++) {
		cs[i].v = &st->vars.v[i - 2];
		cs[i].name = cs[i].v->name;
		build_variant(st, q, maps, n, cs, i);
	}
	for (i = 0; i < nc; i++)
		if (wanted_condition(st, cs[i].name))
			emit_context(st, q, cs[i].name, cs[i].v, maps, n, &cs[i].r,
			    cs[i].pp);
	for (i = 0; i < nc; i++) {
		result_release(&cs[i].r);
		if (cs[i].own_par)
			bctx_parity_release(&cs[i].par);
	}
	free(cs);
}

/*
 * Every variant of A to be written needs page records of its own: bread
 * --variant NAME run on condition A's manifest.  Dies naming the missing run.
 */
static void
check_variant_pages(const struct asm_state *st)
{
	size_t i;

	for (i = 0; i < st->vars.nv; i++) {
		const struct variant *v = &st->vars.v[i];

		if ((v->kind != VARIANT_A_MARKDOWN && v->kind != VARIANT_A_WHOLE) ||
		    !wanted_condition(st, v->name) ||
		    json_object_get(st->vseen, v->name))
			continue;
		die("%s: variants: %s is declared but no page record carries "
		    "\"variant\": \"%s\": run bread --variant %s on condition A's "
		    "manifest and give its records to bctx assemble", st->o->config,
		    v->name, v->name, v->name);
	}
}

void
bctx_output_buffer(char *buf)
{
	/* a context record of tens of KB written at once, not in the
	 * default buffer's 4 KB pieces (setvbuf takes no size without
	 * a buffer) */
	(void)setvbuf(ndj_output(), buf, _IOFBF, BCTX_OUTBUF);
}

int
bctx_assemble(const struct bctx_opts *o, int nfiles, char *const files[])
{
	struct asm_state st;
	json_t *qs, *q;
	size_t i, j, nmatch = 0;

	memset(&st, 0, sizeof st);
	st.o = o;
	bctx_env_init(&st.env);
	st.excluded = json_object();
	if (o->sites)
		bctx_env_sites(&st.env, o->sites);
	for (i = 0; i < o->nlinks; i++)
		bctx_env_links_file(&st.env, o->links[i]);
	if (o->usermap)
		bctx_env_usermap(&st.env, o->usermap);
	if (o->gold)
		st.gold = study_gold_load(o->gold);
	if (o->config) {
		st.cfg = study_config_load(o->config);
		variants_load(&st.vars, st.cfg, o->config);
	}
	st.vseen = json_object();
	qs = bctx_questions_load(o->questions);
	want_pages(&st, qs);
	read_pages(&st, nfiles, files);
	check_variant_pages(&st);

	json_array_foreach(qs, i, q) {
		const char *site = json_string_value(json_object_get(q, "site_id"));
		const char *qid = json_string_value(json_object_get(q, "question_id"));
		json_t *urls = json_object_get(q, "source_urls");
		size_t n = json_array_size(urls);
		struct bctx_map *maps;

		if (o->site && strcmp(site, o->site) != 0)
			continue;
		if (o->question && strcmp(qid, o->question) != 0)
			continue;
		nmatch++;
		maps = xcalloc(n, sizeof *maps);
		for (j = 0; j < n; j++) {
			const char *url = json_string_value(json_array_get(urls, j));
			if (!bctx_url_is_http(url))
				die("%s:%lu: %s: source_urls: '%s' is not an absolute "
				    "http(s) URL", o->questions, bctx_source_line(o->questions,
				    qid, url), qid, url);
			bctx_map_url(&st.env, site, url, &maps[j]);
		}
		emit_question(&st, q, maps, n);
		for (j = 0; j < n; j++)
			bctx_map_release(&maps[j]);
		free(maps);
	}
	if (o->question && nmatch == 0)
		die("%s: no question '%s'", o->questions, o->question);
	summary(&st, nfiles, files);
	json_decref(st.excluded);
	json_decref(qs);
	for (i = 0; i < st.pagekeys.n; i++)
		page_release(&st.pagev[i]);
	free(st.pagev);
	wordset_release(&st.pagekeys);
	wordset_release(&st.wanted);
	buf_release(&st.uk);
	buf_release(&st.key);
	json_decref(st.gold);
	json_decref(st.cfg);
	variants_free(&st.vars);
	json_decref(st.vseen);
	buf_release(&st.out.b);
	bctx_env_free(&st.env);
	return 0;
}
