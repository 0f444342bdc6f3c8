/*
 * atomic.c - write-to-temporary-then-rename files (see atomic.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "err.h"
#include "fsutil.h"
#include "sort.h"

struct atomic_file {
	char *path;
	char *tmp;
	char *dir;		/* path's directory, synced after the rename */
	FILE *fp;
	mode_t mode;
	int direct;		/* not a regular file (/dev/null, a FIFO): no rename */
	struct atomic_file *next;
};

static struct atomic_file *open_files;
static void groups_cleanup(void);

static mode_t
process_umask(void)
{
	static int known;
	static mode_t mask;

	if (!known) {
		mask = umask(022);
		umask(mask);
		known = 1;
	}
	return mask;
}
static int registered;

static void
atexit_cleanup(void)
{
	atomic_cleanup_all();
}

void
atomic_cleanup_all(void)
{
	struct atomic_file *f;

	/* Only unlink(2): also called from signal handlers. */
	for (f = open_files; f; f = f->next)
		if (f->tmp)
			unlink(f->tmp);
	groups_cleanup();
}

static void
unlink_from_list(struct atomic_file *f)
{
	struct atomic_file **pp;

	for (pp = &open_files; *pp; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			return;
		}
}

static void
free_file(struct atomic_file *f)
{
	unlink_from_list(f);
	free(f->path);
	free(f->tmp);
	free(f->dir);
	free(f);
}

struct atomic_file *
atomic_open(const char *path, mode_t mode)
{
	struct atomic_file *f;
	char *dir, *slash;
	const char *base;
	struct stat st;
	int fd;

	if (!registered) {
		atexit(atexit_cleanup);
		registered = 1;
	}
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->mode = mode;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO is written in place, never replaced. */
		f->direct = 1;
		f->fp = fopen(path, "w");
		if (f->fp == NULL) {
			int e = errno;

			free(f->path);
			free(f);
			errno = e;
			return NULL;
		}
		return f;
	}
	slash = strrchr(f->path, '/');
	base = slash ? slash + 1 : f->path;
	dir = slash ? xstrndup(f->path, (size_t)(slash - f->path) + 1) : xstrdup("");
	f->tmp = xasprintf("%s.%s.XXXXXX", dir, base);
	free(dir);
	/*
	 * Allocated now, so a commit allocates nothing: a failure there would
	 * die with some outputs of a program renamed and others not.
	 */
	f->dir = path_dirname(f->path);
	fd = mkstemp(f->tmp);
	if (fd < 0) {
		int e = errno;

		free(f->path);
		free(f->tmp);
		free(f->dir);
		free(f);
		errno = e;
		return NULL;
	}
	f->next = open_files;
	open_files = f;
	f->fp = fdopen(fd, "w");
	if (f->fp == NULL) {
		int e = errno;

		close(fd);
		unlink(f->tmp);
		free_file(f);
		errno = e;
		return NULL;
	}
	return f;
}

FILE *
atomic_fp(struct atomic_file *f)
{
	return f->fp;
}

static void
sync_dir(int fd)
{
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int
atomic_commit(struct atomic_file *f)
{
	int e, dfd;

	if (f->direct) {
		e = fflush(f->fp) == EOF || ferror(f->fp) ? (errno ? errno : EIO) : 0;
		if (fclose(f->fp) == EOF && e == 0)
			e = errno;
		free(f->path);
		free(f);
		errno = e;
		return e ? -1 : 0;
	}
	if (fflush(f->fp) == EOF || ferror(f->fp) ||
	    fchmod(fileno(f->fp), f->mode & ~process_umask()) < 0 ||
	    fsync(fileno(f->fp)) < 0) {
		e = errno ? errno : EIO;
		fclose(f->fp);
		goto fail;
	}
	if (fclose(f->fp) == EOF) {
		e = errno;
		goto fail;
	}
	dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rename(f->tmp, f->path) < 0) {
		e = errno;
		if (dfd >= 0)
			close(dfd);
		goto fail;
	}
	sync_dir(dfd);
	free(f->tmp);
	f->tmp = NULL;
	free_file(f);
	return 0;
fail:
	unlink(f->tmp);
	free_file(f);
	errno = e;
	return -1;
}

