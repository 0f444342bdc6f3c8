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

#include "ctx.h"
#include "bfetch.h"

static const char usage[] =
"usage: bfetch [-a DIR] [-c FILE] [-j N] [-o FILE] [-r MS] [-t SECONDS]\n"
"              [-A AGENT] [--cacert FILE] [--capath DIR]\n"
"              [--connect-to HOST:PORT:ADDR:PORT] [--dry-run] [--fsync]\n"
"              [--max-redirs N]\n"
"              [--max-size SIZE] [--min-text N] [--no-robots] [--per-host N]\n"
"              [--resolve HOST:PORT:ADDR] [--resume] [--retry N] [--site ID]\n"
"              [--sites site-list.csv | FILE...]\n"
"Fetch pages once into an immutable archive; one manifest record per job.\n"
"  -A, --user-agent AGENT  User-Agent (default: archive_protocol.user_agent)\n"
"  -a, --archive DIR       archive directory ($CTXBENCH_ARCHIVE, else archive)\n"
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
	OPT_CACERT = 256, OPT_CAPATH, OPT_CONNECT_TO, OPT_DRY_RUN, OPT_FSYNC, OPT_MAX_REDIRS, OPT_MAX_SIZE, OPT_MIN_TEXT,
	OPT_NO_ROBOTS, OPT_PER_HOST, OPT_RESOLVE, OPT_RESUME, OPT_RETRY,
	OPT_SITE, OPT_SITES
};

