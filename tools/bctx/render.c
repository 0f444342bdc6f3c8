/*
 * render.c - the pieces of the reference create_ctx serialisation that are
 * not obvious: Python's str.lower() of section names (llms_txt calls
 * fastcore's ft(name), which lower-cases the tag), fastcore 2.2's _to_attr
 * quoting, and the block-tag indentation of fastcore's _to_xml (a section
 * called "Section" or "Table" becomes "  <section>\n...  </section>\n").
 * Reference: AnswerDotAI/llms-txt llms_txt/core.py (create_ctx, mk_ctx,
 * _section, _doc) and AnswerDotAI/fastcore fastcore/xml.py (_to_attr,
 * _block_tags, _ws_significant, _to_xml), as pinned in
 * shared/conformance/llmstxt/README.md.
 */
#include <string.h>
#include <utf8proc.h>

#include "ctx.h"
#include "bctx.h"

static int
is_cased(utf8proc_int32_t c)
{
	utf8proc_category_t k = utf8proc_category(c);

	return k == UTF8PROC_CATEGORY_LU || k == UTF8PROC_CATEGORY_LL ||
	    k == UTF8PROC_CATEGORY_LT;
}

static int
is_case_ignorable(utf8proc_int32_t c)
{
	utf8proc_category_t k = utf8proc_category(c);

	return k == UTF8PROC_CATEGORY_MN || k == UTF8PROC_CATEGORY_ME ||
	    k == UTF8PROC_CATEGORY_CF || k == UTF8PROC_CATEGORY_LM ||
	    k == UTF8PROC_CATEGORY_SK || c == '\'' || c == '.' || c == ':' ||
	    c == '^' || c == '`' || c == 0xB7 || c == 0x2019;
}

/* Decode s into code points (invalid bytes become U+FFFD). */
static utf8proc_int32_t *
decode(const char *s, size_t *n)
{
	size_t len = strlen(s), i = 0, k = 0;
	utf8proc_int32_t *cp = xreallocarray(NULL, len + 1, sizeof *cp);

	while (i < len) {
		utf8proc_ssize_t r = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
		    (utf8proc_ssize_t)(len - i), &cp[k]);
		if (r <= 0) {
			cp[k] = 0xFFFD;
			r = 1;
		}
		i += (size_t)r;
		k++;
	}
	*n = k;
	return cp;
}

static void
add_cp(struct buf *b, utf8proc_int32_t c)
{
	utf8proc_uint8_t tmp[4];
	utf8proc_ssize_t n = utf8proc_encode_char(c, tmp);

	buf_add(b, tmp, (size_t)n);
}

/* Python's final-sigma condition (Objects/unicodeobject.c handle_capital_sigma). */
static int
final_sigma(const utf8proc_int32_t *cp, size_t n, size_t i)
{
	size_t j;
	int before = 0, after = 0;

	for (j = i; j > 0; j--) {
		if (is_case_ignorable(cp[j - 1]))
			continue;
		before = is_cased(cp[j - 1]);
		break;
	}
	for (j = i + 1; j < n; j++) {
		if (is_case_ignorable(cp[j]))
			continue;
		after = is_cased(cp[j]);
		break;
	}
	return before && !after;
}

/* s lower-cased when it is ASCII (the whole of str.lower() there: A-Z to
 * a-z), else NULL. */
