/*
 * btok.h - the tokenizer engine behind btok.
 *
 * A tokenizer is loaded from a Hugging Face tokenizer.json (byte-level BPE as
 * in Llama 3 and Qwen 3, SentencePiece-style BPE with byte fallback as in
 * Gemma 3) or from a Mistral tekken.json (tiktoken ranks), compiled into one
 * flat, position-independent image (struct btok_hdr and the tables after it)
 * that can be written to a cache file and mapped back with mmap(2) in a few
 * milliseconds.
 *
 * Encoding reproduces the Hugging Face `tokenizers` pipeline (tokenizer.rs
 * encode_single_sequence with add_special_tokens=false): added tokens are
 * split off first (AddedVocabulary, leftmost-longest), every other segment is
 * normalised, pre-tokenised and run through the model.
 *
 * The files, each calling only the ones below it:
 *
 *   main.c     options, the tokenizer list (-t, -c, -T), one encoder each;
 *              calls load.c, run.c, encode.c (btok_enc_new)
 *   run.c      the inputs: mode from the first bytes, the record loop,
 *              raw texts, progress (run.h); calls encode.c, load.c
 *   load.c     the manifest, tokenizer files, the compiled cache (load.h);
 *              calls compile.c, image.c
 *   compile.c  tokenizer.json / tekken.json -> image; calls image.c
 *              (btok_checksum, btok_nranks), added.c (the tries)
 *   encode.c   the encoder (struct btok_enc) and the pipeline: added tokens,
 *              normalisers, the model's merges, the word and pair caches;
 *              calls added.c, pretok.c, ucd.c
 *   image.c    an image in memory: checksum, btok_attach with its structure
 *              checks, btok_release, lookups; calls added.c
 *   added.c    the tries of the added tokens, built when compiling, checked
 *              at attach and matched while encoding (added.h)
 *   pretok.c   the split patterns, as hand-written matchers; calls ucd.c
 *   ucd.c      Unicode classes and NFC (utf8proc)
 *   hash.h     the hash functions of the image and the probes of its two
 *              hash tables (inline: encode.c's inner loop uses them)
 *
 * Threads.  A tokenizer (struct btok) is read-only once btok_attach has
 * returned: any number of threads may encode with it at once.  What an
 * encoding writes (symbol arrays, merge queues, the word and pair caches)
 * lives in an encoder, struct btok_enc, which belongs to one caller: make one
 * per thread and tokenizer with btok_enc_new, release it with btok_enc_free
 * before the tokenizer.  The output (struct btok_ids) is the caller's too.
 * No function of this engine keeps state of its own between calls, so
 * compiling and attaching other tokenizers may go on in other threads.
 */
#ifndef BTOK_H
#define BTOK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Models. */
enum { BTOK_MODEL_BPE = 1, BTOK_MODEL_TIKTOKEN = 2 };
/* Normalisers. */
enum {
	BTOK_NORM_NONE = 0,
	BTOK_NORM_NFC = 1,
	BTOK_NORM_METASPACE = 2,	/* Replace(" ", "\u2581") */
	BTOK_NORM_PREPEND_METASPACE = 3	/* Prepend("\u2581"), then the Replace */
};
/* Pre-tokenisers (the split patterns, matched by hand-written code). */
enum {
	BTOK_PRE_NONE = 0,
	BTOK_PRE_LLAMA3 = 1,	/* \p{N}{1,3} */
	BTOK_PRE_QWEN2 = 2,	/* \p{N} */
	BTOK_PRE_TEKKEN = 3,	/* the o200k-style pattern of tekken.json */
	BTOK_PRE_GPT2 = 4,	/* ByteLevel use_regex=true (the GPT-2 pattern) */
	BTOK_PRE_SPACE_MERGED_PREV = 5	/* Split " " MergedWithPrevious */
};

/* Added-token flags. */
#define BTOK_ADDED_SPECIAL 1u
#define BTOK_ADDED_NORMALIZED 2u

#define BTOK_NONE UINT32_MAX

