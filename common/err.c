/*
 * err.c - diagnostics, exit status and checked allocation (see err.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static const char *progname = "ctxbench";
static void (*exit_hook)(int);

void
err_set_exit_hook(void (*hook)(int status))
{
	exit_hook = hook;
}

void
err_exit(int status)
{
	if (exit_hook)
		exit_hook(status);
	exit(status);
}

void
err_init(const char *name)
{
	const char *slash;

	if (name == NULL || *name == '\0')
		return;
	slash = strrchr(name, '/');
	progname = slash ? slash + 1 : name;
}

const char *
err_progname(void)
{
	return progname;
}

void
vwarn_prefixed(const char *fmt, va_list ap)
{
	char line[1024];
	va_list aq;
	int p, n = -1;

	fflush(stdout);
	/* one write to the unbuffered stderr when the message fits, not three */
	va_copy(aq, ap);
	p = snprintf(line, sizeof line, "%s: ", progname);
	if (p >= 0 && (size_t)p < sizeof line)
		n = vsnprintf(line + p, sizeof line - (size_t)p, fmt, aq);
	va_end(aq);
	if (n >= 0 && (size_t)p + (size_t)n + 1 < sizeof line) {
		line[p + n] = '\n';
		fwrite(line, 1, (size_t)p + (size_t)n + 1, stderr);
		return;
	}
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_prefixed(fmt, ap);
	va_end(ap);
}

static void
vwarn_errno(int e, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(e));
}

void
warn_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vwarn_errno(e, fmt, ap);
	va_end(ap);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_prefixed(fmt, ap);
	va_end(ap);
	err_exit(EXIT_DATA);
}

void
die_empty(int allow, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (allow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	va_end(ap);
	die("%s (--allow-empty when that is expected)", msg);
}

void
die_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vwarn_errno(e, fmt, ap);
	va_end(ap);
	err_exit(EXIT_DATA);
}

void
diex(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_prefixed(fmt, ap);
	va_end(ap);
	err_exit(status);
}

void
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_prefixed(fmt, ap);
	va_end(ap);
	fprintf(stderr, "try '%s --help' for more information\n", progname);
	err_exit(EXIT_USAGE);
}

static void *
oom(size_t n)
{
	die("out of memory allocating %zu bytes", n);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : oom(n * size);
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > ((size_t)-1) / size)
		die("size overflow allocating %zu elements of %zu bytes", nmemb, size);
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p;

	if (n == (size_t)-1)
		die("size overflow");
	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("formatting failed");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
