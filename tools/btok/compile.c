/*
 * compile.c - turn a tokenizer file into the flat image btok encodes with.
 *
 * Two inputs are understood:
 *  - Hugging Face tokenizer.json with a BPE model (tokenizers/src/models/bpe):
 *    vocab, merges (as "a b" strings or [a, b] pairs), ignore_merges,
 *    byte_fallback, fuse_unk, unk_token; the added_tokens list; the normaliser
 *    (none, NFC, or Replace " " -> "\u2581"); the pre-tokeniser (none, the
 *    Llama 3 or Qwen 2 Split regex followed by ByteLevel, ByteLevel with the
 *    GPT-2 regex, or Split " " MergedWithPrevious).
 *  - Mistral tekken.json (mistral_common/tokens/tokenizers/tekken.py): the
 *    "vocab" list of {rank, token_bytes}, or the compressed "bpe_ranks" text
 *    of js-tiktoken ("! OFFSET b64 b64 ..." lines), with "config"
 *    default_vocab_size and default_num_special_tokens.  As mistral-common
 *    does, only the first default_vocab_size - num_special ranks are used, and
 *    token ids are rank + num_special.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "btok.h"
#include "added.h"
#include "hash.h"

struct cbuild {
	const char *name;
	char *err;
	struct buf pool;
	struct btok_span *tok;
	uint32_t ntok, captok;
	uint32_t *vtab, vcap, nvocab;
	struct btok_merge *mtab;
	uint32_t mcap, nmerges;
	struct btok_added *added;
	uint32_t nadded;
	uint32_t *bad;
	struct btok_hdr h;
	int bytelevel;
};

static void cerr(struct cbuild *b, const char *fmt, ...) CTX_PRINTF(2, 3);
static void
cerr(struct cbuild *b, const char *fmt, ...)
{
	va_list ap;
	struct buf m;
	char tmp[512];
	if (b->err)
		return;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_init(&m);
	buf_addf(&m, "%s: %s", b->name, tmp);
	b->err = buf_detach(&m, NULL);
}

static uint32_t
pow2cap(uint32_t n)
{
	uint32_t c = 16;
	while (c < n * 2u)
		c <<= 1;
	return c;
}

/* Record token id with bytes p[0..n). */
static int
set_tok(struct cbuild *b, uint32_t id, const char *p, size_t n)
{
	if (id >= (1u << 24) - 1) {
		cerr(b, "token id %u out of range", id);
		return -1;
	}
	if (id >= b->captok) {
		uint32_t nc = b->captok ? b->captok : 1024;
		while (nc <= id)
			nc *= 2;
		b->tok = xreallocarray(b->tok, nc, sizeof *b->tok);
		for (uint32_t i = b->captok; i < nc; i++)
			b->tok[i].off = 0, b->tok[i].len = UINT32_MAX;
		b->captok = nc;
	}
	if (id >= b->ntok)
		b->ntok = id + 1;
	if (b->tok[id].len != UINT32_MAX) {
		const char *q = b->pool.s + b->tok[id].off;
		if (b->tok[id].len == n && memcmp(q, p, n) == 0)
			return 0;
		cerr(b, "token id %u given twice with different text", id);
		return -1;
	}
	b->tok[id].off = (uint32_t)b->pool.len;
	b->tok[id].len = (uint32_t)n;
	buf_add(&b->pool, p, n);
	return 0;
}

static uint32_t
vget(const struct cbuild *b, const char *p, size_t n)
{
	uint32_t m = b->vcap - 1, i = (uint32_t)ctx_hash(p, n) & m;
	for (;; i = (i + 1) & m) {
		uint32_t id = b->vtab[i];
		if (id == BTOK_NONE)
			return BTOK_NONE;
		if (b->tok[id].len == n && memcmp(b->pool.s + b->tok[id].off, p, n) == 0)
			return id;
	}
}

/* Insert id (already in tok) into the vocabulary hash. */
static int
vput(struct cbuild *b, uint32_t id)
{
	const char *p = b->pool.s + b->tok[id].off;
	size_t n = b->tok[id].len;
	uint32_t m = b->vcap - 1, i = (uint32_t)ctx_hash(p, n) & m;
	for (;; i = (i + 1) & m) {
		uint32_t o = b->vtab[i];
		if (o == BTOK_NONE) {
			b->vtab[i] = id;
			b->nvocab++;
			return 0;
		}
		if (b->tok[o].len == n && memcmp(b->pool.s + b->tok[o].off, p, n) == 0) {
			cerr(b, "token %u repeats the text of token %u", id, o);
			return -1;
		}
	}
}

/* An empty merges table for n merges: at most two thirds full, so that a
   probe stays within its cache line (a slot group of four) almost always,
   and the table is half the size of one at most half full, fewer of its
   lines to fetch. */
static void
mtab_new(struct cbuild *b, size_t n)
{
	for (b->mcap = 16; b->mcap < (uint64_t)n * 3 / 2 + 1; b->mcap <<= 1)
		;
	free(b->mtab);
	b->mtab = xmalloc((size_t)b->mcap * sizeof *b->mtab);
	memset(b->mtab, 0xFF, (size_t)b->mcap * sizeof *b->mtab);
}

