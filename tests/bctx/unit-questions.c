/*
 * unit-questions.c - bctx's one-pass questions.json reader
 * (bctx_questions_load, tools/bctx/questions.c) against the loader it
 * stands in for (study_questions_load, common/study.c): on every file,
 * the same outcome, each loader run in a child process: the exit status,
 * the records (as jansson writes them, members in order) and every word
 * on standard error.  The files: the example study's and, when present,
 * the real study's questions.json; hand-written ones, one for each kind
 * of input the reader leaves to study_questions_load (a NUL byte, bad
 * UTF-8, a foreign or repeated member, an escaped key, a number, a
 * literal, a surrogate or NUL escape, a control byte, trailing text, a
 * field missing, empty or of another type, a complexity or question_id
 * refused) and each it takes itself (escapes, white space, several
 * sites); and 4,000 pseudo-random edits of a small valid file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "buf.h"
#include "ctx.h"
#include "study.h"
#include "../../tools/bctx/bctx.h"

static char dir[] = "/tmp/ctxbench-questions.XXXXXX";
static char path[sizeof dir + 32];

/* What a loader did with path: "status\n" records "\n--\n" stderr. */
static char *
outcome(json_t *(*load)(const char *), const char *p)
{
	int out[2], err[2], st;
	struct buf b = BUF_INIT;
	char chunk[4096];
	ssize_t k;
	pid_t pid;

	if (pipe(out) < 0 || pipe(err) < 0)
		return NULL;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		json_t *qs;
		char *s;

		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]), close(err[0]);
		qs = load(p);
		s = json_dumps(qs, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputs(s ? s : "(null)", stdout);
		fflush(stdout);
		_exit(0);
	}
	close(out[1]), close(err[1]);
	/* the records first, then the messages: a loader that dies writes
	   no records, and one that loads writes no message */
	while ((k = read(out[0], chunk, sizeof chunk)) > 0)
		buf_add(&b, chunk, (size_t)k);
	buf_adds(&b, "\n--\n");
	while ((k = read(err[0], chunk, sizeof chunk)) > 0)
		buf_add(&b, chunk, (size_t)k);
	close(out[0]), close(err[0]);
	waitpid(pid, &st, 0);
	buf_addf(&b, "\nstatus %d", WIFEXITED(st) ? WEXITSTATUS(st) : 128);
	return buf_detach(&b, NULL);
}

static int
write_file(const char *text, size_t n)
{
	FILE *fp = fopen(path, "wb");

	if (fp == NULL)
		return 0;
	fwrite(text, 1, n, fp);
	return fclose(fp) == 0;
}

/* Do both loaders agree on path?  *loaded: did they load it. */
static int
agree(const char *p, int *loaded, int verbose)
{
	char *a = outcome(bctx_questions_load, p);
	char *b = outcome(study_questions_load, p);
	int same = a && b && strcmp(a, b) == 0;

	if (loaded)
		*loaded = b && strstr(b, "\nstatus 0") != NULL;
	if (!same && verbose)
		printf("# bctx_questions_load:\n#   %s\n# study_questions_load:\n#   %s\n",
		    a ? a : "(none)", b ? b : "(none)");
	free(a);
	free(b);
	return same;
}

/* A small valid file: two sites, escapes, white space of every kind. */
static const char base[] =
    "[\n"
    " {\"site_id\": \"S001\", \"domain\": \"a.example\",\n"
    "  \"questions\": [\n"
    "   {\"question_id\": \"S001-Q01\", \"text\": \"How \\\"much\\\"?\\n\\u00e9 \xf0\x9f\x98\x80\",\n"
    "    \"complexity\": \"single-fact\", \"source_sections\": [\"A\", \"B \\/ C\"],\n"
    "    \"source_urls\": [\"https://a.example/x\"]},\n"
    "   {\"question_id\": \"S001-Q02\", \"text\": \"t\\u00e8xt \\t tab\",\r\n"
    "    \"complexity\": \"multi-section-synthesis\", \"source_sections\": [\"\\u2603\"],\n"
    "    \"source_urls\": [\"https://a.example/y\", \"https://a.example/z\"]}]},\n"
    "\t{\"site_id\":\"S002\",\"domain\":\"b.example\",\"questions\":[{\"question_id\":\"S002-Q01\","
    "\"text\":\"caf\xc3\xa9\",\"complexity\":\"conceptual-relationship\","
    "\"source_sections\":[\"X\"],\"source_urls\":[\"https://b.example/\"]}]}\n"
    "]\n";

