/*
 * bmdprep - llms.txt parsing and Condition B Markdown preparation
 * (spec 001 §1.1-1.2, §2.3).
 *
 * Modes:
 *   bmdprep [FILE...]          Markdown preparation: condition B manifest
 *                              records get markdown, content_chars (and
 *                              exclusion_reason EMPTY_CONTENT); a Markdown
 *                              file is printed prepared.
 *   bmdprep --llms [FILE...]   llms.txt files (or condition llms_txt
 *                              manifest records) into kind llms / link /
 *                              diagnostic records.
 *   bmdprep --check [FILE...]  the IC-1 / IC-2 / EC-1 verdict per site.
 *   bmdprep --ctx LLMS.TXT     the reference create_ctx() context.
 * -r/--reference switches parsing and preparation to the reference
 * implementation's exact behaviour (llms.c / llms_ref.c / llmsctx.c).
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "archive.h"
#include "llms.h"
#include "llmsctx.h"
#include "mdprep.h"

static const char usage[] =
"usage: bmdprep [-r] [-a DIR] [-c FILE] [-o FILE] [--front-matter keep|drop]\n"
"               [--max-blank N] [--raw | --records] [FILE...]\n"
"       bmdprep --llms [-r] [-a DIR] [-b URL] [--site-id ID] [--dump] [FILE...]\n"
"       bmdprep --check [-a DIR] [-b URL] [--min-links N] [FILE...]\n"
"       bmdprep --ctx [--optional] [-b URL] [--doc URL=FILE]... [--docs FILE]\n"
"               LLMS.TXT\n"
"\n"
"Prepare Condition B Markdown and parse llms.txt files (ctxbench spec 001\n"
"§1.1-1.2, §2.3).  Input is NDJSON manifest records or, with --raw (the\n"
"default when the input does not start with '{'), one plain file.\n"
"\n"
"  -a, --archive DIR      archive of fetched files (default $CTXBENCH_ARCHIVE,\n"
"                         else ./archive)\n"
"  -b, --base URL         URL of the llms.txt, to resolve relative links\n"
"                         (record mode uses each record's url)\n"
"  -c, --config FILE      benchmark-config.json (extraction.markdown_preprocessing)\n"
"      --check            print the IC-1/IC-2/EC-1 inclusion verdict per site\n"
"      --ctx              print the reference create_ctx() context of LLMS.TXT\n"
"      --doc URL=FILE     (--ctx) the document linked as URL is FILE\n"
"      --docs FILE        (--ctx) NDJSON records {url, text|markdown|content|\n"
"                         archive_path} holding the linked documents\n"
"      --dump             (--llms -r) print the reference parse result as JSON\n"
"      --front-matter keep|drop  leading YAML front matter (default keep)\n"
"  -h, --help             show this help\n"
"      --llms             parse llms.txt files into llms/link/diagnostic records\n"
"      --max-blank N      at most N consecutive blank lines (default: config, 2)\n"
"      --min-links N      IC-2 threshold of distinct Markdown links (default 5)\n"
"  -o, --output FILE      write the output to FILE (atomically)\n"
"      --optional         (--ctx) include the Optional section\n"
"      --raw              the input is one plain file, not records\n"
"      --records          the input is NDJSON manifest records\n"
"  -r, --reference        reproduce the llms.txt reference implementation exactly\n"
"      --site-id ID       site_id of a plain llms.txt file\n"
"  -V, --version          show the version\n";

enum {
	OPT_CHECK = 256, OPT_CTX, OPT_DOC, OPT_DOCS, OPT_DUMP, OPT_FRONT,
	OPT_LLMS, OPT_MAXBLANK, OPT_MINLINKS, OPT_OPTIONAL, OPT_RAW,
	OPT_RECORDS, OPT_SITEID
};

static const struct option longopts[] = {
	{ "archive", required_argument, NULL, 'a' },
	{ "base", required_argument, NULL, 'b' },
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "ctx", no_argument, NULL, OPT_CTX },
	{ "doc", required_argument, NULL, OPT_DOC },
	{ "docs", required_argument, NULL, OPT_DOCS },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "front-matter", required_argument, NULL, OPT_FRONT },
	{ "help", no_argument, NULL, 'h' },
	{ "llms", no_argument, NULL, OPT_LLMS },
	{ "max-blank", required_argument, NULL, OPT_MAXBLANK },
	{ "min-links", required_argument, NULL, OPT_MINLINKS },
	{ "output", required_argument, NULL, 'o' },
	{ "optional", no_argument, NULL, OPT_OPTIONAL },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "records", no_argument, NULL, OPT_RECORDS },
	{ "reference", no_argument, NULL, 'r' },
	{ "site-id", required_argument, NULL, OPT_SITEID },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

enum mode { M_MD, M_LLMS, M_CHECK, M_CTX };

static struct {
	enum mode mode;
	int reference, dump, optional, input;	/* input: 0 auto, 1 raw, 2 records */
	const char *archive, *base, *site_id;
	long min_links;
	struct bmd_mdopts md;
} G;

