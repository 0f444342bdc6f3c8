/*
 * blind.c - `bscore-merge blind`: responses to blinded, randomised scoring
 * sheets and the key that unblinds them (spec 000 §7.1, §7.2, §8, §10).
 *
 * Response ids are drawn from a seeded Mersenne Twister (GSL) in presentation
 * order, so they encode nothing about the response.  The presentation order
 * is a random sequence drawn under two constraints: two responses to the same
 * question are never adjacent (drawn with a feasibility check so the end of
 * the sequence never receives stuck), and no condition runs longer than two when
 * that can be avoided.  The draw sees conditions only through equality with
 * the previous one, and models not at all, so relabelling them leaves the
 * sheets byte for byte the same.  Sheets carry only what the rater needs
 * (question, gold answer, response, source references, hints); the key,
 * written 0600, holds the mapping, the seed and the inter-rater subsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "ctx.h"
#include "bsm.h"
#include "hints.h"
#include "key.h"
#include "page.h"
#include "sheet.h"

struct item {
	json_t *rec;		/* the response record (owned) */
	const char *file;
	unsigned long line;
	size_t q;		/* question index */
	size_t cond;		/* condition index */
	int excluded;
	char id[16];
	char *citation, *completeness;
	char src[16];
};

struct blind {
	const struct bsm_opts *o;
	const struct bsm_rubric *r;
	gsl_rng *rng;
	struct item *items;
	size_t n, cap;
	json_t *questions;	/* "site\x1fquestion" -> index */
	json_t *conds;		/* condition -> index */
	json_t *tuples;		/* tuple -> line */
	int adjacency_warned;
	struct atomic_group *out;	/* every output, committed together */
};

static size_t
index_of(json_t *map, const char *k)
{
	json_t *v = json_object_get(map, k);
	size_t n;

	if (v)
		return (size_t)json_integer_value(v);
	n = json_object_size(map);
	json_object_set_new(map, k, json_integer((json_int_t)n));
	return n;
}

static void
read_responses(struct blind *b, const char *path)
{
	struct ndj_reader nr;
	json_t *rec;

	ndj_reader_open(&nr, path);
	while ((rec = ndj_next(&nr)) != NULL) {
		struct item *it;
		char *qk, *tk;
		const char *site, *qid, *model, *cond;
		json_t *prev;

		if (!json_object_get(rec, "model_id") &&
		    !json_object_get(rec, "response_text"))
			ndj_die("no model_id or response_text: blind reads binfer's "
			    "responses (run binfer first)");
		site = rec_str(rec, "site_id");
		qid = rec_str(rec, "question_id");
		model = rec_str(rec, "model_id");
		cond = rec_str(rec, "condition");
		if (b->n == b->cap) {
			b->cap = b->cap ? b->cap * 2 : 64;
			b->items = xreallocarray(b->items, b->cap, sizeof *b->items);
		}
		it = &b->items[b->n];
		memset(it, 0, sizeof *it);
		it->rec = rec;
		it->file = nr.name;
		it->line = nr.line;
		it->excluded = bsm_is_excluded(rec);
		tk = xasprintf("%s\x1f%s\x1f%s\x1f%s", site, qid, model, cond);
		if ((prev = json_object_get(b->tuples, tk)))
			ndj_die("duplicate response for %s %s model %s condition %s (first at line %lld)",
			    site, qid, model, cond, (long long)json_integer_value(prev));
		json_object_set_new(b->tuples, tk, json_integer((json_int_t)nr.line));
		free(tk);
		if (!it->excluded) {
			const char *resp = rec_str(rec, "response_text");
			const char *q = rec_str(rec, "question_text");
			json_t *secs = json_object_get(rec, "source_sections");
			if (!json_is_string(json_object_get(rec, "gold_answer")))
				ndj_die("gold_answer: expected a string (join the gold answers with bctx assemble -g)");
			it->citation = bsm_citation_hint(q, resp, secs, NULL);
			it->completeness = bsm_completeness_hint(q, resp, secs, NULL);
		}
		qk = xasprintf("%s\x1f%s", site, qid);
		it->q = index_of(b->questions, qk);
		free(qk);
		it->cond = index_of(b->conds, cond);
		b->n++;
	}
	ndj_reader_close(&nr);
}

