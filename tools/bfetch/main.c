/*
 * bfetch - fetch the pages of a study once into an immutable archive
 * (spec 001 §2.1, §2.5).
 *
 * Reads fetch jobs ({site_id, url, condition}, NDJSON) or site-list.csv
 * (--sites), fetches them with the engine (engine.c: libcurl multi, robots.txt,
 * per-host politeness), stores bodies under ARCHIVE/{html,markdown,llms}/
 * {site_id}/{url_hash}.{html,md,txt}, appends one manifest record per fetch to
 * ARCHIVE/manifest.ndjson (one write, at once) and writes the same records
 * on stdout in input order.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <libxml/xmlmemory.h>

#include "ctx.h"
#include "bfetch.h"

static const char usage[] =
"usage: bfetch [-a DIR] [-c FILE] [-j N] [-o FILE] [-r MS] [-t SECONDS]\n"
"              [-A AGENT] [--allow-empty] [--cacert FILE] [--capath DIR]\n"
"              [--connect-to HOST:PORT:ADDR:PORT] [--dry-run] [--fsync]\n"
"              [--max-redirs N]\n"
"              [--max-size SIZE] [--min-text N] [--no-robots] [--per-host N]\n"
"              [--resolve HOST:PORT:ADDR] [--resume] [--retry N] [--site ID]\n"
"              [--sites site-list.csv | FILE...]\n"
"Fetch pages once into an immutable archive; one manifest record per job.\n"
"  -A, --user-agent AGENT  User-Agent (default: archive_protocol.user_agent)\n"
"  -a, --archive DIR       archive directory ($CTXBENCH_ARCHIVE, else archive)\n"
"      --allow-empty       a run that selects no job is not an error\n"
"      --cacert FILE       CA certificates to verify https servers with\n"
"      --capath DIR        directory of CA certificates (c_rehash form)\n"
"  -c, --config FILE       benchmark-config.json (archive_protocol, extraction)\n"
"      --connect-to H:P:A:Q  connect to A port Q for host H port P (curl\n"
"                          --connect-to): archive from a mirror\n"
"      --dry-run           print what would be fetched; no network, no writes\n"
"      --fsync             fsync each archived file before it is renamed\n"
"  -h, --help              show this help\n"
"  -j, --jobs N            requests in flight in total (default 16)\n"
"      --max-redirs N      redirects followed (default 10)\n"
"      --max-size SIZE     body cap, K/M/G suffixes (default 32M)\n"
"      --min-text N        JS_ONLY under N visible characters (default:\n"
"                          extraction.min_content_length_chars, else 50)\n"
"      --no-robots         do not fetch or obey robots.txt\n"
"  -o, --output FILE       write the records to FILE (atomically)\n"
"      --per-host N        requests in flight per host (default 1)\n"
"  -r, --rate-limit MS     delay between request starts on a host; 0: off\n"
"                          (default: archive_protocol.rate_limit_ms, else 1000)\n"
"      --resolve H:P:A     resolve host H port P to address A (curl --resolve)\n"
"      --resume            skip jobs archived as SUCCESS; retry the rest\n"
"      --retry N           retry transient failures up to N times (default 0)\n"
"      --site ID           only the jobs of site ID (comma-separated list)\n"
"      --sites FILE        jobs for every site's llms.txt (and llms-full.txt)\n"
"  -t, --timeout SECONDS   connect+transfer timeout (default:\n"
"                          archive_protocol.fetch_timeout_seconds, else 30)\n"
"  -V, --version           show the version\n";

enum {
	OPT_ALLOW_EMPTY = 256, OPT_CACERT, OPT_CAPATH, OPT_CONNECT_TO, OPT_DRY_RUN, OPT_FSYNC, OPT_MAX_REDIRS, OPT_MAX_SIZE, OPT_MIN_TEXT,
	OPT_NO_ROBOTS, OPT_PER_HOST, OPT_RESOLVE, OPT_RESUME, OPT_RETRY,
	OPT_SITE, OPT_SITES
};

static const struct option longopts[] = {
	{ "user-agent", required_argument, NULL, 'A' },
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "archive", required_argument, NULL, 'a' },
	{ "cacert", required_argument, NULL, OPT_CACERT },
	{ "capath", required_argument, NULL, OPT_CAPATH },
	{ "config", required_argument, NULL, 'c' },
	{ "connect-to", required_argument, NULL, OPT_CONNECT_TO },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "help", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-redirs", required_argument, NULL, OPT_MAX_REDIRS },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "min-text", required_argument, NULL, OPT_MIN_TEXT },
	{ "no-robots", no_argument, NULL, OPT_NO_ROBOTS },
	{ "output", required_argument, NULL, 'o' },
	{ "per-host", required_argument, NULL, OPT_PER_HOST },
	{ "rate-limit", required_argument, NULL, 'r' },
	{ "resolve", required_argument, NULL, OPT_RESOLVE },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "retry", required_argument, NULL, OPT_RETRY },
	{ "site", required_argument, NULL, OPT_SITE },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "timeout", required_argument, NULL, 't' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* A port field: empty (when may_empty) or 1 to 65535. */
