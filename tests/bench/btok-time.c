/*
 * btok-time.c - btok's side of tests/bench/btok.sh, timed in process as
 * the reference's side is (tests/btok/ref.js bench): the difference of two
 * whole processes' CPU times is too coarse for a file of a few
 * milliseconds.
 *
 *   btok-time NAME WARM FILE...
 *
 * Loads tokenizer NAME as btok does (the manifest of share/btok, the files
 * of CTXBENCH_TOKENIZERS, the compiled cache), counts the tokens of WARM,
 * then of each FILE once, as btok -r counts a file (one btok_encode of
 * the whole text, special tokens matched, the count only), and prints
 * "encode_ms tokens" per FILE: CPU time of the process
 * (CLOCK_PROCESS_CPUTIME_ID) around the encoding alone, the file read
 * before its clock starts.  Built by make bench only.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "btok.h"
#include "load.h"

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static size_t
count(struct btok_enc *e, const char *path, double *ms)
{
	struct btok_ids ids;
	size_t len;
	char *text = read_file(path, &len, (size_t)-1);
	double t0;

	memset(&ids, 0, sizeof ids);
	ids.count_only = 1;
	t0 = cpu_ms();
	if (btok_encode(e, text, len, 1, &ids) < 0)
		die("%s: a run longer than btok's limit", path);
	*ms = cpu_ms() - t0;
	len = ids.n;
	btok_ids_free(&ids);
	free(text);
	return len;
}

int
main(int argc, char *argv[])
{
	struct btok_manifest_entry *m;
	struct btok_paths p;
	struct btok t;
	struct btok_enc *e;
	char *manifest, *share, *file;
	const char *tok = getenv("CTXBENCH_TOKENIZERS");
	size_t nm, i;
	double ms;
	int a;

	ctx_init(argv[0]);
	if (argc < 3 || tok == NULL || *tok == '\0')
		die("usage: CTXBENCH_TOKENIZERS=DIR btok-time NAME WARM FILE...");
	manifest = ctx_share_path("btok/manifest");
	if (manifest == NULL)
		die("share/btok/manifest: not found (set CTXBENCH_SHARE)");
	share = path_dirname(manifest);
	nm = btok_manifest_load(manifest, &m);
	for (i = 0; i < nm && strcmp(m[i].name, argv[1]) != 0; i++)
		;
	if (i == nm)
		die("%s: not a tokenizer of the manifest", argv[1]);
	memset(&p, 0, sizeof p);
	p.sharedir = share;
	p.tokdir = tok;
	p.cachedir = path_join(tok, "compiled");
	p.use_cache = 1;
	file = path_join(tok, m[i].file);
	btok_load(&t, m[i].name, file, m[i].sha, &p);
	e = btok_enc_new(&t);
	/* btok's own setting (main.c malloc_keep): freed memory kept */
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
	(void)count(e, argv[2], &ms);
	for (a = 3; a < argc; a++) {
		size_t n = count(e, argv[a], &ms);
		printf("%.3f %zu\n", ms, n);
	}
	btok_enc_free(e);
	btok_unload(&t);
	free(file);
	free((char *)p.cachedir);
	free(share);
	free(manifest);
	free(m);
	return 0;
}
