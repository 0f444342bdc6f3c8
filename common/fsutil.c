/*
 * fsutil.c - mkdir -p, whole-file reads and path helpers (see fsutil.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "buf.h"
#include "err.h"
#include "fsutil.h"

int
mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int rc = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		{
			char save = *s;

			*s = '\0';
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			*s = save;
			if (save == '\0')
				break;
		}
	}
	if (rc == 0 && (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))) {
		if (errno == 0 || rc == 0)
			errno = ENOTDIR;
		rc = -1;
	}
	free(p);
	return rc;
}

int
mkdir_parents(const char *filepath, mode_t mode)
{
	char *dir = path_dirname(filepath);
	int rc = 0;

	if (strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0)
		rc = mkdir_p(dir, mode);
	free(dir);
	return rc;
}

/*
 * Read fd to its end into b, straight into b's memory: a regular file's
 * size sizes b once (no copy through a small buffer, no regrowth).
 * 0, or -1 with errno (EFBIG past cap bytes, cap 0: no cap).
 */
static int
read_all(int fd, struct buf *b, size_t cap)
{
	struct stat st;
	size_t want = 65536;
	ssize_t n;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		want = cap && (size_t)st.st_size > cap ? cap + 1 :
		    (size_t)st.st_size + 1;
	buf_grow(b, want);
	for (;;) {
		if (b->cap - b->len - 1 == 0)
			buf_grow(b, 65536);
		n = read(fd, b->s + b->len, b->cap - b->len - 1);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (cap && b->len + (size_t)n > cap) {
			errno = EFBIG;
			return -1;
		}
		b->len += (size_t)n;
		b->s[b->len] = '\0';
	}
}

/* Read all of fd (closed here) as read_file does. */
static char *
read_fd(int fd, size_t *len, size_t cap)
{
	struct buf b = BUF_INIT;
	int e;

	if (read_all(fd, &b, cap) != 0) {
		e = errno;
		close(fd);
		buf_release(&b);
		errno = e;
		return NULL;
	}
	close(fd);
	return buf_detach(&b, len);
}

/* Without openat2: walk rel one name at a time, following no link. */
static int
open_nofollow(int dirfd, const char *rel)
{
	char *p = xstrdup(rel), *s = p, *e;
	int fd = dup(dirfd), next, err;

	while (fd >= 0 && (e = strchr(s, '/')) != NULL) {
		*e = '\0';
		next = *s ? openat(fd, s, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC) : dup(fd);
		err = errno;
		close(fd);
		fd = next;
		errno = err;
		s = e + 1;
	}
	if (fd >= 0) {
		next = openat(fd, s, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		err = errno;
		close(fd);
		fd = next;
		errno = err;
	}
	free(p);
	return fd;
}

char *
read_file_beneath(const char *dir, const char *rel, size_t *len, size_t cap)
{
	struct open_how how;
	int dfd, fd, e;

	if (*rel == '/') {
		errno = EXDEV;
		return NULL;
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return NULL;
	memset(&how, 0, sizeof how);
	how.flags = O_RDONLY | O_CLOEXEC;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	fd = (int)syscall(SYS_openat2, dfd, rel, &how, sizeof how);
	if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
		/* no openat2 (old kernel, seccomp): refuse every link */
		if (strstr(rel, "..") != NULL && (strcmp(rel, "..") == 0 ||
		    strncmp(rel, "../", 3) == 0 || strstr(rel, "/../") != NULL ||
		    (strlen(rel) > 2 && strcmp(rel + strlen(rel) - 3, "/..") == 0))) {
			errno = EXDEV;
			fd = -1;
		} else {
			fd = open_nofollow(dfd, rel);
		}
	}
	e = errno;
	close(dfd);
	if (fd < 0) {
		errno = e;
		return NULL;
	}
	return read_fd(fd, len, cap);
}

char *
read_file(const char *path, size_t *len, size_t cap)
{
	struct buf b = BUF_INIT;
	char tmp[65536];
	size_t n;
	int fd, e;

	if (strcmp(path, "-") != 0) {
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return NULL;
		return read_fd(fd, len, cap);
	}
	/* stdin through stdio, which may hold some of it already */
	buf_grow(&b, 0);
	while ((n = fread(tmp, 1, sizeof(tmp), stdin)) > 0) {
		if (cap && b.len + n > cap) {
			buf_release(&b);
			errno = EFBIG;
			return NULL;
		}
		buf_add(&b, tmp, n);
	}
	if (ferror(stdin)) {
		e = errno;
		buf_release(&b);
		errno = e;
		return NULL;
	}
	return buf_detach(&b, len);
}

int
file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *
path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (n == 0)
		return xstrdup(name);
	if (dir[n - 1] == '/')
		return xasprintf("%s%s", dir, name);
	return xasprintf("%s/%s", dir, name);
}

char *
path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}
