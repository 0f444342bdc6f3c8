/*
 * archive.h - reading an archived page back (spec 001 §2.1: the archive
 * is never modified after the fetch), for the programs that read what
 * bfetch archived (bread, bmdprep).
 */
#ifndef CTX_ARCHIVE_H
#define CTX_ARCHIVE_H

#include <stddef.h>
#include <jansson.h>

/*
 * The file named by the manifest record rec's archive_path, beneath the
 * archive directory dir, read as read_file_beneath does (never leaving
 * dir: not through "..", an absolute path or a symbolic link that leads
 * out), at most cap bytes, and checked against rec's content_sha256 when
 * it has one.  Returns the malloc'd contents (NUL-terminated, *len bytes).
 * Every failure dies with ndj_die naming the field: a missing
 * archive_path, a path out of the archive, an unreadable or too large
 * file, a SHA-256 that differs from the record's.
 */
char *archive_read(const char *dir, const json_t *rec, size_t *len,
    size_t cap);

#endif
