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
#include "btok.h"
#include "added.h"
#include "hash.h"

static uint32_t
edge_slot(const struct btok_atrie *tr, uint32_t node, unsigned char c)
{
	return (uint32_t)btok_mix64((uint64_t)node << 8 | c) & (tr->ecap - 1);
}

/* The child of node by byte c, 0 when none. */
static uint32_t
edge_find(const struct btok_atrie *tr, uint32_t node, unsigned char c)
{
	uint32_t m = tr->ecap - 1;
	for (uint32_t i = edge_slot(tr, node, c);; i = (i + 1) & m) {
		if (tr->e[i].child == 0)
			return 0;
		if (tr->e[i].node == node && tr->e[i].byte == c)
			return tr->e[i].child;
	}
}

/* The child of node by byte c, made when missing. */
static uint32_t
edge_add(struct btok_atrie *tr, uint32_t node, unsigned char c)
{
	uint32_t m = tr->ecap - 1, x, child = edge_find(tr, node, c);

	if (child)
		return child;
	for (x = edge_slot(tr, node, c); tr->e[x].child; x = (x + 1) & m)
		;
	child = tr->nnodes++;
	tr->term[child] = BTOK_NONE;
	tr->e[x].node = node;
	tr->e[x].byte = c;
	tr->e[x].child = child;
	return child;
}

/* The trie of the added tokens whose NORMALIZED flag is want. */
static void
trie_build1(struct btok_atrie *tr, const struct btok *t, unsigned want)
{
	size_t total = 1;
	uint32_t i;

	memset(tr, 0, sizeof *tr);
	for (i = 0; i < t->h->nadded; i++)
		if ((t->added[i].flags & BTOK_ADDED_NORMALIZED) == want)
			total += t->tok[t->added[i].id].len;
	tr->ecap = 16;
	while (tr->ecap < total * 2)
		tr->ecap <<= 1;
	tr->e = xcalloc(tr->ecap, sizeof *tr->e);
	tr->term = xmalloc(total * sizeof *tr->term);
	tr->term[0] = BTOK_NONE;
	tr->nnodes = 1;
	for (i = 0; i < t->h->nadded; i++) {
		const struct btok_span *sp = &t->tok[t->added[i].id];
		const unsigned char *p = (const unsigned char *)t->pool + sp->off;
		uint32_t node = 0;

		if ((t->added[i].flags & BTOK_ADDED_NORMALIZED) != want || sp->len == 0)
			continue;
		tr->first[p[0]] = 1;
		for (uint32_t j = 0; j < sp->len; j++)
			node = edge_add(tr, node, p[j]);
		/* The same content twice: the first entry wins. */
		if (tr->term[node] == BTOK_NONE)
			tr->term[node] = i;
	}
}

void
btok_trie_build(struct btok_trie *tr, const struct btok *t)
{
	trie_build1(&tr->raw, t, 0);
	trie_build1(&tr->norm, t, BTOK_ADDED_NORMALIZED);
}

void
btok_trie_free(struct btok_trie *tr)
{
	free(tr->raw.e);
	free(tr->raw.term);
	free(tr->norm.e);
	free(tr->norm.term);
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
