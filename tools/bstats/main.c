/*
 * bstats - the pre-registered analysis of a ctxbench study (spec 001 §6,
 * 000 §8): scored records in, one NDJSON result record per test out, a
 * Markdown report and SVG figures on request.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

static const char usage[] =
"usage: bstats [-h] [-V] [-o FILE] [-r FILE] [-f DIR] [-s SEED] [-b N]\n"
"              [-a ALPHA] [FILE ...]\n"
"Run the pre-registered analysis (spec 001 §6, 000 §8) over scored records.\n"
"\n"
"  -a, --alpha ALPHA      significance level and BH q (default 0.05)\n"
"  -b, --bootstrap N      bootstrap resamples (default 10000)\n"
"  -f, --figures DIR      write the SVG figures into DIR\n"
"  -h, --help             show this help and exit\n"
"  -o, --output FILE      write the result records to FILE (default stdout)\n"
"  -r, --report FILE      write the Markdown report to FILE ('-': stdout)\n"
"  -s, --seed SEED        bootstrap seed (default 42)\n"
"  -V, --version          show the version and exit\n";

static int each(json_t *rec, void *ctx)
{
	bstats_add_record(ctx, rec);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "figures", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct bst_study s = { 0 };
	const char *output = NULL, *report = NULL, *figures = NULL;
	size_t i;
	json_t *r;
	int c;

	ctx_init(argv[0]);
	s.opt.seed = 42;
	s.opt.nboot = 10000;
	s.opt.alpha = 0.05;
	s.opt.level = 0.95;
	while ((c = opt_getopt(argc, argv, "a:b:f:ho:r:s:V", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			s.opt.alpha = opt_real("--alpha", optarg, 1e-6, 0.5);
			break;
		case 'b':
			s.opt.nboot = (size_t)opt_int("--bootstrap", optarg, 100,
			    10000000);
			break;
		case 'f':
			figures = optarg;
			break;
		case 'h':
			opt_help(usage);
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			report = optarg;
			break;
		case 's':
			s.opt.seed = (unsigned long)opt_int("--seed", optarg, 0,
			    4294967295LL);
			break;
		case 'V':
			opt_version();
			break;
		default:
			die_usage("unknown option");
		}
	}
	ndj_output_open(output);
	ndj_run(argc - optind, argv + optind, each, NULL, &s);
	if (s.nobs == 0 && s.nalt == 0)
		die("no primary scored records in the input");
	bstats_analyse(&s);
	json_array_foreach(s.results, i, r)
		ndj_emit(r);
	if (report) {
		if (strcmp(report, "-") == 0) {
			bstats_report(&s, stdout);
		} else {
			struct atomic_file *af = atomic_open(report, 0644);

			if (!af)
				die_errno("%s", report);
			bstats_report(&s, atomic_fp(af));
			if (atomic_commit(af) != 0)
				die_errno("%s", report);
		}
	}
	if (figures)
		bstats_figures(&s, figures);
	bstats_free(&s);
	ctx_exit();
}
