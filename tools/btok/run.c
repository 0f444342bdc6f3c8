/*
 * run.c - btok's inputs: the mode chosen from a buffer of first bytes, the
 * record loop with its progress line and missing-field notes, raw texts.
 *
 * Every input is opened once and read once, so a pipe given as a file
 * argument (btok <(...), /dev/stdin) loses nothing: the bytes looked at to
 * choose the mode are pushed back (one '{') or kept as the start of the text.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctx.h"
#include "btok.h"
#include "load.h"
#include "run.h"

/* Notes printed for records without the field; later ones are summed up. */
#define MISSING_NOTES 10

enum { MODE_RAW, MODE_RECORDS };

struct input {
	FILE *fp;
	const char *name;	/* for messages */
	int own;
	unsigned char pre[4];	/* bytes read to choose the mode (raw text) */
	size_t npre;
};

struct prog {
	struct progress p;
	unsigned long long total, before;	/* bytes: all inputs, finished ones */
	double tnote;
};

static void
input_open(struct input *in, const char *path)
{
	memset(in, 0, sizeof *in);
	if (!path || strcmp(path, "-") == 0) {
		in->fp = stdin;
		in->name = "<stdin>";
		return;
	}
	in->fp = fopen(path, "r");
	if (!in->fp)
		die_errno("%s", path);
	in->name = path;
	in->own = 1;
}

static void
input_close(struct input *in)
{
	if (ferror(in->fp))
		die_errno("%s", in->name);
	if (in->own)
		fclose(in->fp);
	in->fp = NULL;
}

static int
input_getc(struct input *in)
{
	int c = getc(in->fp);

	if (c == EOF && ferror(in->fp))
		die_errno("%s", in->name);
	if (c != EOF)
		in->pre[in->npre++] = (unsigned char)c;
	return c;
}

/*
 * Look at the first bytes.  '{': records, the '{' pushed back.  The UTF-8
 * byte order mark EF BB BF: records when '{' follows, and that is an error
 * (NDJSON has no BOM; the other ctxbench programs reject it at line 1 too).
 * Anything else is raw text, the bytes read kept in in->pre.  In a later
 * input of record mode (first == 0) any start but '{' is left to the NDJSON
 * reader, except the BOM.
 */
static int
input_peek(struct input *in, int first, int records_only)
{
	int c = input_getc(in);

	if (first && records_only && c == EOF)
		return MODE_RECORDS;
	if (first && records_only && c != '{' && c != 0xEF)
		die("%s:1: expected NDJSON records: -o writes records (count raw text "
		    "to standard output, with -r)", in->name);

	if (c == '{' || (!first && c != 0xEF && c != EOF)) {
		ungetc(c, in->fp);
		in->npre = 0;
		return MODE_RECORDS;
	}
	if (c == 0xEF && input_getc(in) == 0xBB && input_getc(in) == 0xBF &&
	    (!first || input_getc(in) == '{'))
		die("%s:1: UTF-8 byte order mark before the first record (NDJSON "
		    "has none: remove the first 3 bytes, or give -r to count the file "
		    "as text)", in->name);
	if (!first && c != EOF)
		die("%s:1: expected a JSON object, got bytes that are not JSON", in->name);
	return first ? MODE_RAW : MODE_RECORDS;
}

