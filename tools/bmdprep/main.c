/*
 * bmdprep - llms.txt parsing and Condition B Markdown preparation (spec 001
 * §1.1-1.2, §2.3).  main reads the options into a struct bmd_run and makes
 * one call, the mode's: bmdprep.h maps the files and what each holds.
 */
#include <getopt.h>
#include <string.h>

#include "ctx.h"
#include "bmdprep.h"
#include "llms.h"

static const char usage[] =
"usage: bmdprep [-r] [-a DIR] [-c FILE] [-o FILE] [--front-matter keep|drop]\n"
"               [--allow-empty] [--max-blank N] [--raw | --records] [FILE...]\n"
"       bmdprep --llms [-r] [-a DIR] [-b URL] [--site-id ID] [--dump] [FILE...]\n"
"       bmdprep --check [-a DIR] [-b URL] [--min-links N] [FILE...]\n"
"       bmdprep --ctx [--optional] [-b URL] [--doc URL=FILE]... [--docs FILE]\n"
"               LLMS.TXT\n"
"\n"
"Prepare Condition B Markdown and parse llms.txt files (ctxbench spec 001\n"
"§1.1-1.2, §2.3).  Input is NDJSON manifest records or, with --raw (the\n"
"default when the input does not start with '{'), one plain file.\n"
"\n"
"      --allow-empty      records that prepare nothing (or --llms: parse no\n"
"                         llms.txt) are not an error\n"
"  -a, --archive DIR      archive of fetched files (default $CTXBENCH_ARCHIVE,\n"
"                         else ./archive)\n"
"  -b, --base URL         URL of the llms.txt, to resolve relative links\n"
"                         (record mode uses each record's url)\n"
"  -c, --config FILE      benchmark-config.json (extraction.markdown_preprocessing)\n"
"      --check            print the IC-1/IC-2/EC-1 inclusion verdict per site\n"
"      --ctx              print the reference create_ctx() context of LLMS.TXT\n"
"      --doc URL=FILE     (--ctx) the document linked as URL is FILE\n"
"      --docs FILE        (--ctx) NDJSON records {url, text|markdown|content|\n"
"                         archive_path} holding the linked documents\n"
"      --dump             (--llms -r) print the reference parse result as JSON\n"
"      --front-matter keep|drop  leading YAML front matter (default keep)\n"
"  -h, --help             show this help\n"
"      --llms             parse llms.txt files into llms/link/diagnostic records\n"
"      --max-blank N      at most N consecutive blank lines (default: config, 2)\n"
"      --min-links N      IC-2 threshold of distinct Markdown links (default 5)\n"
"  -o, --output FILE      write the output to FILE (atomically)\n"
"      --optional         (--ctx) include the Optional section\n"
"      --raw              the input is one plain file, not records\n"
"      --records          the input is NDJSON manifest records\n"
"  -r, --reference        reproduce the llms.txt reference implementation exactly\n"
"      --site-id ID       site_id of a plain llms.txt file\n"
"  -V, --version          show the version\n";

enum {
	OPT_ALLOW_EMPTY = 256, OPT_CHECK, OPT_CTX, OPT_DOC, OPT_DOCS, OPT_DUMP, OPT_FRONT,
	OPT_LLMS, OPT_MAXBLANK, OPT_MINLINKS, OPT_OPTIONAL, OPT_RAW,
	OPT_RECORDS, OPT_SITEID
};

static const struct option longopts[] = {
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "archive", required_argument, NULL, 'a' },
	{ "base", required_argument, NULL, 'b' },
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "ctx", no_argument, NULL, OPT_CTX },
	{ "doc", required_argument, NULL, OPT_DOC },
	{ "docs", required_argument, NULL, OPT_DOCS },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "front-matter", required_argument, NULL, OPT_FRONT },
	{ "help", no_argument, NULL, 'h' },
	{ "llms", no_argument, NULL, OPT_LLMS },
	{ "max-blank", required_argument, NULL, OPT_MAXBLANK },
	{ "min-links", required_argument, NULL, OPT_MINLINKS },
	{ "output", required_argument, NULL, 'o' },
	{ "optional", no_argument, NULL, OPT_OPTIONAL },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "records", no_argument, NULL, OPT_RECORDS },
	{ "reference", no_argument, NULL, 'r' },
	{ "site-id", required_argument, NULL, OPT_SITEID },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

enum mode { M_MD, M_LLMS, M_CHECK, M_CTX };

