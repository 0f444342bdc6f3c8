/*
 * llmsbench.c - the in-process side of tests/bench/bmdprep.sh and bctx.sh:
 * bmdprep's and bctx's own library code (build/lib/libbmdprep.a,
 * libbctx.a), called in a loop in one process, as tests/bench/llmstxt_ref.py
 * calls the llms.txt reference's functions in one Python process, so that
 * neither side's time holds a process start-up.  Each mode prints the CPU
 * time (user + system, CLOCK_PROCESS_CPUTIME_ID) of its loop in seconds and
 * writes what the last round made to OUT, for the bench to compare with
 * the reference's output byte for byte.
 *
 *   llmsbench parse ROUNDS OUT FILE...
 *       ROUNDS rounds of the reference parse (bmd_llms_parse_ref, what
 *       bmdprep --llms -r runs) of every FILE; OUT gets the link count of
 *       each file, one a line.
 *   llmsbench ctx ROUNDS OUT DOCS FILE
 *       ROUNDS rounds of create_ctx(optional=True) as bmdprep --ctx
 *       --optional --docs DOCS FILE makes it: parse, resolve, render, each
 *       document through the reference's line filter; the DOCS records
 *       {url, text} are read once, as the reference's stand-in for the
 *       network answers at once.  OUT gets the context.
 *   llmsbench page ROUNDS OUT FILE
 *       ROUNDS rounds of the reference _doc() line filter (bmdprep -r's
 *       Markdown preparation) of FILE; OUT gets the result.
 *   llmsbench assemble ROUNDS OUT BCTX-ARGS...
 *       ROUNDS calls of bctx_assemble with the options and files of
 *       `bctx assemble BCTX-ARGS` (-q FILE, --condition B, --style
 *       reference, --all-links, --optional, -l FILE and page files only),
 *       each reading its inputs again, after one untimed call whose
 *       records OUT gets (the reference's side also runs once untimed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "ctx.h"
#include "err.h"
#include "ndjson.h"
#include "jsonx.h"
#include "words.h"
#include "bmdprep.h"
#include "llms.h"
#include "llmsctx.h"
#include "bctx.h"
#include "cputime.h"

static void
write_out(const char *path, const char *s, size_t n)
{
	FILE *fp = fopen(path, "wb");

	if (fp == NULL || fwrite(s, 1, n, fp) != n || fclose(fp) != 0)
		die_errno("%s", path);
}

static char *
slurp(const char *path, size_t *n)
{
	struct buf b = BUF_INIT;
	char chunk[65536];
	FILE *fp = fopen(path, "rb");
	size_t k;

	if (fp == NULL)
		die_errno("%s", path);
	while ((k = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, k);
	fclose(fp);
	return buf_detach(&b, n);
}

static struct bmd_llms *
parse_or_die(const char *path, const char *txt, size_t n)
{
	struct bmd_ref_error e;
	struct bmd_llms *l = bmd_llms_parse_ref(txt, n, &e);

	if (l == NULL)
		bmd_ref_error_die(path, &e, 0);
	return l;
}

static void
mode_parse(long rounds, const char *out, int nf, char **files)
{
	struct buf counts = BUF_INIT;
	struct bmd_ref_error e;
	char **txt = xcalloc((size_t)nf, sizeof *txt);
	size_t *len = xcalloc((size_t)nf, sizeof *len);
	double t0;
	long r;
	int i;

	for (i = 0; i < nf; i++) {
		txt[i] = slurp(files[i], &len[i]);
		struct bmd_llms *l = parse_or_die(files[i], txt[i], len[i]);
		buf_addf(&counts, "%zu\n", bmd_llms_link_count(l));
		bmd_llms_free(l);
	}
	t0 = cpu_now();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < nf; i++)
			bmd_llms_free(bmd_llms_parse_ref(txt[i], len[i], &e));
	printf("%.6f\n", cpu_now() - t0);
	write_out(out, counts.s, counts.len);
	for (i = 0; i < nf; i++)
		free(txt[i]);
	free(txt);
	free(len);
	buf_release(&counts);
}

/* The DOCS records: URLs in a wordset, bodies by position. */
struct docs {
	struct wordset urls;
	char **text;
	size_t *len;
};

static void
docs_load(struct docs *d, const char *path)
{
	struct ndj_reader rd;
	json_t *rec;
	size_t k;

	memset(d, 0, sizeof *d);
	ndj_reader_open(&rd, path);
	while ((rec = ndj_next(&rd)) != NULL) {
		const char *url = rec_str(rec, "url");
		json_t *t = json_object_get(rec, "text");

		if (wordset_find(&d->urls, url, strlen(url)) == 0) {
			wordset_add(&d->urls, url, strlen(url));
			k = d->urls.n;
			d->text = xreallocarray(d->text, k, sizeof *d->text);
			d->len = xreallocarray(d->len, k, sizeof *d->len);
			d->len[k - 1] = json_string_length(t);
			d->text[k - 1] = xstrndup(json_string_value(t),
			    d->len[k - 1]);
		}
		json_decref(rec);
	}
	ndj_reader_close(&rd);
}

