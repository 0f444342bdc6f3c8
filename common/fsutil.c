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
 * Read all of fd (closed here) as read_file does: a regular file in reads
 * to the size it has (no read more to find its end: a file is read as it
 * is when opened), anything else to the end of its input.
 */
static char *
read_fd(int fd, size_t *len, size_t cap)
{
	struct buf b = BUF_INIT;
	struct stat st;
	size_t size = 0, room;
	ssize_t n;
	int e = 0;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		size = (size_t)st.st_size;
	if (cap && size > cap)
		e = EFBIG;
	else
		buf_grow(&b, size ? size : 65536);
	while (e == 0 && (size == 0 || b.len < size)) {
		if (size == 0 && b.cap - b.len - 1 < 65536)
			buf_grow(&b, 65536);
		room = size ? size - b.len : b.cap - b.len - 1;
		if ((n = read(fd, b.s + b.len, room)) == 0)
			break;
		if (n < 0 && errno != EINTR)
			e = errno;
		else if (n > 0 && cap && b.len + (size_t)n > cap)
			e = EFBIG;
		else if (n > 0)
			b.len += (size_t)n;
	}
	close(fd);
	if (e) {
		buf_release(&b);
		errno = e;
		return NULL;
	}
	b.s[b.len] = '\0';
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

/* Read all of stdin, a stream stdio may have read from already. */
static char *
read_stdin(size_t *len, size_t cap)
{
	struct buf b = BUF_INIT;
	char tmp[65536];
	size_t n;
	int e;

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

char *
read_file(const char *path, size_t *len, size_t cap)
{
	int fd;

	if (strcmp(path, "-") == 0)
		return read_stdin(len, cap);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	return read_fd(fd, len, cap);
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
