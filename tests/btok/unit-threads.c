/*
 * unit-threads.c - btok_encode from two threads at once.  Each thread makes
 * its own encoder (struct btok_enc) over a tokenizer the threads share (the
 * same one, or one each) and encodes every text in its own order, with and
 * without special tokens, in ids and in count-only mode; every count and
 * every id must equal what one thread alone gave.  The texts are the files
 * of tests/btok/corpus, all of them joined, and generated pieces long
 * enough for each merge strategy of encode.c (a word of 70,000 letters
 * takes the bucket queue and is over the scratch the encoder keeps).
 * Then, for each tokenizer, one encoder encodes a text of distinct words
 * too long for the word cache, more than the cache of long pieces holds (it
 * starts again empty when full), then the text's end again: the ids must be
 * those of a new encoder.  And an encoder's caches are in huge pages: the
 * encoder starts on a 2 MiB boundary, in mappings asked to be huge, as is
 * the long-piece cache's arena, and both are unmapped when it is freed.
 *
 * usage: unit-threads SHAREDIR TOKDIR CACHEDIR CORPUSDIR
 * (SHAREDIR holds btok's manifest; TOKDIR the tokenizer files.)
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "ctx.h"
#include "sort.h"
#include "../../tools/btok/btok.h"
#include "../../tools/btok/load.h"

#define MAXTOK 8
#define MAXTEXT 64
#define ROUNDS 4	/* round r: count-only when r & 1, special when !(r & 2) */

struct text { char *name, *s; size_t n; };
struct want { uint32_t *ids; size_t n; };

static struct btok toks[MAXTOK];
static char names[MAXTOK][64];
static size_t ntok;
static struct text texts[MAXTEXT];
static size_t ntext;
static struct want want[MAXTOK][MAXTEXT][2];	/* [tokenizer][text][special] */

/* One thread's share of a case. */
struct job {
	size_t k;		/* its tokenizer */
	int reverse;		/* texts in reverse order */
	pthread_barrier_t *start;
	unsigned long runs, bad;
	char first[200];	/* the first mismatch */
};

static void
add_text(const char *name, char *s, size_t n)
{
	if (ntext == MAXTEXT)
		die("more than %d texts", MAXTEXT);
	texts[ntext].name = xstrdup(name);
	texts[ntext].s = s;
	texts[ntext].n = n;
	ntext++;
}

/* The corpus files in name order, then all of them joined. */
static void
read_corpus(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *files[MAXTEXT];
	size_t nf = 0;
	struct buf all;

	if (!d)
		die_errno("%s", dir);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && nf < MAXTEXT - 8)
			files[nf++] = xstrdup(de->d_name);
	closedir(d);
	qsort(files, nf, sizeof *files, ctx_cmp_strp);
	buf_init(&all);
	for (size_t i = 0; i < nf; i++) {
		char *path = path_join(dir, files[i]);
		size_t n;
		char *s = read_file(path, &n, (size_t)1 << 24);

		if (!s)
			die_errno("%s", path);
		buf_add(&all, s, n);
		add_text(files[i], s, n);
		free(path);
		free(files[i]);
	}
	{
		size_t n;
		char *s = buf_detach(&all, &n);
		add_text("(the corpus joined)", s, n);
	}
}

/* Words of lo to hi letters from a fixed generator, joined by spaces. */
static void
add_words(const char *name, size_t nwords, size_t lo, size_t hi)
{
	struct buf b;
	uint32_t x = 12345;
	size_t n;
	char *s;

	buf_init(&b);
	for (size_t w = 0; w < nwords; w++) {
		size_t len = lo + (x >> 8) % (hi - lo + 1);

		if (w)
			buf_add(&b, " ", 1);
		for (size_t i = 0; i < len; i++) {
			char c;
			x = x * 1103515245u + 12345u;
			c = (char)('a' + (x >> 16) % 26);
			buf_add(&b, &c, 1);
		}
	}
	s = buf_detach(&b, &n);
	add_text(name, s, n);
}

static void
load_tokenizers(const char *share, const char *tokdir, const char *cachedir)
{
	struct btok_manifest_entry *m;
	struct btok_paths p = { share, tokdir, cachedir, 1 };
	char *manifest = path_join(share, "manifest");

	ntok = btok_manifest_load(manifest, &m);
	if (ntok == 0 || ntok > MAXTOK)
		die("%s: expected 1 to %d tokenizers", manifest, MAXTOK);
	for (size_t k = 0; k < ntok; k++) {
		char *file = path_join(tokdir, m[k].file);

		btok_load(&toks[k], m[k].name, file, m[k].sha, &p);
		snprintf(names[k], sizeof names[k], "%s", m[k].name);
		free(file);
	}
	free(m);
	free(manifest);
}

