/*
 * mode_llms.c - bmdprep --llms: an llms.txt file, or each fetched llms_txt
 * manifest record, into one kind llms record (title, summary, info,
 * sections, the prepared text; the manifest's other fields pass through),
 * one kind link record per link and the parser's diagnostics sorted by
 * line.  With -r the reference parser decides, and where it raises a plain
 * file stops and a record receives a reference_error diagnostic; --dump prints
 * the reference's own result.  Records of other conditions pass through.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bmdprep.h"
#include "llms.h"

/* Where an llms.txt comes from: its site and URL (either may be NULL). */
struct origin {
	const char *site;
	const char *url;
};

static json_t *
bstr(const struct bmd_str *s)
{
	return json_text(s->s, s->len);
}

static void
emit_diag(const struct origin *o, const char *code, unsigned long line,
    const char *msg)
{
	json_t *d = json_object();

	json_set_str(d, "kind", "diagnostic");
	json_set_new(d, "site_id", json_str_or_null(o->site));
	json_set_new(d, "llms_txt_url", json_str_or_null(o->url));
	json_set_str(d, "code", code);
	json_set_int(d, "line", (long long)line);
	json_set_new(d, "message", json_text(msg, strlen(msg)));
	ndj_emit_free(d);
}

/*
 * The kind llms record of l (NULL: nothing parsed), with the text txt
 * prepared as content (NULL: none) and the fields of the manifest record
 * rec (or NULL) that it does not set.
 */
static json_t *
llms_json(const struct bmd_run *run, const struct bmd_llms *l,
    const struct origin *o, const char *txt, size_t n, const json_t *rec)
{
	json_t *r = json_object(), *secs = json_array(), *v;
	const char *k;
	char *prep;
	size_t i, pl;

	json_set_str(r, "kind", "llms");
	json_set_new(r, "site_id", json_str_or_null(o->site));
	json_set_new(r, "llms_txt_url", json_str_or_null(o->url));
	json_set_new(r, "title", l ? bstr(&l->title) : json_null());
	json_set_new(r, "summary", l ? bstr(&l->summary) : json_null());
	json_set_new(r, "info", l ? bstr(&l->info) : json_null());
	for (i = 0; l && i < l->nsecs; i++)
		json_array_append_new(secs, bstr(&l->secs[i].name));
	json_set_new(r, "sections", secs);
	if (txt) {
		prep = bmd_md_prepare(txt, n, &run->md, &pl);
		json_set_new(r, "content", json_text(prep, pl));
		free(prep);
	} else {
		json_set_null(r, "content");
	}
	json_set_int(r, "link_count", l ? (long long)bmd_llms_link_count(l) : 0);
	if (rec)
		json_object_foreach((json_t *)rec, k, v)
			if (!json_object_get(r, k))
				json_object_set(r, k, v);
	return r;
}

static void
emit_links(const struct bmd_llms *l, const struct origin *o)
{
	size_t i, j;

	for (i = 0; i < l->nsecs; i++) {
		const struct bmd_section *s = &l->secs[i];

		for (j = 0; j < s->nlinks; j++) {
			const struct bmd_link *lk = &s->links[j];
			json_t *r = json_object();

			json_set_str(r, "kind", "link");
			json_set_new(r, "site_id", json_str_or_null(o->site));
			json_set_new(r, "llms_txt_url", json_str_or_null(o->url));
			json_set_new(r, "section", bstr(&s->name));
			json_set_bool(r, "optional", s->optional);
			json_set_new(r, "title", bstr(&lk->title));
			json_set_new(r, "url", lk->abs_url ?
			    json_string(lk->abs_url) : bstr(&lk->url));
			json_set_new(r, "href", bstr(&lk->url));
			json_set_new(r, "description", bstr(&lk->desc));
			json_set_int(r, "line", (long long)lk->line);
			ndj_emit_free(r);
		}
	}
}

