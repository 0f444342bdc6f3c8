/*
 * bctx - plan the fetches of each question's source pages and assemble the
 * per-question contexts of both conditions (spec 001 §2.3-2.5, §3).
 *
 *   bctx plan -q questions.json -s site-list.csv [-l links.ndjson] ...
 *   bctx assemble -q questions.json [-g gold] [-c config] [PAGES ...]
 *   bctx check -s site-list.csv -q questions.json -g gold ... (check.c)
 *   bctx drift --old PAGES... --new PAGES... (drift.c)
 */
#include <getopt.h>
#include <string.h>

#include "ctx.h"
#include "bctx.h"
#include "check.h"

static const char usage[] =
"usage: bctx plan -q QUESTIONS -s SITES [-l LINKS]... [-m MAP] [--report]\n"
"                 [--site ID] [--question ID] [--condition A|B] [-o FILE]\n"
"       bctx plan -s SITES --site ID --url URL [-l LINKS]... [-m MAP]\n"
"       bctx assemble -q QUESTIONS [-s SITES] [-g GOLD] [-c CONFIG]\n"
"                 [-l LINKS]... [-m MAP] [--style methodology|reference]\n"
"                 [--allow-empty] [--all-links [--optional]] [--site ID]\n"
"                 [--question ID] [--condition A|B] [-o FILE]\n"
"                 [PAGES.ndjson ...]\n"
"       bctx check -s SITES -q QUESTIONS -g GOLD [-c CONFIG] [-l LINKS]...\n"
"                 [--freeze DATE] [--today DATE] [--strict] [--json] [-o FILE]\n"
"       bctx drift --old PAGES [--old PAGES]... --new PAGES [--new PAGES]...\n"
"                 [-o FILE]\n"
"\n"
"plan: fetch jobs {site_id, url, condition, fetch_url, question_ids} for\n"
"bfetch, one per site, URL and condition; --report prints per site how many\n"
"questions get both conditions, one or none, and what could not be mapped.\n"
"assemble: one context record per question and condition from bread\n"
"(condition A), bmdprep (condition B) and bmdprep --llms records.\n"
"check: the corpus against the design rules of spec 001 (bctx check -h).\n"
"drift: the pages of two snapshots of one plan compared (bctx drift -h).\n"
"\n"
"  -q, --questions FILE   questions.json (spec 001 §3.5)\n"
"  -s, --sites FILE       site-list.csv (spec 001 §1.6)\n"
"  -l, --links FILE       llms.txt records of bmdprep (kind llms, link); repeatable\n"
"  -m, --map FILE         user mapping CSV site_id,html_url,md_url (overrides)\n"
"  -g, --gold FILE        gold-answers.json: adds gold_answer, gold_coverage\n"
"  -c, --config FILE      benchmark-config.json: fills the prompt template;\n"
"                         assemble: the condition variants it declares\n"
"      --style STYLE      condition B layout: methodology (default) or\n"
"                         reference (byte-identical to create_ctx)\n"
"      --all-links        condition B holds every link of the llms.txt\n"
"      --allow-empty      assemble: a run whose every context is excluded\n"
"                         (or that selects none) is not an error\n"
"      --optional         with --all-links: the Optional section too\n"
"      --report           plan: print the mapping report instead of jobs\n"
"      --site ID          only this site\n"
"      --question ID      only this question\n"
"      --condition C      only condition A or B\n"
"      --url URL          plan: print the mapping of one URL (needs --site)\n"
"  -o, --output FILE      write the output to FILE (atomically)\n"
"  -h, --help             show this help\n"
"  -V, --version          show the version\n";

enum { OPT_STYLE = 256, OPT_ALLOW_EMPTY, OPT_ALL_LINKS, OPT_OPTIONAL, OPT_REPORT, OPT_SITE,
	OPT_QUESTION, OPT_CONDITION, OPT_URL };

