/*
 * archive.c - an archived page read back safely (see archive.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "fsutil.h"
#include "jsonx.h"
#include "ndjson.h"
#include "sha256.h"

char *
archive_read(const char *dir, const json_t *rec, size_t *len, size_t cap)
{
	const char *ap = rec_str_opt(rec, "archive_path");
	const char *want = rec_str_opt(rec, "content_sha256");
	char got[SHA256_HEX_LEN + 1];
	char *data;

	if (ap == NULL)
		ndj_die("archive_path: expected a string for a successful fetch");
	data = read_file_beneath(dir, ap, len, cap);
	if (data == NULL) {
		if (errno == EXDEV)
			ndj_die("archive_path: \"%s\" leads out of the archive %s "
			    "(through a symbolic link); not read", ap, dir);
		if (errno == ELOOP)
			ndj_die("archive_path: \"%s\" in %s is a symbolic link; "
			    "not followed", ap, dir);
		if (errno == EFBIG)
			ndj_die("archive_path: %s/%s: larger than %zu bytes", dir,
			    ap, cap);
		ndj_die("archive_path: %s/%s: %s", dir, ap, strerror(errno));
	}
	if (want != NULL) {
		sha256_hex(data, *len, got);
		if (strcasecmp(want, got) != 0) {
			free(data);
			ndj_die("content_sha256: %s/%s has SHA-256 %s, the record "
			    "says %s (the archive changed since the fetch)", dir, ap,
			    got, want);
		}
	}
	return data;
}
