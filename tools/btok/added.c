/*
 * added.c - the tries of the added tokens, for the first step of encoding:
 * the longest added token at a position, which the encoder's left-to-right
 * scan turns into Hugging Face AddedVocabulary's leftmost-longest matches
 * (aho-corasick MatchKind::LeftmostLongest).  Edges are kept in one
 * open-addressing table keyed by (node, byte).
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sort.h"
#include "btok.h"
#include "added.h"
#include "hash.h"

static uint32_t
edge_slot(uint32_t ecap, uint32_t node, unsigned char c)
{
	return (uint32_t)ctx_mix64((uint64_t)node << 8 | c) & (ecap - 1);
}

/* The child of node by byte c, 0 when none. */
static uint32_t
edge_find(const struct btok_atrie *tr, uint32_t node, unsigned char c)
{
	uint32_t m = tr->ecap - 1;
	for (uint32_t i = edge_slot(tr->ecap, node, c);; i = (i + 1) & m) {
		if (tr->e[i].child == 0)
			return 0;
		if (tr->e[i].node == node && tr->e[i].byte == c)
			return tr->e[i].child;
	}
}

/* Add the edge node -c-> child, which is not in tb yet. */
static void
edge_new(struct btok_tbuild *tb, uint32_t node, unsigned char c, uint32_t child)
{
	uint32_t m = tb->ecap - 1, x;

	for (x = edge_slot(tb->ecap, node, c); tb->e[x].child; x = (x + 1) & m)
		;
	tb->e[x].node = node;
	tb->e[x].byte = c;
	tb->e[x].child = child;
}

/* Added tokens (indices in t->added) by their bytes. */
static int
cmp_added(const void *a, const void *b, void *arg)
{
	const struct btok *t = arg;
	const struct btok_span *x = &t->tok[t->added[*(const uint32_t *)a].id];
	const struct btok_span *y = &t->tok[t->added[*(const uint32_t *)b].id];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(t->pool + x->off, t->pool + y->off, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Length of the common prefix of two spans of t's pool. */
static uint32_t
common_prefix(const struct btok *t, const struct btok_span *x,
    const struct btok_span *y)
{
	uint32_t n = x->len < y->len ? x->len : y->len, k = 0;

	while (k < n && t->pool[x->off + k] == t->pool[y->off + k])
		k++;
	return k;
}

/*
 * Build the trie of the tokens idx[0..n) (indices in t->added, sorted by
 * their bytes, equal contents in index order): each token shares the path
 * of its common prefix with the one before, so a node is made once and
 * never looked up, and the table is sized for the nodes, not the bytes.
 */
static void
trie_fill(struct btok_tbuild *tr, const struct btok *t, const uint32_t *idx,
    size_t n)
{
	size_t nodes = 1, maxlen = 0;
	uint32_t *path;

	for (size_t i = 0; i < n; i++) {
		const struct btok_span *sp = &t->tok[t->added[idx[i]].id];
		nodes += sp->len - (i ? common_prefix(t, sp,
		    &t->tok[t->added[idx[i - 1]].id]) : 0);
		if (sp->len > maxlen)
			maxlen = sp->len;
	}
	tr->ecap = 16;
	while (tr->ecap < nodes * 2)
		tr->ecap <<= 1;
	tr->e = xcalloc(tr->ecap, sizeof *tr->e);
	tr->term = xmalloc(nodes * sizeof *tr->term);
	tr->term[0] = BTOK_NONE;
	tr->nnodes = 1;
	path = xmalloc((maxlen + 1) * sizeof *path);
	path[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const struct btok_span *sp = &t->tok[t->added[idx[i]].id];
		const unsigned char *p = (const unsigned char *)t->pool + sp->off;
		uint32_t j = i ? common_prefix(t, sp, &t->tok[t->added[idx[i - 1]].id]) : 0;

		tr->first[p[0]] = 1;
		for (; j < sp->len; j++) {
			path[j + 1] = tr->nnodes++;
			tr->term[path[j + 1]] = BTOK_NONE;
			edge_new(tr, path[j], p[j], path[j + 1]);
		}
		/* The same content twice: the first entry wins. */
		if (tr->term[path[sp->len]] == BTOK_NONE)
			tr->term[path[sp->len]] = idx[i];
	}
	free(path);
}

void
btok_trie_build(struct btok_tbuild *tb, const struct btok *t, unsigned want)
{
	uint32_t *idx = xmalloc((t->h->nadded + 1) * sizeof *idx);
	size_t n = 0;

	memset(tb, 0, sizeof *tb);
	for (uint32_t i = 0; i < t->h->nadded; i++)
		if ((t->added[i].flags & BTOK_ADDED_NORMALIZED) == want &&
		    t->tok[t->added[i].id].len > 0)
			idx[n++] = i;
	ctx_sort(idx, n, sizeof *idx, cmp_added, (void *)t);
	trie_fill(tb, t, idx, n);
	free(idx);
}

void
btok_tbuild_free(struct btok_tbuild *tb)
{
	free(tb->e);
	free(tb->term);
	memset(tb, 0, sizeof *tb);
}

/* Branch-free over the slots, like image.c's table checks. */
int
btok_trie_ok(const struct btok_atrie *tr, uint32_t nadded)
{
	uint64_t bad = 0, empty = 0;

	for (uint32_t i = 0; i < tr->ecap; i++) {
		const struct btok_tedge *x = &tr->e[i];
		uint64_t used = x->child != 0;

		empty += !used;
		bad |= used & ((x->child >= tr->nnodes) | (x->node >= tr->nnodes) |
		    (x->byte > 255));
	}
	for (uint32_t i = 0; i < tr->nnodes; i++)
		bad |= tr->term[i] != BTOK_NONE && tr->term[i] >= nadded;
	return !bad && empty;
}

size_t
btok_trie_match(const struct btok_atrie *tr, const unsigned char *s, size_t n,
    uint32_t *which)
{
	uint32_t node = 0;
	size_t best = 0;

	if (!tr->first[s[0]])
		return 0;
	for (size_t j = 0; j < n; j++) {
		node = edge_find(tr, node, s[j]);
		if (!node)
			break;
		if (tr->term[node] != BTOK_NONE) {
			best = j + 1;
			*which = tr->term[node];
		}
	}
	return best;
}
