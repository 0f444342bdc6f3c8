/*
 * llmsctx.h - the llms.txt context of the reference create_ctx()
 * (AnswerDotAI/llms-txt llms_txt/core.py at 7dd05c5b, rendered by
 * fastcore.xml.to_xml(ctx, do_escape=False) of fastcore 2.2.14), byte for
 * byte.  bctx renders its reference-style Condition B contexts to the same
 * contract with its own code (tools/bctx/render.c).
 *
 * THE OUTPUT CONTRACT (what create_ctx(txt, optional) returns):
 *
 *   <project title=T[ summary=S]>INFO SECTION...</project>
 *
 * - No newline anywhere except inside texts and around block sections;
 *   nothing after </project>.
 * - Attributes (title, summary on project; title, desc on doc; an attribute
 *   whose value is None is left out, an empty string is kept) are written
 *   `k="v"`.  A value holding &, < or > has exactly those escaped (&amp;
 *   &lt; &gt;, html.escape(quote=False)).  When the value then holds a
 *   double quote it is quoted with single quotes instead, and only in that
 *   case single quotes in it become &#39;.  Nothing else is escaped.
 * - INFO (the text between the H1/summary and the first H2) and document
 *   texts are written raw: do_escape=False.
 * - A section is an element named by its H2 text lower-cased with Python's
 *   str.lower() (spaces, quotes and all, no escaping: `<getting started &
 *   <more>>`).  Its documents follow in llms.txt order:
 *     <name><doc ...>TEXT</doc>...</name>      and <name></name> when empty.
 *   When the lower-cased name is an HTML block tag of fastcore (div p ul ol
 *   li table thead tbody tfoot html head body meta title !doctype input
 *   script link style tr th td section article nav aside header footer
 *   h1..h6 blockquote) and not a whitespace-significant one (pre code
 *   textarea script), the section is indented as fastcore does at level 2:
 *     "  <name>\n" DOCS "  </name>\n"     and "  <name></name>\n" when empty.
 *   An empty name renders as DOCS "</>" (fastcore omits the empty start tag).
 * - <doc title=.. [desc=..]>TEXT</doc>: TEXT is the fetched body decoded as
 *   UTF-8 (invalid bytes as U+FFFD), split with str.splitlines(), without the
 *   lines matching ^<!--.*-->$ (an HTML comment alone on its line, no
 *   indentation) or <img[^>]*src="data:image/[^"]*"[^>]*> (an inline base64
 *   image anywhere in the line), joined with "\n" (so no trailing newline).
 * - The section named exactly "Optional" is left out unless optional is set;
 *   "optional" or "Optional " are ordinary sections.
 *
 * Memory: every function appends to a caller-owned struct buf.
 */
#ifndef BMD_LLMSCTX_H
#define BMD_LLMSCTX_H

#include <stddef.h>
#include "buf.h"
#include "llms.h"

/* One attribute ` k="v"` with the reference's escaping and quoting. */
void bmd_ctx_attr(struct buf *out, const char *k, const char *v, size_t n);

/* "<project title=.. summary=..>"; summary NULL: no summary attribute. */
void bmd_ctx_project_open(struct buf *out, const char *title, size_t tlen,
    const char *summary, size_t slen);
/* Raw text (the info); no escaping. */
void bmd_ctx_text(struct buf *out, const char *s, size_t n);
void bmd_ctx_project_close(struct buf *out);

/* A section being written: opened lazily so empty ones render right. */
struct bmd_ctx_section {
	char *tag;		/* lower-cased name (malloc'd) */
	size_t taglen;
	int block;		/* fastcore block tag: indented at level 2 */
	size_t ndocs;
};
void bmd_ctx_section_begin(struct buf *out, struct bmd_ctx_section *sec,
    const char *name, size_t n);
/*
 * <doc title=.. [url=..] [desc=..]>TEXT</doc>; desc NULL: no desc.  url is
 * NULL in the reference style; a methodology-style context may pass it.
 * text is written as given: pass it through bmd_ctx_doc_text() for the
 * reference.
 */
void bmd_ctx_doc(struct buf *out, struct bmd_ctx_section *sec,
    const char *title, size_t tlen, const char *url, size_t ulen,
    const char *desc, size_t dlen, const char *text, size_t textlen);
void bmd_ctx_section_end(struct buf *out, struct bmd_ctx_section *sec);

/*
 * The reference _doc() line filter on a fetched body (see the contract):
 * returns a new malloc'd string, *outlen set.
 */
char *bmd_ctx_doc_text(const char *body, size_t n, size_t *outlen);

/*
 * Look a link's document up: return its raw body (borrowed, valid until the
 * next call) with *n set, or NULL when there is none.
 */
typedef const char *(*bmd_ctx_lookup_fn)(const struct bmd_link *lk,
    size_t *n, void *arg);

/*
 * create_ctx(txt, optional) for a reference-parsed llms.txt: the whole
 * context appended to out.  Returns 0, or -1 when lookup finds no document
 * for a link (*missing then points at that link).
 */
int bmd_ctx_render(struct buf *out, const struct bmd_llms *l, int optional,
    bmd_ctx_lookup_fn lookup, void *arg, const struct bmd_link **missing);

#endif
