/*
 * unit-words.c - common/words.c: what a word, a content word and a stop
 * word are, the two normalisations, and the multiset's counts and growth.
 */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "words.h"
#include "tap.h"

/* The words of s under flags, joined by spaces, with counts "w*2". */
static const char *
show(const char *s, int flags)
{
	static char out[512];
	struct wordset ws = WORDSET_INIT;
	size_t i, n = 0;

	words_add(&ws, s, strlen(s), flags);
	out[0] = '\0';
	for (i = 0; i < ws.n && n < sizeof out - 64; i++) {
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? " " : "",
		    ws.v[i].word);
		if (ws.v[i].count > 1)
			n += (size_t)snprintf(out + n, sizeof out - n, "*%zu",
			    ws.v[i].count);
	}
	wordset_release(&ws);
	return out;
}

static void
test_words(void)
{
	TAP_IS_STR(show("Hello, World! max_tokens=42", 0),
	    "hello world max tokens 42", "words: letter and digit runs, lower-cased, _ splits");
	TAP_IS_STR(show("Straße ÉTÉ naïve 東京 x", 0), "straße été naïve 東京 x",
	    "words: Unicode letters and marks, simple lower case");
	TAP_IS_STR(show("a\xff" "b\xc3", 0), "a b", "words: an invalid UTF-8 byte separates");
	TAP_IS_STR(show("The cache is a file: 2 files, the cache", WORDS_CONTENT),
	    "cache*2 file 2 files", "content: stop words and 1-letter words dropped, digits kept");
	TAP_IS_STR(show("use the documentation, according to docs: one two", WORDS_CONTENT),
	    "one two", "content: framing words are stop words, number words are not");
	TAP_IS_STR(show("requests pass its fetches", WORDS_CONTENT | WORDS_STEM),
	    "request pass fetche", "stem: final plural s dropped, not from ss or short words");
	TAP_IS_STR(show("Configuration configure naïveté ab", WORDS_CONTENT | WORDS_PREFIX5),
	    "confi*2 naïve ab", "prefix5: five characters, not five bytes");
	TAP_OK(words_is_stop("the") && words_is_stop("yours") && words_is_stop("a") &&
	    !words_is_stop("cache") && !words_is_stop(""), "stop list lookup");
}

static void
test_set(void)
{
	struct wordset ws = WORDSET_INIT;
	char w[32];
	size_t i, ok = 1;

	for (i = 0; i < 100000; i++) {
		snprintf(w, sizeof w, "w%zu", i % 50000);
		wordset_add(&ws, w, strlen(w));
	}
	TAP_IS_INT(ws.n, 50000, "set: distinct words");
	TAP_IS_INT(ws.total, 100000, "set: total occurrences");
	for (i = 0; i < 50000; i++) {
		snprintf(w, sizeof w, "w%zu", i);
		if (wordset_count(&ws, w) != 2 || strcmp(ws.v[i].word, w) != 0)
			ok = 0;
	}
	TAP_OK(ok, "set: every word counted twice, in first-insertion order");
	TAP_IS_INT(wordset_count(&ws, "w50000"), 0, "set: absent word counts 0");
	wordset_release(&ws);
	TAP_IS_INT(wordset_count(&ws, "w1"), 0, "set: released set is empty");
}

int
main(int argc, char **argv)
{
	(void)argc;
	ctx_init(argv[0]);
	test_words();
	test_set();
	return tap_done();
}
