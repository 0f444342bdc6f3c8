/*
 * bscore-merge - blinded scoring sheets, rubric validation, unblinding and
 * the raw data (spec 000 §3, §7, §8, §9, §10, §11; spec 002; spec 004).
 *
 *   bscore-merge blind -k KEY -d DIR [RESPONSES...]
 *   bscore-merge autoscore [SHEET...]
 *   bscore-merge merge -k KEY -r RESPONSES [SHEET...]
 *   bscore-merge check [SHEET...]
 *   bscore-merge rubric
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bsm.h"

static const char usage[] =
"usage: bscore-merge blind -k KEY -d DIR [-R RUBRIC] [--seed N] [--passes]\n"
"           [--force] [--second-rater FRACTION] [--self-check FRACTION]\n"
"           [--rater ID] [--sources] [--html] [--spot-check N] [--bom] [--crlf]\n"
"           [RESPONSES.ndjson ...]\n"
"       bscore-merge autoscore [-R RUBRIC] [--rater ID] [--date YYYY-MM-DD]\n"
"           [-o FILE] SHEET ...\n"
"       bscore-merge merge -k KEY -r RESPONSES.ndjson [-r ...] [-R RUBRIC]\n"
"           [--primary ID] [-o SCORED.ndjson] [--raw-data raw-data.csv]\n"
"           [--details hallucination-details.json] [--raw-csv] [--keep-texts]\n"
"           [--bom] [--crlf] SHEET ...\n"
"       bscore-merge check [-R RUBRIC] [-o FILE] SHEET ...\n"
"       bscore-merge rubric [-R RUBRIC]\n"
"\n"
"Blind binfer's responses into randomised scoring sheets and a key, rate them\n"
"automatically from the gold answer, validate filled sheets against the rubric\n"
"and unblind them into scored records, raw-data.csv and\n"
"hallucination-details.json.\n"
"\n"
"  -R, --rubric NAME|FILE   rubric: context-collapse (default), answer-quality,\n"
"                           dual-track, or a definition file\n"
"  -k, --key FILE           the key (blind writes it 0600, merge reads it)\n"
"  -d, --dir DIR            blind: where the sheets are written\n"
"  -r, --responses FILE     merge: binfer response records (repeatable)\n"
"  -o, --output FILE        scored records (merge), rows (check, autoscore)\n"
"      --raw-data FILE      merge: write raw-data.csv (spec 000 section 11)\n"
"      --raw-csv            merge: keep text cells of raw-data.csv untouched\n"
"                           (by default a cell starting with = + - @, a tab\n"
"                           or CR receives a leading space, as in the sheets)\n"
"      --details FILE       merge: write hallucination-details.json\n"
"      --primary ID         merge: the primary rater\n"
"      --keep-texts         merge: keep content, prompts and raw responses\n"
"      --force              blind: replace an existing key and its sheets\n"
"                           (a sheet a rater has filled is never replaced)\n"
"      --seed N             blind: random seed (default: random, kept in the key)\n"
"      --passes             blind: one sheet per scoring pass (000 section 7.2)\n"
"      --second-rater FRAC  blind: subset for a second rater (e.g. 0.15)\n"
"      --self-check FRAC    blind: subset the primary rater re-scores (0.05)\n"
"      --rater ID           blind: fill rater_id; autoscore: its rater id\n"
"      --date DATE          autoscore: scoring_date (default: today, UTC)\n"
"      --sources            blind: write each response's source content under\n"
"                           DIR/sources with a random name (and into the\n"
"                           hallucination pass's scoring page)\n"
"      --html               blind: also write a self-contained scoring page\n"
"                           per pass next to each sheet (DIR/sheet-N-PASS.html)\n"
"      --spot-check N       blind --html: re-show 2 earlier responses every N\n"
"                           scored (spec 002; default 20, 0: never)\n"
"      --bom                start CSV files with a UTF-8 byte order mark\n"
"      --crlf               end CSV records with CRLF\n"
"  -h, --help               show this help\n"
"  -V, --version            show the version\n";

enum {
	O_BOM = 256, O_CRLF, O_DATE, O_DETAILS, O_KEEP, O_PASSES, O_PRIMARY,
	O_RATER, O_RAW, O_SECOND, O_SEED, O_SELF, O_SOURCES, O_HTML, O_SPOT,
	O_RAWCSV, O_FORCE
};

static const struct option longopts[] = {
	{ "bom", no_argument, NULL, O_BOM },
	{ "crlf", no_argument, NULL, O_CRLF },
	{ "date", required_argument, NULL, O_DATE },
	{ "details", required_argument, NULL, O_DETAILS },
	{ "dir", required_argument, NULL, 'd' },
	{ "force", no_argument, NULL, O_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ "html", no_argument, NULL, O_HTML },
	{ "keep-texts", no_argument, NULL, O_KEEP },
	{ "key", required_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "passes", no_argument, NULL, O_PASSES },
	{ "primary", required_argument, NULL, O_PRIMARY },
	{ "rater", required_argument, NULL, O_RATER },
	{ "raw-csv", no_argument, NULL, O_RAWCSV },
	{ "raw-data", required_argument, NULL, O_RAW },
	{ "responses", required_argument, NULL, 'r' },
	{ "rubric", required_argument, NULL, 'R' },
	{ "second-rater", required_argument, NULL, O_SECOND },
	{ "seed", required_argument, NULL, O_SEED },
	{ "self-check", required_argument, NULL, O_SELF },
	{ "sources", no_argument, NULL, O_SOURCES },
	{ "spot-check", required_argument, NULL, O_SPOT },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Which subcommands take each option (by its letter or code). */
