/*
 * lock.c - the archive shared by several bfetch processes (sharded by site,
 * bfetch(1) and ctxbench-scale(7)).  Two kinds of flock(2) locks, both
 * released by the kernel when the process ends, however it ends:
 *
 *   ARCHIVE/.lock        held briefly: while a run matches its jobs against
 *                        the manifest and claims its sites, while it appends
 *                        one record to manifest.ndjson, while manifest.json
 *                        is written from it.  Waited for.
 *   ARCHIVE/.locks/SITE  held for the whole run by the run that fetches the
 *                        site's jobs.  Never waited for: a second run over
 *                        the same site is refused at once.
 *
 * So disjoint site shards run side by side, while two runs of the same jobs
 * cannot both fetch them: the second is refused because the site is in use
 * or, once the first has ended, because the manifest records its jobs.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ctx.h"
#include "bfetch.h"

static int
lock_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die_errno("%s", path);
	return fd;
}

int
bfetch_lock_archive(const char *archive)
{
	char *path = path_join(archive, ".lock");
	int fd = lock_open(path);

	free(path);
	return fd;
}

void
bfetch_lock(int fd, const char *archive)
{
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			die_errno("%s: lock", archive);
}

void
bfetch_unlock(int fd)
{
	flock(fd, LOCK_UN);
}

int *
bfetch_claim_sites(const char *archive, const struct bfetch_job *jobs,
    size_t njobs, size_t *nfd)
{
	char *dir = path_join(archive, ".locks");
	json_t *seen = json_object();
	int *fds = xcalloc(njobs ? njobs : 1, sizeof *fds);
	size_t i;

	*nfd = 0;
	if (mkdir_p(dir, 0755) < 0)
		die_errno("%s", dir);
	for (i = 0; i < njobs; i++) {
		const char *site = jobs[i].site_id;
		char *path;
		int fd;

		if (json_object_get(seen, site))
			continue;
		json_object_set_new(seen, site, json_true());
		path = path_join(dir, site);
		fd = lock_open(path);
		free(path);
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EWOULDBLOCK)
				die("%s: site %s is being fetched by another "
				    "bfetch process; shard by site or wait for it",
				    archive, site);
			die_errno("%s: lock on site %s", archive, site);
		}
		fds[(*nfd)++] = fd;
	}
	json_decref(seen);
	free(dir);
	return fds;
}
