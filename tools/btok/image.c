/*
 * image.c - a compiled image in memory: its checksum, btok_attach (which
 * trusts nothing in the image: a cache file may be damaged or hostile, so
 * every offset, id and table is checked before the encoder reads it, unless
 * the caller vouches that these bytes passed that check before), btok_release
 * and the lookups.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "btok.h"
#include "added.h"
#include "hash.h"

/*
 * Four independent lanes of 8 bytes, so that the multiplies of one step
 * overlap: the checksum reads the whole image at each start, at close to
 * the speed of memory.
 */
uint64_t
btok_checksum(const void *p, size_t n)
{
	static const uint64_t k[4] = { 0x9fb21c651e98df25ULL, 0xc2b2ae3d27d4eb4fULL,
	    0xff51afd7ed558ccdULL, 0xc4ceb9fe1a85ec53ULL };
	const unsigned char *s = p;
	uint64_t l[4] = { 0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL,
	    0xA4093822299F31D0ULL, 0x082EFA98EC4E6C89ULL };
	uint64_t a;

	for (; n >= 32; s += 32, n -= 32)
		for (int i = 0; i < 4; i++) {
			uint64_t x;
			memcpy(&x, s + 8 * i, 8);
			l[i] = (l[i] ^ x) * k[i];
			l[i] ^= l[i] >> 29;
		}
	a = l[0];
	while (n--)
		a = (a ^ *s++) * 0x100000001b3ULL;
	for (int i = 1; i < 4; i++)
		a = ctx_mix64(a ^ ctx_mix64(l[i]));
	return ctx_mix64(a);
}

static int
span_ok(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off && off % 8 == 0;
}

static int
pow2(uint32_t n)
{
	return n != 0 && !(n & (n - 1));
}

/* The tries' tables inside the image, sized as a trie can be. */
static int
tries_in(const struct btok_hdr *h, size_t size)
{
	for (int i = 0; i < 2; i++)
		if (!span_ok(h->off_tedge[i], (uint64_t)h->tcap[i] *
		    sizeof(struct btok_tedge), size) ||
		    !span_ok(h->off_tterm[i], (uint64_t)h->tnodes[i] * 4, size) ||
		    !pow2(h->tcap[i]) || h->tnodes[i] == 0 || h->tnodes[i] >= h->tcap[i])
			return 0;
	return 1;
}

/* The header's fields: every table inside the image, sizes and kinds valid. */
static int
header_ok(const struct btok_hdr *h, size_t size)
{
	return span_ok(h->off_pool, h->len_pool, size) && h->len_pool <= UINT32_MAX &&
	    span_ok(h->off_tok, (uint64_t)h->ntok * sizeof(struct btok_span), size) &&
	    span_ok(h->off_vtab, (uint64_t)h->vcap * 4, size) && h->ntok < (1u << 24) &&
	    span_ok(h->off_mtab, (uint64_t)h->mcap * sizeof(struct btok_merge), size) &&
	    span_ok(h->off_pf, (uint64_t)h->npf * 8, size) && pow2(h->npf) &&
	    span_ok(h->off_added, (uint64_t)h->nadded * sizeof(struct btok_added), size) &&
	    span_ok(h->off_bad, (uint64_t)h->nbad * 4, size) && h->msplit <= 1 &&
	    span_ok(h->off_cut, sizeof(struct btok_cut), size) &&
	    pow2(h->vcap) && pow2(h->mcap) && h->nvocab < h->vcap &&
	    h->nmerges < h->mcap && tries_in(h, size) &&
	    (h->model == BTOK_MODEL_BPE || h->model == BTOK_MODEL_TIKTOKEN) &&
	    h->norm <= BTOK_NORM_PREPEND_METASPACE && h->pre <= BTOK_PRE_SPACE_MERGED_PREV;
}

/*
 * The image as a whole (the checksum too when whole is set); NULL, or a
 * malloc'd message naming what is wrong.
 */
