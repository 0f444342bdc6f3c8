/*
 * encode.c - encoding text with a compiled tokenizer image.
 *
 * The steps follow Hugging Face tokenizers (tokenizer/mod.rs
 * encode_single_sequence, add_special_tokens = false):
 *  1. AddedVocabulary::extract_and_normalize: added tokens that are not
 *     "normalized" are found in the raw text, leftmost-longest (the
 *     aho-corasick MatchKind::LeftmostLongest the crate uses); with
 *     encode_special_tokens a special token's match is left in the text.
 *     Each remaining segment is normalised, then searched again for the
 *     "normalized" added tokens.
 *  2. The pre-tokeniser splits each segment (pretok.c).
 *  3. The model turns each piece into ids: models/bpe/model.rs
 *     (merge_word, then word.rs merge_all with its priority queue, ranks from
 *     the merges list, byte fallback to <0xNN>, fuse_unk) or, for tekken,
 *     tiktoken's byte_pair_merge (lowest rank first, leftmost on ties, the
 *     whole piece looked up first).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "btok.h"
#include "hash.h"

/* ------------------------------------------------------------ added tokens */

struct tedge { uint32_t node; uint32_t child; uint32_t byte; };

struct trie1 {
	struct tedge *e;
	uint32_t ecap, nnodes;
	uint32_t *term;		/* node -> index in added[], BTOK_NONE */
	unsigned char first[256];
};

struct btok_trie {
	struct trie1 raw, norm;
};

static uint32_t
edge_find(const struct trie1 *t, uint32_t node, unsigned char c)
{
	uint32_t m = t->ecap - 1;
	uint32_t i = (uint32_t)btok_mix64((uint64_t)node << 8 | c) & m;
	for (;; i = (i + 1) & m) {
		if (t->e[i].child == 0)
			return 0;
		if (t->e[i].node == node && t->e[i].byte == c)
			return t->e[i].child;
	}
}

static void
trie_build(struct trie1 *t, const struct btok *k, unsigned want)
{
	size_t total = 1;
	uint32_t i;
	memset(t, 0, sizeof *t);
	for (i = 0; i < k->h->nadded; i++)
		if ((k->added[i].flags & BTOK_ADDED_NORMALIZED) == want)
			total += k->tok[k->added[i].id].len;
	t->ecap = 16;
	while (t->ecap < total * 2)
		t->ecap <<= 1;
	t->e = xcalloc(t->ecap, sizeof *t->e);
	t->term = xmalloc(total * sizeof *t->term);
	t->term[0] = BTOK_NONE;
	t->nnodes = 1;
	for (i = 0; i < k->h->nadded; i++) {
		const struct btok_span *sp;
		const unsigned char *p;
		uint32_t node = 0;
		if ((k->added[i].flags & BTOK_ADDED_NORMALIZED) != want)
			continue;
		sp = &k->tok[k->added[i].id];
		p = (const unsigned char *)k->pool + sp->off;
		if (sp->len == 0)
			continue;
		t->first[p[0]] = 1;
		for (uint32_t j = 0; j < sp->len; j++) {
			uint32_t c = edge_find(t, node, p[j]);
			if (!c) {
				uint32_t m = t->ecap - 1;
				uint32_t x = (uint32_t)btok_mix64((uint64_t)node << 8 | p[j]) & m;
				while (t->e[x].child)
					x = (x + 1) & m;
				c = t->nnodes++;
				t->term[c] = BTOK_NONE;
				t->e[x].node = node;
				t->e[x].byte = p[j];
				t->e[x].child = c;
			}
			node = c;
		}
		/* The same content twice: the first entry wins. */
		if (t->term[node] == BTOK_NONE)
			t->term[node] = i;
	}
}

static void
trie_free(struct trie1 *t)
{
	free(t->e);
	free(t->term);
}

/* Longest added token at s[0..n); returns its length, 0 if none. */
static size_t
trie_match(const struct trie1 *t, const unsigned char *s, size_t n,
    uint32_t *which)
{
	uint32_t node = 0;
	size_t best = 0;
	if (!t->first[s[0]])
		return 0;
	for (size_t j = 0; j < n; j++) {
		node = edge_find(t, node, s[j]);
		if (!node)
			break;
		if (t->term[node] != BTOK_NONE) {
			best = j + 1;
			*which = t->term[node];
		}
	}
	return best;
}

/* ------------------------------------------------------------ attach */