static void
mput(struct cbuild *b, uint32_t a, uint32_t c, uint32_t rank, uint32_t id)
{
	uint64_t key = (uint64_t)a << 32 | c;
	uint32_t m = b->mcap - 1, i = BTOK_MSLOT(btok_pair_hash(a, c), m);
	for (;; i = (i + 1) & m) {
		if (b->mtab[i].key == UINT64_MAX) {
			b->mtab[i].key = key;
			b->mtab[i].rank = rank;
			b->mtab[i].id = id;
			b->nmerges++;
			return;
		}
		if (b->mtab[i].key == key) {
			/* A repeated pair: the later line wins, as in the
			   HashMap tokenizers builds from the merges list. */
			b->mtab[i].rank = rank;
			b->mtab[i].id = id;
			return;
		}
	}
}

/*
 * GPT-2 bytes_to_unicode: the printable bytes (33..126, 161..172, 174..255)
 * stand for themselves, the other 68 (0..32, 127..160, 173) in byte order
 * for U+0100..U+0143.  The byte code point cp stands for, or -1.
 */
static int
cp_byte(uint32_t cp)
{
	if (cp < 256)
		return (cp >= 33 && cp <= 126) || (cp >= 161 && cp <= 172) || cp >= 174 ?
		    (int)cp : -1;
	cp -= 256;
	if (cp < 33)
		return (int)cp;
	if (cp < 33 + 34)
		return (int)(127 + cp - 33);
	return cp == 67 ? 173 : -1;
}

/* Byte-level text -> raw bytes; returns the length or -1. */
static long
unbytelevel(const char *s, size_t n, char *out)
{
	size_t i = 0, o = 0;
	while (i < n) {
		uint32_t cp;
		int l = utf8_decode((const unsigned char *)s + i, n - i, &cp), c;
		if (l == 0 || (c = cp_byte(cp)) < 0)
			return -1;
		out[o++] = (char)c;
		i += (size_t)l;
	}
	return (long)o;
}

