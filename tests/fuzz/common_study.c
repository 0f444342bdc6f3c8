/*
 * common_study.c - libFuzzer target for the study file loaders
 * (common/study.c): the first byte chooses benchmark-config.json,
 * site-list.csv, questions.json or gold-answers.json; the rest is the file.
 * Every input is loaded or refused with a message (die, caught), never a
 * crash, a hang or an overflow; what loads is released cleanly.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	volatile json_t *v = NULL;
	const char *path;

	if (!ready) {
		fz_init("common_study");
		ready = 1;
	}
	if (size < 1)
		return 0;
	path = fz_file("study", data + 1, size - 1);
	if (setjmp(fz_jmp) == 0) {
		switch (data[0] & 3) {
		case 0: v = study_config_load(path); break;
		case 1: v = study_sites_load(path); break;
		case 2: v = study_questions_load(path); break;
		default: v = study_gold_load(path); break;
		}
		json_decref((json_t *)v);
	}
	return 0;
}