static int
port_ok(const char *s, size_t n, int may_empty)
{
	char buf[8];
	long long pn;

	if (n == 0)
		return may_empty;
	if (n >= sizeof buf)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return parse_int(buf, &pn) == 0 && pn >= 1 && pn <= 65535;
}

/*
 * --connect-to HOST:PORT:ADDR:PORT, as curl takes it: HOST and either PORT
 * may be empty (any); HOST and ADDR may be [IPv6] literals.
 */
static struct curl_slist *
add_connect_to(struct curl_slist *list, const char *arg)
{
	const char *f[5], *p = arg;
	int n = 0, depth = 0;
	struct curl_slist *l;

	f[n++] = arg;
	for (; *p; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth > 0)
			depth--;
		else if (*p == ':' && depth == 0 && n < 5)
			f[n++] = p + 1;
	}
	if (n != 4 || f[3] == f[2] + 1)
		die_usage("--connect-to: expected HOST:PORT:ADDRESS:PORT, got '%s'",
		    arg);
	if (!port_ok(f[1], (size_t)(f[2] - f[1] - 1), 1) ||
	    !port_ok(f[3], strlen(f[3]), 1))
		die_usage("--connect-to: expected ports from 1 to 65535 in "
		    "HOST:PORT:ADDRESS:PORT, got '%s'", arg);
	if ((l = curl_slist_append(list, arg)) == NULL)
		die("out of memory");
	return l;
}

