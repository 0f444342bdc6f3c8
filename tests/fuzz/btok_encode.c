/*
 * btok_encode.c - libFuzzer target for btok's encoder with the real
 * tokenizers of the manifest (fetched by make deps; run from the source
 * tree's top, as make fuzz does).  The first byte picks the tokenizer and whether special
 * tokens are matched; the rest is the text, any bytes.  The encoder must not
 * fail, ids must be in the vocabulary, and the count-only mode must give the
 * same count.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../../tools/btok/btok.h"
#include "../../tools/btok/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct btok toks[8];
static struct btok_enc *encs[8];	/* one encoder per tokenizer */
static size_t ntoks;
static int ready;

static void init(void)
{
	const char *e = getenv("CTXBENCH_TOKENIZERS"), *share = getenv("CTXBENCH_SHARE");
	char *tokdir, *sharedir, *manifest;
	struct btok_paths p;
	err_init("btok_encode");
	if (e && *e)
		tokdir = xstrdup(e);
	else
		tokdir = xasprintf("%s/.cache/ctxbench/tokenizers", getenv("HOME") ? getenv("HOME") : ".");
	sharedir = share && *share ? path_join(share, "btok") : xstrdup("share/btok");
	manifest = path_join(sharedir, "manifest");
	p.sharedir = sharedir;
	p.tokdir = tokdir;
	p.cachedir = path_join(tokdir, "compiled");
	p.use_cache = 1;
	{
		struct btok_manifest_entry *m;
		ntoks = btok_manifest_load(manifest, &m);
		if (ntoks == 0 || ntoks > 8)
			die("%s: expected 1 to 8 tokenizers", manifest);
		for (size_t i = 0; i < ntoks; i++) {
			char *file = path_join(tokdir, m[i].file);
			btok_load(&toks[i], m[i].name, file, m[i].sha, &p);
			encs[i] = btok_enc_new(&toks[i]);
			free(file);
		}
		free(m);
	}
	free(tokdir);
	free(sharedir);
	free(manifest);
	free((char *)p.cachedir);
	ready = 1;
}

/* Loading (and on first use compiling) the tokenizers is slow under the
   sanitizers: done once here, outside the per-input timeout. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btok_ids a, b;
	struct btok *t;
	struct btok_enc *e;
	int special;
	if (!ready)
		init();
	if (size < 1)
		return 0;
	t = &toks[(data[0] & 7) % ntoks];
	e = encs[(data[0] & 7) % ntoks];
	special = !(data[0] & 8);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	b.count_only = 1;
	btok_encode(e, (const char *)data + 1, size - 1, special, &a);
	btok_encode(e, (const char *)data + 1, size - 1, special, &b);
	if (a.n != b.n)
		abort();
	for (size_t i = 0; i < a.n; i++) {
		size_t l;
		if (!btok_token(t, a.v[i], &l))
			abort();
	}
	btok_ids_free(&a);
	return 0;
}
