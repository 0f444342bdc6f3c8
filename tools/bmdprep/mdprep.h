/*
 * mdprep.h - Markdown preparation for Condition B (spec 001 §2.3 and the
 * config's extraction.markdown_preprocessing).
 *
 * The retrieval pipeline of §2.3: strip HTML comments (multi-line too),
 * strip base64-encoded images (Markdown `![..](data:image/..)`, reference
 * definitions and HTML `<img src="data:image/..">`), normalise line ends to
 * LF, collapse runs of blank lines to at most max_blank, and keep or drop a
 * leading YAML front matter block.  Fenced code blocks and inline code spans
 * are content: nothing inside them is stripped.  A comment that is never
 * closed is left as text.
 */
#ifndef BMD_MDPREP_H
#define BMD_MDPREP_H

#include <stddef.h>
#include <jansson.h>

struct bmd_mdopts {
	int strip_comments;	/* strip_html_comments (default 1) */
	int strip_base64;	/* strip_base64_images (default 1) */
	long max_blank;		/* max_consecutive_blank_lines (default 2; <0: no limit) */
	int drop_front_matter;	/* default 0: front matter is kept */
};

void bmd_mdopts_default(struct bmd_mdopts *o);

/*
 * Read extraction.markdown_preprocessing from a benchmark-config.json
 * (cfg may be NULL).  Dies (naming the config file) on a wrong type or on a
 * normalize_line_endings other than "LF".
 */
void bmd_mdopts_config(struct bmd_mdopts *o, const json_t *cfg,
    const char *cfgname);

/*
 * Prepare s[0..n) into a new malloc'd UTF-8 string (*outlen set): invalid
 * UTF-8 becomes U+FFFD, a BOM and NUL bytes are dropped, lines end in LF,
 * leading and trailing blank lines are dropped and a non-empty result ends
 * with one "\n".  A line left with only white space by a removal is dropped
 * whole.
 */
char *bmd_md_prepare(const char *s, size_t n, const struct bmd_mdopts *o,
    size_t *outlen);

#endif