/* --resolve HOST:PORT:ADDRESS, as curl takes it. */
static struct curl_slist *
add_resolve(struct curl_slist *list, const char *arg)
{
	const char *c1 = strchr(arg, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	struct curl_slist *l;

	if (c1 == NULL || c2 == NULL || c1 == arg || c2[1] == '\0')
		die_usage("--resolve: expected HOST:PORT:ADDRESS");
	if (!port_ok(c1 + 1, (size_t)(c2 - c1 - 1), 0))
		die_usage("--resolve: expected a port from 1 to 65535 in "
		    "HOST:PORT:ADDRESS");
	if ((l = curl_slist_append(list, arg)) == NULL)
		die("out of memory");
	return l;
}

/* What the command line gives before the config file fills the rest. */
struct cli {
	const char *archive, *config, *output, *ua, *sites_csv;
	long long rate, min_text;
	double timeout;
	int robots;
};

/* One option into cli or run->o. */
static void
option(int c, struct cli *cli, struct bfetch_run *run)
{
	struct bfetch_opts *o = &run->o;

	switch (c) {
	case 'A': cli->ua = optarg; break;
	case 'a': cli->archive = optarg; break;
	case OPT_ALLOW_EMPTY: run->allow_empty = 1; break;
	case 'c': cli->config = optarg; break;
	case OPT_CACERT: o->cacert = optarg; break;
	case OPT_CAPATH: o->capath = optarg; break;
	case OPT_CONNECT_TO:
		o->connect_to = add_connect_to(o->connect_to, optarg);
		break;
	case OPT_DRY_RUN: run->dry = 1; break;
	case OPT_FSYNC: o->fsync_data = 1; break;
	case 'h': opt_help(usage); break;
	case 'j': o->jobs = (long)opt_int("--jobs", optarg, 1, 10000); break;
	case OPT_MAX_REDIRS:
		o->max_redirs = (long)opt_int("--max-redirs", optarg, 0, 100);
		break;
	case OPT_MAX_SIZE:
		o->max_size = opt_size("--max-size", optarg);
		if (o->max_size == 0)
			die_usage("--max-size: expected a size above 0");
		break;
	case OPT_MIN_TEXT:
		cli->min_text = opt_int("--min-text", optarg, 0, 1000000);
		break;
	case OPT_NO_ROBOTS: cli->robots = 0; break;
	case 'o': cli->output = optarg; break;
	case OPT_PER_HOST:
		o->per_host = (long)opt_int("--per-host", optarg, 1, 1000);
		break;
	case 'r': cli->rate = opt_int("--rate-limit", optarg, 0, 3600000); break;
	case OPT_RESOLVE: o->resolve = add_resolve(o->resolve, optarg); break;
	case OPT_RESUME: run->resume = 1; break;
	case OPT_RETRY: o->retry = (long)opt_int("--retry", optarg, 0, 20); break;
	case OPT_SITE:
		strv_free(run->sites);
		run->sites = strv_split(optarg, ',');
		if (run->sites[0] == NULL)
			die_usage("--site: expected a site id");
		break;
	case OPT_SITES: cli->sites_csv = optarg; break;
	case 't': cli->timeout = opt_real("--timeout", optarg, 0.001, 86400); break;
	case 'V': opt_version(); break;
	default: die_usage("unknown option");
	}
}

/* The options not given, from the config (archive_protocol) or defaults. */
static void
configure(const struct cli *cli, struct bfetch_opts *o)
{
	json_t *cfg = cli->config ? study_config_load(cli->config) : NULL;
	const char *archive = cli->archive ? cli->archive :
	    getenv("CTXBENCH_ARCHIVE");
	double timeout = cli->timeout;
	long long rate = cli->rate, min_text = cli->min_text;

	o->archive = archive && *archive ? archive : "archive";
	o->user_agent = xstrdup(cli->ua ? cli->ua : cfg_str(cfg,
	    "archive_protocol.user_agent", "ctxbench-bfetch/" CTX_VERSION));
	o->product = bfetch_product_token(o->user_agent);
	if (*o->product == '\0')
		die_usage("--user-agent: expected a product token first "
		    "(letters, '_' or '-'), as RFC 9309 matches on it");
	if (timeout < 0)
		timeout = (double)cfg_num(cfg,
		    "archive_protocol.fetch_timeout_seconds", 30);
	if (timeout <= 0)
		die("%s: archive_protocol.fetch_timeout_seconds: expected a "
		    "positive number", cli->config);
	o->timeout_ms = (long)(timeout * 1000.0 + 0.5);
	if (rate < 0)
		rate = cfg_int(cfg, "archive_protocol.rate_limit_ms", 1000);
	if (rate < 0)
		die("%s: archive_protocol.rate_limit_ms: expected 0 or more",
		    cli->config);
	o->rate_ms = (long)rate;
	o->robots = cli->robots >= 0 ? cli->robots :
	    cfg_bool(cfg, "archive_protocol.respect_robots_txt", 1);
	if (min_text < 0)
		min_text = cfg_int(cfg, "extraction.min_content_length_chars", 50);
	o->min_text = (size_t)min_text;
	json_decref(cfg);
}

int
main(int argc, char **argv)
{
	struct bfetch_run run;
	struct cli cli = { NULL, NULL, NULL, NULL, NULL, -1, -1, -1, -1 };
	int c, rc;

	ctx_init(argv[0]);
	/*
	 * libxml2 (the visible-text count of classify.c) allocates through
	 * the checked allocators, as in bread: a failed allocation dies, where
	 * libxml2 would stop parsing and the page would count fewer visible
	 * characters than it holds (a JS_ONLY recorded against the site).
	 */
	xmlMemSetup(free, xmalloc, xrealloc, xstrdup);
	memset(&run, 0, sizeof run);
	run.o.jobs = 16;
	run.o.per_host = 1;
	run.o.max_redirs = 10;
	run.o.max_size = 32ULL << 20;
	while ((c = opt_getopt(argc, argv, "A:a:c:hj:o:r:t:V", longopts,
	    NULL)) != -1)
		option(c, &cli, &run);
	if (cli.sites_csv && optind < argc)
		die_usage("--sites and input files are exclusive");
	configure(&cli, &run.o);
	ndj_output_open(cli.output);
	rc = bfetch_run(&run, cli.sites_csv, argc - optind, argv + optind);
	bfetch_run_free(&run);
	free((char *)run.o.user_agent);
	free(run.o.product);
	curl_slist_free_all(run.o.resolve);
	curl_slist_free_all(run.o.connect_to);
	strv_free(run.sites);
	ctx_exit_status(rc);
}