static char *
image_error(const char *name, const unsigned char *img, size_t size, int whole)
{
	const struct btok_hdr *h = (const struct btok_hdr *)img;

	if (size < sizeof *h || memcmp(h->magic, "BTOKIMG", 8) != 0)
		return xasprintf("%s: not a btok image", name);
	if (h->format != BTOK_FORMAT || h->endian != 0x01020304u)
		return xasprintf("%s: image format %u, this btok reads %u", name,
		    h->format, BTOK_FORMAT);
	if (h->size != size)
		return xasprintf("%s: truncated image (%zu of %llu bytes)", name, size,
		    (unsigned long long)h->size);
	if (whole && btok_checksum(img + sizeof *h, size - sizeof *h) != h->checksum)
		return xasprintf("%s: image checksum mismatch", name);
	if (!header_ok(h, size))
		return xasprintf("%s: damaged image header", name);
	return NULL;
}

uint32_t
btok_cut_build(const struct btok_hdr *h, const char *pool,
    const struct btok_span *tok, struct btok_cut *c)
{
	uint32_t maxtok = 0;

	memset(c, 0, sizeof *c);
	for (uint32_t id = 0; id < h->ntok; id++) {
		const unsigned char *u = (const unsigned char *)pool + tok[id].off;
		uint32_t len = tok[id].len;
		if (len == UINT32_MAX)
			continue;
		maxtok = len > maxtok ? len : maxtok;
		for (uint32_t k = 1; k < len; k++)
			c->joined[u[k - 1]][u[k] >> 6] |= (uint64_t)1 << (u[k] & 63);
	}
	for (unsigned b = 0; b < 256; b++) {
		uint32_t id = h->byte_id[b];
		c->first[b] = c->last[b] = (unsigned char)b;
		if (h->bytelevel && id < h->ntok && tok[id].len != UINT32_MAX &&
		    tok[id].len > 0) {
			c->first[b] = (unsigned char)pool[tok[id].off];
			c->last[b] = (unsigned char)pool[tok[id].off + tok[id].len - 1];
		}
	}
	return maxtok;
}

/* The cut table and the longest token are those of the tokens (model_cut
   relies on them for the ids: they are compared, not only bounded). */
static int
cut_ok(const struct btok *t)
{
	struct btok_cut *c = xmalloc(sizeof *c);
	uint32_t maxtok = btok_cut_build(t->h, t->pool, t->tok, c);
	int ok = maxtok == t->h->maxtok && memcmp(c, t->cut, sizeof *c) == 0;

	free(c);
	return ok;
}

uint32_t
btok_nranks(const struct btok_hdr *h, const struct btok_merge *mtab)
{
	uint32_t maxrank = 0, used = 0;

	/* tiktoken: a pair's rank is its token's id. */
	if (h->model == BTOK_MODEL_TIKTOKEN)
		return h->ntok;
	for (uint64_t i = 0; i < h->mcap; i++) {
		uint32_t u = mtab[i].key != UINT64_MAX, r = u ? mtab[i].rank : 0;

		used |= u;
		maxrank = r > maxrank ? r : maxrank;
	}
	return used ? maxrank + 1 : 0;
}

/* id names a token inside the pool. */
static int
tok_ok(const struct btok *t, uint64_t id)
{
	return id < t->h->ntok && t->tok[id].len != UINT32_MAX;
}

/*
 * The two hash tables: ids in bounds, and a free slot in each, or a probe
 * never ends; every pair of the merges in the pair filter; the bound of
 * the pair ranks the header gives.  The loops have no branch on the
 * entries (they read megabytes): what is wrong is or-ed together and
 * looked at once.
 */
static int
hashes_ok(const struct btok *t)
{
	const struct btok_hdr *h = t->h;
	uint64_t i, vfree = 0, mfree = 0, bad = 0;

	for (i = 0; i < h->vcap; i++) {
		uint32_t v = t->vtab[i];
		vfree += v == BTOK_NONE;
		bad |= v != BTOK_NONE && BTOK_VID(v) >= h->ntok;
	}
	for (i = 0; i < h->mcap; i++) {
		const struct btok_merge *m = &t->mtab[i];
		uint64_t used = m->key != UINT64_MAX, hv = btok_key_hash(m->key);

		mfree += !used;
		bad |= used & (((m->key >> 32) >= h->ntok) | ((uint32_t)m->key >= h->ntok) |
		    (m->id >= h->ntok) | (m->rank >= UINT32_MAX - 1) |
		    !btok_pf_has(t->pf, h->npf - 1, hv));
	}
	if (bad || h->nranks != btok_nranks(h, t->mtab))
		return 0;
	/* The spans of the vocabulary's tokens were checked by ids_ok. */
	for (i = 0; i < h->vcap; i++) {
		uint32_t v = t->vtab[i], id = BTOK_VID(v);
		if (v != BTOK_NONE && (t->tok[id].len == UINT32_MAX ||
		    v != BTOK_VSLOT(id, ctx_hash(t->pool + t->tok[id].off,
		    t->tok[id].len))))
			return 0;
	}
	return vfree && mfree;
}

