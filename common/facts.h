/*
 * facts.h - the facts a documentation page states, and a comparison of the
 * facts of two texts: what both state, what one states with another value
 * (the same fact, changed), what only one states.  bctx measures A<->B
 * content drift with it (ctxbench-records(5), "Facts"); any two texts can
 * be compared the same way (two snapshots of one page, the two contexts of
 * a pair shown side by side), and every fact keeps its byte span in its
 * text so that a viewer can highlight it.
 *
 * A fact is (kind, key, value).  The key is the fact's context, so that
 * "warmup_prompt_count requests, 3 by default" and "... 1 by default" are
 * one fact with two values:
 *
 *   FACT_NUMBER   a number with its unit ("3", "128 tokens", "30 s",
 *                 "50 %"; thousands separators dropped).  Key: the nearest
 *                 identifier before it in its sentence (at most 12 tokens
 *                 back), the nearest content word before it and the one
 *                 after it (at most 3 tokens away), as "ident left _ right".
 *   FACT_VERSION  a version ("2.1.0", "v1.4.2", "1.x"; the "v" dropped).
 *                 Key: the package it is attached to ("larkspur@2.1.0",
 *                 "larkspur==2.1.0"), else as for a number.
 *   FACT_QUOTED   a quoted value, "..." or '...' or typographic quotes, up
 *                 to 120 bytes.  Key as for a number.
 *   FACT_SWITCH   an on/off value said to be a default: "true", "false",
 *                 "on", "off", "yes", "no", "enabled" or "disabled" within
 *                 three tokens of "default" or "defaults" in its sentence
 *                 ("strict mode on by default").  Key as for a number.
 *   FACT_IDENT    an identifier or option name: a term with an underscore,
 *                 a camelCase step, a letter-digit mix, an inner '.', '/',
 *                 ':', '@', '=' or '+', or a leading "-", "--", "@", "$",
 *                 "/" or "."  ("warmup_prompt_count", "--format",
 *                 "process.env").  Key: empty; an identifier is stated or
 *                 not, never "changed".
 *   FACT_CELL     a table cell, keyed by its row's first cell and its
 *                 column's header: "rate_limit_ms | default" -> "1000".
 *                 Tables: Markdown pipe tables (with their delimiter row),
 *                 HTML <table> elements in Markdown, and in plain text the
 *                 "a | b" rows bread(1) writes (first row: the header).
 *   FACT_CODE     a line of a Markdown code block, white space trimmed and
 *                 its runs collapsed.  Key: the block's previous line (the
 *                 first line's: the text line before the block, without
 *                 its Markdown markers).
 *
 * Words and values are normalised so that markup does not count: emphasis,
 * code spans, link destinations, images, HTML tags, heading, list, quote
 * and admonition markers, table pipes, entities and typographic quotes;
 * a heading's permalink on the line after it is not read (Starlight's
 * "[Section titled “Install”](#install)", Docusaurus's "[ZWSP](#install
 * \"Direct link to Install\")" with a zero-width space as its text), and
 * an MDX string expression ({"{}"}) states its string.
 * Plain words are lower-cased; identifiers and values keep their case.
 * Numbers, quotes and identifiers are read in code lines too, so a code
 * line that plain text carries as an ordinary line states the same facts.
 *
 * Generator directives are normalised away from code lines, since the
 * rendered page hides them (each named after the tool that defines it):
 * twoslash's "// ^?", "// ^|", "// ^^^", "// @name[: value]" and its cuts
 * ("// ---cut---" and "// ---cut-before---" hide the block's lines above,
 * "// ---cut-after---" those below, "// ---cut-start---" to
 * "// ---cut-end---" those between); Shiki's "[!code ...]" notation (the
 * comment holding it removed, the line kept); Docusaurus's
 * "highlight-next-line", "highlight-start" and "highlight-end" comments;
 * MkDocs (pymdownx.snippets) "--8<--" lines.  In a block fenced as "diff",
 * a line's leading '+' or '-' marks it and is not read as part of a term.
 *
 * Input kinds (flags of facts_add): FACTS_MARKDOWN reads CommonMark
 * blocks: fenced and indented code (common/mdcode.h), a leading YAML
 * front matter block skipped, the lines of a paragraph or list item joined
 * as one run of text, MDX import/export lines skipped.  Without it every
 * line is its own block (bread's plain text, where each block is a line and
 * code is not marked).
 *
 * Besides its facts, a set keeps every line of the text (normalised) and
 * every run of text (a paragraph, a line, a table cell, as its tokens
 * joined by spaces), in order, for the comparison below.
 *
 * Use: struct facts a = FACTS_INIT, b = FACTS_INIT; struct facts_cmp c;
 * facts_add(&a, ...); facts_add(&b, ...); facts_compare(&a, &b, &c);
 * then c.sa / c.sb for each fact's status (highlight a fact i of A at
 * a.v[k] for every occurrence k with a.v[k].id == i), facts_change for
 * each change; facts_cmp_release(&c); facts_release(&a) and (&b).
 *
 * Cost: linear in the text (each token looks at a bounded window; no scan
 * is repeated), memory linear in the text and never more than FACTS_MAX
 * occurrences, lines and runs per set (what comes after is not added and
 * truncated is set): tens of bytes per byte of a page dense with facts,
 * much less for prose.  No recursion.
 */
