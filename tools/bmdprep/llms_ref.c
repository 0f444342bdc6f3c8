/*
 * llms_ref.c - parse_llms_file() of the llms.txt reference implementation
 * (AnswerDotAI/llms-txt at 7dd05c5b, llms_txt/core.py; miniparse.py's
 * parse_llms_txt is equivalent), reproduced exactly over UTF-8 bytes.
 *
 * The reference does, with Python's re module:
 *
 *   start,*rest = re.split(r'^##\s*(.*?$)', txt, flags=re.MULTILINE)
 *   sects = {k: _parse_links(v) for k,v in dict(chunked(rest, 2)).items()}
 *   _parse_links: [parse_link(l) for l in re.split(r'\n+', v.strip()) if l.strip()]
 *   parse_link:   re.search(r'-\s*\[(?P<title>[^\]]+)\]\((?P<url>[^\)]+)\)'
 *                           r'(?::\s*(?P<desc>.*))?', l).groupdict()
 *   head:         re.search(r'^#\s*(?P<title>.+?$)\n+(?:^>\s*(?P<summary>.+?$)$)?'
 *                           r'\n+(?P<info>.*)', start.strip(), re.M|re.S)
 *
 * Rather than a general regex engine, each pattern is matched by code that
 * follows the backtracking order of Python's engine for that pattern; the
 * comments derive each shortcut.  All of it runs in linear time, so a
 * 10 MB or hostile file cannot make it slow.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "llms.h"
#include "words.h"
#include "pyuni.h"
#include "utf8.h"

static unsigned long
line_of(const char *txt, size_t off)
{
	unsigned long line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		if (txt[i] == '\n')
			line++;
	return line;
}

static void
set_err(struct bmd_ref_error *err, const char *stage, const char *exc,
    const char *ctxexc, unsigned long line, const char *sec, size_t seclen,
    const char *text, size_t textlen)
{
	err->stage = stage;
	err->exception = exc;
	err->ctx_exception = ctxexc;
	err->line = line;
	err->section = sec ? xstrndup(sec, seclen) : NULL;
	err->text = text ? xstrndup(text, textlen) : NULL;
}

void
bmd_ref_error_free(struct bmd_ref_error *err)
{
	if (!err)
		return;
	free(err->section);
	free(err->text);
	err->section = err->text = NULL;
}

char *
bmd_ref_error_message(const struct bmd_ref_error *err, int ctx)
{
	const char *exc = ctx ? err->ctx_exception : err->exception;

	if (strcmp(err->stage, "link") == 0)
		return xasprintf("reference parser raises %s: line in section "
		    "\"%s\" is not a link: %.300s", exc, err->section,
		    err->text ? err->text : "");
	if (strcmp(err->stage, "header") == 0)
		return xasprintf("reference parser raises %s: no H1 title "
		    "followed by a blank line and text: %.300s", exc,
		    err->text ? err->text : "");
	return xasprintf("reference parser raises %s", exc);
}

void
bmd_ref_error_die(const char *name, struct bmd_ref_error *err, int ctx)
{
	char *m = bmd_ref_error_message(err, ctx), msg[2048];
	unsigned long line = err->line;

	snprintf(msg, sizeof msg, "%s", m);
	free(m);
	bmd_ref_error_free(err);
	die("%s:%lu: %s", name, line, msg);
}

static size_t
count_nl(const char *s, size_t n)
{
	size_t c = 0;
	const char *p = s, *end = s + n;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		c++;
		p++;
	}
	return c;
}

/* A forward cursor answering "first c at index >= q" for increasing q. */
struct nextc {
	const char *s;
	size_t n, pos;	/* pos: answer for the last query (n: none) */
	int valid;
	char c;
};

static size_t
nextc_find(struct nextc *nc, size_t q)
{
	const char *p;

	if (nc->valid && nc->pos >= q)
		return nc->pos;
	if (nc->valid && nc->pos == nc->n)
		return nc->n;
	if (q >= nc->n) {
		nc->pos = nc->n;
	} else {
		p = memchr(nc->s + q, nc->c, nc->n - q);
		nc->pos = p ? (size_t)(p - nc->s) : nc->n;
	}
	nc->valid = 1;
	return nc->pos;
}

