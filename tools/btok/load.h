/*
 * load.h - tokenizer files, the manifest and the compiled cache (load.c).
 */
#ifndef BTOK_LOAD_H
#define BTOK_LOAD_H

#include <limits.h>
#include "btok.h"

struct btok_paths {
	const char *sharedir;	/* share/btok */
	const char *tokdir;	/* where make deps put the tokenizer files */
	const char *cachedir;	/* compiled images */
	int use_cache;
};

struct btok_manifest_entry {
	char file[PATH_MAX];	/* relative to tokdir */
	unsigned char sha[32];
	char sha_hex[65];
	char package[256];
};

/* Find family in the manifest at path; 0, or -1 when absent.  Dies on a
   malformed manifest (with its line). */
int btok_manifest_find(const char *path, const char *family,
    struct btok_manifest_entry *e);

/*
 * Load tokenizer name from file into t: from the compiled cache when a valid
 * image exists, else by compiling the file (whose SHA-256 must equal
 * want_sha when given) and writing the image.  Dies with a message on any
 * failure.
 */
void btok_load(struct btok *t, const char *name, const char *file,
    const unsigned char *want_sha, const struct btok_paths *p);
void btok_unload(struct btok *t);

#endif