#define MAX_INPUT ((size_t)1 << 30)

/* ------------------------------------------------------------ helpers */

static json_t *
jstr(const char *s, size_t n)
{
	json_t *v;

	if (!s)
		return json_null();
	v = json_stringn(s, n);
	if (!v)		/* not UTF-8: only possible for hostile bytes */
		v = json_string("\xef\xbf\xbd");
	return v;
}

static json_t *
jbstr(const struct bmd_str *s)
{
	return jstr(s->s, s->len);
}

/* The input file being worked on, which die_ref releases before dying. */
static char *Held;

static char *
read_input(const char *path, size_t *len)
{
	char *s = read_file(path, len, MAX_INPUT);

	if (!s) {
		if (errno == EFBIG)
			die("%s: larger than %zu bytes", path, MAX_INPUT);
		die_errno("%s", strcmp(path, "-") == 0 ? "<stdin>" : path);
	}
	return s;
}

/*
 * A record whose file is in the archive: fetch_status SUCCESS (or none)
 * and an archive_path.  A SUCCESS without archive_path is an error, as in
 * bread: the manifest is damaged and the page would be lost silently.
 */
static int
fetched(const json_t *rec)
{
	const char *st = rec_str_opt(rec, "fetch_status");

	if (st && strcmp(st, "SUCCESS") == 0 &&
	    rec_str_opt(rec, "archive_path") == NULL)
		ndj_die("archive_path: expected a string for a successful fetch");
	return (!st || strcmp(st, "SUCCESS") == 0) &&
	    rec_str_opt(rec, "archive_path") != NULL;
}

/* ------------------------------------------------------------ llms.txt */

static int
diag_cmp(const void *a, const void *b)
{
	const struct bmd_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Stable sort of the diagnostics by line: ties keep their order. */
static void
sort_diags(struct bmd_llms *l)
{
	if (l->ndiags > 1)
		qsort(l->diags, l->ndiags, sizeof *l->diags, diag_cmp);
}

static void
emit_diag(const char *site, const char *url, const char *code,
    unsigned long line, const char *msg)
{
	json_t *d = json_object();

	json_set_str(d, "kind", "diagnostic");
	json_set_new(d, "site_id", site ? json_string(site) : json_null());
	json_set_new(d, "llms_txt_url", url ? json_string(url) : json_null());
	json_set_str(d, "code", code);
	json_set_int(d, "line", (long long)line);
	json_set_new(d, "message", jstr(msg, strlen(msg)));
	ndj_emit_free(d);
}

static size_t
link_count(const struct bmd_llms *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nsecs; i++)
		n += l->secs[i].nlinks;
	return n;
}

/*
 * Emit the llms record (rec: the manifest record whose other fields pass
 * through, or NULL), its links and diagnostics.  l may be NULL (nothing
 * parsed).
 */
