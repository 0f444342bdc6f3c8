/*
 * bscore-merge_rubric.c - libFuzzer target for rubric definitions: with the
 * first byte even, the rest is an expression of the rubric language
 * (tools/bscore-merge/expr.c), parsed, evaluated against a row and turned
 * into the scoring page's JSON tree; odd, the rest is a rubric JSON file
 * loaded and checked as "-R FILE" does (bsm_rubric_load, which dies on a
 * bad definition: caught).  Never a crash, a hang or a stack overflow
 * (nesting is bounded).
 */
#include "fuzz.h"
#include "../../tools/bscore-merge/expr.h"
#include "../../tools/bscore-merge/rubric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static json_t *row, *enums;

static void
expression(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size), *err = NULL;
	struct bsm_expr *e = bsm_expr_parse(text, &err);

	if (e != NULL) {
		json_decref(bsm_expr_eval(e, row, enums));
		json_decref(bsm_expr_json(e));
		bsm_expr_free(e);
	}
	free(err);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	json_error_t je;
	volatile struct bsm_rubric *r = NULL;

	if (!ready) {
		fz_init("bscore-merge_rubric");
		row = json_loads("{\"a\":2,\"s\":\"x\",\"l\":[\"x\",\"y\"],\"n\":null,"
		    "\"h\":[{\"category\":\"H-FAB\",\"p\":5},{\"category\":\"H-SRC\",\"p\":15}],"
		    "\"code\":\"F\"}", 0, &je);
		enums = json_loads("{\"code\":[{\"value\":\"F\",\"penalty\":30}]}", 0, &je);
		ready = 1;
	}
	if (size < 1)
		return 0;
	if ((data[0] & 1) == 0) {
		expression(data + 1, size - 1);
		return 0;
	}
	if (setjmp(fz_jmp) == 0) {
		r = bsm_rubric_load(fz_file("rubric", data + 1, size - 1));
		bsm_rubric_free((struct bsm_rubric *)r);
	}
	return 0;
}
