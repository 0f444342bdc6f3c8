/*
 * mdcode.c - the code lines of Markdown (see mdcode.h).  Linear: each line
 * is looked at once, with a constant amount of state.
 */
#include <string.h>

#include "mdcode.h"

/* Fence run at s[0..n): its length (>= 3) and char, else 0. */
size_t
md_fence(const char *s, size_t n, char *ch)
{
	size_t i = 0, k = 0;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	if (i >= n || (s[i] != '`' && s[i] != '~'))
		return 0;
	while (i + k < n && s[i + k] == s[i])
		k++;
	if (k < 3)
		return 0;
	*ch = s[i];
	return k;
}

int
md_fence_closes(const char *s, size_t n, size_t k)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	for (i += k; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

size_t
md_fence_open(const char *s, size_t n, char *ch)
{
	size_t k = md_fence(s, n, ch), i = 0;

	if (k == 0)
		return 0;
	while (s[i] == ' ')
		i++;
	if (*ch == '`' && memchr(s + i + k, '`', n - i - k))
		return 0;
	return k;
}

/*
 * Strip up to max block-quote markers: returns how many, *off the
 * content's start.
 */
static size_t
quote_depth(const char *s, size_t n, size_t max, size_t *off)
{
	size_t i = 0, depth = 0;

	while (depth < max) {
		size_t j = i;

		while (j < n && j - i < 3 && s[j] == ' ')
			j++;
		if (j >= n || s[j] != '>')
			break;
		depth++;
		i = j + 1;
		if (i < n && s[i] == ' ')
			i++;
	}
	*off = i;
	return depth;
}

/* Columns of leading white space (tabs to the next multiple of 4), up to 4. */
static size_t
indent_cols(const char *s, size_t n, size_t *first)
{
	size_t i = 0, col = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t') && col < 4) {
		col = s[i] == '\t' ? (col / 4 + 1) * 4 : col + 1;
		i++;
	}
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*first = i;
	return col;
}

/* A list item marker ("- ", "* ", "+ ", "1. ", "1) ") at s[i]. */
static int
list_marker(const char *s, size_t n, size_t i)
{
	size_t j = i;

	if (i < n && (s[i] == '-' || s[i] == '*' || s[i] == '+'))
		return i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t';
	while (j < n && j - i < 9 && s[j] >= '0' && s[j] <= '9')
		j++;
	if (j == i || j >= n || (s[j] != '.' && s[j] != ')'))
		return 0;
	return j + 1 == n || s[j + 1] == ' ' || s[j + 1] == '\t';
}

static enum md_line
in_fence(struct md_code *st, const char *s, size_t n)
{
	char c2;
	size_t k = md_fence(s, n, &c2);

	if (k >= st->flen && c2 == st->fch && md_fence_closes(s, n, k)) {
		st->flen = 0;
		return MD_FENCE;
	}
	return MD_CODE;
}

static enum md_line
classify(struct md_code *st, const char *s, size_t n, size_t q)
{
	size_t first, col;

	if (st->flen && q >= st->fquote)
		return in_fence(st, s, n);
	st->flen = 0;		/* the block quote holding the fence ended */
	col = indent_cols(s, n, &first);
	if (first == n) {
		st->para = 0;
		return MD_BLANK;
	}
	if (col >= 4 && (st->indented || (!st->para && !st->in_list)))
		return MD_CODE;
	st->indented = 0;
	if (col < 4 && (st->flen = md_fence_open(s, n, &st->fch)) > 0) {
		st->fquote = q;
		st->para = 0;
		st->in_list = 0;
		return MD_FENCE;
	}
	if (col < 4 && list_marker(s, n, first))
		st->in_list = 1;
	else if (col == 0 && !st->para)
		st->in_list = 0;
	st->para = s[first] != '#';
	return MD_TEXT;
}

enum md_line
md_code_line(struct md_code *st, const char *s, size_t n, size_t *body)
{
	size_t off, q;
	enum md_line c;

	/* inside a fence, markers beyond the fence's own are code */
	q = quote_depth(s, n, st->flen ? st->fquote : (size_t)-1, &off);
	c = classify(st, s + off, n - off, q);

	if (c == MD_CODE && st->flen == 0)
		st->indented = 1;
	else if (c != MD_BLANK)
		st->indented = 0;
	st->prev = c;
	if (body)
		*body = off;
	return c;
}
