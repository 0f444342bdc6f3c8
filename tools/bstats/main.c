/*
 * bstats - the pre-registered analysis of a ctxbench study (spec 001 §6,
 * 000 §8): scored records in, one NDJSON result record per test out, a
 * Markdown report and SVG figures on request.
 */
#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "study.h"
#include "variants.h"
#include "bstats.h"
#include "power.h"

static const char usage[] =
"usage: bstats [-h] [-V] [-o FILE] [-r FILE] [-f DIR] [-s SEED] [-b N]\n"
"              [-a ALPHA] [-c FILE] [--config FILE] [--drift FILE]\n"
"              [--html FILE [--compare FILE]] [FILE ...]\n"
"       bstats --power DIR [-o FILE] [-r FILE] [-s SEED] [-a ALPHA]\n"
"              [--sims N] [--threads N] [--mde-steps N] [ASSUMPTION ...]\n"
"Run the pre-registered analysis (spec 001 §6, 000 §8) over scored records,\n"
"or simulate the power of the design in corpus DIR (questions.json,\n"
"benchmark-config.json).\n"
"\n"
"  -a, --alpha ALPHA      significance level and BH q (default 0.05)\n"
"  -b, --bootstrap N      bootstrap resamples (default 10000)\n"
"  -c, --conformance FILE findings of bctx check --json: a corpus conformance\n"
"                         section in the report\n"
"      --compare FILE     with --html: another run's scored records beside\n"
"                         these (pairs matched, differences first)\n"
"      --config FILE      benchmark-config.json: its declared variants and\n"
"                         exploratory comparisons (default: each variant in\n"
"                         the records against its variant_of)\n"
"      --drift FILE       records of bctx drift: a content drift section in\n"
"                         the report\n"
"  -f, --figures DIR      write the SVG figures into DIR\n"
"  -h, --help             show this help and exit\n"
"      --html FILE        write the results browser (one self-contained page)\n"
"  -o, --output FILE      write the result records to FILE (default stdout)\n"
"  -r, --report FILE      write the Markdown report to FILE ('-': stdout)\n"
"  -s, --seed SEED        bootstrap seed (default 42)\n"
"  -V, --version          show the version and exit\n"
"\n"
"--power: the simulation and its assumptions (bstats(1), POWER)\n"
"      --power DIR        the design: DIR/questions.json, DIR/benchmark-config.json\n"
"      --sims N           simulated studies per scenario (default 1000)\n"
"      --threads N        threads (default: one per online core)\n"
"      --mde-steps N      bisection steps for H1's minimum detectable effect\n"
"                         (default 6; 0: none)\n"
"      --effect-accuracy D       Cliff's delta of factual accuracy (default 0.15)\n"
"      --effect-hallucinations D Cliff's delta of hallucinations (default 0.1)\n"
"      --effect-tokens D         Cohen's d of input tokens (default 0.5)\n"
"      --effect-completeness D   Cliff's delta of completeness (default 0.1)\n"
"      --effect-citation D       Cliff's delta of citation fidelity (default 0.1)\n"
"      --ties P                  share of tied pairs at no effect (default 0.5)\n"
"      --icc-site R              site random effect's share (default 0.1)\n"
"      --icc-model R             model random effect's share (default 0.05)\n"
"      --icc-question R          question random effect's share (default 0.1)\n"
"      --tier-interaction D      accuracy delta, small minus large (default 0.1)\n"
"      --complexity-interaction D  complex minus single-fact (default 0.1)\n"
"      --exclusion P             share of ratings excluded (default 0.03)\n"
"      --cite-na P               share of citation fidelity N/A (default 0.3)\n";

/* The long options of --power (no short form). */
enum { O_POWER = 256, O_SIMS, O_THREADS, O_MDE, O_EACC, O_EHALL, O_ETOK,
	O_ECOMP, O_ECITE, O_TIES, O_ISITE, O_IMODEL, O_IQUEST, O_TIER, O_CX,
	O_EXCL, O_CITENA, O_DRIFT, O_CONFIG };