static void
emit_llms(struct bmd_llms *l, const char *site, const char *url,
    const char *txt, size_t n, const json_t *rec)
{
	json_t *o = json_object(), *secs = json_array();
	const char *k;
	json_t *v;
	size_t i, j;

	json_set_str(o, "kind", "llms");
	json_set_new(o, "site_id", site ? json_string(site) : json_null());
	json_set_new(o, "llms_txt_url", url ? json_string(url) : json_null());
	json_set_new(o, "title", l ? jbstr(&l->title) : json_null());
	json_set_new(o, "summary", l ? jbstr(&l->summary) : json_null());
	json_set_new(o, "info", l ? jbstr(&l->info) : json_null());
	for (i = 0; l && i < l->nsecs; i++)
		json_array_append_new(secs, jbstr(&l->secs[i].name));
	json_set_new(o, "sections", secs);
	if (txt) {
		size_t pl;
		struct bmd_mdopts mo = G.md;
		char *prep = bmd_md_prepare(txt, n, &mo, &pl);

		json_set_new(o, "content", jstr(prep, pl));
		free(prep);
	} else {
		json_set_null(o, "content");
	}
	json_set_int(o, "link_count", l ? (long long)link_count(l) : 0);
	if (rec)
		json_object_foreach((json_t *)rec, k, v)
			if (!json_object_get(o, k))
				json_object_set(o, k, v);
	ndj_emit_free(o);
	for (i = 0; l && i < l->nsecs; i++) {
		const struct bmd_section *s = &l->secs[i];

		for (j = 0; j < s->nlinks; j++) {
			const struct bmd_link *lk = &s->links[j];
			json_t *r = json_object();

			json_set_str(r, "kind", "link");
			json_set_new(r, "site_id", site ? json_string(site) :
			    json_null());
			json_set_new(r, "llms_txt_url", url ? json_string(url) :
			    json_null());
			json_set_new(r, "section", jbstr(&s->name));
			json_set_bool(r, "optional", s->optional);
			json_set_new(r, "title", jbstr(&lk->title));
			if (lk->abs_url)
				json_set_str(r, "url", lk->abs_url);
			else
				json_set_new(r, "url", jbstr(&lk->url));
			json_set_new(r, "href", jbstr(&lk->url));
			json_set_new(r, "description", jbstr(&lk->desc));
			json_set_int(r, "line", (long long)lk->line);
			ndj_emit_free(r);
		}
	}
	if (l) {
		sort_diags(l);
		for (i = 0; i < l->ndiags; i++)
			emit_diag(site, url, l->diags[i].code, l->diags[i].line,
			    l->diags[i].message);
	}
}

static char *
ref_error_msg(const struct bmd_ref_error *e, int ctx)
{
	const char *exc = ctx ? e->ctx_exception : e->exception;

	if (strcmp(e->stage, "link") == 0)
		return xasprintf("reference parser raises %s: line in section "
		    "\"%s\" is not a link: %.300s", exc, e->section,
		    e->text ? e->text : "");
	if (strcmp(e->stage, "header") == 0)
		return xasprintf("reference parser raises %s: no H1 title "
		    "followed by a blank line and text: %.300s", exc,
		    e->text ? e->text : "");
	return xasprintf("reference parser raises %s", exc);
}

/*
 * Die with the reference parser's error e on file name: the message is
 * copied and everything e holds released first, so that dying leaks
 * nothing (the input buffer is held in Held, reachable to the end).
 */
static void
die_ref(const char *name, struct bmd_ref_error *e, int ctx)
{
	char *m = ref_error_msg(e, ctx), msg[2048];
	unsigned long line = e->line;

	snprintf(msg, sizeof msg, "%s", m);
	free(m);
	bmd_ref_error_free(e);
	free(Held);
	Held = NULL;
	die("%s:%lu: %s", name, line, msg);
}