#ifndef CTX_FACTS_H
#define CTX_FACTS_H

#include <stddef.h>
#include "buf.h"
#include "words.h"

enum fact_kind {
	FACT_NUMBER,
	FACT_VERSION,
	FACT_QUOTED,
	FACT_SWITCH,
	FACT_IDENT,
	FACT_CELL,
	FACT_CODE
};
#define FACT_NKINDS 7

#define FACTS_MARKDOWN	0x1	/* the text is Markdown (else plain lines) */

#define FACTS_MAX	250000	/* occurrences, lines and runs kept per set */

/* One occurrence of a fact in the text. */
struct fact {
	size_t id;		/* its distinct fact: index into facts.d */
	size_t off, len;	/* its bytes in the text (base included) */
};

/* One distinct fact. */
struct fact_def {
	enum fact_kind kind;
	size_t key, value;	/* offsets into facts.str (use facts_key/_value) */
	size_t count;		/* occurrences */
	size_t first;		/* index into facts.v of the first occurrence */
	size_t next;		/* FACT_CODE: offset into facts.str of the
				 * block's next line, or FACTS_NONE */
	size_t col;		/* FACT_CELL: its column, from 0 */
};
#define FACTS_NONE ((size_t)-1)

/*
 * A set of facts: zero-initialise or FACTS_INIT, add texts with facts_add,
 * release with facts_release.  v holds the occurrences in text order, d the
 * distinct facts in order of first occurrence.  Everything is owned by the
 * set; the strings facts_key and facts_value return live until release.
 */
struct facts {
	struct fact *v;
	size_t n, cap;
	struct fact_def *d;
	size_t nd, capd;
	struct buf str;		/* keys and values, NUL-terminated */
	struct wordset ids;	/* kind, key, value of each distinct fact */
	struct wordset atoms;	/* see facts_has_atom */
	struct wordset runs;	/* every run of text (a paragraph, a line, a
				 * cell) as its tokens joined by spaces */
	struct wordset lines;	/* every non-blank line, normalised */
	struct fact_line *seq;	/* the lines in text order */
	size_t nseq, capseq;
	size_t *line_first;	/* per line id: its first index in seq */
	struct fact_line *rseq;	/* the runs in text order (id into runs) */
	size_t nrseq, caprseq;
	size_t *run_first;	/* per run id: its first index in rseq */
	int truncated;		/* FACTS_MAX reached */
};
#define FACTS_INIT { NULL, 0, 0, NULL, 0, 0, BUF_INIT, WORDSET_INIT, \
	WORDSET_INIT, WORDSET_INIT, WORDSET_INIT, NULL, 0, 0, NULL, NULL, 0, \
	0, NULL, 0 }

/* A line of the text: its normalised form (index into lines) and bytes. */
struct fact_line {
	size_t id;
	size_t off, len;
};

/*
 * Add the facts of text[0..len) (any bytes; not NUL-terminated) to f.
 * Spans are reported as base + offset in text, so that several documents
 * of one context can be added with their positions in it.  Never fails
 * (allocation failure dies).
 */
void facts_add(struct facts *f, const char *text, size_t len, size_t base,
    int flags);
void facts_release(struct facts *f);