/*
 * Whether, after placing one item of condition c (making a run of newrun),
 * the r - 1 items left can still be ordered with no condition run above 2:
 * a condition x can fill at most two places per item of another condition,
 * plus two at the end, less what its current run already took.
 */
static int
runs_feasible(const size_t *ccnt, size_t nc, size_t r, size_t c, size_t newrun)
{
	size_t x, left = r - 1;

	if (newrun > 2)
		return 0;
	for (x = 0; x < nc; x++) {
		size_t cx = ccnt[x] - (x == c), others = left - cx;
		size_t cap = 2 * others + (x == c ? 2 - newrun : 2);
		if (cx > cap)
			return 0;
	}
	return 1;
}

/*
 * One greedy draw of an order of idx[0..m) into out (see the file comment);
 * returns the most relaxed constraint level it had to use (0: none).
 */
static int
draw_once(struct blind *b, const size_t *idx, size_t m, size_t *out, int warn_adj)
{
	size_t nq = json_object_size(b->questions) + 1;
	size_t *cnt = xcalloc(nq, sizeof *cnt);
	size_t *pool = xmalloc((m ? m : 1) * sizeof *pool);
	size_t *cand = xmalloc((m ? m : 1) * sizeof *cand);
	size_t nc = json_object_size(b->conds) + 1;
	size_t *ccnt = xcalloc(nc, sizeof *ccnt);
	size_t npool = m, i, k, pos;
	size_t pq = (size_t)-1, pc = (size_t)-1, run = 0;
	int worst = 0;

	for (i = 0; i < m; i++) {
		pool[i] = idx[i];
		cnt[b->items[idx[i]].q]++;
		ccnt[b->items[idx[i]].cond]++;
	}
	for (pos = 0; pos < m; pos++) {
		size_t r = npool, max1 = 0, max2 = 0, qm = (size_t)-1, ncand = 0, pick;
		int level;
		for (i = 0; i < nq; i++) {
			if (cnt[i] > max1) {
				max2 = max1;
				max1 = cnt[i];
				qm = i;
			} else if (cnt[i] > max2) {
				max2 = cnt[i];
			}
		}
		/* level 0: all constraints; 1: no condition runs; 2: adjacency only; 3: any. */
		for (level = 0; level < 4 && !ncand; level++) {
			for (k = 0; k < npool; k++) {
				const struct item *it = &b->items[pool[k]];
				size_t other = it->q == qm ? max2 : max1;
				if (level < 3 && it->q == pq)
					continue;
				if (level < 2 && (other > r / 2 || cnt[it->q] - 1 > (r - 1) / 2))
					continue;
				if (level < 1 && !runs_feasible(ccnt, nc, r, it->cond,
				    it->cond == pc ? run + 1 : 1))
					continue;
				cand[ncand++] = k;
			}
			if (ncand && level > worst)
				worst = level;
			if (ncand && level == 3 && warn_adj && !b->adjacency_warned) {
				warn("warning: too few questions to keep every pair of responses to one question apart");
				b->adjacency_warned = 1;
			}
		}
		pick = cand[gsl_rng_uniform_int(b->rng, ncand)];
		out[pos] = pool[pick];
		{
			const struct item *it = &b->items[pool[pick]];
			cnt[it->q]--;
			ccnt[it->cond]--;
			run = it->cond == pc ? run + 1 : 1;
			pc = it->cond;
			pq = it->q;
		}
		pool[pick] = pool[--npool];
	}
	free(cnt);
	free(ccnt);
	free(pool);
	free(cand);
	return worst;
}

/*
 * The greedy draw can corner itself into a condition run of three or, with
 * very few questions, an adjacent pair; such draws are discarded and drawn
 * again (up to 200 times, from the same seeded stream, so still reproducible).
 */
static void
draw_order(struct blind *b, size_t *idx, size_t m)
{
	size_t *out = xmalloc((m ? m : 1) * sizeof *out);
	int attempt;

	for (attempt = 0; attempt < 200; attempt++)
		if (draw_once(b, idx, m, out, 0) == 0)
			break;
	if (attempt == 200)
		draw_once(b, idx, m, out, 1);
	memcpy(idx, out, m * sizeof *idx);
	free(out);
}

