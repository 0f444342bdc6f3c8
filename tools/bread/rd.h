/*
 * rd.h - internal interfaces between bread's extractor and renderer.
 */
#ifndef BREAD_RD_H
#define BREAD_RD_H
#include <libxml/tree.h>
#include "buf.h"
#include "bread.h"

/*
 * Parse UTF-8 HTML utf8[0..len) with libxml2 and extract (or, with
 * o->whole, take the whole body); fills res (text, title, byline, excerpt).
 */
void bread_rd_run(const char *utf8, size_t len, const struct bread_opts *o,
    struct bread_result *res);

/* Render the subtree at root as text in the given style, appended to out. */
void bread_render(xmlNodePtr root, enum bread_style style, struct buf *out);
#endif
