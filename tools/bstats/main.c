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
"              [-a ALPHA] [-c FILE] [--html FILE [--compare FILE]] [FILE ...]\n"
"Run the pre-registered analysis (spec 001 §6, 000 §8) over scored records.\n"
"\n"
"  -a, --alpha ALPHA      significance level and BH q (default 0.05)\n"
"  -b, --bootstrap N      bootstrap resamples (default 10000)\n"
"  -c, --conformance FILE findings of bctx check --json: a corpus conformance\n"
"                         section in the report\n"
"      --compare FILE     with --html: another run's scored records beside\n"
"                         these (pairs matched, differences first)\n"
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
	const char *output, *report, *figures, *conformance, *html, *compare;
};

static void
parse_options(int argc, char **argv, struct bst_study *s, struct outputs *o)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "compare", required_argument, NULL, 'C' },
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
		case 'C':
			o->compare = optarg;
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

/* Open path ("-": stdout) for one document, written atomically. */
static FILE *
doc_open(const char *path, struct atomic_file **af)
{
	*af = NULL;
	if (strcmp(path, "-") == 0)
		return stdout;
	if (!(*af = atomic_open(path, 0644)))
		die_errno("%s", path);
	return atomic_fp(*af);
}

static void
doc_commit(const char *path, struct atomic_file *af)
{
	if (af && atomic_commit(af) != 0)
		die_errno("%s", path);
}

/* Write one document to path ("-": stdout), atomically. */
static void
write_doc(const struct bst_study *s, const char *path,
    void (*fn)(const struct bst_study *, FILE *))
{
	struct atomic_file *af;

	fn(s, doc_open(path, &af));
	doc_commit(path, af);
}

/*
 * The results browser; with --compare, the other run's records read and
 * analysed as this run's are (same options), and shown beside it.
 */
static void
write_html(const struct bst_study *s, const struct outputs *o)
{
	struct bst_study other = { 0 };
	struct atomic_file *af;
	const char *label;
	FILE *fp;

	if (o->compare) {
		other.opt = s->opt;
		ndj_run(1, (char *const *)&o->compare, each, NULL, &other);
		if (other.nobs == 0)
			die("%s: no primary scored records to compare", o->compare);
		bstats_analyse(&other);
	}
	label = o->compare ? strrchr(o->compare, '/') : NULL;
	label = label ? label + 1 : o->compare;
	fp = doc_open(o->html, &af);
	bstats_html(s, o->compare ? &other : NULL, label, fp);
	doc_commit(o->html, af);
	if (o->compare)
		bstats_free(&other);
}

int
main(int argc, char **argv)
{
	struct bst_study s = { 0 };
	struct outputs o = { 0 };
	size_t i;
	json_t *r;

	ctx_init(argv[0]);
	s.opt.seed = 42;
	s.opt.nboot = 10000;
	s.opt.alpha = 0.05;
	s.opt.level = 0.95;
	parse_options(argc, argv, &s, &o);
	if (o.compare && !o.html)
		die_usage("--compare needs --html");
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
		write_html(&s, &o);
	bstats_free(&s);
	ctx_exit();
}
