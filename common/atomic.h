/*
 * atomic.h - files that appear whole or not at all.
 *
 * atomic_open(path) creates "DIR/.NAME.XXXXXX" beside path; atomic_commit()
 * flushes, fsyncs, closes and renames it over path, then fsyncs the
 * directory.  Until the commit the target is untouched; if the program exits
 * or dies first, an atexit handler (and the SIGINT/SIGTERM handlers installed
 * by ctx_init) remove the temporary file, so a killed run never leaves a half
 * file behind.  (SIGKILL leaves the hidden temporary; the target is still
 * whole.)
 */
#ifndef CTX_ATOMIC_H
#define CTX_ATOMIC_H

#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>

struct atomic_file;

/* Open a temporary beside path; mode is the final permission (e.g. 0644). */
struct atomic_file *atomic_open(const char *path, mode_t mode);
FILE *atomic_fp(struct atomic_file *f);
/* Commit: returns 0, or -1 with errno (the temporary is removed). */
int atomic_commit(struct atomic_file *f);
/* Abandon: remove the temporary; the target is untouched. */
void atomic_abort(struct atomic_file *f);

/* Write buf to path atomically; 0 or -1 with errno. */
int atomic_write(const char *path, const void *buf, size_t len, mode_t mode);

/* Remove every open temporary (called from exit and signal paths). */
void atomic_cleanup_all(void);

#endif
