/*
 * unit-variants.c - common/variants.c: the declared variants and
 * comparisons of a config, their defaults, look-ups, and every message a
 * bad declaration receives with exit status 1 (caught through the exit
 * hook, stderr read back).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "variants.h"
#include "tap.h"

static jmp_buf back;
static int exit_status;

static void
hook(int status)
{
	exit_status = status;
	longjmp(back, 1);
}

static json_t *
parse(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);

	if (v == NULL) {
		fprintf(stderr, "bad test JSON: %s: %s\n", text, e.text);
		exit(2);
	}
	return v;
}

/*
 * Load the config text; return NULL when it loads, or the message it died
 * with (static, without the trailing newline).
 */
static const char *
load_msg(const char *text)
{
	static char msg[1024];
	struct variants vs;
	json_t *cfg = parse(text);
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n = 0;
	volatile int died = 0;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	memset(&vs, 0, sizeof vs);
	if (setjmp(back) == 0)
		variants_load(&vs, cfg, "cfg.json");
	else
		died = 1;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	variants_free(&vs);
	json_decref(cfg);
	rewind(tmp);
	n = fread(msg, 1, sizeof msg - 1, tmp);
	fclose(tmp);
	msg[n] = '\0';
	if (n > 0 && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	return died ? msg : NULL;
}

static void
dies(const char *text, const char *want, const char *what)
{
	const char *got;

	exit_status = 0;
	got = load_msg(text);
	if (got && exit_status != EXIT_DATA)
		got = "(an exit status other than 1)";
	TAP_IS_STR(got, want, "error: %s", what);
}

static void
test_none(void)
{
	struct variants vs;
	json_t *cfg = parse("{\"models\": []}");

	variants_load(&vs, cfg, "cfg.json");
	TAP_IS_INT(vs.nv + vs.nc, 0, "no variants key: no variants, no comparisons");
	TAP_IS_STR(variants_base(&vs, "A"), "A", "base of A is A without variants");
	TAP_IS_STR(variants_base(&vs, "B-plain"), NULL, "an undeclared name has no base");
	TAP_OK(variants_find(&vs, "B") == NULL, "B is not a variant");
	variants_free(&vs);
	json_decref(cfg);
	cfg = parse("{\"variants\": null, \"comparisons\": null}");
	variants_load(&vs, cfg, "cfg.json");
	TAP_IS_INT(vs.nv + vs.nc, 0, "null keys: none");
	variants_free(&vs);
	variants_free(&vs);
	TAP_OK(vs.v == NULL && vs.c == NULL, "variants_free is idempotent");
	json_decref(cfg);
	variants_load(&vs, NULL, "cfg.json");
	TAP_IS_INT(vs.nv, 0, "a NULL config has no variants");
	variants_free(&vs);
}

static const char full[] =
    "{\"variants\": [\"B-plain\", \"A-markdown\", \"A-whole\","
    " {\"_comment\": \"L-IV-4\", \"name\": \"B-neutral-prompt\", \"of\": \"B-plain\","
    "  \"prompt_template\": {\"system_prompt\": \"Answer.\","
    "  \"user_prompt\": \"{question_text}\\n{assembled_content}\"}}]}";

static void
test_defaults(void)
{
	struct variants vs;
	json_t *cfg = parse(full);
	const struct variant *p;

	variants_load(&vs, cfg, "cfg.json");
	json_decref(cfg);	/* everything is copied */
	TAP_IS_INT(vs.nv, 4, "four variants declared");
	TAP_IS_STR(vs.v[0].of, "B", "B-plain varies B");
	TAP_IS_INT(vs.v[0].kind, VARIANT_B_PLAIN, "B-plain's kind");
	TAP_IS_STR(vs.v[1].of, "A", "A-markdown varies A");
	TAP_IS_INT(vs.v[1].kind, VARIANT_A_MARKDOWN, "A-markdown's kind");
	TAP_IS_INT(vs.v[2].kind, VARIANT_A_WHOLE, "A-whole's kind");
	TAP_OK(vs.v[0].system_prompt == NULL && vs.v[2].user_prompt == NULL,
	    "built-ins carry no prompts");
	p = variants_find(&vs, "B-neutral-prompt");
	TAP_OK(p && p->kind == VARIANT_PROMPT, "the prompt variant is found");
	TAP_IS_STR(p ? p->of : NULL, "B-plain", "its of is as declared");
	TAP_IS_STR(p ? p->system_prompt : NULL, "Answer.", "its system prompt");
	TAP_IS_STR(p ? p->user_prompt : NULL, "{question_text}\n{assembled_content}",
	    "its user prompt");
	TAP_IS_STR(variants_base(&vs, "B-neutral-prompt"), "B",
	    "a prompt variant of B-plain finally varies B");
	TAP_IS_STR(variants_base(&vs, "A-whole"), "A", "A-whole's base");
	TAP_IS_STR(variants_base(&vs, "B"), "B", "B's base is B");
	TAP_IS_STR(variants_base(&vs, "C"), NULL, "unknown name: no base");
	TAP_IS_INT(vs.nc, 4, "comparisons absent: one per variant");
	TAP_OK(vs.nc == 4 && strcmp(vs.c[0].x, "B-plain") == 0 &&
	    strcmp(vs.c[0].y, "B") == 0 && strcmp(vs.c[3].x, "B-neutral-prompt") == 0 &&
	    strcmp(vs.c[3].y, "B-plain") == 0, "default comparisons: variant minus its of");
	variants_free(&vs);
}

static void
test_declared(void)
{
	struct variants vs;
	json_t *cfg = parse("{\"variants\": [\"A-whole\", \"B-plain\"],"
	    " \"comparisons\": [\"A:A-whole\", \"B-plain:A-whole\"]}");

	variants_load(&vs, cfg, "cfg.json");
	TAP_IS_INT(vs.nc, 2, "declared comparisons replace the defaults");
	TAP_OK(vs.nc == 2 && strcmp(vs.c[0].x, "A") == 0 &&
	    strcmp(vs.c[0].y, "A-whole") == 0 && strcmp(vs.c[1].x, "B-plain") == 0,
	    "X:Y kept in declared orientation and order");
	variants_free(&vs);
	json_decref(cfg);
	cfg = parse("{\"variants\": [\"A-whole\"], \"comparisons\": []}");
	variants_load(&vs, cfg, "cfg.json");
	TAP_IS_INT(vs.nc, 0, "an empty comparisons list declares none");
	variants_free(&vs);
	json_decref(cfg);
}

#define PT "\"prompt_template\": {\"system_prompt\": \"s\", " \
    "\"user_prompt\": \"{assembled_content} {question_text}\"}"

static void
test_variant_errors(void)
{
	dies("{\"variants\": {}}", "unit-variants: cfg.json: variants: expected an "
	    "array, got an object", "variants not an array");
	dies("{\"variants\": [\"B-plain\", 3]}", "unit-variants: cfg.json: "
	    "variants[1]: expected a string or an object, got an integer", "entry type");
	dies("{\"variants\": [\"B-fancy\"]}", "unit-variants: cfg.json: variants[0]: "
	    "unknown built-in variant 'B-fancy' (B-plain, A-markdown, A-whole; a prompt "
	    "variant is an object with name, of and prompt_template)", "unknown built-in");
	dies("{\"variants\": [\"A-whole\", \"A-whole\"]}", "unit-variants: cfg.json: "
	    "variants[1]: 'A-whole' is declared twice", "built-in declared twice");
	dies("{\"variants\": [{\"of\": \"B\", " PT "}]}", "unit-variants: cfg.json: "
	    "variants[0].name: expected a string, got nothing", "name missing");
	dies("{\"variants\": [{\"name\": \"-x\", \"of\": \"B\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].name: '-x' is not a valid name "
	    "(letters, digits, '.', '_' and '-', starting with a letter or digit)",
	    "bad name: leading dash");
	dies("{\"variants\": [{\"name\": \"a b\", \"of\": \"B\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].name: 'a b' is not a valid name "
	    "(letters, digits, '.', '_' and '-', starting with a letter or digit)",
	    "bad name: a space");
	dies("{\"variants\": [{\"name\": \"\", \"of\": \"B\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].name: '' is not a valid name "
	    "(letters, digits, '.', '_' and '-', starting with a letter or digit)",
	    "bad name: empty");
	dies("{\"variants\": [{\"name\": \"B\", \"of\": \"A\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].name: 'B' is a primary condition, "
	    "not a variant", "name B");
	dies("{\"variants\": [{\"name\": \"A-whole\", \"of\": \"A\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].name: 'A-whole' is a built-in "
	    "variant (declare it as the string \"A-whole\")", "object named as a built-in");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", " PT "},"
	    " {\"name\": \"p\", \"of\": \"A\", " PT "}]}", "unit-variants: cfg.json: "
	    "variants[1].name: 'p' is declared twice", "prompt variant declared twice");
	dies("{\"variants\": [{\"name\": \"p\", " PT "}]}", "unit-variants: cfg.json: "
	    "variants[0].of: expected a string, got nothing", "of missing");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"q\", " PT "},"
	    " {\"name\": \"q\", \"of\": \"B\", " PT "}]}", "unit-variants: cfg.json: "
	    "variants[0].of: 'q' is not declared (A, B or a variant declared before "
	    "this one)", "of naming a later variant");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"p\", " PT "}]}",
	    "unit-variants: cfg.json: variants[0].of: 'p' is not declared (A, B or a "
	    "variant declared before this one)", "of naming itself");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", \"prompt\": 1, " PT "}]}",
	    "unit-variants: cfg.json: variants[0].prompt: unknown field (a prompt "
	    "variant has name, of and prompt_template)", "unknown field");
}

