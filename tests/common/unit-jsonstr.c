/*
 * unit-jsonstr.c - the compact writer's strings (json_put_string, and
 * ndj_emit_string, which writes the same bytes a part at a time) against
 * the rule written out one byte at a time: '"', '\\', the bytes below
 * 0x20 and 0x7F escaped, every other byte as it is; and read back by
 * json_loadb as the string written.  The strings are long and short, with
 * the bytes that need care (escapes, control bytes, 0x7F, UTF-8) at every
 * position modulo eight around the writer's blocks, alone and in runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ndjson.h"
#include "tap.h"
#include "utf8.h"

/* The rule, one byte at a time. */
static void
model(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c;
	size_t i;

	buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_addf(b, "\\%c", c);
		else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c == '\b')
			buf_adds(b, "\\b");
		else if (c == '\f')
			buf_adds(b, "\\f");
		else if (c < 0x20 || c == 0x7F)
			buf_addf(b, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
}

/* What ndj_emit_string writes of s; *chars what it returns. */
static char *
emitted(const char *s, size_t n, size_t *len, size_t *chars)
{
	char *m = NULL;
	FILE *fp = open_memstream(&m, len);

	if (fp == NULL)
		return NULL;
	ndj_output_stream(fp);
	*chars = ndj_emit_string(s, n);
	ndj_output_stream(NULL);
	fclose(fp);
	return m;
}

/* 0: s[0..n) written by both as the model writes it, read back whole. */
static int
check(const char *s, size_t n)
{
	struct buf want = BUF_INIT, got = BUF_INIT;
	json_t *v;
	size_t elen = 0, chars = 0, lead = 0, i;
	char *e = emitted(s, n, &elen, &chars);
	int bad;

	/* the bytes that are no continuation byte, utf8_count's count of
	 * valid UTF-8 */
	for (i = 0; i < n; i++)
		lead += ((unsigned char)s[i] & 0xC0) != 0x80;
	bad = chars != lead || (utf8_valid(s, n, NULL) && chars !=
	    utf8_count(s, n));

	model(&want, s, n);
	json_put_string(&got, s, n);
	bad |= got.len != want.len || memcmp(got.s, want.s, want.len) != 0 ||
	    e == NULL || elen != want.len || memcmp(e, want.s, want.len) != 0;
	v = json_loadb(got.s, got.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	if (v == NULL || json_string_length(v) != n ||
	    memcmp(json_string_value(v), s, n) != 0)
		bad = 1;
	json_decref(v);
	free(e);
	buf_release(&want);
	buf_release(&got);
	return bad;
}

static const char *const care[] = { "\"", "\\", "\n", "\t", "\x01", "\x1f",
	"\x7f", "\0", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "/" };
#define NCARE (sizeof care / sizeof *care)

static size_t
care_len(size_t k)
{
	return care[k][0] == '\0' ? 1 : strlen(care[k]);
}

int
main(void)
{
	size_t lens[] = { 0, 1, 7, 8, 9, 15, 16, 17, 63, 4095, 4096, 4097,
		10921, 10922, 10923 };
	size_t nl = sizeof lens / sizeof *lens, i, j, k, at, bad = 0, n = 0;
	size_t max = 65536 + 40 * 977;
	char *s = malloc(max);
	uint32_t rs = 2463534242u;

	if (s == NULL)
		return 1;
	/* one byte that needs care at each position near the start, near the
	 * blocks' ends and near the string's end, in plain text */
	for (i = 0; i < nl; i++)
		for (k = 0; k < NCARE; k++)
			for (j = 0; j < 16 && j < lens[i] + 1; j++) {
				size_t pos[3], p;

				pos[0] = j;
				pos[1] = lens[i] > 16 ? lens[i] - 1 - j : j;
				pos[2] = lens[i] > 4112 ? 4096 - 8 + j : j;
				for (p = 0; p < 3; p++) {
					memset(s, 'a', lens[i]);
					at = pos[p];
					if (at + care_len(k) > lens[i])
						continue;
					memcpy(s + at, care[k], care_len(k));
					bad += check(s, lens[i]) != 0;
					n++;
				}
			}
	/* dense and sparse mixtures, from a fixed seed */
	for (i = 0; i < 400; i++) {
		size_t len = i < 20 ? 65536 + i * 977 : i % 300, dens = i % 5;

		for (j = 0; j < len; ) {
			rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5;
			k = rs % NCARE;
			if (rs % 8 < dens && j + care_len(k) <= len) {
				memcpy(s + j, care[k], care_len(k));
				j += care_len(k);
			} else
				s[j++] = (char)('a' + rs % 26);
		}
		bad += check(s, len) != 0;
		n++;
	}
	TAP_IS_INT(bad, 0, "json_put_string and ndj_emit_string write the rule's "
	    "bytes, which json_loadb reads back, and ndj_emit_string counts "
	    "the characters (%zu strings)", n);
	free(s);
	return tap_done();
}