/*
 * The compiled image.  All tables are offsets into one contiguous block, so
 * the block can be saved and mapped as is.  Layout (little-endian host order,
 * checked by the cache header):
 *   struct btok_hdr, then at the offsets it gives:
 *   pool        token bytes
 *   tok[ntok]   {off, len} of token id i in pool (len = UINT32_MAX: no token)
 *   vtab[vcap]  vocabulary hash: token ids of the model vocabulary (not
 *               the added tokens) in the low 24 bits, the top 8 bits of
 *               their ctx_hash above (BTOK_VSLOT), so that a probe reads a
 *               token's span and bytes only when those agree; BTOK_NONE =
 *               empty slot (ids are below 2^24 - 1)
 *   mtab[mcap]  merges hash: {key = a << 32 | b, rank, new_id}, at an
 *               offset of a multiple of 64 bytes: a probe starts at the
 *               first slot of a group of four (BTOK_MSLOT), one cache line;
 *               tiktoken: every pair of tokens whose joined bytes are a
 *               token, ranked by that token's id
 *   pf[npf]     pair filter (hash.h BTOK_PF_WORD): the merges table's pairs
 *               set two bits each, in one 64-bit word, at an offset of a
 *               multiple of 64 bytes
 *   added[nadded] {id, flags}
 *   bad[nbad]   ids of the tokens that stop a metaspace cut (see encode.c)
 *   tedge[i][tcap[i]], tterm[i][tnodes[i]]  the tries of the added tokens
 *               (added.h), i = 0 raw, 1 normalised: built when compiling,
 *               so attaching reads none of them
 *   cut         struct btok_cut: where a long piece may be cut (encode.c
 *               model_cut), derived from pool, tok and byte_id
 */
struct btok_hdr {
	char magic[8];		/* "BTOKIMG\0" */
	uint32_t format;	/* BTOK_FORMAT */
	uint32_t endian;	/* 0x01020304 */
	uint8_t source_sha256[32];
	uint64_t size;		/* bytes of the whole image */
	uint64_t checksum;	/* btok_checksum of the bytes after the header */
	uint32_t model, norm, pre;
	uint32_t ignore_merges, byte_fallback, fuse_unk, bytelevel;
	uint32_t unk_id;
	uint32_t id_offset;	/* tiktoken: id = rank + id_offset */
	uint32_t ntok, vcap, nvocab, mcap, nmerges, nadded;
	uint32_t msplit;	/* metaspace text may be cut before "\u2581" runs */
	uint32_t nbad;		/* tokens with a "\u2581" after another character */
	uint32_t byte_id[256];	/* byte-level / tiktoken: id of each single byte;
				   BPE with byte fallback: id of <0xNN> */
	uint32_t nranks;	/* pair ranks are below this */
	uint32_t tcap[2], tnodes[2];	/* the tries: edge slots, nodes */
	uint8_t tfirst[2][256];	/* the tries: bytes some token starts with */
	uint64_t off_pool, len_pool, off_tok, off_vtab, off_mtab, off_added, off_bad;
	uint64_t off_tedge[2], off_tterm[2];
	uint64_t off_cut, off_pf;
	uint32_t maxtok;	/* bytes of the longest token */
	uint32_t npf;		/* words of pf, a power of two */
};

#define BTOK_FORMAT 13u

/*
 * Where no merge can join the two sides of a place in a piece (encode.c
 * model_cut): bit y of joined[x] is set when some token's bytes hold byte x
 * followed by byte y; first[b], last[b]: the first and last byte of the
 * token of the single byte b in a byte-level or tiktoken model (that byte
 * itself otherwise, or when it has none).
 */
struct btok_cut {
	uint64_t joined[256][4];
	unsigned char first[256], last[256];
};

struct btok_span { uint32_t off, len; };
/* A vtab slot: the id of bytes whose ctx_hash is hv. */
#define BTOK_VSLOT(id, hv) ((uint32_t)(id) | (uint32_t)((hv) >> 56) << 24)
#define BTOK_VID(v) ((v) & 0xFFFFFFu)
struct btok_merge { uint64_t key; uint32_t rank, id; };
struct btok_added { uint32_t id, flags; };

struct btok_trie;

/*
 * A tokenizer: an image attached by btok_attach (or btok_load in load.h).
 * Every field is set there and only read afterwards.
 */
