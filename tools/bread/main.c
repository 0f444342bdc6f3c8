/*
 * bread - Condition A content extraction (spec 001 §2.2, §2.5).
 *
 * Record mode reads manifest records (NDJSON), and for each successful
 * condition A fetch reads the archived page and adds text, title, byline,
 * excerpt, content_chars, extractor, and exclusion_reason "JS_ONLY" when
 * the text is shorter than min_content_length_chars.  --variant NAME
 * extracts a condition variant of A instead (A-markdown: -m; A-whole:
 * --whole) and stamps "variant": NAME on every condition A record, so that
 * bctx assemble keeps its pages apart from condition A's.  Other records
 * pass through untouched.  Raw mode (operands that are not .ndjson/.jsonl/.json
 * files, or --raw) prints the text of each page.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "xmem.h"
#include "ctx.h"
#include "archive.h"
#include "bread.h"

#define MAX_PAGE ((size_t)1 << 30)

static const char usage[] =
    "usage: bread [-jmrw] [-a ARCHIVE] [-c CONFIG] [-o OUTPUT] [-t TYPE]\n"
    "             [--allow-empty] [--min-chars N] [--variant NAME] [FILE ...]\n"
    "Extract the main content of HTML pages the way Readability.js does.\n"
    "Record mode: FILEs (or stdin) are manifest records (NDJSON); each\n"
    "successful condition A record receives text, title, byline, excerpt,\n"
    "content_chars, extractor and, under the length threshold,\n"
    "exclusion_reason \"JS_ONLY\".  Raw mode: FILEs are HTML pages and their\n"
    "text is printed.\n"
    "  -a, --archive DIR       archive directory (default $CTXBENCH_ARCHIVE or archive)\n"
    "      --allow-empty       record mode: extracting nothing is not an error\n"
    "  -c, --config FILE       benchmark-config.json (extraction.min_content_length_chars)\n"
    "  -h, --help              show this help\n"
    "  -j, --json              raw mode: print one JSON object per page\n"
    "  -m, --markdown          Markdown-ish text (# headings, - lists, ``` fences)\n"
    "      --min-chars N       JS_ONLY threshold in characters (default 50)\n"
    "  -o, --output FILE       write the output to FILE (atomically)\n"
    "  -r, --raw               treat every FILE (or stdin) as an HTML page\n"
    "  -t, --content-type TYPE raw mode: the HTTP Content-Type of the pages\n"
    "      --variant NAME      record mode: the condition variant A-markdown\n"
    "                          (as -m) or A-whole (as -w), stamped on the records\n"
    "  -V, --version           print the version\n"
    "  -w, --whole             no extraction: the text of the whole <body>\n";

struct cfg {
	struct bread_opts opts;
	const char *archive;
	long long min_chars;
	int json;
	const char *content_type;
	const char *variant;	/* --variant: stamped on condition A records */
	int allow_empty;	/* --allow-empty: extracting nothing is no error */
	/* record mode: records read, extracted (JS_ONLY among them), of condition B */
	size_t nrec, extracted, js_only, cond_b;
};

static int
is_record_file(const char *path, int archive_given)
{
	size_t n = strlen(path);
	static const char *const ext[] = { ".ndjson", ".jsonl", ".json", NULL };
	const char *const *e;
	struct stat st;

	if (strcmp(path, "-") == 0)
		return 1;
	for (e = ext; *e; e++) {
		size_t k = strlen(*e);
		if (n > k && strcmp(path + n - k, *e) == 0)
			return 1;
	}
	/*
	 * A pipe has no name to tell by (<(...), /dev/stdin): with an archive
	 * named, what is not a regular file carries records, so nothing is
	 * read twice to guess.
	 */
	return archive_given && stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* Reject archive paths that leave the archive. */
static int
safe_relpath(const char *p)
{
	const char *s = p;

	if (*p == '\0' || *p == '/')
		return 0;
	while (*s) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return 0;
		if (!e)
			break;
		s = e + 1;
	}
	return 1;
}

/*
 * A condition A record says which extraction its text is: "variant" is
 * NAME under --variant NAME, and absent (condition A itself) otherwise.
 */