static int
each(json_t *rec, void *ctx)
{
	bstats_add_record(ctx, rec);
	return 0;
}

struct outputs {
	const char *output, *report, *figures, *conformance, *html, *compare;
	const char *drift;
	const char *config;
	struct bst_power power;
};

static void
power_defaults(struct bst_power *p)
{
	static const struct pw_assume as = { { 0.15, 0.1, 0.5, 0.1, 0.1 }, 0.5,
	    0.1, 0.05, 0.1, 0.1, 0.1, 0.03, 0.3 };

	p->as = as;
	p->sims = 1000;
	p->mde_steps = 6;
	p->target = 0.8;
}

/* One option of --power; 0 when c is not one. */
static int
power_option(int c, const char *arg, struct bst_power *p)
{
	struct pw_assume *as = &p->as;
	const struct {
		int code;
		const char *name;
		double *v, lo, hi;
	} real[] = {
		{ O_CITENA, "--cite-na", &as->cite_na, 0, 1 },
		{ O_CX, "--complexity-interaction", &as->complexity, -1, 1 },
		{ O_EACC, "--effect-accuracy", &as->effect[M_ACC], -0.99, 0.99 },
		{ O_ECITE, "--effect-citation", &as->effect[M_CITE], -0.99, 0.99 },
		{ O_ECOMP, "--effect-completeness", &as->effect[M_COMP], -0.99,
		    0.99 },
		{ O_EHALL, "--effect-hallucinations", &as->effect[M_HALL], -0.99,
		    0.99 },
		{ O_ETOK, "--effect-tokens", &as->effect[M_TOK], -5, 5 },
		{ O_EXCL, "--exclusion", &as->exclusion, 0, 0.9 },
		{ O_IMODEL, "--icc-model", &as->icc_model, 0, 1 },
		{ O_IQUEST, "--icc-question", &as->icc_question, 0, 1 },
		{ O_ISITE, "--icc-site", &as->icc_site, 0, 1 },
		{ O_TIER, "--tier-interaction", &as->tier, -1, 1 },
		{ O_TIES, "--ties", &as->ties, 0, 0.99 },
	};
	size_t i;

	for (i = 0; i < sizeof real / sizeof real[0]; i++)
		if (c == real[i].code) {
			*real[i].v = opt_real(real[i].name, arg, real[i].lo,
			    real[i].hi);
			return 1;
		}
	switch (c) {
	case O_MDE:
		p->mde_steps = (int)opt_int("--mde-steps", arg, 0, 30);
		break;
	case O_POWER:
		p->design = arg;
		break;
	case O_SIMS:
		p->sims = (size_t)opt_int("--sims", arg, 10, 10000000);
		break;
	case O_THREADS:
		p->threads = (unsigned)opt_int("--threads", arg, 1, 1024);
		break;
	default:
		return 0;
	}
	return 1;
}

static void
parse_options(int argc, char **argv, struct bst_study *s, struct outputs *o)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "cite-na", required_argument, NULL, O_CITENA },
		{ "compare", required_argument, NULL, 'C' },
		{ "complexity-interaction", required_argument, NULL, O_CX },
		{ "conformance", required_argument, NULL, 'c' },
		{ "drift", required_argument, NULL, O_DRIFT },
		{ "config", required_argument, NULL, O_CONFIG },
		{ "effect-accuracy", required_argument, NULL, O_EACC },
		{ "effect-citation", required_argument, NULL, O_ECITE },
		{ "effect-completeness", required_argument, NULL, O_ECOMP },
		{ "effect-hallucinations", required_argument, NULL, O_EHALL },
		{ "effect-tokens", required_argument, NULL, O_ETOK },
		{ "exclusion", required_argument, NULL, O_EXCL },
		{ "figures", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, 'H' },
		{ "icc-model", required_argument, NULL, O_IMODEL },
		{ "icc-question", required_argument, NULL, O_IQUEST },
		{ "icc-site", required_argument, NULL, O_ISITE },
		{ "mde-steps", required_argument, NULL, O_MDE },
		{ "output", required_argument, NULL, 'o' },
		{ "power", required_argument, NULL, O_POWER },
		{ "report", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "sims", required_argument, NULL, O_SIMS },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "ties", required_argument, NULL, O_TIES },
		{ "tier-interaction", required_argument, NULL, O_TIER },
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
		case O_DRIFT:
			o->drift = optarg;
			break;
		case O_CONFIG:
			o->config = optarg;
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
			if (!power_option(c, optarg, &o->power))
				die_usage("unknown option");
		}
	}
}

