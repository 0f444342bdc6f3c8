/*
 * mode_ctx.c - bmdprep --ctx: the string the reference create_ctx(txt,
 * optional) returns for one llms.txt file (llmsctx.h has the contract),
 * its linked documents being given as --doc URL=FILE arguments and --docs
 * records instead of fetched.  Unlike the other modes this one holds every
 * document given: the context needs them all.
 */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "bmdprep.h"
#include "llms.h"
#include "llmsctx.h"

/* The documents given, found by URL in constant time; the first one wins. */
struct docs {
	struct wordset urls;	/* distinct URLs in the order given */
	struct doc {
		char *text;	/* malloc'd, may hold NULs */
		size_t len;
	} *v;			/* per URL, in the order of urls */
	size_t cap;
};

static void
docs_add(struct docs *d, const char *url, char *text, size_t len)
{
	size_t ul = strlen(url);

	if (wordset_find(&d->urls, url, ul) > 0) {
		free(text);
		return;
	}
	wordset_add(&d->urls, url, ul);
	if (d->urls.n > d->cap) {
		d->cap = d->urls.cap;
		d->v = xreallocarray(d->v, d->cap, sizeof *d->v);
	}
	d->v[d->urls.n - 1].text = text;
	d->v[d->urls.n - 1].len = len;
}

static void
docs_release(struct docs *d)
{
	size_t i;

	for (i = 0; i < d->urls.n; i++)
		free(d->v[i].text);
	free(d->v);
	wordset_release(&d->urls);
	memset(d, 0, sizeof *d);
}

/*
 * --docs: records {url, text | markdown | content}, or manifest records
 * whose archive_path names the document.
 */
static void
docs_load(struct docs *d, const struct bmd_run *run, const char *path)
{
	static const char *const keys[] = { "text", "markdown", "content" };
	struct ndj_reader r;
	const json_t *v;
	const char *url;
	json_t *rec;
	size_t i, n;
	char *text;

	ndj_reader_open(&r, path);
	while ((rec = ndj_next(&r)) != NULL) {
		url = rec_str(rec, "url");
		for (i = 0, v = NULL; i < 3 && !json_is_string(v); i++)
			v = json_object_get(rec, keys[i]);
		if (json_is_string(v)) {
			n = json_string_length(v);
			text = xmalloc(n + 1);
			memcpy(text, json_string_value(v), n + 1);
		} else if (bmd_fetched(rec)) {
			text = bmd_fetched_body(run, rec, &n);
		} else {
			ndj_die("no text, markdown, content or archive_path for "
			    "%s", url);
		}
		docs_add(d, url, text, n);
		json_decref(rec);
	}
	ndj_reader_close(&r);
}

/* The documents of --doc URL=FILE (checked by main) and --docs. */
static void
docs_gather(struct docs *d, const struct bmd_run *run)
{
	char *url, *text;
	size_t k, n;

	for (k = 0; k < run->ndoc; k++) {
		const char *eq = strchr(run->doc[k], '=');

		text = bmd_input_read(eq + 1, &n);
		url = xstrndup(run->doc[k], (size_t)(eq - run->doc[k]));
		docs_add(d, url, text, n);
		free(url);
	}
	for (k = 0; k < run->ndocs; k++)
		docs_load(d, run, run->docs[k]);
}

/* The document of a link: by its URL as written, else as resolved. */
static const char *
lookup(const struct bmd_link *lk, size_t *n, void *arg)
{
	const struct docs *d = arg;
	const char *u[2] = { lk->url.s, lk->abs_url };
	size_t pass, i;

	for (pass = 0; pass < 2; pass++)
		if (u[pass] && (i = wordset_find(&d->urls, u[pass],
		    strlen(u[pass]))) > 0) {
			*n = d->v[i - 1].len;
			return d->v[i - 1].text;
		}
	return NULL;
}

void
bmd_mode_ctx(const struct bmd_run *run, const char *path)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	const struct bmd_link *missing = NULL;
	struct buf out = BUF_INIT;
	struct bmd_ref_error e;
	struct bmd_llms *l;
	struct docs d;
	unsigned long line;
	char *txt, url[1024];
	size_t n;

	memset(&d, 0, sizeof d);
	docs_gather(&d, run);
	txt = bmd_input_read(path, &n);
	l = bmd_llms_parse_ref(txt, n, &e);
	free(txt);
	if (!l) {
		docs_release(&d);
		bmd_ref_error_die(name, &e, 1);
	}
	bmd_llms_resolve(l, run->base);
	if (bmd_ctx_render(&out, l, run->optional, lookup, &d, &missing) < 0) {
		line = missing->line;
		snprintf(url, sizeof url, "%s", missing->url.s);
		buf_release(&out);
		bmd_llms_free(l);
		docs_release(&d);
		die("%s:%lu: no document given for the link URL \"%s\"", name,
		    line, url);
	}
	if (fwrite(out.s, 1, out.len, ndj_output()) != out.len)
		die_errno("write");
	buf_release(&out);
	bmd_llms_free(l);
	docs_release(&d);
}
