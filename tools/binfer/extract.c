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

/* Content without markup, one sentence per line. */
static char *
clean(const char *s)
{
	struct buf b = BUF_INIT;
	int bol = 1;

	while (*s) {
		unsigned char c = (unsigned char)*s;

		if (c == '<' && (isalpha((unsigned char)s[1]) || s[1] == '/' || s[1] == '!')) {
			const char *e = strchr(s, '>');

			if (e && e - s < 300 && !memchr(s, '\n', (size_t)(e - s))) {
				buf_addc(&b, '\n');
				s = e + 1;
				bol = 1;
				continue;
			}
		}
		if (bol && (c == '#' || c == '>' || c == '-' || c == '*' || c == '|' ||
		    c == ' ' || c == '\t')) {
			s++;
			continue;
		}
		if (c == '*' || c == '`' || c == '|' || (c == '_' && s[1] == '_')) {
			buf_addc(&b, ' ');
			s++;
			continue;
		}
		if (c == '\r') {
			s++;
			continue;
		}
		if (c == '\n') {
			buf_addc(&b, '\n');
			bol = 1;
			s++;
			continue;
		}
		bol = 0;
		buf_addc(&b, (char)c);
		if ((c == '.' || c == '!' || c == '?') && (s[1] == ' ' || s[1] == '\t')) {
			buf_addc(&b, '\n');
			bol = 1;
		}
		s++;
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

char *
binfer_extractive_answer(const char *question, const char *content, int k)
{
	char *text = clean(content), *p;
	struct wordset qw = WORDSET_INIT;
	struct sent *ss = NULL;
	size_t ns = 0, cap = 0, i, j, chosen = 0;
	struct buf out = BUF_INIT;

	for (p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *t = squeeze(p, len);
		struct wordset w = WORDSET_INIT;

		words_of(t, &w);
		if (w.n >= 2) {
			if (ns == cap) {
				cap = cap ? cap * 2 : 64;
				ss = xreallocarray(ss, cap, sizeof(*ss));
			}
			ss[ns].text = t;
			ss[ns].words = w;
			ss[ns].score = 0;
			ss[ns].pos = ns;
			ns++;
		} else {
			free(t);
			wordset_release(&w);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	words_of(question, &qw);
	for (i = 0; i < qw.n; i++) {
		size_t df = 0;
		double idf;

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
	/* Mark the k best (score > 0) by repeated selection: k is small. */
	{
		int *pick = xcalloc(ns ? ns : 1, sizeof(int));

		while ((int)chosen < k) {
			size_t best = ns;

			for (j = 0; j < ns; j++)
				if (!pick[j] && ss[j].score > 0 &&
				    (best == ns || ss[j].score > ss[best].score))
					best = j;
			if (best == ns)
				break;
			pick[best] = 1;
			chosen++;
		}
		for (j = 0; j < ns; j++)
			if (pick[j]) {
				if (out.len)
					buf_addc(&out, ' ');
				buf_adds(&out, ss[j].text);
			}
		free(pick);
	}
	for (j = 0; j < ns; j++) {
		free(ss[j].text);
		wordset_release(&ss[j].words);
	}
	free(ss);
	wordset_release(&qw);
	free(text);
	if (!out.s)
		return xstrdup("");
	return buf_detach(&out, NULL);
}