/* What one thread alone gives: one encoder per tokenizer, every text. */
static void
reference(void)
{
	for (size_t k = 0; k < ntok; k++) {
		struct btok_enc *e = btok_enc_new(&toks[k]);

		for (size_t i = 0; i < ntext; i++)
			for (int sp = 0; sp < 2; sp++) {
				struct btok_ids ids;

				memset(&ids, 0, sizeof ids);
				if (btok_encode(e, texts[i].s, texts[i].n, sp, &ids) < 0)
					die("%s: %s: a piece over the limit", names[k], texts[i].name);
				want[k][i][sp].ids = ids.v;
				want[k][i][sp].n = ids.n;
			}
		btok_enc_free(e);
	}
}

/* Does ids hold what one thread gave? */
static int
same(const struct btok_ids *ids, const struct want *w)
{
	return ids->n == w->n &&
	    (ids->count_only || w->n == 0 || memcmp(ids->v, w->ids, w->n * sizeof *w->ids) == 0);
}

static void *
encode_all(void *v)
{
	struct job *j = v;
	struct btok_enc *e = btok_enc_new(&toks[j->k]);
	struct btok_ids ids;

	memset(&ids, 0, sizeof ids);
	pthread_barrier_wait(j->start);
	for (int r = 0; r < ROUNDS; r++)
		for (size_t x = 0; x < ntext; x++) {
			size_t i = j->reverse ? ntext - 1 - x : x;
			int sp = !(r & 2);

			ids.n = 0;
			ids.count_only = r & 1;
			btok_encode(e, texts[i].s, texts[i].n, sp, &ids);
			j->runs++;
			if (same(&ids, &want[j->k][i][sp]))
				continue;
			if (!j->bad++)
				snprintf(j->first, sizeof j->first, "%s, %s, special %d: %zu ids, "
				    "one thread gave %zu%s", names[j->k], texts[i].name, sp, ids.n,
				    want[j->k][i][sp].n, ids.n == want[j->k][i][sp].n ?
				    " (other ids)" : "");
		}
	btok_ids_free(&ids);
	btok_enc_free(e);
	return NULL;
}

/*
 * Distinct words of 30 to 60 letters, 1.8 MB of them: each takes the long-
 * piece cache of encode.c about three times its bytes (its bytes and an id
 * per two letters or so), so the cache (4 MiB) fills and starts again while
 * an encoder encodes them all.  Its last tenth, encoded again by that
 * encoder, which holds some of its words then, must give the ids a new
 * encoder gives.
 */
static void
refill(size_t k, const struct text *t)
{
	struct btok_enc *e = btok_enc_new(&toks[k]), *fresh = btok_enc_new(&toks[k]);
	struct btok_ids a, b;
	const char *tail = memchr(t->s + t->n / 10 * 9, ' ', t->n / 10);
	size_t n;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (!tail)
		die("%s: no space in its last tenth", t->name);
	n = (size_t)(t->s + t->n - tail);
	btok_encode(e, t->s, t->n, 1, &a);
	a.n = 0;
	btok_encode(e, tail, n, 1, &a);
	btok_encode(fresh, tail, n, 1, &b);
	TAP_OK(a.n > n / 60 && a.n == b.n && memcmp(a.v, b.v, a.n * sizeof *a.v) == 0,
	    "%s: the last tenth of %s, encoded again after the whole, its long "
	    "pieces cached since the cache filled: the %zu ids of a new encoder",
	    names[k], t->name, b.n);
	btok_ids_free(&a);
	btok_ids_free(&b);
	btok_enc_free(e);
	btok_enc_free(fresh);
}

#define HUGE_PAGE ((uintptr_t)2 << 20)

/*
 * The bytes of this process's mappings asked to be huge ("hg" among their
 * VmFlags in /proc/self/smaps, proc(5): madvise MADV_HUGEPAGE), and in *in
 * whether the mapping that holds p is one of them; -1 when smaps cannot be
 * read.  Adjacent mappings with the same flags are one, so only the sum
 * tells mappings apart.
 */
static long long
hg_bytes(const void *p, int *in)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[1024];
	unsigned long a = 0, b = 0;
	long long sum = 0;

	*in = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long x, y;
		if (sscanf(line, "%lx-%lx ", &x, &y) == 2) {
			a = x, b = y;
			continue;
		}
		if (strncmp(line, "VmFlags:", 8) != 0 || !strstr(line, " hg"))
			continue;
		sum += (long long)(b - a);
		if ((uintptr_t)p >= a && (uintptr_t)p < b)
			*in = 1;
	}
	fclose(f);
	return sum;
}

