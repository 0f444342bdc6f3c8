/*
 * bctx.h - internals of bctx.  The files, each above the ones it calls
 * (calls only go down; all of them also call common/):
 *
 *   main.c      options; one call per subcommand    -> plan.c assemble.c
 *                                                      check.c drift.c
 *   plan.c      bctx plan: the fetch jobs, or --report    -> map.c url.c
 *   assemble.c  bctx assemble: the contexts of both conditions
 *                        -> map.c url.c render.c parity.c words.c
 *   check.c     bctx check (check.h): the corpus against its design
 *                                                         -> map.c url.c
 *   drift.c     bctx drift: two snapshots of a study's pages compared,
 *               page by page and per site and condition
 *                                                     -> parity.c url.c
 *   map.c       the index keys, the llms.txt link index, the user
 *               mapping and the mapping of one source URL to its A page
 *               and B document
 *                                                                -> url.c
 *   parity.c    A<->B content parity of a pair; the changed facts of
 *               two texts as records (also drift.c's)
 *   words.c     gold_coverage, a gold answer's words in a content
 *   render.c    the pieces of the reference create_ctx serialisation
 *   url.c       the URL key and the HTML <-> Markdown URL rules
 *   flat.c      flat records (page and link records) read straight
 *               from their lines, the common reader judging the rest
 *
 * Everything returned as char * is malloc'd and owned by the caller unless
 * the comment says "borrowed".  jansson values follow jansson's rules.
 */
#ifndef BCTX_BCTX_H
#define BCTX_BCTX_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <jansson.h>
#include "buf.h"
#include "err.h"
#include "ndjson.h"
#include "words.h"

/* ---------------------------------------------------------------- url.c */

/* What a source URL points at (decided on the path, before any '?'). */
enum bctx_kind {
	BCTX_URL_HTML,		/* anything else: an HTML page */
	BCTX_URL_MD,		/* path ends in ".md" (any case) */
	BCTX_URL_LLMS,		/* last path segment "llms.txt" */
	BCTX_URL_LLMS_FULL	/* last path segment "llms-full.txt" */
};

/*
 * The matching key of an absolute URL: scheme and host lower-cased, a
 * default port (:80 for http, :443 for https) and the fragment dropped,
 * percent escapes upper-cased, trailing slashes of the path removed (the
 * root path becomes empty), the query kept.  NULL when url is not an
 * absolute "scheme://authority..." URL.  bctx_url_key(key) == key.
 */
char *bctx_url_key(const char *url);
/* The same key appended to b (no allocation when b has room); -1, b as it
 * was, when url has none. */
int bctx_url_key_buf(struct buf *b, const char *url);
/* 1 when url is an absolute http or https URL with a host. */
int bctx_url_is_http(const char *url);
/* Borrowed pointer to the '#' of url's fragment, or NULL. */
const char *bctx_url_fragment(const char *url);
/* url without its fragment (a copy). */
char *bctx_url_defrag(const char *url);
enum bctx_kind bctx_url_kind(const char *url);

/*
 * The HTML page of a Markdown URL (fragment-free): "/x.md" -> "/x",
 * "/d/index.md" and "/d/index.html.md" -> "/d/" (the directory).  Scheme,
 * host and query are kept as written.  NULL when url is not a .md URL.
 */
char *bctx_md_to_html(const char *url);

/*
 * The llms.txt link keys an HTML URL may be listed under, in order of
 * preference, each with the rule's name: the same URL ("same-url"),
 * URL.md ("url.md"), URL/index.md ("url/index.md"), URL/index.html.md
 * ("url/index.html.md"), and for x.html or x.htm also x.md ("html-ext.md").
 * Keys as bctx_url_key makes them.  Returns the count (0 when url is not
 * absolute); out[i] are malloc'd, rule[i] static.
 */
#define BCTX_MAXCAND 5
size_t bctx_md_candidates(const char *url, char *out[BCTX_MAXCAND],
    const char *rule[BCTX_MAXCAND]);

/* ---------------------------------------------------------------- flat.c */

/*
 * A flat record: an NDJSON line holding one object whose values are
 * strings, numbers, true, false, null or arrays of them (no object within),
 * read without a JSON tree.
 *
 *   struct bctx_reader r; struct bctx_flat rec;
 *   bctx_reader_open(&r, path);
 *   while ((k = bctx_reader_next(&r, &rec)) != BCTX_READ_END)
 *           k == BCTX_READ_FLAT ? use rec : use bctx_reader_json(&r);
 *   bctx_reader_close(&r);
 *
 * Every line bctx_reader_next takes is one the common reader (ndjson.h)
 * reads as the same object; a line it does not take for certain (an
 * object within, a repeated key, escapes jansson reads its own way, more than
 * BCTX_FLAT_MAX keys, a JSON or UTF-8 error) is BCTX_READ_JSON, for
 * bctx_reader_json.  Blank lines are skipped.  Each line read sets the
 * position ndj_die reports (ndj_set_where).
 */