static char *
ascii_lower(const char *s)
{
	size_t n, i;
	char *t;

	for (n = 0; s[n]; n++)
		if ((unsigned char)s[n] >= 0x80)
			return NULL;
	t = xmalloc(n + 1);
	for (i = 0; i <= n; i++)
		t[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') :
		    s[i];
	return t;
}

char *
bctx_py_lower(const char *s)
{
	struct buf b = BUF_INIT;
	size_t n, i;
	utf8proc_int32_t *cp;
	char *t;

	if ((t = ascii_lower(s)) != NULL)
		return t;
	cp = decode(s, &n);

	for (i = 0; i < n; i++) {
		if (cp[i] == 0x130) {		/* SpecialCasing: İ -> i + U+0307 */
			add_cp(&b, 'i');
			add_cp(&b, 0x307);
		} else if (cp[i] == 0x3A3)
			add_cp(&b, final_sigma(cp, n, i) ? 0x3C2 : 0x3C3);
		else
			add_cp(&b, utf8proc_tolower(cp[i]));
	}
	free(cp);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

void
bctx_ref_attr(struct buf *b, const char *k, const char *v)
{
	struct buf e = BUF_INIT;
	const char *p;
	char qt = '"';

	if (v[strcspn(v, "&<>\"")] == '\0') {	/* nothing to escape */
		buf_addc(b, ' ');
		buf_adds(b, k);
		buf_add(b, "=\"", 2);
		buf_adds(b, v);
		buf_addc(b, '"');
		return;
	}
	for (p = v; *p; p++) {		/* html.escape(v, quote=False) */
		if (*p == '&')
			buf_adds(&e, "&amp;");
		else if (*p == '<')
			buf_adds(&e, "&lt;");
		else if (*p == '>')
			buf_adds(&e, "&gt;");
		else
			buf_addc(&e, *p);
	}
	buf_addc(b, ' ');
	buf_adds(b, k);
	buf_addc(b, '=');
	if (strchr(buf_str(&e), '"'))
		qt = '\'';
	buf_addc(b, qt);
	for (p = buf_str(&e); *p; p++) {
		if (qt == '\'' && *p == '\'')
			buf_adds(b, "&#39;");
		else
			buf_addc(b, *p);
	}
	buf_addc(b, qt);
	buf_release(&e);
}

void
bctx_xml_attr(struct buf *b, const char *k, const char *v)
{
	const char *p;

	buf_addc(b, ' ');
	buf_adds(b, k);
	buf_adds(b, "=\"");
	for (p = v; *p; p++) {
		switch (*p) {
		case '&': buf_adds(b, "&amp;"); break;
		case '<': buf_adds(b, "&lt;"); break;
		case '>': buf_adds(b, "&gt;"); break;
		case '"': buf_adds(b, "&quot;"); break;
		default: buf_addc(b, *p);
		}
	}
	buf_addc(b, '"');
}

static const char *const block_tags[] = {
	"div", "p", "ul", "ol", "li", "table", "thead", "tbody", "tfoot",
	"html", "head", "body", "meta", "title", "!doctype", "input", "script",
	"link", "style", "tr", "th", "td", "section", "article", "nav", "aside",
	"header", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", NULL
};
static const char *const ws_significant[] = {
	"pre", "code", "textarea", "script", NULL
};

static int
in_set(const char *s, const char *const *set)
{
	for (; *set; set++)	/* the first byte told apart at once */
		if (**set == *s && strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* The block-tag indentation of section name's element (tag malloc'd). */
static int
section_block(const char *name, char **tag)
{
	*tag = bctx_py_lower(name);
	return in_set(*tag, block_tags) && !in_set(*tag, ws_significant);
}

void
bctx_ref_section_start(struct buf *b, const char *name, int ndocs)
{
	char *tag;
	int block = section_block(name, &tag);

	if (block)
		buf_adds(b, "  ");
	if (*tag) {		/* fastcore writes no start tag for an empty name */
		buf_addc(b, '<');
		buf_adds(b, tag);
		buf_addc(b, '>');
	}
	if (ndocs > 0 && block)
		buf_addc(b, '\n');
	free(tag);
}

void
bctx_ref_section_end(struct buf *b, const char *name, int ndocs)
{
	char *tag;
	int block = section_block(name, &tag);

	if (ndocs > 0 && block)
		buf_adds(b, "  ");
	buf_adds(b, "</");
	buf_adds(b, tag);
	buf_addc(b, '>');
	if (block)
		buf_addc(b, '\n');
	free(tag);
}
