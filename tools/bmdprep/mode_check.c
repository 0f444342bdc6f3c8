/*
 * mode_check.c - bmdprep --check: the inclusion verdict of spec 001
 * §1.1-1.2 for an llms.txt file, or for each llms_txt manifest record, as
 * one kind check record.  IC-1: the file was fetched, is UTF-8 text and has
 * an H1 title; IC-2: at least --min-links distinct links to Markdown
 * documents; EC-1 (excluded): links exist and none has a description.
 * Records of other conditions are not printed.
 */
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "words.h"
#include "bmdprep.h"
#include "llms.h"

struct verdict {
	int ic1, ic2, ec1;
	int refok;		/* the reference parser accepts the file */
	size_t links;		/* all links */
	size_t markdown;	/* distinct links to Markdown documents */
	size_t described;	/* links with a description */
	json_t *reasons;	/* what failed, as strings */
};

/*
 * IC-2 counts links to Markdown documents: a path ending in .md, .mdx,
 * .markdown or .txt (llms.txt files of sub-projects are Markdown too).
 */
static int
markdown_url(const char *u)
{
	size_t n = strcspn(u, "?#");

	return (n >= 3 && strncasecmp(u + n - 3, ".md", 3) == 0) ||
	    (n >= 4 && strncasecmp(u + n - 4, ".mdx", 4) == 0) ||
	    (n >= 9 && strncasecmp(u + n - 9, ".markdown", 9) == 0) ||
	    (n >= 4 && strncasecmp(u + n - 4, ".txt", 4) == 0);
}

static int
has_diag(const struct bmd_llms *l, const char *code)
{
	size_t i;

	for (i = 0; i < l->ndiags; i++)
		if (strcmp(l->diags[i].code, code) == 0)
			return 1;
	return 0;
}

/* Links, described links and distinct Markdown URLs (fragment ignored). */
static void
count_links(const struct bmd_llms *l, struct verdict *v)
{
	struct wordset seen = WORDSET_INIT;
	const struct bmd_link *lk;
	const char *u;
	size_t i, j;

	for (i = 0; i < l->nsecs; i++)
		for (j = 0; j < l->secs[i].nlinks; j++) {
			lk = &l->secs[i].links[j];
			u = lk->abs_url ? lk->abs_url : lk->url.s;
			if (lk->desc.s && lk->desc.len > 0)
				v->described++;
			if (markdown_url(u))
				wordset_add(&seen, u, strcspn(u, "#"));
		}
	v->links = bmd_llms_link_count(l);
	v->markdown = seen.n;
	wordset_release(&seen);
}

/* The verdict on the fetched llms.txt txt[0..n) whose URL is url. */
static void
judge(const struct bmd_run *run, const char *txt, size_t n, const char *url,
    struct verdict *v)
{
	struct bmd_ref_error e;
	struct bmd_llms *l = bmd_llms_parse_ref(txt, n, &e);

	v->refok = l != NULL;
	if (l)
		bmd_llms_free(l);
	else
		bmd_ref_error_free(&e);
	l = bmd_llms_parse(txt, n);
	bmd_llms_resolve(l, url);
	count_links(l, v);
	v->ic1 = l->title.s && l->title.len > 0 &&
	    !has_diag(l, "binary_input") && !has_diag(l, "invalid_utf8");
	if (!v->ic1)
		json_array_append_new(v->reasons, json_string(
		    has_diag(l, "binary_input") ? "IC-1: binary file" :
		    has_diag(l, "invalid_utf8") ? "IC-1: invalid UTF-8" :
		    "IC-1: no H1 title"));
	v->ic2 = (long)v->markdown >= run->min_links;
	if (!v->ic2)
		json_array_append_new(v->reasons, json_sprintf("IC-2: %zu "
		    "distinct Markdown links, fewer than %ld", v->markdown,
		    run->min_links));
	v->ec1 = v->links > 0 && v->described == 0;
	if (v->ec1)
		json_array_append_new(v->reasons, json_string("EC-1: bare link "
		    "list, no link has a description"));
	bmd_llms_free(l);
}

/*
 * The check record of the llms.txt txt[0..n), or of one that was not
 * fetched (failure: why; txt unused).
 */
static void
emit_check(const struct bmd_run *run, const char *site, const char *url,
    const char *txt, size_t n, const char *failure)
{
	struct verdict v;
	json_t *o = json_object();

	memset(&v, 0, sizeof v);
	v.reasons = json_array();
	if (failure) {
		json_array_append_new(v.reasons, json_sprintf("IC-1: llms.txt "
		    "not fetched (%s)", failure));
		json_array_append_new(v.reasons, json_string("IC-2: no links"));
	} else {
		judge(run, txt, n, url, &v);
	}
	json_set_str(o, "kind", "check");
	json_set_new(o, "site_id", json_str_or_null(site));
	json_set_new(o, "llms_txt_url", json_str_or_null(url));
	json_set_str(o, "verdict", v.ic1 && v.ic2 && !v.ec1 ? "PASS" : "FAIL");
	json_set_bool(o, "ic1", v.ic1);
	json_set_bool(o, "ic2", v.ic2);
	json_set_bool(o, "ec1", v.ec1);
	json_set_int(o, "link_count", (long long)v.links);
	json_set_int(o, "distinct_markdown_links", (long long)v.markdown);
	json_set_int(o, "links_with_description", (long long)v.described);
	json_set_bool(o, "reference_parses", v.refok);
	json_set_new(o, "reasons", v.reasons);
	ndj_emit_free(o);
}

static void
check_record(json_t *rec, void *arg)
{
	const struct bmd_run *run = arg;
	const char *cond = rec_str_opt(rec, "condition");
	const char *site = rec_str_opt(rec, "site_id");
	const char *url, *st;
	char *body;
	size_t n;

	if (!cond || strcmp(cond, "llms_txt") != 0)
		return;
	url = rec_str(rec, "url");
	st = rec_str_opt(rec, "fetch_status");
	if (!bmd_fetched(rec)) {
		emit_check(run, site, url, NULL, 0, st ? st : "no archive_path");
		return;
	}
	body = bmd_fetched_body(run, rec, &n);
	emit_check(run, site, url, body, n, NULL);
	free(body);
}

static void
check_plain(const char *txt, size_t n, const char *name, void *arg)
{
	const struct bmd_run *run = arg;

	(void)name;
	emit_check(run, run->site_id, run->base, txt, n, NULL);
}

void
bmd_mode_check(const struct bmd_run *run, int nfiles, char *const files[])
{
	bmd_input_each(run, nfiles, files, check_record, check_plain,
	    (void *)run);
}