uint64_t
btok_checksum(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL;
	while (n >= 16) {
		uint64_t x, y;
		memcpy(&x, s, 8);
		memcpy(&y, s + 8, 8);
		a = (a ^ x) * 0x9fb21c651e98df25ULL;
		b = (b ^ y) * 0xc2b2ae3d27d4eb4fULL;
		a ^= a >> 31;
		b ^= b >> 29;
		s += 16;
		n -= 16;
	}
	while (n--) {
		a = (a ^ *s++) * 0x100000001b3ULL;
	}
	return btok_mix64(a ^ btok_mix64(b));
}

static int
span_ok(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off && off % 8 == 0;
}

int
btok_attach(struct btok *t, const char *name, unsigned char *img,
    size_t size, int mapped, char **err)
{
	const struct btok_hdr *h = (const struct btok_hdr *)img;
	uint64_t i;

	memset(t, 0, sizeof *t);
	*err = NULL;
	if (size < sizeof *h || memcmp(h->magic, "BTOKIMG", 8) != 0) {
		*err = xasprintf("%s: not a btok image", name);
		return -1;
	}
	if (h->format != BTOK_FORMAT || h->endian != 0x01020304u) {
		*err = xasprintf("%s: image format %u, this btok reads %u", name,
		    h->format, BTOK_FORMAT);
		return -1;
	}
	if (h->size != size) {
		*err = xasprintf("%s: truncated image (%zu of %llu bytes)", name, size,
		    (unsigned long long)h->size);
		return -1;
	}
	if (btok_checksum(img + sizeof *h, size - sizeof *h) != h->checksum) {
		*err = xasprintf("%s: image checksum mismatch", name);
		return -1;
	}
	if (!span_ok(h->off_pool, h->len_pool, size) || h->len_pool > UINT32_MAX ||
	    !span_ok(h->off_tok, (uint64_t)h->ntok * sizeof(struct btok_span), size) ||
	    !span_ok(h->off_vtab, (uint64_t)h->vcap * 4, size) ||
	    !span_ok(h->off_mtab, (uint64_t)h->mcap * sizeof(struct btok_merge), size) ||
	    !span_ok(h->off_added, (uint64_t)h->nadded * sizeof(struct btok_added), size) ||
	    !span_ok(h->off_bad, (uint64_t)h->nbad * 4, size) || h->msplit > 1 ||
	    h->vcap == 0 || (h->vcap & (h->vcap - 1)) || h->mcap == 0 ||
	    (h->mcap & (h->mcap - 1)) || h->nvocab >= h->vcap || h->nmerges >= h->mcap ||
	    (h->model != BTOK_MODEL_BPE && h->model != BTOK_MODEL_TIKTOKEN) ||
	    h->norm > BTOK_NORM_PREPEND_METASPACE || h->pre > BTOK_PRE_SPACE_MERGED_PREV) {
		*err = xasprintf("%s: damaged image header", name);
		return -1;
	}
	t->base = img;
	t->size = size;
	t->h = h;
	t->pool = (const char *)img + h->off_pool;
	t->tok = (const struct btok_span *)(img + h->off_tok);
	t->vtab = (const uint32_t *)(img + h->off_vtab);
	t->mtab = (const struct btok_merge *)(img + h->off_mtab);
	t->added = (const struct btok_added *)(img + h->off_added);
	t->bad = (const uint32_t *)(img + h->off_bad);
	/* Every id in every table must name a token inside the pool. */
	for (i = 0; i < h->ntok; i++)
		if (t->tok[i].len != UINT32_MAX &&
		    ((uint64_t)t->tok[i].off + t->tok[i].len > h->len_pool))
			goto bad;
	{
		/* Open addressing needs a free slot, or a lookup never ends. */
		uint64_t vfree = 0, mfree = 0;
		for (i = 0; i < h->vcap; i++) {
			if (t->vtab[i] == BTOK_NONE)
				vfree++;
			else if (t->vtab[i] >= h->ntok || t->tok[t->vtab[i]].len == UINT32_MAX)
				goto bad;
		}
		for (i = 0; i < h->mcap; i++) {
			if (t->mtab[i].key == UINT64_MAX)
				mfree++;
			else if ((t->mtab[i].key >> 32) >= h->ntok ||
			    (uint32_t)t->mtab[i].key >= h->ntok || t->mtab[i].id >= h->ntok ||
			    t->mtab[i].rank >= UINT32_MAX - 1)
				goto bad;
			else if (t->mtab[i].rank >= t->nranks)
				t->nranks = t->mtab[i].rank + 1;
		}
		/* tiktoken: a pair's rank is its token's id. */
		if (h->model == BTOK_MODEL_TIKTOKEN)
			t->nranks = h->ntok;
		if (!vfree || !mfree)
			goto bad;
	}
	for (i = 0; i < h->nadded; i++)
		if (t->added[i].id >= h->ntok || t->tok[t->added[i].id].len == UINT32_MAX)
			goto bad;
	for (i = 0; i < 256; i++)
		if (h->byte_id[i] != BTOK_NONE && h->byte_id[i] >= h->ntok)
			goto bad;
	for (i = 0; i < h->nbad; i++)
		if (t->bad[i] >= h->ntok || t->tok[t->bad[i]].len == UINT32_MAX)
			goto bad;
	if ((h->unk_id != BTOK_NONE && h->unk_id >= h->ntok) ||
	    (h->model == BTOK_MODEL_TIKTOKEN && h->id_offset > h->ntok))
		goto bad;
	t->name = xstrdup(name);
	t->mapped = mapped;
	t->trie = xmalloc(sizeof *t->trie);
	trie_build(&t->trie->raw, t, 0);
	trie_build(&t->trie->norm, t, BTOK_ADDED_NORMALIZED);
	return 0;
bad:
	memset(t, 0, sizeof *t);
	*err = xasprintf("%s: damaged image tables", name);
	return -1;
}