static const struct option longopts[] = {
	{ "user-agent", required_argument, NULL, 'A' },
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

/* The fields bfetch owns in a manifest record (copied on resume and dups). */
static const char *const fetch_fields[] = {
	"url_hash", "fetch_timestamp", "http_status", "content_type",
	"content_length_bytes", "last_modified", "etag", "fetch_status",
	"failure_reason", "final_url", "redirect_count", "redirect_chain",
	"content_sha256", "archive_path", "elapsed_ms", "remote_address",
	"proxy", "connect_to", "resolve", "retry_after", "attempts", NULL
};

struct run {
	struct bfetch_opts o;
	struct bfetch_job *jobs;
	size_t njobs, cap;
	long *primary;		/* index of the job this one duplicates, or -1 */
	char *has_dups;		/* some later job duplicates this one */
	size_t next_out;
	int manifest_fd;
	char *manifest_path;
};

static char *
job_key(const char *site, const char *cond, const char *url)
{
	return xasprintf("%s\x1f%s\x1f%s", site, cond, url);
}

/* Check and complete a job read at the current input position. */
static void
add_job(struct run *run, json_t *rec)
{
	struct bfetch_job *j;
	const char *fu;
	int kind;

	if (run->njobs == run->cap) {
		run->cap = run->cap ? run->cap * 2 : 64;
		run->jobs = xreallocarray(run->jobs, run->cap, sizeof *run->jobs);
	}
	j = &run->jobs[run->njobs];
	memset(j, 0, sizeof *j);
	j->rec = rec;
	j->site_id = rec_str(rec, "site_id");
	j->url = rec_str(rec, "url");
	j->condition = rec_str(rec, "condition");
	fu = rec_str_opt(rec, "fetch_url");
	if (!bfetch_site_id_ok(j->site_id))
		ndj_die("site_id: expected letters, digits, '.', '_' or '-' "
		    "(it names a directory), got '%.60s'", j->site_id);
	kind = bfetch_condition_kind(j->condition);
	if (kind < 0)
		ndj_die("condition: expected A, B, llms_txt or llms_full_txt, "
		    "got '%.60s'", j->condition);
	if (*j->url == '\0')
		ndj_die("url: expected a non-empty string");
	j->kind = (enum bfetch_kind)kind;
	if (fu && *fu) {
		j->fetch_url = xstrdup(fu);
	} else {
		const char *hash = strchr(j->url, '#');

		j->fetch_url = hash ? xstrndup(j->url, (size_t)(hash - j->url)) :
		    xstrdup(j->url);
	}
	sha256_hex(j->url, strlen(j->url), j->hash);
	j->rel = xasprintf("%s/%s/%s%s", bfetch_kind_dir(j->kind), j->site_id,
	    j->hash, bfetch_kind_ext(j->kind));
	run->njobs++;
}

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

static int
site_selected(char **sites, const char *id)
{
	size_t i;

	if (sites == NULL)
		return 1;
	for (i = 0; sites[i]; i++)
		if (strcmp(sites[i], id) == 0)
			return 1;
	return 0;
}

/* --sites: llms.txt of every site not EXCLUDED, and llms-full.txt where listed. */
static void
jobs_from_sites(struct run *run, const char *path, char **sites)
{
	json_t *list = study_sites_load(path), *s;
	size_t i;

	ndj_set_where(path, 0);
	json_array_foreach(list, i, s) {
		const char *id = json_string_value(json_object_get(s, "site_id"));
		const char *llms = json_string_value(json_object_get(s, "llms_txt_url"));
		const char *st = json_string_value(json_object_get(s,
		    "verification_status"));
		json_t *j;

		if (!site_selected(sites, id) || (st && strcmp(st, "EXCLUDED") == 0))
			continue;
		ndj_set_where(path, (unsigned long)i + 2);
		j = json_pack("{s:s,s:s,s:s,s:O}", "site_id", id, "url", llms,
		    "condition", "llms_txt", "domain", json_object_get(s, "domain"));
		add_job(run, j);
		if (json_is_true(json_object_get(s, "has_llms_full"))) {
			const char *slash = strrchr(llms, '/');
			size_t base = slash ? (size_t)(slash - llms) + 1 : strlen(llms);
			char *full = xasprintf("%.*sllms-full.txt", (int)base, llms);

			j = json_pack("{s:s,s:s,s:s,s:O}", "site_id", id, "url", full,
			    "condition", "llms_full_txt", "domain",
			    json_object_get(s, "domain"));
			free(full);
			add_job(run, j);
		}
	}
	json_decref(list);
}

static void
jobs_from_files(struct run *run, int n, char **files, char **sites)
{
	int i;

	for (i = 0; i < (n ? n : 1); i++) {
		struct ndj_reader r;
		json_t *rec;

		ndj_reader_open(&r, n ? files[i] : "-");
		while ((rec = ndj_next(&r)) != NULL) {
			const char *id = rec_str(rec, "site_id");

			if (site_selected(sites, id))
				add_job(run, rec);
			else
				json_decref(rec);
		}
		ndj_reader_close(&r);
	}
}

/* result of job = its own fields + the fetch fields of from. */
static json_t *
overlay(const json_t *rec, const json_t *from)
{
	json_t *o = json_copy((json_t *)rec);
	size_t i;

	if (o == NULL)
		die("out of memory");
	for (i = 0; fetch_fields[i]; i++) {
		json_t *v = json_object_get(from, fetch_fields[i]);

		if (v)
			json_object_set(o, fetch_fields[i], v);
	}
	return o;
}

static void
flush_out(struct run *run)
{
	while (run->next_out < run->njobs && run->jobs[run->next_out].result) {
		struct bfetch_job *j = &run->jobs[run->next_out];

		ndj_emit(j->result);
		/* done with this job: keep only the "emitted" mark */
		json_decref(j->result);
		j->result = json_null();
		json_decref(j->rec);
		j->rec = NULL;
		j->site_id = j->url = j->condition = NULL;
		run->next_out++;
	}
}

static void
manifest_append(struct run *run, const json_t *rec)
{
	size_t len;
	char *s = json_compact(rec, &len);
	char *line = xmalloc(len + 1);
	size_t off = 0;

	memcpy(line, s, len);
	line[len] = '\n';
	/* One write(2) of the whole line on an O_APPEND descriptor. */
	while (off < len + 1) {
		ssize_t w = write(run->manifest_fd, line + off, len + 1 - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die_errno("%s", run->manifest_path);
		}
		off += (size_t)w;
	}
	free(line);
	free(s);
}

static void
on_done(size_t ji, void *arg)
{
	struct run *run = arg;
	size_t k;

	manifest_append(run, run->jobs[ji].result);
	for (k = ji + 1; run->has_dups[ji] && k < run->njobs; k++)
		if (run->primary[k] == (long)ji)
			run->jobs[k].result = overlay(run->jobs[k].rec,
			    run->jobs[ji].result);
	flush_out(run);
}

/*
 * The manifest already there: its records by key (the last one wins), and
 * whether its final line was cut by a kill (then it is dropped).
 */
struct manifest {
	char *text;
	size_t len;
	json_t **recs;		/* one per line; NULL for a cut final line */
	size_t *off, *llen;
	size_t n;
	json_t *bykey;		/* key -> index of the last record */
	int cut;
};

static void
manifest_load(struct manifest *m, const char *path)
{
	size_t i = 0, cap = 0;
	unsigned long line = 0;

	memset(m, 0, sizeof *m);
	m->bykey = json_object();
	m->text = read_file(path, &m->len, 0);
	if (m->text == NULL) {
		if (errno == ENOENT)
			return;
		die_errno("%s", path);
	}
	while (i < m->len) {
		const char *nl = memchr(m->text + i, '\n', m->len - i);
		size_t ll = nl ? (size_t)(nl - (m->text + i)) : m->len - i;
		json_error_t je;
		json_t *rec;
		const char *site, *cond, *url;

		line++;
		if (m->n == cap) {
			cap = cap ? cap * 2 : 64;
			m->recs = xreallocarray(m->recs, cap, sizeof *m->recs);
			m->off = xreallocarray(m->off, cap, sizeof *m->off);
			m->llen = xreallocarray(m->llen, cap, sizeof *m->llen);
		}
		rec = json_loadb(m->text + i, ll, JSON_REJECT_DUPLICATES, &je);
		if (rec == NULL && nl == NULL) {
			/* a record cut by SIGKILL during its write: dropped */
			m->cut = 1;
			break;
		}
		if (rec == NULL || !json_is_object(rec))
			die("%s:%lu: expected a manifest record (a JSON object)",
			    path, line);
		site = json_string_value(json_object_get(rec, "site_id"));
		cond = json_string_value(json_object_get(rec, "condition"));
		url = json_string_value(json_object_get(rec, "url"));
		if (!site || !cond || !url)
			die("%s:%lu: expected site_id, url and condition strings",
			    path, line);
		m->recs[m->n] = rec;
		m->off[m->n] = i;
		m->llen[m->n] = ll + (nl ? 1 : 0);
		{
			char *k = job_key(site, cond, url);

			json_object_set_new(m->bykey, k, json_integer((json_int_t)m->n));
			free(k);
		}
		m->n++;
		i += ll + (nl ? 1 : 0);
	}
}

static void
manifest_free(struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		json_decref(m->recs[i]);
	free(m->recs);
	free(m->off);
	free(m->llen);
	free(m->text);
	json_decref(m->bykey);
}

/* A SUCCESS record whose file is present with its recorded SHA-256. */
static int
archived_intact(const char *archive, const json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "fetch_status"));
	const char *rel = json_string_value(json_object_get(rec, "archive_path"));
	const char *sha = json_string_value(json_object_get(rec, "content_sha256"));
	char have[SHA256_HEX_LEN + 1], *p;
	int ok;

	if (!st || strcmp(st, "SUCCESS") != 0 || !rel || !sha ||
	    strstr(rel, "..") || rel[0] == '/')
		return 0;
	p = path_join(archive, rel);
	ok = sha256_file(p, have) == 0 && strcmp(have, sha) == 0;
	free(p);
	return ok;
}

