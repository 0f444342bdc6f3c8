/*
 * bctx_intake.c - libFuzzer target for what bctx reads besides the study
 * files: with the first byte even, the rest is a file of bmdprep --llms
 * records (bctx_env_links_file, the -l intake) against the example study's
 * site list, and every link found is then mapped (bctx_map_url); odd, the
 * rest is a file of page records given to bctx assemble with the example
 * study's questions, sites, gold answers and configuration.  A bad record is
 * refused with a message (die, caught), never a crash.  The example study
 * is read from $CTXBENCH_TOP/examples (default: the current directory's).
 */
#include "fuzz.h"
#include "../../tools/bctx/bctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *ex_questions, *ex_sites, *ex_gold, *ex_config;

static void
links(const char *path)
{
	struct bctx_env e;
	struct bctx_map m;
	const char *site;
	json_t *list, *rec;
	size_t i;

	bctx_env_init(&e);
	bctx_env_sites(&e, ex_sites);
	bctx_env_links_file(&e, path);
	json_object_foreach(e.links, site, list)
		json_array_foreach(list, i, rec) {
			const char *url = json_string_value(json_object_get(rec, "url"));
			if (url == NULL)
				continue;
			memset(&m, 0, sizeof m);
			bctx_map_url(&e, site, url, &m);
			bctx_map_release(&m);
		}
	bctx_env_free(&e);
}

static void
pages(const char *path)
{
	struct bctx_opts o;
	char *files[2];

	memset(&o, 0, sizeof o);
	o.questions = ex_questions;
	o.sites = ex_sites;
	o.gold = ex_gold;
	o.config = ex_config;
	files[0] = (char *)path;
	files[1] = NULL;
	bctx_assemble(&o, 1, files);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const char *path;

	if (!ready) {
		const char *top = getenv("CTXBENCH_TOP");
		if (top == NULL || *top == '\0')
			top = ".";
		fz_init("bctx_intake");
		ex_questions = xasprintf("%s/examples/questions.json", top);
		ex_sites = xasprintf("%s/examples/site-list.csv", top);
		ex_gold = xasprintf("%s/examples/gold-answers.json", top);
		ex_config = xasprintf("%s/examples/benchmark-config.json", top);
		if (freopen("/dev/null", "w", stdout) == NULL)
			abort();
		ready = 1;
	}
	if (size < 1)
		return 0;
	path = fz_file("bctx", data + 1, size - 1);
	if (setjmp(fz_jmp) == 0) {
		if ((data[0] & 1) == 0)
			links(path);
		else
			pages(path);
	}
	return 0;
}
