/*
 * unit-expr.c - the rubric expression language (tools/bscore-merge/expr.c):
 * precedence, null handling, tolerance, functions, and parse errors.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ctx.h"
#include "../../tools/bscore-merge/expr.h"

static json_t *row, *enums;

static char *
eval(const char *text)
{
	char *err, *s;
	struct bsm_expr *e = bsm_expr_parse(text, &err);
	json_t *v;

	if (!e) {
		s = xasprintf("error: %s", err);
		free(err);
		return s;
	}
	v = bsm_expr_eval(e, row, enums);
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(v);
	bsm_expr_free(e);
	return s;
}

static void
tree(const char *text, const char *want)
{
	char *err = NULL, *got;
	struct bsm_expr *e = bsm_expr_parse(text, &err);
	json_t *j = bsm_expr_json(e);

	got = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
	TAP_IS_STR(got, want, "tree of %s", text);
	free(got);
	free(err);
	json_decref(j);
	bsm_expr_free(e);
}

static void
is(const char *text, const char *want)
{
	char *got = eval(text);

	TAP_IS_STR(got, want, "%s", text);
	free(got);
}

/* Depth bound: deep nesting is an error, never a stack overflow. */
static void
deep(void)
{
	struct buf b = BUF_INIT;
	size_t i, n = 50000;
	char *got;

	for (i = 0; i < n; i++)
		buf_addc(&b, '(');
	buf_addc(&b, 'a');
	for (i = 0; i < n; i++)
		buf_addc(&b, ')');
	got = eval(b.s);
	TAP_IS_STR(got, "error: expression nested deeper than 200 levels at offset 200",
	    "50,000 nested parentheses");
	free(got);
	buf_reset(&b);
	for (i = 0; i < n; i++)
		buf_adds(&b, "not ");
	buf_addc(&b, 'a');
	got = eval(b.s);
	TAP_OK(strstr(got, "nested deeper than 200 levels") != NULL, "50,000 nested not: %s", got);
	free(got);
	buf_reset(&b);
	for (i = 0; i < n; i++)
		buf_adds(&b, "- ");
	buf_addc(&b, 'a');
	got = eval(b.s);
	TAP_OK(strstr(got, "nested deeper than 200 levels") != NULL, "50,000 nested minus: %s", got);
	free(got);
	buf_reset(&b);
	buf_addc(&b, 'a');
	for (i = 0; i < n; i++)
		buf_adds(&b, " + a");
	got = eval(b.s);
	TAP_OK(strstr(got, "nested deeper than 200 levels") != NULL, "a chain of 50,000 additions: %s", got);
	free(got);
	buf_reset(&b);
	for (i = 0; i < 60; i++)
		buf_addc(&b, '(');
	buf_adds(&b, "a + 1");
	for (i = 0; i < 60; i++)
		buf_addc(&b, ')');
	buf_adds(&b, " == 3");
	got = eval(b.s);
	TAP_IS_STR(got, "true", "60 nested parentheses are fine");
	free(got);
	buf_release(&b);
}

int
main(void)
{
	json_error_t je;

	err_init("unit-expr");
	row = json_loads("{\"a\":2,\"b\":3,\"q\":0.95,\"r\":0.7,\"s\":\"x\",\"n\":null,"
	    "\"v\":[{\"code\":\"H\",\"p\":5},{\"code\":\"F\",\"p\":30}],\"l\":[\"x\",\"y\"],\"t\":true}", 0, &je);
	enums = json_loads("{\"code\":[{\"value\":\"H\",\"penalty\":5},{\"value\":\"F\",\"penalty\":30}]}", 0, &je);
	is("a + b * 2", "8.0");
	is("(a + b) * 2", "10.0");
	is("-a + 1", "-1.0");
	is("0.3 * r + 0.7 * q", "0.875");
	is("a / 0", "null");
	is("n + 1", "null");
	is("n == null", "true");
	is("n < 1", "false");
	is("n != 0", "true");
	is("a == 2 and b > 2", "true");
	is("a == 3 or not t", "false");
	is("not a == 3", "true");
	is("s == \"x\"", "true");
	is("0.1 + 0.2 == 0.3", "true");
	is("count(v)", "2.0");
	is("sum(v.p)", "35.0");
	is("max(0, 100 - sum(v.p) * 3)", "0.0");
	is("min(a, b)", "2.0");
	is("in(s, l)", "true");
	is("in(\"z\", l)", "false");
	is("count(missing)", "0.0");
	is("missing", "null");
	is("a >= 2 and a <= 2", "true");
	is("a +", "error: expected a value at offset 3");
	is("(a", "error: expected ')' at offset 2");
	is("a b", "error: unexpected text after the expression at offset 2");
	is("frob(a)", "error: unknown function frob()");
	is("count(a, b)", "error: count() takes one argument");
	is("attr(1, \"p\")", "error: attr() takes a field name and an attribute");
	is("\"open", "error: unterminated string at offset 0");
	is("a # b", "error: unexpected character at offset 2");
	deep();
	json_decref(row);
	row = json_loads("{\"code\":\"F\"}", 0, &je);
	is("attr(code, \"penalty\")", "30.0");
	is("attr(code, \"penalty_min\")", "null");
	json_decref(row);
	json_decref(enums);
	/* The tree as JSON, for the scoring page's own evaluator. */
	tree("a < 3 or not b", "{\"k\":\"bin\",\"op\":\"or\",\"a\":{\"k\":\"bin\",\"op\":\"<\","
	    "\"a\":{\"k\":\"field\",\"name\":\"a\"},\"b\":{\"k\":\"lit\",\"v\":3.0}},"
	    "\"b\":{\"k\":\"un\",\"op\":\"not\",\"a\":{\"k\":\"field\",\"name\":\"b\"}}}");
	tree("count(h) == -n", "{\"k\":\"bin\",\"op\":\"==\",\"a\":{\"k\":\"call\",\"name\":\"count\","
	    "\"args\":[{\"k\":\"field\",\"name\":\"h\"}]},\"b\":{\"k\":\"un\",\"op\":\"-\","
	    "\"a\":{\"k\":\"field\",\"name\":\"n\"}}}");
	tree("sum(v.penalty) != null", "{\"k\":\"bin\",\"op\":\"!=\",\"a\":{\"k\":\"call\",\"name\":\"sum\","
	    "\"args\":[{\"k\":\"field\",\"name\":\"v\",\"sub\":\"penalty\"}]},\"b\":{\"k\":\"lit\",\"v\":null}}");
	return tap_done();
}