void
atomic_abort(struct atomic_file *f)
{
	if (f->direct) {
		fclose(f->fp);
		free(f->path);
		free(f);
		return;
	}
	fclose(f->fp);
	unlink(f->tmp);
	free_file(f);
}

int
atomic_write(const char *path, const void *buf, size_t len, mode_t mode)
{
	struct atomic_file *f = atomic_open(path, mode);

	if (f == NULL)
		return -1;
	if (len && fwrite(buf, 1, len, f->fp) != len) {
		int e = errno;

		atomic_abort(f);
		errno = e;
		return -1;
	}
	return atomic_commit(f);
}

/* ------------------------------------------------------------ groups */

/*
 * A group's entries, newest first: that is also an order in which every
 * entry comes before the directory holding it, so removing them in list
 * order empties each staged directory before its rmdir.
 */
enum staged_kind {
	ST_FILE,	/* a temporary file beside its target */
	ST_DIR,		/* a temporary directory beside its (absent) target */
	ST_INNER,	/* a file made inside a staged directory */
	ST_SUBDIR,	/* a directory made inside a staged directory */
	ST_DIRECT	/* a device or FIFO, written in place */
};

struct staged {
	enum staged_kind kind;
	char *path;		/* the final path (canon) */
	char *tmp;		/* where it is written (NULL: ST_DIRECT) */
	char *old;		/* ST_FILE: where the file it replaces waits */
	char *dir;		/* ST_FILE, ST_DIR: the parent, synced at the end */
	FILE *fp;		/* files, until the commit closes them */
	mode_t mode;
	int moved;		/* commit: the previous file is at old */
	int published;		/* commit: tmp is at path */
	struct staged *next;	/* the one made before */
	struct staged *prev;	/* the one made after */
	struct staged *next_dir;	/* ST_DIR: the group's other ones */
};

struct atomic_group {
	struct staged *head;	/* the newest entry */
	struct staged *tail;	/* the oldest */
	struct staged *dirs;	/* the ST_DIR entries, for staged_parent */
	struct atomic_group *next;
};

static struct atomic_group *open_groups;

/* Remove what one entry left on disk; only unlink(2) and rmdir(2). */
static void
staged_remove(const struct staged *e)
{
	if (e->tmp == NULL)
		return;
	if (e->kind == ST_DIR || e->kind == ST_SUBDIR)
		rmdir(e->tmp);
	else
		unlink(e->tmp);
}

/* Called by atomic_cleanup_all, from exit and signal paths. */
static void
groups_cleanup(void)
{
	const struct atomic_group *g;
	const struct staged *e;

	for (g = open_groups; g; g = g->next)
		for (e = g->head; e; e = e->next)
			staged_remove(e);
}

struct atomic_group *
atomic_group_new(void)
{
	struct atomic_group *g = xcalloc(1, sizeof(*g));

	if (!registered) {
		atexit(atexit_cleanup);
		registered = 1;
	}
	g->next = open_groups;
	open_groups = g;
	return g;
}

/* Link a filled-in entry: from now on the exit handler removes its tmp. */
static void
staged_add(struct atomic_group *g, struct staged *e)
{
	e->next = g->head;
	if (g->head != NULL)
		g->head->prev = e;
	else
		g->tail = e;
	g->head = e;
}

/*
 * path as the group compares it: without "." components, repeated or
 * trailing slashes ("./a//b/" is "a/b"); malloc'd.
 */
static char *
canon(const char *path)
{
	char *out = xmalloc(strlen(path) + 2), *o = out;
	const char *p = path;

	if (*p == '/')
		*o++ = *p++;
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (o == out)
		*o++ = '.';
	*o = '\0';
	return out;
}

