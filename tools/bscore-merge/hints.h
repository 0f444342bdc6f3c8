/*
 * hints.h - scoring assists of spec 000 §10, shown to raters as hint columns
 * and never as scores: citation-pattern detection (where citation fidelity
 * applies) and completeness hints from the question's parts; and the term
 * overlap the autoscore rater uses.
 */
#ifndef BSM_HINTS_H
#define BSM_HINTS_H

#include <jansson.h>

/*
 * Citation hint: which attribution patterns the question asks for ("According
 * to ...", "What does the ... guide say") and which the response contains
 * ("As described in ...", section names from source_sections).  Returns a
 * malloc'd sentence.  *applies (if not NULL) receives 0 when citation fidelity
 * is likely N/A, 1 when attribution is asked for and none is given, 2 when
 * the response cites without naming a source section, 3 when it cites and
 * names one.
 */
char *bsm_citation_hint(const char *question, const char *response,
    const json_t *source_sections, int *applies);

/*
 * Completeness hint: the question split into its parts (sentences, "and"
 * clauses), each with the share of its key terms found in the response, and
 * the source sections not mentioned.  malloc'd.  *all_covered (if not NULL)
 * receives 1 when every part has at least half of its terms in the response.
 */
char *bsm_completeness_hint(const char *question, const char *response,
    const json_t *source_sections, int *all_covered);

/*
 * Share of the key terms of ref (lower-cased words of 3 or more letters that
 * are not stop words, compared by their first 5 letters) present in text.
 * *nref and *nhit get the counts.  0 when ref has no key terms.
 */
double bsm_term_recall(const char *ref, const char *text, size_t *nref,
    size_t *nhit);

/* 1 when the response declines to answer for lack of information (EC-05). */
int bsm_is_refusal(const char *response);

#endif
