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
	char name[64];		/* -t name, key of tokens{} */
	char file[PATH_MAX];	/* relative to tokdir */
	unsigned char sha[32];
	char sha_hex[65];
	char package[256];
	char models[512];	/* the models it serves, for --list */
	unsigned long vocab;	/* number of token ids */
};

/*
 * Read the manifest at path (share/btok/manifest, format in its header) into
 * a malloc'd array *out; returns its length.  Dies naming the line of a
 * malformed entry.
 */
size_t btok_manifest_load(const char *path, struct btok_manifest_entry **out);

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
