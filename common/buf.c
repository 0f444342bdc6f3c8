/*
 * buf.c - growable, NUL-terminated byte buffer (see buf.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void
buf_init(struct buf *b)
{
	b->s = NULL;
	b->len = 0;
	b->cap = 0;
}

void
buf_grow(struct buf *b, size_t extra)
{
	size_t need, cap;

	if (extra > ((size_t)-1) - b->len - 1)
		die("buffer size overflow");
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > ((size_t)-1) / 2 ? need : cap * 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
	if (b->len == 0)
		b->s[0] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("formatting failed");
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void
buf_setlen(struct buf *b, size_t len)
{
	if (len > b->len)
		die("buf_setlen beyond the end");
	b->len = len;
	if (b->s)
		b->s[len] = '\0';
}

char *
buf_detach(struct buf *b, size_t *len)
{
	char *s;

	if (b->s == NULL)
		buf_grow(b, 0);
	s = b->s;
	if (len)
		*len = b->len;
	buf_init(b);
	return s;
}

void
buf_release(struct buf *b)
{
	free(b->s);
	buf_init(b);
}

const char *
buf_str(const struct buf *b)
{
	return b->s ? b->s : "";
}
