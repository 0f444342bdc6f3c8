/*
 * fuzz.h - helpers for libFuzzer targets of parsers that die() on bad input
 * (the loaders of the study files, the rubric, the key): die() longjmps back
 * (err_set_exit_hook) so one bad input ends one run, not the fuzzer; inputs
 * are handed over as a file, since the loaders take paths.  A target using
 * this runs with -detect_leaks=0 (tests/fuzz/NAME.options): the memory of
 * a loader that dies is what the exit would have released.
 */
#ifndef CTX_FUZZ_H
#define CTX_FUZZ_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"

static jmp_buf fz_jmp;

/*
 * No leak report at exit either: longjmp out of a dying loader leaves its
 * memory behind by design (read by AddressSanitizer at start-up).
 */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

static void
fz_exit_hook(int status)
{
	(void)status;
	longjmp(fz_jmp, 1);
}

/* Write data to this process's scratch file and return its path. */
static const char *
fz_file(const char *tag, const uint8_t *data, size_t size)
{
	static char path[128];
	FILE *fp;

	snprintf(path, sizeof path, "/tmp/ctxbench-fuzz-%s-%ld", tag, (long)getpid());
	fp = fopen(path, "wb");
	if (fp == NULL || (size && fwrite(data, 1, size, fp) != size) || fclose(fp) != 0)
		abort();
	return path;
}

static void
fz_init(const char *name)
{
	err_init(name);
	err_set_exit_hook(fz_exit_hook);
}

#endif
