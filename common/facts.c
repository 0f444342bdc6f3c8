/*
 * facts.c - the fact model of facts.h.  Three layers, each calling only
 * the ones below it:
 *
 *   the set      add_fact, add_line: interning facts and lines;
 *   the lexer    tokenize: a run of text as tokens (words, identifiers,
 *                numbers, versions, quoted values, sentence ends), markup
 *                skipped; run_facts: the facts of a run;
 *   the blocks   Markdown and plain lines, tables, code blocks with their
 *                generator directives; facts_add drives them;
 *
 * and the comparison (facts_compare) on the finished sets.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "err.h"
#include "mdcode.h"
#include "utf8.h"
#include "facts.h"

#define SEP		'\x1f'	/* between kind, key and value of an identity */
#define MAXTERM		256	/* bytes of a token's normalised text */
#define MAXQUOTE	120	/* bytes inside a quoted value */
#define MAXLINE		512	/* bytes of a normalised line */
#define MAXCOLS		64	/* table columns read */
#define MAXRUN		4096	/* tokens of a run before it is cut */
#define MAXTAG		1024	/* bytes an HTML tag may span */
#define MAXFRONT	65536	/* bytes a front matter block may span */
#define ANCHOR_BACK	12	/* tokens back to an identifier */
#define WORD_NEAR	3	/* tokens to the nearest content word */

enum tok_type { T_WORD, T_IDENT, T_NUM, T_VER, T_QUOTE, T_END };

struct tok {
	unsigned char type;
	unsigned char stop;	/* T_WORD: a stop word */
	size_t off, len;	/* bytes in the text */
	size_t s, n;		/* normalised text in xs.norm */
	size_t u, nu;		/* T_NUM: its attached unit; T_VER: package */
};

enum { TB_NONE, TB_PLAIN, TB_PIPE, TB_HTML };

struct cell {
	size_t v, nv;		/* value in table.row */
	size_t off, len;	/* bytes in the text */
};

struct table {
	int kind;		/* TB_* */
	int have_hdr;
	struct buf hdr;		/* header values, each NUL-terminated */
	size_t hoff[MAXCOLS], nh;
	struct buf row;		/* the current row's values */
	struct cell c[MAXCOLS];
	size_t nc;
	int all_th;		/* HTML: every cell of the row is a <th> */
	int in_cell;		/* HTML: inside <td> or <th> */
	size_t cell_off;	/* HTML: where the open cell began */
};

/* What a code line is to the generators (see directive). */
enum { DIR_KEEP, DIR_DROP, DIR_CUT_BEFORE, DIR_CUT_AFTER, DIR_CUT_START,
	DIR_CUT_END };

/* A line of a code block. */
struct bline {
	size_t off, len;	/* bytes kept (Shiki notation removed) */
	int dir;		/* DIR_* */
	size_t v, nv;		/* normalised, in xs.blkn; nv 0: not shown */
};

/* Extraction state of one facts_add call. */
struct xs {
	struct facts *f;
	const char *t;
	size_t len, base;
	int md;			/* FACTS_MARKDOWN */
	struct tok *tk;
	size_t ntk, captk;
	struct buf norm;	/* the run's normalised token texts */
	struct buf sym;		/* the run's symbols (a cell without words) */
	size_t sym_off, sym_end;	/* their bytes in the text */
	struct buf key, val, tmp, line;
	struct table tb;
	struct bline *blk;	/* the open code block */
	size_t nblk, capblk;
	struct buf blkn;	/* its normalised lines */
	size_t lead_s, lead_e;	/* the last text line before it */
	struct buf lead;	/* that line without Markdown markers */
	int in_block;
	int diff;		/* the open block is fenced as "diff" */
	int para;		/* Markdown: a paragraph or list item is open */
	int heading;		/* the last non-blank line was a heading */
};

/* ================================================================ the set */

const char *
facts_kind_name(enum fact_kind k)
{
	static const char *const names[FACT_NKINDS] = {
		"number", "version", "quoted", "switch", "identifier", "cell",
		"code"
	};

	return (unsigned)k < FACT_NKINDS ? names[k] : "?";
}

const char *
facts_key(const struct facts *f, size_t id)
{
	return f->str.s + f->d[id].key;
}

const char *
facts_value(const struct facts *f, size_t id)
{
	return f->str.s + f->d[id].value;
}

/* The identity of (kind, key, value) in out. */
static void
identity(struct buf *out, enum fact_kind k, const char *key, size_t klen,
    const char *val, size_t vlen)
{
	buf_reset(out);
	buf_addc(out, '0' + (int)k);
	buf_add(out, key, klen);
	buf_addc(out, SEP);
	buf_add(out, val, vlen);
}

size_t
facts_find(const struct facts *f, enum fact_kind kind, const char *key,
    const char *value)
{
	struct buf id = BUF_INIT;
	size_t r;

	identity(&id, kind, key, strlen(key), value, strlen(value));
	r = wordset_find(&f->ids, id.s, id.len);
	buf_release(&id);
	return r;
}

static size_t
str_add(struct buf *b, const char *s, size_t n)
{
	size_t off = b->len;

	buf_add(b, s, n);
	buf_addc(b, '\0');
	return off;
}

static int
kind_has_atom(enum fact_kind k)
{
	return k == FACT_NUMBER || k == FACT_VERSION || k == FACT_QUOTED ||
	    k == FACT_SWITCH || k == FACT_IDENT;
}

/*
 * Add an occurrence of (k, key, val) at text bytes [off, off + len);
 * atom is its atom (a number without its unit), next a code line's next
 * line (NULL when none).  Returns the distinct fact's index, FACTS_NONE
 * when the set is full.
 */
static size_t
add_fact(struct xs *x, enum fact_kind k, const char *key, size_t klen,
    const char *val, size_t vlen, size_t off, size_t len, const char *atom,
    size_t alen, const char *next, size_t nlen)
{
	struct facts *f = x->f;
	size_t pos;

	if (f->n >= FACTS_MAX) {
		f->truncated = 1;
		return FACTS_NONE;
	}
	identity(&x->tmp, k, key, klen, val, vlen);
	pos = wordset_find(&f->ids, x->tmp.s, x->tmp.len);
	if (pos == 0) {
		struct fact_def *d;

		wordset_add(&f->ids, x->tmp.s, x->tmp.len);
		if (f->nd == f->capd)
			f->d = xreallocarray(f->d, f->capd = f->capd ? 2 *
			    f->capd : 64, sizeof *f->d);
		d = &f->d[f->nd];
		d->kind = k;
		d->key = str_add(&f->str, key, klen);
		d->value = str_add(&f->str, val, vlen);
		d->count = 0;
		d->first = f->n;
		d->next = next ? str_add(&f->str, next, nlen) : FACTS_NONE;
		d->col = 0;
		pos = ++f->nd;
		if (kind_has_atom(k) && wordset_find(&f->atoms, atom, alen) == 0)
			wordset_add(&f->atoms, atom, alen);
	}
	f->d[pos - 1].count++;
	if (f->n == f->cap)
		f->v = xreallocarray(f->v, f->cap = f->cap ? 2 * f->cap : 256,
		    sizeof *f->v);
	f->v[f->n].id = pos - 1;
	f->v[f->n].off = x->base + off;
	f->v[f->n].len = len;
	f->n++;
	return pos - 1;
}

/* Cut n to at most max bytes without splitting a UTF-8 sequence. */
static size_t
cap_utf8(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

static int
is_blank_byte(unsigned char c)
{
	return c == ' ' || c == '\t' || c < 0x20 || c == 0x7F;
}

/*
 * text[s..e) trimmed, white space runs (and control characters) made one
 * space, invalid UTF-8 made U+FFFD, at most MAXLINE bytes, into out.
 */
static void
norm_line(const char *t, size_t s, size_t e, struct buf *out)
{
	int sp = 0;

	buf_reset(out);
	while (s < e && out->len < MAXLINE + 4) {
		unsigned char c = (unsigned char)t[s];
		uint32_t cp;
		int n;

		if (is_blank_byte(c)) {
			sp = out->len > 0;
			s++;
			continue;
		}
		if (sp)
			buf_addc(out, ' ');
		sp = 0;
		if (c < 0x80) {
			buf_addc(out, c);
			s++;
			continue;
		}
		n = utf8_decode((const unsigned char *)t + s, e - s, &cp);
		if (n == 0) {
			buf_adds(out, "\xEF\xBF\xBD");
			s++;
		} else {
			buf_add(out, t + s, (size_t)n);
			s += (size_t)n;
		}
	}
	buf_setlen(out, cap_utf8(out->s ? out->s : "", out->len, MAXLINE));
}

/* Record the line text[s..e) (nothing when blank); returns its id + 1. */
static size_t
add_line(struct xs *x, size_t s, size_t e)
{
	struct facts *f = x->f;
	size_t pos;

	norm_line(x->t, s, e, &x->line);
	if (x->line.len == 0 || f->nseq >= FACTS_MAX)
		return 0;
	if (f->nseq == f->capseq) {
		f->capseq = f->capseq ? 2 * f->capseq : 256;
		f->seq = xreallocarray(f->seq, f->capseq, sizeof *f->seq);
		f->line_first = xreallocarray(f->line_first, f->capseq,
		    sizeof *f->line_first);
	}
	pos = wordset_find(&f->lines, x->line.s, x->line.len);
	wordset_add(&f->lines, x->line.s, x->line.len);
	if (pos == 0) {
		pos = f->lines.n;
		f->line_first[pos - 1] = f->nseq;
	}
	f->seq[f->nseq].id = pos - 1;
	f->seq[f->nseq].off = x->base + s;
	f->seq[f->nseq].len = e - s;
	f->nseq++;
	return pos;
}

void
facts_release(struct facts *f)
{
	free(f->v);
	free(f->d);
	buf_release(&f->str);
	wordset_release(&f->ids);
	wordset_release(&f->atoms);
	wordset_release(&f->runs);
	free(f->rseq);
	free(f->run_first);
	wordset_release(&f->lines);
	free(f->seq);
	free(f->line_first);
	memset(f, 0, sizeof *f);
}

/* ================================================================ the lexer */

/* Decode one character of t[i..to): its code point; *adv its bytes. */
static uint32_t
getch(const struct xs *x, size_t i, size_t to, size_t *adv)
{
	static const struct { const char *name; uint32_t cp; } ent[] = {
		{ "amp", '&' }, { "apos", '\'' }, { "gt", '>' },
		{ "hellip", 0x2026 }, { "ldquo", 0x201C }, { "lsquo", 0x2018 },
		{ "lt", '<' }, { "mdash", 0x2014 }, { "nbsp", 0xA0 },
		{ "ndash", 0x2013 }, { "quot", '"' }, { "rdquo", 0x201D },
		{ "rsquo", 0x2019 }
	};
	const unsigned char *p = (const unsigned char *)x->t + i;
	size_t n = to - i, k, j;
	uint32_t cp;
	int r;

	*adv = 1;
	if (p[0] == '&' && n > 2) {
		for (k = 1; k < n && k < 10 && p[k] != ';'; k++)
			;
		if (k < n && p[k] == ';' && p[1] == '#') {
			char *end;
			unsigned long v = strtoul((const char *)p + 2 +
			    (p[2] == 'x' || p[2] == 'X'), &end, (p[2] == 'x' ||
			    p[2] == 'X') ? 16 : 10);

			if (end == (const char *)p + k && v > 0 && v < 0x110000 &&
			    (v < 0xD800 || v > 0xDFFF)) {
				*adv = k + 1;
				return (uint32_t)v;
			}
		} else if (k < n && p[k] == ';') {
			for (j = 0; j < sizeof ent / sizeof ent[0]; j++)
				if (strlen(ent[j].name) == k - 1 && memcmp(p + 1,
				    ent[j].name, k - 1) == 0) {
					*adv = k + 1;
					return ent[j].cp;
				}
		}
	}
	if (p[0] == '\\' && x->md && n > 1 && p[1] < 0x80 && ispunct(p[1])) {
		*adv = 2;
		return p[1] == '_' ? '_' : 0x110000 + p[1];	/* a literal */
	}
	if (p[0] < 0x80)
		return p[0];
	r = utf8_decode(p, n, &cp);
	if (r == 0)
		return 0xFFFD;
	*adv = (size_t)r;
	return cp;
}

static int
is_space(uint32_t c)
{
	return c <= 0x20 || c == 0x7F || c == 0xA0 || (c >= 0x2000 &&
	    c <= 0x200B) || c == 0x202F || c == 0x3000 || c == 0xFEFF;
}

static int
is_alnum(uint32_t c)
{
	if (c < 0x80)
		return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' &&
		    (c | 0x20) <= 'z');
	return words_is_char((long)c);
}