static void
new_id(struct blind *b, json_t *used, char *out, size_t n, const char *prefix)
{
	do {
		snprintf(out, n, "%s%08lX", prefix, gsl_rng_get(b->rng) & 0xFFFFFFFFUL);
	} while (json_object_get(used, out));
	json_object_set_new(used, out, json_true());
}

/* Random subset of round(frac * m) of idx (at least one when frac > 0). */
static size_t
draw_subset(struct blind *b, const size_t *idx, size_t m, double frac, size_t *out)
{
	size_t k, i, *tmp;

	if (frac <= 0 || !m)
		return 0;
	k = (size_t)floor(frac * (double)m + 0.5);
	if (k < 1)
		k = 1;
	if (k > m)
		k = m;
	tmp = xmalloc(m * sizeof *tmp);
	memcpy(tmp, idx, m * sizeof *tmp);
	for (i = 0; i < k; i++) {
		size_t j = i + gsl_rng_uniform_int(b->rng, m - i), t = tmp[i];
		tmp[i] = tmp[j];
		tmp[j] = t;
	}
	memcpy(out, tmp, k * sizeof *out);
	free(tmp);
	return k;
}

/* ------------------------------------------------------------ sheets */

struct sheet_spec {
	char *name;		/* file name inside the sheet dir */
	json_t *fields;		/* rubric field names (no records) */
	int hint_citation, hint_completeness, hint_source;
};

static void
add_unique(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (!strcmp(json_string_value(v), s))
			return;
	json_array_append_new(arr, json_string(s));
}

static void
spec_hints(struct sheet_spec *s, json_t *hints)
{
	size_t i;
	json_t *h;

	json_array_foreach(hints, i, h) {
		const char *t = json_string_value(h);
		if (!t)
			continue;
		if (!strcmp(t, "citation"))
			s->hint_citation = 1;
		else if (!strcmp(t, "completeness"))
			s->hint_completeness = 1;
		else if (!strcmp(t, "source"))
			s->hint_source = 1;
	}
}

/* The sheets to write: one per pass with --passes, else one with every field. */
static struct sheet_spec *
sheet_specs(const struct bsm_rubric *r, int passes, size_t *n)
{
	json_t *ps = json_object_get(r->def, "passes"), *p, *f;
	size_t np = json_array_size(ps), i, j;
	struct sheet_spec *v;

	if (passes && np) {
		v = xcalloc(np, sizeof *v);
		json_array_foreach(ps, i, p) {
			v[i].name = xasprintf("sheet-%zu-%s.csv", i + 1,
			    json_string_value(json_object_get(p, "name")));
			v[i].fields = json_array();
			json_array_foreach(json_object_get(p, "fields"), j, f)
				add_unique(v[i].fields, json_string_value(f));
			spec_hints(&v[i], json_object_get(p, "hints"));
		}
		*n = np;
		return v;
	}
	v = xcalloc(1, sizeof *v);
	v->name = xstrdup("sheet.csv");
	v->fields = json_array();
	json_array_foreach(ps, i, p) {
		json_array_foreach(json_object_get(p, "fields"), j, f)
			add_unique(v->fields, json_string_value(f));
		spec_hints(v, json_object_get(p, "hints"));
	}
	for (i = 0; i < r->nfields; i++)
		add_unique(v->fields, r->fields[i].name);
	/* Notes last: they explain every score of the row. */
	for (i = 0; i < r->nfields; i++)
		if (r->fields[i].concat) {
			for (j = 0; j < json_array_size(v->fields); j++)
				if (!strcmp(json_string_value(json_array_get(v->fields, j)),
				    r->fields[i].name)) {
					json_array_remove(v->fields, j);
					break;
				}
			json_array_append_new(v->fields, json_string(r->fields[i].name));
		}
	*n = 1;
	return v;
}

static int
nonempty(const json_t *row, const char *key)
{
	const char *s = json_get_str(row, key);

	return s && *s;
}

static int
has_column(const json_t *cols, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(cols, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), name))
			return 1;
	return 0;
}

/*
 * The line of the first row a rater has filled in the sheet at path, or 0:
 * a row of a records sheet (blind writes only their header), or a scoring
 * date or a value in a field blind never fills (only text inputs are).
 */
