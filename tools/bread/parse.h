/*
 * parse.h - the page parsed into libxml2's tree (parse.c), the one place
 * that says how bread drives libxml2's HTML parser: readability.c parses
 * with it, and tests/bench/htmlparse.c links it to time the same parse.
 */
#ifndef BREAD_PARSE_H
#define BREAD_PARSE_H
#include <stddef.h>
#include <libxml/HTMLparser.h>
#include "dom.h"

/*
 * The parser's options: recover from any markup, report nothing, never
 * reach the network, compact short text nodes, no default DTD node, and
 * ignore the page's declared charset (the input is UTF-8 already).
 */
#define BREAD_PARSE_OPTIONS (HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | \
	HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT | \
	HTML_PARSE_NODEFDTD | HTML_PARSE_IGNORE_ENC)

/*
 * Parse utf8[0..len) (valid UTF-8 without NUL bytes, as bread_decode gives
 * it; longer than INT_MAX is cut there) as HTML.  Returns the document,
 * which the caller frees with xmlFreeDoc (or forgets with bread's arena),
 * or NULL when libxml2 gives none.  The tree is the one libxml2's
 * htmlParseDocument builds with BREAD_PARSE_OPTIONS, byte for byte; only
 * the way elements are built, their attributes are read, and the text
 * after tags and in <script> and <style> reaches it are faster (parse.c),
 * and
 * id attributes are not registered as IDs (XML_SKIP_IDS: bread never looks
 * an element up by its id, and the registry costs a hash entry each).
 * When ts is not NULL (started with bread_tagset_start), the elements its
 * tags name are added to it as libxml2 makes them, and ts->root is set to
 * the document's root element: the set bread_tagset_init would give for
 * that root, without its walk.
 */
htmlDocPtr bread_parse(const char *utf8, size_t len, struct bread_tagset *ts);

/*
 * bread_parse, with the names and short strings of the document in dict
 * (which it references, as the document does) when dict is not NULL: the
 * same tree, whose nodes can move into a document of that dictionary and
 * be freed there.
 */
htmlDocPtr bread_parse_dict(const char *utf8, size_t len,
    struct bread_tagset *ts, xmlDictPtr dict);
#endif
