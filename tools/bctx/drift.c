/*
 * drift.c - bctx drift: the re-archive follow-up of spec 001 §7 L-SL-2.
 * Two snapshots of one study's pages, fetched months apart into two
 * archives and extracted with bread (condition A) and bmdprep (condition
 * B), are paired page by page, and each page is classified:
 *
 *   unchanged     the same content_sha256: the same bytes were archived
 *   same_content  other bytes, but the content the condition reads (bread's
 *                 text, bmdprep's markdown) is byte for byte the same: the
 *                 page's chrome changed, not what a model is given
 *   changed       the content differs: the fact-level differences
 *                 (common/facts.h: facts changed, added, removed) and the
 *                 word-level one (common/words.h: content words removed,
 *                 added, and the Dice similarity of the two multisets)
 *   gone          usable in the old snapshot; failed, excluded or no longer
 *                 planned in the new one
 *   new           usable in the new snapshot only
 *   excluded      usable in neither (not counted in the rates)
 *
 * Then one summary per site and condition and one per condition: the
 * counts, and the drift rate (changed + gone) / pages usable in the old
 * snapshot, so that a reader sees whether the llms.txt Markdown (B) or the
 * HTML (A) content drifted more.
 *
 * The inputs are the page records a study already has (pages-a.ndjson,
 * pages-b.ndjson of each snapshot): they carry the content as each
 * condition reads it, which the manifests and archives alone do not (the
 * extraction is bread's and bmdprep's).  A page is (site_id, the URL's key
 * as bctx_url_key makes it, condition), the condition being the record's
 * "variant" when it has one.
 */
#include <assert.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "facts.h"
#include "sort.h"
#include "words.h"
#include "bctx.h"

static const char usage[] =
"usage: bctx drift --old PAGES [--old PAGES]... --new PAGES [--new PAGES]...\n"
"                  [-o FILE]\n"
"\n"
"Pair the pages of two snapshots of one study (bread and bmdprep records of\n"
"a first archive and of a second one fetched later) and classify each page:\n"
"unchanged, same_content, changed (with the facts and words that changed),\n"
"gone, new or excluded; then drift rates per site and condition and per\n"
"condition.\n"
"\n"
"      --old FILE        page records of the first snapshot; repeatable\n"
"      --new FILE        page records of the second snapshot; repeatable\n"
"  -o, --output FILE     write the records to FILE (atomically)\n"
"  -h, --help            show this help\n"
"  -V, --version         show the version\n";

enum { OPT_OLD = 256, OPT_NEW };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "new", required_argument, NULL, OPT_NEW },
	{ "old", required_argument, NULL, OPT_OLD },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

enum dstatus { D_UNCHANGED, D_SAME, D_CHANGED, D_GONE, D_NEW, D_EXCLUDED,
	D_N };
static const char *const STATUS[D_N] = { "unchanged", "same_content",
	"changed", "gone", "new", "excluded" };

/* One page record of a snapshot (the strings borrowed from rec). */
struct dpage {
	json_t *rec;
	const char *file;	/* borrowed from argv */
	unsigned long line;
	const char *site, *url, *cond, *sha, *content;
	char *key;		/* site "\n" URL key "\n" condition */
	size_t len;
	int usable, md;
};

struct snapshot {
	struct dpage *v;
	size_t n, cap;
	json_t *index;		/* key -> position + 1 */
};

/* A summary: counts per status for one (site, condition) or condition. */
struct tally {
	const char *site, *cond;	/* borrowed; site NULL per condition */
	size_t n[D_N], facts;
	size_t order[2];	/* first-seen positions of site, condition */
};

struct drift {
	struct snapshot old, new;
	struct tally *t;	/* per site and condition, then per condition */
	size_t nt, capt;
	json_t *tindex;		/* "site\ncond" or "\ncond" -> position + 1 */
	json_t *sites, *conds;	/* name -> first-seen position + 1 */
};

static double
round4(double v)
{
	return (double)(long long)(v * 10000 + 0.5) / 10000;
}

/* ---------------------------------------------------------------- reading */

