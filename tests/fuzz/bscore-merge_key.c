/*
 * bscore-merge_key.c - libFuzzer target for the key that blind writes and
 * merge reads (bsm_key_load in tools/bscore-merge/key.c): arbitrary bytes
 * load as a checked key or are refused with a message (die, caught).
 */
#include "fuzz.h"
#include "../../tools/bscore-merge/key.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	volatile json_t *key = NULL;

	if (!ready) {
		fz_init("bscore-merge_key");
		ready = 1;
	}
	fz_mark();
	if (setjmp(fz_jmp) == 0) {
		key = bsm_key_load(fz_file("key", data, size));
		json_decref((json_t *)key);
	}
	return 0;
}
