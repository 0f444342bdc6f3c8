/*
 * atomic.c - write-to-temporary-then-rename files (see atomic.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "err.h"
#include "fsutil.h"

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
