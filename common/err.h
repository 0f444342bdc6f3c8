/*
 * err.h - diagnostics and exit status for every ctxbench program.
 *
 * Messages go to stderr as "PROGRAM: message\n".  The program name is set once
 * by err_init() from argv[0] (or a fixed name).  Exit status follows
 * STYLE.md: 0 success, 1 data or runtime error (EXIT_DATA), 2 usage error
 * (EXIT_USAGE).  die() runs the atexit handlers, so atomic outputs opened
 * through atomic.h are abandoned (their temporary files removed) and no half
 * file is ever left behind.
 */
#ifndef CTX_ERR_H
#define CTX_ERR_H

#include <stdarg.h>

#define EXIT_DATA  1
#define EXIT_USAGE 2

#if defined(__GNUC__)
#define CTX_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define CTX_NORETURN __attribute__((noreturn))
#else
#define CTX_PRINTF(a, b)
#define CTX_NORETURN
#endif

/* Set the name printed before every message; keeps the pointer. */
void err_init(const char *progname);
const char *err_progname(void);

/* Print "PROGRAM: message" and exit with EXIT_DATA. */
void die(const char *fmt, ...) CTX_PRINTF(1, 2) CTX_NORETURN;
/* Like die() with ": strerror(errno)" appended. */
void die_errno(const char *fmt, ...) CTX_PRINTF(1, 2) CTX_NORETURN;
/* Print "PROGRAM: message" and exit with the given status. */
void diex(int status, const char *fmt, ...) CTX_PRINTF(2, 3) CTX_NORETURN;
/*
 * A run that did nothing (selected, extracted, assembled or counted no
 * record): unless allow, print "PROGRAM: message (--allow-empty when that is
 * expected)" and exit EXIT_DATA, so the -o output is not committed and a
 * pipeline stops there.  With allow it returns and prints nothing.
 */
void die_empty(int allow, const char *fmt, ...) CTX_PRINTF(2, 3);
/* Usage error: message, then "try 'PROGRAM --help'", exit EXIT_USAGE. */
void die_usage(const char *fmt, ...) CTX_PRINTF(1, 2) CTX_NORETURN;
/*
 * For fuzz targets and test drivers only: when set, die(), die_errno(),
 * diex() and die_usage() print their message and call hook(status) instead
 * of exit(); the hook must not return (it longjmps back to the driver).
 * NULL restores exit().
 */
void err_set_exit_hook(void (*hook)(int status));
/* exit(status), or the hook when one is set: for die()-like functions. */
void err_exit(int status) CTX_NORETURN;
/* Print "PROGRAM: message" and return. */
void warn(const char *fmt, ...) CTX_PRINTF(1, 2);
void warn_errno(const char *fmt, ...) CTX_PRINTF(1, 2);
void vwarn_prefixed(const char *fmt, va_list ap);

/* Out-of-memory safe allocation: die on failure. */
#include <stddef.h>
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Like xrealloc for an array of nmemb elements; dies on overflow. */
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* malloc'd formatted string (vsnprintf twice); dies on failure. */
char *xasprintf(const char *fmt, ...) CTX_PRINTF(1, 2);

#endif
