/*
 * sheet.c - the sheet reader (see sheet.h): CSV through common/csv.c and
 * NDJSON through common/ndjson.c, both without dying, rows keyed by the
 * canonical column names of the rubric.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sheet.h"

static int
blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return 0;
	return 1;
}

static json_t *
read_csv(FILE *fp, const char *name, const struct bsm_rubric *r, json_t **columns,
    struct bsm_problems *p)
{
	struct csv_reader cr;
	json_t *rows = json_array(), *cols = json_array();
	char **hdr = NULL;
	size_t nh = 0, i;
	long n;

	csv_init(&cr, fp, name);
	n = csv_read(&cr);
	if (n < 0) {
		bsm_problem(p, "%s:%lu: %s", name, cr.rec_line, cr.err);
		goto out;
	}
	if (n == 0) {
		bsm_problem(p, "%s: empty sheet (no header row)", name);
		goto out;
	}
	nh = (size_t)n;
	hdr = xcalloc(nh, sizeof *hdr);
	for (i = 0; i < nh; i++) {
		size_t j;
		hdr[i] = bsm_canon_column(r, cr.fields[i]);
		if (!*hdr[i])
			continue;	/* an unnamed column: ignored */
		for (j = 0; j < i; j++)
			if (!strcmp(hdr[i], hdr[j])) {
				bsm_problem(p, "%s:%lu: column \"%s\" appears twice (columns %zu and %zu)",
				    name, cr.rec_line, hdr[i], j + 1, i + 1);
				break;
			}
		json_array_append_new(cols, json_string(hdr[i]));
	}
	for (;;) {
		json_t *row;
		int empty = 1;
		n = csv_read(&cr);
		if (n == 0)
			break;
		if (n < 0) {
			bsm_problem(p, "%s:%lu: %s", name, cr.rec_line, cr.err);
			break;
		}
		for (i = 0; i < (size_t)n; i++)
			if (!blank(cr.fields[i]))
				empty = 0;
		if (empty)
			continue;
		if ((size_t)n > nh) {
			int extra = 0;
			for (i = nh; i < (size_t)n; i++)
				if (!blank(cr.fields[i]))
					extra = 1;
			if (extra) {
				bsm_problem(p, "%s:%lu: row has %ld cells but the header has %zu",
				    name, cr.rec_line, n, nh);
				continue;
			}
		}
		row = json_object();
		for (i = 0; i < nh; i++) {
			if (!*hdr[i])
				continue;
			json_object_set_new(row, hdr[i],
			    json_string(i < (size_t)n ? cr.fields[i] : ""));
		}
		json_object_set_new(row, "_line", json_integer((json_int_t)cr.rec_line));
		json_array_append_new(rows, row);
	}
out:
	for (i = 0; i < nh; i++)
		free(hdr[i]);
	free(hdr);
	csv_close(&cr);
	if (columns)
		*columns = cols;
	else
		json_decref(cols);
	return rows;
}

static json_t *
read_ndjson(FILE *fp, const char *name, const struct bsm_rubric *r, json_t **columns,
    struct bsm_problems *p)
{
	struct ndj_reader nr;
	json_t *rows = json_array(), *cols = json_array(), *rec;
	char *err;

	ndj_reader_init(&nr, fp, name);
	for (;;) {
		const char *key;
		json_t *v, *row;
		rec = ndj_next_err(&nr, &err);
		if (!rec) {
			if (err) {
				bsm_problem(p, "%s:%lu: %s", name, nr.line, err);
				free(err);
			}
			break;
		}
		row = json_object();
		json_object_foreach(rec, key, v) {
			char *c = bsm_canon_column(r, key);
			size_t i;
			json_t *cv;
			int seen = 0;
			if (json_object_get(row, c)) {
				bsm_problem(p, "%s:%lu: field \"%s\" given twice", name, nr.line, c);
				free(c);
				continue;
			}
			json_object_set(row, c, v);
			json_array_foreach(cols, i, cv)
				if (!strcmp(json_string_value(cv), c))
					seen = 1;
			if (!seen)
				json_array_append_new(cols, json_string(c));
			free(c);
		}
		json_object_set_new(row, "_line", json_integer((json_int_t)nr.line));
		json_array_append_new(rows, row);
		json_decref(rec);
	}
	ndj_reader_close(&nr);
	if (columns)
		*columns = cols;
	else
		json_decref(cols);
	return rows;
}

json_t *
bsm_sheet_read(FILE *fp, const char *name, const struct bsm_rubric *r, json_t **columns,
    struct bsm_problems *p)
{
	struct buf b = BUF_INIT;
	char tmp[8192];
	size_t n, len = strlen(name), i;
	int nd;
	FILE *m;
	json_t *rows;

	while ((n = fread(tmp, 1, sizeof tmp, fp)) > 0)
		buf_add(&b, tmp, n);
	if (ferror(fp))
		bsm_problem(p, "%s: read error: %s", name, strerror(errno));
	if (len > 7 && !strcmp(name + len - 7, ".ndjson"))
		nd = 1;
	else if (len > 6 && !strcmp(name + len - 6, ".jsonl"))
		nd = 1;
	else if (len > 4 && !strcmp(name + len - 4, ".csv"))
		nd = 0;
	else {
		/* Guess from the first character after a BOM and white space. */
		i = (b.len >= 3 && !memcmp(b.s, "\xEF\xBB\xBF", 3)) ? 3 : 0;
		while (i < b.len && (b.s[i] == ' ' || b.s[i] == '\n' || b.s[i] == '\r'))
			i++;
		nd = i < b.len && b.s[i] == '{';
	}
	if (!b.len) {
		bsm_problem(p, "%s: empty sheet", name);
		buf_release(&b);
		if (columns)
			*columns = json_array();
		return json_array();
	}
	m = fmemopen(b.s, b.len, "r");
	if (!m) {
		bsm_problem(p, "%s: cannot read: %s", name, strerror(errno));
		buf_release(&b);
		if (columns)
			*columns = json_array();
		return json_array();
	}
	rows = nd ? read_ndjson(m, name, r, columns, p) : read_csv(m, name, r, columns, p);
	fclose(m);
	buf_release(&b);
	return rows;
}

json_t *
bsm_sheet_load(const char *path, const struct bsm_rubric *r, json_t **columns,
    struct bsm_problems *p)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	json_t *rows;

	if (!fp) {
		bsm_problem(p, "%s: cannot open: %s", path, strerror(errno));
		if (columns)
			*columns = json_array();
		return json_array();
	}
	rows = bsm_sheet_read(fp, path, r, columns, p);
	if (fp != stdin)
		fclose(fp);
	return rows;
}
