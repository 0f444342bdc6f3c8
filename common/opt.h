/*
 * opt.h - option helpers shared by every program.
 *
 * Numbers given on the command line are parsed with the checked helpers: the
 * whole string must be a number in range, else a usage error (exit 2) naming
 * the option.  Lists are comma separated.
 */
#ifndef CTX_OPT_H
#define CTX_OPT_H

#include <stddef.h>

/* Parse a decimal integer in [min, max] for option name; usage error else. */
long long opt_int(const char *name, const char *s, long long min, long long max);
/* Parse a finite real in [min, max]. */
double opt_real(const char *name, const char *s, double min, double max);
/* Parse a size with an optional K, M or G suffix (powers of 1024). */
unsigned long long opt_size(const char *name, const char *s);

/*
 * Checked parsers that return 0 on success and -1 on failure without dying,
 * for data (CSV cells, config values).  The whole string must be consumed;
 * leading/trailing spaces are not accepted.
 */
int parse_int(const char *s, long long *out);
int parse_real(const char *s, double *out);
/* "true"/"false" in any case, "1"/"0", "yes"/"no". */
int parse_bool(const char *s, int *out);

/*
 * Split a comma-separated list into a malloc'd NULL-terminated array of
 * malloc'd strings (empty items dropped).  Free with strv_free.
 */
char **strv_split(const char *s, char sep);
size_t strv_len(char *const *v);
void strv_free(char **v);

/*
 * The common options.  Each program's usage text is printed by
 * opt_help(text) (to stdout, exit 0); opt_version() prints
 * "PROGRAM (ctxbench) VERSION" (exit 0).
 */
void opt_help(const char *usage_text);
void opt_version(void);

struct option;
/*
 * getopt_long(3) with one error style for every program: opterr is off, and
 * instead of getopt's own messages (which name argv[0] with its full path)
 * a missing argument prints "PROGRAM[: SUB]: -X: missing argument" (a long
 * option as --name), an unknown option "PROGRAM[: SUB]: unknown option -X"
 * (or --name), an ambiguous abbreviation "ambiguous option --na", and an
 * argument given to a long option that takes none "--name: takes no
 * argument"; then the usage hint, exit 2.  sub is the subcommand or NULL.
 * Otherwise it returns what getopt_long returns; never '?' or ':'.
 */
int opt_getopt(int argc, char *const argv[], const char *optstring,
    const struct option *longopts, const char *sub);
#define CTXBENCH_VERSION_STR CTX_VERSION

#endif