struct wc_ent {
	uint64_t h;
	uint8_t len, nids;
	char bytes[22];
	uint32_t ids[6];
};
#define WC_BITS 15
struct btok_wcache { struct wc_ent e[1u << WC_BITS]; };

void
btok_release(struct btok *t)
{
	if (t->trie) {
		trie_free(&t->trie->raw);
		trie_free(&t->trie->norm);
		free(t->trie);
	}
	free(t->wcache);
	free(t->pcache);
	free(t->name);
	memset(t, 0, sizeof *t);
}

const char *
btok_token(const struct btok *t, uint32_t id, size_t *len)
{
	if (id >= t->h->ntok || t->tok[id].len == UINT32_MAX)
		return NULL;
	*len = t->tok[id].len;
	return t->pool + t->tok[id].off;
}

uint32_t
btok_vocab_get(const struct btok *t, const char *s, size_t n)
{
	uint32_t m = t->h->vcap - 1, i = (uint32_t)btok_hash(s, n) & m;
	for (;; i = (i + 1) & m) {
		uint32_t id = t->vtab[i];
		if (id == BTOK_NONE)
			return BTOK_NONE;
		if (t->tok[id].len == n && memcmp(t->pool + t->tok[id].off, s, n) == 0)
			return id;
	}
}

static const struct btok_merge *
merge_get(const struct btok *t, uint32_t a, uint32_t b)
{
	uint64_t key = (uint64_t)a << 32 | b;
	uint32_t m = t->h->mcap - 1, i = (uint32_t)btok_mix64(key) & m;
	for (;; i = (i + 1) & m) {
		if (t->mtab[i].key == key)
			return &t->mtab[i];
		if (t->mtab[i].key == UINT64_MAX)
			return NULL;
	}
}

/* ------------------------------------------------------------ ids */

static void
ids_push(struct btok_ids *o, uint32_t id)
{
	if (!o->count_only) {
		if (o->n == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 256;
			o->v = xreallocarray(o->v, o->cap, sizeof *o->v);
		}
		o->v[o->n] = id;
	}
	o->n++;
}

void
btok_ids_free(struct btok_ids *ids)
{
	free(ids->v);
	memset(ids, 0, sizeof *ids);
}

/* ------------------------------------------------------------ BPE */

struct sym { uint32_t id; int32_t prev, next; uint32_t start, len; };
struct hent { uint32_t rank, pos, id, a, b; };	/* a, b: the pair's ids */

struct bent { uint32_t pos, next; };

struct work {
	struct sym *s;
	size_t ns, cs;
	struct hent *q;
	size_t nq, cq;
	uint32_t tmp[8];
	/* The bucket queue of long pieces (merge_buckets). */
	uint32_t *bhead;	/* per rank: 1 + its last entry in be, 0: none */
	uint64_t *bbits;	/* ranks with entries */
	uint32_t bcap;		/* ranks allocated */
	struct bent *be;
	size_t nbe, cbe;
	uint32_t *bpos;		/* the positions of one rank, sorted */
	size_t cbpos;
};

/* Pieces of at least this many symbols use the bucket queue. */
#ifndef LONG_PIECE
#define LONG_PIECE 512
#endif

static inline int
hless(const struct hent *a, const struct hent *b)
{
	return a->rank != b->rank ? a->rank < b->rank : a->pos < b->pos;
}