static int
is_dquote(uint32_t c)
{
	return c == '"' || (c >= 0x201C && c <= 0x201F);
}

static int
is_squote(uint32_t c)
{
	return c == '\'' || (c >= 0x2018 && c <= 0x201B);
}

static int
is_upper(uint32_t c)
{
	return c < 0x110000 && utf8proc_category((utf8proc_int32_t)c) ==
	    UTF8PROC_CATEGORY_LU;
}

static int
is_lower(uint32_t c)
{
	return c < 0x110000 && utf8proc_category((utf8proc_int32_t)c) ==
	    UTF8PROC_CATEGORY_LL;
}

/* Characters that join the parts of a term: "a.b", "a/b", "x@1.2". */
static int
is_connector(uint32_t c)
{
	return c == '.' || c == '-' || c == '/' || c == '@' || c == ':' ||
	    c == '+' || c == '=';
}

static void
norm_addc(struct buf *b, size_t start, uint32_t c)
{
	char tmp[4];
	int n;

	if (c >= 0x110000)
		c -= 0x110000;
	n = utf8_encode(c, tmp);
	if (n > 0 && b->len - start + (size_t)n <= MAXTERM)
		buf_add(b, tmp, (size_t)n);
}

static struct tok *
push_tok(struct xs *x, int type, size_t off, size_t len)
{
	struct tok *t;

	if (x->ntk == x->captk)
		x->tk = xreallocarray(x->tk, x->captk = x->captk ? 2 * x->captk :
		    64, sizeof *x->tk);
	t = &x->tk[x->ntk++];
	memset(t, 0, sizeof *t);
	t->type = (unsigned char)type;
	t->off = off;
	t->len = len;
	return t;
}

static const char *const units[] = {
	"%", "attempt", "attempts", "b", "bit", "bits", "byte", "bytes", "char",
	"chars", "character", "characters", "column", "columns", "connection",
	"connections", "core", "cores", "d", "day", "days", "em", "file",
	"files", "fps", "gb", "gib", "h", "hour", "hours", "hr", "hrs", "hz",
	"item", "items", "k", "kb", "kib", "line", "lines", "m", "mb", "mib",
	"min", "mins", "minute", "minutes", "month", "months", "ms", "ns",
	"page", "pages", "pt", "px", "question", "questions", "rem", "request",
	"requests", "retries", "retry", "row", "rows", "s", "sec", "second",
	"seconds", "secs", "sentence", "sentences", "site", "sites", "step",
	"steps", "tb", "thread", "threads", "time", "times", "tib", "token",
	"tokens", "us", "week", "weeks", "word", "words", "worker", "workers",
	"x", "year", "years"
};

static int
cmp_unit(const void *a, const void *b)
{
	return strcmp(a, *(const char *const *)b);
}

/* Is s[0..n) (any case) a unit? */
static int
is_unit(const char *s, size_t n)
{
	char low[16];
	size_t i;

	if (n == 0 || n >= sizeof low)
		return 0;
	for (i = 0; i < n; i++)
		low[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] | 0x20 : s[i]);
	low[n] = '\0';
	return bsearch(low, units, sizeof units / sizeof units[0],
	    sizeof units[0], cmp_unit) != NULL;
}

static int
digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return (int)i;
}

/*
 * A version at s[0..n): "v"?, digits, one or more "." parts of digits,
 * "x" or "*", an optional "-" or "+" suffix; two dots, a "v" or an "x"
 * part make it a version rather than a decimal number.  Returns the
 * offset where the digits start (after "v"), or -1.
 */
static int
version_at(const char *s, size_t n)
{
	size_t i = 0, dots = 0;
	int v = 0, x = 0, d;

	if (n > 1 && (s[0] == 'v' || s[0] == 'V')) {
		v = 1;
		i = 1;
	}
	if ((d = digits(s + i, n - i)) == 0)
		return -1;
	i += (size_t)d;
	while (i + 1 < n && s[i] == '.') {
		if ((d = digits(s + i + 1, n - i - 1)) > 0)
			i += 1 + (size_t)d;
		else if (s[i + 1] == 'x' || s[i + 1] == 'X') {
			x = 1;
			i += 2;
		} else
			break;
		dots++;
	}
	if (dots == 0 || !(v || x || dots >= 2))
		return -1;
	if (i < n && s[i] != '-' && s[i] != '+')
		return -1;
	for (; i < n; i++)
		if (!(is_alnum((unsigned char)s[i]) || s[i] == '.' ||
		    s[i] == '-' || s[i] == '+'))
			return -1;
	return v;
}

/* Lower-case the word at norm[start..] in place (full Unicode). */
static void
lower_word(struct xs *x, size_t start)
{
	size_t i = start, end = x->norm.len;

	buf_reset(&x->tmp);
	while (i < end) {
		uint32_t cp;
		int n = utf8_decode((const unsigned char *)x->norm.s + i, end - i,
		    &cp);

		if (n == 0)
			n = 1;
		norm_addc(&x->tmp, 0, (uint32_t)utf8proc_tolower(
		    (utf8proc_int32_t)cp));
		i += (size_t)n;
	}
	buf_setlen(&x->norm, start);
	buf_add(&x->norm, x->tmp.s ? x->tmp.s : "", x->tmp.len);
}

/* A version or a number at norm[start..]: its token filled in, 1; else 0. */
static int
value_term(struct tok *t, const char *s, size_t n, size_t start)
{
	size_t i, e;
	int d, v, sign;

	for (i = n; i > 1; i--)		/* "larkspur@2.1.0", "pkg==1.2.3" */
		if ((s[i - 1] == '@' || s[i - 1] == '=') && i - 1 > 0 &&
		    (v = version_at(s + i, n - i)) >= 0) {
			size_t p = i - 1;

			while (p > 0 && (s[p - 1] == '=' || s[p - 1] == '~'))
				p--;
			t->type = T_VER;
			t->u = start;
			t->nu = p;
			t->s = start + i + (size_t)v;
			t->n = n - i - (size_t)v;
			return 1;
		}
	if ((v = version_at(s, n)) >= 0) {
		t->type = T_VER;
		t->s = start + (size_t)v;
		t->n = n - (size_t)v;
		return 1;
	}
	sign = s[0] == '-' || s[0] == '+';
	if ((d = digits(s + sign, n - (size_t)sign)) == 0)
		return 0;
	e = (size_t)(sign + d);
	if (e + 1 < n && s[e] == '.' && digits(s + e + 1, n - e - 1) > 0)
		e += 1 + (size_t)digits(s + e + 1, n - e - 1);
	if (e < n && !is_unit(s + e, n - e))
		return 0;
	t->type = T_NUM;
	t->n = e;
	t->u = start + e;
	t->nu = n - e;
	return 1;
}

/*
 * An identifier's shape: "a_b", "camelCase", "a.b", "utf8", "2026-11-20",
 * "X-Request-Id" (not "built-in" or "Warm-up"); *dig set when it has a
 * digit.
 */
static int
ident_shape(const char *s, size_t n, int *dig)
{
	int camel = 0, alpha = 0, conn = 0, under = 0, upper = 0, hyph = 0;
	size_t i;

	*dig = 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '_')
			under = 1;
		else if (c >= '0' && c <= '9')
			*dig = 1;
		else if (c == '-')
			hyph = 1;
		else if (c >= 'A' && c <= 'Z') {
			upper |= i > 0;		/* past an initial capital */
			if (i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z')
				camel = 1;
		} else if (is_connector(c))
			conn = 1;
		else
			alpha = 1;
	}
	return under || camel || conn || (*dig && (alpha || upper || hyph)) ||
	    (hyph && upper);
}

/* What the term at norm[start..] is, its token filled in. */
static void
classify(struct xs *x, struct tok *t, size_t start, int sigil)
{
	const char *s = x->norm.s + start;
	size_t n = x->norm.len - start;
	int dig;

	t->s = start;
	t->n = n;
	if (value_term(t, s, n, start))
		return;
	if (ident_shape(s, n, &dig) || sigil) {
		t->type = T_IDENT;
		return;
	}
	t->type = T_WORD;
	lower_word(x, start);
	t->n = x->norm.len - start;
	t->stop = (utf8_count(x->norm.s + start, t->n) < 2 && !dig) ||
	    words_is_stop(x->norm.s + start);
}

