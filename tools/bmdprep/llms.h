/*
 * llms.h - parsing llms.txt files (https://llmstxt.org) into a title,
 * summary, info text and H2 sections of links.
 *
 * Two parsers fill the same structure:
 *  - bmd_llms_parse_ref() reproduces parse_llms_file() of the reference
 *    implementation (AnswerDotAI/llms-txt, llms_txt/core.py, and
 *    miniparse.py's parse_llms_txt which gives the same result) exactly,
 *    quirks included, and fails where the reference raises;
 *  - bmd_llms_parse() is the lenient parser for real-world files: it never
 *    fails and reports what it tolerated as diagnostics.
 *
 * Ownership: a struct bmd_llms and everything in it is owned by the caller
 * and released with bmd_llms_free().  All strings are malloc'd and
 * NUL-terminated; their lengths are kept because input text may hold NULs.
 */
#ifndef BMD_LLMS_H
#define BMD_LLMS_H

#include <stddef.h>

struct bmd_str {
	char *s;		/* NULL for Python's None */
	size_t len;
};

struct bmd_link {
	struct bmd_str title;
	struct bmd_str url;	/* as written in the file */
	struct bmd_str desc;	/* s == NULL: no description */
	char *abs_url;		/* resolved by bmd_llms_resolve, or NULL */
	unsigned long line;	/* 1-based line in the input */
};

struct bmd_section {
	struct bmd_str name;
	int optional;		/* the section is the "Optional" one */
	unsigned long line;	/* line of the H2 heading */
	struct bmd_link *links;
	size_t nlinks, caplinks;
};

struct bmd_diag {
	const char *code;	/* static string, see bmd_llms_parse() */
	unsigned long line;	/* 0: the whole file */
	char *message;		/* malloc'd */
	size_t seq;		/* order of creation, for a stable sort */
};

struct bmd_llms {
	struct bmd_str title;	/* s == NULL: no H1 */
	struct bmd_str summary;	/* s == NULL: none */
	struct bmd_str info;
	struct bmd_section *secs;
	size_t nsecs, capsecs;
	struct bmd_diag *diags;
	size_t ndiags, capdiags;
};

/* Where and why the reference implementation raises. */
struct bmd_ref_error {
	const char *stage;	/* "decode", "link" or "header" */
	const char *exception;	/* what parse_llms_file raises */
	const char *ctx_exception; /* what create_ctx raises for the same input */
	unsigned long line;	/* 1-based line of the offending text */
	char *section;		/* stage "link": the section name (malloc'd) */
	char *text;		/* the offending line (malloc'd), or NULL */
};

/*
 * Reference parse of txt[0..n).  Returns a new struct, or NULL with *err
 * filled (release with bmd_ref_error_free) where the reference raises:
 * invalid UTF-8 (UnicodeDecodeError on reading), a non-blank line of an H2
 * section that does not match the link pattern (AttributeError), or a head
 * that does not match the title/summary/info pattern (AttributeError from
 * miniparse, TypeError from core.parse_llms_file).  Sections are those of
 * the reference's dict: unique names in order of first appearance, each with
 * the links of its last occurrence; optional is set for the name "Optional"
 * exactly, the one create_ctx(optional=False) skips.
 */
struct bmd_llms *bmd_llms_parse_ref(const char *txt, size_t n,
    struct bmd_ref_error *err);
void bmd_ref_error_free(struct bmd_ref_error *err);

/*
 * What the reference raises for err and why, as a new malloc'd message;
 * ctx: what create_ctx() raises instead (it differs for the head).
 */
char *bmd_ref_error_message(const struct bmd_ref_error *err, int ctx);

/*
 * Die with "PROGRAM: NAME:LINE: message" for err on the file name, after
 * releasing what err holds.
 */
void bmd_ref_error_die(const char *name, struct bmd_ref_error *err, int ctx)
    __attribute__((noreturn));

/*
 * Lenient parse of txt[0..n); never fails.  Accepts CRLF and CR line ends,
 * a BOM, invalid UTF-8 and NUL bytes (replaced by U+FFFD), `-`, `*` and `+` bullets,
 * ATX closing hashes, fenced code blocks (never structure), H3+ headings
 * inside a section (their links belong to the H2), indented continuation
 * lines of a link's description.  Diagnostic codes: binary_input,
 * invalid_utf8, nul_byte, front_matter, content_before_h1, missing_h1,
 * repeated_h1, multiline_summary, heading_in_info, repeated_section,
 * empty_section, content_outside_structure, link_without_description,
 * empty_url, invalid_url, relative_url, unclosed_code_fence.
 */
struct bmd_llms *bmd_llms_parse(const char *txt, size_t n);

/* Release everything; NULL is allowed. */
void bmd_llms_free(struct bmd_llms *l);

/* The number of links in all sections. */
size_t bmd_llms_link_count(const struct bmd_llms *l);

/* Append a diagnostic (message printf-formatted). */
void bmd_llms_diag(struct bmd_llms *l, const char *code, unsigned long line,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Helpers shared by the parsers. */
struct bmd_str bmd_str_dup(const char *s, size_t n);
struct bmd_section *bmd_llms_add_section(struct bmd_llms *l, const char *name,
    size_t len, unsigned long line);
struct bmd_link *bmd_section_add_link(struct bmd_section *sec);

/*
 * Resolve url against base (RFC 3986, through libcurl's URL API).  Returns
 * a malloc'd absolute URL, or NULL when url cannot be resolved (no base for
 * a relative URL, or a URL libcurl rejects).  *relative is set to 1 when url
 * had no scheme.
 */
char *bmd_url_resolve(const char *base, const char *url, int *relative);

/*
 * Resolve every link's URL against base (may be NULL) into abs_url and add
 * the diagnostics empty_url, relative_url (resolved or not) and invalid_url.
 */
void bmd_llms_resolve(struct bmd_llms *l, const char *base);

/* 1 when url is an absolute http(s) URL that libcurl accepts. */
int bmd_url_valid(const char *url);

#endif
