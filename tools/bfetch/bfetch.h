/*
 * bfetch.h - the parts of bfetch that are not main.c: robots.txt (RFC 9309),
 * the classification of a finished fetch into the fetch_status values of
 * spec 001 §2.1/§2.5, the archive (paths, atomic files, the manifest and its
 * resume index), the fetching engine over common/http.h and the run that
 * drives it.  Everything here is built into libbfetch.a so the unit tests
 * and fuzz targets can call it directly.
 *
 * The files, each above the ones it calls (calls only go down; all of them
 * also call common/):
 *
 *   main.c      options and configuration into a struct bfetch_run
 *                                                   -> run.c robots.c
 *   run.c       one run: jobs read (NDJSON or --sites), matched against
 *               the manifest (--resume, duplicates, --dry-run), fetched,
 *               records written in input order
 *                              -> engine.c manifest.c archive.c lock.c
 *   engine.c    the fetching engine: hosts, politeness, robots.txt per
 *               origin, redirects hop by hop, transfer results to
 *               fetch_status             -> robots.c classify.c archive.c
 *   manifest.c  manifest.ndjson read back and manifest.json written
 *   lock.c      the archive's locks: one held briefly around manifest
 *               changes, one per site held by the run fetching it
 *   archive.c   where a page goes in the archive and how it receives there
 *   robots.c    robots.txt parsed and matched for one product token
 *   classify.c  what a finished response is: SUCCESS, HTTP_ERROR,
 *               WAF_BLOCKED, JS_ONLY
 */
#ifndef BFETCH_H
#define BFETCH_H

#include <stddef.h>
#include <jansson.h>

/* ------------------------------------------------------------ robots.txt */

/*
 * A parsed robots.txt reduced to the rules of the group(s) that apply to one
 * product token (RFC 9309 §2.2.1: the groups whose user-agent matches the
 * token case-insensitively, merged; else the "*" groups; else no rules).
 * Owned by the caller; release with bfetch_robots_free.
 */
struct bfetch_robots;

/* Parse len bytes of robots.txt text for product token (e.g. "LlmsTxtBenchmark"). */
struct bfetch_robots *bfetch_robots_parse(const char *text, size_t len,
    const char *product);
/* A rule set that allows everything (allow != 0) or disallows everything. */
struct bfetch_robots *bfetch_robots_all(int allow);
/*
 * 1 when path (the URL's path, plus "?query" when there is one; "" is "/")
 * may be crawled.  When rule is not NULL it receives the deciding rule as
 * "Disallow: /x" (borrowed, valid while r lives) or NULL when no rule matched.
 */
int bfetch_robots_allowed(const struct bfetch_robots *r, const char *path,
    const char **rule);
size_t bfetch_robots_nrules(const struct bfetch_robots *r);
/*
 * The Crawl-delay of the applying group(s) in milliseconds (the longest
 * when several; at most BFETCH_CRAWL_DELAY_MAX seconds), or -1 when none.
 * Not part of RFC 9309; honoured because site owners expect it.
 */
#define BFETCH_CRAWL_DELAY_MAX 120
long bfetch_robots_crawl_delay_ms(const struct bfetch_robots *r);
void bfetch_robots_free(struct bfetch_robots *r);
/* The product token of a user agent: its leading [A-Za-z_-] characters (malloc'd). */
char *bfetch_product_token(const char *user_agent);

/* ------------------------------------------------------------ classification */

enum bfetch_status {
	BF_SUCCESS, BF_HTTP_ERROR, BF_TIMEOUT, BF_DNS_FAILURE, BF_WAF_BLOCKED,
	BF_JS_ONLY, BF_NSTATUS
};
extern const char *const bfetch_status_names[BF_NSTATUS];

/* Archive kinds: condition A, condition B, llms.txt files. */
enum bfetch_kind { BK_HTML, BK_MARKDOWN, BK_LLMS };

/*
 * Response headers of the final response, collected as "name: value\n" lines
 * with names lowercased.  bfetch_header returns a malloc'd copy of the first
 * value of name (lowercase), or NULL.
 */
char *bfetch_header(const char *headers, size_t len, const char *name);

/* 1 when the body is an HTML document: by Content-Type, else by sniffing. */
int bfetch_is_html(const char *content_type, const char *body, size_t len);

/*
 * Visible text of an HTML document (libxml2's HTML parser): the characters of
 * the body's text after removing script, style, noscript and template
 * elements and collapsing white space, counted in code points.  *shell is set
 * when the document is an application shell: an empty mount element (id
 * root, app, __next, __nuxt, ___gatsby, svelte, q-app) and at least one script.
 * Dies when the parser cannot be allocated; bfetch's main makes libxml2
 * allocate through xmalloc, so a failed allocation while parsing dies too
 * (a shorter count would be a verdict on the page).
 */