struct btok {
	char *name;			/* family or file name, for messages */
	const unsigned char *base;	/* the image */
	size_t size;
	int mapped;			/* base is an mmap(2) of a cache file */
	const struct btok_hdr *h;
	const char *pool;
	const struct btok_span *tok;
	const uint32_t *vtab;
	const struct btok_merge *mtab;
	const uint64_t *pf;		/* h->npf words */
	const struct btok_added *added;
	const uint32_t *bad;		/* h->nbad token ids */
	const struct btok_cut *cut;
	uint32_t nranks;		/* pair ranks are below this */
	struct btok_trie *trie;		/* added tokens, built at attach */
};

/* An encoder: the state of encodings with one tokenizer (encode.c). */
struct btok_enc;

/*
 * Output of one encoding: ids (grown as needed) and their count.  The caller
 * owns it (zero it before the first use, btok_ids_free at the end) and may
 * use it for any number of encodings, with any encoder.
 */
struct btok_ids {
	uint32_t *v;
	size_t n, cap;
	int count_only;		/* when set, only n is kept */
	size_t toolong;		/* set by btok_encode: a piece over the limit */
};

/*
 * The longest piece (text the pre-tokeniser does not split: a run without
 * spaces) encoded: memory is about 45 bytes a byte of such a piece, or of
 * its longest part where it can be cut (encode.c model_cut).
 */
#define BTOK_MAX_PIECE ((size_t)32 << 20)

/*
 * Compile a tokenizer file (tokenizer.json or tekken.json, detected from its
 * keys) held in text[0..len) into a new image.  name is used in messages.
 * control_tokens: for tekken files without "special_tokens", the names of
 * the control tokens (id order, NULL terminated), may be NULL.
 * Returns a malloc'd image and sets *size; on a malformed file returns NULL
 * and *err receives a malloc'd message ("FILE: what").
 */
unsigned char *btok_compile(const char *name, const char *text, size_t len,
    const unsigned char sha[32], char *const *control_tokens, size_t *size,
    char **err);

/* Flags of btok_attach. */
#define BTOK_ATTACH_MAPPED 1	/* img is an mmap(2) of a cache file */
#define BTOK_ATTACH_CHECKED 2	/* img was checked whole before and has not
				   changed since: check only its header */

/*
 * Attach an image (malloc'd, or mapped) to t, after checking it whole: the
 * header, the checksum over every byte, and its structure (every offset,
 * id and table in bounds, a free slot in each hash table).  With
 * BTOK_ATTACH_CHECKED only the header is checked (its magic, format, size,
 * and every table inside the image) and no table is read, so attaching
 * touches a few pages: the caller vouches that these very bytes passed the
 * whole check (load.c keeps that record).  Returns 0, or -1 with *err set
 * (malloc'd); the image is not freed on error.  The image stays the
 * caller's: it must outlive t, and is freed (or unmapped) by the caller
 * after btok_release (btok_unload in load.h does both).
 */
int btok_attach(struct btok *t, const char *name, unsigned char *img,
    size_t size, int flags, char **err);
/* Free what btok_attach built (name, tries); t is zeroed. */
void btok_release(struct btok *t);

/* 64-bit checksum of a block (fast; used by the cache to detect damage). */
uint64_t btok_checksum(const void *p, size_t n);

/* The cut table of an image with header h (byte_id, bytelevel, ntok
   set), pool and tok into c; returns the bytes of the longest token. */
uint32_t btok_cut_build(const struct btok_hdr *h, const char *pool,
    const struct btok_span *tok, struct btok_cut *c);

/* The bound of the pair ranks of an image with header h and merges table
   mtab[h->mcap] (tiktoken: the number of ids; compile.c stores it in h). */
uint32_t btok_nranks(const struct btok_hdr *h, const struct btok_merge *mtab);

/*
 * A new encoder for t, which must stay attached until btok_enc_free.  It
 * holds caches of at most 14 MB (their pages taken as they are first used:
 * a few for a short text) and scratch that grows with the longest piece
 * encoded (scratch above 64 Ki symbols is given back after each call).  One
 * encoder serves one caller at a time; threads each make their own, for the
 * same tokenizer or different ones.  Allocation failure dies (xmalloc).
 */
