/*
 * mode_md.c - bmdprep's default mode, Condition B Markdown preparation
 * (spec 001 §2.3): each fetched condition B manifest record receives markdown,
 * content_chars and, when nothing is left, exclusion_reason EMPTY_CONTENT;
 * other records pass through; a plain Markdown file is printed prepared.
 * A record run that prepares nothing is an error (unless --allow-empty);
 * one that does ends with a summary line on stderr.
 * With -r the preparation is the reference implementation's line filter.
 */
#include <string.h>

#include "ctx.h"
#include "bmdprep.h"
#include "llmsctx.h"

/* s[0..n) prepared as the run says; malloc'd, *outlen set. */
static char *
prepare(const struct bmd_run *run, const char *s, size_t n, size_t *outlen)
{
	if (run->reference)
		return bmd_ctx_doc_text(s, n, outlen);
	return bmd_md_prepare(s, n, &run->md, outlen);
}

static int
only_white(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '\t')
			return 0;
	return 1;
}

/* What a record run did, for its end: the records, prepared, EMPTY_CONTENT. */
struct md_count {
	const struct bmd_run *run;
	size_t nrec, prepared, empty, cond_a;
	size_t nplain;		/* plain documents printed prepared */
};

static void
md_record(json_t *rec, void *arg)
{
	struct md_count *mc = arg;
	const struct bmd_run *run = mc->run;
	const char *cond = rec_str_opt(rec, "condition");
	char *body, *prep;
	size_t n, pl;

	(void)rec_str_opt(rec, "site_id");	/* a string when given */
	mc->nrec++;
	if (cond && strcmp(cond, "B") == 0 && !json_object_get(rec,
	    "fetch_status") && !json_object_get(rec, "archive_path"))
		ndj_die("no fetch_status: bmdprep reads bfetch's manifest records "
		    "(run bfetch first)");
	if (cond && strcmp(cond, "A") == 0)
		mc->cond_a++;
	if (!cond || strcmp(cond, "B") != 0 || !bmd_fetched(rec)) {
		ndj_emit(rec);
		return;
	}
	mc->prepared++;
	body = bmd_fetched_body(run, rec, &n);
	prep = prepare(run, body, n, &pl);
	free(body);
	json_set_new(rec, "markdown", json_text(prep, pl));
	json_set_int(rec, "content_chars", (long long)utf8_count(prep, pl));
	if (only_white(prep, pl)) {
		json_set_str(rec, "exclusion_reason", "EMPTY_CONTENT");
		mc->empty++;
	}
	free(prep);
	ndj_emit(rec);
}

static void
md_plain(const char *txt, size_t n, const char *name, void *arg)
{
	struct md_count *mc = arg;
	size_t pl;
	char *prep = prepare(mc->run, txt, n, &pl);

	(void)name;
	mc->nplain++;
	if (fwrite(prep, 1, pl, ndj_output()) != pl)
		die_errno("write");
	free(prep);
}

/* The end of a record run: nothing prepared is an error; then the summary. */
static void
md_summary(const struct md_count *mc, int nfiles, char *const files[])
{
	const char *from = nfiles == 1 ? files[0] : nfiles ? "the input" :
	    "<stdin>";

	if (mc->prepared == 0 && mc->nrec && mc->cond_a == mc->nrec)
		die_empty(mc->run->allow_empty, "%s: all %zu records are of "
		    "condition A, nothing prepared: bmdprep prepares condition B "
		    "(Markdown); condition A goes to bread", from, mc->nrec);
	if (mc->prepared == 0)
		die_empty(mc->run->allow_empty, "%s: no fetched condition B page "
		    "among %zu records, nothing prepared", from, mc->nrec);
	warn("records: %zu  prepared %zu (EMPTY_CONTENT %zu)  passed through "
	    "untouched %zu", mc->nrec, mc->prepared, mc->empty,
	    mc->nrec - mc->prepared);
}

void
bmd_mode_md(const struct bmd_run *run, int nfiles, char *const files[])
{
	struct md_count mc = { run, 0, 0, 0, 0, 0 };

	bmd_input_each(run, nfiles, files, md_record, md_plain, &mc);
	if (mc.nplain == 0)	/* a plain document is printed, not summed up */
		md_summary(&mc, nfiles, files);
}
