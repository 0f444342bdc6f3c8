/*
 * mdprep.c - Condition B Markdown preparation (see mdprep.h).
 *
 * One pass over the normalised text copies it to the output, skipping HTML
 * comments and base64 images outside code; code blocks (fenced, indented,
 * also inside block quotes: common/mdcode.h) are recognised at line starts
 * and inline code spans within a line.  A second pass over the lines
 * collapses blank-line runs outside code.  Both passes are linear.
 */
#include <assert.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "mdcode.h"
#include "mdprep.h"
#include "text.h"

void
bmd_mdopts_default(struct bmd_mdopts *o)
{
	o->strip_comments = 1;
	o->strip_base64 = 1;
	o->max_blank = 2;
	o->drop_front_matter = 0;
}

static int
cfg_flag(const json_t *mp, const char *key, int def, const char *cfgname)
{
	json_t *v = json_object_get(mp, key);

	if (!v || json_is_null(v))
		return def;
	if (!json_is_boolean(v))
		die("%s: extraction.markdown_preprocessing.%s: expected a boolean",
		    cfgname, key);
	return json_is_true(v);
}

void
bmd_mdopts_config(struct bmd_mdopts *o, const json_t *cfg, const char *cfgname)
{
	json_t *mp, *v;

	if (!cfg)
		return;
	mp = json_path(cfg, "extraction.markdown_preprocessing");
	if (!mp)
		return;
	if (!json_is_object(mp))
		die("%s: extraction.markdown_preprocessing: expected an object",
		    cfgname);
	o->strip_comments = cfg_flag(mp, "strip_html_comments",
	    o->strip_comments, cfgname);
	o->strip_base64 = cfg_flag(mp, "strip_base64_images", o->strip_base64,
	    cfgname);
	v = json_object_get(mp, "max_consecutive_blank_lines");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			die("%s: extraction.markdown_preprocessing."
			    "max_consecutive_blank_lines: expected an integer >= 0",
			    cfgname);
		o->max_blank = (long)json_integer_value(v);
	}
	v = json_object_get(mp, "normalize_line_endings");
	if (v && !json_is_null(v) && (!json_is_string(v) ||
	    strcmp(json_string_value(v), "LF") != 0))
		die("%s: extraction.markdown_preprocessing.normalize_line_endings: "
		    "only \"LF\" is supported", cfgname);
}