/* The rest of the input after in->pre, in one malloc'd buffer. */
static char *
input_slurp(struct input *in, size_t *len)
{
	size_t cap = 1 << 16, n = in->npre, got;
	char *s = xmalloc(cap);

	memcpy(s, in->pre, in->npre);
	for (;;) {
		if (cap - n < 4096) {
			if (cap > SIZE_MAX / 2)
				die("%s: input too large", in->name);
			cap *= 2;
			s = xrealloc(s, cap);
		}
		got = fread(s + n, 1, cap - n - 1, in->fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(in->fp))
		die_errno("%s", in->name);
	s[n] = 0;
	*len = n;
	return s;
}

/* The count of s with tokenizer k; what: the field (records) or the file. */
static size_t
count(struct run *r, size_t k, const char *s, size_t n, const char *what, int rec)
{
	assert(k < r->ntk);
	r->buf.n = 0;
	r->buf.count_only = !r->ids;
#define TOOLONG "%s: a run of %zu bytes that %s does not split (no space, " \
	"digit or punctuation) is longer than btok's limit of %zu MiB"
	if (btok_encode(r->tk[k].enc, s, n, r->special, &r->buf) < 0) {
		if (rec)
			ndj_die(TOOLONG, what, r->buf.toolong, r->tk[k].name, BTOK_MAX_PIECE >> 20);
		die(TOOLONG, what, r->buf.toolong, r->tk[k].name, BTOK_MAX_PIECE >> 20);
	}
#undef TOOLONG
	return r->buf.n;
}

static json_t *
ids_array(const struct btok_ids *b)
{
	json_t *a = json_array();

	for (size_t i = 0; i < b->n; i++)
		json_array_append_new(a, json_integer(b->v[i]));
	return a;
}

static json_t *
obj_field(json_t *rec, const char *key)
{
	json_t *o = json_object_get(rec, key);

	if (o && !json_is_object(o) && !json_is_null(o))
		ndj_die("%s: expected an object", key);
	if (!o || json_is_null(o)) {
		o = json_object();
		json_object_set_new(rec, key, o);
	}
	return o;
}

/* tokens{}, token_ids{}, ref_token_count and content_chars of FIELD. */
static void
count_field(struct run *r, json_t *rec, json_t *v)
{
	const char *s;
	size_t n;
	json_t *tok, *ids = NULL;

	if (!json_is_string(v))
		ndj_die("%s: expected a string", r->field);
	s = json_string_value(v);
	n = json_string_length(v);
	tok = obj_field(rec, "tokens");
	if (r->ids)
		ids = obj_field(rec, "token_ids");
	for (size_t k = 0; k < r->ntk; k++) {
		size_t c = count(r, k, s, n, r->field, 1);

		json_object_set_new(tok, r->tk[k].name, json_integer((json_int_t)c));
		if (ids)
			json_object_set_new(ids, r->tk[k].name, ids_array(&r->buf));
		if ((int)k == r->ref)
			json_set_int(rec, "ref_token_count", (long long)c);
	}
	if (!json_object_get(rec, "content_chars") && strcmp(r->field, "content") == 0)
		json_set_int(rec, "content_chars", (long long)utf8_count(s, n));
	r->counted++;
	r->bytes += n;
}

/* prompt_tokens{}: system_prompt + user_prompt, each counted alone. */
static void
count_prompts(struct run *r, json_t *rec)
{
	json_t *jsp = json_object_get(rec, "system_prompt");
	json_t *jup = json_object_get(rec, "user_prompt");
	const char *sp = rec_str_opt(rec, "system_prompt");
	const char *up = rec_str_opt(rec, "user_prompt");
	json_t *pt;
	int ids = r->ids;

	if (!sp || !up)
		return;
	pt = obj_field(rec, "prompt_tokens");
	r->ids = 0;
	for (size_t k = 0; k < r->ntk; k++) {
		size_t c = count(r, k, sp, json_string_length(jsp), "system_prompt", 1) +
		    count(r, k, up, json_string_length(jup), "user_prompt", 1);

		json_object_set_new(pt, r->tk[k].name, json_integer((json_int_t)c));
	}
	r->ids = ids;
}

static void
count_record(struct run *r, json_t *rec)
{
	json_t *v = json_object_get(rec, r->field);

	r->records++;
	if (!v) {
		if (++r->missing <= MISSING_NOTES)
			ndj_warn("%s: missing, record not counted", r->field);
	} else if (!json_is_null(v))
		count_field(r, rec, v);
	count_prompts(r, rec);
}

static void
prog_note(struct prog *g, const struct run *r, FILE *fp)
{
	double now = now_seconds(), el;
	unsigned long long done = g->before;
	off_t at;
	char note[160];

	if (!g->p.active || now - g->tnote < 0.1)
		return;
	g->tnote = now;
	at = g->total ? ftello(fp) : -1;
	done = at >= 0 ? done + (unsigned long long)at : r->bytes;
	el = now - g->p.t0;
	if (g->total && done > 0 && el > 0 && done <= g->total) {
		double rate = (double)done / el, eta = (double)(g->total - done) / rate;

		snprintf(note, sizeof note, "%.1f/%.1f MB  %.1f MB/s  ETA %d:%02d",
		    done / 1e6, g->total / 1e6, rate / 1e6, (int)(eta / 60), (int)eta % 60);
	} else
		snprintf(note, sizeof note, "%.1f MB  %.1f MB/s", done / 1e6,
		    el > 0 ? done / 1e6 / el : 0.0);
	progress_add(&g->p, 0, note);
}

static void
records(struct run *r, struct input *in, struct prog *g)
{
	struct ndj_reader rd;
	json_t *rec;

	ndj_reader_init(&rd, in->fp, in->name);
	while ((rec = ndj_next(&rd))) {
		count_record(r, rec);
		ndj_emit(rec);
		json_decref(rec);
		g->p.done++;
		prog_note(g, r, in->fp);
	}
	ndj_reader_close(&rd);
}

static void
raw_one(struct run *r, struct input *in, int showfile)
{
	size_t len;
	char *text = input_slurp(in, &len);
	FILE *out = ndj_output();

	for (size_t k = 0; k < r->ntk; k++) {
		size_t c = count(r, k, text, len, in->name, 0);

		if (r->ids) {
			for (size_t i = 0; i < r->buf.n; i++)
				fprintf(out, "%s%u", i ? " " : "", r->buf.v[i]);
		} else
			fprintf(out, "%zu", c);
		if (r->ntk > 1)
			fprintf(out, "\t%s", r->tk[k].name);
		if (showfile)
			fprintf(out, "\t%s", in->name);
		fputc('\n', out);
	}
	free(text);
}

/* Bytes of all inputs when every one is a regular file, else 0. */
static unsigned long long
total_size(int nfiles, char *const files[])
{
	unsigned long long t = 0;
	struct stat st;

	for (int i = 0; i < nfiles; i++) {
		if (strcmp(files[i], "-") == 0 || stat(files[i], &st) < 0 ||
		    !S_ISREG(st.st_mode))
			return 0;
		t += (unsigned long long)st.st_size;
	}
	return t;
}

static void
records_end(const struct run *r, int nfiles, char *const files[])
{
	if (r->missing > MISSING_NOTES)
		warn("%llu of %llu records had no field '%s' (notes for the first %d)",
		    r->missing, r->records, r->field, MISSING_NOTES);
	if (r->records && !r->counted && r->missing)
		die("no record had the field '%s' to count (%llu records read; "
		    "-f names the field)", r->field, r->records);
	if (r->records == 0)
		die_empty(r->allow_empty, "%s: no record to count",
		    nfiles == 1 && strcmp(files[0], "-") ? files[0] :
		    nfiles > 1 ? "the input" : "<stdin>");
	warn("records: %llu  counted %llu  without '%s' %llu  (%.1f MB of text)",
	    r->records, r->counted, r->field, r->missing, (double)r->bytes / 1e6);
}

void
btok_run_inputs(struct run *r, int nfiles, char *const files[], int raw)
{
	static char *const none[] = { (char *)"-" };
	struct input in;
	struct prog g;
	int mode = MODE_RAW;

	if (nfiles == 0) {
		files = none;
		nfiles = 1;
	}
	memset(&g, 0, sizeof g);
	for (int i = 0; i < nfiles; i++) {
		input_open(&in, files[i]);
		/* The first input decides; later ones only checked for a BOM. */
		if (!raw && (i == 0 || mode == MODE_RECORDS))
			mode = input_peek(&in, i == 0, r->records_only);
		if (mode == MODE_RECORDS) {
			if (i == 0) {
				progress_start(&g.p, "btok", 0);
				g.total = total_size(nfiles, files);
			}
			records(r, &in, &g);
			if (g.total)
				g.before += (unsigned long long)ftello(in.fp);
		} else
			raw_one(r, &in, nfiles > 1);
		input_close(&in);
	}
	if (mode == MODE_RECORDS) {
		progress_end(&g.p);
		records_end(r, nfiles, files);
	}
}

void
run_free(struct run *r)
{
	for (size_t k = 0; k < r->ntk; k++) {
		btok_enc_free(r->tk[k].enc);
		btok_unload(&r->tk[k].t);
		free(r->tk[k].name);
	}
	free(r->tk);
	btok_ids_free(&r->buf);
}