/* One hand-written file: base with the first from replaced by to. */
static int
edited(const char *from, const char *to, const char *what)
{
	const char *at = strstr(base, from);
	struct buf b = BUF_INIT;
	int loaded = 0, ok;

	if (at == NULL) {
		TAP_OK(0, "%s: '%s' is in the base file", what, from);
		return 0;
	}
	buf_add(&b, base, (size_t)(at - base));
	buf_adds(&b, to);
	buf_adds(&b, at + strlen(from));
	ok = write_file(b.s, b.len) && agree(path, &loaded, 1);
	TAP_OK(ok, "%s: the same %s", what, loaded ? "records" : "error");
	buf_release(&b);
	return ok;
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint32_t
rng(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

static void
mutations(int n)
{
	static const char bytes[] = "\"\\{}[],: \n\tau0e\x01\x7f\xc3\xa9\xff\xed\xa0-Q";
	size_t blen = sizeof base - 1, i, at, len;
	int k, bad = 0, loaded, nloaded = 0;
	char *t = malloc(2 * blen + 64);

	for (k = 0; k < n; k++) {
		memcpy(t, base, blen);
		len = blen;
		for (i = 0; i < 1 + rng(3); i++) {
			at = rng((uint32_t)len);
			switch (rng(4)) {
			case 0:		/* delete a byte */
				memmove(t + at, t + at + 1, len - at - 1);
				len--;
				break;
			case 1:		/* insert one */
				memmove(t + at + 1, t + at, len - at);
				t[at] = bytes[rng(sizeof bytes - 1)];
				len++;
				break;
			case 2:		/* replace one */
				t[at] = bytes[rng(sizeof bytes - 1)];
				break;
			default:	/* repeat a span (a member, a question) */
				{
					size_t s = rng((uint32_t)(len - at)) % 120;
					memmove(t + at + s, t + at, len - at);
					len += s;
				}
			}
		}
		loaded = 0;	/* when the file cannot be written */
		if (!write_file(t, len) || !agree(path, &loaded, bad < 3))
			bad++;
		nloaded += loaded;
	}
	free(t);
	TAP_OK(bad == 0, "%d edits of a valid file (%d of them still valid): "
	    "the same outcome from both loaders (%d differ)", n, nloaded, bad);
	TAP_OK(nloaded > n / 20 && nloaded < n - n / 20,
	    "the edits give both valid and invalid files");
}

int
main(void)
{
	const char *top = getenv("CTXBENCH_TOP");
	char *p;
	int loaded;

	ctx_init("bctx");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/questions.json", dir);

	TAP_OK(write_file(base, sizeof base - 1) && agree(path, &loaded, 1) &&
	    loaded, "a valid file of two sites, escapes and white space: the same records");
	if (top) {
		p = xasprintf("%s/examples/questions.json", top);
		TAP_OK(agree(p, &loaded, 1) && loaded,
		    "the example study's questions.json: the same records");
		free(p);
		p = xasprintf("%s/../shared/corpus/questions.json", top);
		if (access(p, R_OK) == 0)
			TAP_OK(agree(p, &loaded, 1) && loaded,
			    "the real study's questions.json: the same records");
		else
			printf("# skipped: no ../shared/corpus/questions.json beside the tree\n");
		free(p);
	}
	TAP_OK(agree(dir, NULL, 1), "a directory: the same error");
	snprintf(path, sizeof path, "%s/absent.json", dir);
	TAP_OK(agree(path, NULL, 1), "a missing file: the same error");
	snprintf(path, sizeof path, "%s/questions.json", dir);

	{
		/* write_file stops nowhere: the NUL goes in */
		char t[sizeof base + 8];
		const char *at = strstr(base, "How");
		size_t o = (size_t)(at - base);
		memcpy(t, base, o);
		t[o] = '\0';
		memcpy(t + o + 1, at, sizeof base - 1 - o);
		TAP_OK(write_file(t, sizeof base) && agree(path, NULL, 1),
		    "a NUL byte in a string: the same error");
	}
	edited("caf\xc3\xa9", "caf\xc3", "a cut UTF-8 sequence");
	edited("caf\xc3\xa9", "caf\xed\xa0\x80", "UTF-8 of a surrogate");
	edited("\"domain\": \"a.example\"", "\"domain\": \"a.example\", \"extra\": 1",
	    "a foreign member of a site");
	edited("\"complexity\": \"single-fact\"",
	    "\"complexity\": \"single-fact\", \"notes\": \"n\"", "a foreign member of a question");
	edited("\"domain\": \"a.example\"", "\"domain\": \"a.example\", \"domain\": \"c.example\"",
	    "a repeated member");
	edited("\"site_id\": \"S001\"", "\"site\\u005fid\": \"S001\"", "an escaped key");
	edited("\"site_id\": \"S001\"", "\"site_id\": 1", "a number");
	edited("\"site_id\": \"S001\"", "\"site_id\": null", "null");
	edited("\"source_sections\":[\"X\"]", "\"source_sections\":true", "true");
	edited("\"source_sections\":[\"X\"]", "\"source_sections\":[false]", "false in an array");
	edited("\\u00e9", "\\ud83d\\ude00", "a pair of surrogate escapes");
	edited("\\u00e9", "\\ud83d", "a lone surrogate escape");
	edited("\\u00e9", "\\ude00\\ud83d", "surrogate escapes in the wrong order");
	edited("\\u00e9", "\\u0000", "an escape of NUL");
	edited("\\u00e9", "\\u00g9", "a bad \\u escape");
	edited("\\u00e9", "\\q", "an unknown escape");
	edited("t\\u00e8xt", "t\x01xt", "a control byte in a string");
	edited("t\\u00e8xt", "t\txt", "a tab in a string");
	edited("]\n", "] x\n", "text after the array");
	edited("]\n", "]\n\n  \n", "white space after the array");
	edited("\"source_urls\": [\"https://a.example/x\"]},",
	    "\"source_urls\": [\"https://a.example/x\"],},", "a trailing comma");
	edited(", \"domain\": \"a.example\"", "", "a missing domain");
	edited("\"text\":\"caf\xc3\xa9\",", "", "a missing text");
	edited("\"text\":\"caf\xc3\xa9\"", "\"text\":\"\"", "an empty text");
	edited("[\"X\"]", "[]", "empty source_sections");
	edited("[\"https://b.example/\"]", "[]", "empty source_urls");
	edited("[\"https://b.example/\"]", "[\"\"]", "an empty source URL");
	edited("[\"X\"]", "[\"\"]", "an empty source section");
	edited("[\"X\"]", "\"X\"", "source_sections a string");
	edited("\"questions\":[", "\"questions\":[[],", "a question that is an array");
	edited("\"complexity\":\"conceptual-relationship\"", "\"complexity\":\"hard\"",
	    "a complexity refused");
	edited("\"S002-Q01\"", "\"S001-Q03\"", "a question_id of another site");
	edited("\"S001-Q02\"", "\"S001-Q01\"", "a question_id seen before");
	edited("\"S002\",\"domain\"", "\"S001\",\"domain\"", "a site_id seen before");
	edited("[\n {", "{\"x\": [\n {", "an object, not an array");
	edited("[\n {", "[[\n {", "nested arrays");
	edited("\"questions\": [", "\"questions\": {", "questions an object");
	edited("\"S001\", \"domain\"", "\"S001\" \"domain\"", "no comma between members");

	mutations(4000);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