static const char RE_LLAMA3[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
static const char RE_QWEN2[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
static const char RE_TEKKEN[] =
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

static int
is_type(json_t *o, const char *t)
{
	const char *s = json_get_str(o, "type");
	return s && strcmp(s, t) == 0;
}

/* The string of o's "pattern": {"String": ...} or {"Regex": ...}, or NULL. */
static const char *
pattern(json_t *o, const char *kind)
{
	return json_get_str(json_object_get(o, "pattern"), kind);
}

/* A normaliser or pre-tokeniser o (what: which) that btok cannot reproduce. */
static int
unsupported(struct cbuild *b, const char *what, json_t *o)
{
	const char *type = json_get_str(o, "type");

	cerr(b, "%s: type %s is not one btok reproduces", what, type ? type : "(none)");
	return -1;
}

static int
bytelevel_ok(struct cbuild *b, json_t *o, int want_regex)
{
	json_t *aps = json_object_get(o, "add_prefix_space");
	json_t *ur = json_object_get(o, "use_regex");
	if (json_is_true(aps)) {
		cerr(b, "pre_tokenizer: ByteLevel add_prefix_space=true is not supported by btok");
		return -1;
	}
	if ((ur ? json_is_true(ur) : 1) != want_regex) {
		cerr(b, "pre_tokenizer: ByteLevel use_regex=%s is not supported here",
		    want_regex ? "false" : "true");
		return -1;
	}
	return 0;
}

static int
split_regex(struct cbuild *b, json_t *sp)
{
	const char *re = pattern(sp, "Regex");
	const char *beh = json_get_str(sp, "behavior");
	if (!re || !beh || strcmp(beh, "Isolated") != 0 ||
	    json_is_true(json_object_get(sp, "invert"))) {
		cerr(b, "pre_tokenizer: only Split with an Isolated regex is supported");
		return -1;
	}
	if (strcmp(re, RE_LLAMA3) == 0)
		return BTOK_PRE_LLAMA3;
	if (strcmp(re, RE_QWEN2) == 0)
		return BTOK_PRE_QWEN2;
	if (strcmp(re, RE_TEKKEN) == 0)
		return BTOK_PRE_TEKKEN;
	cerr(b, "pre_tokenizer: split pattern is none of the Llama 3, Qwen 2 or Tekken patterns btok matches: %.80s", re);
	return -1;
}

/* Sequence [Split (a pattern btok matches), ByteLevel use_regex=false]. */
static int
pre_sequence(struct cbuild *b, json_t *pre)
{
	json_t *a = json_object_get(pre, "pretokenizers");
	int p;

	if (json_array_size(a) != 2 || !is_type(json_array_get(a, 0), "Split") ||
	    !is_type(json_array_get(a, 1), "ByteLevel")) {
		cerr(b, "pre_tokenizer: this Sequence is not one btok reproduces");
		return -1;
	}
	if ((p = split_regex(b, json_array_get(a, 0))) < 0 ||
	    bytelevel_ok(b, json_array_get(a, 1), 0) < 0)
		return -1;
	b->h.pre = (uint32_t)p;
	b->bytelevel = 1;
	return 0;
}

/* Split " " MergedWithPrevious (SentencePiece-style files). */
static int
is_split_space(json_t *pre)
{
	const char *s = pattern(pre, "String");
	const char *beh = json_get_str(pre, "behavior");

	return is_type(pre, "Split") && s && strcmp(s, " ") == 0 && beh &&
	    strcmp(beh, "MergedWithPrevious") == 0 &&
	    !json_is_true(json_object_get(pre, "invert"));
}

static int
parse_pre(struct cbuild *b, json_t *pre)
{
	if (!pre || json_is_null(pre)) {
		b->h.pre = BTOK_PRE_NONE;
		return 0;
	}
	if (is_type(pre, "Sequence"))
		return pre_sequence(b, pre);
	if (is_type(pre, "ByteLevel")) {
		if (bytelevel_ok(b, pre, 1) < 0)
			return -1;
		b->h.pre = BTOK_PRE_GPT2;
		b->bytelevel = 1;
		return 0;
	}
	if (is_split_space(pre)) {
		b->h.pre = BTOK_PRE_SPACE_MERGED_PREV;
		return 0;
	}
	return unsupported(b, "pre_tokenizer", pre);
}

/* Replace(" ", "\u2581"): the metaspace of SentencePiece-style files. */
static int
is_replace_space(json_t *n)
{
	const char *s = pattern(n, "String");
	const char *c = json_get_str(n, "content");

	return is_type(n, "Replace") && s && c && strcmp(s, " ") == 0 &&
	    strcmp(c, "\xE2\x96\x81") == 0;
}

/* Sequence [Prepend("\u2581"), Replace(" ", "\u2581")]: SentencePiece as the
   Llama 2 / Mistral v3 conversions write it. */
static int
is_prepend_replace(json_t *n)
{
	json_t *a = json_object_get(n, "normalizers");
	const char *pre = json_get_str(json_array_get(a, 0), "prepend");

	return is_type(n, "Sequence") && json_array_size(a) == 2 &&
	    is_type(json_array_get(a, 0), "Prepend") && pre &&
	    strcmp(pre, "\xE2\x96\x81") == 0 && is_replace_space(json_array_get(a, 1));
}

static int
parse_norm(struct cbuild *b, json_t *n)
{
	if (!n || json_is_null(n))
		b->h.norm = BTOK_NORM_NONE;
	else if (is_type(n, "NFC"))
		b->h.norm = BTOK_NORM_NFC;
	else if (is_replace_space(n))
		b->h.norm = BTOK_NORM_METASPACE;
	else if (is_prepend_replace(n))
		b->h.norm = BTOK_NORM_PREPEND_METASPACE;
	else
		return unsupported(b, "normalizer", n);
	return 0;
}

/* Store a vocabulary entry; byte-level text is turned back into bytes. */
static int
add_vocab(struct cbuild *b, const char *text, size_t n, uint32_t id,
    char *scratch)
{
	if (b->bytelevel) {
		long r = unbytelevel(text, n, scratch);
		if (r < 0) {
			cerr(b, "model.vocab: token %u is not byte-level text", id);
			return -1;
		}
		text = scratch;
		n = (size_t)r;
	}
	if (set_tok(b, id, text, n) < 0)
		return -1;
	return 0;
}

/* The id of token text p[0..n) as the file writes it (byte-level text
   in a byte-level file), or BTOK_NONE. */
static uint32_t
vget_text(const struct cbuild *b, const char *p, size_t n, char *scratch)
{
	long r;

	if (!b->bytelevel)
		return vget(b, p, n);
	r = unbytelevel(p, n, scratch);
	return r < 0 ? BTOK_NONE : vget(b, scratch, (size_t)r);
}

/* Merge i: its two sides as "a b" or [a, b], into *l, *ll, *r, *rl. */
static int
merge_sides(struct cbuild *b, json_t *v, size_t i, const char **l, size_t *ll,
    const char **r, size_t *rl)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v), *sp = strchr(s, ' ');
		if (!sp || strchr(sp + 1, ' ')) {
			cerr(b, "model.merges[%zu]: expected two tokens", i);
			return -1;
		}
		*l = s, *ll = (size_t)(sp - s), *r = sp + 1, *rl = strlen(*r);
		return 0;
	}
	if (json_is_array(v) && json_array_size(v) == 2 &&
	    json_is_string(json_array_get(v, 0)) && json_is_string(json_array_get(v, 1))) {
		*l = json_string_value(json_array_get(v, 0));
		*r = json_string_value(json_array_get(v, 1));
		*ll = json_string_length(json_array_get(v, 0));
		*rl = json_string_length(json_array_get(v, 1));
		return 0;
	}
	cerr(b, "model.merges[%zu]: expected \"a b\" or [a, b]", i);
	return -1;
}

/* model.merges: "a b" strings or [a, b] pairs, rank = index. */
static int
hf_merges(struct cbuild *b, json_t *merges)
{
	json_t *v;
	size_t i;

	mtab_new(b, json_array_size(merges));
	json_array_foreach(merges, i, v) {
		const char *l, *r;
		size_t ll, rl;
		char *m, *scratch;
		uint32_t a, c, nid;

		if (merge_sides(b, v, i, &l, &ll, &r, &rl) < 0)
			return -1;
		m = xmalloc(2 * (ll + rl + 1));	/* the joined text, then scratch */
		scratch = m + ll + rl + 1;
		memcpy(m, l, ll);
		memcpy(m + ll, r, rl);
		a = vget_text(b, l, ll, scratch);
		c = vget_text(b, r, rl, scratch);
		nid = vget_text(b, m, ll + rl, scratch);
		free(m);
		if (a == BTOK_NONE || c == BTOK_NONE || nid == BTOK_NONE) {
			cerr(b, "model.merges[%zu]: token not in the vocabulary", i);
			return -1;
		}
		mput(b, a, c, (uint32_t)i, nid);
	}
	return 0;
}

