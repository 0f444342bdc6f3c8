/*
 * unit-classes.c - the Unicode classes of the split patterns (ucd.c) against
 * the reference: golden/classes.txt lists, per class, the code points
 * Oniguruma (the regex engine of Hugging Face tokenizers) matches with
 * \p{L}, \p{N}, \s, \p{M} and Tekken's two letter sets; every code point
 * U+0000..U+10FFFF outside the surrogates is compared.  btok's Unicode
 * version (utf8proc, Debian) may be older than the reference's: code points
 * unassigned in btok's version are reported, not failed; every code point
 * assigned in it must be in the same classes.  Then the
 * hand-written matchers are checked on pieces whose split depends on
 * backtracking.
 *
 * usage: unit-classes GOLDEN_CLASSES_FILE
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/btok/btok.h"

static const struct { const char *name; unsigned bit; } classes[] = {
	{ "L", BTOK_UC_L }, { "N", BTOK_UC_N }, { "WS", BTOK_UC_WS },
	{ "M", BTOK_UC_M }, { "LU", BTOK_UC_LU }, { "LL", BTOK_UC_LL },
};

static unsigned char *want;	/* per code point: class bits */

static void load(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[128];
	want = calloc(0x110000, 1);
	if (!fp || !want) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof line, fp)) {
		char name[8];
		unsigned lo, hi;
		if (sscanf(line, "%7s %x-%x", name, &lo, &hi) != 3 || hi > 0x10FFFF || lo > hi) {
			fprintf(stderr, "%s: bad line: %s", path, line);
			exit(1);
		}
		for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
			if (strcmp(classes[k].name, name) == 0)
				for (unsigned c = lo; c <= hi; c++)
					want[c] |= (unsigned char)classes[k].bit;
	}
	fclose(fp);
}

struct pieces { char out[4096]; size_t n; };

static void collect(const char *p, size_t n, void *v)
{
	struct pieces *ps = v;
	if (ps->n + n + 2 < sizeof ps->out) {
		memcpy(ps->out + ps->n, p, n);
		ps->n += n;
		ps->out[ps->n++] = '|';
		ps->out[ps->n] = 0;
	}
}

/* s with control characters escaped, for one-line TAP descriptions. */
static const char *esc(const char *s)
{
	static char b[4][512];
	static int k;
	char *o = b[k = (k + 1) % 4];
	size_t n = 0;
	for (; *s && n + 5 < sizeof b[0]; s++) {
		if ((unsigned char)*s < 0x20)
			n += (size_t)snprintf(o + n, 6, "\\x%02X", (unsigned char)*s);
		else
			o[n++] = *s;
	}
	o[n] = 0;
	return o;
}

static void split_is(int pre, const char *in, const char *expect)
{
	struct pieces ps;
	ps.n = 0;
	ps.out[0] = 0;
	btok_pretokenize(pre, in, strlen(in), collect, &ps);
	TAP_OK(strcmp(ps.out, expect) == 0, "pattern %d splits \"%s\" as %s", pre, esc(in), esc(expect));
	if (strcmp(ps.out, expect) != 0)
		printf("#   got %s\n", esc(ps.out));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: unit-classes CLASSES\n");
		return 2;
	}
	load(argv[1]);
	for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
		unsigned long bad = 0, first = 0, newer = 0;
		for (uint32_t c = 0; c <= 0x10FFFF; c++) {
			if (c >= 0xD800 && c <= 0xDFFF)
				continue;
			if (!!(btok_uclass(c) & classes[k].bit) != !!(want[c] & classes[k].bit)) {
				if (!btok_uc_assigned(c)) {
					newer++;
					continue;
				}
				if (!bad)
					first = c;
				bad++;
			}
		}
		if (newer)
			printf("# class %s: %lu code points unassigned in Unicode %s differ "
			    "(assigned in the reference's newer version)\n", classes[k].name, newer,
			    btok_unicode_version());
		TAP_OK(bad == 0, "class %s: all code points as the reference (Unicode %s)%s",
		    classes[k].name, btok_unicode_version(), bad ? " -- mismatches" : "");
		if (bad)
			printf("# %lu mismatches, first U+%04lX\n", bad, first);
	}
	/* The patterns, piece by piece (expected splits from the regexes). */
	split_is(BTOK_PRE_LLAMA3, "I'm DON'T it'\xC5\xBF itſ", "I|'m| DON|'T| it|'\xC5\xBF| it\xC5\xBF|");
	split_is(BTOK_PRE_LLAMA3, "12345 x", "123|45| x|");
	split_is(BTOK_PRE_QWEN2, "12345", "1|2|3|4|5|");
	split_is(BTOK_PRE_LLAMA3, "a   b", "a|  | b|");
	split_is(BTOK_PRE_LLAMA3, "a  \n\n  b", "a|  \n\n| | b|");
	split_is(BTOK_PRE_LLAMA3, "x   ", "x|   |");
	split_is(BTOK_PRE_LLAMA3, " !!!\n\nok", " !!!\n\n|ok|");
	split_is(BTOK_PRE_LLAMA3, "\t\tfoo", "\t|\tfoo|");
	split_is(BTOK_PRE_TEKKEN, "HTTPServer iPhone", "HTTPServer| i|Phone|");
	split_is(BTOK_PRE_TEKKEN, "ABCdef abcDEF", "ABCdef| abc|DEF|");
	split_is(BTOK_PRE_TEKKEN, "a//b\n/", "a|//|b|\n|/|");
	split_is(BTOK_PRE_TEKKEN, "x ... /\n", "x| ...| /\n|");
	split_is(BTOK_PRE_TEKKEN, "12a", "1|2|a|");
	split_is(BTOK_PRE_GPT2, "Hello world's 42!!", "Hello| world|'s| 42|!!|");
	free(want);
	return tap_done();
}
