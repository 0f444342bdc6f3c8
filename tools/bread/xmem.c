/*
 * xmem.c - libxml2's allocations for one page from an arena (xmem.h).
 *
 * Every allocation carries a 16-byte header: its size (in the arena, the
 * room it has) and where it comes from (the C library or the arena), so that libxml2's free and realloc
 * know what to do with any pointer, whenever it was allocated.  This is
 * process state by necessity (xmlMemSetup takes no context).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
#include "err.h"
#include "xmem.h"

#define HDR 16			/* header bytes, keeps 16-byte alignment */
#define FROM_LIBC 0
#define FROM_ARENA 1
#define BLOCK ((size_t)256 * 1024)

struct block {
	struct block *next;
	size_t cap, used;
	unsigned char data[];
};

static struct {
	int installed, on;
	struct block *head, *cur;	/* cur: the block being filled */
	struct block *big;		/* this page's allocations over BLOCK */
	struct block *spare;		/* earlier pages' ones, to use again */
	unsigned char *last;		/* the newest arena allocation */
} X;

static size_t
round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

static void *
tag(unsigned char *h, size_t n, size_t from)
{
	((size_t *)(void *)h)[0] = n;
	((size_t *)(void *)h)[1] = from;
	return h + HDR;
}

/* The next block to fill (a kept one, else a new one at the end). */
static struct block *
next_block(void)
{
	struct block *b;

	if (X.cur != NULL && X.cur->next != NULL) {
		X.cur = X.cur->next;
		X.cur->used = 0;
		return X.cur;
	}
	b = xmalloc(sizeof *b + BLOCK);
	b->cap = BLOCK;
	b->used = 0;
	b->next = NULL;
	if (X.cur != NULL)
		X.cur->next = b;
	else
		X.head = b;
	X.cur = b;
	return b;
}

/*
 * A block of at least need bytes: a spare one when one is large enough
 * (its pages are mapped already: the page's copy in the parser and the
 * parser's own buffers cost no page faults again), else a new one.
 */
static struct block *
big_block(size_t need)
{
	struct block **pp, *b;

	for (pp = &X.spare; (b = *pp) != NULL; pp = &b->next) {
		if (b->cap >= need) {
			*pp = b->next;
			return b;
		}
	}
	b = xmalloc(sizeof *b + need);
	b->cap = need;
	return b;
}

/* n bytes, need with their header, at the end of block b, which has room. */
static inline void *
arena_take(struct block *b, size_t need, size_t n)
{
	X.last = b->data + b->used;
	b->used += need;
	return tag(X.last, n, FROM_ARENA);
}

/* arena_alloc when the block being filled has no room for n bytes (or
   there is none yet): the next block, or one of n's own. */
static void *
arena_alloc_slow(size_t n)
{
	struct block *b;
	size_t need;

	if (n > SIZE_MAX / 2)
		die("out of memory (%zu bytes)", n);
	need = HDR + round16(n);
	if (need <= BLOCK)
		return arena_take(next_block(), need, n);
	/* a block of its own, kept for another page at the end of this one */
	b = big_block(need);
	b->used = need;
	b->next = X.big;
	X.big = b;
	return tag(b->data, n, FROM_ARENA);
}

/* n bytes from the arena: in the block being filled while it has room. */
static inline void *
arena_alloc(size_t n)
{
	struct block *b = X.cur;
	size_t need;

	if (b == NULL || n > BLOCK)
		return arena_alloc_slow(n);
	need = HDR + round16(n);
	if (b->cap - b->used < need)
		return arena_alloc_slow(n);
	return arena_take(b, need, n);
}

static void *
x_malloc(size_t n)
{
	if (X.on)
		return arena_alloc(n);
	if (n > SIZE_MAX - HDR)
		die("out of memory (%zu bytes)", n);
	return tag(xmalloc(n + HDR), n, FROM_LIBC);
}