static void
stamp_variant(json_t *rec, const char *variant)
{
	if (variant)
		json_set_str(rec, "variant", variant);
	else
		json_object_del(rec, "variant");
}

static int
each_record(json_t *rec, void *vctx)
{
	struct cfg *c = vctx;
	const char *cond = rec_str_opt(rec, "condition");
	const char *status = rec_str_opt(rec, "fetch_status");
	const char *ap, *ct;
	char *data;
	size_t len, chars;
	struct bread_result res;
	json_t *ex;

	c->nrec++;
	if (status == NULL && json_object_get(rec, "fetch_status") == NULL)
		ndj_die("no fetch_status: bread reads bfetch's manifest records "
		    "(run bfetch first)");
	if (cond && strcmp(cond, "B") == 0)
		c->cond_b++;
	if (cond && strcmp(cond, "A") == 0)
		stamp_variant(rec, c->variant);
	if (cond == NULL || strcmp(cond, "A") != 0 ||
	    status == NULL || strcmp(status, "SUCCESS") != 0) {
		ndj_emit(rec);
		return 0;
	}
	ap = rec_str_opt(rec, "archive_path");
	if (ap == NULL)
		ndj_die("archive_path: expected a string for a successful fetch");
	if (!safe_relpath(ap))
		ndj_die("archive_path: expected a path inside the archive, got \"%s\"", ap);
	ct = rec_str_opt(rec, "content_type");
	data = archive_read(c->archive, rec, &len, MAX_PAGE);
	bread_extract(data, len, ct, &c->opts, &res);
	free(data);
	chars = utf8_count(res.text, res.text_len);
	json_set_strn(rec, "text", res.text, res.text_len);
	json_set_str(rec, "title", res.title);
	json_set_str(rec, "byline", res.byline);
	json_set_str(rec, "excerpt", res.excerpt);
	json_set_int(rec, "content_chars", (long long)chars);
	ex = json_object();
	json_set_str(ex, "name", BREAD_EXTRACTOR_NAME);
	json_set_str(ex, "version", CTX_VERSION);
	json_set_new(rec, "extractor", ex);
	c->extracted++;
	if ((long long)chars < c->min_chars) {
		json_set_str(rec, "exclusion_reason", "JS_ONLY");
		c->js_only++;
	}
	else if (json_is_string(json_object_get(rec, "exclusion_reason")) &&
	    strcmp(json_string_value(json_object_get(rec, "exclusion_reason")),
	    "JS_ONLY") == 0)
		json_object_del(rec, "exclusion_reason");
	bread_result_release(&res);
	ndj_emit(rec);
	return 0;
}

/*
 * --variant NAME: the extraction of a condition variant of A (variants.h);
 * it sets the style itself, so -m and -w are not given with it.
 */
static void
set_variant(struct cfg *c)
{
	if (c->opts.style == BREAD_MARKDOWN || c->opts.whole)
		die_usage("--variant sets the extraction: it takes no -m or -w");
	if (strcmp(c->variant, "A-markdown") == 0)
		c->opts.style = BREAD_MARKDOWN;
	else if (strcmp(c->variant, "A-whole") == 0)
		c->opts.whole = 1;
	else
		die_usage("--variant: expected A-markdown or A-whole, got '%s' "
		    "(B-plain and prompt variants need no extraction of their own)",
		    c->variant);
}

/* The end of a record run: nothing extracted is an error; then the summary. */
static void
record_summary(const struct cfg *c, int argc, char **argv)
{
	const char *from = argc == 1 ? argv[0] : argc ? "the input" : "<stdin>";

	if (c->extracted == 0 && c->nrec && c->cond_b == c->nrec)
		die_empty(c->allow_empty, "%s: all %zu records are of condition B, "
		    "nothing extracted: bread extracts condition A (HTML); "
		    "condition B goes to bmdprep", from, c->nrec);
	if (c->extracted == 0)
		die_empty(c->allow_empty, "%s: no successful condition A fetch "
		    "among %zu records, nothing extracted", from, c->nrec);
	warn("records: %zu  extracted %zu (JS_ONLY %zu)  passed through untouched %zu",
	    c->nrec, c->extracted, c->js_only, c->nrec - c->extracted);
}