static void
page_fields(struct dpage *p)
{
	const char *reason, *status, *variant;
	char *ukey;

	p->site = rec_str(p->rec, "site_id");
	p->url = rec_str(p->rec, "url");
	p->cond = rec_str(p->rec, "condition");
	variant = rec_str_opt(p->rec, "variant");
	if (variant)
		p->cond = variant;
	status = rec_str(p->rec, "fetch_status");
	reason = rec_str_opt(p->rec, "exclusion_reason");
	/* read later, away from this line: checked here */
	rec_int_opt(p->rec, "http_status", 0);
	rec_array_opt(p->rec, "question_ids");
	if ((ukey = bctx_url_key(p->url)) == NULL)
		ndj_die("url: expected an absolute URL, got \"%s\"", p->url);
	p->key = xasprintf("%s\n%s\n%s", p->site, ukey, p->cond);
	free(ukey);
	p->usable = strcmp(status, "SUCCESS") == 0 && reason == NULL;
	if (!p->usable)
		return;
	p->sha = rec_str(p->rec, "content_sha256");
	p->content = rec_str_opt(p->rec, "markdown");
	p->md = p->content != NULL;
	if (!p->md)
		p->content = rec_str_opt(p->rec, "text");
	if (p->content == NULL)
		ndj_die("text: missing (a usable page carries bread's text or "
		    "bmdprep's markdown)");
	p->len = strlen(p->content);
}

static void
read_pages(struct snapshot *s, const char *path)
{
	struct ndj_reader r;
	json_t *rec, *at;

	ndj_reader_open(&r, path);
	while ((rec = ndj_next(&r)) != NULL) {
		struct dpage *p;

		if (s->n == s->cap)
			s->v = xreallocarray(s->v, s->cap = s->cap ? 2 * s->cap :
			    64, sizeof *s->v);
		p = &s->v[s->n];
		memset(p, 0, sizeof *p);
		p->rec = rec;
		p->file = path;
		p->line = r.line;
		page_fields(p);
		if ((at = json_object_get(s->index, p->key)) != NULL) {
			const struct dpage *q = &s->v[json_integer_value(at) - 1];

			ndj_die("url: page %s (site %s, condition %s) already "
			    "read at %s:%lu", p->url, p->site, p->cond, q->file,
			    q->line);
		}
		json_object_set_new(s->index, p->key, json_integer(++s->n));
	}
	ndj_reader_close(&r);
}

/* Every site of a has a page in b (names b's side in the message). */
static void
same_sites(const struct snapshot *a, const struct snapshot *b,
    const char *bname)
{
	json_t *seen = json_object();
	size_t i;

	for (i = 0; i < b->n; i++)
		json_object_set_new(seen, b->v[i].site, json_true());
	for (i = 0; i < a->n; i++) {
		if (json_object_get(seen, a->v[i].site))
			continue;
		ndj_set_where(a->v[i].file, a->v[i].line);
		ndj_die("site_id: site %s has no page in the %s snapshot: the "
		    "snapshots are of different plans", a->v[i].site, bname);
	}
	json_decref(seen);
}

/*
 * Two snapshots of one plan: the same sites, and a page in both answers
 * the same questions (the jobs' question_ids, when both carry them).
 */
static void
same_plan(const struct drift *d)
{
	size_t i;

	same_sites(&d->old, &d->new, "new");
	same_sites(&d->new, &d->old, "old");
	for (i = 0; i < d->new.n; i++) {
		const struct dpage *n = &d->new.v[i], *o;
		json_t *at = json_object_get(d->old.index, n->key), *qo, *qn;
		char *so, *sn;

		if (at == NULL)
			continue;
		/* the index names the old snapshot's pages, from 1 */
		assert(d->old.v != NULL && json_integer_value(at) >= 1 &&
		    (size_t)json_integer_value(at) <= d->old.n);
		o = &d->old.v[json_integer_value(at) - 1];
		ndj_set_where(n->file, n->line);
		qo = rec_array_opt(o->rec, "question_ids");
		qn = rec_array_opt(n->rec, "question_ids");
		if (qo == NULL || qn == NULL || json_equal(qo, qn))
			continue;
		so = json_compact(qo, NULL);
		sn = json_compact(qn, NULL);
		ndj_die("question_ids: %s, where the old snapshot has %s (%s:%lu): "
		    "the snapshots are of different plans", sn, so, o->file,
		    o->line);
	}
}