static void
hpush(struct work *w, uint32_t rank, uint32_t pos, uint32_t id)
{
	size_t i;
	if (w->nq == w->cq) {
		w->cq = w->cq ? w->cq * 2 : 256;
		w->q = xreallocarray(w->q, w->cq, sizeof *w->q);
	}
	assert(pos < w->ns && w->s[pos].next >= 0);
	i = w->nq++;
	w->q[i].rank = rank, w->q[i].pos = pos, w->q[i].id = id;
	w->q[i].a = w->s[pos].id;
	w->q[i].b = w->s[w->s[pos].next].id;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct hent x;
		if (!hless(&w->q[i], &w->q[p]))
			break;
		x = w->q[i], w->q[i] = w->q[p], w->q[p] = x;
		i = p;
	}
}

static struct hent
hpop(struct work *w)
{
	struct hent top = w->q[0];
	size_t i = 0;
	w->q[0] = w->q[--w->nq];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct hent x;
		if (l < w->nq && hless(&w->q[l], &w->q[m]))
			m = l;
		if (r < w->nq && hless(&w->q[r], &w->q[m]))
			m = r;
		if (m == i)
			break;
		x = w->q[i], w->q[i] = w->q[m], w->q[m] = x;
		i = m;
	}
	return top;
}

static void
sym_add(struct work *w, uint32_t id, uint32_t start, uint32_t len)
{
	if (w->ns == w->cs) {
		w->cs = w->cs ? w->cs * 2 : 256;
		w->s = xreallocarray(w->s, w->cs, sizeof *w->s);
	}
	w->s[w->ns].id = id;
	w->s[w->ns].prev = (int32_t)w->ns - 1;
	w->s[w->ns].next = -1;
	w->s[w->ns].start = start;
	w->s[w->ns].len = len;
	if (w->ns)
		w->s[w->ns - 1].next = (int32_t)w->ns;
	w->ns++;
}

/*
 * Small direct-mapped caches in front of the big hash tables, whose probes
 * miss the processor caches: pairs of ids -> (rank, id) and characters ->
 * id.  A pair's result depends only on the two ids (their bytes are fixed).
 */
#define PC_BITS 16
#define CC_BITS 12
struct pc_ent { uint64_t key; uint32_t rank, id; };
struct cc_ent { uint32_t cp, id; };
struct btok_pcache {
	struct pc_ent p[1u << PC_BITS];
	struct cc_ent c[1u << CC_BITS];
};

static struct btok_pcache *
pcache(struct btok *t)
{
	if (!t->pcache) {
		t->pcache = xmalloc(sizeof *t->pcache);
		for (size_t i = 0; i < (1u << PC_BITS); i++)
			t->pcache->p[i].key = UINT64_MAX;
		for (size_t i = 0; i < (1u << CC_BITS); i++)
			t->pcache->c[i].cp = UINT32_MAX;
	}
	return t->pcache;
}

static int
pair_rank_slow(const struct btok *t, const char *piece, const struct sym *a,
    const struct sym *b, uint32_t *rank, uint32_t *id);

/* Rank of a pair: HF merges table, or tiktoken rank of the joined bytes. */
static inline int
pair_rank(const struct btok *t, const char *piece, const struct sym *a,
    const struct sym *b, uint32_t *rank, uint32_t *id)
{
	uint64_t key = (uint64_t)a->id << 32 | b->id;
	struct pc_ent *e = &t->pcache->p[btok_mix64(key) & ((1u << PC_BITS) - 1)];
	if (e->key != key) {
		uint32_t r = 0, i = BTOK_NONE;
		if (!pair_rank_slow(t, piece, a, b, &r, &i))
			i = BTOK_NONE;
		e->key = key;
		e->rank = r;
		e->id = i;
	}
	*rank = e->rank;
	*id = e->id;
	return e->id != BTOK_NONE;
}

static int
pair_rank_slow(const struct btok *t, const char *piece, const struct sym *a,
    const struct sym *b, uint32_t *rank, uint32_t *id)
{
	if (t->h->model == BTOK_MODEL_BPE) {
		const struct btok_merge *m = merge_get(t, a->id, b->id);
		if (!m)
			return 0;
		*rank = m->rank;
		*id = m->id;
		return 1;
	}
	*id = btok_vocab_get(t, piece + a->start, a->len + b->len);
	*rank = *id;
	return *id != BTOK_NONE;
}

static void
bq_push(struct work *w, uint32_t rank, uint32_t pos)
{
	assert(rank < w->bcap);
	if (w->nbe == w->cbe) {
		w->cbe = w->cbe ? w->cbe * 2 : 4096;
		w->be = xreallocarray(w->be, w->cbe, sizeof *w->be);
	}
	w->be[w->nbe].pos = pos;
	w->be[w->nbe].next = w->bhead[rank];
	w->bhead[rank] = (uint32_t)++w->nbe;
	w->bbits[rank >> 6] |= (uint64_t)1 << (rank & 63);
}

