/*
 * tap.h - a tiny TAP producer for C unit tests (header only).
 *
 *     TAP_OK(cond, "description %d", n);
 *     TAP_IS_INT(got, want, "description");
 *     TAP_IS_STR(got, want, "description");
 *     tap_skip("why it is not run");
 *     return tap_done();
 */
#ifndef CTX_TAP_H
#define CTX_TAP_H

#include <stdio.h>
#include <string.h>
#include <stdarg.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define TAP_OK(cond, ...) tap_ok(!!(cond), __VA_ARGS__)
#define TAP_IS_INT(got, want, ...) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!tap_ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got %lld, expected %lld\n", g_, w_); \
} while (0)
#define TAP_IS_STR(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	int e_ = (g_ == NULL && w_ == NULL) || (g_ && w_ && strcmp(g_, w_) == 0); \
	if (!tap_ok(e_, __VA_ARGS__)) \
		printf("#   got '%s', expected '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)
#define TAP_IS_REAL(got, want, tol, ...) do { \
	double g_ = (got), w_ = (want); \
	double d_ = g_ > w_ ? g_ - w_ : w_ - g_; \
	if (!tap_ok(d_ <= (tol), __VA_ARGS__)) \
		printf("#   got %.17g, expected %.17g\n", g_, w_); \
} while (0)

/* A test not run, and why (the TAP directive SKIP). */
__attribute__((unused))
static void tap_skip(const char *why)
{
	printf("ok %d # skip %s\n", ++tap_n, why);
	fflush(stdout);
}

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