/* Options that only main needs. */
struct opts {
	enum mode mode;
	const char *config, *output;
	long max_blank;		/* -2: not given */
	int front;		/* -1: not given; 0 keep; 1 drop */
};

/* --doc URL=FILE or --docs FILE, kept in order on list (grown by one). */
static void
add_arg(char ***list, size_t *n, char *arg)
{
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = arg;
}

static void
parse_options(int argc, char *argv[], struct bmd_run *run, struct opts *o)
{
	int c;

	while ((c = opt_getopt(argc, argv, "a:b:c:ho:rV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': run->archive = optarg; break;
		case OPT_ALLOW_EMPTY: run->allow_empty = 1; break;
		case 'b': run->base = optarg; break;
		case 'c': o->config = optarg; break;
		case OPT_CHECK: o->mode = M_CHECK; break;
		case OPT_CTX: o->mode = M_CTX; break;
		case OPT_DOC:
			if (!strchr(optarg, '=') || optarg[0] == '=')
				die_usage("--doc: expected URL=FILE, got \"%s\"",
				    optarg);
			add_arg(&run->doc, &run->ndoc, optarg);
			break;
		case OPT_DOCS: add_arg(&run->docs, &run->ndocs, optarg); break;
		case OPT_DUMP: run->dump = 1; break;
		case OPT_FRONT:
			if (strcmp(optarg, "keep") != 0 &&
			    strcmp(optarg, "drop") != 0)
				die_usage("--front-matter: expected keep or drop, "
				    "got \"%s\"", optarg);
			o->front = strcmp(optarg, "drop") == 0;
			break;
		case 'h': opt_help(usage); break;
		case OPT_LLMS: o->mode = M_LLMS; break;
		case OPT_MAXBLANK:
			o->max_blank = (long)opt_int("--max-blank", optarg, 0,
			    1000000);
			break;
		case OPT_MINLINKS:
			run->min_links = (long)opt_int("--min-links", optarg, 0,
			    1000000000);
			break;
		case 'o': o->output = optarg; break;
		case OPT_OPTIONAL: run->optional = 1; break;
		case OPT_RAW: run->input = BMD_INPUT_RAW; break;
		case OPT_RECORDS: run->input = BMD_INPUT_RECORDS; break;
		case 'r': run->reference = 1; break;
		case OPT_SITEID: run->site_id = optarg; break;
		case 'V': opt_version(); break;
		default: die_usage("unknown option");
		}
	}
}

/* The combinations of options that make no sense, and the settings. */
static void
settle(struct bmd_run *run, const struct opts *o, int nargs)
{
	json_t *cfg;

	if (run->dump && (o->mode != M_LLMS || !run->reference))
		die_usage("--dump needs --llms and --reference");
	if ((run->ndoc || run->ndocs || run->optional) && o->mode != M_CTX)
		die_usage("--doc, --docs and --optional go with --ctx");
	if (o->mode == M_CTX && nargs != 1)
		die_usage("--ctx takes exactly one llms.txt file");
	if (run->base && !bmd_url_valid(run->base))
		die_usage("--base: not an absolute http(s) URL: \"%s\"",
		    run->base);
	bmd_mdopts_default(&run->md);
	if (o->config) {
		cfg = study_config_load(o->config);
		bmd_mdopts_config(&run->md, cfg, o->config);
		json_decref(cfg);
	}
	if (o->front >= 0)
		run->md.drop_front_matter = o->front;
	if (o->max_blank != -2)
		run->md.max_blank = o->max_blank;
}

int
main(int argc, char *argv[])
{
	struct bmd_run run;
	struct opts o = { M_MD, NULL, NULL, -2, -1 };

	ctx_init(argv[0]);
	memset(&run, 0, sizeof run);
	run.min_links = 5;
	run.archive = getenv("CTXBENCH_ARCHIVE");
	if (!run.archive || !*run.archive)
		run.archive = "archive";
	parse_options(argc, argv, &run, &o);
	argc -= optind;
	argv += optind;
	settle(&run, &o, argc);
	ndj_output_open(o.output);
	switch (o.mode) {
	case M_MD: bmd_mode_md(&run, argc, argv); break;
	case M_LLMS: bmd_mode_llms(&run, argc, argv); break;
	case M_CHECK: bmd_mode_check(&run, argc, argv); break;
	case M_CTX: bmd_mode_ctx(&run, argv[0]); break;
	}
	free(run.doc);
	free(run.docs);
	ctx_exit();
}