/*
 * The term scanned at t[i..j), normalised at norm[start..] (after a sigil
 * of that many bytes): emphasis underscores around it dropped ("_word_"),
 * its token pushed and classified, a '%' after a number taken as its unit.
 * Returns where the text goes on.
 */
static size_t
end_term(struct xs *x, size_t i, size_t j, size_t to, size_t start, int sigil)
{
	size_t a = start + (size_t)sigil, b = x->norm.len;
	struct tok *tk;

	while (a < b && x->norm.s[a] == '_')
		a++;
	while (b > a && x->norm.s[b - 1] == '_')
		b--;
	if (a == b) {
		buf_setlen(&x->norm, start);
		return j > i ? j : i + 1;
	}
	memmove(x->norm.s + start + sigil, x->norm.s + a, b - a);
	buf_setlen(&x->norm, start + (size_t)sigil + (b - a));
	tk = push_tok(x, T_WORD, i, j - i);
	classify(x, tk, start, sigil > 0);
	if (tk->type == T_NUM && tk->nu == 0 && j < to && x->t[j] == '%') {
		tk->u = x->norm.len;
		tk->nu = 1;
		buf_addc(&x->norm, '%');
		tk->len = ++j - i;
	}
	return j;
}

/*
 * Scan the term at t[i..to): letters, digits, '_', connectors between
 * them, a leading "-", "--", "@", "$", "/" or "." (sigil); thousands
 * separators of a number dropped.  Pushes its token; returns its end.
 */
static size_t
scan_term(struct xs *x, size_t i, size_t to, int sigil)
{
	const char *t = x->t;
	size_t start = x->norm.len, j = i, adv, k, kadv;
	uint32_t c, prev = 0, nx;
	int alldig = 1;

	for (k = 0; k < (size_t)sigil; k++)
		buf_addc(&x->norm, t[j++]);
	while (j < to) {
		c = getch(x, j, to, &adv);
		if (is_alnum(c) || c == '_') {
			if (c < '0' || c > '9')
				alldig = 0;
			norm_addc(&x->norm, start, c);
			prev = c;
			j += adv;
			continue;
		}
		if (is_squote(c) && is_alnum(prev) && j + adv < to &&
		    is_alnum(getch(x, j + adv, to, &kadv))) {
			norm_addc(&x->norm, start, '\'');
			prev = '\'';
			j += adv;
			continue;
		}
		if (c == ',' && alldig && j + 3 < to && isdigit((unsigned char)t[j + 1]) &&
		    isdigit((unsigned char)t[j + 2]) && isdigit((unsigned char)t[j + 3]) &&
		    (j + 4 >= to || !isdigit((unsigned char)t[j + 4]))) {
			j++;
			continue;
		}
		if (!is_connector(c))
			break;
		for (k = j; k < to && k - j < 8 && is_connector((unsigned char)t[k]); k++)
			;
		if (k >= to)
			break;
		nx = getch(x, k, to, &kadv);
		if (!is_alnum(nx) && nx != '_')
			break;
		if (k == j + 1 && c == '.' && is_lower(prev) && is_upper(nx))
			break;		/* "declare.Set": two sentences */
		for (; j < k; j++)
			norm_addc(&x->norm, start, (unsigned char)t[j]);
		alldig = 0;
		prev = c;
	}
	return end_term(x, i, j, to, start, sigil);
}

static int
open_ok(uint32_t pc)
{
	return is_space(pc) || (pc < 0x80 && strchr("([{=:,;>|`*_~", (int)pc) &&
	    pc != 0);
}

/*
 * A quoted value opening at t[i] with the quote character q: its closing
 * quote of the same family, followed by no letter or digit, within
 * MAXQUOTE bytes.  Pushes a T_QUOTE token and returns its end, or 0.
 */
static size_t
scan_quote(struct xs *x, size_t i, size_t to, uint32_t q)
{
	size_t j, adv, start = x->norm.len, lim = i + MAXQUOTE + 8;
	uint32_t c;
	int dq = is_dquote(q), sp = 0;
	struct tok *tk;

	getch(x, i, to, &adv);
	j = i + adv;
	if (lim > to)
		lim = to;
	while (j < lim) {
		c = getch(x, j, to, &adv);
		if (c == '\n')
			break;
		if ((dq && is_dquote(c)) || (!dq && is_squote(c))) {
			size_t kadv;

			if (j + adv < to && is_alnum(getch(x, j + adv, to, &kadv))) {
				if (dq)
					break;	/* "a"b: not a quote */
				norm_addc(&x->norm, start, '\'');
				j += adv;
				continue;	/* an apostrophe inside */
			}
			if (x->norm.len == start)
				break;
			tk = push_tok(x, T_QUOTE, i, j + adv - i);
			tk->s = start;
			tk->n = x->norm.len - start;
			return j + adv;
		}
		if (is_space(c)) {
			sp = x->norm.len > start;
		} else if (c != '`' && c != '*') {
			if (sp)
				norm_addc(&x->norm, start, ' ');
			sp = 0;
			norm_addc(&x->norm, start, c);
		}
		j += adv;
	}
	buf_setlen(&x->norm, start);
	return 0;
}

/* Where the HTML tag (or comment) at t[i] == '<' ends, or 0 if none. */
static size_t
tag_end(const struct xs *x, size_t i, size_t to)
{
	const char *t = x->t;
	size_t j, lim = i + MAXTAG < to ? i + MAXTAG : to;
	unsigned char c;

	if (i + 1 >= to)
		return 0;
	c = (unsigned char)t[i + 1];
	if (!(isalpha(c) || c == '/' || c == '!' || c == '?'))
		return 0;
	for (j = i + 1; j < lim; j++) {
		if (t[j] == '>')
			return j + 1;
		if (t[j] == '<' || t[j] == '\n')
			return 0;
	}
	return 0;
}

static void
push_end(struct xs *x, size_t i)
{
	if (x->ntk > 0 && x->tk[x->ntk - 1].type != T_END)
		push_tok(x, T_END, i, 1);
}

static void flush_run(struct xs *);

/*
 * How far tokenize's scans for markup got: noimg and linkscan how far a
 * scan found nothing, so that no byte is scanned twice for the same
 * reason; mdx where the closing '"}' of an MDX string expression is.
 */
struct scan {
	size_t noimg, linkscan, mdx;
};
#define SCAN_INIT { 0, 0, FACTS_NONE }

/*
 * An MDX string expression opening at t[i] == '{': '{"' and its closing
 * '"}' on the line, within MAXQUOTE bytes, with no '"' between; MDX
 * renders the string, so docusaurus-plugin-llms's <code>{"{}"}</code> is
 * the page's "{}".  Returns where the '"}' is, or FACTS_NONE.  The scan
 * stops at the first '"', so scans from two openings never overlap.
 */
static size_t
mdx_string(const struct xs *x, size_t i, size_t to)
{
	const char *t = x->t;
	size_t k, lim = i + 2 + MAXQUOTE < to ? i + 2 + MAXQUOTE : to;

	if (t[i + 1] != '"')
		return FACTS_NONE;
	for (k = i + 2; k + 1 < lim && t[k] != '"' && t[k] != '\n'; k++)
		;
	return k + 1 < lim && t[k] == '"' && t[k + 1] == '}' ? k : FACTS_NONE;
}

/*
 * Markup at t[i] (character c) to skip: an HTML tag, and in Markdown an
 * image's "![alt]", a link's "](destination)" and the braces and quotes
 * of an MDX string expression.  Returns where it ends, or 0.
 */
static size_t
skip_markup(const struct xs *x, size_t i, size_t to, uint32_t c,
    struct scan *sc)
{
	const char *t = x->t;
	size_t k;

	if (c == '<')
		return tag_end(x, i, to);
	if (!x->md || i + 1 >= to)
		return 0;
	if (i == sc->mdx)
		return i + 2;	/* the '"}' closing an MDX string */
	if (c == '{' && (k = mdx_string(x, i, to)) != FACTS_NONE) {
		sc->mdx = k;
		return i + 2;
	}
	if (c == '!' && t[i + 1] == '[' && i >= sc->noimg) {
		for (k = i + 2; k < to && t[k] != ']' && t[k] != '\n'; k++)
			;
		if (k < to && t[k] == ']')
			return k;	/* the "](" of its destination follows */
		sc->noimg = k;
	}
	if (c == ']' && t[i + 1] == '(' && i + 2 >= sc->linkscan) {
		for (k = i + 2; k < to && t[k] != ')' && !is_blank_byte(
		    (unsigned char)t[k]); k++)
			;
		sc->linkscan = k;
		if (k < to && t[k] == ')')
			return k + 1;
	}
	return 0;
}

/*
 * Does a term start at t[i] (character c, after pc)?  Returns 1 + the
 * length of its sigil ("-", "--", "@", "$", "/", "." before a letter or
 * digit, after a blank or an opening mark), or 0.
 */
static size_t
term_start(const struct xs *x, size_t i, size_t to, uint32_t c, uint32_t pc)
{
	size_t n, adv;
	uint32_t nx;

	if (is_alnum(c) || c == '_')
		return 1;
	if (!(c == '-' || c == '@' || c == '$' || c == '/' || c == '.') ||
	    !open_ok(pc))
		return 0;
	n = c == '-' && i + 1 < to && x->t[i + 1] == '-' ? 2 : 1;
	nx = i + n < to ? getch(x, i + n, to, &adv) : ' ';
	if (is_alnum(nx) && !(c == '.' && nx >= '0' && nx <= '9'))
		return 1 + n;
	return 0;
}

/*
 * The tokens of t[from..to) appended to the run.  Markup is skipped:
 * HTML tags, and in Markdown link destinations, images and escapes; the
 * characters of emphasis, code spans and tables separate tokens.
 */
