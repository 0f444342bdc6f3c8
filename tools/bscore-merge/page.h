/*
 * page.h - the blinded scoring page of `bscore-merge blind --html`: one
 * self-contained HTML file (data, styles and script inline) per scoring pass
 * and sheet set.  The template is share/bscore-merge/page.html (opening
 * with share/page-head.html, the head it shares with bstats's results
 * browser) with page.css and page.js, read at run time; the data is one JSON object put
 * inside <script type="application/json"> with every '<', '>' and '&'
 * escaped as \u003c, \u003e, \u0026 so no text can close the element.
 */
#ifndef BSM_PAGE_H
#define BSM_PAGE_H

#include <stdio.h>
#include <jansson.h>
#include "rubric.h"

/*
 * The rubric part of a page's data for one pass: {rubric, version, title,
 * spec, pass {name, label, index, count}, fields [definitions of the pass's
 * fields, with "optional_when_ast" and, for records, "item_rules_ast" and
 * "item_derived_ast"], rules [{id, message, when, require} as expression
 * trees]}.  pass may be NULL (a page with every field).
 */
json_t *bsm_page_rubric(const struct bsm_rubric *r, const json_t *pass,
    size_t index, size_t count, const json_t *fields);

/*
 * Write the page for data (which receives "page_id", a digest of the rest) to
 * fp.  title is plain text.  Dies when the template cannot be read.
 */
void bsm_page_write(FILE *fp, json_t *data, const char *title);

/* data as JSON safe inside a <script> element (malloc'd). */
char *bsm_page_json(const json_t *data);

#endif