/*
 * parse_link on l[0..n).  The pattern is tried at each '-' left to right.
 * \s* is greedy and '[' is not whitespace, so it takes the whole run;
 * [^\]]+ then ']' can only end at the first ']' (non-empty); '(' must
 * follow at once; [^\)]+ then ')' ends at the first ')' (non-empty); the
 * optional group is taken when ':' follows, \s* then eats all whitespace
 * and .* the rest of the line (the line holds no '\n').
 */
static int
parse_link(const char *l, size_t n, struct bmd_link *out)
{
	struct nextc rb = { l, n, 0, 0, ']' }, rp = { l, n, 0, 0, ')' };
	size_t p, q, r, u, d;

	for (p = 0; p < n; p++) {
		if (l[p] != '-')
			continue;
		q = bmd_py_skip_space(l, n, p + 1);
		if (q >= n || l[q] != '[')
			continue;
		r = nextc_find(&rb, q + 1);
		if (r == n)
			return -1;	/* no ']' left: no later '-' can match */
		if (r == q + 1 || r + 1 >= n || l[r + 1] != '(')
			continue;
		u = nextc_find(&rp, r + 2);
		if (u == n)
			return -1;
		if (u == r + 2)
			continue;
		out->title = bmd_str_dup(l + q + 1, r - q - 1);
		out->url = bmd_str_dup(l + r + 2, u - r - 2);
		if (u + 1 < n && l[u + 1] == ':') {
			d = bmd_py_skip_space(l, n, u + 2);
			out->desc = bmd_str_dup(l + d, n - d);
		} else {
			out->desc.s = NULL;
			out->desc.len = 0;
		}
		return 0;
	}
	return -1;
}

/*
 * _parse_links on a section body.  Returns 0, or -1 with the failing line
 * in *bad (offset within body) and its length in *badlen.
 */
static int
parse_links(const char *body, size_t n, unsigned long line0,
    struct bmd_section *sec, size_t *bad, size_t *badlen)
{
	size_t b, e, i, j, sb, se;
	unsigned long line;

	bmd_py_strip(body, n, &b, &e);
	line = line0 + (unsigned long)count_nl(body, b);
	for (i = b; i < e; i = j) {
		const char *nl = memchr(body + i, '\n', e - i);

		j = nl ? (size_t)(nl - body) : e;
		bmd_py_strip(body + i, j - i, &sb, &se);
		if (se > sb) {
			struct bmd_link lk;

			memset(&lk, 0, sizeof lk);
			if (parse_link(body + i, j - i, &lk) < 0) {
				*bad = i;
				*badlen = j - i;
				return -1;
			}
			lk.line = line;
			*bmd_section_add_link(sec) = lk;
		}
		/* re.split(r'\n+') : a run of newlines is one separator */
		while (j < e && body[j] == '\n') {
			j++;
			line++;
		}
	}
	return 0;
}

/*
 * The head pattern on S = start.strip() (see the file comment), with
 * MULTILINE and DOTALL.  Python's search tries start positions left to
 * right; at a start s ('#' at a line start) it explores, in order: \s*
 * from longest to shortest (title start t), the lazy title end te (a
 * '\n', as $ only holds there or at the end where \n+ cannot follow), the
 * greedy \n+ (ending at a), the optional summary group, then \n+ and .*.
 *
 * Call te "good" when the rest matches from te: with m the run of '\n' at
 * te and a = te+m, either S[a] == '>' and the group matches (type A), or
 * m >= 2 so \n+ gives one newline back and the group is skipped (type B).
 * The group matches iff some '\n' lies at index >= b+1 for a b in
 * [a+1, e2] (e2: end of the whitespace after '>'); b is tried from e2
 * down, so b = e2 when e2 < L (L: the last '\n' of S), else the code point
 * just before L, and it matches iff L >= a+2; the summary ends at the
 * first '\n' after b.  Whether te is
 * good does not depend on s or t, so the first '#' line start decides:
 * t = e1 (end of the \s* run) when a good te >= e1+1 exists, else the
 * largest good te inside the whitespace run gives t = te-1; later starts
 * only see a subset of the same te.
 */
/* Start of the code point that ends at pos (pos > 0). */
static size_t
prev_cp(const char *s, size_t pos)
{
	size_t k = pos - 1;

	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80 && pos - k < 4)
		k--;
	return k;
}

static int
good_te(const char *S, size_t n, size_t te, size_t L, size_t *a_out,
    int *type)
{
	size_t a = te;

	if (te >= n || S[te] != '\n')
		return 0;
	while (a < n && S[a] == '\n')
		a++;
	*a_out = a;
	if (a < n && S[a] == '>' && L != (size_t)-1 && L >= a + 2) {
		*type = 'A';
		return 1;
	}
	if (a - te >= 2) {
		*type = 'B';
		return 1;
	}
	return 0;
}

