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
"              [-a ALPHA] [-c FILE] [--html FILE] [FILE ...]\n"
"Run the pre-registered analysis (spec 001 §6, 000 §8) over scored records.\n"
"\n"
"  -a, --alpha ALPHA      significance level and BH q (default 0.05)\n"
"  -b, --bootstrap N      bootstrap resamples (default 10000)\n"
"  -c, --conformance FILE findings of bctx check --json: a corpus conformance\n"
"                         section in the report\n"
"  -f, --figures DIR      write the SVG figures into DIR\n"
"  -h, --help             show this help and exit\n"
"      --html FILE        write the results browser (one self-contained page)\n"
"  -o, --output FILE      write the result records to FILE (default stdout)\n"
"  -r, --report FILE      write the Markdown report to FILE ('-': stdout)\n"
"  -s, --seed SEED        bootstrap seed (default 42)\n"
"  -V, --version          show the version and exit\n";

static int
each(json_t *rec, void *ctx)
{
	bstats_add_record(ctx, rec);
	return 0;
}

struct outputs {
	const char *output, *report, *figures, *conformance, *html;
};

static void
parse_options(int argc, char **argv, struct bst_study *s, struct outputs *o)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "conformance", required_argument, NULL, 'c' },
		{ "figures", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, 'H' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = opt_getopt(argc, argv, "a:b:c:f:ho:r:s:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a':
			s->opt.alpha = opt_real("--alpha", optarg, 1e-6, 0.5);
			break;
		case 'b':
			s->opt.nboot = (size_t)opt_int("--bootstrap", optarg, 100,
			    10000000);
			break;
		case 'c':
			o->conformance = optarg;
			break;
		case 'f':
			o->figures = optarg;
			break;
		case 'H':
			o->html = optarg;
			break;
		case 'h':
			opt_help(usage);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'r':
			o->report = optarg;
			break;
		case 's':
			s->opt.seed = (unsigned long)opt_int("--seed", optarg, 0,
			    4294967295LL);
			break;
		case 'V':
			opt_version();
			break;
		default:
			die_usage("unknown option");
		}
	}
}

/* Write one document to path ("-": stdout), atomically. */
static void
write_doc(const struct bst_study *s, const char *path,
    void (*fn)(const struct bst_study *, FILE *))
{
	struct atomic_file *af;

	if (strcmp(path, "-") == 0) {
		fn(s, stdout);
		return;
	}
	if (!(af = atomic_open(path, 0644)))
		die_errno("%s", path);
	fn(s, atomic_fp(af));
	if (atomic_commit(af) != 0)
		die_errno("%s", path);
}

/*
 * The run's one line on stderr; returns 1 when nothing could be tested (no
 * pair and no rating under another rubric).
 */
static int
summary(const struct bst_study *s)
{
	const json_t *e = s->exclusions;
	long long excl = json_integer_value(json_object_get(e,
	    "tuples_excluded"));
	long long unp = json_integer_value(json_object_get(e, "unpaired"));
	long long pex = json_integer_value(json_object_get(e,
	    "partner_excluded"));

	fprintf(stderr, "bstats: %zu primary rating%s, %zu other; %zu pair%s "
	    "analysed (%lld tuple%s excluded, %lld whose partner was excluded, "
	    "%lld unpaired); %zu result records\n", s->nobs, s->nobs == 1 ? "" :
	    "s", s->nsec + s->nalt, s->npairs, s->npairs == 1 ? "" : "s", excl,
	    excl == 1 ? "" : "s", pex, unp, json_array_size(s->results));
	return s->npairs == 0 && s->nalt == 0;
}

int
main(int argc, char **argv)
{
	struct bst_study s = { 0 };
	struct outputs o = { 0 };
	size_t i;
	json_t *r;
	int untested;

	ctx_init(argv[0]);
	s.opt.seed = 42;
	s.opt.nboot = 10000;
	s.opt.alpha = 0.05;
	s.opt.level = 0.95;
	parse_options(argc, argv, &s, &o);
	s.opt.keep_records = o.html != NULL;
	if (o.conformance)
		bstats_conformance(&s, o.conformance);
	ndj_output_open(o.output);
	ndj_run(argc - optind, argv + optind, each, NULL, &s);
	if (s.nobs == 0 && s.nalt == 0)
		die("no primary scored records in the input");
	bstats_analyse(&s);
	json_array_foreach(s.results, i, r)
		ndj_emit(r);
	if (o.report)
		write_doc(&s, o.report, bstats_report);
	if (o.figures)
		bstats_figures(&s, o.figures);
	if (o.html)
		write_doc(&s, o.html, bstats_html);
	untested = summary(&s);
	bstats_free(&s);
	if (untested) {
		/* every output is written, so that section 1 says why */
		ndj_output_close();
		die("no scored pair: no (site, question, model) has a usable "
		    "rating under both conditions, so nothing was tested (section 1 "
		    "of the report and the exclusion_accounting record count where "
		    "the records went)");
	}
	ctx_exit();
}