struct allowed {
	int opt;
	const char *name;
	const char *cmds;
};

static const struct allowed allowed[] = {
	{ 'k', "--key", "blind merge" },
	{ 'd', "--dir", "blind" },
	{ 'r', "--responses", "merge" },
	{ 'o', "--output", "merge check autoscore" },
	{ O_RAW, "--raw-data", "merge" },
	{ O_RAWCSV, "--raw-csv", "merge" },
	{ O_DETAILS, "--details", "merge" },
	{ O_PRIMARY, "--primary", "merge" },
	{ O_KEEP, "--keep-texts", "merge" },
	{ O_FORCE, "--force", "blind" },
	{ O_SEED, "--seed", "blind" },
	{ O_PASSES, "--passes", "blind" },
	{ O_SECOND, "--second-rater", "blind" },
	{ O_SELF, "--self-check", "blind" },
	{ O_RATER, "--rater", "blind autoscore" },
	{ O_DATE, "--date", "autoscore" },
	{ O_SOURCES, "--sources", "blind" },
	{ O_HTML, "--html", "blind" },
	{ O_SPOT, "--spot-check", "blind" },
	{ O_BOM, "--bom", "blind merge" },
	{ O_CRLF, "--crlf", "blind merge" },
	{ 0, NULL, NULL }
};

static void
check_allowed(int c, const char *cmd)
{
	size_t i;

	for (i = 0; allowed[i].opt; i++)
		if (allowed[i].opt == c) {
			const char *p = strstr(allowed[i].cmds, cmd);
			size_t n = strlen(cmd);
			if (!p || (p[n] && p[n] != ' '))
				die_usage("%s: not an option of %s", allowed[i].name, cmd);
			return;
		}
}