/* Byte-level added token c with the id of model token id: the same text? */
static int
same_bytelevel(const struct cbuild *b, uint32_t id, const char *c)
{
	char *raw = xmalloc(strlen(c) + 1);
	long r = unbytelevel(c, strlen(c), raw);
	int same = r >= 0 && (size_t)r == b->tok[id].len &&
	    memcmp(raw, b->pool.s + b->tok[id].off, (size_t)r) == 0;

	free(raw);
	return same;
}

/* added_tokens[i] = v. */
static int
hf_added1(struct cbuild *b, json_t *v, size_t i)
{
	json_t *idv = json_object_get(v, "id");
	const char *c = json_get_str(v, "content");
	json_int_t id;

	if (!json_is_integer(idv) || !c || (id = json_integer_value(idv)) < 0 ||
	    id >= (1 << 24) - 1 || !*c) {
		cerr(b, "added_tokens[%zu]: expected id and content", i);
		return -1;
	}
	if (json_is_true(json_object_get(v, "lstrip")) ||
	    json_is_true(json_object_get(v, "rstrip")) ||
	    json_is_true(json_object_get(v, "single_word"))) {
		cerr(b, "added_tokens[%zu]: lstrip, rstrip and single_word are not supported by btok", i);
		return -1;
	}
	if ((uint32_t)id < b->captok && b->tok[id].len != UINT32_MAX && b->bytelevel) {
		/* Already a model token (stored as raw bytes): the added
		   content must be the same text, and the added token is
		   matched by its surface text, the raw bytes. */
		if (!same_bytelevel(b, (uint32_t)id, c)) {
			cerr(b, "added_tokens[%zu]: id %lld is a different model token", i, (long long)id);
			return -1;
		}
	} else if (set_tok(b, (uint32_t)id, c, strlen(c)) < 0)
		return -1;
	b->added[b->nadded].id = (uint32_t)id;
	b->added[b->nadded].flags =
	    (json_is_true(json_object_get(v, "special")) ? BTOK_ADDED_SPECIAL : 0) |
	    (json_is_true(json_object_get(v, "normalized")) ? BTOK_ADDED_NORMALIZED : 0);
	b->nadded++;
	return 0;
}

/* added_tokens: the tokens split off before the model. */
static int
hf_added(struct cbuild *b, json_t *root)
{
	json_t *added, *v;
	size_t i;

	added = json_object_get(root, "added_tokens");
	if (added && !json_is_array(added)) {
		cerr(b, "added_tokens: expected an array");
		return -1;
	}
	b->added = xcalloc(json_array_size(added) + 1, sizeof *b->added);
	json_array_foreach(added, i, v)
		if (hf_added1(b, v, i) < 0)
			return -1;
	return 0;
}

/* model: a BPE model without the options btok does not reproduce; its flags. */
static int
hf_model(struct cbuild *b, json_t *model)
{
	const char *prefix = json_get_str(model, "continuing_subword_prefix");
	const char *suffix = json_get_str(model, "end_of_word_suffix");

	if (prefix && *prefix) {
		cerr(b, "model: continuing_subword_prefix is not supported by btok");
		return -1;
	}
	if (suffix && *suffix) {
		cerr(b, "model: end_of_word_suffix is not supported by btok");
		return -1;
	}
	b->h.model = BTOK_MODEL_BPE;
	b->h.ignore_merges = json_is_true(json_object_get(model, "ignore_merges"));
	b->h.byte_fallback = json_is_true(json_object_get(model, "byte_fallback"));
	b->h.fuse_unk = json_is_true(json_object_get(model, "fuse_unk"));
	return 0;
}

/* model.vocab: {token text: id}, into the token table and its hash. */
static int
hf_vocab(struct cbuild *b, json_t *vocab)
{
	json_t *v;
	const char *key;
	char *scratch;
	size_t maxlen = 0;

	json_object_foreach(vocab, key, v) {
		size_t l = strlen(key);
		if (l > maxlen)
			maxlen = l;
	}
	scratch = xmalloc(maxlen + 1);
	b->vcap = pow2cap((uint32_t)json_object_size(vocab));
	b->vtab = xmalloc((size_t)b->vcap * sizeof *b->vtab);
	memset(b->vtab, 0xFF, (size_t)b->vcap * sizeof *b->vtab);
	json_object_foreach(vocab, key, v) {
		json_int_t id;
		if (!json_is_integer(v) || (id = json_integer_value(v)) < 0 || id >= (1 << 24) - 1) {
			cerr(b, "model.vocab: %.60s: expected a token id", key);
			break;
		}
		if (add_vocab(b, key, strlen(key), (uint32_t)id, scratch) < 0 ||
		    vput(b, (uint32_t)id) < 0)
			break;
	}
	free(scratch);
	return b->err ? -1 : 0;
}