static unsigned long
filled_line(const struct blind *b, const char *path)
{
	struct bsm_problems p = { NULL, 0, 0 };
	json_t *cols, *rows = bsm_sheet_load(path, b->r, &cols, &p), *row;
	unsigned long line = 0;
	int records = !has_column(cols, "row");
	size_t i, j;

	json_array_foreach(rows, i, row) {
		int filled = records || nonempty(row, "scoring_date");
		for (j = 0; !filled && j < b->r->nfields; j++) {
			const struct bsm_field *fd = &b->r->fields[j];
			filled = fd->type != BT_TEXT && fd->type != BT_LIST &&
			    nonempty(row, fd->name);
		}
		if (filled) {
			line = (unsigned long)json_integer_value(json_object_get(row, "_line"));
			break;
		}
	}
	json_decref(rows);
	json_decref(cols);
	bsm_problems_release(&p);
	return line;
}

/*
 * A sheet that exists is never replaced without --force (it belongs to the
 * key a rater's work is merged with), and one a rater has filled never.
 */
static void
guard_sheet(const struct blind *b, const char *path)
{
	struct stat st;
	unsigned long line;
	size_t n = strlen(path);

	if (lstat(path, &st) < 0)
		return;
	if (!b->o->force)
		die("%s: a scoring sheet is already there; blind never replaces sheets "
		    "without --force", path);
	if (n > 4 && !strcmp(path + n - 4, ".csv") && (line = filled_line(b, path)))
		die("%s:%lu: a rater has filled this sheet; blind never replaces it, "
		    "even with --force (move it away first)", path, line);
}

static FILE *
open_out(struct blind *b, const char *dir, const char *name, mode_t mode)
{
	char *path = path_join(dir, name);
	FILE *fp;

	guard_sheet(b, path);
	if (!(fp = atomic_group_open(b->out, path, mode)))
		die_errno("%s", path);
	free(path);
	return fp;
}

/*
 * Spreadsheets run cells starting with = + - @ (or a tab or CR before them)
 * as formulas: csv_write_text gives them a leading space that keeps them text.
 */
static void
text_cell(struct csv_writer *w, const char *s, struct blind *b)
{
	if (!s)
		s = "";
	if (utf8_count(s, strlen(s)) > 32767)
		warn("warning: a cell of %zu characters exceeds the 32767 a spreadsheet cell holds",
		    utf8_count(s, strlen(s)));
	csv_write_text(w, s);
	(void)b;
}

static char *
join_strings(const json_t *arr, const char *sep)
{
	struct buf s = BUF_INIT;
	size_t i;
	json_t *v;

	buf_adds(&s, "");
	json_array_foreach(arr, i, v)
		if (json_is_string(v)) {
			if (s.len)
				buf_adds(&s, sep);
			buf_adds(&s, json_string_value(v));
		}
	return buf_detach(&s, NULL);
}