static void
tokenize(struct xs *x, size_t from, size_t to)
{
	size_t i = from, adv, e;
	uint32_t c, pc = ' ';
	struct scan sc = SCAN_INIT;

	while (i < to) {
		if (x->ntk >= MAXRUN)
			flush_run(x);
		c = getch(x, i, to, &adv);
		if (is_space(c)) {
			pc = ' ';
			i += adv;
			continue;
		}
		if ((e = skip_markup(x, i, to, c, &sc)) > 0) {
			pc = ' ';
			i = e;
			continue;
		}
		if ((is_dquote(c) || is_squote(c)) && open_ok(pc) &&
		    (e = scan_quote(x, i, to, c)) > 0) {
			pc = ' ';
			i = e;
			continue;
		}
		if ((e = term_start(x, i, to, c, pc)) > 0) {
			i = scan_term(x, i, to, (int)e - 1);
			pc = 'a';
			continue;
		}
		if (c == '.' || c == '!' || c == '?' || c == ';') {
			uint32_t nx = i + adv < to ? getch(x, i + adv, to, &e) : ' ';

			if (is_space(nx) || is_upper(nx) || (nx < 0x80 &&
			    strchr(")]}*_`\"'", (int)nx) && nx != 0) ||
			    is_dquote(nx) || is_squote(nx))
				push_end(x, i);
		} else if (c != '`' && c != '*' && c != '|' && x->sym.len < 32) {
			if (x->sym.len == 0)
				x->sym_off = i;
			norm_addc(&x->sym, 0, c);
			x->sym_end = i + adv;
		}
		pc = c;
		i += adv;
	}
}

/* ---------------------------------------------------------------- run facts */

static void
add_tok(struct buf *b, const struct xs *x, const struct tok *t)
{
	buf_add(b, x->norm.s + t->s, t->n);
}

/*
 * The key of the value token i whose last token (its unit) is at after:
 * "ident left _ right", the parts that exist; empty when none does.
 */
static void
context_key(struct xs *x, size_t i, size_t after)
{
	const struct tok *anchor = NULL, *left = NULL, *right = NULL;
	size_t j, lo;

	lo = i > ANCHOR_BACK ? i - ANCHOR_BACK : 0;
	for (j = i; j-- > lo && x->tk[j].type != T_END;)
		if (x->tk[j].type == T_IDENT) {
			anchor = &x->tk[j];
			break;
		}
	lo = i > WORD_NEAR ? i - WORD_NEAR : 0;
	for (j = i; j-- > lo && x->tk[j].type != T_END;)
		if (x->tk[j].type == T_WORD && !x->tk[j].stop) {
			left = &x->tk[j];
			break;
		}
	for (j = after + 1; j < x->ntk && j <= after + WORD_NEAR &&
	    x->tk[j].type != T_END; j++)
		if (x->tk[j].type == T_WORD && !x->tk[j].stop) {
			right = &x->tk[j];
			break;
		}
	buf_reset(&x->key);
	if (!anchor && !left && !right)
		return;
	if (anchor) {
		add_tok(&x->key, x, anchor);
		buf_addc(&x->key, ' ');
	}
	if (left) {
		add_tok(&x->key, x, left);
		buf_addc(&x->key, ' ');
	}
	buf_addc(&x->key, '_');
	if (right) {
		buf_addc(&x->key, ' ');
		add_tok(&x->key, x, right);
	}
}

/* A number fact: the number, its unit (attached or the next word). */
static void
number_fact(struct xs *x, size_t i)
{
	const struct tok *t = &x->tk[i], *u = NULL;
	size_t after = i, len = t->len, k;

	buf_reset(&x->val);
	add_tok(&x->val, x, t);
	if (t->nu > 0)
		u = t;
	else if (i + 1 < x->ntk && x->tk[i + 1].type == T_WORD &&
	    is_unit(x->norm.s + x->tk[i + 1].s, x->tk[i + 1].n)) {
		after = i + 1;
		len = x->tk[after].off + x->tk[after].len - t->off;
	}
	buf_addc(&x->val, ' ');
	if (u)
		buf_add(&x->val, x->norm.s + t->u, t->nu);
	else if (after > i)
		add_tok(&x->val, x, &x->tk[after]);
	else
		buf_setlen(&x->val, x->val.len - 1);
	for (k = t->n; k < x->val.len; k++)
		if (x->val.s[k] >= 'A' && x->val.s[k] <= 'Z')
			x->val.s[k] |= 0x20;
	context_key(x, i, after);
	add_fact(x, FACT_NUMBER, x->key.s ? x->key.s : "", x->key.len, x->val.s,
	    x->val.len, t->off, len, x->norm.s + t->s, t->n, NULL, 0);
}

/* The T_WORD at i is an on/off value next to "default" (see facts.h)? */
static int
is_switch(const struct xs *x, size_t i)
{
	static const char *const sw[] = { "disabled", "enabled", "false", "no",
		"off", "on", "true", "yes" };
	const struct tok *t = &x->tk[i];
	size_t j, k, lo = i > WORD_NEAR ? i - WORD_NEAR : 0;

	for (k = 0; k < sizeof sw / sizeof sw[0]; k++)
		if (t->n == strlen(sw[k]) && memcmp(x->norm.s + t->s, sw[k],
		    t->n) == 0)
			break;
	if (k == sizeof sw / sizeof sw[0])
		return 0;
	for (j = lo; j < x->ntk && j <= i + WORD_NEAR; j++) {
		const struct tok *d = &x->tk[j];

		if (d->type == T_END) {
			if (j < i)
				continue;
			break;
		}
		if (d->type == T_WORD && (t != d) && ((d->n == 7 && memcmp(
		    x->norm.s + d->s, "default", 7) == 0) || (d->n == 8 &&
		    memcmp(x->norm.s + d->s, "defaults", 8) == 0)))
			return 1;
	}
	return 0;
}

/* The facts of the run's tokens. */
static void
run_facts(struct xs *x)
{
	size_t i;

	for (i = 0; i < x->ntk; i++) {
		const struct tok *t = &x->tk[i];
		const char *s = x->norm.s + t->s;

		switch (t->type) {
		case T_IDENT:
			add_fact(x, FACT_IDENT, "", 0, s, t->n, t->off, t->len, s,
			    t->n, NULL, 0);
			break;
		case T_NUM:
			number_fact(x, i);
			break;
		case T_VER:
			if (t->nu > 0) {
				buf_reset(&x->key);
				buf_add(&x->key, x->norm.s + t->u, t->nu);
			} else
				context_key(x, i, i);
			add_fact(x, FACT_VERSION, x->key.s ? x->key.s : "",
			    x->key.len, s, t->n, t->off, t->len, s, t->n, NULL, 0);
			break;
		case T_QUOTE:
			context_key(x, i, i);
			add_fact(x, FACT_QUOTED, x->key.s ? x->key.s : "",
			    x->key.len, s, t->n, t->off, t->len, s, t->n, NULL, 0);
			break;
		case T_WORD:
			if (!is_switch(x, i))
				break;
			context_key(x, i, i);
			add_fact(x, FACT_SWITCH, x->key.s ? x->key.s : "",
			    x->key.len, s, t->n, t->off, t->len, s, t->n, NULL, 0);
			break;
		default:
			break;
		}
	}
}

/* The run's tokens joined by spaces (what a cell's value is) into out. */
static void
run_value(const struct xs *x, struct buf *out)
{
	size_t i;

	buf_reset(out);
	for (i = 0; i < x->ntk && out->len < MAXTERM; i++) {
		const struct tok *t = &x->tk[i];

		if (t->type == T_END)
			continue;
		if (out->len > 0)
			buf_addc(out, ' ');
		if (t->type == T_VER && t->nu > 0) {
			buf_add(out, x->norm.s + t->u, t->nu);
			buf_addc(out, '@');
		}
		buf_add(out, x->norm.s + t->s, t->n);
		if (t->type == T_NUM && t->nu > 0)
			buf_add(out, x->norm.s + t->u, t->nu);
	}
	if (out->len == 0)
		buf_add(out, buf_str(&x->sym), x->sym.len);
	buf_setlen(out, cap_utf8(buf_str(out), out->len, MAXTERM));
}

/* Record the run's value in f's runs, in order, with its bytes. */
static void
add_run(struct xs *x)
{
	struct facts *f = x->f;
	size_t pos, off, end;

	run_value(x, &x->val);
	if (x->val.len == 0 || f->nrseq >= FACTS_MAX)
		return;
	if (f->nrseq == f->caprseq) {
		f->caprseq = f->caprseq ? 2 * f->caprseq : 256;
		f->rseq = xreallocarray(f->rseq, f->caprseq, sizeof *f->rseq);
		f->run_first = xreallocarray(f->run_first, f->caprseq,
		    sizeof *f->run_first);
	}
	if ((pos = wordset_find(&f->runs, x->val.s, x->val.len)) == 0) {
		wordset_add(&f->runs, x->val.s, x->val.len);
		pos = f->runs.n;
		f->run_first[pos - 1] = f->nrseq;
	}
	if (x->ntk > 0) {
		off = x->tk[0].off;
		end = x->tk[x->ntk - 1].off + x->tk[x->ntk - 1].len;
	} else {	/* a run of symbols only: "{}" */
		off = x->sym_off;
		end = x->sym_end;
	}
	f->rseq[f->nrseq].id = pos - 1;
	f->rseq[f->nrseq].off = x->base + off;
	f->rseq[f->nrseq].len = end > off ? end - off : 0;
	f->nrseq++;
}

static void
flush_run(struct xs *x)
{
	add_run(x);
	run_facts(x);
	x->ntk = 0;
	buf_reset(&x->norm);
	buf_reset(&x->sym);
}

/* ================================================================ the blocks */

static int
starts(const char *t, size_t s, size_t e, const char *w)
{
	size_t n = strlen(w);

	return e - s >= n && memcmp(t + s, w, n) == 0;
}

static int
starts_ci(const char *t, size_t s, size_t e, const char *w)
{
	size_t n = strlen(w);

	return e - s >= n && strncasecmp(t + s, w, n) == 0;
}

