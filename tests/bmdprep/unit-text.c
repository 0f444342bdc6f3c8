/*
 * Unit tests of text.c, the normalisation and front matter rule that the
 * lenient llms.txt parser and the Markdown preparation share.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/bmdprep/text.h"

/* s normalised with NUL bytes as nul (NULL: dropped). */
static char *
norm(const char *s, size_t n, const char *nul, size_t *len)
{
	return bmd_text_normalise(s, n, nul, nul ? strlen(nul) : 0, len);
}

int
main(void)
{
	unsigned long lines;
	size_t len;
	char *s;

	ctx_init("unit-text");
	TAP_IS_STR(s = norm("a\r\nb\rc\n", 7, NULL, &len), "a\nb\nc\n", "CRLF and CR become LF");
	free(s);
	TAP_IS_STR(s = norm("\xef\xbb\xbf# T\n", 7, NULL, &len), "# T\n", "a leading BOM is dropped");
	free(s);
	TAP_IS_STR(s = norm("x\xef\xbb\xbf", 4, NULL, &len), "x\xef\xbb\xbf", "a BOM elsewhere is text");
	free(s);
	s = norm("a\0b\0", 4, NULL, &len);
	TAP_OK(len == 2 && memcmp(s, "ab", 3) == 0, "NUL bytes dropped (%zu bytes)", len);
	free(s);
	s = norm("a\0b", 3, "\xef\xbf\xbd", &len);
	TAP_OK(len == 5 && memcmp(s, "a\xef\xbf\xbd" "b", 6) == 0, "NUL bytes as U+FFFD (%zu bytes)", len);
	free(s);
	TAP_IS_STR(s = norm("caf\xe9\r\n", 6, NULL, &len), "caf\xef\xbf\xbd\n", "invalid UTF-8 replaced, then CRLF");
	free(s);
	TAP_IS_STR(s = norm("\r", 1, NULL, &len), "\n", "a lone CR at the end");
	free(s);
	s = norm("", 0, NULL, &len);
	TAP_OK(len == 0 && s[0] == '\0', "empty text");
	free(s);

	TAP_IS_INT(bmd_front_matter("---\na: 1\n---\n# T\n", 17, &lines), 13, "front matter: length through the closing LF");
	TAP_IS_INT(lines, 3, "its lines");
	TAP_IS_INT(bmd_front_matter("---\na: 1\n...\nx", 14, &lines), 13, "closed by ...");
	TAP_IS_INT(bmd_front_matter("---\na: 1\n---", 12, &lines), 12, "closing line without LF");
	TAP_IS_INT(lines, 3, "its lines");
	TAP_IS_INT(bmd_front_matter("---\na: 1\n", 9, &lines), 0, "never closed: none");
	TAP_IS_INT(lines, 0, "no lines");
	TAP_IS_INT(bmd_front_matter("--- \na\n---\n", 11, &lines), 0, "the opening line must be --- alone");
	TAP_IS_INT(bmd_front_matter("x\n---\n---\n", 10, &lines), 0, "only at the start");
	return tap_done();
}
