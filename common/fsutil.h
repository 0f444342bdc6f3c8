/*
 * fsutil.h - small file-system helpers.
 */
#ifndef CTX_FSUTIL_H
#define CTX_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p: create path and its parents with mode; 0 or -1 with errno. */
int mkdir_p(const char *path, mode_t mode);
/* Create the parent directories of a file path. */
int mkdir_parents(const char *filepath, mode_t mode);

/*
 * Read a whole file ("-": stdin) into a malloc'd NUL-terminated buffer.
 * Fails (NULL, errno EFBIG) when it is larger than cap bytes (0: no cap).
 */
char *read_file(const char *path, size_t *len, size_t cap);

/*
 * Read the file at the relative path rel beneath the directory dir, as
 * read_file does, never leaving dir: "..", absolute paths and symbolic
 * links that lead out of dir fail with errno EXDEV (where the kernel has
 * no openat2, every symbolic link fails, with ELOOP).  A symbolic link
 * that stays inside dir is followed.
 */
char *read_file_beneath(const char *dir, const char *rel, size_t *len, size_t cap);

/* 1 when path exists as a regular file. */
int file_exists(const char *path);
/* Join dir and name with one '/'; malloc'd. */
char *path_join(const char *dir, const char *name);
/* The directory part of path ("." when none); malloc'd. */
char *path_dirname(const char *path);

#endif