/* Single bytes: byte-level symbols, or <0xNN> for byte fallback. */
static int
hf_bytes(struct cbuild *b)
{
	for (unsigned x = 0; x < 256; x++) {
		char t[8];
		if (b->bytelevel) {
			t[0] = (char)x;
			b->h.byte_id[x] = vget(b, t, 1);
		} else {
			snprintf(t, sizeof t, "<0x%02X>", x);
			b->h.byte_id[x] = vget(b, t, 6);
		}
	}
	if (b->bytelevel)
		for (unsigned x = 0; x < 256; x++)
			if (b->h.byte_id[x] == BTOK_NONE) {
				cerr(b, "model.vocab: byte-level vocabulary lacks byte 0x%02X", x);
				return -1;
			}
	return 0;
}

static int
load_hf(struct cbuild *b, json_t *root)
{
	json_t *model = json_object_get(root, "model");
	json_t *vocab = json_object_get(model, "vocab");
	json_t *merges = json_object_get(model, "merges");
	const char *unk = json_get_str(model, "unk_token");

	if (!json_is_object(model) || !is_type(model, "BPE")) {
		cerr(b, "model: expected a BPE model");
		return -1;
	}
	if (parse_norm(b, json_object_get(root, "normalizer")) < 0 ||
	    parse_pre(b, json_object_get(root, "pre_tokenizer")) < 0 ||
	    hf_model(b, model) < 0)
		return -1;
	if (!json_is_object(vocab) || json_object_size(vocab) == 0) {
		cerr(b, "model.vocab: expected a non-empty object");
		return -1;
	}
	if (!json_is_array(merges)) {
		cerr(b, "model.merges: expected an array");
		return -1;
	}
	if (hf_vocab(b, vocab) < 0 || hf_merges(b, merges) < 0 || hf_bytes(b) < 0)
		return -1;
	b->h.unk_id = BTOK_NONE;
	if (unk && (b->h.unk_id = vget(b, unk, strlen(unk))) == BTOK_NONE && !b->bytelevel) {
		cerr(b, "model.unk_token: not in the vocabulary");
		return -1;
	}
	return hf_added(b, root);
}