size_t bfetch_visible_chars(const char *html, size_t len, int *shell);

/*
 * A bot-protection signature in a 403/429/503 response: a malloc'd
 * description ("Cloudflare challenge (cf-mitigated: challenge)") or NULL.
 */
char *bfetch_waf_signature(long status, const char *headers, size_t hlen,
    const char *body, size_t blen);

/* What an HTTP response with a complete body is (curl's transfer succeeded). */
struct bfetch_verdict {
	enum bfetch_status status;
	char *reason;		/* malloc'd, or NULL for SUCCESS */
	int store;		/* keep the body in the archive */
};
struct bfetch_verdict bfetch_classify_response(enum bfetch_kind kind,
    long http_status, const char *content_type, const char *headers,
    size_t hlen, const char *body, size_t blen, size_t min_text);

/* ------------------------------------------------------------ archive */

/* The directory and extension of a kind: "html", ".html" ... */
const char *bfetch_kind_dir(enum bfetch_kind k);
const char *bfetch_kind_ext(enum bfetch_kind k);
/* Kind of a condition string; -1 when unknown. */
int bfetch_condition_kind(const char *condition);
/* 1 when a site_id is safe as a directory name ([A-Za-z0-9._-], not . or ..). */
int bfetch_site_id_ok(const char *site_id);

/*
 * Store body at ARCHIVE/rel atomically (a temporary ".bfetch-PID-NAME.tmp"
 * beside it, then rename).  A file already there with the same SHA-256 is
 * left alone.  fsync_data: fsync the file before the rename.  Returns 0, or
 * -1 with errno.
 */
int bfetch_store(const char *archive, const char *rel, const void *body,
    size_t len, const char *sha_hex, int fsync_data);
/* Remove temporaries left in dir by bfetch processes that no longer run. */
void bfetch_clean_stale(const char *dir);

/* ------------------------------------------------------------ manifest */

/* The key of a job: site_id, condition and url (malloc'd). */
char *bfetch_job_key(const char *site, const char *cond, const char *url);

/* manifest.ndjson as read: one record per complete line. */
struct bfetch_manifest {
	char *text;		/* the file's bytes (owned) */
	size_t len;
	json_t **recs;		/* records, in file order */
	size_t *off, *llen;	/* each record's line in text */
	size_t *prev;		/* previous record of the same job, or SIZE_MAX */
	size_t n;
	json_t *bykey;		/* job key -> index of its last record */
	int cut;		/* the final line was cut by a kill (dropped) */
};

/*
 * Parse len bytes of manifest.ndjson (text is taken over, also on error).
 * A final line without its newline that is not JSON was cut by a kill: it
 * is dropped and m->cut set.  Returns 0, or -1 with *line and *err (a
 * malloc'd message) naming the first bad line; m is then still to be freed.
 * Never exits: fuzz targets call it.
 */
int bfetch_manifest_parse(struct bfetch_manifest *m, char *text, size_t len,
    unsigned long *line, char **err);
/* Read ARCHIVE's manifest (absent: empty); dies with path:line on a bad one. */
void bfetch_manifest_load(struct bfetch_manifest *m, const char *path);
void bfetch_manifest_free(struct bfetch_manifest *m);
/* Index of the last record of the job with this key, or -1. */
long bfetch_manifest_find(const struct bfetch_manifest *m, const char *key);
/* Write ARCHIVE/manifest.json from ARCHIVE/manifest.ndjson, atomically. */
int bfetch_manifest_json(const char *archive);

/* ------------------------------------------------------------ engine */

struct curl_slist;

struct bfetch_opts {
	const char *archive;
	const char *user_agent;
	char *product;		/* robots.txt product token of user_agent */
	long timeout_ms;	/* connect + transfer */
	long rate_ms;		/* per-host delay between request starts */
	long per_host;		/* per-host requests in flight */
	long jobs;		/* total requests in flight */
	long max_redirs;
	unsigned long long max_size;
	size_t min_text;	/* JS_ONLY threshold (visible characters) */
	int robots;		/* respect robots.txt */
	long retry;		/* extra attempts for transient failures */
	int fsync_data;
	struct curl_slist *resolve;	/* --resolve HOST:PORT:ADDR */
	struct curl_slist *connect_to;	/* --connect-to HOST:PORT:ADDR:PORT */
	const char *cacert, *capath;	/* --cacert, --capath */
};