/* The subcommand cmd with its options checked; returns the exit status. */
static int
run(const char *cmd, const struct bsm_opts *o)
{
	struct bsm_rubric *r;

	if (!strcmp(cmd, "blind")) {
		if (!o->key || !o->dir)
			die_usage("blind needs --key FILE and --dir DIR");
		if (o->spot_check >= 0 && !o->html)
			die_usage("--spot-check: only with --html");
		return bsm_blind(o);
	}
	if (!strcmp(cmd, "autoscore")) {
		if (!o->nfiles)
			die_usage("autoscore needs at least one sheet");
		return bsm_autoscore(o);
	}
	if (!strcmp(cmd, "merge")) {
		if (!o->key || !o->nresponses)
			die_usage("merge needs --key FILE and --responses FILE");
		if (!o->nfiles)
			die_usage("merge needs at least one filled sheet");
		return bsm_merge(o);
	}
	if (!strcmp(cmd, "check")) {
		if (!o->nfiles)
			die_usage("check needs at least one sheet");
		return bsm_check(o);
	}
	if (o->nfiles)
		die_usage("rubric takes no file arguments");
	r = bsm_rubric_load(o->rubric ? o->rubric : "context-collapse");
	ndj_output_open(NULL);
	ndj_emit(r->def);
	bsm_rubric_free(r);
	return 0;
}

int
main(int argc, char **argv)
{
	struct bsm_opts o;
	const char *cmd;
	int c, rc;

	ctx_init(argv[0]);
	memset(&o, 0, sizeof o);
	o.spot_check = -1;
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		opt_help(usage);
	if (argc >= 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")))
		opt_version();
	if (argc < 2 || argv[1][0] == '-')
		die_usage("expected a command: blind, autoscore, merge, check or rubric");
	cmd = argv[1];
	if (strcmp(cmd, "blind") && strcmp(cmd, "autoscore") && strcmp(cmd, "merge") &&
	    strcmp(cmd, "check") && strcmp(cmd, "rubric"))
		die_usage("%s: unknown command (blind, autoscore, merge, check or rubric)", cmd);
	argc--;
	argv++;
	while ((c = opt_getopt(argc, argv, "R:Vd:hk:o:r:", longopts, cmd)) != -1) {
		if (c != '?' && c != 'h' && c != 'V' && c != 'R')
			check_allowed(c, cmd);
		switch (c) {
		case O_BOM: o.bom = 1; break;
		case O_CRLF: o.crlf = 1; break;
		case O_DATE:
			if (!bsm_valid_date(optarg) || strlen(optarg) != 10)
				die_usage("--date: %s: expected YYYY-MM-DD", optarg);
			o.date = optarg;
			break;
		case O_DETAILS: o.details = optarg; break;
		case O_FORCE: o.force = 1; break;
		case O_KEEP: o.keep_texts = 1; break;
		case O_PASSES: o.passes = 1; break;
		case O_PRIMARY: o.primary = optarg; break;
		case O_RATER:
			if (!*optarg)
				die_usage("--rater: expected an id");
			o.rater = optarg;
			break;
		case O_RAW: o.raw_data = optarg; break;
		case O_RAWCSV: o.raw_csv = 1; break;
		case O_SECOND: o.second_rater = opt_real("--second-rater", optarg, 0, 1); break;
		case O_SEED:
			o.seed = (unsigned long)opt_int("--seed", optarg, 0, 4294967295LL);
			o.have_seed = 1;
			break;
		case O_SELF: o.self_check = opt_real("--self-check", optarg, 0, 1); break;
		case O_SOURCES: o.sources = 1; break;
		case O_HTML: o.html = 1; break;
		case O_SPOT: o.spot_check = (long)opt_int("--spot-check", optarg, 0, 1000000); break;
		case 'R': o.rubric = optarg; break;
		case 'V': opt_version(); break;
		case 'd': o.dir = optarg; break;
		case 'h': opt_help(usage); break;
		case 'k': o.key = optarg; break;
		case 'o': o.output = optarg; break;
		case 'r':
			o.responses = xreallocarray(o.responses, o.nresponses + 2, sizeof *o.responses);
			o.responses[o.nresponses++] = optarg;
			o.responses[o.nresponses] = NULL;
			break;
		default:
			die_usage("unknown option");
		}
	}
	o.nfiles = argc - optind;
	o.files = argv + optind;
	rc = run(cmd, &o);
	free(o.responses);
	if (rc)
		exit(rc);
	ctx_exit();
}
