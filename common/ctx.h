/*
 * ctx.h - what every ctxbench program includes, and its start and end.
 *
 * ctx_init(argv0) sets the program name for messages, installs SIGINT and
 * SIGTERM handlers that remove atomic temporaries before dying, and the exit
 * handler.  ctx_exit() closes the record output (checking for write errors)
 * and exits with status 0, or 1 on a failed write.
 */
#ifndef CTX_CTX_H
#define CTX_CTX_H

#include <jansson.h>
#include "err.h"
#include "buf.h"
#include "utf8.h"
#include "ndjson.h"
#include "jsonx.h"
#include "opt.h"
#include "csv.h"
#include "sha256.h"
#include "atomic.h"
#include "fsutil.h"
#include "progress.h"
#include "study.h"

void ctx_init(const char *argv0);
void ctx_exit(void) CTX_NORETURN;
/*
 * Like ctx_exit, but exit with status once the outputs are committed: for a
 * run whose records are all written but say it failed (every fetch failed).
 */
void ctx_exit_status(int status) CTX_NORETURN;
/* Set by SIGINT/SIGTERM when a program asked to handle them itself. */
extern volatile int ctx_interrupted;
/* Let the program handle SIGINT/SIGTERM (sets ctx_interrupted) instead of dying. */
void ctx_catch_signals(void);

/*
 * Where installed data lives, looked up at run time so that a program
 * installed under any PREFIX (and DESTDIR) finds its data without a rebuild:
 *   1. $CTXBENCH_SHARE/REL, when that variable is set;
 *   2. the source tree's share/REL next to the running binary
 *      (BUILD/bin/../../share/REL);
 *   3. the installed copy beside the installed program
 *      (PREFIX/bin/../share/ctxbench/REL, from /proc/self/exe);
 *   4. CTX_SHAREDIR/REL, the SHAREDIR the program was built with.
 * The first that exists is returned (malloc'd); NULL when none does.
 * ctx_share_file() returns the same, or when none exists the path where the
 * file was expected ($CTXBENCH_SHARE/REL if set, else CTX_SHAREDIR/REL) for
 * the caller's error message; never NULL.
 */
char *ctx_share_path(const char *rel);
char *ctx_share_file(const char *rel);
/*
 * The whole text of the installed data file rel (a template, a script), up
 * to 4 MiB, malloc'd for the caller; dies naming rel and CTXBENCH_SHARE when
 * it is not found, or the path when it cannot be read.  A line that is
 * exactly <!--#include file="NAME" --> (Apache's server-side include) stands
 * for the text of the data file NAME, found and read the same way, in its
 * place and its newline's: so the pages of bscore-merge and bstats open with
 * one head, share/page-head.html.  One level: NAME's own include lines are
 * kept as text.
 */
char *ctx_share_text(const char *rel);

/* Current UTC time as "2026-02-26T10:00:00Z" into out (>= 21 bytes). */
char *ctx_utc_now(char *out, size_t outlen);

#endif
