/*
 * unit-words.c - common/words.c: what a word, a content word and a stop
 * word are, the two normalisations, and the multiset's counts and growth;
 * common/mdcode.c: which Markdown lines are code.
 */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "mdcode.h"
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

/*
 * Keys of every length from 0 to 40 bytes, NULs among them, each also with
 * its byte at every position changed: every key is found again from a copy
 * whose bytes around it differ (the hash reads the key's bytes and no
 * other), and no changed key is found.
 */
static void
test_keys(void)
{
	struct wordset ws = WORDSET_INIT;
	char a[64], b[64];
	size_t len, i, n = 0, found = 1, apart = 1;

	for (len = 0; len <= 40; len++) {
		memset(a, 'x', sizeof a);
		for (i = 0; i < len; i++)
			a[8 + i] = (char)(i % 7 == 3 ? '\0' : 'a' + (len + i) % 26);
		wordset_add(&ws, a + 8, len);
		n++;
	}
	for (len = 0; len <= 40; len++) {
		memset(a, 'x', sizeof a);
		memset(b, 'y', sizeof b);
		for (i = 0; i < len; i++)
			a[8 + i] = (char)(i % 7 == 3 ? '\0' : 'a' + (len + i) % 26);
		memcpy(b + 3, a + 8, len);
		if (wordset_find(&ws, b + 3, len) != len + 1)
			found = 0;
		for (i = 0; i < len; i++) {
			b[3 + i] ^= 0x20;
			if (wordset_find(&ws, b + 3, len) != 0)
				apart = 0;
			b[3 + i] ^= 0x20;
		}
	}
	TAP_IS_INT(ws.n, n, "keys: 41 lengths, 41 keys");
	TAP_OK(found, "keys: each found from a copy with other bytes around it");
	TAP_OK(apart, "keys: a key with one byte changed is another key");
	wordset_release(&ws);
}

/* The classes of text's lines: one letter each (t b f c). */
static const char *
classes(const char *text)
{
	static char out[128];
	struct md_code st = MD_CODE_INIT;
	const char *p = text;
	size_t n = 0;

	while (*p && n < sizeof out - 1) {
		size_t len = strcspn(p, "\n");

		out[n++] = "tbfc"[md_code_line(&st, p, len, NULL)];
		p += len;
		if (*p == '\n')
			p++;
	}
	out[n] = '\0';
	return out;
}

static void
test_mdcode(void)
{
	struct md_code st = MD_CODE_INIT;
	size_t body = 0;

	TAP_IS_STR(classes("text\n````sh\n# not a heading\n\n```\n````\nafter"),
	    "tfcccft", "fence: closed by a run at least as long, blank lines inside are code");
	TAP_IS_STR(classes("~~~\n```\n~~~~ \nx"), "fcft", "fence: tilde, other char inside, spaces after the closer");
	TAP_IS_STR(classes("```a`b\ntext"), "tt", "fence: a backtick info string with a backtick is no fence");
	TAP_IS_STR(classes("para\n    not code\n\n    code\n\n    more\nend"),
	    "ttbcbct", "indented: not after a paragraph; blank lines between chunks");
	TAP_IS_STR(classes("- item\n\n    continuation\n\ntext\n\n\tcode"),
	    "tbtbtbc", "indented: a list item's continuation is not code; a tab is four columns");
	TAP_IS_STR(classes("# Title\n    code"), "tc", "indented: may follow a heading");
	TAP_IS_STR(classes("> ```\n> > inner\n> <!-- c -->\n> ```\n> text"),
	    "fccft", "block quote: a fence inside, its quote markers stripped once");
	TAP_IS_STR(classes("> ```\n> code\nlazy\n```"), "fctf",
	    "block quote: the fence ends with the quote");
	md_code_line(&st, "> ```", 5, &body);
	md_code_line(&st, "> > x", 5, &body);
	TAP_IS_INT(body, 2, "body: the content after the fence's own markers");
}

int
main(int argc, char **argv)
{
	(void)argc;
	ctx_init(argv[0]);
	test_words();
	test_set();
	test_keys();
	test_mdcode();
	return tap_done();
}
