/*
 * mode_md.c - bmdprep's default mode, Condition B Markdown preparation
 * (spec 001 §2.3): each fetched condition B manifest record gets markdown,
 * content_chars and, when nothing is left, exclusion_reason EMPTY_CONTENT;
 * other records pass through; a plain Markdown file is printed prepared.
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

static void
md_record(json_t *rec, void *arg)
{
	const struct bmd_run *run = arg;
	const char *cond = rec_str_opt(rec, "condition");
	char *body, *prep;
	size_t n, pl;

	(void)rec_str_opt(rec, "site_id");	/* a string when given */
	if (!cond || strcmp(cond, "B") != 0 || !bmd_fetched(rec)) {
		ndj_emit(rec);
		return;
	}
	body = bmd_fetched_body(run, rec, &n);
	prep = prepare(run, body, n, &pl);
	free(body);
	json_set_new(rec, "markdown", json_text(prep, pl));
	json_set_int(rec, "content_chars", (long long)utf8_count(prep, pl));
	if (only_white(prep, pl))
		json_set_str(rec, "exclusion_reason", "EMPTY_CONTENT");
	free(prep);
	ndj_emit(rec);
}

static void
md_plain(const char *txt, size_t n, const char *name, void *arg)
{
	const struct bmd_run *run = arg;
	size_t pl;
	char *prep = prepare(run, txt, n, &pl);

	(void)name;
	if (fwrite(prep, 1, pl, ndj_output()) != pl)
		die_errno("write");
	free(prep);
}

void
bmd_mode_md(const struct bmd_run *run, int nfiles, char *const files[])
{
	bmd_input_each(run, nfiles, files, md_record, md_plain, (void *)run);
}
