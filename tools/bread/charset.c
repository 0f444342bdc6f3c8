/*
 * charset.c - decode an archived page to UTF-8 before it is parsed.
 *
 * The evidence is weighed in this order (issue 4, WHATWG Encoding):
 *  1. a UTF-16 byte order mark (the bytes cannot be read any other way);
 *  2. bytes that are valid UTF-8 are UTF-8, whatever is declared: pages that
 *     declare GBK or ISO-8859-1 but are UTF-8 are common, and a real legacy
 *     page is almost never valid UTF-8 (a UTF-8 BOM is dropped);
 *  3. the charset of the HTTP Content-Type header (from the manifest);
 *  4. a <meta charset> or <meta http-equiv content="...charset=..."> in the
 *     first 4096 bytes;
 *  5. windows-1252, the web's default for unlabelled pages.
 * Labels are mapped as the Encoding standard does (ISO-8859-1 and ASCII are
 * windows-1252, GB2312 and GBK are GB18030) and converted with iconv(3);
 * an unknown label falls back to windows-1252.  Undecodable bytes and NUL
 * become U+FFFD, so the parser always receives valid UTF-8.
 */
#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <strings.h>
#include "ctx.h"
#include "bread.h"

static int
is_lws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Copy a charset value starting at p (after "charset") into out. */
static int
take_label(const char *p, const char *end, char *out, size_t outsz)
{
	size_t n = 0;
	char q = 0;

	while (p < end && is_lws((unsigned char)*p))
		p++;
	if (p >= end || *p != '=')
		return 0;
	p++;
	while (p < end && is_lws((unsigned char)*p))
		p++;
	if (p < end && (*p == '"' || *p == '\'')) {
		q = *p;
		p++;
	}
	while (p < end && *p != q && *p != ';' && *p != '>' && *p != ',' &&
	    !is_lws((unsigned char)*p) && (q || (*p != '"' && *p != '\''))) {
		if (n + 1 < outsz)
			out[n++] = *p;
		p++;
	}
	out[n] = '\0';
	return n > 0;
}

/* Case-insensitive search of needle in [p, end). */
static const char *
ci_find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; p + n <= end; p++)
		if (strncasecmp(p, needle, n) == 0)
			return p;
	return NULL;
}

int
bread_ct_charset(const char *ct, char *out, size_t outsz)
{
	const char *p, *end;

	if (ct == NULL || outsz == 0)
		return 0;
	end = ct + strlen(ct);
	p = ct;
	while ((p = ci_find(p, end, "charset")) != NULL) {
		if (take_label(p + 7, end, out, outsz))
			return 1;
		p += 7;
	}
	return 0;
}

/* The charset declared by a <meta> in the first 4096 bytes. */
static int
meta_charset(const char *data, size_t len, char *out, size_t outsz)
{
	const char *end = data + (len < 4096 ? len : 4096);
	const char *p = data, *tag, *gt, *cs;

	while ((tag = ci_find(p, end, "<meta")) != NULL) {
		gt = memchr(tag, '>', (size_t)(end - tag));
		if (gt == NULL)
			gt = end;
		cs = tag;
		while ((cs = ci_find(cs, gt, "charset")) != NULL) {
			if (take_label(cs + 7, gt, out, outsz))
				return 1;
			cs += 7;
		}
		p = tag + 5;
	}
	return 0;
}

/* Map a label to an iconv name; NULL for UTF-8. */
static const char *
map_label(const char *label)
{
	static const struct { const char *label, *name; } map[] = {
		{ "utf-8", NULL }, { "utf8", NULL }, { "unicode-1-1-utf-8", NULL },
		{ "us-ascii", "WINDOWS-1252" }, { "ascii", "WINDOWS-1252" },
		{ "iso-8859-1", "WINDOWS-1252" }, { "iso8859-1", "WINDOWS-1252" },
		{ "iso_8859-1", "WINDOWS-1252" }, { "latin1", "WINDOWS-1252" },
		{ "l1", "WINDOWS-1252" }, { "windows-1252", "WINDOWS-1252" },
		{ "cp1252", "WINDOWS-1252" }, { "x-cp1252", "WINDOWS-1252" },
		{ "gbk", "GB18030" }, { "gb2312", "GB18030" }, { "x-gbk", "GB18030" },
		{ "gb_2312-80", "GB18030" }, { "chinese", "GB18030" },
		{ "csgb2312", "GB18030" }, { "gb18030", "GB18030" },
		{ "utf-16", "UTF-16LE" }, { "utf-16le", "UTF-16LE" },
		{ "utf-16be", "UTF-16BE" }, { "shift_jis", "SHIFT_JIS" },
		{ "x-sjis", "SHIFT_JIS" }, { "sjis", "SHIFT_JIS" },
		{ "euc-jp", "EUC-JP" }, { "euc-kr", "EUC-KR" },
		{ "big5", "BIG5" }, { "koi8-r", "KOI8-R" },
	};
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcasecmp(label, map[i].label) == 0)
			return map[i].name;
	return "";	/* pass the label itself to iconv */
}