static size_t
skip_sp(const char *t, size_t p, size_t e)
{
	while (p < e && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return p;
}

static size_t
trim_end(const char *t, size_t s, size_t e)
{
	while (e > s && is_blank_byte((unsigned char)t[e - 1]))
		e--;
	return e;
}

/* The comment opener ending at t[p] (exclusive), or 0 when none. */
static size_t
opener_before(const char *t, size_t s, size_t p)
{
	static const char *const op[] = { "{/*", "<!--", "/*", "//", "--", "#",
		";", "%", "'" };
	size_t i, n;

	for (i = 0; i < sizeof op / sizeof op[0]; i++) {
		n = strlen(op[i]);
		if (p - s >= n && memcmp(t + p - n, op[i], n) == 0)
			return n;
	}
	return 0;
}

/*
 * Shiki's notation "[!code word]" (Shiki's transformers: [!code ++],
 * [!code --], [!code highlight], [!code focus], [!code error],
 * [!code warning], [!code word:x]) at the end of t[s..e): where the
 * comment holding it starts, else e.
 */
static size_t
shiki_cut(const char *t, size_t s, size_t e)
{
	size_t p, q, n;

	for (p = s; p + 7 <= e; p++) {
		if (t[p] != '[' || memcmp(t + p, "[!code ", 7) != 0)
			continue;
		for (q = p + 7; q < e && t[q] != ']' && t[q] != '\n'; q++)
			;
		if (q >= e)
			return e;
		q = p;
		while (q > s && (t[q - 1] == ' ' || t[q - 1] == '\t'))
			q--;
		if ((n = opener_before(t, s, q)) == 0)
			return e;
		return trim_end(t, s, q - n);
	}
	return e;
}

/* t[p..e) (trailing blanks and the comment closers removed) is w. */
static int
rest_is(const char *t, size_t p, size_t e, const char *w)
{
	size_t n = strlen(w);

	e = trim_end(t, p, e);
	if (e - p >= 3 && memcmp(t + e - 3, "*/}", 3) == 0)
		e -= 3;
	else if (e - p >= 2 && memcmp(t + e - 2, "*/", 2) == 0)
		e -= 2;
	else if (e - p >= 3 && memcmp(t + e - 3, "-->", 3) == 0)
		e -= 3;
	e = trim_end(t, p, e);
	return e - p == n && memcmp(t + p, w, n) == 0;
}

/*
 * What the code line t[s..e) is to the generators that hide it, and in
 * *kend where its kept bytes end.  Twoslash (the twoslash README's
 * "// ^?", "// ^|", "// ^^^" queries, "// @name" and "// @name: value"
 * flags, "// ---cut---" family), Docusaurus's default magic comments
 * (highlight-next-line, -start, -end in any comment syntax), MkDocs's
 * pymdownx.snippets ("--8<--"), Shiki's notation (see shiki_cut).
 */
static int
directive(const char *t, size_t s, size_t e, size_t *kend)
{
	static const char *const hl[] = { "highlight-next-line",
		"highlight-start", "highlight-end" };
	static const char *const op[] = { "{/*", "<!--", "/*", "//", "--",
		"#" };
	size_t p = skip_sp(t, s, e), q, n, i;

	*kend = e;
	q = p < e && (t[p] == ';' || t[p] == '#') ? skip_sp(t, p + 1, e) : p;
	if (starts(t, q, e, "--8<--"))
		return DIR_DROP;
	if (starts(t, p, e, "//")) {
		q = skip_sp(t, p + 2, e);
		if (q + 1 < e && t[q] == '^' && (t[q + 1] == '?' ||
		    t[q + 1] == '|' || t[q + 1] == '^'))
			return DIR_DROP;
		if (rest_is(t, q, e, "---cut---") || rest_is(t, q, e,
		    "---cut-before---"))
			return DIR_CUT_BEFORE;
		if (rest_is(t, q, e, "---cut-after---"))
			return DIR_CUT_AFTER;
		if (rest_is(t, q, e, "---cut-start---"))
			return DIR_CUT_START;
		if (rest_is(t, q, e, "---cut-end---"))
			return DIR_CUT_END;
		if (q < e && t[q] == '@') {
			for (n = q + 1; n < e && (isalnum((unsigned char)t[n]) ||
			    t[n] == '_'); n++)
				;
			if (n > q + 1 && (n == trim_end(t, n, e) || t[n] == ':'))
				return DIR_DROP;
		}
	}
	for (n = 0; n < sizeof op / sizeof op[0]; n++) {
		if (!starts(t, p, e, op[n]))
			continue;
		q = skip_sp(t, p + strlen(op[n]), e);
		for (i = 0; i < sizeof hl / sizeof hl[0]; i++)
			if (rest_is(t, q, e, hl[i]))
				return DIR_DROP;
		break;
	}
	*kend = shiki_cut(t, s, e);
	if (*kend < e && skip_sp(t, s, *kend) == *kend)
		return DIR_DROP;
	return DIR_KEEP;
}

/* ---------------------------------------------------------------- code blocks */

static void
block_push(struct xs *x, size_t s, size_t e)
{
	struct bline *b;
	size_t kend;

	if (x->nblk == x->capblk)
		x->blk = xreallocarray(x->blk, x->capblk = x->capblk ? 2 *
		    x->capblk : 32, sizeof *x->blk);
	b = &x->blk[x->nblk++];
	b->dir = directive(x->t, s, e, &kend);
	b->off = s;
	b->len = kend - s;
	b->v = b->nv = 0;
}

/* Which lines of the block are shown: twoslash's cuts, dropped lines. */
static void
block_shown(struct xs *x)
{
	size_t j, first = 0, end = x->nblk;
	int hiding = 0;
	char ch;

	for (j = 0; j < x->nblk; j++)
		if (x->blk[j].dir == DIR_CUT_BEFORE)
			first = j + 1;
	for (j = first; j < x->nblk; j++)
		if (x->blk[j].dir == DIR_CUT_AFTER) {
			end = j;
			break;
		}
	buf_reset(&x->blkn);
	for (j = first; j < end; j++) {
		struct bline *b = &x->blk[j];

		if (b->dir == DIR_CUT_START)
			hiding = 1;
		else if (b->dir == DIR_CUT_END)
			hiding = 0;
		if (hiding || b->dir != DIR_KEEP)
			continue;
		norm_line(x->t, b->off, b->off + b->len, &x->line);
		if (x->line.len == 0 || md_fence(x->line.s, x->line.len, &ch))
			continue;	/* blank, or a fence inside indented code */
		b->v = x->blkn.len;
		b->nv = x->line.len;
		buf_add(&x->blkn, x->line.s, x->line.len);
	}
}

static size_t list_marker(const char *, size_t, size_t);

/*
 * The text line before the block as plain text shows it: without heading,
 * quote and list markers, emphasis and code span characters ("## Example"
 * and "Example"), normalised, into x->lead.
 */
static void
block_lead(struct xs *x)
{
	const char *t = x->t;
	size_t p = skip_sp(t, x->lead_s, x->lead_e), e = x->lead_e;

	buf_reset(&x->tmp);
	if (starts(t, p, e, ":::") || starts(t, p, e, "!!!") || starts(t, p, e,
	    "???") || starts(t, p, e, "===") || (p < e && (t[p] == '<' ||
	    t[p] == '|')))
		e = p;		/* a container, tag or table line: no lead */
	while (p < e && (t[p] == '#' || t[p] == '>'))
		p = skip_sp(t, p + 1, e);
	for (p = list_marker(t, p, e); p < e; p++)
		if (t[p] != '*' && t[p] != '`')
			buf_addc(&x->tmp, t[p]);
	norm_line(buf_str(&x->tmp), 0, x->tmp.len, &x->lead);
}

/*
 * The length of line b's diff marker in a block fenced as "diff": a '+'
 * or '-' not doubled, which renderers (Shiki, Expressive Code, Prism)
 * show as an inserted or deleted line, not as text.  0 elsewhere.
 */
static size_t
diff_marker(const struct xs *x, const struct bline *b)
{
	const char *t = x->t + b->off;

	if (!x->diff || b->len < 2 || (t[0] != '+' && t[0] != '-') ||
	    t[1] == t[0])
		return 0;
	return 1;
}

/*
 * The facts of the code block read so far: each shown line is a line of
 * the text, its numbers, quotes and identifiers (read as plain text, no
 * Markdown inline rules), and a code fact keyed by the previous line (the
 * first by the text line before the block).
 */
static void
flush_block(struct xs *x)
{
	size_t j, k, pj = FACTS_NONE;
	int md = x->md;

	block_shown(x);
	block_lead(x);
	x->md = 0;
	for (j = 0; j < x->nblk; j++) {
		struct bline *b = &x->blk[j];
		const char *nx = NULL;
		size_t nn = 0;

		if (b->nv == 0)
			continue;
		for (k = j + 1; k < x->nblk && x->blk[k].nv == 0; k++)
			;
		if (k < x->nblk) {
			nx = x->blkn.s + x->blk[k].v;
			nn = x->blk[k].nv;
		}
		add_line(x, b->off, b->off + b->len);
		tokenize(x, b->off + diff_marker(x, b), b->off + b->len);
		flush_run(x);
		add_fact(x, FACT_CODE, pj == FACTS_NONE ? buf_str(&x->lead) :
		    x->blkn.s + x->blk[pj].v, pj == FACTS_NONE ? x->lead.len :
		    x->blk[pj].nv,
		    x->blkn.s + b->v, b->nv, b->off, b->len, NULL, 0, nx, nn);
		pj = j;
	}
	x->md = md;
	x->nblk = 0;
	x->in_block = 0;
	x->diff = 0;
}

/* ---------------------------------------------------------------- tables */

/*
 * End the open cell of the run: its value (the normalised tokens, or its
 * symbols when it has no word: "{}") into the row, its facts as a run.
 */
static void
cell_end(struct xs *x, size_t off, size_t end)
{
	struct table *tb = &x->tb;
	size_t v0 = tb->row.len;

	run_value(x, &x->line);
	buf_add(&tb->row, buf_str(&x->line), x->line.len);
	if (tb->nc < MAXCOLS) {
		struct cell *c = &tb->c[tb->nc++];

		c->v = v0;
		c->nv = tb->row.len - v0;
		c->off = off;
		c->len = end - off;
	}
	buf_addc(&tb->row, '\0');
	flush_run(x);
}

/* The row read: the header, or a cell fact per cell under a header. */
static void
row_end(struct xs *x, int header)
{
	struct table *tb = &x->tb;
	const char *r = buf_str(&tb->row);
	size_t j, id;

	if (tb->nc == 0)
		return;
	if (header || !tb->have_hdr) {
		buf_reset(&tb->hdr);
		for (j = 0; j < tb->nc; j++) {
			tb->hoff[j] = tb->hdr.len;
			buf_add(&tb->hdr, r + tb->c[j].v, tb->c[j].nv);
			buf_addc(&tb->hdr, '\0');
		}
		tb->nh = tb->nc;
		tb->have_hdr = 1;
	} else {
		for (j = tb->nh == 1 ? 0 : 1; j < tb->nc && j < tb->nh; j++) {
			if (tb->c[j].nv == 0 || (tb->nh > 1 && tb->c[0].nv == 0))
				continue;
			buf_reset(&x->key);
			if (tb->nh > 1) {
				buf_add(&x->key, r + tb->c[0].v, tb->c[0].nv);
				buf_adds(&x->key, " | ");
			}
			buf_adds(&x->key, tb->hdr.s + tb->hoff[j]);
			id = add_fact(x, FACT_CELL, x->key.s, x->key.len, r +
			    tb->c[j].v, tb->c[j].nv, tb->c[j].off, tb->c[j].len, NULL,
			    0, NULL, 0);
			if (id != FACTS_NONE && x->f->d[id].count == 1)
				x->f->d[id].col = j;
		}
	}
	tb->nc = 0;
	buf_reset(&tb->row);
}

static void
table_end(struct xs *x)
{
	struct table *tb = &x->tb;

	if (tb->kind == TB_HTML && tb->in_cell)
		cell_end(x, tb->cell_off, tb->cell_off);
	row_end(x, tb->kind == TB_HTML && tb->all_th);
	tb->kind = TB_NONE;
	tb->have_hdr = 0;
	tb->nh = tb->nc = 0;
	tb->in_cell = 0;
	buf_reset(&tb->hdr);
	buf_reset(&tb->row);
}

/* A cell of a pipe or plain row: t[s..e) trimmed. */
static void
row_cell(struct xs *x, size_t s, size_t e)
{
	s = skip_sp(x->t, s, e);
	e = trim_end(x->t, s, e);
	flush_run(x);
	tokenize(x, s, e);
	cell_end(x, s, e);
}

/* A row of bread's plain tables: cells joined by " | ". */
static void
plain_row(struct xs *x, size_t s, size_t e)
{
	const char *t = x->t;
	size_t n = 1, p, c;
	int header = 0;

	for (p = s; p + 3 <= e; p++)
		if (t[p] == ' ' && t[p + 1] == '|' && t[p + 2] == ' ')
			n++;
	if (x->tb.kind != TB_PLAIN || n != x->tb.nh) {
		table_end(x);
		x->tb.kind = TB_PLAIN;
		header = 1;
	}
	for (p = c = s; p + 3 <= e; p++)
		if (t[p] == ' ' && t[p + 1] == '|' && t[p + 2] == ' ') {
			row_cell(x, c, p);
			c = p + 3;
			p += 2;
		}
	row_cell(x, c, e);
	row_end(x, header);
}

/* t[s..e) has a '|' outside code spans (not escaped)? */
static int
has_pipe(const char *t, size_t s, size_t e)
{
	int code = 0;

	for (; s < e; s++) {
		if (t[s] == '\\' && s + 1 < e)
			s++;
		else if (t[s] == '`')
			code = !code;
		else if (t[s] == '|' && !code)
			return 1;
	}
	return 0;
}

/* A GFM delimiter row: only '|', '-', ':' and blanks, with a '-'. */
static int
delim_row(const char *t, size_t s, size_t e)
{
	int dash = 0;

	for (; s < e; s++) {
		if (t[s] == '-')
			dash = 1;
		else if (t[s] != '|' && t[s] != ':' && !is_blank_byte(
		    (unsigned char)t[s]))
			return 0;
	}
	return dash;
}

/* A row of a Markdown pipe table (GFM): cells between unescaped pipes. */
static void
pipe_row(struct xs *x, size_t s, size_t e, int header)
{
	const char *t = x->t;
	size_t p, c;
	int code = 0;

	e = trim_end(t, s, e);
	if (s < e && t[s] == '|')
		s++;
	if (e > s && t[e - 1] == '|' && !(e - 2 > s && t[e - 2] == '\\'))
		e--;
	for (p = c = s; p < e; p++) {
		if (t[p] == '\\' && p + 1 < e)
			p++;
		else if (t[p] == '`')
			code = !code;
		else if (t[p] == '|' && !code) {
			row_cell(x, c, p);
			c = p + 1;
		}
	}
	row_cell(x, c, e);
	row_end(x, header);
}

/* The tag name at t[i] == '<' (after '/'): its bytes, *close set. */
static size_t
tag_name(const char *t, size_t i, size_t end, int *close, const char **name)
{
	size_t p = i + 1, n;

	*close = p < end && t[p] == '/';
	p += (size_t)*close;
	for (n = 0; p + n < end && isalnum((unsigned char)t[p + n]); n++)
		;
	*name = t + p;
	return n;
}

/* An HTML table in Markdown, line t[s..e): <tr>, <th> and <td> read. */
static void
html_feed(struct xs *x, size_t s, size_t e)
{
	struct table *tb = &x->tb;
	const char *t = x->t, *name;
	size_t i = s, seg = s, end, n;
	int close;

	while (i < e) {
		if (t[i] != '<' || (end = tag_end(x, i, e)) == 0) {
			i++;
			continue;
		}
		if (tb->in_cell && i > seg)
			tokenize(x, seg, i);
		n = tag_name(t, i, end, &close, &name);
		if (n == 2 && strncasecmp(name, "tr", 2) == 0) {
			if (tb->in_cell)
				cell_end(x, tb->cell_off, i);
			tb->in_cell = 0;
			row_end(x, tb->all_th);
			tb->all_th = !close;
		} else if (n == 2 && (strncasecmp(name, "td", 2) == 0 ||
		    strncasecmp(name, "th", 2) == 0)) {
			if (tb->in_cell)
				cell_end(x, tb->cell_off, i);
			tb->in_cell = !close;
			if (!close) {
				flush_run(x);
				tb->cell_off = end;
				if (name[1] == 'd' || name[1] == 'D')
					tb->all_th = 0;
			}
		} else if (n == 5 && close && strncasecmp(name, "table", 5) == 0) {
			table_end(x);
			return;
		}
		i = seg = end;
	}
	if (tb->in_cell && e > seg)
		tokenize(x, seg, e);
}

/* ---------------------------------------------------------------- lines */

/* After a list marker ("- ", "* ", "+ ", "1. ", "1) ", a task box). */
static size_t
list_marker(const char *t, size_t p, size_t e)
{
	size_t q = p;

	if (q < e && (t[q] == '-' || t[q] == '*' || t[q] == '+'))
		q++;
	else {
		while (q < e && q - p < 9 && isdigit((unsigned char)t[q]))
			q++;
		if (q == p || q >= e || (t[q] != '.' && t[q] != ')'))
			return p;
		q++;
	}
	if (q < e && t[q] != ' ' && t[q] != '\t')
		return p;
	q = skip_sp(t, q, e);
	if (e - q >= 3 && t[q] == '[' && t[q + 2] == ']' && (t[q + 1] == ' ' ||
	    t[q + 1] == 'x' || t[q + 1] == 'X'))
		q = skip_sp(t, q + 3, e);
	return q;
}

/* A thematic break or setext underline: 3+ of one of "-=*_", blanks. */
static int
rule_line(const char *t, size_t p, size_t e)
{
	size_t n = 0;
	char c = p < e ? t[p] : 0;

	if (c != '-' && c != '=' && c != '*' && c != '_')
		return 0;
	for (; p < e; p++) {
		if (t[p] == c)
			n++;
		else if (!is_blank_byte((unsigned char)t[p]))
			return 0;
	}
	return n >= 3;
}

/* One run of text (a heading, a title), alone. */
static void
lone_run(struct xs *x, size_t s, size_t e)
{
	flush_run(x);
	x->para = 0;
	if (s < e)
		tokenize(x, s, e);
	flush_run(x);
}

/*
 * A container's opening line, read for its title only: VitePress and
 * Docusaurus ":::type title" / ":::type[title]", MkDocs "!!! type
 * \"title\"", "??? type", "=== \"tab\"", GitHub "[!NOTE]".
 */
static int
container(struct xs *x, size_t p, size_t e)
{
	const char *t = x->t;
	size_t q = p, a, b;

	if (starts(t, p, e, ":::")) {
		while (q < e && t[q] == ':')
			q++;
		q = skip_sp(t, q, e);
		while (q < e && (isalnum((unsigned char)t[q]) || t[q] == '-' ||
		    t[q] == '_'))
			q++;
		if (q < e && t[q] == '[') {
			for (a = ++q; q < e && t[q] != ']'; q++)
				;
			lone_run(x, a, q);
		} else
			lone_run(x, skip_sp(t, q, e), e);
		return 1;
	}
	if (starts(t, p, e, "!!!") || starts(t, p, e, "???") ||
	    starts(t, p, e, "=== ")) {
		for (a = p; a < e && t[a] != '"'; a++)
			;
		for (b = e; b > a + 1 && t[b - 1] != '"'; b--)
			;
		lone_run(x, a < e ? a + 1 : e, b > a + 1 ? b - 1 : e);
		return 1;
	}
	if (starts(t, p, e, "[!") && trim_end(t, p, e) > p &&
	    t[trim_end(t, p, e) - 1] == ']') {
		lone_run(x, p, p);
		return 1;
	}
	return 0;
}

/* An ATX heading's text: markers, closing '#'s and "{#id}" removed. */
static int
heading(struct xs *x, size_t p, size_t e)
{
	const char *t = x->t;
	size_t q = p;

	while (q < e && t[q] == '#' && q - p < 7)
		q++;
	if (q == p || q - p > 6 || (q < e && t[q] != ' ' && t[q] != '\t'))
		return 0;
	e = trim_end(t, q, e);
	if (e > q && t[e - 1] == '}') {
		size_t b = e;

		while (b > q && t[b - 1] != '{')
			b--;
		if (b > q && b < e && t[b] == '#')
			e = trim_end(t, q, b - 1);
	}
	while (e > q && t[e - 1] == '#')
		e--;
	lone_run(x, q, e);
	return 1;
}

/*
 * A heading's permalink, alone on a line after it: a link to a fragment
 * of the page, "[text](#id)" or "[text](#id \"title\")", such as
 * Starlight's "[Section titled “Install”](#install)" (the anchor its
 * headingLinks add, whose text only a screen reader shows) and
 * Docusaurus's "[ZWSP](#install \"Direct link to Install\")" (its text a
 * zero-width space), which Markdown twins written from the rendered page
 * keep.
 */
static int
heading_anchor(const char *t, size_t p, size_t e)
{
	size_t q;

	e = trim_end(t, p, e);
	if (e - p < 5 || t[p] != '[' || t[e - 1] != ')')
		return 0;
	for (q = p + 1; q < e && t[q] != ']'; q++)
		;
	if (q + 2 >= e || t[q + 1] != '(' || t[q + 2] != '#')
		return 0;
	for (q += 3; q < e - 1 && !is_blank_byte((unsigned char)t[q]); q++)
		if (t[q] == ')' || t[q] == '(')
			return 0;
	return q == e - 1 || t[e - 2] == '"';
}

/*
 * A table's line at t[p..e): a line of an open HTML table or its first,
 * a row of an open pipe table, or a pipe table's header (the next line
 * ns..ne its delimiter row, which *skip then says to skip).  An open table
 * that the line does not continue is ended.  Returns 1 when the line was
 * a table's.
 */
static int
table_line(struct xs *x, size_t p, size_t e, size_t ns, size_t ne, int *skip)
{
	const char *t = x->t;

	if (x->tb.kind == TB_HTML) {
		html_feed(x, p, e);
		return 1;
	}
	if (starts_ci(t, p, e, "<table")) {
		flush_run(x);
		x->para = 0;
		table_end(x);
		x->tb.kind = TB_HTML;
		html_feed(x, p, e);
		return 1;
	}
	if (x->tb.kind == TB_PIPE && has_pipe(t, p, e)) {
		pipe_row(x, p, e, 0);
		return 1;
	}
	if (x->tb.kind != TB_NONE)
		table_end(x);
	if (ns < ne && has_pipe(t, p, e) && delim_row(t, ns, ne) &&
	    has_pipe(t, ns, ne)) {
		flush_run(x);
		x->para = 0;
		x->tb.kind = TB_PIPE;
		pipe_row(x, p, e, 1);
		*skip = 1;
		return 1;
	}
	return 0;
}

/*
 * A text line of Markdown t[s..e) (block-quote markers removed); ns..ne
 * the next line, whose being a delimiter row makes this one a table
 * header (*skip then says to skip it).
 */
static void
md_text(struct xs *x, size_t s, size_t e, size_t ns, size_t ne, int *skip)
{
	const char *t = x->t;
	size_t p = skip_sp(t, s, e), q;
	int after = x->heading;

	if (p >= e) {
		lone_run(x, p, p);
		return;
	}
	x->heading = 0;
	if (table_line(x, p, e, ns, ne, skip))
		return;
	if (heading(x, p, e)) {
		x->heading = 1;
		return;
	}
	if (after && heading_anchor(t, p, e)) {
		x->heading = 1;
		return;
	}
	if (rule_line(t, p, e) || (p == s && !x->para && (starts(t, p, e,
	    "import ") || starts(t, p, e, "export ")))) {
		lone_run(x, p, p);	/* a break; MDX's ESM lines */
		return;
	}
	if (container(x, p, e))
		return;
	if (t[p] == '<' && tag_end(x, p, e) > 0) {
		lone_run(x, p, e);	/* an HTML block line */
		return;
	}
	if (t[p] == ':' && p + 1 < e && (t[p + 1] == ' ' || t[p + 1] == '\t'))
		q = skip_sp(t, p + 1, e);	/* a definition */
	else
		q = list_marker(t, p, e);
	if (q > p || !x->para)
		flush_run(x);
	x->para = 1;
	tokenize(x, q, e);
}

/*
 * Is the info string of the fence t[s..e) (its first word, after the run
 * of backticks or tildes) the language w?
 */
static int
fence_info_is(const char *t, size_t s, size_t e, const char *w)
{
	size_t p = skip_sp(t, s, e), n = strlen(w);

	while (p < e && (t[p] == '`' || t[p] == '~'))
		p++;
	p = skip_sp(t, p, e);
	return starts(t, p, e, w) && (p + n == e || is_blank_byte(
	    (unsigned char)t[p + n]) || t[p + n] == '{');
}

/* One line of Markdown. */
static void
md_line(struct xs *x, struct md_code *mc, size_t s, size_t e, size_t ns,
    size_t ne, int *skip)
{
	size_t body = 0;
	enum md_line cls = md_code_line(mc, x->t + s, e - s, &body);

	if (*skip) {		/* a table's delimiter row */
		*skip = 0;
		add_line(x, s, e);
		return;
	}
	if (cls == MD_CODE) {
		if (!x->in_block) {
			flush_run(x);
			x->para = 0;
			x->in_block = 1;
		}
		block_push(x, s + body, e);
		return;
	}
	if (x->in_block)
		flush_block(x);
	if (cls == MD_FENCE) {
		flush_run(x);
		x->para = 0;
		x->heading = 0;
		if (x->tb.kind != TB_NONE)
			table_end(x);
		x->in_block = mc->flen > 0;
		x->diff = x->in_block && fence_info_is(x->t, s + body, e,
		    "diff");
		return;
	}
	add_line(x, s, e);
	if (cls == MD_TEXT) {
		x->lead_s = s + body;
		x->lead_e = e;
	}
	if (cls == MD_BLANK) {
		flush_run(x);
		x->para = 0;
		if (x->tb.kind != TB_NONE)
			table_end(x);
		return;
	}
	md_text(x, s + body, e, ns, ne, skip);
}

/* One line of plain text: each line a block, bread's " | " rows tables. */
static void
plain_line(struct xs *x, size_t s, size_t e)
{
	const char *t = x->t;
	size_t kend, p;

	if (directive(t, s, e, &kend) != DIR_KEEP)
		return;
	e = kend;
	add_line(x, s, e);
	for (p = s; p + 3 <= e; p++)
		if (t[p] == ' ' && t[p + 1] == '|' && t[p + 2] == ' ') {
			plain_row(x, s, e);
			return;
		}
	if (x->tb.kind != TB_NONE)
		table_end(x);
	tokenize(x, s, e);
	flush_run(x);
}

/* Where the text starts after a YAML front matter block ("---" lines). */
static size_t
front_matter(const char *t, size_t len)
{
	const char *nl = memchr(t, '\n', len);
	size_t p, e = nl ? (size_t)(nl - t) : len;

	if (!starts(t, 0, e, "---") || trim_end(t, 3, e) != 3)
		return 0;
	for (p = e + 1; p < len && p < MAXFRONT; p = e + 1) {
		nl = memchr(t + p, '\n', len - p);
		e = nl ? (size_t)(nl - t) : len;
		if ((starts(t, p, e, "---") || starts(t, p, e, "...")) &&
		    trim_end(t, p + 3, e) == p + 3)
			return e < len ? e + 1 : len;
	}
	return 0;
}

void
facts_add(struct facts *f, const char *text, size_t len, size_t base,
    int flags)
{
	struct md_code mc = MD_CODE_INIT;
	struct xs x;
	size_t pos = 0, e, ns, ne;
	int skip = 0;

	memset(&x, 0, sizeof x);
	x.f = f;
	x.t = text;
	x.len = len;
	x.base = base;
	x.md = (flags & FACTS_MARKDOWN) != 0;
	if (x.md)
		pos = front_matter(text, len);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t le;

		e = nl ? (size_t)(nl - text) : len;
		le = e > pos && text[e - 1] == '\r' ? e - 1 : e;
		ns = e < len ? e + 1 : len;
		nl = ns < len ? memchr(text + ns, '\n', len - ns) : NULL;
		ne = nl ? (size_t)(nl - text) : len;
		if (x.md)
			md_line(&x, &mc, pos, le, ns, ne, &skip);
		else
			plain_line(&x, pos, le);
		pos = e + 1;
	}
	if (x.in_block)
		flush_block(&x);
	flush_run(&x);
	table_end(&x);
	free(x.tk);
	free(x.blk);
	buf_release(&x.blkn);
	buf_release(&x.lead);
	buf_release(&x.norm);
	buf_release(&x.sym);
	buf_release(&x.key);
	buf_release(&x.val);
	buf_release(&x.tmp);
	buf_release(&x.line);
	buf_release(&x.tb.hdr);
	buf_release(&x.tb.row);
}