/* The key and value of distinct fact id (borrowed, NUL-terminated). */
const char *facts_key(const struct facts *f, size_t id);
const char *facts_value(const struct facts *f, size_t id);
/* "number", "version", "quoted", "switch", "identifier", "cell", "code". */
const char *facts_kind_name(enum fact_kind k);

/* Index + 1 of the distinct fact (kind, key, value) in f, 0 when absent. */
size_t facts_find(const struct facts *f, enum fact_kind kind, const char *key,
    const char *value);

/* ---------------------------------------------------------------- compare */

enum fact_status {
	FACT_SHARED,		/* the other text states it */
	FACT_CHANGED,		/* the other states its key with another value */
	FACT_ONLY		/* only this text states it */
};

/* A changed fact: distinct fact a of A against distinct fact b of B. */
struct fact_change {
	size_t a, b;		/* ids in A.d and B.d, FACTS_LINE or FACTS_RUN */
	size_t aline, bline;	/* FACTS_LINE: index into seq; FACTS_RUN:
				 * index into rseq */
};
#define FACTS_LINE ((size_t)-1)
#define FACTS_RUN ((size_t)-2)

/*
 * The comparison of two sets, A and B.
 *
 * A fact of one text is SHARED when the other has the same (kind, key,
 * value); a code line when the other has an equal line anywhere, code or
 * not (plain text does not mark code); a table cell also when the other
 * states its row's first cell and its value as runs of text of their own
 * (a table that a Markdown converter flattened into one line or paragraph
 * per cell still states its cells).  Of the rest, a fact is CHANGED
 * when the other text has a fact of the same kind and non-empty key that
 * is not shared either: the leftovers of one key are paired in order of
 * first occurrence, so "port _" -> {8080, 5432} against {8080, 9090}
 * gives one change, 5432 -> 9090.  Identifiers and facts without a key are
 * never paired.  A code line is paired with the line that follows its
 * block's previous line in the other text (or precedes its next line)
 * when that line is not shared: a line of plain text can be the A side of
 * a change (a = FACTS_LINE, aline its index in A.seq), and likewise for
 * B.  A table cell left over is paired with the run of text in its place
 * in a table the other text flattened (its row's first cell as a run,
 * then one run per cell: the run its column further on), when that run is
 * not a run of its own text (b = FACTS_RUN, bline its index in B.rseq,
 * and likewise for A).  Everything else is ONLY.
 *
 * sa[i], sb[i]: the status of distinct fact i of A, of B.  changed: the
 * changes in order of A's first occurrence (B's for those found from B's
 * side).  b_in_a: the share of B's distinct facts that are SHARED, a_in_b
 * the same for A; -1 when the set is empty.
 */
struct facts_cmp {
	unsigned char *sa, *sb;
	struct fact_change *changed;
	size_t nchanged;
	size_t shared_a, shared_b;	/* distinct facts SHARED */
	double b_in_a, a_in_b;
};
#define FACTS_CMP_INIT { NULL, NULL, NULL, 0, 0, 0, -1, -1 }

/* Compare a and b into c (initialised or released before). */
void facts_compare(const struct facts *a, const struct facts *b,
    struct facts_cmp *c);
void facts_cmp_release(struct facts_cmp *c);

/*
 * The key, A value and B value of change i, with each side's span
 * (borrowed strings; a line's "value" is its normalised text).
 */
struct fact_shown {
	enum fact_kind kind;
	const char *key, *a, *b;
	size_t aoff, alen, boff, blen;
};
void facts_change(const struct facts *a, const struct facts *b,
    const struct facts_cmp *c, size_t i, struct fact_shown *out);

/* ---------------------------------------------------------------- atoms */

/*
 * The atoms of a fact: the value of a number without its unit, of a
 * version, a switch, an identifier or a quoted value (cells and code lines have
 * none of their own; their numbers, identifiers and quotes are facts of
 * their own).  A short text (a gold answer) states its facts in other
 * words than the page, so it is compared by atoms: facts_has_atom says
 * whether any fact of f has atom s.
 */
int facts_has_atom(const struct facts *f, const char *s);
/*
 * The distinct atoms of g, in order, each once, as malloc'd strings in a
 * NULL-terminated array (free each and the array); *n receives the count.
 */
char **facts_atoms(const struct facts *g, size_t *n);

#endif