static void
power_doc(const struct bst_study *s, FILE *fp)
{
	bstats_power_report(s->results, fp);
}

/*
 * Every output of a run (-o, -r, -f, --html) is staged in one atomic group
 * and committed at the end, all or none: a failure on the last file leaves
 * the earlier ones as they were.
 */

/* Open path ("-": stdout) for one document of the group g. */
static FILE *
doc_open(struct atomic_group *g, const char *path)
{
	FILE *fp;

	if (strcmp(path, "-") == 0)
		return stdout;
	if (!(fp = atomic_group_open(g, path, 0644)))
		die_errno("%s", path);
	return fp;
}

/* Write one document to path ("-": stdout) in the group g. */
static void
write_doc(const struct bst_study *s, struct atomic_group *g, const char *path,
    void (*fn)(const struct bst_study *, FILE *))
{
	fn(s, doc_open(g, path));
}

/* Rename every output of the run into place, or leave all as they were. */
static void
commit_outputs(struct atomic_group *g)
{
	char *bad;

	ndj_output_stream(NULL);	/* the group closes the records' file */
	if (atomic_group_commit(g, &bad) < 0)
		die("%s: cannot write: %s; no output written", bad,
		    strerror(errno));
}

/*
 * The results browser; with --compare, the other run's records read and
 * analysed as this run's are (same options), and shown beside it.
 */
static void
write_html(const struct bst_study *s, const struct outputs *o,
    struct atomic_group *g)
{
	struct bst_study other = { 0 };
	const char *label;

	if (o->compare) {
		other.opt = s->opt;
		ndj_run(1, (char *const *)&o->compare, each, NULL, &other);
		if (other.nobs == 0)
			die("%s: no primary scored records to compare", o->compare);
		bstats_analyse(&other);
	}
	label = o->compare ? strrchr(o->compare, '/') : NULL;
	label = label ? label + 1 : o->compare;
	bstats_html(s, o->compare ? &other : NULL, label, doc_open(g, o->html));
	if (o->compare)
		bstats_free(&other);
}

/*
 * --config: the variants and comparisons the study declares (variants.h
 * checks them, naming the file and field), before any record is read.
 */
static void
declare(struct bst_study *s, const char *path)
{
	json_t *cfg = study_config_load(path);
	struct variants vs = { 0 };
	struct bst_variant *v;
	struct bst_cmp *c;
	size_t i;

	variants_load(&vs, cfg, path);
	v = xreallocarray(NULL, vs.nv + 1, sizeof *v);
	c = xreallocarray(NULL, vs.nc + 1, sizeof *c);
	for (i = 0; i < vs.nv; i++) {
		v[i].name = vs.v[i].name;
		v[i].of = vs.v[i].of;
	}
	for (i = 0; i < vs.nc; i++) {
		c[i].x = vs.c[i].x;
		c[i].y = vs.c[i].y;
		c[i].family = NULL;
	}
	bstats_declare(s, v, vs.nv, c, vs.nc);
	free(v);
	free(c);
	variants_free(&vs);
	json_decref(cfg);
}