/* Parse one llms.txt text (either parser); NULL with diag on ref failure. */
static struct bmd_llms *
parse_llms(const char *txt, size_t n, const char *base, const char *name,
    int raw, const char *site, const char *url, const json_t *rec)
{
	struct bmd_llms *l;
	struct bmd_ref_error e;

	if (!G.reference) {
		l = bmd_llms_parse(txt, n);
	} else {
		l = bmd_llms_parse_ref(txt, n, &e);
		if (!l) {
			char *m;

			if (raw)
				die_ref(name, &e, 0);
			m = ref_error_msg(&e, 0);
			emit_llms(NULL, site, url, NULL, 0, rec);
			emit_diag(site, url, "reference_error", e.line, m);
			free(m);
			bmd_ref_error_free(&e);
			return NULL;
		}
	}
	bmd_llms_resolve(l, base);
	return l;
}

static void
dump_ref(const struct bmd_llms *l)
{
	json_t *o = json_object(), *secs = json_object();
	size_t i, j;

	json_set_new(o, "title", jbstr(&l->title));
	json_set_new(o, "summary", jbstr(&l->summary));
	json_set_new(o, "info", jbstr(&l->info));
	for (i = 0; i < l->nsecs; i++) {
		json_t *a = json_array();

		for (j = 0; j < l->secs[i].nlinks; j++) {
			const struct bmd_link *lk = &l->secs[i].links[j];
			json_t *x = json_object();

			json_set_new(x, "title", jbstr(&lk->title));
			json_set_new(x, "url", jbstr(&lk->url));
			json_set_new(x, "desc", jbstr(&lk->desc));
			json_array_append_new(a, x);
		}
		json_object_setn_new(secs, l->secs[i].name.s, l->secs[i].name.len,
		    a);
	}
	json_set_new(o, "sections", secs);
	ndj_emit_free(o);
}

/* ------------------------------------------------------------ --check */

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

static void
emit_check(const char *site, const char *url, const char *txt, size_t n,
    const char *failure)
{
	json_t *o = json_object(), *reasons = json_array();
	struct bmd_llms *l = NULL;
	struct bmd_ref_error e;
	int ic1 = 0, ic2 = 0, ec1 = 0, refok = 0;
	size_t i, j, k, nl = 0, desc = 0, nmd = 0;
	char **seen = NULL;

	if (failure) {
		json_array_append_new(reasons, json_sprintf("IC-1: llms.txt "
		    "not fetched (%s)", failure));
	} else {
		struct bmd_llms *r = bmd_llms_parse_ref(txt, n, &e);

		refok = r != NULL;
		bmd_llms_free(r);
		if (!refok)
			bmd_ref_error_free(&e);
		l = bmd_llms_parse(txt, n);
		bmd_llms_resolve(l, url);
		nl = link_count(l);
		seen = xcalloc(nl + 1, sizeof *seen);
		for (i = 0; i < l->nsecs; i++)
			for (j = 0; j < l->secs[i].nlinks; j++) {
				const struct bmd_link *lk = &l->secs[i].links[j];
				const char *u = lk->abs_url ? lk->abs_url : lk->url.s;
				size_t ul = strcspn(u, "#");

				if (lk->desc.s && lk->desc.len > 0)
					desc++;
				if (!markdown_url(u))
					continue;
				for (k = 0; k < nmd; k++)
					if (strlen(seen[k]) == ul &&
					    memcmp(seen[k], u, ul) == 0)
						break;
				if (k == nmd)
					seen[nmd++] = xstrndup(u, ul);
			}
		ic1 = l->title.s && l->title.len > 0 &&
		    !has_diag(l, "binary_input") && !has_diag(l, "invalid_utf8");
		if (!ic1)
			json_array_append_new(reasons, json_string(
			    has_diag(l, "binary_input") ? "IC-1: binary file" :
			    has_diag(l, "invalid_utf8") ? "IC-1: invalid UTF-8" :
			    "IC-1: no H1 title"));
		ic2 = (long)nmd >= G.min_links;
		if (!ic2)
			json_array_append_new(reasons, json_sprintf("IC-2: %zu "
			    "distinct Markdown links, fewer than %ld", nmd,
			    G.min_links));
		ec1 = nl > 0 && desc == 0;
		if (ec1)
			json_array_append_new(reasons, json_string("EC-1: bare "
			    "link list, no link has a description"));
		for (k = 0; k < nmd; k++)
			free(seen[k]);
		free(seen);
	}
	if (failure)
		json_array_append_new(reasons, json_string("IC-2: no links"));
	json_set_str(o, "kind", "check");
	json_set_new(o, "site_id", site ? json_string(site) : json_null());
	json_set_new(o, "llms_txt_url", url ? json_string(url) : json_null());
	json_set_str(o, "verdict", ic1 && ic2 && !ec1 ? "PASS" : "FAIL");
	json_set_bool(o, "ic1", ic1);
	json_set_bool(o, "ic2", ic2);
	json_set_bool(o, "ec1", ec1);
	json_set_int(o, "link_count", (long long)nl);
	json_set_int(o, "distinct_markdown_links", (long long)nmd);
	json_set_int(o, "links_with_description", (long long)desc);
	json_set_bool(o, "reference_parses", refok);
	json_set_new(o, "reasons", reasons);
	ndj_emit_free(o);
	bmd_llms_free(l);
}

