/*
 * manifest.c - the archive's manifest: reading manifest.ndjson (for
 * --resume and the immutability check) and writing manifest.json, the form
 * spec 001 §2.1 names, from it.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "ctx.h"
#include "bfetch.h"

char *
bfetch_job_key(const char *site, const char *cond, const char *url)
{
	return xasprintf("%s\x1f%s\x1f%s", site, cond, url);
}

static void
grow(struct bfetch_manifest *m, size_t *cap)
{
	if (m->n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 64;
	m->recs = xreallocarray(m->recs, *cap, sizeof *m->recs);
	m->off = xreallocarray(m->off, *cap, sizeof *m->off);
	m->llen = xreallocarray(m->llen, *cap, sizeof *m->llen);
	m->prev = xreallocarray(m->prev, *cap, sizeof *m->prev);
}

/* One line: a record with site_id, condition and url strings, indexed. */
static int
add_line(struct bfetch_manifest *m, size_t *cap, size_t at, size_t ll,
    int last, char **err)
{
	json_error_t je;
	json_t *rec, *v;
	const char *site, *cond, *url;
	char *k;

	rec = json_loadb(m->text + at, ll, JSON_REJECT_DUPLICATES, &je);
	if (rec == NULL && last) {
		m->cut = 1;	/* a record cut by SIGKILL during its write */
		return 0;
	}
	if (rec == NULL || !json_is_object(rec)) {
		*err = xstrdup("expected a manifest record (a JSON object)");
		json_decref(rec);
		return -1;
	}
	site = json_string_value(json_object_get(rec, "site_id"));
	cond = json_string_value(json_object_get(rec, "condition"));
	url = json_string_value(json_object_get(rec, "url"));
	if (!site || !cond || !url) {
		*err = xstrdup("expected site_id, url and condition strings");
		json_decref(rec);
		return -1;
	}
	grow(m, cap);
	m->recs[m->n] = rec;
	m->off[m->n] = at;
	m->llen[m->n] = ll + (last ? 0 : 1);
	k = bfetch_job_key(site, cond, url);
	v = json_object_get(m->bykey, k);
	m->prev[m->n] = v ? (size_t)json_integer_value(v) : SIZE_MAX;
	if (json_object_set_new(m->bykey, k, json_integer((json_int_t)m->n)))
		die("out of memory");
	free(k);
	m->n++;
	return 0;
}

int
bfetch_manifest_parse(struct bfetch_manifest *m, char *text, size_t len,
    unsigned long *line, char **err)
{
	size_t i = 0, cap = 0;

	memset(m, 0, sizeof *m);
	m->text = text;
	m->len = len;
	m->bykey = json_object();
	if (m->bykey == NULL)
		die("out of memory");
	*line = 0;
	*err = NULL;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (text + i)) : len - i;

		++*line;
		if (add_line(m, &cap, i, ll, nl == NULL, err) < 0)
			return -1;
		if (m->cut)
			break;
		i += ll + (nl ? 1 : 0);
	}
	return 0;
}

void
bfetch_manifest_load(struct bfetch_manifest *m, const char *path)
{
	size_t len;
	char *text = read_file(path, &len, 0), *err;
	unsigned long line;

	if (text == NULL) {
		if (errno != ENOENT)
			die_errno("%s", path);
		text = xstrdup("");
		len = 0;
	}
	if (bfetch_manifest_parse(m, text, len, &line, &err) < 0)
		die("%s:%lu: %s", path, line, err);
}

void
bfetch_manifest_free(struct bfetch_manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		json_decref(m->recs[i]);
	free(m->recs);
	free(m->off);
	free(m->llen);
	free(m->prev);
	free(m->text);
	json_decref(m->bykey);
	memset(m, 0, sizeof *m);
}

long
bfetch_manifest_find(const struct bfetch_manifest *m, const char *key)
{
	json_t *v = json_object_get(m->bykey, key);

	return v ? (long)json_integer_value(v) : -1;
}

/*
 * manifest.json: the records of manifest.ndjson, in its order, as one JSON
 * array with a record per line, written atomically.  The lines are copied,
 * not re-encoded (bfetch wrote them; a resume checked them), so the file
 * is built in one pass at any size.  A line cut by a kill is left out.
 */
int
bfetch_manifest_json(const char *archive)
{
	char *src = path_join(archive, "manifest.ndjson");
	char *dst = path_join(archive, "manifest.json");
	FILE *in = fopen(src, "r");
	struct atomic_file *af;
	FILE *out;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int first = 1, ret = -1;

	if (in == NULL && errno != ENOENT)
		die_errno("%s", src);
	if ((af = atomic_open(dst, 0644)) == NULL)
		die_errno("%s", dst);
	out = atomic_fp(af);
	fputs("[", out);
	for (n = 0; in; ) {
		errno = 0;
		if ((n = getline(&line, &cap, in)) <= 0 || line[n - 1] != '\n')
			break;	/* the end, or a line cut by a kill */
		fputs(first ? "\n" : ",\n", out);
		fwrite(line, 1, (size_t)n - 1, out);
		first = 0;
	}
	/* getline's failed allocation is no end of file */
	if (in && (ferror(in) || (n < 0 && errno == ENOMEM)))
		die_errno("%s", src);
	fputs(first ? "]\n" : "\n]\n", out);
	if (atomic_commit(af) < 0)
		die_errno("%s", dst);
	ret = 0;
	if (in)
		fclose(in);
	free(line);
	free(src);
	free(dst);
	return ret;
}
