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
 * (Allan, Wade and Bolivar, SIGIR 2003).  Words are ASCII-lowercased
 * alphanumeric runs of three or more characters minus a stop list, with a
 * final plural "s" removed.  The k best sentences (ties: the earlier one)
 * are returned in document order.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "ctx.h"
#include "binfer.h"

static const char *const stopwords[] = {
	"about", "after", "all", "also", "and", "any", "are", "can", "does",
	"for", "from", "has", "have", "how", "into", "its", "not", "one",
	"such", "than", "that", "the", "their", "them", "then", "there",
	"these", "they", "this", "use", "used", "using", "was", "were",
	"what", "when", "where", "which", "while", "who", "why", "will",
	"with", "would", "you", "your", NULL
};

struct sent {
	char *text;
	char **words;		/* distinct normalised words */
	size_t nwords;
	double score;
	size_t pos;
};

static int
is_stop(const char *w)
{
	size_t i;

	for (i = 0; stopwords[i]; i++)
		if (strcmp(w, stopwords[i]) == 0)
			return 1;
	return 0;
}

/* Distinct normalised words of s (NULL-terminated array, *n of them). */
static char **
words_of(const char *s, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0, i;

	while (*s) {
		const char *st;
		size_t len;
		char *w;

		while (*s && !isalnum((unsigned char)*s))
			s++;
		st = s;
		while (*s && isalnum((unsigned char)*s))
			s++;
		len = (size_t)(s - st);
		if (len < 3 || len > 64)
			continue;
		w = xstrndup(st, len);
		for (i = 0; i < len; i++)
			w[i] = (char)tolower((unsigned char)w[i]);
		if (len > 3 && w[len - 1] == 's' && w[len - 2] != 's')
			w[len - 1] = '\0';
		if (is_stop(w)) {
			free(w);
			continue;
		}
		for (i = 0; i < cnt; i++)
			if (strcmp(v[i], w) == 0)
				break;
		if (i < cnt) {
			free(w);
			continue;
		}
		if (cnt + 1 >= cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[cnt++] = w;
	}
	if (!v)
		v = xcalloc(1, sizeof(*v));
	v[cnt] = NULL;
	*n = cnt;
	return v;
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
	char *text = clean(content), *p, **qw;
	struct sent *ss = NULL;
	size_t ns = 0, cap = 0, nq, i, j, chosen = 0;
	struct buf out = BUF_INIT;

	for (p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *t = squeeze(p, len);
		size_t nw;
		char **w = words_of(t, &nw);

		if (nw >= 2) {
			if (ns == cap) {
				cap = cap ? cap * 2 : 64;
				ss = xreallocarray(ss, cap, sizeof(*ss));
			}
			ss[ns].text = t;
			ss[ns].words = w;
			ss[ns].nwords = nw;
			ss[ns].score = 0;
			ss[ns].pos = ns;
			ns++;
		} else {
			free(t);
			strv_free(w);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	qw = words_of(question, &nq);
	for (i = 0; i < nq; i++) {
		size_t df = 0;
		double idf;

		for (j = 0; j < ns; j++)
			for (size_t m = 0; m < ss[j].nwords; m++)
				if (strcmp(ss[j].words[m], qw[i]) == 0) {
					df++;
					break;
				}
		if (df == 0)
			continue;
		idf = log(((double)ns + 1.0) / ((double)df + 0.5));
		for (j = 0; j < ns; j++) {
			size_t m;

			for (m = 0; m < ss[j].nwords; m++)
				if (strcmp(ss[j].words[m], qw[i]) == 0) {
					ss[j].score += idf;
					break;
				}
		}
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
		strv_free(ss[j].words);
	}
	free(ss);
	strv_free(qw);
	free(text);
	if (!out.s)
		return xstrdup("");
	return buf_detach(&out, NULL);
}
