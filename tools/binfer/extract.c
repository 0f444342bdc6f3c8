/*
 * extract.c - the extractive baseline: no model, the answer is the content's
 * sentences that share the most (rare) words with the question.
 *
 * The content is split into sentences at line breaks and at '.', '!' or '?'
 * followed by white space; markup is dropped first (XML-like tags such as
 * Condition B's <project>/<section>/<doc>, and Markdown's heading, emphasis,
 * quote, table and code markers).  A sentence scores the sum, over the
 * distinct question words it contains, of an inverse sentence frequency
 * log((N + 1) / (df + 0.5)) - the classic tf-idf sentence retrieval baseline
 * (Allan, Wade and Bolivar, SIGIR 2003).  Words are the content words of
 * common/words.h, with a final plural "s" removed.  The k best sentences (ties: the earlier one)
 * are returned in document order.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "binfer.h"

struct sent {
	char *text;
	struct wordset words;	/* distinct normalised words */
	double score;
	size_t pos;
};

/* The normalised words of s (common/words.h: content words, plural "s" dropped). */
static void
words_of(const char *s, struct wordset *ws)
{
	words_add(ws, s, strlen(s), WORDS_CONTENT | WORDS_STEM);
}

/*
 * The '>' that closes an XML-like tag opening at s ('<' then a letter, '/'
 * or '!'), on one line and within 300 bytes; NULL when s opens none.
 */
static const char *
tag_end(const char *s)
{
	const char *e;

	if (s[0] != '<' || !(isalpha((unsigned char)s[1]) || s[1] == '/' || s[1] == '!'))
		return NULL;
	for (e = s + 1; e - s < 300 && *e && *e != '>' && *e != '\n'; e++)
		;
	return *e == '>' && e - s < 300 ? e : NULL;
}

/* Markdown's marks at the start of a line: heading, quote, list, table, indent. */
static int
line_mark(unsigned char c)
{
	return c == '#' || c == '>' || c == '-' || c == '*' || c == '|' || c == ' ' ||
	    c == '\t';
}

/* Content without markup, one sentence per line. */
static char *
clean(const char *s)
{
	struct buf b = BUF_INIT;
	const char *e;
	int bol = 1;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((e = tag_end(s)) != NULL) {
			buf_addc(&b, '\n');
			s = e;
			bol = 1;
			continue;
		}
		if ((bol && line_mark(c)) || c == '\r')
			continue;
		if (c == '*' || c == '`' || c == '|' || (c == '_' && s[1] == '_')) {
			buf_addc(&b, ' ');	/* emphasis, code, table cells */
			continue;
		}
		buf_addc(&b, (char)c);
		bol = c == '\n';
		if ((c == '.' || c == '!' || c == '?') && (s[1] == ' ' || s[1] == '\t')) {
			buf_addc(&b, '\n');
			bol = 1;
		}
	}
	return buf_detach(&b, NULL);
}

static char *
squeeze(const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;
	int sp = 0;

	for (i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i])) {
			sp = b.len > 0;
			continue;
		}
		if (sp)
			buf_addc(&b, ' ');
		sp = 0;
		buf_addc(&b, s[i]);
	}
	return buf_detach(&b, NULL);
}

/* The sentences of cleaned text that hold two words or more, in order. */
static struct sent *
sentences(const char *text, size_t *ns)
{
	struct sent *ss = NULL;
	size_t cap = 0, len;
	const char *p, *nl;
	char *t;

	*ns = 0;
	for (p = text; *p; p += len + (p[len] == '\n')) {
		struct wordset w = WORDSET_INIT;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		t = squeeze(p, len);
		words_of(t, &w);
		if (w.n < 2) {
			free(t);
			wordset_release(&w);
			continue;
		}
		if (*ns == cap) {
			cap = cap ? cap * 2 : 64;
			ss = xreallocarray(ss, cap, sizeof(*ss));
		}
		ss[*ns].text = t;
		ss[*ns].words = w;
		ss[*ns].score = 0;
		ss[*ns].pos = *ns;
		(*ns)++;
	}
	return ss;
}

/* Each sentence's score: the inverse sentence frequencies of the question's words in it. */
static void
score(struct sent *ss, size_t ns, const char *question)
{
	struct wordset qw = WORDSET_INIT;
	size_t i, j, df;
	double idf;

	words_of(question, &qw);
	for (i = 0; i < qw.n; i++) {
		df = 0;
		for (j = 0; j < ns; j++)
			if (wordset_count(&ss[j].words, qw.v[i].word) > 0)
				df++;
		if (df == 0)
			continue;
		idf = log(((double)ns + 1.0) / ((double)df + 0.5));
		for (j = 0; j < ns; j++)
			if (wordset_count(&ss[j].words, qw.v[i].word) > 0)
				ss[j].score += idf;
	}
	wordset_release(&qw);
}

/*
 * The k best sentences that score above 0 (ties: the earlier one), by
 * repeated selection (k is small), joined by a space in document order.
 */
static char *
best(const struct sent *ss, size_t ns, int k)
{
	int *pick = xcalloc(ns ? ns : 1, sizeof(int)), chosen;
	struct buf out = BUF_INIT;
	size_t j, top;

	for (chosen = 0; chosen < k; chosen++) {
		top = ns;
		for (j = 0; j < ns; j++)
			if (!pick[j] && ss[j].score > 0 &&
			    (top == ns || ss[j].score > ss[top].score))
				top = j;
		if (top == ns)
			break;
		pick[top] = 1;
	}
	for (j = 0; j < ns; j++) {
		if (!pick[j])
			continue;
		if (out.len)
			buf_addc(&out, ' ');
		buf_adds(&out, ss[j].text);
	}
	free(pick);
	return out.s ? buf_detach(&out, NULL) : xstrdup("");
}

char *
binfer_extractive_answer(const char *question, const char *content, int k)
{
	char *text = clean(content), *ans;
	size_t ns, j;
	struct sent *ss = sentences(text, &ns);

	score(ss, ns, question);
	ans = best(ss, ns, k);
	for (j = 0; j < ns; j++) {
		free(ss[j].text);
		wordset_release(&ss[j].words);
	}
	free(ss);
	free(text);
	return ans;
}