static void
test_template_errors(void)
{
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\"}]}", "unit-variants: "
	    "cfg.json: variants[0].prompt_template: expected an object, got nothing",
	    "template missing");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", \"prompt_template\": "
	    "{\"user_prompt\": \"{assembled_content}{question_text}\"}}]}",
	    "unit-variants: cfg.json: variants[0].prompt_template.system_prompt: "
	    "expected a string, got nothing", "system prompt missing");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", \"prompt_template\": "
	    "{\"system_prompt\": \"s\", \"user_prompt\": 7}}]}", "unit-variants: "
	    "cfg.json: variants[0].prompt_template.user_prompt: expected a string, got "
	    "an integer", "user prompt not a string");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", \"prompt_template\": "
	    "{\"system_prompt\": \"s\", \"user_prompt\": \"{question_text}\"}}]}",
	    "unit-variants: cfg.json: variants[0].prompt_template.user_prompt: lacks "
	    "the placeholder {assembled_content}", "no content slot");
	dies("{\"variants\": [{\"name\": \"p\", \"of\": \"B\", \"prompt_template\": "
	    "{\"system_prompt\": \"s\", \"user_prompt\": \"{assembled_content}\"}}]}",
	    "unit-variants: cfg.json: variants[0].prompt_template.user_prompt: lacks "
	    "the placeholder {question_text}", "no question slot");
}

