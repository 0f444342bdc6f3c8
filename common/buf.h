/*
 * buf.h - a growable byte buffer, always NUL-terminated.
 *
 * struct buf b = BUF_INIT; buf_add(&b, p, n); ... buf_release(&b);
 * b.s is valid (an empty string) even before the first addition.  Sizes are
 * checked for overflow; allocation failure dies.  buf_detach() hands the
 * malloc'd string to the caller and resets the buffer.
 */
#ifndef CTX_BUF_H
#define CTX_BUF_H

#include <stddef.h>
#include <string.h>
#include "err.h"

struct buf {
	char *s;	/* contents, NUL-terminated; never NULL after an add */
	size_t len;	/* bytes used, excluding the NUL */
	size_t cap;	/* bytes allocated */
};

#define BUF_INIT { NULL, 0, 0 }

void buf_init(struct buf *b);
/* Room for extra more bytes and the NUL; the capacity at least doubles. */
void buf_grow(struct buf *b, size_t extra);
static inline void buf_add(struct buf *b, const void *p, size_t n);
void buf_adds(struct buf *b, const char *s);
static inline void buf_addc(struct buf *b, int c);
void buf_addf(struct buf *b, const char *fmt, ...) CTX_PRINTF(2, 3);
void buf_reset(struct buf *b);		/* length 0, keeps memory */
void buf_setlen(struct buf *b, size_t len);	/* len <= b->len */
char *buf_detach(struct buf *b, size_t *len);
void buf_release(struct buf *b);
/* The contents, or "" when nothing was ever added. */
const char *buf_str(const struct buf *b);

/*
 * The two appends every byte of output goes through, inline: a call to
 * buf_grow only when the room runs out (cap > len always holds once
 * anything was allocated, and cap == len == 0 before).
 */
static inline void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n >= b->cap - b->len)
		buf_grow(b, n);
	if (n)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void
buf_addc(struct buf *b, int c)
{
	if (b->len + 1 >= b->cap)
		buf_grow(b, 1);
	b->s[b->len++] = (char)c;
	b->s[b->len] = '\0';
}

#endif
