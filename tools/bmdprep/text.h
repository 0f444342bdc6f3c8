/*
 * text.h - what the lenient llms.txt parser (llms.c) and the Markdown
 * preparation (mdprep.c) both do to a text before reading its lines: one
 * encoding and line-end normalisation, one front matter rule.
 */
#ifndef BMD_TEXT_H
#define BMD_TEXT_H

#include <stddef.h>

/*
 * in[0..n) as a new malloc'd NUL-terminated string (*outlen set): invalid
 * UTF-8 replaced by U+FFFD, a leading byte order mark dropped, CR and CRLF
 * line ends made LF, and each NUL byte replaced by nul[0..nullen) (nullen
 * 0: dropped).  Never fails (allocation failure dies).
 */
char *bmd_text_normalise(const char *in, size_t n, const char *nul,
    size_t nullen, size_t *outlen);

/*
 * A leading YAML front matter block of the normalised text s[0..n): a line
 * "---" first, closed by a line "---" or "...".  Returns its length through
 * the closing line's LF (0 when there is none) and sets *lines to the number
 * of its lines.
 */
size_t bmd_front_matter(const char *s, size_t n, unsigned long *lines);

#endif