static int
only_space_after(const char *s, size_t n, size_t i)
{
	for (; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

static const char *
find3(const char *s, size_t n, const char *pat)
{
	const char *p = s, *end = s + n;

	while (end - p >= 3 && (p = memchr(p, pat[0], (size_t)(end - p - 2))) != NULL) {
		if (p[1] == pat[1] && p[2] == pat[2])
			return p;
		p++;
	}
	return NULL;
}

static int
ci_prefix(const char *s, size_t n, size_t i, const char *p)
{
	size_t l = strlen(p);

	return n - i >= l && strncasecmp(s + i, p, l) == 0;
}

/*
 * Where a "data:image/" URI starts at or after s[j], past blanks and an
 * opening '<' (the destination of a link or a reference definition), or 0.
 */
static size_t
data_image_at(const char *s, size_t n, size_t j)
{
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j < n && s[j] == '<')
		j++;
	return ci_prefix(s, n, j, "data:image/") ? j : 0;
}

/*
 * End (index after ')') of a base64 Markdown image at s[i] == '!', or 0;
 * *scanned receives how far the scan looked.
 */
static size_t
md_b64_image(const char *s, size_t n, size_t i, size_t *scanned)
{
	size_t j = i + 1;
	int depth = 0;

	if (j >= n || s[j] != '[')
		return 0;
	*scanned = n;
	for (; j < n && s[j] != '\n'; j++) {
		if (s[j] == '\\' && j + 1 < n) {
			j++;
			continue;
		}
		if (s[j] == '[')
			depth++;
		else if (s[j] == ']' && --depth == 0)
			break;
	}
	*scanned = j;
	if (j >= n || s[j] != ']' || j + 1 >= n || s[j + 1] != '(' ||
	    (j = data_image_at(s, n, j + 2)) == 0)
		return 0;
	for (; j < n && s[j] != '\n'; j++)
		if (s[j] == ')')
			return j + 1;
	*scanned = j;
	return 0;
}

/*
 * End of an <img ...> tag at s[i] == '<' whose text holds data:image/, or 0;
 * *scanned receives how far the scan looked.
 */
static size_t
html_b64_img(const char *s, size_t n, size_t i, size_t *scanned)
{
	size_t j;
	char q = 0;
	int b64 = 0;

	if (!ci_prefix(s, n, i + 1, "img") || i + 4 >= n ||
	    !(s[i + 4] == ' ' || s[i + 4] == '\t' || s[i + 4] == '\n' ||
	    s[i + 4] == '/'))
		return 0;
	for (j = i + 4; j < n; j++) {
		if (q) {
			if (s[j] == q)
				q = 0;
		} else if (s[j] == '"' || s[j] == '\'') {
			q = s[j];
		} else if (s[j] == '>') {
			*scanned = j + 1;
			return b64 ? j + 1 : 0;
		}
		if (!b64 && (s[j] == 'd' || s[j] == 'D') &&
		    ci_prefix(s, n, j, "data:image/"))
			b64 = 1;
	}
	*scanned = n;
	return 0;
}

/* A reference definition "[x]: data:image/..." line at s[i] (line start). */
static size_t
refdef_b64(const char *s, size_t n, size_t i)
{
	size_t j = i, k = 0;
	const char *nl;

	while (j < n && k < 3 && s[j] == ' ')
		j++, k++;
	if (j >= n || s[j] != '[')
		return 0;
	while (j < n && s[j] != ']' && s[j] != '\n')
		j++;
	if (j + 1 >= n || s[j] != ']' || s[j + 1] != ':' ||
	    (j = data_image_at(s, n, j + 2)) == 0)
		return 0;
	nl = memchr(s + j, '\n', n - j);
	return nl ? (size_t)(nl - s) : n;
}

/*
 * Pass 1 walks the text once with this state.  Scans that look ahead (for
 * a tag's end, an image's ')', a backtick closer) remember how far they
 * looked, so no byte is scanned again by the same kind of search: the pass
 * stays linear on hostile input.
 */
struct strip {
	const char *s;
	size_t n, i;			/* the text and the position in it */
	const struct bmd_mdopts *o;
	struct buf *out;
	size_t linestart;		/* where the current line starts in out */
	size_t img_to, md_to;		/* ends of earlier tag/image scans */
	size_t tick_fail[65];		/* per run length: no closer before */
	int removed;			/* something was removed on this line */
	int at_bol, no_close, in_comment;
	struct md_code code;
};

/*
 * At a line start (outside a comment): a code line (fenced, indented, also
 * in block quotes) is copied as is and a base64 reference definition is
 * removed.  Returns 1 when the line was taken.
 */
static int
strip_line_start(struct strip *st)
{
	const char *s = st->s, *nl = memchr(s + st->i, '\n', st->n - st->i);
	size_t le = nl ? (size_t)(nl - s) : st->n, e;

	st->at_bol = 0;
	if (md_code_line(&st->code, s + st->i, le - st->i, NULL) >= MD_FENCE) {
		buf_add(st->out, s + st->i, le - st->i);
		st->i = le;
		return 1;
	}
	if (st->o->strip_base64 && (e = refdef_b64(s, st->n, st->i)) > 0) {
		st->removed = 1;
		st->i = e;
		return 1;
	}
	return 0;
}

/*
 * A line feed: outside a comment it ends the line, and a line that held
 * something removed and is left blank is dropped whole.
 */
static void
strip_newline(struct strip *st)
{
	struct buf *out = st->out;

	st->i++;
	if (st->in_comment)
		return;
	if (st->removed && only_space_after(out->s, out->len, st->linestart))
		buf_setlen(out, st->linestart);
	else
		buf_addc(out, '\n');
	st->linestart = out->len;
	st->removed = 0;
	st->at_bol = 1;
}

/* Inside a comment known to be closed: skip past its "-->". */
static void
strip_comment_rest(struct strip *st)
{
	const char *end = find3(st->s + st->i, st->n - st->i, "-->");

	assert(end != NULL);
	st->i = (size_t)(end - st->s) + 3;
	st->in_comment = 0;
}

/* Start of the next run of exactly run backticks in s[j..le), or le. */
static size_t
tick_closer(const char *s, size_t j, size_t le, size_t run)
{
	size_t r2;

	while (j < le) {
		if (s[j] != '`') {
			j++;
			continue;
		}
		for (r2 = 0; j + r2 < le && s[j + r2] == '`'; r2++)
			;
		if (r2 == run)
			return j;
		j += r2;
	}
	return le;
}

/*
 * A run of backticks at s[i]: an inline code span through its closer on
 * this line, copied as is, or the run alone when it has none.  A closer of
 * one length is searched once per line: after a miss, none lies before the
 * line end.  Very long runs are taken literally.
 */
static void
strip_code_span(struct strip *st)
{
	const char *s = st->s, *nl = memchr(s + st->i, '\n', st->n - st->i);
	size_t i = st->i, le = nl ? (size_t)(nl - s) : st->n, run = 0, j = le;

	while (i + run < le && s[i + run] == '`')
		run++;
	if (run <= 64 && st->tick_fail[run] <= i) {
		j = tick_closer(s, i + run, le, run);
		if (j >= le)
			st->tick_fail[run] = le;
	}
	if (j < le) {
		buf_add(st->out, s + i, j + run - i);
		st->i = j + run;
	} else {
		buf_add(st->out, s + i, run);
		st->i = i + run;
	}
}

/*
 * What is removed at s[i]: the start of an HTML comment that is closed
 * later, a base64 Markdown image, an <img> tag with a base64 source (the
 * tag may span lines: they go with it).  An image or tag is only looked for
 * past the end of the last scan.  Returns 1 when something was removed.
 */
static int
strip_removal(struct strip *st)
{
	const char *s = st->s;
	size_t i = st->i, n = st->n, e = 0;

	if (st->o->strip_comments && s[i] == '<' && !st->no_close &&
	    n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
		if (find3(s + i + 4, n - i - 4, "-->")) {
			st->in_comment = 1;
			e = i + 4;
		} else {
			st->no_close = 1;
		}
	}
	if (e == 0 && st->o->strip_base64 && s[i] == '!' && i >= st->md_to)
		e = md_b64_image(s, n, i, &st->md_to);
	if (e == 0 && st->o->strip_base64 && s[i] == '<' && i >= st->img_to)
		e = html_b64_img(s, n, i, &st->img_to);
	if (e == 0)
		return 0;
	st->removed = 1;
	st->i = e;
	return 1;
}

/*
 * Pass 1: strip comments and images outside code.  A line that held
 * something removed and is left blank is dropped whole.
 */
static void
strip_pass(const char *s, size_t n, const struct bmd_mdopts *o, struct buf *out)
{
	struct strip st;

	memset(&st, 0, sizeof st);
	st.s = s;
	st.n = n;
	st.o = o;
	st.out = out;
	st.at_bol = 1;
	st.code = (struct md_code)MD_CODE_INIT;
	while (st.i < n) {
		if (st.at_bol && !st.in_comment && strip_line_start(&st))
			continue;
		if (s[st.i] == '\n')
			strip_newline(&st);
		else if (st.in_comment)
			strip_comment_rest(&st);
		else if (s[st.i] == '`')
			strip_code_span(&st);
		else if (!strip_removal(&st))
			buf_addc(out, s[st.i++]);
	}
	if (st.removed && only_space_after(out->s, out->len, st.linestart))
		buf_setlen(out, st.linestart);
}

/*
 * Pass 2: runs of blank lines collapsed to at most o->max_blank, outside
 * code: blank lines inside a fence, or between two parts of an indented
 * code block, are kept.  Leading blank lines are dropped.
 */
static void
blank_pass(const char *s, size_t n, const struct bmd_mdopts *o, struct buf *out)
{
	struct md_code code = MD_CODE_INIT;
	size_t pos, e;
	long blanks = 0, k, lim;
	int started = 0, in_code = 0;

	buf_add(out, "", 0);
	for (pos = 0; pos < n; pos = e + 1) {
		const char *nl = memchr(s + pos, '\n', n - pos);
		int was_indented = code.indented && code.flen == 0;
		enum md_line c;

		e = nl ? (size_t)(nl - s) : n;
		c = md_code_line(&code, s + pos, e - pos, NULL);
		/* a bare ">" is blank inside its quote, not as a line */
		if (c == MD_BLANK && only_space_after(s + pos, e - pos, 0)) {
			if (blanks++ == 0)
				in_code = was_indented;
		} else {
			lim = blanks;
			if (!(c == MD_CODE && in_code) && o->max_blank >= 0 &&
			    blanks > o->max_blank)
				lim = o->max_blank;
			for (k = 0; started && k < lim; k++)
				buf_addc(out, '\n');
			started = 1;
			blanks = 0;
			buf_add(out, s + pos, e - pos);
			buf_addc(out, '\n');
		}
		if (!nl)
			break;
	}
}

char *
bmd_md_prepare(const char *in, size_t n, const struct bmd_mdopts *o,
    size_t *outlen)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t len, fm;
	unsigned long fmlines;
	char *t;

	t = bmd_text_normalise(in, n, NULL, 0, &len);
	fm = bmd_front_matter(t, len, &fmlines);
	buf_add(&a, t, fm && o->drop_front_matter ? 0 : fm);
	strip_pass(t + fm, len - fm, o, &a);
	free(t);
	blank_pass(a.s, a.len, o, &b);
	buf_release(&a);
	return buf_detach(&b, outlen);
}