/* ================================================================ compare */

/* A fact that can be paired with another value of its key. */
static int
keyed(const struct facts *f, size_t i)
{
	const struct fact_def *d = &f->d[i];

	return d->kind != FACT_IDENT && d->kind != FACT_CODE &&
	    f->str.s[d->key] != '\0';
}

/* Does y state x's cell i as runs of its own: its row key and value? */
static int
cell_as_runs(const struct facts *x, size_t i, const struct facts *y)
{
	const char *k = facts_key(x, i), *v = facts_value(x, i);
	const char *bar = strstr(k, " | ");

	return bar != NULL && wordset_find(&y->runs, v, strlen(v)) > 0 &&
	    wordset_find(&y->runs, k, (size_t)(bar - k)) > 0;
}

/*
 * Does y have the line v, or v without a diff marker: a "+" or "-" that
 * Expressive Code renders as an inserted or deleted line and drops?
 */
static int
has_line(const struct facts *y, const char *v)
{
	size_t n = strlen(v);

	if (wordset_find(&y->lines, v, n) > 0)
		return 1;
	if (n < 2 || (v[0] != '+' && v[0] != '-') || v[1] == v[0])
		return 0;
	v += 1 + (v[1] == ' ');
	return wordset_find(&y->lines, v, strlen(v)) > 0;
}