/* Base64 (RFC 4648) decode; returns the length or -1. */
static long
b64dec(const char *s, size_t n, unsigned char *out)
{
	static const char al[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned acc = 0;
	int bits = 0;
	long o = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p;
		if (s[i] == '=')
			break;
		if (!s[i] || !(p = strchr(al, s[i])))
			return -1;
		acc = (acc << 6) | (unsigned)(p - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	return o;
}

/* The token of rank: base64 s[0..n), id rank + id_offset; ranks from
   maxrank on are left out (as mistral-common does). */
static int
tk_rank(struct cbuild *b, uint32_t rank, uint32_t maxrank,
    const char *s, size_t n)
{
	unsigned char tmp[512];
	long l;
	if (rank >= maxrank)
		return 0;
	if (n > 680 || (l = b64dec(s, n, tmp)) <= 0) {
		cerr(b, "rank %u: expected base64 token bytes", rank);
		return -1;
	}
	if (set_tok(b, rank + b->h.id_offset, (const char *)tmp, (size_t)l) < 0 ||
	    vput(b, rank + b->h.id_offset) < 0)
		return -1;
	return 0;
}

/*
 * config: the Tekken pattern, default_vocab_size and
 * default_num_special_tokens; sets the header of a tiktoken model and
 * *nspecial (control tokens: ids 0 .. nspecial-1) and *maxrank (the ranks
 * used: ids nspecial ..).
 */
static int
tk_config(struct cbuild *b, json_t *cfg, uint32_t *nspecial, uint32_t *maxrank)
{
	json_t *jv = json_object_get(cfg, "default_vocab_size");
	json_t *jn = json_object_get(cfg, "default_num_special_tokens");
	const char *pat = json_get_str(cfg, "pattern");

	if (!json_is_integer(jv) || !json_is_integer(jn) || !pat ||
	    json_integer_value(jn) <= 0 || json_integer_value(jn) > 100000 ||
	    json_integer_value(jv) <= json_integer_value(jn) ||
	    json_integer_value(jv) > (1 << 23)) {
		cerr(b, "config: expected pattern, default_vocab_size and default_num_special_tokens");
		return -1;
	}
	if (strcmp(pat, RE_TEKKEN) != 0) {
		cerr(b, "config.pattern: not the Tekken pattern btok matches");
		return -1;
	}
	*nspecial = (uint32_t)json_integer_value(jn);
	*maxrank = (uint32_t)json_integer_value(jv) - *nspecial;
	b->h.model = BTOK_MODEL_TIKTOKEN;
	b->h.pre = BTOK_PRE_TEKKEN;
	b->h.norm = BTOK_NORM_NONE;
	b->h.id_offset = *nspecial;
	b->h.unk_id = BTOK_NONE;
	return 0;
}

/* "vocab": [{rank, token_bytes}, ...], rank i at index i. */
static int
tk_vocab(struct cbuild *b, json_t *vocab, uint32_t maxrank)
{
	json_t *e;
	size_t i;

	json_array_foreach(vocab, i, e) {
		json_t *r = json_object_get(e, "rank");
		json_t *tb = json_object_get(e, "token_bytes");
		if (!json_is_integer(r) || !json_is_string(tb) ||
		    json_integer_value(r) != (json_int_t)i) {
			cerr(b, "vocab[%zu]: expected rank %zu and token_bytes", i, i);
			return -1;
		}
		if (tk_rank(b, (uint32_t)i, maxrank, json_string_value(tb),
		    json_string_length(tb)) < 0)
			return -1;
	}
	return 0;
}

/*
 * One line s[0..le) of "bpe_ranks": "NAME OFFSET tok tok ...", the tokens
 * base64, their ranks OFFSET, OFFSET + 1, ...; an empty line is allowed.
 */
static int
tk_ranks_line(struct cbuild *b, const char *s, const char *le, uint32_t maxrank)
{
	const char *p = memchr(s, ' ', (size_t)(le - s));
	unsigned long long off = 0;
	uint32_t rank;

	p = p ? p + 1 : le;
	if (p >= le || *p < '0' || *p > '9') {
		if (le == s)
			return 0;
		cerr(b, "bpe_ranks: expected \"NAME OFFSET tokens\"");
		return -1;
	}
	while (p < le && *p >= '0' && *p <= '9' && off < (1u << 24))
		off = off * 10 + (unsigned)(*p++ - '0');
	rank = (uint32_t)off;
	while (p < le) {
		const char *q;
		while (p < le && *p == ' ')
			p++;
		for (q = p; q < le && *q != ' '; q++)
			;
		if (q > p && tk_rank(b, rank++, maxrank, p, (size_t)(q - p)) < 0)
			return -1;
		p = q;
	}
	return 0;
}

/* "bpe_ranks": js-tiktoken's compressed text, one line per run of ranks. */
static int
tk_ranks(struct cbuild *b, json_t *ranks, uint32_t maxrank)
{
	const char *s = json_string_value(ranks), *end = s + json_string_length(ranks);

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		if (tk_ranks_line(b, s, nl ? nl : end, maxrank) < 0)
			return -1;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/* "special_tokens": [{rank, token_str}, ...], the control tokens' names. */
static int
tk_specials(struct cbuild *b, json_t *specials, uint32_t nspecial)
{
	json_t *e;
	size_t i;

	json_array_foreach(specials, i, e) {
		json_t *r = json_object_get(e, "rank");
		const char *ts = json_get_str(e, "token_str");
		if (!json_is_integer(r) || !ts || json_integer_value(r) < 0 ||
		    json_integer_value(r) >= nspecial) {
			cerr(b, "special_tokens[%zu]: expected rank and token_str", i);
			return -1;
		}
		if (set_tok(b, (uint32_t)json_integer_value(r), ts, strlen(ts)) < 0)
			return -1;
	}
	return 0;
}

/* Without "special_tokens": control token k is named control[k] (the list
   may be shorter or NULL), else <SPECIAL_k>. */
static int
tk_control_names(struct cbuild *b, char *const *control, uint32_t nspecial)
{
	uint32_t known = 0;

	while (control && control[known])
		known++;
	for (uint32_t k = 0; k < nspecial; k++) {
		char tmp[32];
		const char *nm = k < known ? control[k] : NULL;

		if (!nm) {
			snprintf(tmp, sizeof tmp, "<SPECIAL_%u>", k);
			nm = tmp;
		}
		if (set_tok(b, k, nm, strlen(nm)) < 0)
			return -1;
	}
	return 0;
}

/* Every byte is a token of its own (tiktoken's byte-level ranks). */
static int
tk_bytes(struct cbuild *b)
{
	for (unsigned x = 0; x < 256; x++) {
		char t = (char)x;
		if ((b->h.byte_id[x] = vget(b, &t, 1)) == BTOK_NONE) {
			cerr(b, "vocabulary lacks byte 0x%02X", x);
			return -1;
		}
	}
	return 0;
}

/*
 * The pairs of tiktoken's ranks as a merges table: (a, c) -> the token
 * whose bytes are a's then c's, its rank its id, for every token of the
 * vocabulary hash split in two tokens at every place.  tiktoken ranks a
 * pair by looking up the joined bytes; looked up by the two ids instead,
 * the same pairs have the same ranks (a pair's bytes are its two tokens'),
 * and the encoder reads one slot where the bytes' lookup read three (slot,
 * span, bytes).
 */
static void
tk_pairs(struct cbuild *b)
{
	uint32_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < b->vcap; i++) {
			uint32_t id = b->vtab[i], len, a, c;
			const char *p;
			if (id == BTOK_NONE)
				continue;
			p = b->pool.s + b->tok[id].off;
			len = b->tok[id].len;
			for (uint32_t k = 1; k < len; k++) {
				if ((a = vget(b, p, k)) == BTOK_NONE ||
				    (c = vget(b, p + k, len - k)) == BTOK_NONE)
					continue;
				if (pass)
					mput(b, a, c, id, id);
				else
					n++;
			}
		}
		if (!pass)
			mtab_new(b, n);
	}
}

static int
load_tekken(struct cbuild *b, json_t *root, char *const *control)
{
	json_t *vocab = json_object_get(root, "vocab");
	json_t *ranks = json_object_get(root, "bpe_ranks");
	json_t *specials = json_object_get(root, "special_tokens");
	uint32_t nspecial, maxrank;
	int rc;

	if (tk_config(b, json_object_get(root, "config"), &nspecial, &maxrank) < 0)
		return -1;
	b->vcap = pow2cap(maxrank);
	b->vtab = xmalloc((size_t)b->vcap * sizeof *b->vtab);
	memset(b->vtab, 0xFF, (size_t)b->vcap * sizeof *b->vtab);
	if (json_is_array(vocab))
		rc = tk_vocab(b, vocab, maxrank);
	else if (json_is_string(ranks))
		rc = tk_ranks(b, ranks, maxrank);
	else {
		cerr(b, "expected \"vocab\" or \"bpe_ranks\"");
		rc = -1;
	}
	if (rc < 0 || tk_bytes(b) < 0)
		return -1;
	tk_pairs(b);
	if (json_is_array(specials))
		rc = tk_specials(b, specials, nspecial);
	else
		rc = tk_control_names(b, control, nspecial);
	if (rc < 0)
		return -1;
	/* The control tokens are the added tokens, all special. */
	b->added = xcalloc(nspecial + 1, sizeof *b->added);
	for (uint32_t k = 0; k < nspecial; k++)
		if (k < b->ntok && b->tok[k].len != UINT32_MAX) {
			b->added[b->nadded].id = k;
			b->added[b->nadded].flags = BTOK_ADDED_SPECIAL;
			b->nadded++;
		}
	return 0;
}

/*
 * Metaspace text (spaces turned into U+2581, no pre-tokeniser) is one BPE
 * word per segment.  When no vocabulary token holds U+2581 after another
 * character, no merge can join a character to a following U+2581, and the
 * word may be cut before every U+2581 run: BPE of the parts equals BPE of
 * the whole, and each part is short enough for the word cache.  The tokens
 * that do hold one (Gemma 3 has ">\u2581</") are listed; encode.c does not
 * cut where one of them occurs across the cut.  Cutting is off when such a
 * token also holds byte-fallback or unknown-token text, whose input bytes
 * differ from the token text.
 */
/* Token text p[0..len) holds U+2581 after a character other than U+2581. */
static int
holds_inner_metaspace(const char *p, size_t len)
{
	for (size_t k = 1; k + 3 <= len; k++)
		if (memcmp(p + k, "\xE2\x96\x81", 3) == 0 &&
		    !(k >= 3 && memcmp(p + k - 3, "\xE2\x96\x81", 3) == 0))
			return 1;
	return 0;
}

/* Token text p[0..len) holds the text of a byte-fallback or unknown token. */
static int
holds_byte_or_unk(const char *p, size_t len)
{
	for (size_t k = 0; k + 6 <= len; k++)
		if (p[k] == '<' && p[k + 1] == '0' && p[k + 2] == 'x' && p[k + 5] == '>')
			return 1;
	for (size_t k = 0; k + 5 <= len; k++)
		if (memcmp(p + k, "<unk>", 5) == 0)
			return 1;
	return 0;
}

static void
find_bad(struct cbuild *b)
{
	uint32_t n = 0, cap = 0;
	int ok = 1;
	if (b->h.model != BTOK_MODEL_BPE || b->bytelevel ||
	    (b->h.norm != BTOK_NORM_METASPACE && b->h.norm != BTOK_NORM_PREPEND_METASPACE) ||
	    (b->h.pre != BTOK_PRE_NONE && b->h.pre != BTOK_PRE_SPACE_MERGED_PREV))
		return;
	for (uint32_t i = 0; i < b->vcap && ok; i++) {
		uint32_t id = b->vtab[i];
		const char *p;

		if (id == BTOK_NONE)
			continue;
		p = b->pool.s + b->tok[id].off;
		if (!holds_inner_metaspace(p, b->tok[id].len))
			continue;
		if (holds_byte_or_unk(p, b->tok[id].len))
			ok = 0;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			b->bad = xreallocarray(b->bad, cap, sizeof *b->bad);
		}
		b->bad[n++] = id;
	}
	if (!ok) {
		free(b->bad);
		b->bad = NULL;
		n = 0;
	}
	b->h.msplit = (uint32_t)ok;
	b->h.nbad = n;
}

