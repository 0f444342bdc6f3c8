/*
 * words.c - gold_coverage: the share of a gold answer's content words that
 * occur in an assembled content (spec 001 §7.1 L-IV-1, "keyword overlap
 * between conditions").  Words are maximal runs of Unicode letters and
 * digits, lower-cased (utf8proc simple case mapping); content words are
 * the distinct words that are not English stop words and are at least two
 * characters long (numbers of any length count).
 */
#include <string.h>
#include <utf8proc.h>

#include "ctx.h"
#include "bctx.h"

static const char *const stopwords[] = {
	"a", "about", "above", "after", "again", "against", "all", "also", "am",
	"an", "and", "any", "are", "as", "at", "be", "because", "been", "before",
	"being", "below", "between", "both", "but", "by", "can", "could", "did",
	"do", "does", "doing", "down", "during", "each", "either", "few", "for",
	"from", "further", "had", "has", "have", "having", "he", "her", "here",
	"hers", "him", "his", "how", "however", "i", "if", "in", "into", "is",
	"it", "its", "itself", "just", "may", "me", "might", "more", "most",
	"must", "my", "no", "nor", "not", "now", "of", "off", "on", "once",
	"only", "or", "other", "our", "ours", "out", "over", "own", "same",
	"shall", "she", "should", "so", "some", "such", "than", "that", "the",
	"their", "theirs", "them", "then", "there", "these", "they", "this",
	"those", "through", "thus", "to", "too", "under", "until", "up", "upon",
	"us", "very", "via", "was", "we", "were", "what", "when", "where",
	"whether", "which", "while", "who", "whom", "why", "will", "with",
	"within", "without", "would", "you", "your", "yours", NULL
};

static int
is_stop(const char *w)
{
	const char *const *p;

	for (p = stopwords; *p; p++)
		if (strcmp(*p, w) == 0)
			return 1;
	return 0;
}

/* Add the words of s to set (an object used as a set). */
static void
word_set(const char *s, json_t *set, int content_only)
{
	size_t len = strlen(s), i = 0;
	struct buf w = BUF_INIT;
	size_t nchars = 0;
	int digits = 1;

	for (;;) {
		utf8proc_int32_t c = 0;
		utf8proc_ssize_t r = 0;
		int word = 0;

		if (i < len) {
			r = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
			    (utf8proc_ssize_t)(len - i), &c);
			if (r <= 0) {
				r = 1;
				c = 0xFFFD;
			}
			switch (utf8proc_category(c)) {
			case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
			case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
			case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_ND:
			case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
			case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC:
				word = 1;
				break;
			default:
				break;
			}
		}
		if (word) {
			utf8proc_uint8_t tmp[4];
			utf8proc_ssize_t n = utf8proc_encode_char(utf8proc_tolower(c), tmp);
			buf_add(&w, tmp, (size_t)n);
			nchars++;
			if (utf8proc_category(c) != UTF8PROC_CATEGORY_ND)
				digits = 0;
		} else if (w.len > 0) {
			if (!content_only || ((nchars >= 2 || digits) &&
			    !is_stop(w.s)))
				json_object_set_new(set, w.s, json_true());
			buf_reset(&w);
			nchars = 0;
			digits = 1;
		}
		if (i >= len)
			break;
		i += (size_t)r;
	}
	buf_release(&w);
}

double
bctx_gold_coverage(const char *gold, const char *text)
{
	json_t *g = json_object(), *t = json_object(), *v;
	const char *k;
	size_t n, hit = 0;
	double r;

	word_set(gold, g, 1);
	n = json_object_size(g);
	if (n == 0) {
		json_decref(g);
		json_decref(t);
		return -1;
	}
	word_set(text, t, 0);
	json_object_foreach(g, k, v)
		if (json_object_get(t, k))
			hit++;
	r = (double)hit / (double)n;
	json_decref(g);
	json_decref(t);
	return r;
}
