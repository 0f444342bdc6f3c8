/*
 * unit-swar-generic.c - the same checks as unit-swar.c with JSCAN_GENERIC
 * defined: jsonscan.h's eight-byte path, the one a machine without SSE2
 * builds, run on this one.
 */
#define JSCAN_GENERIC 1
#include "swar-check.h"

int
main(void)
{
	return run_checks("eight-byte");
}
