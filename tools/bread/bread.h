/*
 * bread.h - Condition A content extraction (spec 001 §2.2, §2.5): a
 * readability implementation on libxml2's HTML parser, modelled on Mozilla
 * Readability.js (upstream commit ab4027a8), and the text renderer that turns the extracted
 * article into plain text (or Markdown-ish text).
 *
 * The files, each above the ones it calls (calls only go down; all of them
 * also call common/):
 *
 *   main.c         options, record mode (ndj_run) and raw mode
 *                                              -> extract.c xmem.c
 *   extract.c      bread_extract: one page in, one result out
 *                                              -> charset.c readability.c
 *   charset.c      the page decoded to UTF-8 (HTTP Content-Type, BOM,
 *                  <meta>, valid UTF-8 winning over a wrong declaration)
 *   readability.c  Readability.js on libxml2's tree: metadata, the
 *                  article (rd.h: bread_rd_run)
 *                                 -> parse.c render.c dom.c xmem.c
 *   parse.c        the page parsed by libxml2, <script> and <style>
 *                  text read past libxml2's first block, a tag set
 *                  gathered as the elements are made (parse.h) -> dom.c
 *   render.c       the article as text or Markdown-ish text (rd.h:
 *                  bread_render)                                -> dom.c
 *   dom.c          the DOM layer both stand on (dom.h): walks, text
 *                  content, JavaScript string measures, the graveyard
 *   xmem.c         libxml2's allocations, each page's from an arena
 *                  (xmem.h)
 *
 * This header holds what main.c, the unit tests and the fuzz target call.
 */
#ifndef BREAD_H
#define BREAD_H
#include <stddef.h>

/* Output styles of the renderer. */
enum bread_style {
	BREAD_TEXT = 0,		/* plain text, one line per block (001 §2.2) */
	BREAD_MARKDOWN = 1	/* headings with #, lists with -, code fences */
};

struct bread_opts {
	enum bread_style style;
	int whole;		/* 1: render the whole <body>, no extraction */
	size_t char_threshold;	/* Readability.js charThreshold; 0: 500 */
};

/* The room for a charset's name, with its NUL (bread_decode). */
#define BREAD_CHARSET_MAX 64

/* What one page gives.  Every string is malloc'd UTF-8 or NULL. */
struct bread_result {
	char *text;		/* the article text, never NULL after extract */
	size_t text_len;	/* bytes */
	char *title;		/* never NULL after extract ("" when none) */
	char *byline;		/* NULL when none */
	char *excerpt;		/* NULL when none */
	char charset[BREAD_CHARSET_MAX];	/* the charset the page was decoded from */
	int parsed;		/* 0 when libxml2 gave no document at all */
};

/*
 * Extract the article from the page data[0..len) (any bytes).  content_type
 * is the HTTP Content-Type header value or NULL.  Fills *res, which the
 * caller releases with bread_result_release.  Never fails on hostile input:
 * a page that yields nothing gives an empty text.
 */
void bread_extract(const char *data, size_t len, const char *content_type,
    const struct bread_opts *opts, struct bread_result *res);
void bread_result_release(struct bread_result *res);

/*
 * Decode data to UTF-8 (see charset.c for the order of the evidence).
 * Returns a malloc'd, NUL-terminated, valid UTF-8 string without NUL bytes
 * (each invalid sequence and NUL becomes U+FFFD); *outlen receives its length
 * and charset (when not NULL; BREAD_CHARSET_MAX bytes) the name of the
 * charset used, in capitals.
 */
char *bread_decode(const char *data, size_t len, const char *content_type,
    size_t *outlen, char *charset);

/*
 * bread_decode without a copy where none is needed: when data (after a
 * UTF-8 byte order mark) is valid UTF-8 without NUL bytes, returns a
 * pointer into data, not NUL-terminated, and *owned = NULL; otherwise
 * bread_decode's string, which *owned also points to and the caller frees.
 * *outlen and charset as bread_decode's.
 */
const char *bread_decode_view(const char *data, size_t len,
    const char *content_type, size_t *outlen, char *charset, char **owned);

/*
 * The charset label found in a Content-Type value ("text/html;
 * charset=ISO-8859-1" -> "ISO-8859-1") copied into out (size outsz);
 * returns 0 when there is none.
 */
int bread_ct_charset(const char *content_type, char *out, size_t outsz);

/* The program's version string for the extractor field. */
#define BREAD_EXTRACTOR_NAME "bread"
#endif