enum bctx_ftype { BCTX_F_STR, BCTX_F_NUM, BCTX_F_TRUE, BCTX_F_FALSE,
	BCTX_F_NULL, BCTX_F_ARRAY };
#define BCTX_FLAT_MAX 32
#define BCTX_FLAT_DEPTH 32
struct bctx_field {
	const char *key;	/* decoded, NUL-terminated */
	size_t klen;
	enum bctx_ftype type;
	const char *s;		/* a string decoded, a number's or an array's
				 * text as written (NUL-terminated); else NULL */
	size_t len;		/* of s */
};
struct bctx_flat {
	struct bctx_field f[BCTX_FLAT_MAX];	/* in the line's order */
	size_t n;
	struct bctx_reader *from;	/* the reader of the line */
};
struct bctx_reader {
	int fd;
	int own;		/* fd opened here, closed by bctx_reader_close */
	const char *name;	/* for messages: the path, or "<stdin>" */
	unsigned long lineno;	/* of the line last read */
	char *buf;		/* bytes read: the lines, a flat record's
				 * strings decoded in place */
	size_t cap, beg, fill;	/* bytes [beg, fill) of buf not yet a line */
	off_t left;		/* of a regular file, bytes not yet read;
				 * -1: unknown (a pipe, a terminal) */
	char *line;		/* the line last read (in buf), with its
				 * newline, if any */
	size_t len;
};
#define BCTX_READ_END	0
#define BCTX_READ_FLAT	1
#define BCTX_READ_JSON	2

/*
 * Open path ("-" or NULL: stdin); dies when it cannot be opened.  A
 * regular file is read to the size it has when opened (a page file is
 * written before bctx reads it), in one read when it is small.
 */
void bctx_reader_open(struct bctx_reader *r, const char *path);
void bctx_reader_close(struct bctx_reader *r);
/*
 * The next line: BCTX_READ_FLAT with rec filled (its pointers borrowed
 * until the next call), BCTX_READ_JSON when the line is for
 * bctx_reader_json, BCTX_READ_END at end of input.  A read error dies.
 */
int bctx_reader_next(struct bctx_reader *r, struct bctx_flat *rec);
/*
 * The line last read, when BCTX_READ_JSON, read by the common reader: a new
 * reference the caller releases; dies with the common reader's message,
 * file and line when the line is no JSON object.
 */
json_t *bctx_reader_json(struct bctx_reader *r);
/*
 * Every record of path ("-" or NULL: stdin), in order: a flat one to
 * flat(rec, arg), which takes it (0) or declines it (-1, nothing done);
 * one declined or not flat to json(v, arg) as the common reader makes it
 * (v borrowed for the call).  The loop above, once for every caller.
 */
typedef int (*bctx_flat_fn)(const struct bctx_flat *rec, void *arg);
typedef void (*bctx_json_fn)(json_t *v, void *arg);
void bctx_reader_each(const char *path, bctx_flat_fn flat, bctx_json_fn json,
    void *arg);
/* The field called key (borrowed), or NULL. */
const struct bctx_field *bctx_flat_get(const struct bctx_flat *rec,
    const char *key);
/*
 * The string field key into *s (borrowed; NULL when absent or null): 0,
 * or -1 when the field holds another type.
 */
int bctx_flat_str_opt(const struct bctx_flat *rec, const char *key,
    const char **s);
/*
 * The value of field f (NULL: null), and the whole record, as the common
 * reader makes them: new references the caller releases.
 */
json_t *bctx_flat_value(const struct bctx_field *f);
json_t *bctx_flat_object(const struct bctx_flat *rec);
/*
 * String field f of rec (the record bctx_reader_next made last) kept past
 * the next line: the string (NUL-terminated), in a block *owner that the
 * caller frees.  When the string is half the reader's buffer or more and
 * the input read but not yet taken is shorter than it, the block is the
 * reader's buffer itself, the line it holds (rec's fields stay valid in
 * it) given away and the unread bytes moved to a new one; else it is a
 * copy of the string.
 */