/* The first '#' at a line start of S[0..n), n > 0; n when there is none. */
static size_t
head_start(const char *S, size_t n)
{
	size_t i;

	if (S[0] == '#')
		return 0;
	for (i = 0; i + 1 < n; i++)
		if (S[i] == '\n' && S[i + 1] == '#')
			return i + 1;
	return n;
}

/* Where the head pattern's groups fall (see above). */
struct head_match {
	size_t t, te;		/* the title */
	size_t a;		/* after the \n+ that follows it */
	int type;		/* 'A': a summary follows; 'B': none */
};

/*
 * The title of the match starting at s, L being the last '\n' of S: t = e1
 * with the first good te >= e1+1, else the largest good te in the
 * whitespace run [s+2, e1-1] with t one code point before it.  Returns 0,
 * or -1 when no te is good (the pattern does not match).
 */
static int
head_title(const char *S, size_t n, size_t s, size_t L, struct head_match *hm)
{
	size_t e1 = bmd_py_skip_space(S, n, s + 1), te, a;
	const char *p;
	int type, found = 0;

	for (te = e1 + 1; te < n; te++) {
		if ((p = memchr(S + te, '\n', n - te)) == NULL)
			break;
		te = (size_t)(p - S);
		if (good_te(S, n, te, L, &hm->a, &hm->type)) {
			hm->t = e1;
			hm->te = te;
			return 0;
		}
	}
	for (te = s + 2; te + 1 <= e1; te++)
		if (good_te(S, n, te, L, &a, &type)) {
			hm->te = te;
			hm->a = a;
			hm->type = type;
			found = 1;
		}
	if (!found)
		return -1;
	hm->t = prev_cp(S, hm->te);	/* one (whitespace) code point */
	return 0;
}

static int
parse_head(const char *S, size_t n, struct bmd_llms *res)
{
	struct head_match hm;
	size_t s, L = (size_t)-1, i, e2, b, f;
	const char *p;

	if (n == 0 || (s = head_start(S, n)) == n)
		return -1;
	for (i = n; i > 0; i--)
		if (S[i - 1] == '\n') {
			L = i - 1;
			break;
		}
	if (head_title(S, n, s, L, &hm) < 0)
		return -1;
	res->title = bmd_str_dup(S + hm.t, hm.te - hm.t);
	if (hm.type == 'B') {
		res->summary.s = NULL;
		res->summary.len = 0;
		res->info = bmd_str_dup(S + hm.a, n - hm.a);
		return 0;
	}
	e2 = bmd_py_skip_space(S, n, hm.a + 1);
	b = e2 < L ? e2 : prev_cp(S, L);
	p = memchr(S + b + 1, '\n', n - b - 1);
	f = (size_t)(p - S);
	res->summary = bmd_str_dup(S + b, f - b);
	while (f < n && S[f] == '\n')
		f++;
	res->info = bmd_str_dup(S + f, n - f);
	return 0;
}

struct split {
	size_t name, namelen, body, bodylen;
	unsigned long line;	/* line of the heading */
	size_t sec;		/* index of its section in the result */
};

/*
 * re.split(r'^##\s*(.*?$)', txt, flags=re.MULTILINE): a match starts at a
 * line start with "##"; \s* takes the whole whitespace run (newlines too)
 * and the lazy group then ends at the first end of line.  Returns the
 * pieces (malloc'd, *nsp of them) and sets *startlen to the length of the
 * text before the first.
 */
static struct split *
split_h2(const char *txt, size_t n, size_t *nsp, size_t *startlen)
{
	struct split *sp = NULL;
	size_t cap = 0, pos = 0, linepos = 0, k, e;
	unsigned long line = 1;
	const char *nl;

	*nsp = 0;
	*startlen = n;
	while (pos < n) {
		if (!(txt[pos] == '#' && pos + 1 < n && txt[pos + 1] == '#' &&
		    (pos == 0 || txt[pos - 1] == '\n'))) {
			nl = memchr(txt + pos, '\n', n - pos);
			if (!nl)
				break;
			pos = (size_t)(nl - txt) + 1;
			continue;
		}
		k = bmd_py_skip_space(txt, n, pos + 2);
		nl = k < n ? memchr(txt + k, '\n', n - k) : NULL;
		e = nl ? (size_t)(nl - txt) : n;
		if (*nsp == 0)
			*startlen = pos;
		else
			sp[*nsp - 1].bodylen = pos - sp[*nsp - 1].body;
		if (*nsp == cap) {
			cap = cap ? cap * 2 : 16;
			sp = xreallocarray(sp, cap, sizeof *sp);
		}
		line += (unsigned long)count_nl(txt + linepos, k - linepos);
		linepos = k;
		sp[*nsp] = (struct split){ k, e - k, e, n - e, line, 0 };
		++*nsp;
		pos = e;
	}
	return sp;
}