/* One fetch job (an input record) and, once done, its manifest record. */
struct bfetch_job {
	json_t *rec;		/* the input record (owned) */
	const char *site_id, *url, *condition;	/* borrowed from rec */
	char *fetch_url;	/* what is requested: fetch_url, or url without #fragment */
	enum bfetch_kind kind;
	char hash[65];		/* sha256 hex of url */
	char *rel;		/* archive-relative path */
	json_t *result;		/* the manifest record once done (owned) */
	int attempts;
	int host;		/* engine's host index */
	char *path;		/* path?query for robots matching */
};

/*
 * Fetch jobs[idx[0..n-1]] and set each one's result; done(i, ctx) is called
 * as each finishes (any order), with jobs[i].result set.  Archive files are
 * written before done is called.  Redirects are followed here, hop by hop:
 * every hop's URL is checked against its own origin's robots.txt and waits
 * for that origin's politeness delay; the hops go on the record
 * (redirect_chain).
 */
void bfetch_engine_run(const struct bfetch_opts *o, struct bfetch_job *jobs,
    const size_t *idx, size_t n, void (*done)(size_t, void *), void *ctx);

/* Build a result record for job j from the fields the engine gathered. */
struct bfetch_result {
	char ts[32];
	long http_status;	/* 0: null */
	char *content_type, *last_modified, *etag, *final_url, *retry_after;
	unsigned long long clen;
	enum bfetch_status status;
	char *reason;
	long redirects;
	json_t *chain;		/* redirect_chain: [{url, http_status}] (owned) */
	char *remote;		/* remote_address that answered, or NULL */
	char *proxy;		/* proxy used, or NULL */
	const char *connect_to, *resolve;	/* borrowed, or NULL */
	char *sha;		/* NULL: null */
	int stored;
	long long elapsed_ms;
};
json_t *bfetch_make_record(const struct bfetch_job *j, const struct bfetch_result *r);
void bfetch_result_release(struct bfetch_result *r);

/* ------------------------------------------------------------ locks */

/*
 * The archive's locks (lock.c has the scheme).  bfetch_lock_archive opens
 * ARCHIVE/.lock (the archive directory must exist) and returns its
 * descriptor, which bfetch_lock takes (waiting) and bfetch_unlock releases.
 * bfetch_claim_sites locks ARCHIVE/.locks/SITE for every site of the njobs
 * jobs without waiting, and returns the *nfd descriptors (malloc'd; the
 * locks last until they are closed or the process ends).  Each dies on an
 * error; a site locked by another process dies saying so.
 */
int bfetch_lock_archive(const char *archive);
void bfetch_lock(int fd, const char *archive);
void bfetch_unlock(int fd);
int *bfetch_claim_sites(const char *archive, const struct bfetch_job *jobs,
    size_t njobs, size_t *nfd);

/* ------------------------------------------------------------ run */

struct seen;

/* One run of bfetch: its options, jobs, and the manifest it continues. */
struct bfetch_run {
	struct bfetch_opts o;
	char **sites;		/* --site: only these site_ids, or NULL */
	int resume, dry;
	int allow_empty;	/* --allow-empty: selecting no job is no error */
	unsigned long counts[BF_NSTATUS];	/* records written, by status */
	size_t fetched;		/* jobs fetched by this run (not resumed) */
	struct bfetch_job *jobs;
	size_t njobs, cap;
	long *primary;		/* index of the job this one duplicates, or -1 */
	char *has_dups;		/* some later job duplicates this one */
	size_t next_out;	/* next job whose record goes to the output */
	int manifest_fd;
	char *manifest_path;
	int lock_fd;		/* ARCHIVE/.lock (lock.c), or -1 */
	int *site_fds;		/* the sites this run claimed (lock.c) */
	size_t nsite_fds;
	struct bfetch_manifest m;
	struct seen *seen;	/* dry run: the distinct jobs so far */
};

/*
 * Read the jobs (from site-list.csv when sites_csv is set, else the n files,
 * else standard input) and fetch them, appending to the manifest and
 * writing records to the record output in input order, then manifest.json.
 * With run->dry, print each job's plan as it is read instead.  Ends with a
 * one-line summary on stderr.  Dies (exit 1) when no job is selected, unless
 * run->allow_empty; returns 1 when every fetch failed (the records are
 * written all the same: they are the study's account of the failures), else 0.
 */
int bfetch_run(struct bfetch_run *run, const char *sites_csv, int n,
    char **files);
void bfetch_run_free(struct bfetch_run *run);

#endif