/*
 * The caches of an encoder in huge pages (encode.c, huge_zalloc): a new
 * encoder starts on a 2 MiB boundary, in whole 2 MiB pages asked to be
 * huge; encoding distinct long words (text t) adds the long-piece cache's
 * arena, 4 MiB more of them; freeing the encoder unmaps both.  Under
 * AddressSanitizer the blocks come from calloc, so that it catches an
 * access past their end, and the test is skipped; so are the checks of
 * the flags on a kernel without transparent huge pages.
 */
static void
huge_pages(size_t k, const struct text *t)
{
	struct btok_enc *e;
	struct btok_ids ids;
	long long before, made, filled, after;
	int in, thp = access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;

#ifdef __SANITIZE_ADDRESS__
	tap_skip("huge pages: an AddressSanitizer build, whose encoders come from calloc");
	return;
#endif
	before = hg_bytes(NULL, &in);
	e = btok_enc_new(&toks[k]);
	TAP_OK((uintptr_t)e % HUGE_PAGE == 0, "%s: a new encoder starts on a 2 MiB boundary",
	    names[k]);
	if (!thp || before < 0) {
		tap_skip(thp ? "huge pages: /proc/self/smaps cannot be read" :
		    "huge pages: the kernel has no transparent huge pages");
		btok_enc_free(e);
		return;
	}
	made = hg_bytes(e, &in);
	TAP_OK(in && made > before && (made - before) % HUGE_PAGE == 0,
	    "%s: the encoder is in whole 2 MiB pages asked to be huge (%lld MiB)",
	    names[k], (made - before) >> 20);
	memset(&ids, 0, sizeof ids);
	ids.count_only = 1;
	btok_encode(e, t->s, t->n, 1, &ids);
	filled = hg_bytes(e, &in);
	TAP_IS_INT(filled - made, 4 << 20, "%s: %s add the long-piece cache's arena, "
	    "4 MiB asked to be huge", names[k], t->name);
	btok_enc_free(e);
	after = hg_bytes(NULL, &in);
	TAP_IS_INT(after, before, "%s: freeing the encoder unmaps both", names[k]);
}

/* Tokenizers ka and kb (maybe the same) in two threads at once. */
static void
two_threads(size_t ka, size_t kb)
{
	struct job j[2];
	pthread_t th[2];
	pthread_barrier_t start;

	memset(j, 0, sizeof j);
	j[0].k = ka;
	j[1].k = kb;
	j[1].reverse = 1;
	j[0].start = j[1].start = &start;
	if (pthread_barrier_init(&start, NULL, 2) != 0)
		die("pthread_barrier_init failed");
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, encode_all, &j[i]) != 0)
			die("pthread_create failed");
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	TAP_OK(j[0].bad + j[1].bad == 0 && j[0].runs == ROUNDS * ntext &&
	    j[1].runs == ROUNDS * ntext,
	    "%s and %s in two threads at once: %lu encodings, every count and id as "
	    "one thread gave", names[ka], names[kb], j[0].runs + j[1].runs);
	for (int i = 0; i < 2; i++)
		if (j[i].bad)
			printf("#   thread %d: %lu of %lu differ; first: %s\n", i, j[i].bad,
			    j[i].runs, j[i].first);
}

int
main(int argc, char **argv)
{
	size_t total = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: unit-threads SHAREDIR TOKDIR CACHEDIR CORPUSDIR\n");
		return 2;
	}
	err_init("unit-threads");
	load_tokenizers(argv[1], argv[2], argv[3]);
	read_corpus(argv[4]);
	add_words("words of 60 to 500 letters", 60, 60, 500);
	add_words("a word of 70,000 letters", 1, 70000, 70000);
	reference();
	for (size_t i = 0; i < ntext; i++)
		total += want[0][i][1].n;
	TAP_OK(total > 10000, "%zu texts give %s %zu ids (one thread)", ntext, names[0], total);
	/* The same tokenizer: shared tries and tables, one encoder each. */
	for (size_t k = 0; k < ntok; k++)
		two_threads(k, k);
	/* Different tokenizers. */
	for (size_t k = 0; k < ntok; k++)
		two_threads(k, (k + 1) % ntok);
	add_words("distinct words of 30 to 60 letters", 40000, 30, 60);
	for (size_t k = 0; k < ntok; k++)
		refill(k, &texts[ntext - 1]);
	huge_pages(0, &texts[ntext - 1]);
	for (size_t k = 0; k < ntok; k++) {
		for (size_t i = 0; i < ntext; i++)
			for (int sp = 0; sp < 2; sp++)
				free(want[k][i][sp].ids);
		btok_unload(&toks[k]);
	}
	for (size_t i = 0; i < ntext; i++) {
		free(texts[i].name);
		free(texts[i].s);
	}
	return tap_done();
}