static struct staged *
staged_new(enum staged_kind kind, const char *path, mode_t mode)
{
	struct staged *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	e->path = canon(path);
	e->mode = mode;
	return e;
}

static void
staged_free(struct staged *e)
{
	free(e->path);
	free(e->tmp);
	free(e->old);
	free(e->dir);
	free(e);
}

/*
 * The staged directory path lies beneath, and the rest of path after it
 * ("/x/y"); NULL when none does.
 */
static const struct staged *
staged_parent(const struct atomic_group *g, const char *path,
    const char **rest)
{
	const struct staged *e;
	size_t n;

	for (e = g->dirs; e; e = e->next_dir) {
		n = strlen(e->path);
		if (strncmp(path, e->path, n) == 0 && path[n] == '/') {
			*rest = path + n;
			return e;
		}
	}
	return NULL;
}

/* "DIR/.NAME.XXXXXX" beside path, for mkstemp or mkdtemp. */
static char *
temp_template(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xasprintf(".%s.XXXXXX", path);
	return xasprintf("%.*s.%s.XXXXXX", (int)(slash - path + 1), path,
	    slash + 1);
}

/* Stage the absent directory path (its parent exists) as a temporary one. */
static const struct staged *
stage_dir(struct atomic_group *g, const char *path, mode_t mode)
{
	struct staged *e = staged_new(ST_DIR, path, mode);

	e->tmp = temp_template(e->path);
	e->dir = path_dirname(e->path);
	if (mkdtemp(e->tmp) == NULL) {
		int err = errno;

		staged_free(e);
		errno = err;
		return NULL;
	}
	staged_add(g, e);
	e->next_dir = g->dirs;
	g->dirs = e;
	return e;
}

/*
 * Make one directory of a staged tree (full: where it is made, path: its
 * final name), unless it is there already.
 */
