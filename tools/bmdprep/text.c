/*
 * text.c - the text normalisation and front matter rule that the lenient
 * llms.txt parser and the Markdown preparation share (see text.h).  Both
 * are linear in the text.
 */
#include <string.h>

#include "ctx.h"
#include "text.h"

char *
bmd_text_normalise(const char *in, size_t n, const char *nul, size_t nullen,
    size_t *outlen)
{
	const char *s = in;
	char *u = NULL, *r;
	size_t len = n, i, o;

	if (!utf8_valid(in, n, NULL)) {
		u = utf8_sanitize(in, n, &len);
		s = u;
	}
	r = xreallocarray(NULL, len + 1, nullen > 1 ? nullen : 1);
	i = (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) ? 3 : 0;
	for (o = 0; i < len; i++) {
		if (s[i] == '\r') {
			r[o++] = '\n';
			if (i + 1 < len && s[i + 1] == '\n')
				i++;
		} else if (s[i] == '\0') {
			if (nullen > 0)
				memcpy(r + o, nul, nullen);
			o += nullen;
		} else {
			r[o++] = s[i];
		}
	}
	r[o] = '\0';
	free(u);
	*outlen = o;
	return r;
}

size_t
bmd_front_matter(const char *s, size_t n, unsigned long *lines)
{
	size_t pos, e;
	const char *nl;

	*lines = 0;
	if (n < 4 || memcmp(s, "---\n", 4) != 0)
		return 0;
	*lines = 1;
	for (pos = 4; pos < n; pos = e + 1) {
		nl = memchr(s + pos, '\n', n - pos);
		e = nl ? (size_t)(nl - s) : n;
		++*lines;
		if (e - pos == 3 && (memcmp(s + pos, "---", 3) == 0 ||
		    memcmp(s + pos, "...", 3) == 0))
			return nl ? e + 1 : e;
		if (!nl)
			break;
	}
	*lines = 0;
	return 0;
}