struct btok_enc *btok_enc_new(const struct btok *t);
/* Free e and all it holds; NULL is allowed. */
void btok_enc_free(struct btok_enc *e);

/*
 * Encode s[0..n) with e's tokenizer (any bytes: invalid UTF-8 is replaced by
 * U+FFFD first, as a JavaScript or Python string would hold it).  When
 * special is 0, special added tokens are not matched (HF
 * encode_special_tokens).  Appends to out.  Returns 0, or -1 when a piece
 * was longer than BTOK_MAX_PIECE: it was not encoded, out->toolong holds its
 * length and the ids are incomplete.  The result depends only on the
 * tokenizer, s and special, never on what e encoded before.
 */
int btok_encode(struct btok_enc *e, const char *s, size_t n, int special,
    struct btok_ids *out);
void btok_ids_free(struct btok_ids *ids);

/* Text of token id, or NULL. */
const char *btok_token(const struct btok *t, uint32_t id, size_t *len);

/* Vocabulary lookup in the model vocabulary; BTOK_NONE when absent. */
uint32_t btok_vocab_get(const struct btok *t, const char *s, size_t n);

/*
 * Pre-tokenisation (exported for the unit tests and the fuzz target):
 * split s[0..n) (valid UTF-8) with pattern pre; calls fn for each piece.
 */
typedef void (*btok_piece_fn)(const char *p, size_t n, void *ctx);
void btok_pretokenize(int pre, const char *s, size_t n, btok_piece_fn fn,
    void *ctx);

/* Unicode classes used by the patterns (ucd.c). */
#define BTOK_UC_L 1u	/* \p{L} */
#define BTOK_UC_N 2u	/* \p{N} */
#define BTOK_UC_WS 4u	/* \s: White_Space */
#define BTOK_UC_M 8u	/* \p{M} */
#define BTOK_UC_LU 16u	/* Lu Lt Lm Lo M (tekken's upper set) */
#define BTOK_UC_LL 32u	/* Ll Lm Lo M (tekken's lower set) */
/* Two bits for btok_nfc, of the characters other than ASCII (ucd.c). */
#define BTOK_UC_NFC_CUT 64u	/* NFC may cut the text before it */
#define BTOK_UC_NFC_YES 128u	/* a starter of NFC_Quick_Check Yes */
/* btok_uclass of the ASCII characters. */
extern const unsigned char btok_ascii_class[128];
/* The classes of the other code points by blocks of 256, each filled by
   btok_uc_fill on first use and then marked ready (ucd.c). */
#define BTOK_UC_BLOCKS (0x110000 >> 8)
extern unsigned char btok_uc_block[BTOK_UC_BLOCKS][256];
extern atomic_uchar btok_uc_ready[BTOK_UC_BLOCKS];
void btok_uc_fill(uint32_t b);

/* The BTOK_UC_ bits of cp (inline: the split patterns ask for every
   character). */
static inline unsigned
btok_uclass(uint32_t cp)
{
	uint32_t b = cp >> 8;

	if (cp < 128)
		return btok_ascii_class[cp];
	if (cp > 0x10FFFF)
		return 0;
	if (!atomic_load_explicit(&btok_uc_ready[b], memory_order_acquire))
		btok_uc_fill(b);
	return btok_uc_block[b][cp & 255];
}
const char *btok_unicode_version(void);
/* 1 when cp is assigned in that Unicode version (category not Cn). */
int btok_uc_assigned(uint32_t cp);

/* NFC of s[0..n) (valid UTF-8) into a malloc'd string; *outlen its length. */
char *btok_nfc(const char *s, size_t n, size_t *outlen);

/* Decode one code point of valid UTF-8 at s; returns its length. */
static inline size_t
btok_u8dec(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	if (c < 0x80 || n < 2) { *cp = c; return 1; }
	if (c < 0xE0) { *cp = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu); return 2; }
	if (c < 0xF0 || n < 4) {
		if (n < 3) { *cp = c; return 1; }
		*cp = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
		return 3;
	}
	*cp = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) |
	    ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
	return 4;
}

#endif