static int
mkdir_staged(struct atomic_group *g, const char *full, const char *path,
    mode_t mode)
{
	struct staged *e;
	struct stat st;

	if (stat(full, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		errno = ENOTDIR;
		return -1;
	}
	if (mkdir(full, mode) < 0)
		return -1;
	e = staged_new(ST_SUBDIR, path, mode);
	e->tmp = xstrdup(full);
	staged_add(g, e);
	return 0;
}

/* Make the directories of rest ("/a/b") inside the staged directory top. */
static int
mkdir_inner(struct atomic_group *g, const struct staged *top, const char *rest,
    mode_t mode)
{
	size_t base = strlen(top->tmp), i;
	char *full = xasprintf("%s%s", top->tmp, rest);
	char *path = xasprintf("%s%s", top->path, rest);
	int rc = 0;

	for (i = 1; rc == 0 && rest[i - 1] != '\0'; i++) {
		if (rest[i] != '/' && rest[i] != '\0')
			continue;
		full[base + i] = path[strlen(top->path) + i] = '\0';
		rc = mkdir_staged(g, full, path, mode);
		full[base + i] = path[strlen(top->path) + i] = rest[i];
	}
	free(full);
	free(path);
	return rc;
}

int
atomic_group_mkdir(struct atomic_group *g, const char *path, mode_t mode)
{
	struct staged *want = staged_new(ST_DIR, path, mode);
	const struct staged *top;
	const char *rest;
	char *p = want->path;
	struct stat st;
	size_t i;
	int rc = 0;

	if ((top = staged_parent(g, p, &rest)) != NULL) {
		rc = mkdir_inner(g, top, rest, mode);
		staged_free(want);
		return rc;
	}
	/* The first component that is absent is staged; the rest inside it. */
	for (i = 1; rc == 0 && p[i - 1] != '\0'; i++) {
		char save = p[i];

		if (save != '/' && save != '\0')
			continue;
		p[i] = '\0';
		if (stat(p, &st) < 0) {
			top = errno == ENOENT ? stage_dir(g, p, mode) : NULL;
			p[i] = save;
			if (top == NULL)
				rc = -1;
			else if (save != '\0')
				rc = mkdir_inner(g, top, p + i, mode);
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			rc = -1;
		}
		p[i] = save;
	}
	staged_free(want);
	return rc;
}

/* The descriptor to write path through, and the entry recording it. */
static int
group_create(struct atomic_group *g, const char *path, mode_t mode,
    struct staged **ep)
{
	struct staged *e = staged_new(ST_FILE, path, mode);
	const struct staged *top;
	const char *rest;
	struct stat st;
	int fd;

	if ((top = staged_parent(g, e->path, &rest)) != NULL) {
		e->kind = ST_INNER;
		e->tmp = xasprintf("%s%s", top->tmp, rest);
		fd = open(e->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	} else if (stat(e->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO is written in place, never replaced. */
		e->kind = ST_DIRECT;
		fd = -1;
		errno = EISDIR;
		if (!S_ISDIR(st.st_mode))
			fd = open(e->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	} else {
		e->tmp = temp_template(e->path);
		e->old = xasprintf("%s.old", e->tmp);
		e->dir = path_dirname(e->path);
		fd = mkstemp(e->tmp);
		if (fd >= 0)	/* the same random part */
			memcpy(e->old, e->tmp, strlen(e->tmp));
	}
	if (fd < 0) {
		int err = errno;

		staged_free(e);
		errno = err;
		return -1;
	}
	staged_add(g, e);
	*ep = e;
	return fd;
}

FILE *
atomic_group_open(struct atomic_group *g, const char *path, mode_t mode)
{
	struct staged *e;
	int fd, err;

	if ((fd = group_create(g, path, mode, &e)) < 0)
		return NULL;
	if ((e->fp = fdopen(fd, "w")) != NULL)
		return e->fp;
	err = errno;
	close(fd);
	staged_remove(e);
	g->head = e->next;
	if (g->head != NULL)
		g->head->prev = NULL;
	else
		g->tail = NULL;
	staged_free(e);
	errno = err;
	return NULL;
}

/* Flush, sync and close one staged file; 0 or -1 with errno. */
static int
staged_close(struct staged *e, mode_t mask)
{
	FILE *fp = e->fp;
	int err;

	e->fp = NULL;
	errno = 0;
	if (fflush(fp) == EOF || ferror(fp) ||
	    (e->kind == ST_FILE && fchmod(fileno(fp), e->mode & ~mask) < 0) ||
	    (e->kind != ST_DIRECT && fsync(fileno(fp)) < 0)) {
		err = errno ? errno : EIO;
		fclose(fp);
		errno = err;
		return -1;
	}
	return fclose(fp) == EOF ? -1 : 0;
}

/*
 * Every file of the group on disk and closed, in the order they were
 * opened, every staged directory with its final mode and synced; *bad: the
 * entry that failed.
 */
static int
group_sync(struct atomic_group *g, struct staged **bad)
{
	mode_t mask = process_umask();
	struct staged *e;

	for (e = g->tail; e; e = e->prev) {
		*bad = e;
		if (e->fp != NULL && staged_close(e, mask) < 0)
			return -1;
		if (e->kind == ST_DIR && chmod(e->tmp, e->mode & ~mask) < 0)
			return -1;
		if (e->kind == ST_DIR || e->kind == ST_SUBDIR)
			sync_dir(open(e->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	}
	return 0;
}

/* Rename e into place, its previous file (if any) moved aside to e->old. */
static int
publish(struct staged *e)
{
	if (e->kind == ST_FILE) {
		if (rename(e->path, e->old) == 0)
			e->moved = 1;
		else if (errno != ENOENT)
			return -1;
	}
	if (rename(e->tmp, e->path) < 0)
		return -1;
	e->published = 1;
	return 0;
}

/*
 * Undo publish: the new file back at its temporary (or replaced by the
 * previous one), the previous one back at path.  A rename that fails here
 * is said on stderr with where the previous file is.
 */
static void
unpublish(struct staged *e)
{
	if (e->published && !e->moved && rename(e->path, e->tmp) < 0)
		warn("%s: cannot remove the new file: %s", e->path,
		    strerror(errno));
	e->published = 0;
	if (e->moved && rename(e->old, e->path) < 0) {
		warn("%s: cannot restore it: %s; the previous file is %s",
		    e->path, strerror(errno), e->old);
		free(e->old);	/* kept on disk */
		e->old = NULL;
	}
	e->moved = 0;
}

/* Unlink g from the open groups, then remove what it staged and free it. */
static void
group_release(struct atomic_group *g)
{
	struct atomic_group **pp;
	struct staged *e, *next;

	for (pp = &open_groups; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	for (e = g->head; e; e = next) {
		next = e->next;
		if (e->fp != NULL)
			fclose(e->fp);
		if (!e->published)
			staged_remove(e);
		if (e->moved)
			unlink(e->old);
		if (e->published && e->dir != NULL)
			sync_dir(open(e->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
		staged_free(e);
	}
	free(g);
}

/* SIGINT, SIGTERM and SIGHUP held back while the group is published. */
static void
hold_signals(sigset_t *saved)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, saved);
}

/*
 * The directories g renames into, each opened and locked (flock, in order
 * of name, so that two runs never wait on each other crosswise): a run
 * committing into a directory another run is committing into waits for
 * it, and their renames and undoing are never interleaved.  Returns the
 * descriptors (-1 for a directory that cannot be opened: its rename will
 * fail and say why), *n of them; unlock_dirs closes them.
 */
static int *
lock_dirs(const struct atomic_group *g, size_t *n)
{
	const struct staged *e;
	const char **dirs;
	size_t i, k = 0;
	int *fds;

	for (e = g->head; e; e = e->next)
		k += e->dir != NULL;
	dirs = xcalloc(k ? k : 1, sizeof *dirs);
	fds = xcalloc(k ? k : 1, sizeof *fds);
	k = 0;
	for (e = g->head; e; e = e->next)
		if (e->dir != NULL)
			dirs[k++] = e->dir;
	qsort(dirs, k, sizeof *dirs, ctx_cmp_strp);
	for (i = 0, *n = 0; i < k; i++) {
		if (i > 0 && !strcmp(dirs[i], dirs[i - 1]))
			continue;
		fds[*n] = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		while (fds[*n] >= 0 && flock(fds[*n], LOCK_EX) < 0 &&
		    errno == EINTR)
			;
		(*n)++;
	}
	free(dirs);
	return fds;
}

static void
unlock_dirs(int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

int
atomic_group_commit(struct atomic_group *g, char **failed)
{
	struct staged *e, *bad = NULL;
	sigset_t saved;
	size_t nlocks;
	int err = 0, *locks;

	hold_signals(&saved);
	if (group_sync(g, &bad) < 0)
		err = errno;
	locks = lock_dirs(g, &nlocks);
	for (e = g->head; err == 0 && e; e = e->next)
		if ((e->kind == ST_FILE || e->kind == ST_DIR) && publish(e) < 0) {
			/* a directory another run made since this one began */
			err = e->kind == ST_DIR && (errno == ENOTEMPTY ||
			    errno == EEXIST) ? EEXIST : errno;
			bad = e;
		}
	if (err != 0) {
		for (e = g->head; e; e = e->next)
			unpublish(e);
		*failed = bad->path;
		bad->path = NULL;
	}
	group_release(g);
	unlock_dirs(locks, nlocks);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	errno = err;
	return err ? -1 : 0;
}

void
atomic_group_abort(struct atomic_group *g)
{
	sigset_t saved;

	hold_signals(&saved);
	group_release(g);
	sigprocmask(SIG_SETMASK, &saved, NULL);
}
