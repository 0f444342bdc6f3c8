/*
 * archive.c - the on-disk archive of spec 001 §2.1: where each kind of page
 * goes (html/{site_id}/{url_hash}.html, markdown/{site_id}/{url_hash}.md,
 * llms/{site_id}/{url_hash}.txt) and how a file receives there: whole or not at
 * all, by writing a temporary beside it and renaming.  The temporary's name
 * carries the writer's process id, so a later run can tell the leftovers of
 * a killed process (SIGKILL runs no handler) from the files of a live shard.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "bfetch.h"

#define TMP_PREFIX ".bfetch-"
#define TMP_SUFFIX ".tmp"

const char *
bfetch_kind_dir(enum bfetch_kind k)
{
	return k == BK_HTML ? "html" : k == BK_MARKDOWN ? "markdown" : "llms";
}

const char *
bfetch_kind_ext(enum bfetch_kind k)
{
	return k == BK_HTML ? ".html" : k == BK_MARKDOWN ? ".md" : ".txt";
}

int
bfetch_condition_kind(const char *c)
{
	if (strcmp(c, "A") == 0)
		return BK_HTML;
	if (strcmp(c, "B") == 0)
		return BK_MARKDOWN;
	if (strcmp(c, "llms_txt") == 0 || strcmp(c, "llms_full_txt") == 0)
		return BK_LLMS;
	return -1;
}

int
bfetch_site_id_ok(const char *s)
{
	const char *p;

	if (*s == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 ||
	    strlen(s) > 128)
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-'))
			return 0;
	return 1;
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
bfetch_store(const char *archive, const char *rel, const void *body,
    size_t len, const char *sha_hex, int fsync_data)
{
	char *path = path_join(archive, rel), *dir, *tmp, have[SHA256_HEX_LEN + 1];
	const char *base;
	int fd, e;

	if (file_exists(path) && sha256_file(path, have) == 0 &&
	    strcmp(have, sha_hex) == 0) {
		free(path);
		return 0;	/* already archived, never rewritten */
	}
	dir = path_dirname(path);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	tmp = xasprintf("%s/" TMP_PREFIX "%ld-%s" TMP_SUFFIX, dir, (long)getpid(),
	    base);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) {
		/* the site's directory does not exist yet */
		if (mkdir_p(dir, 0755) < 0)
			goto fail;
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		goto fail;
	if (write_all(fd, body, len) < 0 || (fsync_data && fsync(fd) < 0)) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		goto fail;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		errno = e;
		goto fail;
	}
	free(tmp);
	free(dir);
	free(path);
	return 0;
fail:
	e = errno;
	free(tmp);
	free(dir);
	free(path);
	errno = e;
	return -1;
}

void
bfetch_clean_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		size_t nl = strlen(n);
		long long pid;
		char num[24];
		size_t i = strlen(TMP_PREFIX), k = 0;

		if (strncmp(n, TMP_PREFIX, i) != 0 || nl < strlen(TMP_SUFFIX) ||
		    strcmp(n + nl - strlen(TMP_SUFFIX), TMP_SUFFIX) != 0)
			continue;
		while (n[i] >= '0' && n[i] <= '9' && k < sizeof num - 1)
			num[k++] = n[i++];
		num[k] = '\0';
		if (n[i] != '-' || parse_int(num, &pid) < 0 || pid <= 0)
			continue;
		/*
		 * Only a dead writer's temporary is removed (kill 0: ESRCH);
		 * one named with our own pid is a leftover of a reused pid, as
		 * this runs before we write anything.
		 */
		if ((pid_t)pid == getpid() ||
		    (kill((pid_t)pid, 0) < 0 && errno == ESRCH)) {
			char *p = path_join(dir, n);

			unlink(p);
			free(p);
		}
	}
	closedir(d);
}
