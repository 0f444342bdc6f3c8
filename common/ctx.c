/*
 * ctx.c - program start and end shared by every ctxbench program.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"

volatile int ctx_interrupted;

static void
on_fatal_signal(int sig)
{
	atomic_cleanup_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
on_catch_signal(int sig)
{
	ctx_interrupted = sig;
}

static void
set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void
ctx_init(const char *argv0)
{
	err_init(argv0);
	set_handler(SIGINT, on_fatal_signal);
	set_handler(SIGTERM, on_fatal_signal);
	set_handler(SIGHUP, on_fatal_signal);
	/*
	 * jansson allocates through the checked allocator: an allocation that
	 * fails dies with "out of memory", where jansson's own failure paths
	 * report a parse error or crash (json_loadb, jansson 2.14).
	 */
	json_set_alloc_funcs(xmalloc, free);
	json_object_seed(1);
}

void
ctx_catch_signals(void)
{
	set_handler(SIGINT, on_catch_signal);
	set_handler(SIGTERM, on_catch_signal);
}

void
ctx_exit(void)
{
	ctx_exit_status(0);
}

void
ctx_exit_status(int status)
{
	ndj_output_close();
	if (fflush(stdout) == EOF || ferror(stdout))
		die_errno("write error");
	exit(status);
}

#ifndef CTX_SHAREDIR
#define CTX_SHAREDIR "/usr/local/share/ctxbench"
#endif

static int
exists(const char *p)
{
	return access(p, F_OK) == 0;
}

char *
ctx_share_path(const char *rel)
{
	const char *env = getenv("CTXBENCH_SHARE");
	char exe[4096], *dir, *p;
	ssize_t n;

	if (env && *env) {
		p = path_join(env, rel);
		if (exists(p))
			return p;
		free(p);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		dir = path_dirname(exe);
		p = xasprintf("%s/../../share/%s", dir, rel);
		if (!exists(p)) {
			free(p);
			p = xasprintf("%s/../share/ctxbench/%s", dir, rel);
		}
		free(dir);
		if (exists(p))
			return p;
		free(p);
	}
	p = path_join(CTX_SHAREDIR, rel);
	if (exists(p))
		return p;
	free(p);
	return NULL;
}

char *
ctx_share_file(const char *rel)
{
	const char *env = getenv("CTXBENCH_SHARE");
	char *p = ctx_share_path(rel);

	if (p != NULL)
		return p;
	return path_join(env && *env ? env : CTX_SHAREDIR, rel);
}

/* The text of the data file rel as it is (no includes expanded). */
static char *
share_raw(const char *rel)
{
	char *path = ctx_share_path(rel), *s;

	if (path == NULL)
		die("%s: not found (set CTXBENCH_SHARE to the directory that "
		    "holds it)", rel);
	s = read_file(path, NULL, 4 << 20);
	if (s == NULL)
		die_errno("%s", path);
	free(path);
	return s;
}

#define INCLUDE_OPEN "<!--#include file=\""
#define INCLUDE_CLOSE "\" -->"

/*
 * The data file named by an include line [line, end) (without its '\n'),
 * malloc'd; NULL when the line is not one.
 */
static char *
include_name(const char *line, const char *end)
{
	size_t lo = strlen(INCLUDE_OPEN), lc = strlen(INCLUDE_CLOSE);

	if ((size_t)(end - line) <= lo + lc ||
	    strncmp(line, INCLUDE_OPEN, lo) != 0 ||
	    strncmp(end - lc, INCLUDE_CLOSE, lc) != 0)
		return NULL;
	return xstrndup(line + lo, (size_t)(end - line) - lo - lc);
}

char *
ctx_share_text(const char *rel)
{
	char *s = share_raw(rel), *name, *inc;
	const char *line, *end;
	struct buf b = BUF_INIT;

	if (strstr(s, INCLUDE_OPEN) == NULL)
		return s;
	for (line = s; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		if ((name = include_name(line, end)) == NULL) {
			buf_add(&b, line, (size_t)(end - line) + (*end == '\n'));
			continue;
		}
		inc = share_raw(name);
		buf_adds(&b, inc);
		free(inc);
		free(name);
	}
	free(s);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

char *
ctx_utc_now(char *out, size_t outlen)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, outlen, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}