/* bstats --power: the records, and the report section with -r. */
static void
power_run(struct bst_study *s, struct outputs *o, int nfiles)
{
	struct atomic_group *g;
	json_t *res, *r;
	size_t i;

	if (nfiles > 0 || o->figures || o->html || o->conformance || o->drift ||
	    o->config)
		die_usage("--power reads the design only: no records, figures, "
		    "--html, --conformance, --drift or --config");
	if (o->power.as.icc_site + o->power.as.icc_model +
	    o->power.as.icc_question > 1)
		die_usage("--icc-site, --icc-model and --icc-question: shares of "
		    "one variance, their sum at most 1");
	o->power.seed = s->opt.seed;
	o->power.alpha = s->opt.alpha;
	g = atomic_group_new();
	ndj_output_stream(doc_open(g, o->output ? o->output : "-"));
	res = bstats_power(&o->power);
	json_array_foreach(res, i, r)
		ndj_emit(r);
	if (o->report) {
		s->results = res;
		write_doc(s, g, o->report, power_doc);
	}
	commit_outputs(g);
	json_decref(res);
	s->results = NULL;
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
	if (s->nvar + s->nvar_other > 0 || s->ncmp > 0)
		fprintf(stderr, "bstats: %zu rating%s of variant conditions (%zu "
		    "not used: not primary, or under another rubric); %zu "
		    "exploratory comparison%s\n", s->nvar + s->nvar_other,
		    s->nvar + s->nvar_other == 1 ? "" : "s", s->nvar_other, s->ncmp,
		    s->ncmp == 1 ? "" : "s");
	return s->npairs == 0 && s->nalt == 0;
}

/*
 * The analyses allocate and free arrays of a few MB, one value per pair,
 * again and again; glibc gives such a block back to the system when it is
 * freed and zeroes fresh pages for the next (a quarter of a 100-times
 * study's page faults, a tenth of its CPU).  Blocks under 32 MB come from
 * the heap and 64 MB of free heap is kept: a few MB more at the peak.
 */
static void
malloc_keep(void)
{
#ifdef __GLIBC__
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int
main(int argc, char **argv)
{
	struct bst_study s = { 0 };
	struct outputs o = { 0 };
	struct atomic_group *g;
	size_t i;
	json_t *r;
	int untested;

	ctx_init(argv[0]);
	malloc_keep();
	s.opt.seed = 42;
	s.opt.nboot = 10000;
	s.opt.alpha = 0.05;
	s.opt.level = 0.95;
	power_defaults(&o.power);
	parse_options(argc, argv, &s, &o);
	if (o.compare && !o.html)
		die_usage("--compare needs --html");
	if (o.power.design) {
		power_run(&s, &o, argc - optind);
		ctx_exit();
	}
	s.opt.keep_records = o.html != NULL;
	if (o.conformance)
		bstats_conformance(&s, o.conformance);
	if (o.drift)
		bstats_drift(&s, o.drift);
	if (o.config)
		declare(&s, o.config);
	g = atomic_group_new();
	ndj_output_stream(doc_open(g, o.output ? o.output : "-"));
	ndj_run(argc - optind, argv + optind, each, NULL, &s);
	if (s.nobs == 0 && s.nalt == 0)
		die("no primary scored records in the input");
	bstats_analyse(&s);
	json_array_foreach(s.results, i, r)
		ndj_emit(r);
	if (o.report)
		write_doc(&s, g, o.report, bstats_report);
	if (o.figures)
		bstats_figures(&s, g, o.figures);
	if (o.html)
		write_html(&s, &o, g);
	commit_outputs(g);
	untested = summary(&s);
	bstats_free(&s);
	if (untested) {
		/* every output is written, so that section 1 says why */
		die("no scored pair: no (site, question, model) has a usable "
		    "rating under both conditions, so nothing was tested (section 1 "
		    "of the report and the exclusion_accounting record count where "
		    "the records went)");
	}
	ctx_exit();
}
