/*
 * bsm.h - the subcommands of bscore-merge and the options they share.
 * main.c parses the command line into struct bsm_opts and calls one of
 * bsm_blind (blind.c), bsm_autoscore (autoscore.c), bsm_merge and bsm_check
 * (merge.c).  Each returns the exit status.
 *
 * The files, each above the ones it calls (calls only go down; all of them
 * also call common/), with the header that holds each one's contracts:
 *
 *   main.c       options; one call per subcommand, `rubric` itself
 *                             -> blind.c autoscore.c merge.c rubric.c
 *   blind.c      blind: responses to sheets, pages and the key (bsm.h)
 *                             -> hints.c page.c sheet.c key.c rubric.c
 *   autoscore.c  autoscore: a first-pass rater over blinded sheets (bsm.h)
 *                             -> hints.c sheet.c rubric.c
 *   merge.c      merge and check: sheets typed and assembled per
 *                (response, rater), unblinded into the outputs (bsm.h)
 *                             -> sheet.c key.c rubric.c
 *   page.c       the scoring page (page.h)     -> rubric.c expr.c
 *   sheet.c      filled sheets read as spreadsheets leave them (sheet.h)
 *                                              -> rubric.c
 *   hints.c      citation and completeness hints, term recall (hints.h)
 *   key.c        the key and the tuples it knows responses by (key.h)
 *   rubric.c     rubric definitions, cell typing, row completion, the
 *                problem list (rubric.h)       -> expr.c
 *   expr.c       the rubric expression language (expr.h)
 */
#ifndef BSM_BSM_H
#define BSM_BSM_H

#include "rubric.h"

struct bsm_opts {
	const char *rubric;		/* -R: name or path; NULL: default */
	const char *key;		/* -k */
	const char *dir;		/* -d (blind) */
	const char *output;		/* -o */
	const char *raw_data;		/* --raw-data */
	const char *details;		/* --details */
	const char *primary;		/* --primary */
	const char *rater;		/* --rater */
	const char *date;		/* --date */
	char **responses;		/* -r (merge), NULL-terminated */
	size_t nresponses;
	double second_rater, self_check;	/* fractions */
	unsigned long seed;
	int have_seed;
	int passes, bom, crlf, keep_texts, sources;
	int raw_csv;			/* merge --raw-csv: text cells untouched */
	int html;			/* blind --html: scoring pages */
	int force;			/* blind --force: replace key, sheets */
	long spot_check;		/* --spot-check N (pages); -1: default */
	int nfiles;
	char **files;
};

int bsm_blind(const struct bsm_opts *o);
int bsm_autoscore(const struct bsm_opts *o);
int bsm_merge(const struct bsm_opts *o);
int bsm_check(const struct bsm_opts *o);

#endif