/* The status of each of x's facts found in y; returns how many are. */
static size_t
mark_shared(const struct facts *x, const struct facts *y, unsigned char *s)
{
	size_t i, n = 0;

	for (i = 0; i < x->nd; i++) {
		const char *v = facts_value(x, i);
		int found;

		if (x->d[i].kind == FACT_CODE)
			found = has_line(y, v);
		else	/* the identity is x's ids word i (same order) */
			found = wordset_find(&y->ids, x->ids.v[i].word,
			    x->ids.v[i].len) > 0;
		if (!found && x->d[i].kind == FACT_CELL)
			found = cell_as_runs(x, i, y);
		s[i] = found ? FACT_SHARED : FACT_ONLY;
		n += (size_t)found;
	}
	return n;
}

static void
add_change(struct facts_cmp *c, size_t *cap, size_t a, size_t b, size_t al,
    size_t bl)
{
	if (c->nchanged == *cap)
		c->changed = xreallocarray(c->changed, *cap = *cap ? 2 * *cap : 16,
		    sizeof *c->changed);
	c->changed[c->nchanged].a = a;
	c->changed[c->nchanged].b = b;
	c->changed[c->nchanged].aline = al;
	c->changed[c->nchanged].bline = bl;
	c->nchanged++;
}

/* "kind key" of fact i: the group its leftovers are paired in. */
static void
group_of(const struct facts *f, size_t i, struct buf *g)
{
	buf_reset(g);
	buf_addc(g, '0' + (int)f->d[i].kind);
	buf_adds(g, facts_key(f, i));
}