/*
 * dict(chunked(rest, 2)): a name keeps its first position and takes the
 * value of its last occurrence.  Adds one section per distinct name to res
 * and returns, per section, the index of its last piece (malloc'd).
 */
static size_t *
group_sections(struct bmd_llms *res, const char *txt, struct split *sp,
    size_t nsp)
{
	struct wordset names = WORDSET_INIT;	/* distinct section names */
	size_t *last = xcalloc(nsp ? nsp : 1, sizeof *last);
	size_t i, j;

	for (i = 0; i < nsp; i++) {
		j = wordset_find(&names, txt + sp[i].name, sp[i].namelen);
		if (j == 0) {
			struct bmd_section *sec = bmd_llms_add_section(res,
			    txt + sp[i].name, sp[i].namelen, sp[i].line);

			sec->optional = sp[i].namelen == 8 &&
			    memcmp(txt + sp[i].name, "Optional", 8) == 0;
			wordset_add(&names, txt + sp[i].name, sp[i].namelen);
			j = names.n;
		}
		j--;
		assert(j < res->nsecs);
		sp[i].sec = j;
		last[j] = i;
		res->secs[j].line = sp[i].line;	/* the last occurrence */
	}
	wordset_release(&names);
	return last;
}

/*
 * The links of each section's last piece, in dict order.  Returns 0, or -1
 * with err filled at the first line that is not a link.
 */
static int
section_links(struct bmd_llms *res, const char *txt, const struct split *sp,
    size_t nsp, const size_t *last, struct bmd_ref_error *err)
{
	size_t i, j, bad, badlen;

	for (j = 0; j < res->nsecs; j++) {
		struct bmd_section *sec = &res->secs[j];

		i = last[j];
		assert(sp != NULL && i < nsp && sp[i].sec == j);
		if (parse_links(txt + sp[i].body, sp[i].bodylen, sp[i].line,
		    sec, &bad, &badlen) == 0)
			continue;
		set_err(err, "link", "AttributeError: 'NoneType' object has no "
		    "attribute 'groupdict'", "AttributeError: 'NoneType' object "
		    "has no attribute 'groupdict'", sp[i].line +
		    (unsigned long)count_nl(txt + sp[i].body, bad), sec->name.s,
		    sec->name.len, txt + sp[i].body + bad, badlen);
		return -1;
	}
	return 0;
}

struct bmd_llms *
bmd_llms_parse_ref(const char *txt, size_t n, struct bmd_ref_error *err)
{
	struct bmd_llms *res;
	struct split *sp;
	size_t *last, nsp, startlen, sb, se, e, bad;
	int rc;

	memset(err, 0, sizeof *err);
	if (!utf8_valid(txt, n, &bad)) {
		set_err(err, "decode", "UnicodeDecodeError: 'utf-8' codec can't "
		    "decode the input", "UnicodeDecodeError: 'utf-8' codec can't "
		    "decode the input", line_of(txt, bad), NULL, 0, NULL, 0);
		return NULL;
	}
	sp = split_h2(txt, n, &nsp, &startlen);
	res = xcalloc(1, sizeof *res);
	last = group_sections(res, txt, sp, nsp);
	rc = section_links(res, txt, sp, nsp, last, err);
	free(sp);
	free(last);
	if (rc == 0) {
		bmd_py_strip(txt, startlen, &sb, &se);
		if (parse_head(txt + sb, se - sb, res) == 0)
			return res;
		e = sb;
		while (e < se && txt[e] != '\n')
			e++;
		set_err(err, "header", "AttributeError: 'NoneType' object has "
		    "no attribute 'groupdict'", "TypeError: 'NoneType' object "
		    "does not support item assignment", line_of(txt, sb), NULL,
		    0, txt + sb, e - sb);
	}
	bmd_llms_free(res);
	return NULL;
}