/* ------------------------------------------------------------ Markdown */

static char *
prepare(const char *s, size_t n, size_t *outlen)
{
	if (G.reference)
		return bmd_ctx_doc_text(s, n, outlen);
	return bmd_md_prepare(s, n, &G.md, outlen);
}

/* ------------------------------------------------------------ records */

static void
handle_record(json_t *rec)
{
	const char *cond = rec_str_opt(rec, "condition");
	const char *site = rec_str_opt(rec, "site_id");
	char *body;
	size_t n;

	if (G.mode == M_MD) {
		if (!cond || strcmp(cond, "B") != 0 || !fetched(rec)) {
			ndj_emit(rec);
			return;
		}
		body = archive_read(G.archive, rec, &n, MAX_INPUT);
		{
			size_t pl;
			char *prep = prepare(body, n, &pl);
			int empty = 1;
			size_t i;

			for (i = 0; i < pl; i++)
				if (prep[i] != ' ' && prep[i] != '\n' &&
				    prep[i] != '\t') {
					empty = 0;
					break;
				}
			json_set_new(rec, "markdown", jstr(prep, pl));
			json_set_int(rec, "content_chars",
			    (long long)utf8_count(prep, pl));
			if (empty)
				json_set_str(rec, "exclusion_reason",
				    "EMPTY_CONTENT");
			free(prep);
		}
		free(body);
		ndj_emit(rec);
		return;
	}
	if (!cond || strcmp(cond, "llms_txt") != 0) {
		if (G.mode == M_LLMS)
			ndj_emit(rec);
		return;
	}
	{
		const char *url = rec_str(rec, "url");
		const char *st = rec_str_opt(rec, "fetch_status");
		struct bmd_llms *l;

		if (!fetched(rec)) {
			char *m = xasprintf("llms.txt not fetched: %s%s%s",
			    st ? st : "no archive_path",
			    rec_str_opt(rec, "failure_reason") ? ": " : "",
			    rec_str_opt(rec, "failure_reason") ?
			    rec_str_opt(rec, "failure_reason") : "");

			if (G.mode == M_CHECK) {
				emit_check(site, url, NULL, 0, st ? st :
				    "no archive_path");
			} else {
				emit_llms(NULL, site, url, NULL, 0, rec);
				emit_diag(site, url, "fetch_failed", 0, m);
			}
			free(m);
			return;
		}
		body = archive_read(G.archive, rec, &n, MAX_INPUT);
		if (G.mode == M_CHECK) {
			emit_check(site, url, body, n, NULL);
		} else {
			l = parse_llms(body, n, url, ndj_where_file(), 0, site,
			    url, rec);
			if (l)
				emit_llms(l, site, url, body, n, rec);
			bmd_llms_free(l);
		}
		free(body);
	}
}