static int
diag_cmp(const void *a, const void *b)
{
	const struct bmd_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The diagnostics sorted by line, ties in their order of creation. */
static void
emit_diags(struct bmd_llms *l, const struct origin *o)
{
	size_t i;

	if (l->ndiags > 1)
		qsort(l->diags, l->ndiags, sizeof *l->diags, diag_cmp);
	for (i = 0; i < l->ndiags; i++)
		emit_diag(o, l->diags[i].code, l->diags[i].line,
		    l->diags[i].message);
}

/* Everything one parsed llms.txt gives. */
static void
emit_parsed(const struct bmd_run *run, struct bmd_llms *l,
    const struct origin *o, const char *txt, size_t n, const json_t *rec)
{
	ndj_emit_free(llms_json(run, l, o, txt, n, rec));
	emit_links(l, o);
	emit_diags(l, o);
}

/*
 * Parse txt[0..n) with the run's parser and resolve its links against
 * base.  Where the reference raises, a plain file (rec NULL) dies naming
 * name and the line, and a record receives an empty llms record and a
 * reference_error diagnostic: NULL is returned.
 */
static struct bmd_llms *
parse(const struct bmd_run *run, const char *txt, size_t n, const char *base,
    const char *name, const struct origin *o, const json_t *rec)
{
	struct bmd_llms *l;
	struct bmd_ref_error e;
	char *m;

	if (!run->reference) {
		l = bmd_llms_parse(txt, n);
	} else if ((l = bmd_llms_parse_ref(txt, n, &e)) == NULL) {
		if (!rec)
			bmd_ref_error_die(name, &e, 0);
		m = bmd_ref_error_message(&e, 0);
		ndj_emit_free(llms_json(run, NULL, o, NULL, 0, rec));
		emit_diag(o, "reference_error", e.line, m);
		free(m);
		bmd_ref_error_free(&e);
		return NULL;
	}
	bmd_llms_resolve(l, base);
	return l;
}

/* --dump: the reference's result {title, summary, info, sections}. */
static void
dump_ref(const struct bmd_llms *l)
{
	json_t *o = json_object(), *secs = json_object(), *a, *x;
	const struct bmd_link *lk;
	size_t i, j;

	json_set_new(o, "title", bstr(&l->title));
	json_set_new(o, "summary", bstr(&l->summary));
	json_set_new(o, "info", bstr(&l->info));
	for (i = 0; i < l->nsecs; i++) {
		a = json_array();
		for (j = 0; j < l->secs[i].nlinks; j++) {
			lk = &l->secs[i].links[j];
			x = json_object();
			json_set_new(x, "title", bstr(&lk->title));
			json_set_new(x, "url", bstr(&lk->url));
			json_set_new(x, "desc", bstr(&lk->desc));
			json_array_append_new(a, x);
		}
		json_object_setn_new(secs, l->secs[i].name.s, l->secs[i].name.len,
		    a);
	}
	json_set_new(o, "sections", secs);
	ndj_emit_free(o);
}

/* A manifest record whose llms.txt was not fetched: said, not dropped. */
static void
not_fetched(const struct bmd_run *run, const struct origin *o, json_t *rec)
{
	const char *st = rec_str_opt(rec, "fetch_status");
	const char *why = rec_str_opt(rec, "failure_reason");
	char *m = xasprintf("llms.txt not fetched: %s%s%s",
	    st ? st : "no archive_path", why ? ": " : "", why ? why : "");

	ndj_emit_free(llms_json(run, NULL, o, NULL, 0, rec));
	emit_diag(o, "fetch_failed", 0, m);
	free(m);
}

/* What a record run did, for its summary. */
struct llms_count {
	const struct bmd_run *run;
	size_t nrec, parsed, unfetched, nplain;
};

static void
llms_record(json_t *rec, void *arg)
{
	struct llms_count *lc = arg;
	const struct bmd_run *run = lc->run;
	const char *cond = rec_str_opt(rec, "condition");
	struct origin o;
	struct bmd_llms *l;
	char *body;
	size_t n;

	o.site = rec_str_opt(rec, "site_id");
	lc->nrec++;
	if (!cond || strcmp(cond, "llms_txt") != 0) {
		ndj_emit(rec);
		return;
	}
	o.url = rec_str(rec, "url");
	if (!bmd_fetched(rec)) {
		not_fetched(run, &o, rec);
		lc->unfetched++;
		return;
	}
	lc->parsed++;
	body = bmd_fetched_body(run, rec, &n);
	if ((l = parse(run, body, n, o.url, ndj_where_file(), &o, rec)) != NULL)
		emit_parsed(run, l, &o, body, n, rec);
	bmd_llms_free(l);
	free(body);
}

static void
llms_plain(const char *txt, size_t n, const char *name, void *arg)
{
	struct llms_count *lc = arg;
	const struct bmd_run *run = lc->run;
	struct origin o = { run->site_id, run->base };
	struct bmd_llms *l = parse(run, txt, n, run->base, name, &o, NULL);

	if (run->dump)
		dump_ref(l);
	else
		emit_parsed(run, l, &o, txt, n, NULL);
	bmd_llms_free(l);
	lc->nplain++;
}

/*
 * Records that hold no llms_txt fetch parse nothing: an error unless
 * --allow-empty.  A record run ends with its summary; a plain file does not.
 */
void
bmd_mode_llms(const struct bmd_run *run, int nfiles, char *const files[])
{
	struct llms_count lc = { run, 0, 0, 0, 0 };
	const char *from = nfiles == 1 ? files[0] : nfiles ? "the input" :
	    "<stdin>";

	bmd_input_each(run, nfiles, files, llms_record, llms_plain, &lc);
	if (lc.nplain)
		return;
	if (lc.parsed + lc.unfetched == 0)
		die_empty(run->allow_empty, "%s: no llms_txt record among %zu "
		    "records, nothing parsed (bfetch --sites fetches them)", from,
		    lc.nrec);
	warn("records: %zu  llms.txt parsed %zu  not fetched %zu", lc.nrec,
	    lc.parsed, lc.unfetched);
}