/*
 * Match jobs against the manifest.  Without --resume a job already recorded
 * is an error (the archive is immutable).  With --resume an intact SUCCESS is
 * answered from the manifest; every other recorded attempt of a job that is
 * fetched again moves to manifest-superseded.ndjson, so the manifest ends
 * with one record per job, as an uninterrupted run leaves it.
 */
static void
plan_resume(struct run *run, struct manifest *m, int resume, int dry,
    size_t *todo, size_t *ntodo)
{
	char *drop = m->n ? xcalloc(m->n, 1) : NULL;
	json_t *seen = json_object();
	size_t i, ndrop = 0, known = 0;
	const char *first = NULL;

	*ntodo = 0;
	for (i = 0; i < run->njobs; i++) {
		struct bfetch_job *j = &run->jobs[i];
		char *k = job_key(j->site_id, j->condition, j->url);
		json_t *v = json_object_get(seen, k);

		if (v) {	/* same site, condition and URL: fetched once */
			run->primary[i] = (long)json_integer_value(v);
			run->has_dups[run->primary[i]] = 1;
			free(k);
			continue;
		}
		run->primary[i] = -1;
		json_object_set_new(seen, k, json_integer((json_int_t)i));
		v = json_object_get(m->bykey, k);
		free(k);
		if (v == NULL) {
			todo[(*ntodo)++] = i;
			continue;
		}
		known++;
		if (first == NULL)
			first = j->url;
		if (resume && archived_intact(run->o.archive,
		    m->recs[json_integer_value(v)])) {
			j->result = overlay(j->rec, m->recs[json_integer_value(v)]);
			continue;
		}
		todo[(*ntodo)++] = i;
		if (resume) {
			size_t r;

			for (r = 0; r < m->n; r++) {
				const json_t *x = m->recs[r];

				if (!drop[r] && strcmp(json_string_value(json_object_get(x,
				    "site_id")), j->site_id) == 0 &&
				    strcmp(json_string_value(json_object_get(x,
				    "condition")), j->condition) == 0 &&
				    strcmp(json_string_value(json_object_get(x,
				    "url")), j->url) == 0) {
					drop[r] = 1;
					ndrop++;
				}
			}
		}
	}
	json_decref(seen);
	if (known && !resume)
		die("%s: already records %zu of these jobs (first: %s): the "
		    "archive is immutable; use --resume to continue it",
		    run->manifest_path, known, first);
	if (!dry && (ndrop || m->cut)) {
		struct buf keep = BUF_INIT, gone = BUF_INIT;
		char *sup = path_join(run->o.archive, "manifest-superseded.ndjson");
		int fd;

		for (i = 0; i < m->n; i++)
			buf_add(drop[i] ? &gone : &keep, m->text + m->off[i],
			    m->llen[i]);
		if (gone.len) {
			fd = open(sup, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
			if (fd < 0 || write(fd, gone.s, gone.len) != (ssize_t)gone.len ||
			    close(fd) < 0)
				die_errno("%s", sup);
		}
		if (atomic_write(run->manifest_path, keep.s ? keep.s : "", keep.len,
		    0644) < 0)
			die_errno("%s", run->manifest_path);
		buf_release(&keep);
		buf_release(&gone);
		free(sup);
	}
	free(drop);
}

static void
dry_run(struct run *run, const size_t *todo, size_t ntodo)
{
	char *will = run->njobs ? xcalloc(run->njobs, 1) : NULL;
	size_t i;

	for (i = 0; i < ntodo; i++)
		will[todo[i]] = 1;
	for (i = 0; i < run->njobs; i++) {
		struct bfetch_job *j = &run->jobs[i];
		json_t *o = json_copy(j->rec);

		json_set_str(o, "url_hash", j->hash);
		json_set_str(o, "archive_path", j->rel);
		if (run->primary[i] >= 0)
			json_set_str(o, "action", "duplicate");
		else
			json_set_str(o, "action", will[i] ? "fetch" : "archived");
		ndj_emit_free(o);
	}
	free(will);
}

int
main(int argc, char **argv)
{
	struct run run;
	struct manifest m;
	const char *archive = NULL, *config = NULL, *output = NULL, *ua = NULL;
	const char *sites_csv = NULL;
	char **sites = NULL;
	long long rate = -1, min_text = -1;
	double timeout = -1;
	int c, dry = 0, resume = 0, robots = -1;
	size_t *todo, ntodo, i;
	json_t *cfg = NULL;

	ctx_init(argv[0]);
	memset(&run, 0, sizeof run);
	run.o.jobs = 16;
	run.o.per_host = 1;
	run.o.max_redirs = 10;
	run.o.max_size = 32ULL << 20;
	while ((c = opt_getopt(argc, argv, "A:a:c:hj:o:r:t:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'A':
			ua = optarg;
			break;
		case 'a':
			archive = optarg;
			break;
		case 'c':
			config = optarg;
			break;
		case OPT_CACERT:
			run.o.cacert = optarg;
			break;
		case OPT_CAPATH:
			run.o.capath = optarg;
			break;
		case OPT_CONNECT_TO:
			run.o.connect_to = add_connect_to(run.o.connect_to, optarg);
			break;
		case OPT_DRY_RUN:
			dry = 1;
			break;
		case OPT_FSYNC:
			run.o.fsync_data = 1;
			break;
		case 'h':
			opt_help(usage);
			break;
		case 'j':
			run.o.jobs = (long)opt_int("--jobs", optarg, 1, 10000);
			break;
		case OPT_MAX_REDIRS:
			run.o.max_redirs = (long)opt_int("--max-redirs", optarg, 0, 100);
			break;
		case OPT_MAX_SIZE:
			run.o.max_size = opt_size("--max-size", optarg);
			if (run.o.max_size == 0)
				die_usage("--max-size: expected a size above 0");
			break;
		case OPT_MIN_TEXT:
			min_text = opt_int("--min-text", optarg, 0, 1000000);
			break;
		case OPT_NO_ROBOTS:
			robots = 0;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_PER_HOST:
			run.o.per_host = (long)opt_int("--per-host", optarg, 1, 1000);
			break;
		case 'r':
			rate = opt_int("--rate-limit", optarg, 0, 3600000);
			break;
		case OPT_RESOLVE: {
			struct curl_slist *l = curl_slist_append(run.o.resolve, optarg);

			const char *c1 = strchr(optarg, ':');
			const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			char port[8];
			long long pn;

			if (c1 == NULL || c2 == NULL || c1 == optarg || c2[1] == '\0' ||
			    (size_t)(c2 - c1 - 1) >= sizeof port)
				die_usage("--resolve: expected HOST:PORT:ADDRESS");
			memcpy(port, c1 + 1, (size_t)(c2 - c1 - 1));
			port[c2 - c1 - 1] = '\0';
			if (parse_int(port, &pn) < 0 || pn < 1 || pn > 65535)
				die_usage("--resolve: expected a port from 1 to 65535 in "
				    "HOST:PORT:ADDRESS");
			if (l == NULL)
				die("out of memory");
			run.o.resolve = l;
			break;
		}
		case OPT_RESUME:
			resume = 1;
			break;
		case OPT_RETRY:
			run.o.retry = (long)opt_int("--retry", optarg, 0, 20);
			break;
		case OPT_SITE:
			strv_free(sites);
			sites = strv_split(optarg, ',');
			if (sites[0] == NULL)
				die_usage("--site: expected a site id");
			break;
		case OPT_SITES:
			sites_csv = optarg;
			break;
		case 't':
			timeout = opt_real("--timeout", optarg, 0.001, 86400);
			break;
		case 'V':
			opt_version();
			break;
		default:
			die_usage("unknown option");
		}
	}
	if (sites_csv && optind < argc)
		die_usage("--sites and input files are exclusive");
	if (config)
		cfg = study_config_load(config);
	if (archive == NULL)
		archive = getenv("CTXBENCH_ARCHIVE");
	if (archive == NULL || *archive == '\0')
		archive = "archive";
	run.o.archive = archive;
	run.o.user_agent = ua ? ua : cfg_str(cfg, "archive_protocol.user_agent",
	    "ctxbench-bfetch/" CTX_VERSION);
	run.o.product = bfetch_product_token(run.o.user_agent);
	if (*run.o.product == '\0')
		die_usage("--user-agent: expected a product token first "
		    "(letters, '_' or '-'), as RFC 9309 matches on it");
	if (timeout < 0)
		timeout = (double)cfg_num(cfg, "archive_protocol.fetch_timeout_seconds", 30);
	if (timeout <= 0)
		die("%s: archive_protocol.fetch_timeout_seconds: expected a "
		    "positive number", config);
	run.o.timeout_ms = (long)(timeout * 1000.0 + 0.5);
	if (rate < 0)
		rate = cfg_int(cfg, "archive_protocol.rate_limit_ms", 1000);
	if (rate < 0)
		die("%s: archive_protocol.rate_limit_ms: expected 0 or more", config);
	run.o.rate_ms = (long)rate;
	run.o.robots = robots >= 0 ? robots :
	    cfg_bool(cfg, "archive_protocol.respect_robots_txt", 1);
	if (min_text < 0)
		min_text = cfg_int(cfg, "extraction.min_content_length_chars", 50);
	run.o.min_text = (size_t)min_text;

	ndj_output_open(output);
	if (sites_csv)
		jobs_from_sites(&run, sites_csv, sites);
	else
		jobs_from_files(&run, argc - optind, argv + optind, sites);

	run.primary = xcalloc(run.njobs ? run.njobs : 1, sizeof *run.primary);
	run.has_dups = xcalloc(run.njobs ? run.njobs : 1, 1);
	todo = xcalloc(run.njobs ? run.njobs : 1, sizeof *todo);
	run.manifest_path = path_join(archive, "manifest.ndjson");
	manifest_load(&m, run.manifest_path);
	plan_resume(&run, &m, resume, dry, todo, &ntodo);
	manifest_free(&m);

	if (dry) {
		dry_run(&run, todo, ntodo);
	} else {
		json_t *dirs = json_object();

		if (mkdir_p(archive, 0755) < 0)
			die_errno("%s", archive);
		run.manifest_fd = open(run.manifest_path,
		    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (run.manifest_fd < 0)
			die_errno("%s", run.manifest_path);
		/* leftovers of a killed run in the directories we write */
		for (i = 0; i < ntodo; i++) {
			char *d = path_dirname(run.jobs[todo[i]].rel);

			json_object_set_new(dirs, d, json_true());
			free(d);
		}
		{
			const char *d;
			json_t *v;

			json_object_foreach(dirs, d, v) {
				char *p = path_join(archive, d);

				bfetch_clean_stale(p);
				free(p);
			}
		}
		json_decref(dirs);
		/* duplicates of resumed jobs are answered now */
		for (i = 0; i < run.njobs; i++)
			if (run.primary[i] >= 0 && run.jobs[run.primary[i]].result)
				run.jobs[i].result = overlay(run.jobs[i].rec,
				    run.jobs[run.primary[i]].result);
		flush_out(&run);
		ctx_catch_signals();
		bfetch_engine_run(&run.o, run.jobs, todo, ntodo, on_done, &run);
		flush_out(&run);
		if (close(run.manifest_fd) < 0)
			die_errno("%s", run.manifest_path);
	}

	for (i = 0; i < run.njobs; i++) {
		json_decref(run.jobs[i].rec);
		json_decref(run.jobs[i].result);
		free(run.jobs[i].fetch_url);
		free(run.jobs[i].rel);
		free(run.jobs[i].path);
	}
	free(run.jobs);
	free(run.primary);
	free(run.has_dups);
	free(todo);
	free(run.manifest_path);
	free(run.o.product);
	curl_slist_free_all(run.o.resolve);
	curl_slist_free_all(run.o.connect_to);
	strv_free(sites);
	json_decref(cfg);
	ctx_exit();
}