const char *bctx_flat_keep(const struct bctx_flat *rec,
    const struct bctx_field *f, char **owner);

/* ---------------------------------------------------------------- render.c */

/* Python's str.lower() of UTF-8 text (full case mapping, final sigma). */
char *bctx_py_lower(const char *s);
/* Append k="v" as fastcore's _to_attr writes it (reference style). */
void bctx_ref_attr(struct buf *b, const char *k, const char *v);
/* Append k="v" with &, <, >, " escaped (methodology style). */
void bctx_xml_attr(struct buf *b, const char *k, const char *v);
/*
 * The section element of the reference create_ctx (fastcore to_xml at
 * level 2): its start and its end tag, with the block-tag indentation,
 * around its ndocs <doc> elements (none: an empty element).
 */
void bctx_ref_section_start(struct buf *b, const char *name, int ndocs);
void bctx_ref_section_end(struct buf *b, const char *name, int ndocs);

/* ---------------------------------------------------------------- map.c */

/* What bctx reads of an llms.txt link record (kind link). */
struct bctx_link {
	char *url;		/* the block of all four strings */
	char *section;		/* NULL when absent or null */
	int section_given;	/* the record has a section field, null or not */
	char *title, *desc;	/* NULL when absent or null */
	char *key;		/* bctx_url_key(url), NULL when none */
	size_t next;		/* position + 1 of the site's next link of the
				 * same key, 0 when none */
};
struct bctx_links {
	struct bctx_link *v;	/* in input order */
	size_t n, cap;
};

struct bctx_env {
	json_t *sites;		/* site_id -> site object (borrowed from list) */
	json_t *site_list;	/* study_sites_load result, or NULL */
	json_t *llms;		/* site_id -> [kind:llms records] */
	struct wordset link_sites;	/* the site_ids with links */
	struct bctx_links *links;	/* the links of link_sites' word i */
	struct wordset link_keys;	/* site_id "\n" key of every link */
	size_t *key_first, *key_last;	/* per key: its first and last link's
					 * position + 1 in its site's links */
	size_t key_cap;
	struct buf kb;		/* a key put together */
	json_t *usermap;	/* site_id "\n" key -> {html_url, md_url} */
	int have_links;		/* any link or llms record read */
};

/* The mapping of one source URL of a question. */
struct bctx_map {
	const char *source;	/* the source URL (borrowed) */
	char *a_url;		/* Condition A page, with the source's fragment */
	char *b_url;		/* Condition B document, idem */
	const char *b_cond;	/* "B", "llms_txt" or "llms_full_txt" */
	const char *rule;	/* user, md-source, html-source, llms-txt-source ... */
	const char *b_rule;	/* how B was found (same-url, url.md ...) or NULL */
	const char *a_reason;	/* NULL, or why A has no page */
	const char *b_reason;	/* NULL, or NO_MARKDOWN_MAPPING */
	char *b_detail;		/* what could not be mapped, for --report */
	json_t *b_links;	/* positions of the matching llms.txt links */
};

/*
 * The n parts joined by '\n', then tail, as one malloc'd string: the
 * index keys ("site\nkey", "site\ncondition\nkey#fragment").
 */
char *bctx_join_nl(const char *const parts[], size_t n, const char *tail);

void bctx_env_init(struct bctx_env *e);
void bctx_env_free(struct bctx_env *e);
void bctx_env_sites(struct bctx_env *e, const char *path);
/* Add a bmdprep --llms record (kind llms or link; others ignored) to env
   (a struct bctx_env: the function is a bctx_json_fn, as
   bctx_env_add_flat is a bctx_flat_fn). */
void bctx_env_add_llms(json_t *rec, void *env);
/*
 * Add a flat bmdprep --llms link record to env (a struct bctx_env: the
 * function is a bctx_flat_fn); -1 (nothing done) for any other record, or
 * one bctx_env_add_llms would have a word to say about.
 */
int bctx_env_add_flat(const struct bctx_flat *rec, void *env);
/* Read an NDJSON file of bmdprep --llms records. */
void bctx_env_links_file(struct bctx_env *e, const char *path);
/* Load a user mapping CSV (site_id,html_url,md_url). */
void bctx_env_usermap(struct bctx_env *e, const char *path);

void bctx_map_url(const struct bctx_env *e, const char *site_id,
    const char *url, struct bctx_map *m);
void bctx_map_release(struct bctx_map *m);
/* The link at position pos of site_id's links (borrowed), or NULL. */
const struct bctx_link *bctx_env_link(const struct bctx_env *e,
    const char *site_id, size_t pos);
