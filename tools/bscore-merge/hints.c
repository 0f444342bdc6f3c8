/*
 * hints.c - citation-pattern detection and completeness hints (spec 000
 * §10: "Regex detection of citation patterns", "Keyword/phrase detection
 * against question elements"), and the term overlap used by autoscore.
 * Patterns match ASCII case-insensitively over UTF-8 text; terms are the
 * content words of common/words.h cut to their first five characters.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "hints.h"

/* Key terms of s: the first five characters of its content words (common/words.h). */
static void
terms(const char *s, struct wordset *ws)
{
	words_add(ws, s, strlen(s), WORDS_CONTENT | WORDS_PREFIX5);
}

double
bsm_term_recall(const char *ref, const char *text, size_t *nref, size_t *nhit)
{
	struct wordset r = WORDSET_INIT, t = WORDSET_INIT;
	size_t nr, i, hit = 0;

	terms(ref, &r);
	terms(text, &t);
	for (i = 0; i < r.n; i++)
		if (wordset_count(&t, r.v[i].word) > 0)
			hit++;
	nr = r.n;
	wordset_release(&r);
	wordset_release(&t);
	if (nref)
		*nref = nr;
	if (nhit)
		*nhit = hit;
	return nr ? (double)hit / (double)nr : 0;
}

static const char *
find_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return NULL;
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return hay;
	return NULL;
}

/* Attribution framing of a question (spec 000 §6 Applicability). */
static const char *const question_patterns[] = {
	"according to", "what does the", "what do the", "as described in",
	"as documented", "as stated in", "per the", "which section", "which page",
	"cite", "source", NULL
};

/* Citation patterns in responses. */
static const char *const response_patterns[] = {
	"according to", "as described in", "as noted in", "as mentioned in",
	"as documented in", "as stated in", "as explained in", "as shown in",
	"as outlined in", "refer to the", "see the", "in the section",
	"section titled", "the documentation states", "the docs state", NULL
};

/* Copy up to the end of the clause after p, for showing. */
static void
add_snippet(struct buf *b, const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != '.' && p[n] != ',' && p[n] != '\n' && p[n] != ';' && n < 60)
		n++;
	buf_addc(b, '"');
	buf_add(b, p, n);
	buf_addc(b, '"');
}

char *
bsm_citation_hint(const char *question, const char *response,
    const json_t *source_sections, int *applies)
{
	struct buf b = BUF_INIT;
	const char *q = NULL, *hit;
	size_t i, ncites = 0;
	int asked = 0, named = 0;
	json_t *sec;

	for (i = 0; question_patterns[i]; i++)
		if ((hit = find_ci(question, question_patterns[i]))) {
			asked = 1;
			q = hit;
			break;
		}
	if (asked) {
		buf_adds(&b, "question asks for attribution (");
		add_snippet(&b, q);
		buf_adds(&b, ")");
	}
	for (i = 0; response_patterns[i]; i++)
		if ((hit = find_ci(response, response_patterns[i]))) {
			buf_adds(&b, b.len ? "; " : "");
			buf_adds(&b, ncites ? "" : "response cites: ");
			if (ncites)
				buf_adds(&b, "also ");
			add_snippet(&b, hit);
			ncites++;
			if (ncites >= 3)
				break;
		}
	if (json_is_array(source_sections))
		json_array_foreach(source_sections, i, sec) {
			const char *s = json_string_value(sec);
			if (s && strlen(s) >= 4 && find_ci(response, s)) {
				buf_adds(&b, b.len ? "; " : "");
				buf_adds(&b, "names section \"");
				buf_adds(&b, s);
				buf_adds(&b, "\"");
				named = 1;
			}
		}
	if (!asked && !ncites && !named)
		buf_adds(&b, "likely N/A: no attribution asked for or given");
	else if (!ncites && !named)
		buf_adds(&b, "; response gives no citation");
	if (applies)
		*applies = !(asked || ncites) ? 0 : !ncites ? 1 : named ? 3 : 2;
	return buf_detach(&b, NULL);
}

/* Split a question into parts: sentences, then " and " / ", " + wh-word clauses. */
static char **
question_parts(const char *q, size_t *count)
{
	static const char *const joins[] = {
		" and what ", " and how ", " and when ", " and why ", " and which ",
		" and where ", " and who ", " and does ", " and is ", " and are ",
		"; ", NULL
	};
	char **v = NULL;
	size_t n = 0;
	const char *p = q;

	while (*p) {
		const char *end = p, *best = NULL;
		size_t skip = 0, i;
		while (*end && *end != '?' && !(*end == '.' && (end[1] == ' ' || !end[1])))
			end++;
		for (i = 0; joins[i]; i++) {
			const char *j = find_ci(p, joins[i]);
			if (j && j < end && (!best || j < best)) {
				best = j;
				/* Skip "; " or " and ", keeping the wh-word. */
				skip = joins[i][0] == ';' ? 2 : 5;
			}
		}
		if (best)
			end = best;
		if (end > p) {
			size_t len = (size_t)(end - p);
			char *s = xstrndup(p, len);
			struct wordset t = WORDSET_INIT;
			size_t nt;

			terms(s, &t);
			nt = t.n;
			wordset_release(&t);
			if (nt) {
				v = xreallocarray(v, n + 2, sizeof *v);
				v[n++] = s;
			} else {
				free(s);
			}
		}
		p = end;
		if (best)
			p += skip;
		else if (*p)
			p++;
		while (*p == ' ')
			p++;
	}
	if (!v)
		v = xcalloc(1, sizeof *v);
	v[n] = NULL;
	*count = n;
	return v;
}

char *
bsm_completeness_hint(const char *question, const char *response,
    const json_t *source_sections, int *all_covered)
{
	struct buf b = BUF_INIT;
	size_t n, i, nref, nhit;
	char **parts = question_parts(question, &n);
	int all = 1;
	json_t *sec;

	buf_addf(&b, "%zu part%s", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		double rc = bsm_term_recall(parts[i], response, &nref, &nhit);
		buf_addf(&b, "; [%zu] %zu/%zu terms", i + 1, nhit, nref);
		if (rc < 0.5) {
			buf_adds(&b, " (check)");
			all = 0;
		}
		free(parts[i]);
	}
	free(parts);
	if (json_is_array(source_sections) && json_array_size(source_sections) > 1)
		json_array_foreach(source_sections, i, sec) {
			const char *s = json_string_value(sec);
			if (s && bsm_term_recall(s, response, &nref, &nhit) < 0.5 && nref) {
				buf_adds(&b, "; section not evident: \"");
				buf_adds(&b, s);
				buf_adds(&b, "\"");
			}
		}
	if (all_covered)
		*all_covered = all;
	return buf_detach(&b, NULL);
}

int
bsm_is_refusal(const char *r)
{
	static const char *const pats[] = {
		"i don't have enough information", "i do not have enough information",
		"not enough information", "insufficient information",
		"does not contain information", "doesn't contain information",
		"does not provide information", "doesn't provide information",
		"cannot answer", "can't answer", "unable to answer",
		"no information about", "not mentioned in the provided",
		"not covered in the provided", NULL
	};
	size_t i, len = strlen(r);

	for (i = 0; pats[i]; i++)
		if (find_ci(r, pats[i]))
			return len < 400;
	return 0;
}