/* Pad o with zeros to a multiple of n bytes (n at most 64). */
static void
align(struct buf *o, size_t n)
{
	static const char z[64];
	if (o->len % n)
		buf_add(o, z, n - o->len % n);
}

/* Append the table p[0..n) to o, then pad to 8 bytes; returns its offset. */
static uint64_t
put_table(struct buf *o, const void *p, size_t n)
{
	uint64_t off = o->len;

	buf_add(o, p, n);
	align(o, 8);
	return off;
}

/*
 * The tries of b's added tokens (raw, normalised) into tb, their sizes and
 * first bytes into b's header; b->h.nadded is set.
 */
static void
build_tries(struct cbuild *b, struct btok_tbuild tb[2])
{
	struct btok view;

	memset(&view, 0, sizeof view);
	view.h = &b->h;
	view.pool = b->pool.s;
	view.tok = b->tok;
	view.added = b->added;
	for (int i = 0; i < 2; i++) {
		btok_trie_build(&tb[i], &view, i ? BTOK_ADDED_NORMALIZED : 0);
		b->h.tcap[i] = tb[i].ecap;
		b->h.tnodes[i] = tb[i].nnodes;
		memcpy(b->h.tfirst[i], tb[i].first, 256);
	}
}

/* The image of b: the header, then each table at an offset it records. */
static unsigned char *
write_image(struct cbuild *b, const unsigned char sha[32], size_t *size)
{
	struct btok_hdr *h = &b->h;
	struct btok_tbuild tb[2];
	struct btok_cut cut;
	uint32_t *vs;
	uint64_t *pf;
	struct buf o;

	memcpy(h->magic, "BTOKIMG", 8);
	h->format = BTOK_FORMAT;
	h->endian = 0x01020304u;
	if (sha)
		memcpy(h->source_sha256, sha, 32);
	h->bytelevel = b->bytelevel || h->model == BTOK_MODEL_TIKTOKEN;
	h->ntok = b->ntok;
	h->vcap = b->vcap;
	h->nvocab = b->nvocab;
	h->mcap = b->mcap;
	h->nmerges = b->nmerges;
	h->nadded = b->nadded;
	h->nranks = btok_nranks(h, b->mtab);
	h->maxtok = btok_cut_build(h, b->pool.s, b->tok, &cut);
	build_tries(b, tb);
	buf_init(&o);
	put_table(&o, h, sizeof *h);
	h->off_pool = put_table(&o, b->pool.s, b->pool.len);
	h->len_pool = b->pool.len;
	h->off_tok = put_table(&o, b->tok, (size_t)b->ntok * sizeof *b->tok);
	vs = xreallocarray(NULL, b->vcap, sizeof *vs);
	for (uint32_t i = 0; i < b->vcap; i++) {
		uint32_t id = b->vtab[i];
		vs[i] = id == BTOK_NONE ? BTOK_NONE : BTOK_VSLOT(id,
		    ctx_hash(b->pool.s + b->tok[id].off, b->tok[id].len));
	}
	h->off_vtab = put_table(&o, vs, (size_t)b->vcap * sizeof *vs);
	free(vs);
	align(&o, 64);
	h->off_mtab = put_table(&o, b->mtab, (size_t)b->mcap * sizeof *b->mtab);
	h->npf = btok_pf_words(b->nmerges);
	pf = xcalloc(h->npf, sizeof *pf);
	for (uint32_t i = 0; i < b->mcap; i++) {
		uint64_t k = b->mtab[i].key, hv;
		if (k == UINT64_MAX)
			continue;
		hv = btok_key_hash(k);
		pf[BTOK_PF_WORD(hv, h->npf - 1)] |= BTOK_PF_BITS(hv);
	}
	align(&o, 64);
	h->off_pf = put_table(&o, pf, (size_t)h->npf * sizeof *pf);
	free(pf);
	h->off_added = put_table(&o, b->added, (size_t)b->nadded * sizeof *b->added);
	h->off_bad = put_table(&o, b->bad, (size_t)h->nbad * sizeof *b->bad);
	for (int i = 0; i < 2; i++) {
		h->off_tedge[i] = put_table(&o, tb[i].e, (size_t)tb[i].ecap * sizeof *tb[i].e);
		h->off_tterm[i] = put_table(&o, tb[i].term, (size_t)tb[i].nnodes * 4);
		btok_tbuild_free(&tb[i]);
	}
	h->off_cut = put_table(&o, &cut, sizeof cut);
	h->size = o.len;
	h->checksum = btok_checksum(o.s + sizeof *h, o.len - sizeof *h);
	memcpy(o.s, h, sizeof *h);
	return (unsigned char *)buf_detach(&o, size);
}