static void
test_comparison_errors(void)
{
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": \"A-whole:A\"}",
	    "unit-variants: cfg.json: comparisons: expected an array, got a string",
	    "comparisons not an array");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [[\"A-whole\", \"A\"]]}",
	    "unit-variants: cfg.json: comparisons[0]: expected a string \"X:Y\", got "
	    "an array", "comparison not a string");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"A-whole:A\", \"A-whole\"]}",
	    "unit-variants: cfg.json: comparisons[1]: 'A-whole' is not of the form X:Y",
	    "no colon");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"A-whole:A:B\"]}",
	    "unit-variants: cfg.json: comparisons[0]: 'A-whole:A:B' is not of the form "
	    "X:Y", "two colons");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\":A\"]}",
	    "unit-variants: cfg.json: comparisons[0]: ':A' is not of the form X:Y",
	    "empty side");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"B-plain:B\"]}",
	    "unit-variants: cfg.json: comparisons[0]: 'B-plain' is not a declared "
	    "condition (A, B or a declared variant)", "undeclared X");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"A-whole:Z\"]}",
	    "unit-variants: cfg.json: comparisons[0]: 'Z' is not a declared "
	    "condition (A, B or a declared variant)", "undeclared Y");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"A-whole:A-whole\"]}",
	    "unit-variants: cfg.json: comparisons[0]: 'A-whole:A-whole' compares a "
	    "condition with itself", "self comparison");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"B:A\"]}",
	    "unit-variants: cfg.json: comparisons[0]: 'B:A' is the primary analysis, "
	    "which always runs; a comparison names a variant", "primary as comparison");
	dies("{\"variants\": [\"A-whole\"], \"comparisons\": [\"A-whole:A\", \"A:A-whole\"]}",
	    "unit-variants: cfg.json: comparisons[1]: 'A:A-whole' is declared twice "
	    "(as 'A-whole:A')", "comparison declared twice, reversed");
}

int
main(void)
{
	err_init("unit-variants");
	err_set_exit_hook(hook);
	test_none();
	test_defaults();
	test_declared();
	test_variant_errors();
	test_template_errors();
	test_comparison_errors();
	return tap_done();
}
