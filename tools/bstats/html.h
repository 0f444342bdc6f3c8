/*
 * html.h - what the files of the results browser share (bstats --html).
 * html.c assembles the page and calls html-data.c (the page's data) and
 * html-compare.c (a second run beside this one); html-data.c calls
 * html-compare.c for a rating's scores and the other run's ratings.
 * Every json_t * returned is a new reference the caller releases.
 */
#ifndef BSTATS_HTML_H
#define BSTATS_HTML_H

#include <jansson.h>

#include "bstats.h"

/*
 * The primary ratings of a study by (site, question, model, condition):
 * bst_runidx_init indexes s (borrowed: it must outlive the index), s NULL
 * gives an empty index; bst_runidx_get returns the rating or NULL.
 */
struct bst_runidx {
	const struct bst_study *s;
	json_t *map;		/* key -> index into s->obs */
};
void bst_runidx_init(struct bst_runidx *x, const struct bst_study *s);
const struct bst_obs *bst_runidx_get(const struct bst_runidx *x,
    const struct bst_obs *like, char cond);
void bst_runidx_release(struct bst_runidx *x);

/* The scores, exclusion, rater and notes of one rating o (NULL: null). */
json_t *bst_html_rating(const struct bst_obs *o);
/* 1 when o's hallucinations were not assessed (an autoscore rating). */
int bst_html_unassessed(const struct bst_obs *o);

/*
 * The compare view of s against other (both analysed; x indexes other):
 * counts, the ratings whose scores or exclusion differ, the pairs whose
 * outcome turned, and the test results whose verdict or effect differ,
 * differences first.  label names the other run on the page.
 */
json_t *bst_html_compare(const struct bst_study *s,
    const struct bst_study *other, const struct bst_runidx *x,
    const char *label);

/* html-data.c: the page's data object (report markdown md borrowed). */
json_t *bst_html_data(const struct bst_study *s, const struct bst_runidx *x,
    const char *md);

#endif
