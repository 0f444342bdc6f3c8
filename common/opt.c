/*
 * opt.c - checked number parsing and the common options (see opt.h).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "opt.h"

int
parse_int(const char *s, long long *out)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int
parse_real(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE && fabs(v) > 1.0)
		return -1;
	if (*end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int
parse_bool(const char *s, int *out)
{
	static const char *yes[] = { "true", "1", "yes", NULL };
	static const char *no[] = { "false", "0", "no", NULL };
	int i;

	for (i = 0; yes[i]; i++)
		if (strcasecmp(s, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
	for (i = 0; no[i]; i++)
		if (strcasecmp(s, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	return -1;
}

long long
opt_int(const char *name, const char *s, long long min, long long max)
{
	long long v;

	if (parse_int(s, &v) < 0)
		die_usage("%s: expected an integer, got '%s'", name, s);
	if (v < min || v > max)
		die_usage("%s: %lld is out of range (%lld to %lld)", name, v, min, max);
	return v;
}

double
opt_real(const char *name, const char *s, double min, double max)
{
	double v;

	if (parse_real(s, &v) < 0)
		die_usage("%s: expected a number, got '%s'", name, s);
	if (v < min || v > max)
		die_usage("%s: %g is out of range (%g to %g)", name, v, min, max);
	return v;
}

unsigned long long
opt_size(const char *name, const char *s)
{
	char *end;
	unsigned long long v, mul = 1;

	if (s == NULL || !isdigit((unsigned char)*s))
		die_usage("%s: expected a size, got '%s'", name, s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		die_usage("%s: size out of range: '%s'", name, s);
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	default: die_usage("%s: bad size suffix in '%s'", name, s);
	}
	if (*end != '\0')
		die_usage("%s: expected a size, got '%s'", name, s);
	if (v > (~0ULL) / mul)
		die_usage("%s: size out of range: '%s'", name, s);
	return v * mul;
}

char **
strv_split(const char *s, char sep)
{
	char **v = NULL;
	size_t n = 0;
	const char *p = s, *q;

	v = xreallocarray(NULL, 1, sizeof(*v));
	while (p && *p) {
		q = strchr(p, sep);
		if (q == NULL)
			q = p + strlen(p);
		if (q > p) {
			v = xreallocarray(v, n + 2, sizeof(*v));
			v[n++] = xstrndup(p, (size_t)(q - p));
		}
		p = *q ? q + 1 : q;
	}
	v[n] = NULL;
	return v;
}

size_t
strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void
opt_help(const char *usage_text)
{
	fputs(usage_text, stdout);
	if (fflush(stdout) == EOF || ferror(stdout))
		die_errno("write error");
	exit(0);
}

void
opt_version(void)
{
	printf("%s (ctxbench) %s\n", err_progname(), CTX_VERSION);
	if (fflush(stdout) == EOF || ferror(stdout))
		die_errno("write error");
	exit(0);
}

/*
 * The number of long options whose name starts with the len bytes of name,
 * and whose val is val (any val when val is 0); *found is set to the option
 * named exactly so (then the count is 1), or to the first match.
 */
static int
long_matches(const struct option *lo, const char *name, size_t len, int val,
    const struct option **found)
{
	int n = 0;

	*found = NULL;
	for (; lo && lo->name; lo++) {
		if (strncmp(lo->name, name, len) != 0 || (val && lo->val != val))
			continue;
		if (lo->name[len] == '\0') {
			*found = lo;
			return 1;
		}
		if (*found == NULL)
			*found = lo;
		n++;
	}
	return n;
}

static CTX_NORETURN void
getopt_error(int c, char *const argv[], int argc,
    const struct option *longopts, const char *sub)
{
	const char *el = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
	const char *sp = sub ? sub : "", *sep = sub ? ": " : "";
	const struct option *lo = NULL;
	size_t len = 0;
	int n = 0;

	if (el && el[0] == '-' && el[1] == '-' && el[2]) {
		len = strcspn(el + 2, "=");
		n = long_matches(longopts, el + 2, len, optopt, &lo);
	}
	if (n == 0) {
		/* A short option (getopt_long sets optopt to it). */
		if (c == ':')
			die_usage("%s%s-%c: missing argument", sp, sep, optopt);
		if (optopt)
			die_usage("%s%sunknown option -%c", sp, sep, optopt);
		die_usage("%s%sunknown option %.*s", sp, sep,
		    (int)(len + 2), el ? el : "");
	}
	if (c == ':')
		die_usage("%s%s--%s: missing argument", sp, sep, lo->name);
	if (optopt)
		die_usage("%s%s--%s: takes no argument", sp, sep, lo->name);
	die_usage("%s%sambiguous option --%.*s", sp, sep, (int)len, el + 2);
}

int
opt_getopt(int argc, char *const argv[], const char *optstring,
    const struct option *longopts, const char *sub)
{
	char buf[256];
	size_t pre = 0, n = strlen(optstring);
	int c;

	/* A leading ':' makes getopt tell a missing argument from an unknown option. */
	if (n + 2 > sizeof buf)
		die("opt_getopt: option string too long");
	while (pre < n && (optstring[pre] == '+' || optstring[pre] == '-'))
		pre++;
	memcpy(buf, optstring, pre);
	buf[pre] = ':';
	memcpy(buf + pre + 1, optstring + pre, n - pre + 1);
	opterr = 0;
	c = getopt_long(argc, argv, buf, longopts, NULL);
	if (c == '?' || c == ':')
		getopt_error(c, argv, argc, longopts, sub);
	return c;
}