static void
write_sheet(struct blind *b, const char *dir, const struct sheet_spec *s,
    const size_t *order, size_t m, int self_check)
{
	FILE *fp = open_out(b, dir, s->name, 0644);
	struct csv_writer w;
	size_t i, j;
	json_t *f;
	char row[32];

	csv_writer_init(&w, fp, b->o->crlf, 0);
	if (b->o->bom)
		csv_write_bom(&w);
	csv_write_field(&w, "row");
	csv_write_field(&w, "response_id");
	csv_write_field(&w, "rater_id");
	csv_write_field(&w, "scoring_date");
	if (self_check)
		csv_write_field(&w, "self_check");
	csv_write_field(&w, "question");
	csv_write_field(&w, "gold_answer");
	csv_write_field(&w, "response");
	csv_write_field(&w, "source_urls");
	csv_write_field(&w, "source_sections");
	if (s->hint_source && b->o->sources)
		csv_write_field(&w, "source_file");
	if (s->hint_citation)
		csv_write_field(&w, "citation_hint");
	if (s->hint_completeness)
		csv_write_field(&w, "completeness_hint");
	json_array_foreach(s->fields, j, f) {
		const struct bsm_field *fd = bsm_rubric_field(b->r, json_string_value(f));
		if (fd && fd->type != BT_RECORDS)
			csv_write_field(&w, fd->name);
	}
	csv_end_record(&w);
	for (i = 0; i < m; i++) {
		struct item *it = &b->items[order[i]];
		char *urls = join_strings(json_object_get(it->rec, "source_urls"), " ");
		char *secs = join_strings(json_object_get(it->rec, "source_sections"), "; ");
		snprintf(row, sizeof row, "%zu", i + 1);
		csv_write_field(&w, row);
		csv_write_field(&w, it->id);
		csv_write_field(&w, b->o->rater ? b->o->rater : "");
		csv_write_field(&w, "");
		if (self_check)
			csv_write_field(&w, "yes");
		text_cell(&w, json_string_value(json_object_get(it->rec, "question_text")), b);
		text_cell(&w, json_string_value(json_object_get(it->rec, "gold_answer")), b);
		text_cell(&w, json_string_value(json_object_get(it->rec, "response_text")), b);
		csv_write_field(&w, urls);
		text_cell(&w, secs, b);
		free(urls);
		free(secs);
		if (s->hint_source && b->o->sources) {
			char *p = it->src[0] ? xasprintf("sources/%s.txt", it->src) : xstrdup("");
			csv_write_field(&w, p);
			free(p);
		}
		if (s->hint_citation)
			csv_write_field(&w, it->citation);
		if (s->hint_completeness)
			csv_write_field(&w, it->completeness);
		json_array_foreach(s->fields, j, f) {
			const struct bsm_field *fd = bsm_rubric_field(b->r, json_string_value(f));
			json_t *pre;
			if (!fd || fd->type == BT_RECORDS)
				continue;
			/* Inputs the response already carries (answer-quality routes). */
			pre = json_object_get(it->rec, fd->name);
			if ((fd->type == BT_TEXT || fd->type == BT_LIST) && pre) {
				char *t = json_is_array(pre) ? join_strings(pre, ",") :
				    xstrdup(json_is_string(pre) ? json_string_value(pre) : "");
				text_cell(&w, t, b);
				free(t);
			} else {
				csv_write_field(&w, "");
			}
		}
		csv_end_record(&w);
	}
}

/* A companion sheet for each records field in the specs: one row per record. */
static void
write_records_sheets(struct blind *b, const char *dir, const struct sheet_spec *specs,
    size_t nspecs)
{
	size_t i, j, k;
	json_t *f, *done = json_object();

	for (i = 0; i < nspecs; i++)
		json_array_foreach(specs[i].fields, j, f) {
			const struct bsm_field *fd = bsm_rubric_field(b->r, json_string_value(f));
			struct csv_writer w;
			char *name;
			if (!fd || fd->type != BT_RECORDS || json_object_get(done, fd->name))
				continue;
			json_object_set_new(done, fd->name, json_true());
			name = xasprintf("records-%s.csv", fd->name);
			csv_writer_init(&w, open_out(b, dir, name, 0644), b->o->crlf, 0);
			free(name);
			if (b->o->bom)
				csv_write_bom(&w);
			csv_write_field(&w, "response_id");
			csv_write_field(&w, "rater_id");
			for (k = 0; k < fd->nitems; k++)
				csv_write_field(&w, fd->items[k].name);
			csv_end_record(&w);
		}
	json_decref(done);
}

/* ------------------------------------------------------------ pages */

static json_t *
str_array(const json_t *v)
{
	json_t *a = json_array(), *x;
	size_t i;

	json_array_foreach(v, i, x)
		if (json_is_string(x))
			json_array_append(a, x);
	return a;
}

