/*
 * fsutil.c - mkdir -p, whole-file reads and path helpers (see fsutil.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

char *
read_file(const char *path, size_t *len, size_t cap)
{
	FILE *fp;
	struct buf b = BUF_INIT;
	char tmp[65536];
	size_t n;
	int e;

	fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (fp == NULL)
		return NULL;
	buf_grow(&b, 0);
	while ((n = fread(tmp, 1, sizeof(tmp), fp)) > 0) {
		if (cap && b.len + n > cap) {
			if (fp != stdin)
				fclose(fp);
			buf_release(&b);
			errno = EFBIG;
			return NULL;
		}
		buf_add(&b, tmp, n);
	}
	if (ferror(fp)) {
		e = errno;
		if (fp != stdin)
			fclose(fp);
		buf_release(&b);
		errno = e;
		return NULL;
	}
	if (fp != stdin)
		fclose(fp);
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