/* The lowest rank >= from with entries, or BTOK_NONE. */
static uint32_t
bq_next(const struct work *w, uint32_t from)
{
	for (uint32_t k = from >> 6; k < (w->bcap + 63) >> 6; k++) {
		uint64_t m = w->bbits[k];
		if (k == from >> 6)
			m &= ~(uint64_t)0 << (from & 63);
		if (m)
			return k * 64 + (uint32_t)__builtin_ctzll(m);
	}
	return BTOK_NONE;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Take the positions queued at rank r, in text order, into w->bpos. */
static size_t
bq_take(struct work *w, uint32_t r)
{
	size_t n = 0;
	int sorted = 1;

	for (uint32_t e = w->bhead[r]; e; e = w->be[e - 1].next) {
		if (n == w->cbpos) {
			w->cbpos = w->cbpos ? w->cbpos * 2 : 1024;
			w->bpos = xreallocarray(w->bpos, w->cbpos, sizeof *w->bpos);
		}
		w->bpos[n++] = w->be[e - 1].pos;
	}
	w->bhead[r] = 0;
	w->bbits[r >> 6] &= ~((uint64_t)1 << (r & 63));
	/* Entries come out last pushed first: reversed, usually sorted. */
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t x = w->bpos[i];
		w->bpos[i] = w->bpos[n - 1 - i];
		w->bpos[n - 1 - i] = x;
	}
	for (size_t i = 1; i < n && sorted; i++)
		sorted = w->bpos[i - 1] < w->bpos[i];
	if (!sorted)
		qsort(w->bpos, n, sizeof *w->bpos, cmp_u32);
	return n;
}

/* Merge the pair at pos with its right neighbour into id. */
static void
sym_merge(struct work *w, uint32_t pos, uint32_t id)
{
	struct sym *cur = &w->s[pos], *right;

	assert(cur->next >= 0 && (size_t)cur->next < w->ns);
	right = &w->s[cur->next];
	cur->id = id;
	cur->len += right->len;
	cur->next = right->next;
	right->len = 0;
	if (cur->next >= 0)
		w->s[cur->next].prev = (int32_t)pos;
}

/* Apply the pair at pos if it still has rank rr; queue the new pairs. */
static void
bq_apply(const struct btok *t, const char *piece, struct work *w, uint32_t rr,
    uint32_t pos, uint32_t cur_rank)
{
	struct sym *cur = &w->s[pos];
	uint32_t rank, id;

	if (cur->len == 0 || cur->next < 0 ||
	    !pair_rank(t, piece, cur, &w->s[cur->next], &rank, &id) || rank != rr)
		return;		/* stale: the pair changed */
	sym_merge(w, pos, id);
	/* Pairs ranked after the current bucket wait in theirs; the others
	   (a merge can make a pair of lower rank) go to the heap. */
	if (cur->prev >= 0 && pair_rank(t, piece, &w->s[cur->prev], cur, &rank, &id)) {
		if (rank > cur_rank)
			bq_push(w, rank, (uint32_t)cur->prev);
		else
			hpush(w, rank, (uint32_t)cur->prev, id);
	}
	if (cur->next >= 0 && pair_rank(t, piece, cur, &w->s[cur->next], &rank, &id)) {
		if (rank > cur_rank)
			bq_push(w, rank, pos);
		else
			hpush(w, rank, pos, id);
	}
}

/*
 * The merges of merge_all for long pieces, in the same order (lowest rank
 * first, leftmost first), with a bucket per rank instead of one heap over
 * the whole piece, whose random accesses make a long piece super-linear:
 * ranks are visited in increasing order and the positions of one rank in
 * text order.  A merge usually makes pairs of higher ranks, queued in their
 * buckets; a pair of rank at most the current one goes to a small heap that
 * is merged with the current bucket by (rank, position).
 */
