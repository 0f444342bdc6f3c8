/*
 * unit-swar.c - common/swar.h and common/jsonscan.h against the byte
 * tests they stand for, on jsonscan.h's wide path (SSE2 on x86-64).
 */
#include "swar-check.h"

int
main(void)
{
	return run_checks("wide");
}