/* The items of a page: what the sheet shows, in sheet order, and nothing else. */
static json_t *
page_items(struct blind *b, const struct sheet_spec *s, const size_t *order, size_t m)
{
	json_t *items = json_array(), *f;
	size_t i, j;

	for (i = 0; i < m; i++) {
		struct item *it = &b->items[order[i]];
		json_t *o = json_object(), *pre = json_object();
		json_t *content = json_object_get(it->rec, "content");
		json_set_int(o, "row", (long long)(i + 1));
		json_set_str(o, "response_id", it->id);
		json_set_str(o, "question", json_string_value(json_object_get(it->rec, "question_text")));
		json_set_str(o, "gold_answer", json_string_value(json_object_get(it->rec, "gold_answer")));
		json_set_str(o, "response", json_string_value(json_object_get(it->rec, "response_text")));
		json_set_new(o, "source_urls", str_array(json_object_get(it->rec, "source_urls")));
		json_set_new(o, "source_sections", str_array(json_object_get(it->rec, "source_sections")));
		if (s->hint_citation)
			json_set_str(o, "citation_hint", it->citation);
		if (s->hint_completeness)
			json_set_str(o, "completeness_hint", it->completeness);
		if (s->hint_source && b->o->sources && json_is_string(content))
			json_set_new(o, "source", json_incref(content));
		json_array_foreach(s->fields, j, f) {
			const struct bsm_field *fd = bsm_rubric_field(b->r, json_string_value(f));
			json_t *v = fd ? json_object_get(it->rec, fd->name) : NULL;
			if (v && (fd->type == BT_TEXT || fd->type == BT_LIST) &&
			    (json_is_string(v) || json_is_array(v)))
				json_set_new(pre, fd->name, fd->type == BT_LIST && json_is_array(v) ?
				    str_array(v) : json_incref(v));
		}
		json_set_new(o, "prefill", pre);
		json_array_append_new(items, o);
	}
	return items;
}

/* One page per pass of the rubric (000 §7.2: one metric per pass). */
static void
write_pages(struct blind *b, const char *dir, const char *set, const size_t *order,
    size_t m, int self_check)
{
	size_t nspecs, i;
	struct sheet_spec *specs = sheet_specs(b->r, 1, &nspecs);
	json_t *passes = json_object_get(b->r->def, "passes");

	for (i = 0; i < nspecs; i++) {
		json_t *data = json_object(), *pass = json_array_get(passes, i);
		char *base = xstrndup(specs[i].name, strlen(specs[i].name) - 4);
		char *name = xasprintf("%s.html", base);
		char *ebase = *set ? xasprintf("%s-%s", set, base) : xstrdup(base);
		const char *plabel = pass && json_is_string(json_object_get(pass, "label")) ?
		    json_string_value(json_object_get(pass, "label")) : "All fields";
		char *title = xasprintf("Scoring %s%s%s", plabel,
		    !strcmp(set, "second-rater") ? " (second rater)" : "",
		    self_check ? " (self-check)" : "");
		json_set_int(data, "ctxbench_page", 1);
		json_set_str(data, "title", title);
		json_set_new(data, "rubric", bsm_page_rubric(b->r, pass,
		    i + 1, nspecs, specs[i].fields));
		/* --rater names the primary rater: the second rater enters their own id. */
		json_set_str(data, "rater_id", b->o->rater && strcmp(set, "second-rater") ? b->o->rater : "");
		json_set_bool(data, "self_check", self_check);
		json_set_str(data, "set", set);
		json_set_str(data, "export_base", ebase);
		json_set_int(data, "spot_check_every", b->o->spot_check < 0 ? 20 : b->o->spot_check);
		json_set_int(data, "spot_check_items", 2);
		json_set_bool(data, "sources", b->o->sources && specs[i].hint_source);
		json_set_new(data, "items", page_items(b, &specs[i], order, m));
		bsm_page_write(open_out(b, dir, name, 0644), data, title);
		json_decref(data);
		free(base);
		free(name);
		free(ebase);
		free(title);
	}
	for (i = 0; i < nspecs; i++) {
		free(specs[i].name);
		json_decref(specs[i].fields);
	}
	free(specs);
}

static void
write_sheet_set(struct blind *b, const char *dir, const char *set, const size_t *order,
    size_t m, int self_check)
{
	size_t nspecs, i;
	struct sheet_spec *specs = sheet_specs(b->r, b->o->passes, &nspecs);

	if (atomic_group_mkdir(b->out, dir, 0755) < 0)
		die_errno("%s", dir);
	for (i = 0; i < nspecs; i++)
		write_sheet(b, dir, &specs[i], order, m, self_check);
	write_records_sheets(b, dir, specs, nspecs);
	if (b->o->html)
		write_pages(b, dir, set, order, m, self_check);
	for (i = 0; i < nspecs; i++) {
		free(specs[i].name);
		json_decref(specs[i].fields);
	}
	free(specs);
}

