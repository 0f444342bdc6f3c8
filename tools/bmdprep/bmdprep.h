/*
 * bmdprep.h - bmdprep's parts and their contracts.  The files, from the top
 * down; a file calls only files listed below it (and common/), never one
 * above it or a mode beside it:
 *
 *   main.c        options into a struct bmd_run, then one call per mode;
 *                 also llms.c's bmd_url_valid (-b) and mdprep.c's options
 *   mode_md.c     (default) Condition B records get their prepared
 *                 markdown; a plain Markdown file is printed prepared.
 *                 Calls input.c, llmsctx.c (-r's line filter), mdprep.c.
 *   mode_llms.c   --llms: llms, link and diagnostic records.  Calls
 *                 input.c, llms_ref.c, mdprep.c, llms.c.
 *   mode_check.c  --check: the IC-1/IC-2/EC-1 verdict per llms.txt.  Calls
 *                 input.c, llms_ref.c, llms.c.
 *   mode_ctx.c    --ctx: the reference create_ctx() context of one file.
 *                 Calls input.c, llms_ref.c, llmsctx.c, llms.c.
 *   input.c       the operands, streamed: NDJSON records one at a time or
 *                 one plain document, told apart as bmdprep(1) says;
 *                 archived bodies; the size limits.
 *   llms_ref.c    the reference llms.txt parser and its errors (llms.h).
 *                 Calls llms.c (the structure's helpers), pyuni.c.
 *   llmsctx.c     create_ctx()'s rendering and _doc() line filter
 *                 (llmsctx.h).  Calls pyuni.c.
 *   mdprep.c      Condition B Markdown preparation (mdprep.h).  Calls
 *                 text.c.
 *   llms.c        the lenient llms.txt parser, the structure's helpers,
 *                 URL resolution (llms.h).  Calls text.c.
 *   text.c        encoding and line-end normalisation, front matter
 *                 (text.h), shared by llms.c and mdprep.c.
 *   pyuni.c       CPython's string semantics (pyuni.h), with utf8proc.
 *
 * The files from input.c down are a library: the fuzz targets and the unit
 * tests link them without main.c and the modes.
 *
 * State: nothing is global.  main fills one struct bmd_run, which every
 * mode reads and never changes; what a mode keeps while it runs (the input
 * being read, the --ctx documents) lives in its own structures.  The
 * default, --llms and --check modes stream: they hold one record and one
 * document at a time, whatever the size of the input (input.c).
 */
#ifndef BMDPREP_H
#define BMDPREP_H

#include <stddef.h>
#include <jansson.h>

#include "mdprep.h"

/*
 * The largest document bmdprep holds (1 GiB): a plain input file, an
 * archived body, the --ctx and --doc files, and one record line of an
 * input given as --records.  A larger one is an input error naming the file
 * and the line reached.
 */
#define BMD_DOC_MAX ((size_t)1 << 30)

/* What the operands are: --raw, --records, or told apart by their start. */
enum bmd_input { BMD_INPUT_GUESS, BMD_INPUT_RAW, BMD_INPUT_RECORDS };

/* One run's settings, from the command line.  Strings are borrowed. */
struct bmd_run {
	enum bmd_input input;
	int reference;		/* -r: the reference implementation's rules */
	int dump;		/* --dump: the reference parse as JSON */
	int optional;		/* --optional: --ctx keeps the Optional section */
	int allow_empty;	/* --allow-empty: a run that prepares nothing */
	const char *archive;	/* -a, else $CTXBENCH_ARCHIVE, else "archive" */
	const char *base;	/* -b: the llms.txt URL of a plain file, or NULL */
	const char *site_id;	/* --site-id of a plain file, or NULL */
	long min_links;		/* --min-links: the IC-2 threshold */
	struct bmd_mdopts md;	/* -c, --front-matter, --max-blank */
	char **doc;		/* --doc URL=FILE arguments, in order */
	size_t ndoc;
	char **docs;		/* --docs FILE arguments, in order */
	size_t ndocs;
};

/* ---------------------------------------------------------- the modes */

/*
 * Each mode reads the operands files[0..nfiles) (none: stdin) through
 * bmd_input_each and writes its records with ndj_emit; input errors die
 * naming the file and line (exit 1).
 */
void bmd_mode_md(const struct bmd_run *run, int nfiles, char *const files[]);
void bmd_mode_llms(const struct bmd_run *run, int nfiles, char *const files[]);
void bmd_mode_check(const struct bmd_run *run, int nfiles,
    char *const files[]);
/* --ctx: the context of the llms.txt file at path ("-": stdin). */
void bmd_mode_ctx(const struct bmd_run *run, const char *path);

/* ------------------------------------------------------------ input.c */

/*
 * What a mode does with each input.  A record is borrowed (released after
 * the call); ndj_where_file() and ndj_where_line() name it.  A plain
 * document txt[0..n) (NUL-terminated, possibly holding NULs) is borrowed
 * for the call; name is the file's name for messages ("<stdin>" for -).
 */
typedef void bmd_record_fn(json_t *rec, void *arg);
typedef void bmd_plain_fn(const char *txt, size_t n, const char *name,
    void *arg);

/*
 * Read each operand once, in order, as run->input says (bmdprep(1),
 * DESCRIPTION): records are parsed and handed to record one at a time as
 * they arrive, a plain file is read whole (at most BMD_DOC_MAX bytes) and
 * handed to plain.  Memory held is one record line and one document, never
 * the whole input.  When guessing, the refusals of bmdprep(1) die with the
 * file and line: a byte order mark before '{', a first line that is a JSON
 * value other than an object, a line longer than 1 MiB (in records as well,
 * as they stream by).  Pipes and FIFOs are read as they come.
 */
void bmd_input_each(const struct bmd_run *run, int nfiles,
    char *const files[], bmd_record_fn *record, bmd_plain_fn *plain,
    void *arg);

/*
 * The whole file at path ("-": stdin), at most BMD_DOC_MAX bytes, as a new
 * malloc'd NUL-terminated string; *n set.  Dies naming the file (and the
 * line reached, when too large).
 */
char *bmd_input_read(const char *path, size_t *n);

/*
 * 1 when the manifest record's file is in the archive: fetch_status SUCCESS
 * (or none) and an archive_path.  A SUCCESS without archive_path dies (the
 * manifest is damaged and the page would be lost silently).
 */
int bmd_fetched(const json_t *rec);

/*
 * The archived body of a fetched record beneath run->archive (archive.h:
 * never leaving it, checked against content_sha256), at most BMD_DOC_MAX
 * bytes; malloc'd, *n set.  Every failure dies naming the record's line.
 */
char *bmd_fetched_body(const struct bmd_run *run, const json_t *rec,
    size_t *n);

#endif
