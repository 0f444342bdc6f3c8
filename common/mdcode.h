/*
 * mdcode.h - which lines of a Markdown text are code, after CommonMark
 * 0.31 (§4.4 indented code blocks, §4.5 fenced code blocks, §5.1 block
 * quotes): the one fence detector of the toolkit, used by bmdprep's
 * preparation and llms.txt parser and by bctx's A<->B parity measure.
 *
 * Feed the lines in order (without their '\n'); each call classifies one.
 * Understood: fences of ``` or ~~~ (three or more, up to three spaces of
 * indent, a backtick fence's info string without backticks), closed by a
 * fence of the same character at least as long with only spaces after it,
 * or by the end of the block quote that holds it; fences and indented code
 * inside block quotes ("> " markers stripped); indented code (four columns,
 * a tab counting to the next multiple of four) that does not continue a
 * paragraph or a list item.  Not understood: HTML blocks, and list items
 * beyond "an indented line after a list item belongs to it".
 */
#ifndef CTX_MDCODE_H
#define CTX_MDCODE_H

#include <stddef.h>

enum md_line {
	MD_TEXT,		/* prose, headings, lists, tables ... */
	MD_BLANK,		/* blank, outside code */
	MD_FENCE,		/* an opening or closing fence line */
	MD_CODE			/* a line of code (a blank one inside a fence too) */
};

struct md_code {
	size_t flen;		/* length of the open fence, 0 when none */
	char fch;		/* its character */
	size_t fquote;		/* block-quote depth of the open fence */
	enum md_line prev;	/* class of the previous line */
	int indented;		/* an indented code block is open (blank lines
				 * after it may still belong to it) */
	int in_list;		/* the last text line belonged to a list item */
	int para;		/* the previous non-blank line was paragraph text */
};
#define MD_CODE_INIT { 0, 0, 0, MD_BLANK, 0, 0, 0 }

/*
 * Classify the line s[0..n) and advance the state.  *body (may be NULL)
 * receives the offset of the line's content after its block-quote markers.
 */
enum md_line md_code_line(struct md_code *st, const char *s, size_t n,
    size_t *body);

/*
 * A fence at s[0..n) (a line without its '\n', after any block-quote
 * markers): returns the length of its run (>= 3) and stores its character
 * in *ch, else 0.  md_fence_open also refuses a backtick fence whose info
 * string holds a backtick (it cannot open a block).
 */
size_t md_fence(const char *s, size_t n, char *ch);
size_t md_fence_open(const char *s, size_t n, char *ch);
/* The fence of run length k at s[0..n) has only spaces after its run. */
int md_fence_closes(const char *s, size_t n, size_t k);

#endif