static void
run_records(const char *txt, size_t n, const char *name)
{
	struct ndj_reader r;
	FILE *fp = fmemopen((void *)txt, n, "r");
	json_t *rec;

	if (!fp)
		die_errno("%s", name);
	ndj_reader_init(&r, fp, name);
	while ((rec = ndj_next(&r)) != NULL) {
		handle_record(rec);
		json_decref(rec);
	}
	ndj_reader_close(&r);
	fclose(fp);
}

/* Longest line a plain Markdown file may have when its kind is guessed. */
#define MAX_GUESS_LINE ((size_t)1 << 20)

/*
 * What an input is when neither --raw nor --records says (bmdprep(1),
 * INPUT): NDJSON records when its first non-blank character is '{'; else
 * a plain file.  Refused, with the line named: a UTF-8 byte order mark
 * before a '{' (other programs reject such NDJSON at :1 too), a first line
 * that is a whole JSON value other than an object ("[...]", a number, a
 * string), and a line longer than 1 MiB (no Markdown document has one).
 * --raw or --records skips the guess.
 */
static int
looks_like_records(const char *s, size_t n, const char *name)
{
	size_t i = 0, e, ln = 1, start;
	const char *nl;
	json_t *v;
	int bom = n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0;

	for (start = 0; start < n; start = e + 1, ln++) {
		nl = memchr(s + start, '\n', n - start);
		e = nl ? (size_t)(nl - s) : n;
		if (e - start > MAX_GUESS_LINE)
			die("%s:%zu: a line of %zu bytes: not a Markdown or llms.txt "
			    "file (give --raw to take it as one)", name, ln,
			    e - start);
	}
	if (bom)
		i = 3;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	if (i < n && s[i] == '{' && bom)
		die("%s:1: a UTF-8 byte order mark before NDJSON records: remove "
		    "it (or give --raw to take the file as Markdown)", name);
	if (i < n && s[i] == '{')
		return 1;
	nl = memchr(s + i, '\n', n - i);
	e = nl ? (size_t)(nl - s) : n;
	v = json_loadb(s + i, e - i, JSON_DECODE_ANY, NULL);
	if (v != NULL) {
		const char *what = json_type_desc(v);

		json_decref(v);
		for (ln = 1, start = 0; start < i; start++)
			ln += s[start] == '\n';
		die("%s:%zu: %s, not an NDJSON record nor Markdown (give --raw "
		    "to take it as Markdown)", name, ln, what);
	}
	return 0;
}

static void
run_raw(const char *txt, size_t n, const char *name)
{
	FILE *out = ndj_output();

	switch (G.mode) {
	case M_MD: {
		size_t pl;
		char *prep = prepare(txt, n, &pl);

		if (fwrite(prep, 1, pl, out) != pl)
			die_errno("write");
		free(prep);
		break;
	}
	case M_LLMS: {
		struct bmd_llms *l = parse_llms(txt, n, G.base, name, 1,
		    G.site_id, G.base, NULL);

		if (G.dump)
			dump_ref(l);
		else
			emit_llms(l, G.site_id, G.base, txt, n, NULL);
		bmd_llms_free(l);
		break;
	}
	case M_CHECK:
		emit_check(G.site_id, G.base, txt, n, NULL);
		break;
	case M_CTX:
		break;
	}
}

/* ------------------------------------------------------------ --ctx */

struct doc {
	char *url;
	char *text;
	size_t len;
};

static struct {
	struct doc *v;
	size_t n, cap;
} Docs;

