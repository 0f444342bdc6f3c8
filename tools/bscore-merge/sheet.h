/*
 * sheet.h - reading filled scoring sheets as spreadsheets leave them.
 *
 * A sheet is CSV (RFC 4180, with or without a UTF-8 BOM, LF or CRLF) or
 * NDJSON (one object per line, as binfer --judge and autoscore write).  Header
 * names are canonicalised (bsm_canon_column: case, spaces, aliases), so
 * reordered, renamed-by-case or extra columns are fine; rows whose cells are
 * all empty are skipped; a row shorter than the header is padded with empty
 * cells (spreadsheets drop trailing empties); a longer one is a problem unless
 * the extra cells are empty.  Nothing here dies: every problem goes to the
 * problem list with "FILE:LINE:".
 */
#ifndef BSM_SHEET_H
#define BSM_SHEET_H

#include <stdio.h>
#include <jansson.h>
#include "rubric.h"

/*
 * Read the sheet in fp (name for messages).  Returns a new array of objects,
 * one per row, keyed by canonical column names (CSV cells as strings, NDJSON
 * values as they are) plus "_line" (the row's line).  *columns (if not NULL)
 * receives a new array of the canonical column names, in sheet order (for NDJSON:
 * the union of keys).  On a problem that makes the sheet unreadable the rows
 * read so far are returned and the problem recorded.
 */
json_t *bsm_sheet_read(FILE *fp, const char *name, const struct bsm_rubric *r,
    json_t **columns, struct bsm_problems *p);

/* Open and read path; a file that cannot be opened is a problem. */
json_t *bsm_sheet_load(const char *path, const struct bsm_rubric *r,
    json_t **columns, struct bsm_problems *p);

#endif
