/*
 * run.c - one bfetch run: the jobs read (NDJSON or --sites), matched
 * against the manifest already there (--resume, duplicates), fetched by the
 * engine with the records written to the manifest as fetches end and to
 * standard output in input order; manifest.json written at the end.  A dry
 * run streams: each job is answered as it is read, so its memory does not
 * grow with the input beyond a 16-byte digest per distinct job.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "bfetch.h"

/* The fields bfetch owns in a manifest record (copied on resume and dups). */
static const char *const fetch_fields[] = {
	"url_hash", "fetch_timestamp", "http_status", "content_type",
	"content_length_bytes", "last_modified", "etag", "fetch_status",
	"failure_reason", "final_url", "redirect_count", "redirect_chain",
	"content_sha256", "archive_path", "elapsed_ms", "remote_address",
	"proxy", "connect_to", "resolve", "retry_after", "attempts", NULL
};

/* Check and complete j from rec, read at the current input position. */
static void
job_init(struct bfetch_job *j, json_t *rec)
{
	const char *fu;
	int kind;

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
}

static void
job_release(struct bfetch_job *j)
{
	json_decref(j->rec);
	json_decref(j->result);
	free(j->fetch_url);
	free(j->rel);
	free(j->path);
}

static void
add_job(struct bfetch_run *run, json_t *rec)
{
	if (run->njobs == run->cap) {
		run->cap = run->cap ? run->cap * 2 : 64;
		run->jobs = xreallocarray(run->jobs, run->cap, sizeof *run->jobs);
	}
	job_init(&run->jobs[run->njobs], rec);
	run->njobs++;
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
jobs_from_sites(struct bfetch_run *run, const char *path,
    void (*each)(struct bfetch_run *, json_t *))
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

		if (!site_selected(run->sites, id) || (st && strcmp(st, "EXCLUDED") == 0))
			continue;
		ndj_set_where(path, (unsigned long)i + 2);
		j = json_pack("{s:s,s:s,s:s,s:O}", "site_id", id, "url", llms,
		    "condition", "llms_txt", "domain", json_object_get(s, "domain"));
		each(run, j);
		if (json_is_true(json_object_get(s, "has_llms_full"))) {
			const char *slash = strrchr(llms, '/');
			size_t base = slash ? (size_t)(slash - llms) + 1 : strlen(llms);
			char *full = xasprintf("%.*sllms-full.txt", (int)base, llms);

			j = json_pack("{s:s,s:s,s:s,s:O}", "site_id", id, "url", full,
			    "condition", "llms_full_txt", "domain",
			    json_object_get(s, "domain"));
			free(full);
			each(run, j);
		}
	}
	json_decref(list);
}