/* ---------------------------------------------------------------- comparing */

/* Up to BCTX_FACTS_SHOWN facts of f with status st in sx, as {kind, key,
 * value}; *count receives how many there are. */
static json_t *
facts_with(const struct facts *f, const unsigned char *sx, int st,
    size_t *count)
{
	json_t *arr = json_array();
	size_t i;

	*count = 0;
	for (i = 0; i < f->nd; i++) {
		json_t *o;

		if (sx[i] != st)
			continue;
		if ((*count)++ >= BCTX_FACTS_SHOWN)
			continue;
		o = json_object();
		json_set_str(o, "kind", facts_kind_name(f->d[i].kind));
		json_set_str(o, "key", facts_key(f, i));
		json_set_str(o, "value", facts_value(f, i));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* The fact-level differences of a changed page; returns facts changed. */
static size_t
fact_diff(const struct dpage *o, const struct dpage *n, json_t *rec)
{
	struct facts fo = FACTS_INIT, fn = FACTS_INIT;
	struct facts_cmp c;
	size_t added, removed, changed;
	json_t *add, *rem;

	facts_add(&fo, o->content, o->len, 0, o->md ? FACTS_MARKDOWN : 0);
	facts_add(&fn, n->content, n->len, 0, n->md ? FACTS_MARKDOWN : 0);
	facts_compare(&fo, &fn, &c);
	changed = c.nchanged;
	add = facts_with(&fn, c.sb, FACT_ONLY, &added);
	rem = facts_with(&fo, c.sa, FACT_ONLY, &removed);
	json_set_int(rec, "facts_changed_count", (long long)changed);
	json_set_new(rec, "facts_changed", bctx_facts_changes(&fo, &fn, &c,
	    "old", "new"));
	json_set_int(rec, "facts_added_count", (long long)added);
	json_set_new(rec, "facts_added", add);
	json_set_int(rec, "facts_removed_count", (long long)removed);
	json_set_new(rec, "facts_removed", rem);
	facts_cmp_release(&c);
	facts_release(&fo);
	facts_release(&fn);
	return changed;
}

/* The word-level difference: content words removed and added (as
 * multisets) and their Dice similarity, 2 |O ∩ N| / (|O| + |N|). */
static void
word_diff(const struct dpage *o, const struct dpage *n, json_t *rec)
{
	struct wordset wo = WORDSET_INIT, wn = WORDSET_INIT;
	size_t i, kept = 0;

	words_add(&wo, o->content, o->len, WORDS_CONTENT);
	words_add(&wn, n->content, n->len, WORDS_CONTENT);
	for (i = 0; i < wo.n; i++) {
		size_t c = wordset_count(&wn, wo.v[i].word);

		kept += c < wo.v[i].count ? c : wo.v[i].count;
	}
	json_set_int(rec, "words_removed", (long long)(wo.total - kept));
	json_set_int(rec, "words_added", (long long)(wn.total - kept));
	json_set_new(rec, "word_similarity", wo.total + wn.total ?
	    json_real(round4(2.0 * (double)kept / (double)(wo.total +
	    wn.total))) : json_null());
	wordset_release(&wo);
	wordset_release(&wn);
}

/* Why p is not usable: its exclusion reason, else its fetch status. */
static json_t *
unusable_reason(const struct dpage *p, const char *which)
{
	const char *r;
	long long http;

	if (p == NULL)
		return json_sprintf("not in the %s snapshot", which);
	if ((r = rec_str_opt(p->rec, "exclusion_reason")) != NULL)
		return json_string(r);
	r = rec_str(p->rec, "fetch_status");
	http = rec_int_opt(p->rec, "http_status", 0);
	return http ? json_sprintf("%s %lld", r, http) : json_string(r);
}

static enum dstatus
classify(const struct dpage *o, const struct dpage *n)
{
	int ou = o && o->usable, nu = n && n->usable;

	if (ou && nu) {
		if (strcmp(o->sha, n->sha) == 0)
			return D_UNCHANGED;
		if (o->len == n->len && o->md == n->md &&
		    memcmp(o->content, n->content, o->len) == 0)
			return D_SAME;
		return D_CHANGED;
	}
	return ou ? D_GONE : nu ? D_NEW : D_EXCLUDED;
}

/* The drift_page record of a page (o or n may be NULL); *facts receives
 * the count of its changed facts. */
static json_t *
page_record(const struct dpage *o, const struct dpage *n, enum dstatus st,
    size_t *facts)
{
	const struct dpage *p = o ? o : n;
	json_t *rec = json_object();

	*facts = 0;
	json_set_str(rec, "kind", "drift_page");
	json_set_str(rec, "site_id", p->site);
	json_set_str(rec, "url", p->url);
	json_set_str(rec, "condition", p->cond);
	json_set_str(rec, "status", STATUS[st]);
	json_set_new(rec, "old_sha256", json_str_or_null(o ? o->sha : NULL));
	json_set_new(rec, "new_sha256", json_str_or_null(n ? n->sha : NULL));
	if (st == D_GONE || (st == D_EXCLUDED && n))
		json_set_new(rec, "reason", unusable_reason(n, "new"));
	else if (st == D_NEW || st == D_EXCLUDED)
		json_set_new(rec, "reason", unusable_reason(o, "old"));
	if (st == D_CHANGED) {
		*facts = fact_diff(o, n, rec);
		word_diff(o, n, rec);
	}
	return rec;
}

/* ---------------------------------------------------------------- tallies */

static size_t
first_seen(json_t *names, const char *name)
{
	json_t *at = json_object_get(names, name);

	if (at == NULL) {
		at = json_integer((json_int_t)json_object_size(names) + 1);
		json_object_set_new(names, name, at);
	}
	return (size_t)json_integer_value(at);
}

static struct tally *
tally_of(struct drift *d, const char *site, const char *cond)
{
	char *key = xasprintf("%s\n%s", site ? site : "", cond);
	json_t *at = json_object_get(d->tindex, key);
	struct tally *t;

	if (at != NULL) {
		free(key);
		return &d->t[json_integer_value(at) - 1];
	}
	if (d->nt == d->capt)
		d->t = xreallocarray(d->t, d->capt = d->capt ? 2 * d->capt : 16,
		    sizeof *d->t);
	t = &d->t[d->nt];
	memset(t, 0, sizeof *t);
	t->site = site;
	t->cond = cond;
	t->order[0] = site ? first_seen(d->sites, site) : 0;
	t->order[1] = first_seen(d->conds, cond);
	json_object_set_new(d->tindex, key, json_integer(++d->nt));
	free(key);
	return t;
}

static void
count(struct drift *d, const struct dpage *p, enum dstatus st, size_t facts)
{
	struct tally *t[2];
	int k;

	t[0] = tally_of(d, p->site, p->cond);
	t[1] = tally_of(d, NULL, p->cond);
	for (k = 0; k < 2; k++) {
		t[k]->n[st]++;
		t[k]->facts += facts;
	}
}

/* Sites in first-seen order, then conditions; per condition last. */
static int
tally_cmp(const void *a, const void *b, void *arg)
{
	const struct tally *x = a, *y = b;
	int k;

	(void)arg;
	if ((x->site == NULL) != (y->site == NULL))
		return x->site == NULL ? 1 : -1;
	for (k = 0; k < 2; k++)
		if (x->order[k] != y->order[k])
			return x->order[k] < y->order[k] ? -1 : 1;
	return 0;
}

static json_t *
tally_record(const struct tally *t)
{
	json_t *rec = json_object();
	size_t old = t->n[D_UNCHANGED] + t->n[D_SAME] + t->n[D_CHANGED] +
	    t->n[D_GONE];
	size_t new = t->n[D_UNCHANGED] + t->n[D_SAME] + t->n[D_CHANGED] +
	    t->n[D_NEW];
	int k;

	json_set_str(rec, "kind", t->site ? "drift_site" : "drift_condition");
	if (t->site)
		json_set_str(rec, "site_id", t->site);
	json_set_str(rec, "condition", t->cond);
	json_set_int(rec, "old_pages", (long long)old);
	json_set_int(rec, "new_pages", (long long)new);
	for (k = 0; k < D_N; k++)
		json_set_int(rec, STATUS[k], (long long)t->n[k]);
	json_set_int(rec, "facts_changed", (long long)t->facts);
	json_set_new(rec, "drift_rate", old ? json_real(round4((double)(
	    t->n[D_CHANGED] + t->n[D_GONE]) / (double)old)) : json_null());
	return rec;
}

/* ---------------------------------------------------------------- the run */

static void
emit_pages(struct drift *d)
{
	size_t i, facts;
	enum dstatus st;

	for (i = 0; i < d->old.n; i++) {
		const struct dpage *o = &d->old.v[i], *n = NULL;
		json_t *at = json_object_get(d->new.index, o->key);

		if (at)
			n = &d->new.v[json_integer_value(at) - 1];
		st = classify(o, n);
		ndj_emit_free(page_record(o, n, st, &facts));
		count(d, o, st, facts);
	}
	for (i = 0; i < d->new.n; i++) {
		const struct dpage *n = &d->new.v[i];

		if (json_object_get(d->old.index, n->key))
			continue;
		st = classify(NULL, n);
		ndj_emit_free(page_record(NULL, n, st, &facts));
		count(d, n, st, facts);
	}
}

static void
snapshot_free(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		json_decref(s->v[i].rec);
		free(s->v[i].key);
	}
	free(s->v);
	json_decref(s->index);
}

static void
parse_opts(int argc, char *argv[], char ***old, size_t *nold, char ***new,
    size_t *nnew, const char **output)
{
	int c;

	while ((c = opt_getopt(argc, argv, "ho:V", longopts, "drift")) != -1) {
		switch (c) {
		case 'h': opt_help(usage); break;
		case OPT_NEW:
			*new = xreallocarray(*new, *nnew + 1, sizeof **new);
			(*new)[(*nnew)++] = optarg;
			break;
		case OPT_OLD:
			*old = xreallocarray(*old, *nold + 1, sizeof **old);
			(*old)[(*nold)++] = optarg;
			break;
		case 'o': *output = optarg; break;
		case 'V': opt_version(); break;
		default: die_usage("bad option");
		}
	}
	if (optind < argc)
		die_usage("drift takes no file arguments (the snapshots go with "
		    "--old and --new)");
	if (*nold == 0 || *nnew == 0)
		die_usage("drift needs --old and --new");
}

void
bctx_drift_main(int argc, char *argv[])
{
	struct drift d;
	char **old = NULL, **new = NULL;
	size_t i, nold = 0, nnew = 0;
	const char *output = NULL;

	parse_opts(argc, argv, &old, &nold, &new, &nnew, &output);
	memset(&d, 0, sizeof d);
	d.old.index = json_object();
	d.new.index = json_object();
	d.tindex = json_object();
	d.sites = json_object();
	d.conds = json_object();
	for (i = 0; i < nold; i++)
		read_pages(&d.old, old[i]);
	for (i = 0; i < nnew; i++)
		read_pages(&d.new, new[i]);
	same_plan(&d);
	ndj_output_open(output);
	emit_pages(&d);
	ctx_sort(d.t, d.nt, sizeof *d.t, tally_cmp, NULL);
	for (i = 0; i < d.nt; i++)
		ndj_emit_free(tally_record(&d.t[i]));
	snapshot_free(&d.old);
	snapshot_free(&d.new);
	free(d.t);
	json_decref(d.tindex);
	json_decref(d.sites);
	json_decref(d.conds);
	free(old);
	free(new);
	ctx_exit();
}
