/*
 * run.h - what btok does with its inputs (run.c): records or raw text, each
 * input opened and read once.
 */
#ifndef BTOK_RUN_H
#define BTOK_RUN_H

#include "btok.h"

struct tk {
	char *name;
	struct btok t;
	struct btok_enc *enc;	/* for t, made once it is loaded */
};

struct run {
	struct tk *tk;
	size_t ntk;
	const char *field;
	int ids, special, ref;	/* ref: index of llama3 or -1 */
	int records_only;	/* -o: the output is records, whatever the input */
	int allow_empty;	/* --allow-empty: no record to count is no error */
	struct btok_ids buf;
	/* record mode */
	unsigned long long records, counted, missing;
	unsigned long long bytes;	/* of the fields counted */
};

/*
 * Count nfiles inputs (none: stdin; "-": stdin).  The first bytes of the
 * first input decide the mode (records when '{', raw text otherwise; raw
 * when raw is set); a UTF-8 BOM before '{' dies with FILE:1.  Record mode:
 * a note for each of the first records without the field, and exit 1 (the
 * output abandoned) when no record had it, or when there was no record
 * (unless r->allow_empty); then a summary line on stderr.  With
 * r->records_only (-o) an empty input is zero records, and an input that is
 * not records dies with FILE:1.
 */
void btok_run_inputs(struct run *r, int nfiles, char *const files[], int raw);
void run_free(struct run *r);

#endif