static unsigned long
random_seed(void)
{
	unsigned long s = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &s, sizeof s) != (ssize_t)sizeof s)
		die_errno("/dev/urandom");
	close(fd);
	return s & 0xFFFFFFFFUL;
}

static json_t *
id_array(const struct blind *b, const size_t *idx, size_t m)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < m; i++)
		json_array_append_new(a, json_string(b->items[idx[i]].id));
	return a;
}

static char *
text_sha256(const char *s)
{
	char hex[65];

	sha256_hex(s, strlen(s), hex);
	return xstrdup(hex);
}

/* The key's responses (blinded ids, hashes) and excluded tuples. */
static void
key_responses(const struct blind *b, json_t *key)
{
	json_t *entries = json_array(), *excl = json_array();
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];
		json_t *e = json_object();
		if (!it->excluded)
			json_set_str(e, "response_id", it->id);
		json_set_str(e, "site_id", json_string_value(json_object_get(it->rec, "site_id")));
		json_set_str(e, "question_id", json_string_value(json_object_get(it->rec, "question_id")));
		json_set_str(e, "model_id", json_string_value(json_object_get(it->rec, "model_id")));
		json_set_str(e, "condition", json_string_value(json_object_get(it->rec, "condition")));
		if (json_get_str(it->rec, "variant_of"))
			json_set_str(e, "variant_of", json_get_str(it->rec, "variant_of"));
		if (it->excluded) {
			json_t *er = json_object_get(it->rec, "exclusion_reason");
			json_set_new(e, "exclusion_reason", json_is_string(er) ? json_incref(er) : json_null());
			json_array_append_new(excl, e);
		} else {
			char *h = text_sha256(json_string_value(json_object_get(it->rec, "response_text")));
			json_set_str(e, "response_sha256", h);
			free(h);
			if (it->src[0])
				json_set_str(e, "source_file", it->src);
			json_array_append_new(entries, e);
		}
	}
	json_set_new(key, "responses", entries);
	json_set_new(key, "excluded", excl);
}

/* sources/ID.txt: each blinded response's context, for the raters. */
static void
write_sources(struct blind *b, const size_t *order, size_t m)
{
	char *d = path_join(b->o->dir, "sources");
	size_t i;

	if (atomic_group_mkdir(b->out, d, 0755) < 0)
		die_errno("%s", d);
	for (i = 0; i < m; i++) {
		struct item *it = &b->items[order[i]];
		char *name;
		FILE *fp;
		if (!it->src[0])
			continue;
		name = xasprintf("%s.txt", it->src);
		fp = open_out(b, d, name, 0644);
		fputs(json_string_value(json_object_get(it->rec, "content")), fp);
		free(name);
	}
	free(d);
}

/* The draws of a blind run: presentation order and the two subsets. */
struct draws {
	unsigned long seed;
	size_t *order, m;	/* the blinded items, in presentation order */
	size_t *second, n2;	/* the second rater's subset */
	size_t *selfc, ns;	/* the primary rater's self-check subset */
};

/* Everything drawn from the seeded stream, in an order that never changes. */
static void
draw_all(struct blind *b, struct draws *d)
{
	const struct bsm_opts *o = b->o;
	json_t *used = json_object();
	size_t i, m = 0;

	d->seed = o->have_seed ? o->seed : random_seed();
	b->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(b->rng, d->seed);
	d->order = xmalloc((b->n ? b->n : 1) * sizeof *d->order);
	for (i = 0; i < b->n; i++)
		if (!b->items[i].excluded)
			d->order[m++] = i;
	d->m = m;
	draw_order(b, d->order, m);
	for (i = 0; i < m; i++)
		new_id(b, used, b->items[d->order[i]].id, sizeof b->items[d->order[i]].id, "R");
	if (o->sources)
		for (i = 0; i < m; i++)
			if (json_is_string(json_object_get(b->items[d->order[i]].rec, "content")))
				new_id(b, used, b->items[d->order[i]].src,
				    sizeof b->items[d->order[i]].src, "C");
	d->second = xmalloc((m ? m : 1) * sizeof *d->second);
	d->selfc = xmalloc((m ? m : 1) * sizeof *d->selfc);
	d->n2 = draw_subset(b, d->order, m, o->second_rater, d->second);
	d->ns = draw_subset(b, d->order, m, o->self_check, d->selfc);
	draw_order(b, d->second, d->n2);
	draw_order(b, d->selfc, d->ns);
	json_decref(used);
}

