/*
 * check.h - bctx check: the study corpus against its own pre-registered
 * design (spec 001 §1.1-1.3, §1.6, §3.2-3.6), before the first fetch.
 */
#ifndef BCTX_CHECK_H
#define BCTX_CHECK_H

#include "err.h"

/*
 * Run "bctx check" with its own options (argv[0] is "check").  Prints one
 * finding per line and a summary table per rule, or with --json one record
 * {file, line, rule, section, level, site_id, question_id, message} per
 * finding, to stdout or the -o file (written atomically, also when rules
 * fail).  Ends the program: status 1 when a MUST rule failed (or a SHOULD
 * rule with --strict), else 0.  Malformed input files die through the study
 * loaders (status 1), usage errors exit 2.
 */
void bctx_check_main(int argc, char *argv[]) CTX_NORETURN;

#endif