/* The tokenizer file's root, read into b by its kind. */
static int
load_root(struct cbuild *b, json_t *root, char *const *control)
{
	if (!json_is_object(root)) {
		cerr(b, "expected a JSON object");
		return -1;
	}
	if (json_object_get(root, "model"))
		return load_hf(b, root);
	if (json_object_get(root, "config") &&
	    (json_object_get(root, "vocab") || json_object_get(root, "bpe_ranks")))
		return load_tekken(b, root, control);
	cerr(b, "neither a tokenizer.json (\"model\") nor a tekken.json (\"config\")");
	return -1;
}

static void
cbuild_free(struct cbuild *b)
{
	free(b->tok), free(b->vtab), free(b->mtab), free(b->added), free(b->bad);
	buf_release(&b->pool);
}

unsigned char *
btok_compile(const char *name, const char *text, size_t len,
    const unsigned char sha[32], char *const *control, size_t *size, char **err)
{
	struct cbuild b;
	json_t *root;
	json_error_t je;
	unsigned char *img;
	int rc;

	memset(&b, 0, sizeof b);
	b.name = name;
	buf_init(&b.pool);
	*err = NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		*err = xasprintf("%s:%d: not a valid tokenizer file: %s", name, je.line, je.text);
		buf_release(&b.pool);
		return NULL;
	}
	rc = load_root(&b, root, control);
	json_decref(root);
	if (rc < 0 || b.err) {
		*err = b.err ? b.err : xasprintf("%s: invalid tokenizer", name);
		cbuild_free(&b);
		return NULL;
	}
	find_bad(&b);
	img = write_image(&b, sha, size);
	cbuild_free(&b);
	return img;
}