/*
 * The position + 1 of site_id's first link of url's key (site_id "\n"
 * bctx_url_key(url), or url when it has none), 0 when there is none.
 */
size_t bctx_env_link_first(const struct bctx_env *e, const char *site_id,
    const char *url);
/* The links of site_id (*v borrowed) and their count, 0 when none. */
size_t bctx_env_links(const struct bctx_env *e, const char *site_id,
    const struct bctx_link **v);

/*
 * The line of questions.json at which question qid cites value (found in
 * the file's text), for messages; 0 when it cannot be found.
 */
unsigned long bctx_source_line(const char *path, const char *qid,
    const char *value);

/* ---------------------------------------------------------------- plan, assemble */

struct bctx_opts {
	const char *questions, *sites, *gold, *config, *usermap;
	char **links;		/* NULL-terminated list of link files */
	size_t nlinks;
	const char *site, *question, *url;	/* filters / one URL */
	const char *condition;	/* "A", "B" or NULL (both) */
	int report;
	int reference;		/* --style reference */
	int all_links;		/* B: every link of the llms.txt */
	int optional;		/* with all_links: also the Optional section */
	int allow_empty;	/* assemble: no usable context is no error */
};

int bctx_plan(const struct bctx_opts *o);
int bctx_assemble(const struct bctx_opts *o, int nfiles, char *const files[]);
/*
 * Give the output stream (ndj_output) buf, BCTX_OUTBUF bytes that outlive
 * it: call it after ndj_output_open, before anything is written.
 */
#define BCTX_OUTBUF (1 << 16)
void bctx_output_buffer(char *buf);
/*
 * The questions of questions.json as study_questions_load returns them,
 * read in one pass when the file is as study.c would take it, else by
 * study_questions_load itself (questions.c).
 */
json_t *bctx_questions_load(const char *path);

/*
 * bctx drift (drift.c) with its own options (argv[0] is "drift"): reads the
 * page records of two snapshots (--old, --new: bread and bmdprep output of
 * two archives of one plan), writes one drift_page record per page and
 * drift_site and drift_condition summaries (ctxbench-records(5), "Drift
 * records") to stdout or the -o file, atomically, and ends the program with
 * status 0.  A bad record (a missing or mistyped field, a page read twice
 * in one snapshot) or two snapshots of different plans (a site in one
 * only, a page answering other questions) dies naming the file, the line
 * and the field (status 1); usage errors exit 2.
 */
void bctx_drift_main(int argc, char *argv[]) CTX_NORETURN;

/* Share of the gold answer's content words present in text (-1: none). */
double bctx_gold_coverage(const char *gold, const char *text);

/*
 * A<->B content parity of a pair (parity.c, ctxbench-records(5)): word,
 * code and fact shares in 0..1, -1 where undefined (nothing to share on
 * the side that is the denominator).  a is Condition A's plain text, b
 * the bodies of Condition B's documents, starting at bdocs[0..nbdocs) in
 * b; gold (may be NULL) the gold answer.  changed is [{kind, key, a, b}]
 * (at most BCTX_FACTS_SHOWN of the nchanged changes), gold_only_a and
 * gold_only_b the gold answer's facts found on one side only (NULL
 * without gold); all three new references that bctx_parity_release
 * drops.  drift: a fact changed, or a fact share below BCTX_FACTS_MIN
 * with at least BCTX_FACTS_MISSING of that side's facts missing.
 */
#define BCTX_FACTS_MIN 0.7
#define BCTX_FACTS_MISSING 3
#define BCTX_FACTS_SHOWN 20
struct bctx_parity {
	double b_in_a, a_in_b;
	double code_b_in_a, code_a_in_b;
	double facts_b_in_a, facts_a_in_b;
	json_t *changed, *gold_only_a, *gold_only_b;
	size_t nchanged;
	int drift;
};
void bctx_parity(const char *a, size_t alen, const char *b, size_t blen,
    const size_t *bdocs, size_t nbdocs, const char *gold,
    struct bctx_parity *p);
void bctx_parity_release(struct bctx_parity *p);

/*
 * The first BCTX_FACTS_SHOWN changes of c (facts_compare of fa and fb) as
 * a new array of {kind, key, KA: fa's value, KB: fb's value}; parity.c
 * writes them for a pair (a, b), drift.c for two snapshots (old, new).
 */
struct facts;
struct facts_cmp;
json_t *bctx_facts_changes(const struct facts *fa, const struct facts *fb,
    const struct facts_cmp *c, const char *ka, const char *kb);

#endif