static void
merge_buckets(const struct btok *t, const char *piece, struct work *w)
{
	uint32_t rank, id, r = 0;

	if (w->bcap < t->nranks) {
		free(w->bhead);
		free(w->bbits);
		w->bcap = t->nranks;
		w->bhead = xcalloc(w->bcap, sizeof *w->bhead);
		w->bbits = xcalloc((w->bcap + 63) / 64, sizeof *w->bbits);
	}
	w->nbe = 0;
	w->nq = 0;
	for (size_t i = 0; i + 1 < w->ns; i++)
		if (pair_rank(t, piece, &w->s[i], &w->s[i + 1], &rank, &id))
			bq_push(w, rank, (uint32_t)i);
	while ((r = bq_next(w, r)) != BTOK_NONE) {
		size_t n = bq_take(w, r), k = 0;
		for (;;) {
			if (w->nq && (k == n || w->q[0].rank < r ||
			    (w->q[0].rank == r && w->q[0].pos < w->bpos[k]))) {
				struct hent top = hpop(w);
				bq_apply(t, piece, w, top.rank, top.pos, r);
			} else if (k < n)
				bq_apply(t, piece, w, r, w->bpos[k++], r);
			else
				break;
		}
		assert(w->nq == 0);
		r++;
	}
}

/* Pieces of at most this many symbols use merge_small. */
#define SMALL_PIECE 48

/*
 * The merges of merge_all for short pieces: the rank of each adjacent pair
 * is kept beside its left symbol and the lowest (leftmost on ties) found by
 * a scan, as tiktoken's byte_pair_merge does; no heap, and the first
 * lookups are prefetched together, since they miss the processor caches.
 * The same order as the heap: a pair's rank never goes stale, and two
 * different pairs at one position cannot make the same token (its bytes
 * would differ in length), so word.rs's check never matters here.
 */
static void
merge_small(const struct btok *t, const char *piece, struct work *w)
{
	uint32_t rk[SMALL_PIECE], nid[SMALL_PIECE], rank, id;
	size_t n = w->ns;

	assert(n <= SMALL_PIECE);
	for (size_t i = 0; i + 1 < n; i++) {
		uint64_t key = (uint64_t)w->s[i].id << 32 | w->s[i + 1].id;
		__builtin_prefetch(&t->pcache->p[btok_mix64(key) & ((1u << PC_BITS) - 1)]);
	}
	for (size_t i = 0; i + 1 < n; i++)
		if (!pair_rank(t, piece, &w->s[i], &w->s[i + 1], &rk[i], &nid[i]))
			rk[i] = BTOK_NONE;
	if (n)
		rk[n - 1] = BTOK_NONE;
	for (;;) {
		uint32_t best = BTOK_NONE;
		int32_t bi = -1;
		for (int32_t i = 0; i >= 0; i = w->s[i].next)
			if (rk[i] < best)
				best = rk[i], bi = i;
		if (bi < 0)
			break;
		assert((size_t)bi < n && w->s[bi].next >= 0);
		sym_merge(w, (uint32_t)bi, nid[bi]);
		if (w->s[bi].prev >= 0) {
			int32_t pv = w->s[bi].prev;
			if (!pair_rank(t, piece, &w->s[pv], &w->s[bi], &rank, &id))
				rank = BTOK_NONE;
			rk[pv] = rank, nid[pv] = id;
		}
		rk[bi] = BTOK_NONE;
		if (w->s[bi].next >= 0 &&
		    pair_rank(t, piece, &w->s[bi], &w->s[w->s[bi].next], &rank, &id))
			rk[bi] = rank, nid[bi] = id;
	}
}

static void
merge_all(const struct btok *t, const char *piece, struct work *w)
{
	uint32_t rank, id;
	if (w->ns >= LONG_PIECE) {
		merge_buckets(t, piece, w);
		return;
	}
	if (w->ns <= SMALL_PIECE) {
		merge_small(t, piece, w);
		return;
	}
	w->nq = 0;
	for (size_t i = 0; i + 1 < w->ns; i++)
		if (pair_rank(t, piece, &w->s[i], &w->s[i + 1], &rank, &id))
			hpush(w, rank, (uint32_t)i, id);
	while (w->nq) {
		struct hent top = hpop(w);
		struct sym *cur = &w->s[top.pos], *right;
		int32_t nx;
		if (cur->len == 0 || cur->next < 0)
			continue;
		right = &w->s[cur->next];
		/* A stale entry: the pair at pos no longer makes top.id (as
		   word.rs checks it; the same two ids are the same merge). */
		if ((cur->id != top.a || right->id != top.b) &&
		    (!pair_rank(t, piece, cur, right, &rank, &id) || id != top.id))
			continue;
		cur->id = top.id;
		cur->len += right->len;
		cur->next = right->next;
		right->len = 0;
		nx = cur->next;
		if (nx >= 0)
			w->s[nx].prev = (int32_t)top.pos;
		if (cur->prev >= 0 &&
		    pair_rank(t, piece, &w->s[cur->prev], cur, &rank, &id))
			hpush(w, rank, (uint32_t)cur->prev, id);
		if (nx >= 0 && pair_rank(t, piece, cur, &w->s[nx], &rank, &id))
			hpush(w, rank, top.pos, id);
	}
}