/* Every other table: each id names a token inside the pool. */
static int
ids_ok(const struct btok *t)
{
	const struct btok_hdr *h = t->h;
	uint64_t i;

	for (i = 0; i < h->ntok; i++)
		if (t->tok[i].len != UINT32_MAX &&
		    ((uint64_t)t->tok[i].off + t->tok[i].len > h->len_pool))
			return 0;
	for (i = 0; i < h->nadded; i++)
		if (!tok_ok(t, t->added[i].id))
			return 0;
	for (i = 0; i < 256; i++)
		if (h->byte_id[i] != BTOK_NONE && h->byte_id[i] >= h->ntok)
			return 0;
	for (i = 0; i < h->nbad; i++)
		if (!tok_ok(t, t->bad[i]))
			return 0;
	return (h->unk_id == BTOK_NONE || h->unk_id < h->ntok) &&
	    (h->model != BTOK_MODEL_TIKTOKEN || h->id_offset <= h->ntok);
}

/* Point t's tables (and the tries') at the image img, whose header is sound. */
static void
set_tables(struct btok *t, const unsigned char *img)
{
	const struct btok_hdr *h = (const struct btok_hdr *)img;
	struct btok_atrie *tr[2] = { &t->trie->raw, &t->trie->norm };

	t->h = h;
	t->pool = (const char *)img + h->off_pool;
	t->tok = (const struct btok_span *)(img + h->off_tok);
	t->vtab = (const uint32_t *)(img + h->off_vtab);
	t->mtab = (const struct btok_merge *)(img + h->off_mtab);
	t->pf = (const uint64_t *)(img + h->off_pf);
	t->added = (const struct btok_added *)(img + h->off_added);
	t->bad = (const uint32_t *)(img + h->off_bad);
	t->cut = (const struct btok_cut *)(img + h->off_cut);
	t->nranks = h->nranks;
	for (int i = 0; i < 2; i++) {
		tr[i]->e = (const struct btok_tedge *)(img + h->off_tedge[i]);
		tr[i]->term = (const uint32_t *)(img + h->off_tterm[i]);
		tr[i]->first = h->tfirst[i];
		tr[i]->ecap = h->tcap[i];
		tr[i]->nnodes = h->tnodes[i];
		tr[i]->nfb = 0;
		for (unsigned c = 0; c < 256; c++)
			if (h->tfirst[i][c] && tr[i]->nfb++ < BTOK_NFIRST)
				tr[i]->fb[tr[i]->nfb - 1] = (unsigned char)c;
		if (tr[i]->nfb > BTOK_NFIRST)
			tr[i]->nfb = BTOK_NFIRST + 1;
	}
}

int
btok_attach(struct btok *t, const char *name, unsigned char *img,
    size_t size, int flags, char **err)
{
	int whole = !(flags & BTOK_ATTACH_CHECKED);

	memset(t, 0, sizeof *t);
	if ((*err = image_error(name, img, size, whole)))
		return -1;
	t->trie = xmalloc(sizeof *t->trie);
	set_tables(t, img);
	/* The token spans first: the other checks read tok[]. */
	if (whole && (!ids_ok(t) || !hashes_ok(t) || !cut_ok(t) ||
	    !btok_trie_ok(&t->trie->raw, t->h->nadded) ||
	    !btok_trie_ok(&t->trie->norm, t->h->nadded))) {
		free(t->trie);
		memset(t, 0, sizeof *t);
		*err = xasprintf("%s: damaged image tables", name);
		return -1;
	}
	t->base = img;
	t->size = size;
	t->name = xstrdup(name);
	t->mapped = !!(flags & BTOK_ATTACH_MAPPED);
	return 0;
}

void
btok_release(struct btok *t)
{
	free(t->trie);
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
	return btok_vtab_find(t, s, n);
}