static void
add_doc(char *url, char *text, size_t len)
{
	if (Docs.n == Docs.cap) {
		Docs.cap = Docs.cap ? Docs.cap * 2 : 16;
		Docs.v = xreallocarray(Docs.v, Docs.cap, sizeof *Docs.v);
	}
	Docs.v[Docs.n].url = url;
	Docs.v[Docs.n].text = text;
	Docs.v[Docs.n].len = len;
	Docs.n++;
}

static void
load_doc_records(const char *path)
{
	struct ndj_reader r;
	json_t *rec;

	ndj_reader_open(&r, path);
	while ((rec = ndj_next(&r)) != NULL) {
		const char *url = rec_str(rec, "url"), *k;
		const char *keys[] = { "text", "markdown", "content", NULL };
		size_t i;
		json_t *v = NULL;

		for (i = 0; keys[i]; i++) {
			v = json_object_get(rec, keys[i]);
			if (v && json_is_string(v)) {
				size_t len = json_string_length(v);
				char *copy = xmalloc(len + 1);

				k = json_string_value(v);
				memcpy(copy, k, len);
				copy[len] = '\0';
				add_doc(xstrdup(url), copy, len);
				break;
			}
			v = NULL;
		}
		if (!v) {
			size_t n;
			char *body;

			if (!fetched(rec))
				ndj_die("no text, markdown, content or "
				    "archive_path for %s", url);
			body = archive_read(G.archive, rec, &n, MAX_INPUT);
			add_doc(xstrdup(url), body, n);
		}
		json_decref(rec);
	}
	ndj_reader_close(&r);
}

static void
free_docs(void)
{
	size_t i;

	for (i = 0; i < Docs.n; i++) {
		free(Docs.v[i].url);
		free(Docs.v[i].text);
	}
	free(Docs.v);
	memset(&Docs, 0, sizeof Docs);
}

static const char *
lookup_doc(const struct bmd_link *lk, size_t *n, void *arg)
{
	size_t i, pass;

	(void)arg;
	for (pass = 0; pass < 2; pass++) {
		const char *u = pass == 0 ? lk->url.s : lk->abs_url;

		if (!u)
			continue;
		for (i = 0; i < Docs.n; i++)
			if (strcmp(Docs.v[i].url, u) == 0) {
				*n = Docs.v[i].len;
				return Docs.v[i].text;
			}
	}
	return NULL;
}

static void
run_ctx(const char *path)
{
	char *txt;
	size_t n;
	struct bmd_llms *l;
	struct bmd_ref_error e;
	struct buf out = BUF_INIT;
	const struct bmd_link *missing = NULL;
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;

	txt = Held = read_input(path, &n);
	l = bmd_llms_parse_ref(txt, n, &e);
	if (!l)
		die_ref(name, &e, 1);
	bmd_llms_resolve(l, G.base);
	if (bmd_ctx_render(&out, l, G.optional, lookup_doc, NULL, &missing) < 0) {
		char url[1024];
		unsigned long line = missing->line;

		snprintf(url, sizeof url, "%s", missing->url.s);
		buf_release(&out);
		bmd_llms_free(l);
		free(txt);
		Held = NULL;
		free_docs();
		die("%s:%lu: no document given for the link URL \"%s\"", name,
		    line, url);
	}
	if (fwrite(out.s, 1, out.len, ndj_output()) != out.len)
		die_errno("write");
	buf_release(&out);
	bmd_llms_free(l);
	free(txt);
	Held = NULL;
	free_docs();
}