static const struct option longopts[] = {
	{ "all-links", no_argument, NULL, OPT_ALL_LINKS },
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "condition", required_argument, NULL, OPT_CONDITION },
	{ "config", required_argument, NULL, 'c' },
	{ "gold", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "links", required_argument, NULL, 'l' },
	{ "map", required_argument, NULL, 'm' },
	{ "optional", no_argument, NULL, OPT_OPTIONAL },
	{ "output", required_argument, NULL, 'o' },
	{ "question", required_argument, NULL, OPT_QUESTION },
	{ "questions", required_argument, NULL, 'q' },
	{ "report", no_argument, NULL, OPT_REPORT },
	{ "site", required_argument, NULL, OPT_SITE },
	{ "sites", required_argument, NULL, 's' },
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "url", required_argument, NULL, OPT_URL },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* the output's buffer (bctx_output_buffer), as long as the program */
static char outbuf[BCTX_OUTBUF];

int
main(int argc, char *argv[])
{
	struct bctx_opts o;
	const char *output = NULL, *cmd;
	int c, plan;

	ctx_init(argv[0]);
	memset(&o, 0, sizeof o);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		opt_help(usage);
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "--version") == 0))
		opt_version();
	if (argc < 2 || argv[1][0] == '-')
		die_usage("expected a command: plan, assemble, check or drift");
	cmd = argv[1];
	if (strcmp(cmd, "check") == 0)
		bctx_check_main(argc - 1, argv + 1);
	if (strcmp(cmd, "drift") == 0)
		bctx_drift_main(argc - 1, argv + 1);
	if (strcmp(cmd, "plan") == 0)
		plan = 1;
	else if (strcmp(cmd, "assemble") == 0)
		plan = 0;
	else
		die_usage("unknown command '%s' (expected plan, assemble, check or "
		    "drift)", cmd);
	argc--;
	argv++;
	while ((c = opt_getopt(argc, argv, "c:g:hl:m:o:q:s:V", longopts,
	    cmd)) != -1) {
		switch (c) {
		case OPT_ALL_LINKS: o.all_links = 1; break;
		case OPT_ALLOW_EMPTY: o.allow_empty = 1; break;
		case OPT_CONDITION:
			if (strcmp(optarg, "A") && strcmp(optarg, "B"))
				die_usage("--condition: expected A or B, got '%s'", optarg);
			o.condition = optarg;
			break;
		case 'c': o.config = optarg; break;
		case 'g': o.gold = optarg; break;
		case 'h': opt_help(usage); break;
		case 'l':
			o.links = xreallocarray(o.links, o.nlinks + 2, sizeof *o.links);
			o.links[o.nlinks++] = optarg;
			o.links[o.nlinks] = NULL;
			break;
		case 'm': o.usermap = optarg; break;
		case OPT_OPTIONAL: o.optional = 1; break;
		case 'o': output = optarg; break;
		case OPT_QUESTION: o.question = optarg; break;
		case 'q': o.questions = optarg; break;
		case OPT_REPORT: o.report = 1; break;
		case OPT_SITE: o.site = optarg; break;
		case 's': o.sites = optarg; break;
		case OPT_STYLE:
			if (strcmp(optarg, "reference") == 0)
				o.reference = 1;
			else if (strcmp(optarg, "methodology") == 0)
				o.reference = 0;
			else
				die_usage("--style: expected methodology or reference, got "
				    "'%s'", optarg);
			break;
		case OPT_URL: o.url = optarg; break;
		case 'V': opt_version(); break;
		default: die_usage("bad option");
		}
	}
	if (plan) {
		if (optind < argc)
			die_usage("plan takes no file arguments (links go with -l)");
		if (o.sites == NULL)
			die_usage("plan needs -s/--sites");
		if (o.url && o.site == NULL)
			die_usage("--url needs --site");
		if (o.url == NULL && o.questions == NULL)
			die_usage("plan needs -q/--questions (or --url)");
		if (o.allow_empty)
			die_usage("--allow-empty is an assemble option");
	} else {
		if (o.questions == NULL)
			die_usage("assemble needs -q/--questions");
		if (o.report || o.url)
			die_usage("--report and --url are plan options");
		if (o.optional && !o.all_links)
			die_usage("--optional needs --all-links");
	}
	ndj_output_open(output);
	bctx_output_buffer(outbuf);
	if (plan)
		bctx_plan(&o);
	else
		bctx_assemble(&o, argc - optind, argv + optind);
	free(o.links);
	ctx_exit();
}