/* Append U+FFFD. */
static void
add_fffd(struct buf *b)
{
	buf_add(b, "\xEF\xBF\xBD", 3);
}

/*
 * Convert with iconv; returns 0, or -1 when iconv does not know the
 * charset.  step is the unit skipped over an undecodable sequence.
 */
static int
convert(const char *from, const char *data, size_t len, size_t step,
    struct buf *out)
{
	iconv_t cd = iconv_open("UTF-8", from);
	char chunk[16384];
	char *in = (char *)data;
	size_t inleft = len;

	if (cd == (iconv_t)-1)
		return -1;
	while (inleft > 0) {
		char *o = chunk;
		size_t oleft = sizeof chunk;
		size_t r = iconv(cd, &in, &inleft, &o, &oleft);
		buf_add(out, chunk, (size_t)(o - chunk));
		if (r == (size_t)-1) {
			if (errno == E2BIG)
				continue;
			/* EILSEQ or a truncated sequence at the end */
			add_fffd(out);
			if (inleft < step)
				break;
			in += step;
			inleft -= step;
			iconv(cd, NULL, NULL, NULL, NULL);
		}
	}
	{
		char *o = chunk;
		size_t oleft = sizeof chunk;
		iconv(cd, NULL, NULL, &o, &oleft);
		buf_add(out, chunk, (size_t)(o - chunk));
	}
	iconv_close(cd);
	return 0;
}

/*
 * Valid UTF-8 with NULs and bad sequences replaced, as a new string;
 * valid: s is known to be valid UTF-8 (a copy, not checked again).
 */
static char *
clean_utf8(const char *s, size_t n, int valid, size_t *outlen)
{
	size_t len, i, j;
	char *t;

	if (valid) {
		t = xmalloc(n + 1);
		memcpy(t, s, n);
		t[n] = '\0';
		len = n;
	} else {
		t = utf8_sanitize(s, n, &len);
	}
	struct buf b = BUF_INIT;

	if (memchr(t, '\0', len) == NULL) {
		*outlen = len;
		return t;
	}
	for (i = j = 0; i < len; i++) {
		if (t[i] == '\0') {
			buf_add(&b, t + j, i - j);
			add_fffd(&b);
			j = i + 1;
		}
	}
	buf_add(&b, t + j, len - j);
	free(t);
	buf_adds(&b, "");
	return buf_detach(&b, outlen);
}

char *
bread_decode(const char *data, size_t len, const char *ct, size_t *outlen,
    char *charset)
{
	char label[64];
	const unsigned char *u = (const unsigned char *)data;
	const char *name = NULL;
	struct buf b = BUF_INIT;
	size_t step = 1;
	int valid = 0;
	char *r, *s;
	size_t n;

	if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) ||
	    (u[0] == 0xFE && u[1] == 0xFF))) {
		name = u[0] == 0xFF ? "UTF-16LE" : "UTF-16BE";
		data += 2;
		len -= 2;
		step = 2;
		goto conv;
	}
	if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
		data += 3;
		len -= 3;
	}
	if ((valid = utf8_valid(data, len, NULL)) != 0)
		goto utf8;
	if (bread_ct_charset(ct, label, sizeof label) ||
	    meta_charset(data, len, label, sizeof label)) {
		name = map_label(label);
		if (name == NULL)	/* declared UTF-8 but invalid: repair */
			goto utf8;
		if (*name == '\0')
			name = label;
	} else {
		name = "WINDOWS-1252";
	}
	if (strncasecmp(name, "UTF-16", 6) == 0)
		step = 2;
conv:
	if (convert(name, data, len, step, &b) < 0) {
		buf_reset(&b);
		name = "WINDOWS-1252";
		step = 1;
		if (convert(name, data, len, step, &b) < 0)
			goto utf8;
	}
	if (charset) {
		snprintf(charset, BREAD_CHARSET_MAX, "%s", name);
		for (s = charset; *s; s++)
			if (*s >= 'a' && *s <= 'z')
				*s = (char)(*s - 'a' + 'A');
	}
	buf_adds(&b, "");
	r = clean_utf8(b.s, b.len, 0, &n);
	buf_release(&b);
	*outlen = n;
	return r;
utf8:
	if (charset)
		snprintf(charset, BREAD_CHARSET_MAX, "UTF-8");
	return clean_utf8(data, len, valid, outlen);
}

const char *
bread_decode_view(const char *data, size_t len, const char *ct,
    size_t *outlen, char *charset, char **owned)
{
	const unsigned char *u = (const unsigned char *)data;
	const char *t = data;
	size_t n = len;

	*owned = NULL;
	if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
		t += 3;
		n -= 3;
	}
	/* a UTF-16 byte order mark is never valid UTF-8 */
	if (utf8_valid(t, n, NULL) && memchr(t, '\0', n) == NULL) {
		if (charset)
			snprintf(charset, BREAD_CHARSET_MAX, "UTF-8");
		*outlen = n;
		return t;
	}
	*owned = bread_decode(data, len, ct, outlen, charset);
	return *owned;
}