static void
x_free(void *p)
{
	unsigned char *h;

	if (p == NULL)
		return;
	h = (unsigned char *)p - HDR;
	if (((size_t *)(void *)h)[1] == FROM_LIBC)
		free(h);
}

/* Grow the newest arena allocation where it lies when its block has room. */
static int
grow_last(unsigned char *h, size_t n)
{
	struct block *b = X.cur;
	size_t at;

	if (h != X.last || b == NULL || h < b->data || h >= b->data + b->cap)
		return 0;
	at = (size_t)(h - b->data);
	if (n > b->cap || b->cap - at < HDR + round16(n))
		return 0;
	b->used = at + HDR + round16(n);
	((size_t *)(void *)h)[0] = n;
	return 1;
}

static void *
x_realloc(void *p, size_t n)
{
	unsigned char *h;
	size_t old;
	void *q;

	if (p == NULL)
		return x_malloc(n);
	h = (unsigned char *)p - HDR;
	old = ((size_t *)(void *)h)[0];
	if (((size_t *)(void *)h)[1] == FROM_LIBC) {
		if (n > SIZE_MAX - HDR)
			die("out of memory (%zu bytes)", n);
		return tag(xrealloc(h, n + HDR), n, FROM_LIBC);
	}
	if (n <= old || grow_last(h, n))
		return p;
	/* growing copies: twice the room, as libc's realloc mostly grows in place */
	q = arena_alloc(n / 2 > old ? n : old * 2 > n ? old * 2 : n);
	memcpy(q, p, old);
	return q;
}

static char *
x_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = x_malloc(n);

	memcpy(p, s, n);
	return p;
}

/* Built with AddressSanitizer (make asan), libxml2 allocates node by node
 * through the checked allocators and no arena is installed, so that a use
 * of a freed node or a read past a string is reported, not hidden inside a
 * block the arena owns. */
#if defined(__SANITIZE_ADDRESS__)
#define XMEM_ARENA 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XMEM_ARENA 0
#endif
#endif
#ifndef XMEM_ARENA
#define XMEM_ARENA 1
#endif

void
bread_xmem_install(void)
{
	if (!XMEM_ARENA) {
		xmlMemSetup(free, xmalloc, xrealloc, xstrdup);
		xmlInitParser();
		return;
	}
	xmlMemSetup(x_free, x_malloc, x_realloc, x_strdup);
	xmlInitParser();
	X.installed = 1;
}

int
bread_xmem_begin(void)
{
	if (!X.installed)
		return 0;
	X.cur = X.head;
	if (X.cur != NULL)
		X.cur->used = 0;
	X.last = NULL;
	X.on = 1;
	return 1;
}

int
bread_xmem_on(void)
{
	return X.on;
}

/*
 * Keep the SPARE_MAX largest spare blocks of at most SPARE_BIG bytes, in
 * increasing size (so that the first fit is the best).
 */
#define SPARE_MAX 8
#define SPARE_BIG ((size_t)32 * 1024 * 1024)
static void
trim_spare(void)
{
	struct block *sorted = NULL, *b, **pp;
	size_t k;

	while ((b = X.spare) != NULL) {
		X.spare = b->next;
		for (pp = &sorted; *pp != NULL && (*pp)->cap > b->cap; pp = &(*pp)->next)
			continue;
		b->next = *pp;
		*pp = b;
	}
	/* sorted is largest first: keep SPARE_MAX, then reverse into X.spare */
	for (k = 0; (b = sorted) != NULL; k++) {
		sorted = b->next;
		if (k >= SPARE_MAX || b->cap > SPARE_BIG) {
			free(b);
			continue;
		}
		b->next = X.spare;
		X.spare = b;
	}
}

void
bread_xmem_end(void)
{
	struct block *b;

	if (!X.installed)
		return;
	X.on = 0;
	xmlResetLastError();
	while ((b = X.big) != NULL) {
		X.big = b->next;
		b->next = X.spare;
		X.spare = b;
	}
	trim_spare();
	X.cur = X.head;
	X.last = NULL;
}