/* Pair the leftovers of each key: A's in order with B's in order. */
static void
pair_keyed(const struct facts *a, const struct facts *b, struct facts_cmp *c,
    size_t *cap)
{
	struct wordset groups = WORDSET_INIT;
	struct buf g = BUF_INIT;
	size_t *head = xcalloc(b->nd + 1, sizeof *head);
	size_t *tail = xcalloc(b->nd + 1, sizeof *tail);
	size_t *next = xcalloc(b->nd + 1, sizeof *next);
	size_t i, k;

	for (i = 0; i < b->nd; i++) {	/* lists of index + 1, 0 ends */
		if (c->sb[i] != FACT_ONLY || !keyed(b, i))
			continue;
		group_of(b, i, &g);
		if ((k = wordset_find(&groups, g.s, g.len)) == 0) {
			wordset_add(&groups, g.s, g.len);
			k = groups.n;
		}
		if (tail[k - 1])
			next[tail[k - 1] - 1] = i + 1;
		else
			head[k - 1] = i + 1;
		tail[k - 1] = i + 1;
	}
	for (i = 0; i < a->nd; i++) {
		size_t j;

		if (c->sa[i] != FACT_ONLY || !keyed(a, i))
			continue;
		group_of(a, i, &g);
		if ((k = wordset_find(&groups, g.s, g.len)) == 0 ||
		    (j = head[k - 1]) == 0)
			continue;
		head[k - 1] = next[j - 1];
		c->sa[i] = c->sb[j - 1] = FACT_CHANGED;
		add_change(c, cap, i, j - 1, 0, 0);
	}
	free(head);
	free(tail);
	free(next);
	buf_release(&g);
	wordset_release(&groups);
}

/* Index in y.seq of the line a code fact i of x would be in y, or NONE. */
static size_t
code_partner(const struct facts *x, size_t i, const struct facts *y)
{
	const char *k = facts_key(x, i);
	size_t p;

	if (*k && (p = wordset_find(&y->lines, k, strlen(k))) > 0 &&
	    y->line_first[p - 1] + 1 < y->nseq)
		return y->line_first[p - 1] + 1;
	if (x->d[i].next != FACTS_NONE) {
		k = x->str.s + x->d[i].next;
		if ((p = wordset_find(&y->lines, k, strlen(k))) > 0 &&
		    y->line_first[p - 1] > 0)
			return y->line_first[p - 1] - 1;
	}
	return FACTS_NONE;
}

/* y's code fact on y's line l, or FACTS_NONE (plain text has none). */
static size_t
code_fact_at(const struct facts *y, size_t l)
{
	const struct wordent *w = &y->lines.v[y->seq[l].id];
	struct buf id = BUF_INIT;
	size_t p = 0;

	if (l > 0) {
		const struct wordent *pw = &y->lines.v[y->seq[l - 1].id];

		identity(&id, FACT_CODE, pw->word, pw->len, w->word, w->len);
		p = wordset_find(&y->ids, id.s, id.len);
	}
	if (p == 0) {
		identity(&id, FACT_CODE, "", 0, w->word, w->len);
		p = wordset_find(&y->ids, id.s, id.len);
	}
	buf_release(&id);
	return p ? p - 1 : FACTS_NONE;
}

/*
 * Pair x's code lines left over with the line of y in their place, when
 * that line is not x's either (x_is_a: x is A).
 */
static void
pair_code(const struct facts *x, const struct facts *y, int x_is_a,
    struct facts_cmp *c, size_t *cap)
{
	unsigned char *sx = x_is_a ? c->sa : c->sb, *sy = x_is_a ? c->sb : c->sa;
	unsigned char *used = xcalloc(y->nseq + 1, 1);
	size_t i, l, j, pi = FACTS_NONE, pl = FACTS_NONE;

	for (i = 0; i < x->nd; i++) {
		const struct wordent *w;
		size_t prev_i = pi, prev_l = pl;

		if (x->d[i].kind != FACT_CODE)
			continue;
		pi = i;
		pl = FACTS_NONE;
		if (sx[i] == FACT_SHARED) {
			const char *v = facts_value(x, i);
			size_t p = wordset_find(&y->lines, v, strlen(v));

			pl = p ? y->line_first[p - 1] : FACTS_NONE;
			continue;
		}
		if (sx[i] != FACT_ONLY)
			continue;
		/* after a line paired or found, the line after its partner */
		if (prev_l != FACTS_NONE && prev_l + 1 < y->nseq &&
		    strcmp(facts_key(x, i), facts_value(x, prev_i)) == 0)
			l = prev_l + 1;
		else
			l = code_partner(x, i, y);
		if (l == FACTS_NONE || used[l])
			continue;
		w = &y->lines.v[y->seq[l].id];
		if (has_line(x, w->word))
			continue;	/* that line is x's too: not a change */
		j = code_fact_at(y, l);
		if (j != FACTS_NONE && sy[j] != FACT_ONLY)
			continue;
		used[l] = 1;
		pl = l;
		sx[i] = FACT_CHANGED;
		if (j != FACTS_NONE)
			sy[j] = FACT_CHANGED;
		if (x_is_a)
			add_change(c, cap, i, j == FACTS_NONE ? FACTS_LINE : j, 0, l);
		else
			add_change(c, cap, j == FACTS_NONE ? FACTS_LINE : j, i, l, 0);
	}
	free(used);
}

/*
 * Pair x's cells left over with the runs in their place in a table y
 * flattened: the run col places after y's first run equal to the row's
 * first cell, when that run is not a run of x (x_is_a: x is A).
 */
static void
pair_cells(const struct facts *x, const struct facts *y, int x_is_a,
    struct facts_cmp *c, size_t *cap)
{
	unsigned char *sx = x_is_a ? c->sa : c->sb;
	unsigned char *used = xcalloc(y->nrseq + 1, 1);
	size_t i, p, q;

	for (i = 0; i < x->nd; i++) {
		const char *k = facts_key(x, i), *bar = strstr(k, " | ");
		const struct wordent *w;

		if (x->d[i].kind != FACT_CELL || sx[i] != FACT_ONLY ||
		    bar == NULL || x->d[i].col == 0 ||
		    (p = wordset_find(&y->runs, k, (size_t)(bar - k))) == 0)
			continue;
		q = y->run_first[p - 1] + x->d[i].col;
		if (q >= y->nrseq || used[q])
			continue;
		w = &y->runs.v[y->rseq[q].id];
		if (wordset_find(&x->runs, w->word, w->len) > 0)
			continue;	/* x says that too: not this cell's value */
		used[q] = 1;
		sx[i] = FACT_CHANGED;
		if (x_is_a)
			add_change(c, cap, i, FACTS_RUN, 0, q);
		else
			add_change(c, cap, FACTS_RUN, i, q, 0);
	}
	free(used);
}

void
facts_compare(const struct facts *a, const struct facts *b,
    struct facts_cmp *c)
{
	size_t cap = 0;

	memset(c, 0, sizeof *c);
	c->sa = xcalloc(a->nd + 1, 1);
	c->sb = xcalloc(b->nd + 1, 1);
	c->shared_a = mark_shared(a, b, c->sa);
	c->shared_b = mark_shared(b, a, c->sb);
	pair_keyed(a, b, c, &cap);
	pair_cells(a, b, 1, c, &cap);
	pair_cells(b, a, 0, c, &cap);
	pair_code(b, a, 0, c, &cap);
	pair_code(a, b, 1, c, &cap);
	c->a_in_b = a->nd ? (double)c->shared_a / (double)a->nd : -1;
	c->b_in_a = b->nd ? (double)c->shared_b / (double)b->nd : -1;
}

void
facts_cmp_release(struct facts_cmp *c)
{
	free(c->sa);
	free(c->sb);
	free(c->changed);
	memset(c, 0, sizeof *c);
	c->a_in_b = c->b_in_a = -1;
}

/* One side of a change: fact id, or line or run l of f. */
static void
side(const struct facts *f, size_t id, size_t l, const char **v, size_t *off,
    size_t *len)
{
	if (id == FACTS_LINE) {
		*v = f->lines.v[f->seq[l].id].word;
		*off = f->seq[l].off;
		*len = f->seq[l].len;
	} else if (id == FACTS_RUN) {
		*v = f->runs.v[f->rseq[l].id].word;
		*off = f->rseq[l].off;
		*len = f->rseq[l].len;
	} else {
		*v = facts_value(f, id);
		*off = f->v[f->d[id].first].off;
		*len = f->v[f->d[id].first].len;
	}
}

void
facts_change(const struct facts *a, const struct facts *b,
    const struct facts_cmp *c, size_t i, struct fact_shown *out)
{
	const struct fact_change *ch = &c->changed[i];

	side(a, ch->a, ch->aline, &out->a, &out->aoff, &out->alen);
	side(b, ch->b, ch->bline, &out->b, &out->boff, &out->blen);
	if (ch->b != FACTS_LINE && ch->b != FACTS_RUN) {
		out->kind = b->d[ch->b].kind;
		out->key = facts_key(b, ch->b);
	} else {
		out->kind = a->d[ch->a].kind;
		out->key = facts_key(a, ch->a);
	}
}

/* ---------------------------------------------------------------- atoms */

int
facts_has_atom(const struct facts *f, const char *s)
{
	return wordset_find(&f->atoms, s, strlen(s)) > 0;
}

char **
facts_atoms(const struct facts *g, size_t *n)
{
	char **v = xcalloc(g->atoms.n + 1, sizeof *v);
	size_t i;

	for (i = 0; i < g->atoms.n; i++)
		v[i] = xstrndup(g->atoms.v[i].word, g->atoms.v[i].len);
	*n = g->atoms.n;
	return v;
}