int
main(int argc, char *argv[])
{
	const char *config = NULL, *output = NULL;
	long max_blank = -2;
	int front = -1, c, i;
	char **docargs = NULL;
	const char **docfiles = NULL;
	size_t ndocargs = 0, ndocfiles = 0;

	ctx_init(argv[0]);
	G.min_links = 5;
	G.archive = getenv("CTXBENCH_ARCHIVE");
	if (!G.archive || !*G.archive)
		G.archive = "archive";
	while ((c = opt_getopt(argc, argv, "a:b:c:ho:rV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': G.archive = optarg; break;
		case 'b': G.base = optarg; break;
		case 'c': config = optarg; break;
		case OPT_CHECK: G.mode = M_CHECK; break;
		case OPT_CTX: G.mode = M_CTX; break;
		case OPT_DOC:
			if (!strchr(optarg, '=') || optarg[0] == '=')
				die_usage("--doc: expected URL=FILE, got \"%s\"",
				    optarg);
			docargs = xreallocarray(docargs, ndocargs + 1,
			    sizeof *docargs);
			docargs[ndocargs++] = optarg;
			break;
		case OPT_DOCS:
			docfiles = xreallocarray(docfiles, ndocfiles + 1,
			    sizeof *docfiles);
			docfiles[ndocfiles++] = optarg;
			break;
		case OPT_DUMP: G.dump = 1; break;
		case OPT_FRONT:
			if (strcmp(optarg, "keep") == 0)
				front = 0;
			else if (strcmp(optarg, "drop") == 0)
				front = 1;
			else
				die_usage("--front-matter: expected keep or drop, "
				    "got \"%s\"", optarg);
			break;
		case 'h': opt_help(usage); break;
		case OPT_LLMS: G.mode = M_LLMS; break;
		case OPT_MAXBLANK:
			max_blank = (long)opt_int("--max-blank", optarg, 0, 1000000);
			break;
		case OPT_MINLINKS:
			G.min_links = (long)opt_int("--min-links", optarg, 0,
			    1000000000);
			break;
		case 'o': output = optarg; break;
		case OPT_OPTIONAL: G.optional = 1; break;
		case OPT_RAW: G.input = 1; break;
		case OPT_RECORDS: G.input = 2; break;
		case 'r': G.reference = 1; break;
		case OPT_SITEID: G.site_id = optarg; break;
		case 'V': opt_version(); break;
		default: die_usage("unknown option");
		}
	}
	argc -= optind;
	argv += optind;
	if (G.dump && (G.mode != M_LLMS || !G.reference))
		die_usage("--dump needs --llms and --reference");
	if ((ndocargs || ndocfiles || G.optional) && G.mode != M_CTX)
		die_usage("--doc, --docs and --optional go with --ctx");
	if (G.mode == M_CTX && argc != 1)
		die_usage("--ctx takes exactly one llms.txt file");
	if (G.base && !bmd_url_valid(G.base))
		die_usage("--base: not an absolute http(s) URL: \"%s\"", G.base);
	bmd_mdopts_default(&G.md);
	if (config) {
		json_t *cfg = study_config_load(config);

		bmd_mdopts_config(&G.md, cfg, config);
		json_decref(cfg);
	}
	if (front >= 0)
		G.md.drop_front_matter = front;
	if (max_blank != -2)
		G.md.max_blank = max_blank;
	ndj_output_open(output);

	if (G.mode == M_CTX) {
		size_t k;

		for (k = 0; k < ndocargs; k++) {
			char *eq = strchr(docargs[k], '=');
			size_t n;
			char *body = read_input(eq + 1, &n);

			add_doc(xstrndup(docargs[k], (size_t)(eq - docargs[k])),
			    body, n);
		}
		for (k = 0; k < ndocfiles; k++)
			load_doc_records(docfiles[k]);
		run_ctx(argv[0]);
		free(docargs);
		free(docfiles);
		ctx_exit();
	}
	for (i = 0; i < (argc ? argc : 1); i++) {
		const char *path = argc ? argv[i] : "-";
		const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
		size_t n;
		char *txt = Held = read_input(path, &n);
		int records = G.input == 2 ||
		    (G.input == 0 && looks_like_records(txt, n, name));

		if (records)
			run_records(txt, n, name);
		else
			run_raw(txt, n, name);
		free(txt);
		Held = NULL;
	}
	ctx_exit();
}
