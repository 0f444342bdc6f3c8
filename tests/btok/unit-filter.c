/*
 * unit-filter.c - the pair filter of a compiled image (hash.h): every pair
 * of the merges table passes it; an image whose filter lacks a pair is
 * refused when checked whole, though its checksum is right; and a filter
 * that passes every pair gives the ids of the intact image (the filter only
 * spares lookups, it never decides a merge); a header whose filter is not
 * a power of two words, or lies outside the image, is refused.  A small
 * SentencePiece-style tokenizer.json, compiled here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/btok/btok.h"
#include "../../tools/btok/hash.h"

static const char bpe[] =
    "{\"added_tokens\":[],"
    "\"normalizer\":{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},\"content\":\"\\u2581\"},"
    "\"pre_tokenizer\":null,"
    "\"model\":{\"type\":\"BPE\",\"byte_fallback\":true,\"unk_token\":\"<unk>\","
    "\"vocab\":{\"<unk>\":0,\"a\":1,\"b\":2,\"c\":3,\"\\u2581\":4,\"ab\":5,\"bc\":6,"
    "\"\\u2581a\":7,\"abc\":8,\"\\u2581ab\":9,\"ca\":10,\"<0x21>\":11},"
    "\"merges\":[[\"a\",\"b\"],[\"b\",\"c\"],[\"\\u2581\",\"a\"],[\"ab\",\"c\"],"
    "[\"\\u2581a\",\"b\"],[\"c\",\"a\"]]}}";

static const char text[] = "abc abcab cab bca cc aab! ba abcabc";

/* The image's header, merges table and filter, writable. */
#define HDR(img) ((struct btok_hdr *)(void *)(img))
#define MTAB(img) ((struct btok_merge *)(void *)((img) + HDR(img)->off_mtab))
#define PF(img) ((uint64_t *)(void *)((img) + HDR(img)->off_pf))

static void
reseal(unsigned char *img, size_t size)
{
	HDR(img)->checksum = btok_checksum(img + sizeof(struct btok_hdr),
	    size - sizeof(struct btok_hdr));
}

/* The ids of text under image img (checked whole), or NULL; *n their count,
   *err the refusal. */
static uint32_t *
encode(unsigned char *img, size_t size, size_t *n, char **err)
{
	struct btok t;
	struct btok_enc *e;
	struct btok_ids ids;

	*err = NULL;
	if (btok_attach(&t, "tiny", img, size, 0, err) < 0)
		return NULL;
	memset(&ids, 0, sizeof ids);
	e = btok_enc_new(&t);
	btok_encode(e, text, sizeof text - 1, 1, &ids);
	btok_enc_free(e);
	btok_release(&t);
	*n = ids.n;
	return ids.v;
}

int
main(void)
{
	unsigned char *img, *copy;
	size_t size, n0 = 0, n1 = 0;
	uint32_t *ids0, *ids1, used = 0, first = UINT32_MAX;
	char *err = NULL;
	int all = 1;

	ctx_init("unit-filter");
	img = btok_compile("tiny", bpe, sizeof bpe - 1, NULL, NULL, &size, &err);
	TAP_OK(img != NULL, "the tokenizer compiles");
	if (img == NULL) {
		printf("# %s\n", err ? err : "");
		return tap_done();
	}
	TAP_OK(HDR(img)->npf > 0 && (HDR(img)->npf & (HDR(img)->npf - 1)) == 0,
	    "the filter's words are a power of two");
	for (uint32_t i = 0; i < HDR(img)->mcap; i++) {
		const struct btok_merge *m = &MTAB(img)[i];
		if (m->key == UINT64_MAX)
			continue;
		used++;
		if (first == UINT32_MAX)
			first = i;
		all &= btok_pf_has(PF(img), HDR(img)->npf - 1, btok_key_hash(m->key));
	}
	TAP_IS_INT(used, 6, "the merges table holds the six merges");
	TAP_OK(all, "every pair of the merges table passes the filter");
	ids0 = encode(img, size, &n0, &err);
	TAP_OK(ids0 != NULL && n0 > 0, "the intact image encodes the text");

	/* One pair's bits cleared, the checksum made right again. */
	copy = xmalloc(size);
	memcpy(copy, img, size);
	{
		const struct btok_merge *m = &MTAB(copy)[first];
		uint64_t hv = btok_key_hash(m->key);
		PF(copy)[BTOK_PF_WORD(hv, HDR(copy)->npf - 1)] &= ~BTOK_PF_BITS(hv);
	}
	reseal(copy, size);
	ids1 = encode(copy, size, &n1, &err);
	TAP_OK(ids1 == NULL, "a filter that lacks a pair of the merges is refused");
	TAP_IS_STR(err, "tiny: damaged image tables", "and the refusal says so");
	free(err);
	free(ids1);

	/* Every bit set: every pair passes, and the ids are the same. */
	memcpy(copy, img, size);
	memset(PF(copy), 0xFF, (size_t)HDR(copy)->npf * sizeof(uint64_t));
	reseal(copy, size);
	ids1 = encode(copy, size, &n1, &err);
	TAP_OK(ids1 != NULL, "a filter that passes every pair is accepted");
	TAP_OK(ids0 && ids1 && n1 == n0 && memcmp(ids0, ids1, n0 * sizeof *ids0) == 0,
	    "and gives the ids of the intact image (%zu ids)", n0);
	free(ids1);

	/* The header: the filter's size not a power of two; its offset past
	   the end of the image. */
	memcpy(copy, img, size);
	HDR(copy)->npf = 3;
	ids1 = encode(copy, size, &n1, &err);
	TAP_OK(ids1 == NULL, "a filter of 3 words is refused");
	TAP_IS_STR(err, "tiny: damaged image header", "as a damaged header");
	free(err);
	memcpy(copy, img, size);
	HDR(copy)->off_pf = size - 4;
	ids1 = encode(copy, size, &n1, &err);
	TAP_OK(ids1 == NULL, "a filter past the end of the image is refused");
	TAP_IS_STR(err, "tiny: damaged image header", "as a damaged header");
	free(err);
	free(ids0);
	free(copy);
	free(img);
	return tap_done();
}
