/*
 * btok_image.c - libFuzzer target for btok's compiled images and encoder.
 *
 * A small SentencePiece-style tokenizer.json (byte fallback, added tokens,
 * merges) is compiled once.  Each input is split: its first half is XORed into
 * a copy of the image (header and tables: a tampered cache file), whose
 * checksum is then recomputed so the structural checks of btok_attach are
 * what stands between the damage and the encoder; the second half is text.
 * Whatever the image, attach must refuse it or encode the text safely; the
 * intact image must encode the text with counts equal in both output modes,
 * and with the same ids when attached by its header alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/btok/btok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char tiny[] =
    "{\"added_tokens\":[{\"id\":9,\"content\":\"<x>\",\"special\":true},"
    "{\"id\":10,\"content\":\"\\n\\n\",\"special\":false}],"
    "\"normalizer\":{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},\"content\":\"\\u2581\"},"
    "\"pre_tokenizer\":null,"
    "\"model\":{\"type\":\"BPE\",\"byte_fallback\":true,\"fuse_unk\":true,\"unk_token\":\"<unk>\","
    "\"vocab\":{\"<unk>\":0,\"a\":1,\"b\":2,\"ab\":3,\"\\u2581\":4,\"<0x21>\":5,\"\\u2581ab\":6,"
    "\"aba\":7,\"<0xC3>\":8},"
    "\"merges\":[[\"a\",\"b\"],[\"\\u2581\",\"ab\"],[\"ab\",\"a\"]]}}";

static unsigned char *img;
static size_t imgsize;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btok t;
	struct btok_enc *e;
	struct btok_ids a, b;
	unsigned char *copy;
	char *err = NULL;
	size_t half = size / 2;

	if (!img) {
		img = btok_compile("tiny", tiny, sizeof tiny - 1, NULL, NULL, &imgsize, &err);
		if (!img)
			abort();
	}
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	/* The intact image: ids mode and count mode agree. */
	if (btok_attach(&t, "tiny", img, imgsize, 0, &err) < 0)
		abort();
	e = btok_enc_new(&t);
	btok_encode(e, (const char *)data + half, size - half, data[0] & 1, &a);
	b.count_only = 1;
	btok_encode(e, (const char *)data + half, size - half, data[0] & 1, &b);
	if (a.n != b.n)
		abort();
	btok_enc_free(e);
	btok_release(&t);
	/* Attached by its header alone (a cache file recorded as checked):
	   the same ids. */
	if (btok_attach(&t, "tiny", img, imgsize, BTOK_ATTACH_CHECKED, &err) < 0)
		abort();
	e = btok_enc_new(&t);
	memset(&b, 0, sizeof b);
	btok_encode(e, (const char *)data + half, size - half, data[0] & 1, &b);
	if (a.n != b.n || (a.n && memcmp(a.v, b.v, a.n * sizeof *a.v) != 0))
		abort();
	btok_enc_free(e);
	btok_release(&t);
	btok_ids_free(&a);
	btok_ids_free(&b);
	/* A damaged copy. */
	copy = malloc(imgsize);
	if (!copy)
		abort();
	memcpy(copy, img, imgsize);
	for (size_t i = 0; i < half; i++)
		copy[(i * 7919u) % imgsize] ^= data[i];
	{
		struct btok_hdr h;
		memcpy(&h, copy, sizeof h);
		if (h.size == imgsize) {
			h.checksum = btok_checksum(copy + sizeof h, imgsize - sizeof h);
			memcpy(copy, &h, sizeof h);
		}
	}
	if (btok_attach(&t, "damaged", copy, imgsize, 0, &err) == 0) {
		memset(&a, 0, sizeof a);
		e = btok_enc_new(&t);
		btok_encode(e, (const char *)data + half, size - half, 1, &a);
		btok_enc_free(e);
		btok_ids_free(&a);
		btok_release(&t);
	} else
		free(err);
	free(copy);
	return 0;
}
