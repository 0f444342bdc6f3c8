/*
 * encode.c - encoding text with a compiled tokenizer.
 *
 * The steps follow Hugging Face tokenizers (tokenizer/mod.rs
 * encode_single_sequence, add_special_tokens = false):
 *  1. AddedVocabulary::extract_and_normalize: added tokens that are not
 *     "normalized" are found in the raw text, leftmost-longest (the
 *     aho-corasick MatchKind::LeftmostLongest the crate uses; added.c); with
 *     encode_special_tokens a special token's match is left in the text.
 *     Each remaining segment is normalised, then searched again for the
 *     "normalized" added tokens.
 *  2. The pre-tokeniser splits each segment (pretok.c).
 *  3. The model turns each piece into ids: models/bpe/model.rs
 *     (merge_word, then word.rs merge_all with its priority queue, ranks from
 *     the merges list, byte fallback to <0xNN>, fuse_unk) or, for tekken,
 *     tiktoken's byte_pair_merge (lowest rank first, leftmost on ties, the
 *     whole piece looked up first).
 *
 * The tokenizer is only read here.  What encoding writes is in the caller's
 * encoder (struct btok_enc: the symbols and queues of the merges, the word
 * and pair caches), and what belongs to one call (the output, whether
 * special tokens are matched) in a struct pctx on the stack of btok_encode.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ctx.h"
#include "btok.h"
#include "added.h"
#include "hash.h"
#include "swar.h"

#if defined(__SSE2__) && !defined(BTOK_GENERIC)
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------ the encoder */

struct sym { uint32_t id; int32_t prev, next; uint32_t start, len; };
/* A pair in the heap: key rank << 32 | position, so that one comparison
   orders by rank, then leftmost; a, b: the pair's ids. */
struct hent { uint64_t key; uint32_t id, a, b; };
#define HRANK(x) ((uint32_t)((x).key >> 32))
#define HPOS(x) ((uint32_t)(x).key)

struct bent { uint32_t pos, next; };

/* The scratch of the merges of one piece, kept between pieces. */
struct work {
	struct sym *s;
	size_t ns, cs;
	struct hent *q;
	size_t nq, cq;
	/* The bucket queue of long pieces (merge_buckets). */
	uint32_t *bhead;	/* per rank: 1 + its last entry in be, 0: none */
	uint64_t *bbits;	/* ranks with entries */
	uint32_t bcap;		/* ranks allocated */
	struct bent *be;
	size_t nbe, cbe;
	uint32_t *bpos;		/* the positions of one rank, sorted */
	size_t cbpos;
};

/* Scratch arrays grown past this many entries, and a normalised text
   buffer past this many bytes, are freed after the call. */
#define WORK_KEEP ((size_t)1 << 16)
#define NORM_KEEP ((size_t)1 << 20)

/*
 * Small caches in front of the big hash tables, whose probes miss the
 * processor caches: pairs of ids -> (rank, id), characters -> id (both
 * direct-mapped), and short pieces -> their ids (the word cache: sets of
 * two slots, the newer first).  A pair's result depends only on the two ids
 * (their bytes are fixed), a piece's only on its bytes.
 */
#define PC_BITS 16
#define CC_BITS 12
#define WC_BITS 17
/* Aligned to its size, so that an entry never straddles two cache lines
   (a lookup that misses would miss twice). */
struct pc_ent { _Alignas(16) uint64_t key; uint32_t rank, id; };
struct cc_ent { uint32_t cp, id; };
/*
 * The byte-pair table of a byte-level model: indexed by the two bytes, the
 * rank of the pair of their tokens and the id + 1 it makes; id1 UINT32_MAX:
 * no merge; 0: not looked up yet.  A piece's first pairs are all pairs of
 * bytes, found here with no hash, no filter and no key to compare.
 */
struct bp_ent { uint32_t rank, id1; };
/* A word-cache entry of WC_LONG ids: the piece's ids are in the long-piece
   cache (more than the entry holds); a piece the word cache could hold
   that it does not is in neither. */
#define WC_LONG 0xFF
struct wc_ent {
	uint64_t h;
	uint8_t len, nids;
	char bytes[22];
	uint32_t ids[6];
};

/*
 * The pieces the word cache cannot hold (longer than its bytes, or more
 * ids than it keeps; runs of scripts written without spaces, words of
 * scripts whose characters are several tokens), up to LC_MAX bytes: a
 * direct-mapped table of slots, each naming its piece's ids and bytes in an
 * arena, which starts again empty (every slot cleared) when it is full.
 */
#define LC_BITS 16
#define LC_MAX 4096
#define LC_ARENA ((uint32_t)1 << 20)	/* 32-bit words: 4 MiB */
struct lc_ent { uint64_t h; uint32_t off; uint16_t len, nids; };	/* len 0: empty */
struct lcache {
	struct lc_ent slot[1u << LC_BITS];
	uint32_t *arena;	/* at off: the ids, then the piece's bytes */
	uint32_t used;		/* words of the arena in use */
};

struct btok_enc {
	const struct btok *t;
	const struct btok_merge *mtab;	/* t's merges table */
	uint32_t mmask;			/* its slots less one */
	const uint64_t *pf;		/* t's pair filter */
	uint32_t pfmask;		/* its words less one */
	/* Bit c: a bad token of the image holds the byte c right before a
	   byte 0xE2 (a token bad_across finds holds the byte before the
	   U+2581 it lies across). */
	uint64_t bad_before[4];
	/* The image's pre-tokeniser as pretok_model runs it: Split " " (Gemma
	   3) after a metaspace normaliser is none, since the normaliser has
	   replaced every space of the text. */
	int pre;
	struct work w;
	struct buf norm;	/* metaspace's output, kept between segments */
	/* Zero is an empty slot in each, so that a new encoder is zeroed
	   memory whose pages the kernel gives on first use (huge_zalloc; a
	   slot holds the complement of the pair's key, the code point plus
	   one). */
	struct pc_ent pc[1u << PC_BITS];
	struct cc_ent cc[1u << CC_BITS];
	struct bp_ent bp[1u << 16];
	struct wc_ent wc[1u << WC_BITS];	/* len 0: empty */
	struct lcache lc;
};

/*
 * Ask for huge pages in the block p[0..len) (where the kernel gives them on
 * request): the symbols of a long piece are written once, front to back;
 * a fault per 4 KiB page would cost more than the writing.  Only the 2 MiB
 * pages wholly inside the block can be huge.
 */
static void
advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t b = ((uintptr_t)p + len) & ~(huge - 1);

	if (b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p, (void)len;
#endif
}

