/*
 * mdprep.c - Condition B Markdown preparation (see mdprep.h).
 *
 * One pass over the normalised text copies it to the output, skipping HTML
 * comments and base64 images outside code; code blocks (fenced, indented,
 * also inside block quotes: common/mdcode.h) are recognised at line starts
 * and inline code spans within a line.  A second pass over the lines
 * collapses blank-line runs outside code.  Both passes are linear.
 */
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "mdcode.h"
#include "mdprep.h"

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
 * End (index after ')') of a base64 Markdown image at s[i] == '!', or 0;
 * *scanned gets how far the scan looked.
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
	if (j >= n || s[j] != ']' || j + 1 >= n || s[j + 1] != '(')
		return 0;
	j += 2;
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j < n && s[j] == '<')
		j++;
	if (!ci_prefix(s, n, j, "data:image/"))
		return 0;
	for (; j < n && s[j] != '\n'; j++)
		if (s[j] == ')')
			return j + 1;
	*scanned = j;
	return 0;
}

/*
 * End of an <img ...> tag at s[i] == '<' whose text holds data:image/, or 0;
 * *scanned gets how far the scan looked.
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
	if (j + 1 >= n || s[j] != ']' || s[j + 1] != ':')
		return 0;
	j += 2;
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j < n && s[j] == '<')
		j++;
	if (!ci_prefix(s, n, j, "data:image/"))
		return 0;
	nl = memchr(s + j, '\n', n - j);
	return nl ? (size_t)(nl - s) : n;
}

/* Normalise encoding and line ends into a new string. */
static char *
normalise(const char *in, size_t n, size_t *outlen)
{
	size_t len, i, o;
	char *u, *r;

	if (utf8_valid(in, n, NULL)) {
		u = xmalloc(n + 1);
		memcpy(u, in, n);
		len = n;
	} else {
		u = utf8_sanitize(in, n, &len);
	}
	r = xmalloc(len + 1);
	i = (len >= 3 && memcmp(u, "\xef\xbb\xbf", 3) == 0) ? 3 : 0;
	for (o = 0; i < len; i++) {
		if (u[i] == '\r') {
			r[o++] = '\n';
			if (i + 1 < len && u[i + 1] == '\n')
				i++;
		} else if (u[i] != '\0') {
			r[o++] = u[i];
		}
	}
	r[o] = '\0';
	free(u);
	*outlen = o;
	return r;
}

/* Length of a leading front matter block (through its closing line), or 0. */
static size_t
front_matter(const char *s, size_t n)
{
	size_t pos, e;
	const char *nl;

	if (n < 4 || memcmp(s, "---\n", 4) != 0)
		return 0;
	for (pos = 4; pos < n; pos = e + 1) {
		nl = memchr(s + pos, '\n', n - pos);
		e = nl ? (size_t)(nl - s) : n;
		if (e - pos == 3 && (memcmp(s + pos, "---", 3) == 0 ||
		    memcmp(s + pos, "...", 3) == 0))
			return nl ? e + 1 : e;
		if (!nl)
			break;
	}
	return 0;
}

/*
 * Pass 1: strip comments and images.  A line that held something removed
 * and is left blank is dropped whole.
 */
static void
strip_pass(const char *s, size_t n, const struct bmd_mdopts *o, struct buf *out)
{
	size_t i = 0, linestart = 0, e;
	size_t img_to = 0, md_to = 0;	/* ends of earlier tag/image scans */
	size_t tick_fail[65];		/* per run length: no closer before */
	int removed = 0, at_bol = 1, no_close = 0, in_comment = 0;
	struct md_code code = MD_CODE_INIT;

	memset(tick_fail, 0, sizeof tick_fail);
	while (i < n) {
		if (at_bol && !in_comment) {
			const char *nl = memchr(s + i, '\n', n - i);
			size_t le = nl ? (size_t)(nl - s) : n;

			at_bol = 0;
			/* code (fenced, indented, also in block quotes): as is */
			if (md_code_line(&code, s + i, le - i, NULL) >= MD_FENCE) {
				buf_add(out, s + i, le - i);
				i = le;
				continue;
			}
			if (o->strip_base64 && (e = refdef_b64(s, n, i)) > 0) {
				removed = 1;
				i = e;
				continue;
			}
		}
		if (s[i] == '\n') {
			if (!in_comment) {
				if (removed && only_space_after(out->s, out->len,
				    linestart)) {
					buf_setlen(out, linestart);
				} else {
					buf_addc(out, '\n');
				}
				linestart = out->len;
				removed = 0;
				at_bol = 1;
			}
			i++;
			continue;
		}
		if (in_comment) {
			if (s[i] == '-' && n - i >= 3 && memcmp(s + i, "-->", 3) == 0) {
				in_comment = 0;
				i += 3;
			} else {
				i++;
			}
			continue;
		}
		if (s[i] == '`') {		/* inline code span on this line */
			size_t run = 0, j;
			const char *nl = memchr(s + i, '\n', n - i);
			size_t le = nl ? (size_t)(nl - s) : n;

			while (i + run < le && s[i + run] == '`')
				run++;
			/*
			 * A closer of this length is searched once per line:
			 * after a miss, none lies before the line end.  Very
			 * long runs are taken literally.
			 */
			j = le;
			if (run <= 64 && tick_fail[run] <= i) {
				for (j = i + run; j < le;) {
					size_t r2 = 0;

					if (s[j] != '`') {
						j++;
						continue;
					}
					while (j + r2 < le && s[j + r2] == '`')
						r2++;
					if (r2 == run)
						break;
					j += r2;
				}
				if (j >= le)
					tick_fail[run] = le;
			}
			if (j < le) {
				buf_add(out, s + i, j + run - i);
				i = j + run;
			} else {
				buf_add(out, s + i, run);
				i += run;
			}
			continue;
		}
		if (o->strip_comments && s[i] == '<' && !no_close &&
		    n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
			if (find3(s + i + 4, n - i - 4, "-->")) {
				in_comment = 1;
				removed = 1;
				i += 4;
				continue;
			}
			no_close = 1;
		}
		/*
		 * An image or tag is only looked for past the end of the last
		 * scan, which keeps the pass linear on hostile input.
		 */
		if (o->strip_base64 && s[i] == '!' && i >= md_to &&
		    (e = md_b64_image(s, n, i, &md_to)) > 0) {
			removed = 1;
			i = e;
			continue;
		}
		if (o->strip_base64 && s[i] == '<' && i >= img_to &&
		    (e = html_b64_img(s, n, i, &img_to)) > 0) {
			/* the tag may span lines: they go with it */
			removed = 1;
			i = e;
			continue;
		}
		buf_addc(out, s[i]);
		i++;
	}
	if (removed && only_space_after(out->s, out->len, linestart))
		buf_setlen(out, linestart);
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
	char *t;

	t = normalise(in, n, &len);
	fm = front_matter(t, len);
	buf_add(&a, t, fm && o->drop_front_matter ? 0 : fm);
	strip_pass(t + fm, len - fm, o, &a);
	free(t);
	blank_pass(a.s, a.len, o, &b);
	buf_release(&a);
	return buf_detach(&b, outlen);
}
