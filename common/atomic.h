/*
 * atomic.h - files that appear whole or not at all.
 *
 * atomic_open(path) creates "DIR/.NAME.XXXXXX" beside path; atomic_commit()
 * flushes, fsyncs, closes and renames it over path, then fsyncs the
 * directory.  Until the commit the target is untouched; if the program exits
 * or dies first, an atexit handler (and the SIGINT/SIGTERM handlers installed
 * by ctx_init) remove the temporary file, so a killed run never leaves a half
 * file behind.  (SIGKILL leaves the hidden temporary; the target is still
 * whole.)  A run with several outputs commits them together with a group
 * (below).
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

/*
 * Groups: the several outputs of one run, committed all or none.
 *
 *	struct atomic_group *g = atomic_group_new();
 *	FILE *rep = atomic_group_open(g, "report.md", 0644);
 *	atomic_group_mkdir(g, "figures", 0755);
 *	FILE *fig = atomic_group_open(g, "figures/one.svg", 0644);
 *	... write to rep and fig ...
 *	if (atomic_group_commit(g, &bad) < 0)
 *		die_errno("%s", bad);
 *
 * Staging: a file is written to "DIR/.NAME.XXXXXX" beside its final name.
 * A directory that does not exist (or the first absent directory of its
 * path) is made as a temporary directory beside its final name, and
 * whatever the group makes beneath it is made inside that one; a directory
 * that exists is used as it is, each file in it staged beside its final
 * name, and the other files in it are left alone.  A device or FIFO is
 * written in place (it cannot be taken back).  Until the commit, no final
 * name is touched; if the program exits or dies (die, SIGINT, SIGTERM,
 * SIGHUP) first, the exit and signal handlers remove every temporary.
 *
 * Commit: every file is flushed, given its mode (less the umask), fsynced
 * and closed, and the staged directories synced; a failure there removes
 * the temporaries and leaves every final name as it was.  Then, with
 * SIGINT, SIGTERM and SIGHUP held back, each file or directory is renamed
 * into place, a file it replaces first moved aside to ".NAME.XXXXXX.old";
 * if a rename fails, those already done are undone (each previous file put
 * back, each new one removed), so the final names hold either all the new
 * outputs or all that was there before.  Only a SIGKILL or a power loss
 * during those renames (a few system calls) can leave some outputs new and
 * others as they were; each one is still whole, and a file being replaced
 * may then be found at its ".old" name instead of its own.
 *
 * Runs committing into one directory take turns: each holds a lock
 * (flock) on the directories it renames into while it renames and, if it
 * must, undoes, so two runs' outputs are never mixed; the last run to
 * commit wins whole.  A directory staged because it did not exist, which
 * another run made meanwhile, fails the commit with EEXIST.
 *
 * Paths are compared as written: a file beneath a staged directory must be
 * named through the same directory path given to atomic_group_mkdir, and
 * every file in a staged directory must be made through the group.
 */
struct atomic_group;

/* A new, empty group; never NULL (dies when out of memory). */
struct atomic_group *atomic_group_new(void);
/*
 * Make directory path (and its absent parents) for the group, staged when
 * absent, with mode (less the umask); 0, or -1 with errno (ENOTDIR: a
 * component exists and is not a directory).
 */
int atomic_group_mkdir(struct atomic_group *g, const char *path, mode_t mode);
/*
 * A stream to write path's new content to, with mode as its final
 * permission; owned by the group (do not fclose it).  Its directory must
 * exist or have been made by atomic_group_mkdir.  NULL with errno on
 * failure (EISDIR: path is a directory).
 */
FILE *atomic_group_open(struct atomic_group *g, const char *path, mode_t mode);
/*
 * Commit every output of g, as above, and free g.  0, or -1 with errno
 * and *failed set to the path that failed (malloc'd, the caller frees it);
 * then no output has changed.
 */
int atomic_group_commit(struct atomic_group *g, char **failed);
/* Remove every temporary of g and free it; no final name is touched. */
void atomic_group_abort(struct atomic_group *g);

/* Remove every open temporary (called from exit and signal paths). */
void atomic_cleanup_all(void);

#endif