/* The model on one piece (bytes as the vocabulary holds them). */
static void
model_piece(struct btok *t, struct work *w, const char *p, size_t n,
    struct btok_ids *out)
{
	const struct btok_hdr *h = t->h;
	uint32_t id;
	struct wc_ent *ce = NULL;
	uint64_t hv = 0;

	if (n == 0)
		return;
	if (n > BTOK_MAX_PIECE) {
		if (!out->toolong)
			out->toolong = n;
		return;
	}
	pcache(t);
	/* The cache first: one memory access, where a vocabulary hit costs
	   three (hash slot, token span, token bytes). */
	if (n <= sizeof ce->bytes) {
		if (!t->wcache)
			t->wcache = xcalloc(1, sizeof *t->wcache);
		hv = btok_hash(p, n);
		ce = &t->wcache->e[hv & ((1u << WC_BITS) - 1)];
		if (ce->h == hv && ce->len == n && memcmp(ce->bytes, p, n) == 0) {
			for (unsigned i = 0; i < ce->nids; i++)
				ids_push(out, ce->ids[i]);
			return;
		}
	}
	if (h->model == BTOK_MODEL_TIKTOKEN || h->ignore_merges) {
		if ((id = btok_vocab_get(t, p, n)) != BTOK_NONE) {
			ids_push(out, id);
			if (ce) {
				ce->h = hv;
				ce->len = (uint8_t)n;
				memcpy(ce->bytes, p, n);
				ce->nids = 1;
				ce->ids[0] = id;
			}
			return;
		}
	}
	w->ns = 0;
	if (h->bytelevel) {
		/* Byte-level: one symbol per byte. */
		for (size_t i = 0; i < n; i++)
			sym_add(w, h->byte_id[(unsigned char)p[i]], (uint32_t)i, 1);
	} else {
		/* One symbol per character; byte fallback; fused unknowns. */
		size_t i = 0;
		uint32_t unk_start = 0, unk_len = 0;
		int unk = 0;
		while (i < n) {
			uint32_t cp;
			size_t l = btok_u8dec((const unsigned char *)p + i, n - i, &cp);
			struct cc_ent *ce2 = &t->pcache->c[(cp * 2654435761u) >> (32 - CC_BITS)];
			if (ce2->cp == cp)
				id = ce2->id;
			else {
				id = btok_vocab_get(t, p + i, l);
				ce2->cp = cp;
				ce2->id = id;
			}
			if (id != BTOK_NONE) {
				if (unk) {
					sym_add(w, h->unk_id, unk_start, unk_len);
					unk = 0;
				}
				sym_add(w, id, (uint32_t)i, (uint32_t)l);
			} else {
				int allbytes = h->byte_fallback;
				for (size_t k = 0; allbytes && k < l; k++)
					if (h->byte_id[(unsigned char)p[i + k]] == BTOK_NONE)
						allbytes = 0;
				if (allbytes) {
					/* As model.rs: a pending unknown is not
					   flushed before byte-fallback tokens. */
					for (size_t k = 0; k < l; k++)
						sym_add(w, h->byte_id[(unsigned char)p[i + k]],
						    (uint32_t)(i + k), 1);
				} else if (h->unk_id != BTOK_NONE) {
					if (unk && h->fuse_unk)
						unk_len += (uint32_t)l;
					else {
						if (unk)
							sym_add(w, h->unk_id, unk_start, unk_len);
						unk = 1;
						unk_start = (uint32_t)i;
						unk_len = (uint32_t)l;
					}
				}
			}
			i += l;
		}
		if (unk)
			sym_add(w, h->unk_id, unk_start, unk_len);
	}
	merge_all(t, p, w);
	{
		unsigned k = 0;
		for (int32_t i = 0; i >= 0 && (size_t)i < w->ns; i = w->s[i].next) {
			ids_push(out, w->s[i].id);
			if (k < 6)
				w->tmp[k] = w->s[i].id;
			k++;
		}
		if (ce && k <= 6) {
			ce->h = hv;
			ce->len = (uint8_t)n;
			memcpy(ce->bytes, p, n);
			ce->nids = (uint8_t)k;
			memcpy(ce->ids, w->tmp, k * sizeof *w->tmp);
		}
	}
}

/* ------------------------------------------------------------ pipeline */

struct pctx {
	struct btok *t;
	struct work *w;
	struct btok_ids *out;
};