static void
jobs_from_files(struct bfetch_run *run, int n, char **files,
    void (*each)(struct bfetch_run *, json_t *))
{
	int i;

	for (i = 0; i < (n ? n : 1); i++) {
		struct ndj_reader r;
		json_t *rec;

		ndj_reader_open(&r, n ? files[i] : "-");
		while ((rec = ndj_next(&r)) != NULL) {
			const char *id = rec_str(rec, "site_id");

			if (site_selected(run->sites, id))
				each(run, rec);
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
flush_out(struct bfetch_run *run)
{
	while (run->next_out < run->njobs && run->jobs[run->next_out].result) {
		struct bfetch_job *j = &run->jobs[run->next_out];
		const char *st = json_get_str(j->result, "fetch_status");
		int k;

		for (k = 0; st && k < BF_NSTATUS; k++)
			if (strcmp(st, bfetch_status_names[k]) == 0)
				run->counts[k]++;
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

/*
 * Another run's --resume may have rewritten manifest.ndjson (supersede,
 * under the archive lock, which the caller holds): append to the new file.
 */
static void
reopen_if_replaced(struct bfetch_run *run)
{
	struct stat a, b;

	if (fstat(run->manifest_fd, &a) == 0 &&
	    stat(run->manifest_path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return;
	close(run->manifest_fd);
	run->manifest_fd = open(run->manifest_path,
	    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (run->manifest_fd < 0)
		die_errno("%s", run->manifest_path);
}

static void
manifest_append(struct bfetch_run *run, const json_t *rec)
{
	size_t len;
	char *s = json_compact(rec, &len);
	char *line = xmalloc(len + 1);
	size_t off = 0;

	memcpy(line, s, len);
	line[len] = '\n';
	bfetch_lock(run->lock_fd, run->o.archive);
	reopen_if_replaced(run);
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
	bfetch_unlock(run->lock_fd);
	free(line);
	free(s);
}

static void
on_done(size_t ji, void *arg)
{
	struct bfetch_run *run = arg;
	size_t k;

	manifest_append(run, run->jobs[ji].result);
	for (k = ji + 1; run->has_dups[ji] && k < run->njobs; k++)
		if (run->primary[k] == (long)ji)
			run->jobs[k].result = overlay(run->jobs[k].rec,
			    run->jobs[ji].result);
	flush_out(run);
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
 * Match the jobs against the manifest.  Without --resume a job already
 * recorded is an error (the archive is immutable).  With --resume an intact
 * SUCCESS is answered from the manifest; every other recorded attempt of a
 * job that is fetched again moves to manifest-superseded.ndjson, so the
 * manifest ends with one record per job, as an uninterrupted run leaves it.
 * Linear in jobs and records: a job's records are chained (m->prev).
 */
static size_t
plan(struct bfetch_run *run, size_t *todo, char *drop, size_t *ndrop)
{
	struct bfetch_manifest *m = &run->m;
	json_t *seen = json_object();
	size_t i, ntodo = 0, known = 0;
	const char *first = NULL;

	for (i = 0; i < run->njobs; i++) {
		struct bfetch_job *j = &run->jobs[i];
		char *k = bfetch_job_key(j->site_id, j->condition, j->url);
		json_t *v = json_object_get(seen, k);
		long at;

		if (v) {	/* same site, condition and URL: fetched once */
			run->primary[i] = (long)json_integer_value(v);
			run->has_dups[run->primary[i]] = 1;
			free(k);
			continue;
		}
		run->primary[i] = -1;
		json_object_set_new(seen, k, json_integer((json_int_t)i));
		at = bfetch_manifest_find(m, k);
		free(k);
		if (at < 0) {
			todo[ntodo++] = i;
			continue;
		}
		known++;
		if (first == NULL)
			first = j->url;
		if (run->resume && archived_intact(run->o.archive, m->recs[at])) {
			j->result = overlay(j->rec, m->recs[at]);
			continue;
		}
		todo[ntodo++] = i;
		for (size_t r = (size_t)at; run->resume && r != SIZE_MAX;
		    r = m->prev[r]) {
			assert(r < m->n);
			if (!drop[r]) {
				drop[r] = 1;
				++*ndrop;
			}
		}
	}
	json_decref(seen);
	if (known && !run->resume)
		die("%s: already records %zu of these jobs (first: %s): the "
		    "archive is immutable; use --resume to continue it",
		    run->manifest_path, known, first);
	return ntodo;
}

/* Move dropped records to manifest-superseded.ndjson; rewrite the rest. */
static void
supersede(struct bfetch_run *run, const char *drop)
{
	struct bfetch_manifest *m = &run->m;
	struct buf keep = BUF_INIT, gone = BUF_INIT;
	char *sup = path_join(run->o.archive, "manifest-superseded.ndjson");
	size_t i;
	int fd;

	for (i = 0; i < m->n; i++) {
		struct buf *b = drop[i] ? &gone : &keep;

		buf_add(b, m->text + m->off[i], m->llen[i]);
		if (m->text[m->off[i] + m->llen[i] - 1] != '\n')
			buf_addc(b, '\n');	/* a final line without newline */
	}
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

/* ------------------------------------------------------------ dry run */

/* A set of 16-byte digests (open addressing): the distinct jobs seen. */
struct seen {
	unsigned char (*k)[16];
	char *used;
	size_t n, cap;
};

/* Insert d; 1 when it was there already. */
static int
seen_add(struct seen *s, const unsigned char d[16])
{
	size_t i;
	uint64_t h;

	if (2 * (s->n + 1) > s->cap) {
		struct seen t = { NULL, NULL, 0, s->cap ? s->cap * 2 : 1024 };

		t.k = xcalloc(t.cap, sizeof *t.k);
		t.used = xcalloc(t.cap, 1);
		for (i = 0; i < s->cap; i++)
			if (s->used[i])
				seen_add(&t, s->k[i]);
		free(s->k);
		free(s->used);
		*s = t;
	}
	memcpy(&h, d, sizeof h);
	for (i = (size_t)(h % s->cap); s->used[i]; i = (i + 1) % s->cap)
		if (memcmp(s->k[i], d, 16) == 0)
			return 1;
	memcpy(s->k[i], d, 16);
	s->used[i] = 1;
	s->n++;
	return 0;
}

/* A dry run's answer for one job, printed at once. */
static void
dry_one(struct bfetch_run *run, json_t *rec)
{
	struct bfetch_job j;
	unsigned char d[SHA256_LEN];
	struct sha256 c;
	char *k;
	const char *action = "fetch";
	long at;
	json_t *o;

	job_init(&j, rec);
	k = bfetch_job_key(j.site_id, j.condition, j.url);
	sha256_init(&c);
	sha256_update(&c, k, strlen(k));
	sha256_final(&c, d);
	if (seen_add(run->seen, d))
		action = "duplicate";
	else if ((at = bfetch_manifest_find(&run->m, k)) >= 0 &&
	    archived_intact(run->o.archive, run->m.recs[at]))
		action = "archived";
	free(k);
	o = json_copy(j.rec);
	if (o == NULL)
		die("out of memory");
	json_set_str(o, "url_hash", j.hash);
	json_set_str(o, "archive_path", j.rel);
	json_set_str(o, "action", action);
	ndj_emit_free(o);
	job_release(&j);
}

/* ------------------------------------------------------------ fetching */

/* Remove temporaries of killed runs in the directories this run writes. */
static void
clean_dirs(struct bfetch_run *run, const size_t *todo, size_t ntodo)
{
	json_t *dirs = json_object();
	const char *d;
	json_t *v;
	size_t i;

	for (i = 0; i < ntodo; i++) {
		char *dn = path_dirname(run->jobs[todo[i]].rel);

		json_object_set_new(dirs, dn, json_true());
		free(dn);
	}
	json_object_foreach(dirs, d, v) {
		char *p = path_join(run->o.archive, d);

		bfetch_clean_stale(p);
		free(p);
	}
	json_decref(dirs);
}

static void
fetch_all(struct bfetch_run *run)
{
	size_t n = run->njobs ? run->njobs : 1, ntodo, ndrop = 0, i;
	size_t *todo = xcalloc(n, sizeof *todo);
	char *drop;

	run->primary = xcalloc(n, sizeof *run->primary);
	run->has_dups = xcalloc(n, 1);
	if (mkdir_p(run->o.archive, 0755) < 0)
		die_errno("%s", run->o.archive);
	/* the manifest is read, matched and rewritten under the lock */
	run->lock_fd = bfetch_lock_archive(run->o.archive);
	bfetch_lock(run->lock_fd, run->o.archive);
	run->site_fds = bfetch_claim_sites(run->o.archive, run->jobs,
	    run->njobs, &run->nsite_fds);
	bfetch_manifest_load(&run->m, run->manifest_path);
	drop = xcalloc(run->m.n ? run->m.n : 1, 1);	/* sized by what was read */
	ntodo = plan(run, todo, drop, &ndrop);
	if (ndrop || run->m.cut || (run->m.n &&
	    run->m.text[run->m.len - 1] != '\n'))
		supersede(run, drop);
	free(drop);
	bfetch_manifest_free(&run->m);
	run->manifest_fd = open(run->manifest_path,
	    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (run->manifest_fd < 0)
		die_errno("%s", run->manifest_path);
	bfetch_unlock(run->lock_fd);
	clean_dirs(run, todo, ntodo);
	/* duplicates of resumed jobs are answered now */
	for (i = 0; i < run->njobs; i++)
		if (run->primary[i] >= 0 && run->jobs[run->primary[i]].result)
			run->jobs[i].result = overlay(run->jobs[i].rec,
			    run->jobs[run->primary[i]].result);
	flush_out(run);
	ctx_catch_signals();
	run->fetched = ntodo;
	bfetch_engine_run(&run->o, run->jobs, todo, ntodo, on_done, run);
	flush_out(run);
	assert(run->next_out == run->njobs);	/* every job has its record */
	if (close(run->manifest_fd) < 0)
		die_errno("%s", run->manifest_path);
	bfetch_lock(run->lock_fd, run->o.archive);
	bfetch_manifest_json(run->o.archive);
	bfetch_unlock(run->lock_fd);
	free(todo);
}

/* What selected nothing: the --site list, else the input. */
static void
nothing_selected(const struct bfetch_run *run, const char *sites_csv, int n,
    char **files)
{
	const char *from = sites_csv ? sites_csv : n == 1 ? files[0] :
	    n ? "the input" : "<stdin>";
	struct buf list = BUF_INIT;
	size_t i;

	if (run->sites == NULL) {
		die_empty(run->allow_empty, "%s: no job to fetch", from);
		return;
	}
	for (i = 0; run->sites[i]; i++) {
		if (i)
			buf_addc(&list, ',');
		buf_adds(&list, run->sites[i]);
	}
	die_empty(run->allow_empty, "%s: no job of site %s, nothing to fetch",
	    from, list.s);
	buf_release(&list);
}

/* The one-line account of the run; 1 when every fetch failed. */
static int
summary(const struct bfetch_run *run, size_t seen)
{
	const unsigned long *c = run->counts;
	unsigned long failed = 0;
	int k;

	if (run->dry) {
		warn("%zu distinct jobs planned (dry run)", seen);
		return 0;
	}
	for (k = 0; k < BF_NSTATUS; k++)
		if (k != BF_SUCCESS)
			failed += c[k];
	warn("records: %zu (%zu fetched, %zu from the archive or duplicates)  "
	    "ok %lu  http %lu  timeout %lu  dns %lu  waf %lu  js %lu", run->njobs,
	    run->fetched, run->njobs - run->fetched, c[BF_SUCCESS],
	    c[BF_HTTP_ERROR], c[BF_TIMEOUT], c[BF_DNS_FAILURE],
	    c[BF_WAF_BLOCKED], c[BF_JS_ONLY]);
	if (run->njobs && c[BF_SUCCESS] == 0) {
		warn("every one of the %lu fetches failed: nothing was archived "
		    "(see failure_reason on the records)", failed);
		return 1;
	}
	return 0;
}

int
bfetch_run(struct bfetch_run *run, const char *sites_csv, int n, char **files)
{
	void (*each)(struct bfetch_run *, json_t *) = run->dry ? dry_one : add_job;

	run->manifest_path = path_join(run->o.archive, "manifest.ndjson");
	run->lock_fd = -1;
	if (run->dry) {
		/* a fetching run reads the manifest under the lock */
		bfetch_manifest_load(&run->m, run->manifest_path);
		run->seen = xcalloc(1, sizeof *run->seen);
	}
	if (sites_csv)
		jobs_from_sites(run, sites_csv, each);
	else
		jobs_from_files(run, n, files, each);
	if ((run->dry ? run->seen->n : run->njobs) == 0)
		nothing_selected(run, sites_csv, n, files);
	if (!run->dry)
		fetch_all(run);
	return summary(run, run->dry ? run->seen->n : 0);
}

void
bfetch_run_free(struct bfetch_run *run)
{
	size_t i;

	for (i = 0; i < run->njobs; i++)
		job_release(&run->jobs[i]);
	free(run->jobs);
	free(run->primary);
	free(run->has_dups);
	free(run->manifest_path);
	for (i = 0; i < run->nsite_fds; i++)
		close(run->site_fds[i]);
	free(run->site_fds);
	if (run->lock_fd >= 0)
		close(run->lock_fd);
	bfetch_manifest_free(&run->m);
	if (run->seen) {
		free(run->seen->k);
		free(run->seen->used);
		free(run->seen);
	}
}