/*
 * A zeroed block of len bytes for the encoder's caches, in a mapping of its
 * own that starts on a 2 MiB boundary and is a whole number of 2 MiB pages,
 * all of them asked to be huge (where the kernel gives them on request);
 * freed by huge_free with the same len.  The caches are probed at random
 * across megabytes, and each probe that misses the TLB costs a walk of the
 * page tables (two levels of them on a virtual machine).  A block from
 * calloc starts where malloc puts it: advise_huge could only make the pages
 * wholly inside it huge, and the part before the first boundary, up to
 * 2 MiB, stayed in 4 KiB pages: in the encoder, its pair cache and
 * byte-pair table, read for every pair of every new piece.  With the whole
 * encoder and the long-piece cache's arena in huge pages, btok encodes text
 * in 200 languages 15 % faster (tests/bench/btok.sh).  Under
 * AddressSanitizer the blocks come from calloc instead, so that an access
 * past their end is still caught.
 */
#define HUGE_PAGE ((size_t)2 << 20)

static void *
huge_zalloc(size_t len)
{
#if defined(MAP_ANONYMOUS) && !defined(__SANITIZE_ADDRESS__)
	size_t n = (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	char *p = mmap(NULL, n + HUGE_PAGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		die("out of memory allocating %zu bytes", len);
	/* The slack before the boundary and after the block goes back. */
	a = p + (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (a > p)
		(void)munmap(p, (size_t)(a - p));
	(void)munmap(a + n, (size_t)(p + HUGE_PAGE - a));
	advise_huge(a, n);
	return a;
#else
	return xcalloc(1, len);
#endif
}

static void
huge_free(void *p, size_t len)
{
#if defined(MAP_ANONYMOUS) && !defined(__SANITIZE_ADDRESS__)
	if (p)
		(void)munmap(p, (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
#else
	(void)len;
	free(p);
#endif
}

struct btok_enc *
btok_enc_new(const struct btok *t)
{
	struct btok_enc *e = huge_zalloc(sizeof *e);

	e->t = t;
	e->mtab = t->mtab;
	e->mmask = t->h->mcap - 1;
	e->pf = t->pf;
	e->pfmask = t->h->npf - 1;
	e->pre = (int)t->h->pre;
	if (e->pre == BTOK_PRE_SPACE_MERGED_PREV && (t->h->norm == BTOK_NORM_METASPACE ||
	    t->h->norm == BTOK_NORM_PREPEND_METASPACE))
		e->pre = BTOK_PRE_NONE;
	for (uint32_t i = 0; i < t->h->nbad; i++) {
		const struct btok_span *sp = &t->tok[t->bad[i]];
		const unsigned char *tx = (const unsigned char *)t->pool + sp->off;
		for (size_t k = 1; k < sp->len; k++)
			if (tx[k] == 0xE2)
				e->bad_before[tx[k - 1] >> 6] |= (uint64_t)1 << (tx[k - 1] & 63);
	}
	return e;
}

static void
work_free(struct work *w)
{
	free(w->s);
	free(w->q);
	free(w->bhead);
	free(w->bbits);
	free(w->be);
	free(w->bpos);
	memset(w, 0, sizeof *w);
}

/* Give back the arrays a long piece grew (the per-rank ones stay: their
   size is the tokenizer's). */
static void
work_trim(struct work *w)
{
	if (w->cs > WORK_KEEP) {
		free(w->s);
		w->s = NULL, w->ns = w->cs = 0;
	}
	if (w->cq > WORK_KEEP) {
		free(w->q);
		w->q = NULL, w->nq = w->cq = 0;
	}
	if (w->cbe > WORK_KEEP) {
		free(w->be);
		w->be = NULL, w->nbe = w->cbe = 0;
	}
	if (w->cbpos > WORK_KEEP) {
		free(w->bpos);
		w->bpos = NULL, w->cbpos = 0;
	}
}

void
btok_enc_free(struct btok_enc *e)
{
	if (!e)
		return;
	work_free(&e->w);
	huge_free(e->lc.arena, LC_ARENA * sizeof *e->lc.arena);
	buf_release(&e->norm);
	huge_free(e, sizeof *e);
}

/* ------------------------------------------------------------ ids */

/* Double the room of o (kept apart so that ids_push is inlined: it runs
   once a token). */
static __attribute__((noinline)) void
ids_grow(struct btok_ids *o)
{
	o->cap = o->cap ? o->cap * 2 : 256;
	o->v = xreallocarray(o->v, o->cap, sizeof *o->v);
}

static inline void
ids_push(struct btok_ids *o, uint32_t id)
{
	if (!o->count_only) {
		if (o->n == o->cap)
			ids_grow(o);
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

/* Pieces of at least this many symbols use the bucket queue. */
#ifndef LONG_PIECE
#define LONG_PIECE 512
#endif

/* The heap of (rank, position): a binary heap whose sifts move the entries
   on the way and write the new one once, at the end. */
static void
hpush(struct work *w, uint32_t rank, uint32_t pos, uint32_t id)
{
	struct hent x;
	size_t i;

	if (w->nq == w->cq) {
		w->cq = w->cq ? w->cq * 2 : 256;
		w->q = xreallocarray(w->q, w->cq, sizeof *w->q);
	}
	assert(pos < w->ns && w->s[pos].next >= 0);
	x.key = (uint64_t)rank << 32 | pos;
	x.id = id;
	x.a = w->s[pos].id;
	x.b = w->s[w->s[pos].next].id;
	for (i = w->nq++; i > 0; ) {
		size_t p = (i - 1) / 2;
		if (w->q[p].key <= x.key)
			break;
		w->q[i] = w->q[p];
		i = p;
	}
	w->q[i] = x;
}

static struct hent
hpop(struct work *w)
{
	struct hent top = w->q[0], x = w->q[--w->nq];
	size_t i = 0, n = w->nq;

	for (;;) {
		size_t m = 2 * i + 1;
		if (m >= n)
			break;
		if (m + 1 < n && w->q[m + 1].key < w->q[m].key)
			m++;
		if (w->q[m].key >= x.key)
			break;
		w->q[i] = w->q[m];
		i = m;
	}
	w->q[i] = x;	/* when the heap is now empty, x is top again */
	return top;
}

/* Double the symbols' room. */
static void
sym_grow(struct work *w)
{
	w->cs = w->cs ? w->cs * 2 : 256;
	w->s = xreallocarray(w->s, w->cs, sizeof *w->s);
}

/* Room for the n symbols at most of a piece of n bytes in w (which holds
   none), so that sym_add need not check it: doublings, or one block for a
   long piece. */
static void
sym_reserve(struct work *w, size_t n)
{
	assert(w->ns == 0);
	if (w->cs >= n)
		return;
	if (n <= WORK_KEEP) {
		while (w->cs < n)
			sym_grow(w);
		return;
	}
	free(w->s);
	w->s = xreallocarray(NULL, n, sizeof *w->s);
	w->cs = n;
	advise_huge(w->s, n * sizeof *w->s);
}

/* Append a symbol; sym_reserve made room for it (no assert: it runs once
   a character, and a piece of n bytes makes at most n symbols). */
static inline void
sym_add(struct work *w, uint32_t id, uint32_t start, uint32_t len)
{
	w->s[w->ns].id = id;
	w->s[w->ns].prev = (int32_t)w->ns - 1;
	w->s[w->ns].next = -1;
	w->s[w->ns].start = start;
	w->s[w->ns].len = len;
	if (w->ns)
		w->s[w->ns - 1].next = (int32_t)w->ns;
	w->ns++;
}

/* The pair-cache slot of a pair whose btok_pair_hash is hv (its top bits;
   the merges table takes BTOK_MSLOT of the same hash). */
#define PC_SLOT(hv) ((hv) >> (64 - PC_BITS))

/*
 * Start fetching what pair_rank_h of the ids (a, b) reads: its word of the
 * pair filter, its pair-cache slot and the merges table's first slot for
 * it, so that the misses of several lookups, and of the levels of one,
 * overlap instead of following one another (on text not seen before most
 * pairs miss the last two).  Returns btok_pair_hash(a, b), which the
 * caller must use: GCC takes a function whose only effect is a prefetch
 * for one without effects, and drops its calls.
 */
static inline uint64_t
pair_prefetch(const struct btok_enc *e, uint32_t a, uint32_t b)
{
	uint64_t hv = btok_pair_hash(a, b);

	__builtin_prefetch(&e->pf[BTOK_PF_WORD(hv, e->pfmask)]);
	__builtin_prefetch(&e->pc[PC_SLOT(hv)]);
	__builtin_prefetch(&e->mtab[BTOK_MSLOT(hv, e->mmask)]);
	return hv;
}

/* Fill the pair-cache slot c with the pair (a, b), whose btok_pair_hash
   is hv: its rank and the id it makes (the merges table: HF merges, or
   tiktoken's pairs), or BTOK_NONE. */
static __attribute__((noinline)) void
pair_rank_slow(const struct btok *t, const struct sym *a, const struct sym *b,
    uint64_t hv, struct pc_ent *c)
{
	uint64_t key = (uint64_t)a->id << 32 | b->id;
	const struct btok_merge *m = btok_mtab_find_h(t, key, hv);
	uint32_t r = 0, i = BTOK_NONE;

	if (m)
		r = m->rank, i = m->id;
	c->key = ~key;
	c->rank = r;
	c->id = i;
}

/* Rank of a pair whose btok_pair_hash is hv and the id it makes, from the
   pair cache or else the merges table, once the pair filter passes it; 0
   when it has no merge. */
static inline int
pair_rank_h(struct btok_enc *e, const struct sym *a,
    const struct sym *b, uint64_t hv, uint32_t *rank, uint32_t *id)
{
	uint64_t key = (uint64_t)a->id << 32 | b->id;
	struct pc_ent *c = &e->pc[PC_SLOT(hv)];

	if (!btok_pf_has(e->pf, e->pfmask, hv))
		return 0;
	if (c->key != ~key)
		pair_rank_slow(e->t, a, b, hv, c);
	*rank = c->rank;
	*id = c->id;
	return c->id != BTOK_NONE;
}

static inline int
pair_rank(struct btok_enc *e, const struct sym *a,
    const struct sym *b, uint32_t *rank, uint32_t *id)
{
	return pair_rank_h(e, a, b, btok_pair_hash(a->id, b->id), rank, id);
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

/* Merge the pair at pos with its right neighbour into id (inline: it runs
   once a merge). */
static inline void
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
bq_apply(struct btok_enc *e, uint32_t rr, uint32_t pos,
    uint32_t cur_rank)
{
	struct work *w = &e->w;
	struct sym *cur = &w->s[pos];
	uint32_t rank, id;

	if (cur->len == 0 || cur->next < 0 ||
	    !pair_rank(e, cur, &w->s[cur->next], &rank, &id) || rank != rr)
		return;		/* stale: the pair changed */
	sym_merge(w, pos, id);
	/* Pairs ranked after the current bucket wait in theirs; the others
	   (a merge can make a pair of lower rank) go to the heap. */
	if (cur->prev >= 0 && pair_rank(e, &w->s[cur->prev], cur, &rank, &id)) {
		if (rank > cur_rank)
			bq_push(w, rank, (uint32_t)cur->prev);
		else
			hpush(w, rank, (uint32_t)cur->prev, id);
	}
	if (cur->next >= 0 && pair_rank(e, cur, &w->s[cur->next], &rank, &id)) {
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
merge_buckets(struct btok_enc *e)
{
	struct work *w = &e->w;
	uint32_t rank, id, r = 0;

	if (w->bcap < e->t->nranks) {
		free(w->bhead);
		free(w->bbits);
		w->bcap = e->t->nranks;
		w->bhead = xcalloc(w->bcap, sizeof *w->bhead);
		w->bbits = xcalloc((w->bcap + 63) / 64, sizeof *w->bbits);
	}
	w->nbe = 0;
	w->nq = 0;
	for (size_t i = 0; i + 1 < w->ns; i++)
		if (pair_rank(e, &w->s[i], &w->s[i + 1], &rank, &id))
			bq_push(w, rank, (uint32_t)i);
	while ((r = bq_next(w, r)) != BTOK_NONE) {
		size_t n = bq_take(w, r), k = 0;
		for (;;) {
			if (w->nq && (k == n || HRANK(w->q[0]) < r ||
			    (HRANK(w->q[0]) == r && HPOS(w->q[0]) < w->bpos[k]))) {
				struct hent top = hpop(w);
				bq_apply(e, HRANK(top), HPOS(top), r);
			} else if (k < n)
				bq_apply(e, r, w->bpos[k++], r);
			else
				break;
		}
		assert(w->nq == 0);
		r++;
	}
}

/* Pieces of at most this many symbols use merge_small. */
#define SMALL_PIECE 48

/* The position in m with the lowest rank in rk, leftmost on ties (index
   order is text order), and that rank in *best; -1 and BTOK_NONE when m is
   empty. */
static inline int32_t
small_best(const uint32_t *rk, uint64_t m, uint32_t *best)
{
	/* The least rank << 6 | position orders by rank, then leftmost
	   (positions are below 64); kept with a conditional move, where a
	   branch on the comparison would be mispredicted at random. */
	uint64_t k = UINT64_MAX;

	for (; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		uint64_t x = (uint64_t)rk[i] << 6 | i;
		k = x < k ? x : k;
	}
	if (k == UINT64_MAX) {
		*best = BTOK_NONE;
		return -1;
	}
	*best = (uint32_t)(k >> 6);
	return (int32_t)(k & 63);
}

/*
 * The ranks and ids of the pairs of a byte-level piece's first symbols, one
 * a byte of u, into rk and nid (BTOK_NONE: no merge), from the byte-pair
 * table, filled from pair_rank on first use: a pair's result depends only
 * on its two ids, and a byte's id only on the byte.  Returns the pairs with
 * a rank, a bit each.
 */
static uint64_t
byte_pair_ranks(struct btok_enc *e, const unsigned char *u, uint32_t *rk,
    uint32_t *nid)
{
	const struct work *w = &e->w;
	uint64_t ranked = 0;

	for (size_t i = 0; i + 1 < w->ns; i++) {
		struct bp_ent *b = &e->bp[(unsigned)u[i] << 8 | u[i + 1]];
		if (!b->id1) {
			uint32_t r, id;
			if (pair_rank(e, &w->s[i], &w->s[i + 1], &r, &id))
				b->rank = r, b->id1 = id + 1;
			else
				b->id1 = UINT32_MAX;
		}
		if (b->id1 == UINT32_MAX) {
			rk[i] = BTOK_NONE;
			continue;
		}
		rk[i] = b->rank;
		nid[i] = b->id1 - 1;
		ranked |= (uint64_t)1 << i;
	}
	return ranked;
}

/*
 * The merges of merge_all for short pieces: the rank of each adjacent pair
 * is kept beside its left symbol and the lowest (leftmost on ties) found by
 * a scan, as tiktoken's byte_pair_merge does; no heap, and the lookups are
 * prefetched together, since they miss the processor caches (a byte-level
 * piece's first pairs come from the byte-pair table instead).  The same
 * order as the heap: a pair's rank never goes stale, and two different
 * pairs at one position cannot make the same token (its bytes would differ
 * in length), so word.rs's check never matters here.  The scan visits
 * only the positions that have a rank (a bit each in one word): pairs
 * without one (digits that no merge joins, merged-away symbols) are most
 * of a piece once its merges are under way.
 */
static void
merge_small(struct btok_enc *e, const unsigned char *bytes)
{
	struct work *w = &e->w;
	uint32_t rk[SMALL_PIECE], nid[SMALL_PIECE];
	uint64_t hv[SMALL_PIECE], ranked = 0;
	size_t n = w->ns;
	int32_t bi, nb;
	uint32_t best;

	assert(n <= SMALL_PIECE && SMALL_PIECE <= 64);
	if (n < 2)
		return;		/* no pair to merge */
	if (bytes)
		ranked = byte_pair_ranks(e, bytes, rk, nid);
	else {
		for (size_t i = 0; i + 1 < n; i++)
			hv[i] = pair_prefetch(e, w->s[i].id, w->s[i + 1].id);
		for (size_t i = 0; i + 1 < n; i++) {
			if (pair_rank_h(e, &w->s[i], &w->s[i + 1], hv[i],
			    &rk[i], &nid[i]))
				ranked |= (uint64_t)1 << i;
			else
				rk[i] = BTOK_NONE;
		}
	}
	rk[n - 1] = BTOK_NONE;
	bi = small_best(rk, ranked, &best);
	while (bi >= 0) {
		struct sym *s = w->s;
		int32_t pv, nx;
		uint64_t hp = 0, hn = 0;

		assert(s[bi].next >= 0);
		rk[s[bi].next] = BTOK_NONE;
		ranked &= ~((uint64_t)1 << s[bi].next);
		sym_merge(w, (uint32_t)bi, nid[bi]);
		pv = s[bi].prev;
		nx = s[bi].next;
		if (pv >= 0)
			hp = pair_prefetch(e, s[pv].id, s[bi].id);
		if (nx >= 0)
			hn = pair_prefetch(e, s[bi].id, s[nx].id);
		/* The lowest of the pairs the merge left as they were, found
		   while the two it made are looked up (the scan does not wait
		   for those lookups, which mostly miss the processor caches);
		   then the two, each winning only below it, or level with it
		   and to its left. */
		ranked &= ~((uint64_t)1 << bi);
		if (pv >= 0)
			ranked &= ~((uint64_t)1 << pv);
		nb = small_best(rk, ranked, &best);
		if (pv >= 0) {
			if (pair_rank_h(e, &s[pv], &s[bi], hp, &rk[pv], &nid[pv])) {
				ranked |= (uint64_t)1 << pv;
				if (rk[pv] < best || (rk[pv] == best && pv < nb))
					best = rk[pv], nb = pv;
			} else
				rk[pv] = BTOK_NONE;
		}
		if (nx >= 0 && pair_rank_h(e, &s[bi], &s[nx], hn, &rk[bi], &nid[bi])) {
			ranked |= (uint64_t)1 << bi;
			if (rk[bi] < best || (rk[bi] == best && bi < nb))
				best = rk[bi], nb = bi;
		} else
			rk[bi] = BTOK_NONE;
		bi = nb;
	}
}

/* The merges of word.rs merge_all, with its priority queue (a binary heap
   of (rank, position) with stale entries skipped when popped). */
static void
merge_heap(struct btok_enc *e)
{
	struct work *w = &e->w;
	uint32_t rank, id;

	w->nq = 0;
	for (size_t i = 0; i + 1 < w->ns; i++)
		if (pair_rank(e, &w->s[i], &w->s[i + 1], &rank, &id))
			hpush(w, rank, (uint32_t)i, id);
	while (w->nq) {
		struct hent top = hpop(w);
		struct sym *cur = &w->s[HPOS(top)], *right;
		int32_t nx;
		if (cur->len == 0 || cur->next < 0)
			continue;
		right = &w->s[cur->next];
		/* A stale entry: the pair at pos no longer makes top.id (as
		   word.rs checks it; the same two ids are the same merge). */
		if ((cur->id != top.a || right->id != top.b) &&
		    (!pair_rank(e, cur, right, &rank, &id) || id != top.id))
			continue;
		sym_merge(w, HPOS(top), top.id);
		nx = cur->next;
		if (cur->prev >= 0 &&
		    pair_rank(e, &w->s[cur->prev], cur, &rank, &id))
			hpush(w, rank, (uint32_t)cur->prev, id);
		if (nx >= 0 && pair_rank(e, cur, &w->s[nx], &rank, &id))
			hpush(w, rank, HPOS(top), id);
	}
}

/* Merge the symbols of w as far as the ranks allow; bytes: the piece when
   its symbols are its bytes (byte-level), else NULL. */
static void
merge_all(struct btok_enc *e, const unsigned char *bytes)
{
	if (e->w.ns >= LONG_PIECE)
		merge_buckets(e);
	else if (e->w.ns <= SMALL_PIECE)
		merge_small(e, bytes);
	else
		merge_heap(e);
}

/* ------------------------------------------------------------ the model */

/* A run of characters the vocabulary lacks, waiting to be one unknown. */
struct unk { int on; uint32_t start, len; };

/*
 * A character p[i..i+l) the vocabulary lacks: its <0xNN> tokens when byte
 * fallback has them all, else the unknown token, fused with a pending one
 * under fuse_unk.
 */
static void
sym_missing(struct btok_enc *e, const char *p, size_t i, size_t l,
    struct unk *u)
{
	const struct btok_hdr *h = e->t->h;
	int allbytes = h->byte_fallback;

	for (size_t k = 0; allbytes && k < l; k++)
		if (h->byte_id[(unsigned char)p[i + k]] == BTOK_NONE)
			allbytes = 0;
	if (allbytes) {
		/* As model.rs: a pending unknown is not flushed before
		   byte-fallback tokens. */
		for (size_t k = 0; k < l; k++)
			sym_add(&e->w, h->byte_id[(unsigned char)p[i + k]],
			    (uint32_t)(i + k), 1);
		return;
	}
	if (h->unk_id == BTOK_NONE)
		return;
	if (u->on && h->fuse_unk) {
		u->len += (uint32_t)l;
		return;
	}
	if (u->on)
		sym_add(&e->w, h->unk_id, u->start, u->len);
	u->on = 1;
	u->start = (uint32_t)i;
	u->len = (uint32_t)l;
}

/* The symbols of a piece of characters: one per character of the
   vocabulary, byte fallback and unknowns for the others. */
static void
symbols_chars(struct btok_enc *e, const char *p, size_t n)
{
	const struct btok_hdr *h = e->t->h;
	struct unk u = { 0, 0, 0 };
	size_t l;

	for (size_t i = 0; i < n; i += l) {
		uint32_t cp;
		struct cc_ent *c;

		l = btok_u8dec((const unsigned char *)p + i, n - i, &cp);
		c = &e->cc[(cp * 2654435761u) >> (32 - CC_BITS)];
		if (c->cp != cp + 1) {
			c->cp = cp + 1;
			c->id = btok_vtab_find(e->t, p + i, l);
		}
		if (c->id == BTOK_NONE) {
			sym_missing(e, p, i, l, &u);
			continue;
		}
		if (u.on) {
			sym_add(&e->w, h->unk_id, u.start, u.len);
			u.on = 0;
		}
		sym_add(&e->w, c->id, (uint32_t)i, (uint32_t)l);
	}
	if (u.on)
		sym_add(&e->w, h->unk_id, u.start, u.len);
}

/* Byte-level: one symbol per byte of p[0..n), n > 0, into w (which holds
   none, with room for n), written in one pass rather than appended one by
   one. */
static void
symbols_bytes(struct work *w, const struct btok_hdr *h, const char *p,
    size_t n)
{
	struct sym *s;

	assert(w->ns == 0 && n > 0 && w->cs >= n);
	s = w->s;
	for (size_t i = 0; i < n; i++) {
		s[i].id = h->byte_id[(unsigned char)p[i]];
		s[i].prev = (int32_t)i - 1;
		s[i].next = (int32_t)i + 1;
		s[i].start = (uint32_t)i;
		s[i].len = 1;
	}
	s[n - 1].next = -1;
	w->ns = n;
}

/* Remember the ids of piece p[0..n) in its word-cache set c, whose older
   slot it takes as the newer moves there. */
static void
wc_store(struct wc_ent *c, uint64_t hv, const char *p, size_t n,
    const uint32_t *ids, unsigned nids)
{
	c[1] = c[0];
	c->h = hv;
	c->len = (uint8_t)n;
	memcpy(c->bytes, p, n);
	c->nids = (uint8_t)nids;
	if (nids != WC_LONG)
		memcpy(c->ids, ids, nids * sizeof *ids);
}

/* The ids of piece p[0..n) (hash hv) from the long-piece cache, appended
   to out; 0 when it does not hold them. */
static int
lc_get(const struct lcache *lc, uint64_t hv, const char *p, size_t n,
    struct btok_ids *out)
{
	const struct lc_ent *c = &lc->slot[hv & ((1u << LC_BITS) - 1)];
	const uint32_t *ids;

	if (c->h != hv || c->len != n)
		return 0;
	ids = lc->arena + c->off;
	if (memcmp(ids + c->nids, p, n) != 0)
		return 0;
	for (unsigned i = 0; i < c->nids; i++)
		ids_push(out, ids[i]);
	return 1;
}

/* Remember the merged symbols of w as the ids of piece p[0..n) (hash hv,
   n <= LC_MAX, nids <= n) in the long-piece cache. */
static void
lc_put(struct lcache *lc, const struct work *w, uint64_t hv, const char *p,
    size_t n, unsigned nids)
{
	struct lc_ent *c = &lc->slot[hv & ((1u << LC_BITS) - 1)];
	uint32_t need = nids + (uint32_t)(n + 3) / 4, k = 0;

	assert(n > 0 && n <= LC_MAX && nids <= n);
	if (!lc->arena)
		lc->arena = huge_zalloc(LC_ARENA * sizeof *lc->arena);
	if (LC_ARENA - lc->used < need) {
		memset(lc->slot, 0, sizeof lc->slot);
		lc->used = 0;
	}
	c->h = hv;
	c->off = lc->used;
	c->len = (uint16_t)n;
	c->nids = (uint16_t)nids;
	for (int32_t i = 0; i >= 0 && (size_t)i < w->ns; i = w->s[i].next)
		lc->arena[c->off + k++] = w->s[i].id;
	memcpy(lc->arena + c->off + nids, p, n);
	lc->used += need;
}

/* Emit the merged symbols; cache them in word-cache set c (if any) when
   they fit, else in the long-piece cache when the piece is short enough
   (hv: its hash then). */
static void
emit_symbols(struct btok_enc *e, struct wc_ent *c, uint64_t hv, const char *p,
    size_t n, int cache, struct btok_ids *out)
{
	const struct work *w = &e->w;
	uint32_t first[6];
	unsigned k = 0;

	for (int32_t i = 0; i >= 0 && (size_t)i < w->ns; i = w->s[i].next) {
		ids_push(out, w->s[i].id);
		if (k < 6)
			first[k] = w->s[i].id;
		k++;
	}
	if (c && k <= 6)
		wc_store(c, hv, p, n, first, k);
	else if (cache && n <= LC_MAX && k <= n) {
		lc_put(&e->lc, w, hv, p, n, k);
		if (c)
			wc_store(c, hv, p, n, NULL, WC_LONG);
	}
}

/* The model on one piece, whole (model_piece less its cuts). */
static void
model_whole(struct btok_enc *e, const char *p, size_t n, uint64_t hv,
    struct btok_ids *out, int cache)
{
	const struct btok_hdr *h = e->t->h;
	struct wc_ent *c = NULL;
	uint32_t id;

	/* The cache first: one memory access, where a vocabulary hit costs
	   three (hash slot, token span, token bytes).  A piece the word cache
	   could hold is looked up in the long-piece cache only when the word
	   cache says it is there: a piece not seen before then costs one miss
	   of the processor caches, not two. */
	if (cache && n <= sizeof c->bytes) {
		c = &e->wc[hv & ((1u << WC_BITS) - 2)];
		for (int k = 0; k < 2; k++) {
			if (c[k].h != hv || c[k].len != n || memcmp(c[k].bytes, p, n) != 0)
				continue;
			if (c[k].nids == WC_LONG) {
				if (lc_get(&e->lc, hv, p, n, out))
					return;
				break;
			}
			for (unsigned i = 0; i < c[k].nids; i++)
				ids_push(out, c[k].ids[i]);
			return;
		}
	} else if (cache && n <= LC_MAX && lc_get(&e->lc, hv, p, n, out))
		return;
	/* tiktoken and ignore_merges: a piece of the vocabulary is one token. */
	if ((h->model == BTOK_MODEL_TIKTOKEN || h->ignore_merges) && n <= h->maxtok &&
	    (id = btok_vtab_find_h(e->t, p, n, cache && n <= LC_MAX ? hv :
	    ctx_hash(p, n))) != BTOK_NONE) {
		ids_push(out, id);
		if (c)
			wc_store(c, hv, p, n, &id, 1);
		return;
	}
	e->w.ns = 0;
	sym_reserve(&e->w, n);
	if (h->bytelevel)
		symbols_bytes(&e->w, h, p, n);
	else
		symbols_chars(e, p, n);
	merge_all(e, h->bytelevel ? (const unsigned char *)p : NULL);
	emit_symbols(e, c, hv, p, n, cache, out);
}

/* Pieces longer than this are cut where no merge can join their parts. */
#define CUT_OVER LC_MAX
#ifndef CUT_MIN
#define CUT_MIN 64
#endif

/* The vocabulary holds the character of p[0..l) as one token. */
static int
char_known(struct btok_enc *e, const char *p, size_t l)
{
	uint32_t cp;
	struct cc_ent *c;

	(void)btok_u8dec((const unsigned char *)p, l, &cp);
	c = &e->cc[(cp * 2654435761u) >> (32 - CC_BITS)];
	if (c->cp != cp + 1) {
		c->cp = cp + 1;
		c->id = btok_vtab_find(e->t, p, l);
	}
	return c->id != BTOK_NONE;
}

/* The length of the UTF-8 character starting with byte c. */
static size_t
u8len(unsigned char c)
{
	return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/*
 * Can no merge join the symbols before and after p[i] (0 < i < n)?  Each
 * symbol's bytes are those of the symbols it was made from, so a merge
 * across i would make a token holding the last byte of the first symbol
 * before i followed by the first byte of the first after it.  Those are
 * single bytes (byte-level, tiktoken; last[] and first[] of their tokens),
 * or characters that must then both be tokens of the vocabulary (not byte
 * fallback or unknown, whose tokens' bytes are not the text's).
 */
static int
cut_at(struct btok_enc *e, const struct btok_cut *c, const char *p, size_t n,
    size_t i)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned x = c->last[u[i - 1]], y = c->first[u[i]];
	size_t j;

	if (c->joined[x][y >> 6] >> (y & 63) & 1)
		return 0;
	if (e->t->h->bytelevel)
		return 1;
	if ((u[i] & 0xC0) == 0x80)
		return 0;
	for (j = i - 1; j > 0 && (u[j] & 0xC0) == 0x80; j--)
		;
	return char_known(e, p + j, i - j) &&
	    char_known(e, p + i, u8len(u[i]) < n - i ? u8len(u[i]) : n - i);
}

/*
 * A long piece in parts, each modelled alone, when it has places where no
 * merge can join what is before and after (cut_at): the merges of the
 * parts are those of the piece (a merge joins two neighbours; the lowest
 * rank, leftmost, of a part is the lowest among those of the part
 * throughout), and so are the ids; but the symbols of a part are all that
 * is held at once, not those of a piece of megabytes.  Parts are at least
 * CUT_MIN bytes, and where a piece of the vocabulary is one token
 * (tiktoken, ignore_merges) longer than every token, so that the lookup of
 * a part as a whole finds none, as for the piece.  The parts bypass the
 * word caches: mostly text not seen before, they would only push out what
 * is there.  Returns 0 when the piece has no such place.
 */
static int
model_cut(struct btok_enc *e, const char *p, size_t n, struct btok_ids *out)
{
	const struct btok_cut *c = e->t->cut;
	size_t st = 0, min;

	min = e->t->h->model == BTOK_MODEL_TIKTOKEN || e->t->h->ignore_merges ?
	    (size_t)e->t->h->maxtok + 1 : CUT_MIN;
	if (min < CUT_MIN)
		min = CUT_MIN;
	if (n < 2 * min)
		return 0;
	for (size_t i = min; i <= n; i++) {
		if (i < n && (i + min > n || !cut_at(e, c, p, n, i)))
			continue;
		if (i == n && st == 0)
			return 0;
		model_whole(e, p + st, i - st, 0, out, 0);
		work_trim(&e->w);
		st = i;
		i += min - 1;
	}
	return 1;
}

/* The model on one piece (bytes as the vocabulary holds them); hv is
   piece_hash of the piece when it is at most LC_MAX bytes. */
static void
model_piece(struct btok_enc *e, const char *p, size_t n, uint64_t hv,
    struct btok_ids *out)
{
	if (n == 0)
		return;
	if (n > BTOK_MAX_PIECE) {
		if (!out->toolong)
			out->toolong = n;
		return;
	}
	if (n > CUT_OVER && model_cut(e, p, n, out))
		return;
	model_whole(e, p, n, hv, out, 1);
}

/* ------------------------------------------------------------ pipeline */

/* Pieces are modelled in batches of this many. */
#define BATCH 16
#define BATCH_SKIP 8

/* A piece waiting in a batch, and its hash when it fits the word cache;
   or (p NULL) an added token's id in h, which keeps its place among them:
   a batch runs across segments, over the added tokens between them. */
struct bpiece {
	const char *p;
	size_t n;
	uint64_t h;
};

/* One call of btok_encode. */
struct pctx {
	struct btok_enc *e;
	struct btok_ids *out;
	int special;		/* special added tokens are matched */
	struct bpiece batch[BATCH];	/* pieces of the current segment */
	unsigned nbatch;
	unsigned bp_skip;	/* batches left that skip batch_prefetch */
};

/*
 * Where a piece of the vocabulary is one token (tiktoken, ignore_merges),
 * fetch, for the pieces of the batch that miss the word cache, what
 * model_piece reads next and misses the processor caches: the long-piece
 * cache's arena, or the vocabulary slot, then the token's span, then its
 * bytes: each step for the whole batch before the next, so that the misses
 * of the pieces overlap instead of following one another.
 * Only reads: model_piece does the lookups again (from the caches then),
 * so the ids cannot depend on it.  Returns the pieces it fetched for (not
 * 0 where it does nothing).
 */
static unsigned
batch_prefetch(struct pctx *c)
{
	const struct btok_enc *e = c->e;
	const struct btok *t = e->t;
	uint32_t slot[BATCH], fp[BATCH];
	unsigned nw = 0, nlc = 0;

	if (t->h->model != BTOK_MODEL_TIKTOKEN && !t->h->ignore_merges)
		return 1;
	for (unsigned i = 0; i < c->nbatch; i++) {
		const struct bpiece *b = &c->batch[i];
		uint64_t hv;
		if (!b->p)
			continue;
		if (b->n <= sizeof e->wc[0].bytes) {
			const struct wc_ent *w = &e->wc[b->h & ((1u << WC_BITS) - 2)];
			if ((w[0].h == b->h && w[0].len == b->n) ||
			    (w[1].h == b->h && w[1].len == b->n))
				continue;
		} else if (b->n <= LC_MAX) {
			const struct lc_ent *l = &e->lc.slot[b->h & ((1u << LC_BITS) - 1)];
			if (l->h == b->h && l->len == b->n) {
				__builtin_prefetch(e->lc.arena + l->off);
				nlc++;
				continue;
			}
		}
		if (b->n == 0 || b->n > t->h->maxtok)
			continue;
		hv = b->n <= LC_MAX ? b->h : ctx_hash(b->p, b->n);
		slot[nw] = (uint32_t)hv & (t->h->vcap - 1);
		fp[nw] = BTOK_VSLOT(0, hv);
		__builtin_prefetch(&t->vtab[slot[nw]]);
		nw++;
	}
	for (unsigned k = 0; k < nw; k++) {
		uint32_t v = t->vtab[slot[k]];
		slot[k] = v != BTOK_NONE && (v & ~0xFFFFFFu) == fp[k] ? BTOK_VID(v) : BTOK_NONE;
		if (slot[k] != BTOK_NONE)
			__builtin_prefetch(&t->tok[slot[k]]);
	}
	for (unsigned k = 0; k < nw; k++)
		if (slot[k] != BTOK_NONE)
			__builtin_prefetch(t->pool + t->tok[slot[k]].off);
	return nw + nlc;
}

/* Model the pieces of the batch, in their order.  After a batch whose
   pieces all were in the word cache, the next few skip batch_prefetch
   (text seen before, or runs of digits: its pass would only cost). */
static void
batch_flush(struct pctx *c)
{
	if (!c->nbatch)
		return;
	if (c->bp_skip)
		c->bp_skip--;
	else if (!batch_prefetch(c))
		c->bp_skip = BATCH_SKIP;
	for (unsigned i = 0; i < c->nbatch; i++) {
		const struct bpiece *b = &c->batch[i];
		if (b->p)
			model_piece(c->e, b->p, b->n, b->h, c->out);
		else
			ids_push(c->out, (uint32_t)b->h);
	}
	c->nbatch = 0;
}

/* An added token's id joins the batch, after the pieces before it. */
static void
batch_id(struct pctx *c, uint32_t id)
{
	struct bpiece *b = &c->batch[c->nbatch++];

	b->p = NULL;
	b->n = 0;
	b->h = id;
	if (c->nbatch == BATCH)
		batch_flush(c);
}

/* The hash of a piece for the word and long-piece caches: the image's
   ctx_hash, so that the vocabulary lookup of a piece reuses it. */
static inline uint64_t
piece_hash(const char *s, size_t n)
{
	return ctx_hash(s, n);
}

/*
 * A piece from the pre-tokeniser joins the batch, and its word-cache set is
 * fetched: the slots of a batch, which mostly miss the processor caches, are
 * then read together instead of one after another.  The pieces point into
 * the text, the encoder's metaspace buffer or an NFC copy: each stays until
 * the batch is flushed (metaspace, normalize_segment, btok_encode).
 */
static void
on_piece(const char *p, size_t n, void *vc)
{
	struct pctx *c = vc;
	struct bpiece *b = &c->batch[c->nbatch++];

	b->p = p;
	b->n = n;
	b->h = 0;
	if (n <= sizeof c->e->wc[0].bytes) {
		b->h = piece_hash(p, n);
		__builtin_prefetch(&c->e->wc[b->h & ((1u << WC_BITS) - 2)]);
		__builtin_prefetch(&c->e->wc[(b->h & ((1u << WC_BITS) - 2)) + 1]);
	} else if (n <= LC_MAX) {
		b->h = piece_hash(p, n);
		__builtin_prefetch(&c->e->lc.slot[b->h & ((1u << LC_BITS) - 1)]);
	}
	if (c->nbatch == BATCH)
		batch_flush(c);
}

/* Does one of the listed tokens occur in s[0..n) across position p, the
   start of a U+2581? */
static int
bad_across(const struct btok_enc *e, const char *s, size_t n, size_t p)
{
	const struct btok *t = e->t;
	unsigned char b = (unsigned char)s[p - 1];

	/* A token across p holds s[p - 1] right before its U+2581. */
	if (!(e->bad_before[b >> 6] >> (b & 63) & 1))
		return 0;
	for (uint32_t i = 0; i < t->h->nbad; i++) {
		const struct btok_span *sp = &t->tok[t->bad[i]];
		const char *tx = t->pool + sp->off;
		/* The token at p - k: its byte k is s[p], its first s[p - k]. */
		for (size_t k = 1; k < sp->len; k++) {
			if (tx[k] != s[p] || k > p || p - k + sp->len > n)
				continue;
			if (s[p - k] == tx[0] && memcmp(s + p - k, tx, sp->len) == 0)
				return 1;
		}
	}
	return 0;
}

static void
pretok_model(struct pctx *c, const char *s, size_t n)
{
	const struct btok_hdr *h = c->e->t->h;
	int pre = c->e->pre;

	if (h->msplit && (pre == BTOK_PRE_NONE || pre == BTOK_PRE_SPACE_MERGED_PREV)) {
		/* Cut before each U+2581 run (see find_bad in compile.c); its
		   first byte found by memchr, which skips the rest. */
		size_t st = 0;
		for (size_t i = 1; i + 3 <= n; i++) {
			const char *q = memchr(s + i, '\xE2', n - 2 - i);
			if (!q)
				break;
			i = (size_t)(q - s);
			if (s[i + 1] != '\x96' || s[i + 2] != '\x81')
				continue;
			if (i >= 3 && memcmp(s + i - 3, "\xE2\x96\x81", 3) == 0)
				continue;
			if (h->nbad && bad_across(c->e, s, n, i))
				continue;
			btok_pretokenize(pre, s + st, i - st, on_piece, c);
			st = i;
		}
		btok_pretokenize(pre, s + st, n - st, on_piece, c);
	} else
		btok_pretokenize(pre, s, n, on_piece, c);
}

/*
 * The first i at or after from where a token of tr may start (a byte of
 * tr->first), or n.  Most text has none of those bytes: memchr when there
 * is one, sixteen bytes at a time when there are a few.
 */
static size_t
next_first(const struct btok_atrie *tr, const unsigned char *u, size_t i,
    size_t n)
{
	if (tr->nfb == 1) {
		const unsigned char *q = memchr(u + i, tr->fb[0], n - i);
		return q ? (size_t)(q - u) : n;
	}
#if defined(__SSE2__) && !defined(BTOK_GENERIC)
	if (tr->nfb <= BTOK_NFIRST) {
		for (; i + 16 <= n; i += 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
			__m128i m = _mm_cmpeq_epi8(x, _mm_set1_epi8((char)tr->fb[0]));
			unsigned bits;
			for (unsigned k = 1; k < tr->nfb; k++)
				m = _mm_or_si128(m, _mm_cmpeq_epi8(x,
				    _mm_set1_epi8((char)tr->fb[k])));
			bits = (unsigned)_mm_movemask_epi8(m);
			if (bits)
				return i + (size_t)__builtin_ctz(bits);
		}
	}
#endif
	while (i < n && !tr->first[u[i]])
		i++;
	return i;
}

/* Split s by the added tokens of trie tr; text segments go to fn. */
static void
split_added(struct pctx *c, const struct btok_atrie *tr, const char *s,
    size_t n, void (*fn)(struct pctx *, const char *, size_t))
{
	const struct btok *t = c->e->t;
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
		if ((i = next_first(tr, u, i, n)) == n)
			break;
		if (!(l = btok_trie_match(tr, u + i, n - i, &which))) {
			i++;
			continue;
		}
		if (!c->special && (t->added[which].flags & BTOK_ADDED_SPECIAL)) {
			i += l;	/* left in the text (encode_special_tokens) */
			continue;
		}
		if (i > seg)
			fn(c, s + seg, i - seg);
		batch_id(c, t->added[which].id);
		i += l;
		seg = i;
	}
	if (n > seg)
		fn(c, s + seg, n - seg);
}

/* The spaces of s[0..n), eight bytes at a time. */
static size_t
count_spaces(const char *s, size_t n)
{
	size_t sp = 0, i = 0;

	for (; i + 8 <= n; i += 8)
		sp += swar_count(swar_eq_exact(swar_load(s + i), ' '));
	for (; i < n; i++)
		sp += s[i] == ' ';
	return sp;
}

/*
 * Copy s[0..n) to d with each space replaced by U+2581; returns the end.
 * Eight bytes at a time: the bytes up to each space of a word go as one
 * eight-byte copy (the bytes it copies past the space are overwritten
 * next), since words are shorter than the calls of memchr and memcpy
 * were worth.  While sixteen bytes remain, neither the reads nor the
 * writes (d has room for the whole result) pass the end.
 */
static char *
metaspace_copy(char *d, const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 8) {
		uint64_t m = swar_eq_exact(swar_load(s + i), ' ');
		size_t j = 0, k;

		for (; m; m &= m - 1) {
			k = swar_first(m);
			memcpy(d, s + i + j, 8);
			d += k - j;
			memcpy(d, "\xE2\x96\x81", 3);
			d += 3;
			j = k + 1;
		}
		memcpy(d, s + i + j, 8);
		d += 8 - j;
	}
	for (; i < n; i++) {
		if (s[i] != ' ')
			*d++ = s[i];
		else {
			memcpy(d, "\xE2\x96\x81", 3);
			d += 3;
		}
	}
	return d;
}

/*
 * Replace(" ", "\u2581"), after Prepend("\u2581") when prepend is set (only
 * to a non-empty segment, as normalizers/prepend.rs): bytes of the
 * encoder's buffer e->norm and their length, or NULL when s[0..n) stays as
 * it is.  The pieces of the batch may point into the buffer: the segment
 * goes after them while it has room, and the batch is flushed before the
 * buffer is emptied.
 */
static char *
metaspace(struct pctx *c, const char *s, size_t n, int prepend,
    size_t *outlen)
{
	struct buf *b = &c->e->norm;
	size_t sp = 0, o = 0, need;
	char *norm;

	prepend = prepend && n > 0;
	sp = count_spaces(s, n);
	if (!sp && !prepend)
		return NULL;
	need = n + 2 * sp + 3;
	if (c->nbatch && b->cap - b->len <= need)
		batch_flush(c);
	if (!c->nbatch)
		buf_reset(b);
	buf_grow(b, need);
	norm = b->s + b->len;
	if (prepend) {
		memcpy(norm, "\xE2\x96\x81", 3);
		o = 3;
	}
	o = (size_t)(metaspace_copy(norm + o, s, n) - norm);
	b->len += o;	/* the buffer's NUL, as struct buf keeps it */
	norm[o] = '\0';
	*outlen = o;
	return norm;
}

static void
normalize_segment(struct pctx *c, const char *s, size_t n)
{
	const struct btok *t = c->e->t;
	char *nfc = NULL;
	const char *norm = NULL;
	size_t nl = n;

	if (t->h->norm == BTOK_NORM_NFC)
		norm = nfc = btok_nfc(s, n, &nl);
	else if (t->h->norm == BTOK_NORM_METASPACE)
		norm = metaspace(c, s, n, 0, &nl);
	else if (t->h->norm == BTOK_NORM_PREPEND_METASPACE)
		norm = metaspace(c, s, n, 1, &nl);
	split_added(c, &t->trie->norm, norm ? norm : s, nl, pretok_model);
	if (nfc) {
		batch_flush(c);	/* its pieces point into nfc */
		free(nfc);
	}
}

int
btok_encode(struct btok_enc *e, const char *s, size_t n, int special,
    struct btok_ids *out)
{
	struct pctx c = { e, out, special, { { NULL, 0, 0 } }, 0, 0 };
	char *clean = NULL;
	size_t cl;

	if (!utf8_valid(s, n, NULL)) {
		clean = utf8_sanitize(s, n, &cl);
		s = clean;
		n = cl;
	}
	out->toolong = 0;
	split_added(&c, &e->t->trie->raw, s, n, normalize_segment);
	batch_flush(&c);
	work_trim(&e->w);
	if (e->norm.cap > NORM_KEEP)
		buf_release(&e->norm);
	free(clean);
	return out->toolong ? -1 : 0;
}