static void
raw_page(struct cfg *c, const char *path)
{
	struct bread_result res;
	size_t len;
	char *data = read_file(path, &len, MAX_PAGE);
	FILE *out = ndj_output();

	if (data == NULL)
		die("%s: %s", strcmp(path, "-") ? path : "<stdin>",
		    errno == EFBIG ? "page larger than 1 GiB" : strerror(errno));
	bread_extract(data, len, c->content_type, &c->opts, &res);
	free(data);
	if (c->json) {
		json_t *o = json_object();
		json_set_str(o, "file", path);
		json_set_str(o, "title", res.title);
		json_set_str(o, "byline", res.byline);
		json_set_str(o, "excerpt", res.excerpt);
		json_set_str(o, "charset", res.charset);
		json_set_int(o, "content_chars",
		    (long long)utf8_count(res.text, res.text_len));
		json_set_strn(o, "text", res.text, res.text_len);
		ndj_emit_free(o);
	} else if (res.text_len > 0) {
		fwrite(res.text, 1, res.text_len, out);
		fputc('\n', out);
	}
	bread_result_release(&res);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "allow-empty", no_argument, NULL, 'E' },
		{ "archive", required_argument, NULL, 'a' },
		{ "config", required_argument, NULL, 'c' },
		{ "content-type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "markdown", no_argument, NULL, 'm' },
		{ "min-chars", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "raw", no_argument, NULL, 'r' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "whole", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct cfg c;
	const char *config = NULL, *output = NULL;
	long long min_opt = -1;
	int ch, raw = 0, i, nrec = 0;

	ctx_init(argv[0]);
	/*
	 * libxml2 allocates through the checked allocators, each page's tree
	 * from an arena (xmem.h): a failed allocation dies, where libxml2
	 * would report it and go on with a shorter document, and bread would
	 * extract less than the page holds.
	 */
	bread_xmem_install();
	memset(&c, 0, sizeof c);
	c.archive = getenv("CTXBENCH_ARCHIVE");
	if (c.archive == NULL || *c.archive == '\0')
		c.archive = "archive";
	c.min_chars = 50;
	while ((ch = opt_getopt(argc, argv, "a:c:hjmo:rt:Vw", longopts, NULL)) != -1) {
		switch (ch) {
		case 'E':
			c.allow_empty = 1;
			break;
		case 'a':
			c.archive = optarg;
			break;
		case 'c':
			config = optarg;
			break;
		case 'h':
			opt_help(usage);
			break;
		case 'j':
			c.json = 1;
			break;
		case 'm':
			c.opts.style = BREAD_MARKDOWN;
			break;
		case 'M':
			min_opt = opt_int("--min-chars", optarg, 0, 1000000000);
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			raw = 1;
			break;
		case 't':
			c.content_type = optarg;
			break;
		case 'v':
			c.variant = optarg;
			break;
		case 'V':
			opt_version();
			break;
		case 'w':
			c.opts.whole = 1;
			break;
		default:
			die_usage("unknown option");
		}
	}
	argc -= optind;
	argv += optind;
	if (c.variant)
		set_variant(&c);
	for (i = 0; i < argc; i++)
		nrec += is_record_file(argv[i], c.archive != NULL);
	if (!raw && nrec > 0 && nrec < argc)
		die_usage("record files and HTML pages cannot be mixed (use --raw)");
	if (!raw && argc > 0 && nrec == 0)
		raw = 1;
	if (!raw && (c.json || c.content_type))
		die_usage("--json and --content-type apply to raw mode");
	if (config) {
		json_t *cfg = study_config_load(config);
		c.min_chars = cfg_int(cfg, "extraction.min_content_length_chars", 50);
		json_decref(cfg);
	}
	if (min_opt >= 0)
		c.min_chars = min_opt;
	ndj_output_open(output);
	if (raw) {
		if (argc == 0)
			raw_page(&c, "-");
		for (i = 0; i < argc; i++)
			raw_page(&c, argv[i]);
	} else {
		ndj_run(argc, argv, each_record, NULL, &c);
		record_summary(&c, argc, argv);
	}
	ctx_exit();
}
