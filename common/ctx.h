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
/* Set by SIGINT/SIGTERM when a program asked to handle them itself. */
extern volatile int ctx_interrupted;
/* Let the program handle SIGINT/SIGTERM (sets ctx_interrupted) instead of dying. */
void ctx_catch_signals(void);

/*
 * Where installed data lives: $CTXBENCH_SHARE/REL when that variable is
 * set, else the source tree's share/REL next to the running binary
 * (BUILD/bin/../../share), else CTX_SHAREDIR/REL (the installed copy).  The
 * first that exists is returned (malloc'd); NULL when none does.
 */
char *ctx_share_path(const char *rel);

/* Current UTC time as "2026-02-26T10:00:00Z" into out (>= 21 bytes). */
char *ctx_utc_now(char *out, size_t outlen);

#endif