static const char *
docs_lookup(const struct bmd_link *lk, size_t *n, void *arg)
{
	const struct docs *d = arg;
	size_t i = wordset_find(&d->urls, lk->url.s, lk->url.len);

	if (i == 0)
		return NULL;
	*n = d->len[i - 1];
	return d->text[i - 1];
}

static void
ctx_once(struct buf *out, const char *path, const char *txt, size_t n,
    struct docs *d)
{
	const struct bmd_link *missing = NULL;
	struct bmd_llms *l = parse_or_die(path, txt, n);

	bmd_llms_resolve(l, NULL);
	buf_reset(out);
	if (bmd_ctx_render(out, l, 1, docs_lookup, d, &missing) < 0)
		die("%s: no document for %s", path, missing->url.s);
	bmd_llms_free(l);
}

static void
mode_ctx(long rounds, const char *out, const char *docspath, const char *path)
{
	struct buf b = BUF_INIT;
	struct docs d;
	size_t n, i;
	char *txt = slurp(path, &n);
	double t0;
	long r;

	docs_load(&d, docspath);
	t0 = cpu_now();
	for (r = 0; r < rounds; r++)
		ctx_once(&b, path, txt, n, &d);
	printf("%.6f\n", cpu_now() - t0);
	write_out(out, b.s, b.len);
	buf_release(&b);
	free(txt);
	for (i = 0; i < d.urls.n; i++)
		free(d.text[i]);
	free(d.text);
	free(d.len);
	wordset_release(&d.urls);
}

static void
mode_page(long rounds, const char *out, const char *path)
{
	size_t n, m = 0;
	char *txt = slurp(path, &n), *res = NULL;
	double t0;
	long r;

	t0 = cpu_now();
	for (r = 0; r < rounds; r++) {
		free(res);
		res = bmd_ctx_doc_text(txt, n, &m);
	}
	printf("%.6f\n", cpu_now() - t0);
	write_out(out, res, m);
	free(res);
	free(txt);
}

/* the buffers of the two output streams (bctx_output_buffer) */
static char firstbuf[BCTX_OUTBUF], nullbuf[BCTX_OUTBUF];

static void
mode_assemble(long rounds, const char *out, int argc, char **argv)
{
	struct bctx_opts o;
	char *links[2] = { NULL, NULL };
	FILE *first, *null;
	double t0;
	long r;
	int i;

	memset(&o, 0, sizeof o);
	o.links = links;
	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-q") == 0 && i + 1 < argc)
			o.questions = argv[++i];
		else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
			links[o.nlinks++ ? 1 : 0] = argv[++i];
		else if (strcmp(argv[i], "--condition") == 0 && i + 1 < argc)
			o.condition = argv[++i];
		else if (strcmp(argv[i], "--style") == 0 && i + 1 < argc)
			o.reference = strcmp(argv[++i], "reference") == 0;
		else if (strcmp(argv[i], "--all-links") == 0)
			o.all_links = 1;
		else if (strcmp(argv[i], "--optional") == 0)
			o.optional = 1;
		else
			die("assemble: unknown argument %s", argv[i]);
	}
	if (o.questions == NULL || o.nlinks != 1)
		die("assemble: needs -q FILE and one -l FILE");
	if ((first = fopen(out, "w")) == NULL ||
	    (null = fopen("/dev/null", "w")) == NULL)
		die_errno("%s", out);
	/* the first call, untimed, writes OUT: llmstxt_ref.py likewise makes
	 * its context once before it times create_ctx */
	ndj_output_stream(first);
	bctx_output_buffer(firstbuf);	/* as bctx's main sets its output */
	bctx_assemble(&o, argc - i, argv + i);
	fflush(ndj_output());
	ndj_output_stream(null);
	bctx_output_buffer(nullbuf);
	t0 = cpu_now();
	for (r = 0; r < rounds; r++) {
		bctx_assemble(&o, argc - i, argv + i);
		fflush(ndj_output());
	}
	printf("%.6f\n", cpu_now() - t0);
	if (fclose(first) != 0 || fclose(null) != 0)
		die_errno("%s", out);
}

int
main(int argc, char **argv)
{
	long rounds;

	ctx_init("llmsbench");
	if (argc < 4 || (rounds = strtol(argv[2], NULL, 10)) < 1)
		die_usage("usage: llmsbench parse|ctx|page|assemble ROUNDS OUT ...");
	if (strcmp(argv[1], "parse") == 0 && argc >= 5)
		mode_parse(rounds, argv[3], argc - 4, argv + 4);
	else if (strcmp(argv[1], "ctx") == 0 && argc == 6)
		mode_ctx(rounds, argv[3], argv[4], argv[5]);
	else if (strcmp(argv[1], "page") == 0 && argc == 5)
		mode_page(rounds, argv[3], argv[4]);
	else if (strcmp(argv[1], "assemble") == 0)
		mode_assemble(rounds, argv[3], argc - 4, argv + 4);
	else
		die_usage("usage: llmsbench parse|ctx|page|assemble ROUNDS OUT ...");
	return 0;
}