static void
on_piece(const char *p, size_t n, void *vc)
{
	struct pctx *c = vc;
	model_piece(c->t, c->w, p, n, c->out);
}

/* Does one of the listed tokens occur in s[0..n) across position p? */
static int
bad_across(const struct btok *t, const char *s, size_t n, size_t p)
{
	for (uint32_t i = 0; i < t->h->nbad; i++) {
		const struct btok_span *sp = &t->tok[t->bad[i]];
		const char *tx = t->pool + sp->off;
		for (size_t k = 1; k < sp->len; k++) {
			if (k > p || p - k + sp->len > n)
				continue;
			if (memcmp(s + p - k, tx, sp->len) == 0)
				return 1;
		}
	}
	return 0;
}

static void
pretok_model(struct pctx *c, const char *s, size_t n)
{
	const struct btok_hdr *h = c->t->h;
	if (h->msplit && (h->pre == BTOK_PRE_NONE || h->pre == BTOK_PRE_SPACE_MERGED_PREV)) {
		/* Cut before each U+2581 run (see find_bad in compile.c). */
		size_t st = 0;
		for (size_t i = 1; i + 3 <= n; i++) {
			if (s[i] != '\xE2' || s[i + 1] != '\x96' || s[i + 2] != '\x81')
				continue;
			if (i >= 3 && memcmp(s + i - 3, "\xE2\x96\x81", 3) == 0)
				continue;
			if (h->nbad && bad_across(c->t, s, n, i))
				continue;
			btok_pretokenize((int)h->pre, s + st, i - st, on_piece, c);
			st = i;
		}
		btok_pretokenize((int)h->pre, s + st, n - st, on_piece, c);
		return;
	}
	btok_pretokenize((int)h->pre, s, n, on_piece, c);
}

/* Split s by the added tokens of trie tr; text segments go to fn. */
static void
split_added(struct pctx *c, const struct trie1 *tr, const char *s,
    size_t n, int special, void (*fn)(struct pctx *, const char *, size_t))
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, seg = 0;
	if (tr->nnodes <= 1) {
		if (n)
			fn(c, s, n);
		return;
	}
	while (i < n) {
		uint32_t which;
		size_t l;
		if (!tr->first[u[i]] || !(l = trie_match(tr, u + i, n - i, &which))) {
			i++;
			continue;
		}
		if (!special && (c->t->added[which].flags & BTOK_ADDED_SPECIAL)) {
			i += l;	/* left in the text (encode_special_tokens) */
			continue;
		}
		if (i > seg)
			fn(c, s + seg, i - seg);
		ids_push(c->out, c->t->added[which].id);
		i += l;
		seg = i;
	}
	if (n > seg)
		fn(c, s + seg, n - seg);
}

static int g_special;

static void
normalize_segment(struct pctx *c, const char *s, size_t n)
{
	const struct btok_hdr *h = c->t->h;
	char *norm = NULL;
	size_t nl = n;

	if (h->norm == BTOK_NORM_NFC) {
		norm = btok_nfc(s, n, &nl);
	} else if (h->norm == BTOK_NORM_METASPACE || h->norm == BTOK_NORM_PREPEND_METASPACE) {
		/* Prepend (normalizers/prepend.rs): only to a non-empty segment. */
		size_t sp = 0, o = 0;
		int pre = h->norm == BTOK_NORM_PREPEND_METASPACE && n > 0;
		for (size_t i = 0; i < n; i++)
			sp += s[i] == ' ';
		if (sp || pre) {
			norm = xmalloc(n + 2 * sp + 3 + 1);
			if (pre) {
				memcpy(norm, "\xE2\x96\x81", 3);
				o = 3;
			}
			for (size_t i = 0; i < n; i++) {
				if (s[i] == ' ') {
					memcpy(norm + o, "\xE2\x96\x81", 3);
					o += 3;
				} else
					norm[o++] = s[i];
			}
			nl = o;
		}
	}
	split_added(c, &c->t->trie->norm, norm ? norm : s, nl, g_special, pretok_model);
	free(norm);
}

int
btok_encode(struct btok *t, const char *s, size_t n, int special,
    struct btok_ids *out)
{
	static struct work w;
	struct pctx c = { t, &w, out };
	char *clean = NULL;
	size_t cl;

	if (!utf8_valid(s, n, NULL)) {
		clean = utf8_sanitize(s, n, &cl);
		s = clean;
		n = cl;
	}
	g_special = special;
	out->toolong = 0;
	split_added(&c, &t->trie->raw, s, n, special, normalize_segment);
	free(clean);
	return out->toolong ? -1 : 0;
}