/* The key: the rubric, the seed, the draws and every response's tuple. */
static json_t *
make_key(const struct blind *b, const struct draws *d)
{
	const struct bsm_opts *o = b->o;
	json_t *key = json_object(), *version = json_object_get(b->r->def, "version");
	char now[32];

	json_set_int(key, "ctxbench_key", 1);
	json_set_str(key, "rubric", b->r->name);
	json_set_new(key, "rubric_version", json_incref(version ? version : json_null()));
	json_set_int(key, "seed", (long long)d->seed);
	json_set_str(key, "created", ctx_utc_now(now, sizeof now));
	json_set_bool(key, "passes", o->passes);
	json_set_real(key, "second_rater_fraction", o->second_rater);
	json_set_real(key, "self_check_fraction", o->self_check);
	json_set_new(key, "order", id_array(b, d->order, d->m));
	json_set_new(key, "second_rater", id_array(b, d->second, d->n2));
	json_set_new(key, "self_check", id_array(b, d->selfc, d->ns));
	key_responses(b, key);
	return key;
}

/* The key file (0600), beside the sheets' temporaries. */
static void
open_key(struct blind *b, const char *kj)
{
	FILE *kf = atomic_group_open(b->out, b->o->key, 0600);

	if (!kf)
		die_errno("%s", b->o->key);
	fputs(kj, kf);
	fputc('\n', kf);
}

/* Every sheet set, the sources and the key to temporaries, then all committed. */
static void
write_all(struct blind *b, const struct draws *d, const char *kj)
{
	const struct bsm_opts *o = b->o;
	char *dir, *bad;

	b->out = atomic_group_new();
	write_sheet_set(b, o->dir, "", d->order, d->m, 0);
	if (d->n2) {
		dir = path_join(o->dir, "second-rater");
		write_sheet_set(b, dir, "second-rater", d->second, d->n2, 0);
		free(dir);
	}
	if (d->ns) {
		dir = path_join(o->dir, "self-check");
		write_sheet_set(b, dir, "self-check", d->selfc, d->ns, 1);
		free(dir);
	}
	if (o->sources && d->m)
		write_sources(b, d->order, d->m);
	open_key(b, kj);
	if (atomic_group_commit(b->out, &bad) < 0)
		die("%s: cannot write: %s; no output written", bad,
		    strerror(errno));
	b->out = NULL;
}

static void
release_blind(struct blind *b, struct draws *d)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		json_decref(b->items[i].rec);
		free(b->items[i].citation);
		free(b->items[i].completeness);
	}
	free(b->items);
	free(d->order);
	free(d->second);
	free(d->selfc);
	json_decref(b->questions);
	json_decref(b->conds);
	json_decref(b->tuples);
	gsl_rng_free(b->rng);
}

int
bsm_blind(const struct bsm_opts *o)
{
	struct blind b;
	struct draws d;
	struct bsm_rubric *r = bsm_rubric_load(o->rubric ? o->rubric : "context-collapse");
	json_t *key;
	char *kj;
	int i;

	if (!o->force && access(o->key, F_OK) == 0)
		die("%s: an unblinding key is already there; a new blind would replace it "
		    "and its sheets with a new draw (--force to replace them)", o->key);
	memset(&b, 0, sizeof b);
	b.o = o;
	b.r = r;
	b.questions = json_object();
	b.conds = json_object();
	b.tuples = json_object();
	if (o->nfiles == 0)
		read_responses(&b, NULL);
	for (i = 0; i < o->nfiles; i++)
		read_responses(&b, o->files[i]);
	draw_all(&b, &d);
	key = make_key(&b, &d);
	kj = json_dumps(key, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!kj)
		die("cannot serialise the key");
	write_all(&b, &d, kj);
	warn("%zu responses blinded (%zu excluded), %zu for a second rater, %zu for the self-check; seed %lu",
	    d.m, b.n - d.m, d.n2, d.ns, d.seed);
	free(kj);
	json_decref(key);
	release_blind(&b, &d);
	bsm_rubric_free(r);
	return 0;
}
