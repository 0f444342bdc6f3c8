/*
 * expr.c - parser and evaluator of the rubric expression language (see
 * expr.h): a recursive-descent parser building a small tree, evaluated over
 * jansson values.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "expr.h"

enum node_kind { N_LIT, N_FIELD, N_CALL, N_UNARY, N_BINARY };

struct bsm_expr {
	enum node_kind kind;
	int op;			/* operator token for unary/binary */
	json_t *lit;		/* N_LIT */
	char *name;		/* N_FIELD, N_CALL */
	char *sub;		/* N_FIELD: projection */
	struct bsm_expr **args;
	size_t nargs;
	int depth;		/* levels of the tree below and including this node */
};

/*
 * Rubric files are data a study may write: a rule nested deeper than this
 * (parentheses, chains of operators, "not not ...") is refused with an error
 * instead of overflowing the stack of the recursive parser and evaluator.
 */
#define EXPR_MAX_DEPTH 200

enum {
	T_END, T_NUM, T_STR, T_NAME, T_LP, T_RP, T_COMMA, T_DOT,
	T_PLUS, T_MINUS, T_MUL, T_DIV, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
	T_AND, T_OR, T_NOT
};

struct parser {
	const char *s;
	size_t pos;
	size_t start;		/* offset of the current token */
	int tok;
	double num;
	struct buf text;
	char *err;
	int nest;		/* recursion depth of the parser */
};

static void
perr(struct parser *p, const char *what)
{
	if (!p->err)
		p->err = xasprintf("%s at offset %zu", what, p->start);
}

static void
next(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->pos;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
		i++;
	p->pos = i;
	p->start = i;
	buf_reset(&p->text);
	if (!s[i]) { p->tok = T_END; return; }
	if (isdigit((unsigned char)s[i]) || (s[i] == '.' && isdigit((unsigned char)s[i + 1]))) {
		size_t j = i;
		while (isdigit((unsigned char)s[j]) || s[j] == '.')
			j++;
		buf_add(&p->text, s + i, j - i);
		if (parse_real(p->text.s, &p->num) < 0)
			perr(p, "bad number");
		p->pos = j;
		p->tok = T_NUM;
		return;
	}
	if (s[i] == '"') {
		size_t j = i + 1;
		while (s[j] && s[j] != '"') {
			if (s[j] == '\\' && s[j + 1])
				j++;
			buf_addc(&p->text, s[j]);
			j++;
		}
		if (!s[j]) { perr(p, "unterminated string"); p->tok = T_END; return; }
		p->pos = j + 1;
		p->tok = T_STR;
		return;
	}
	if (isalpha((unsigned char)s[i]) || s[i] == '_') {
		size_t j = i;
		while (isalnum((unsigned char)s[j]) || s[j] == '_')
			j++;
		buf_add(&p->text, s + i, j - i);
		p->pos = j;
		if (!strcmp(p->text.s, "and")) p->tok = T_AND;
		else if (!strcmp(p->text.s, "or")) p->tok = T_OR;
		else if (!strcmp(p->text.s, "not")) p->tok = T_NOT;
		else p->tok = T_NAME;
		return;
	}
	p->pos = i + 1;
	switch (s[i]) {
	case '(': p->tok = T_LP; return;
	case ')': p->tok = T_RP; return;
	case ',': p->tok = T_COMMA; return;
	case '.': p->tok = T_DOT; return;
	case '+': p->tok = T_PLUS; return;
	case '-': p->tok = T_MINUS; return;
	case '*': p->tok = T_MUL; return;
	case '/': p->tok = T_DIV; return;
	case '=':
		if (s[i + 1] == '=') { p->pos++; p->tok = T_EQ; return; }
		break;
	case '!':
		if (s[i + 1] == '=') { p->pos++; p->tok = T_NE; return; }
		break;
	case '<':
		if (s[i + 1] == '=') { p->pos++; p->tok = T_LE; return; }
		p->tok = T_LT; return;
	case '>':
		if (s[i + 1] == '=') { p->pos++; p->tok = T_GE; return; }
		p->tok = T_GT; return;
	default:
		break;
	}
	p->pos = i;
	perr(p, "unexpected character");
	p->tok = T_END;
}

static struct bsm_expr *
node(enum node_kind k)
{
	struct bsm_expr *e = xcalloc(1, sizeof *e);

	e->kind = k;
	e->depth = 1;
	return e;
}

static void
too_deep(struct parser *p)
{
	char what[64];

	snprintf(what, sizeof what, "expression nested deeper than %d levels",
	    EXPR_MAX_DEPTH);
	perr(p, what);
}

/* Append argument a to e; an error when the tree grows too deep. */
static void
add_arg(struct parser *p, struct bsm_expr *e, struct bsm_expr *a)
{
	e->args = xreallocarray(e->args, e->nargs + 1, sizeof *e->args);
	e->args[e->nargs++] = a;
	if (a && a->depth + 1 > e->depth)
		e->depth = a->depth + 1;
	if (e->depth > EXPR_MAX_DEPTH)
		too_deep(p);
}

static struct bsm_expr *
binary(struct parser *p, int op, struct bsm_expr *l, struct bsm_expr *r)
{
	struct bsm_expr *e = node(N_BINARY);

	e->op = op;
	add_arg(p, e, l);
	add_arg(p, e, r);
	return e;
}

/* Enter one level of parser recursion: 0, or -1 (error set) when too deep. */
static int
enter(struct parser *p)
{
	if (++p->nest > EXPR_MAX_DEPTH) {
		too_deep(p);
		return -1;
	}
	return 0;
}

static struct bsm_expr *p_or(struct parser *p);

/* The arguments of a call, its '(' read: expr { "," expr } ")". */
static void
p_args(struct parser *p, struct bsm_expr *e)
{
	if (p->tok != T_RP) {
		for (;;) {
			add_arg(p, e, p_or(p));
			if (p->err || p->tok != T_COMMA)
				break;
			next(p);
		}
	}
	if (p->tok != T_RP)
		perr(p, "expected ')' after arguments");
	next(p);
}

/* A NAME: true, false, null, a field, NAME.SUB or a call. */
static struct bsm_expr *
p_name(struct parser *p)
{
	struct bsm_expr *e;

	if (!strcmp(p->text.s, "true") || !strcmp(p->text.s, "false") ||
	    !strcmp(p->text.s, "null")) {
		e = node(N_LIT);
		e->lit = p->text.s[0] == 't' ? json_true() :
		    p->text.s[0] == 'f' ? json_false() : json_null();
		next(p);
		return e;
	}
	e = node(N_FIELD);
	e->name = xstrdup(p->text.s);
	next(p);
	if (p->tok == T_LP) {
		e->kind = N_CALL;
		next(p);
		p_args(p, e);
	} else if (p->tok == T_DOT) {
		next(p);
		if (p->tok != T_NAME)
			perr(p, "expected a field name after '.'");
		else
			e->sub = xstrdup(p->text.s);
		next(p);
	}
	return e;
}

static struct bsm_expr *
p_primary(struct parser *p)
{
	struct bsm_expr *e;

	if (p->err)
		return NULL;
	switch (p->tok) {
	case T_NUM:
		e = node(N_LIT);
		e->lit = json_real(p->num);
		next(p);
		return e;
	case T_STR:
		e = node(N_LIT);
		e->lit = json_string(p->text.s);
		if (!e->lit)
			e->lit = json_string("");
		next(p);
		return e;
	case T_LP:
		next(p);
		e = p_or(p);
		if (p->tok != T_RP)
			perr(p, "expected ')'");
		next(p);
		return e;
	case T_NAME:
		return p_name(p);
	default:
		perr(p, "expected a value");
		return NULL;
	}
}

static struct bsm_expr *
p_unary(struct parser *p)
{
	if (p->tok == T_MINUS) {
		struct bsm_expr *e;
		if (enter(p) < 0)
			return NULL;
		e = node(N_UNARY);
		e->op = T_MINUS;
		next(p);
		add_arg(p, e, p_unary(p));
		p->nest--;
		return e;
	}
	return p_primary(p);
}

static struct bsm_expr *
p_prod(struct parser *p)
{
	struct bsm_expr *e = p_unary(p);

	while (!p->err && (p->tok == T_MUL || p->tok == T_DIV)) {
		int op = p->tok;
		next(p);
		e = binary(p, op, e, p_unary(p));
	}
	return e;
}

static struct bsm_expr *
p_sum(struct parser *p)
{
	struct bsm_expr *e = p_prod(p);

	while (!p->err && (p->tok == T_PLUS || p->tok == T_MINUS)) {
		int op = p->tok;
		next(p);
		e = binary(p, op, e, p_prod(p));
	}
	return e;
}

static struct bsm_expr *
p_cmp(struct parser *p)
{
	struct bsm_expr *e = p_sum(p);

	if (!p->err && p->tok >= T_EQ && p->tok <= T_GE) {
		int op = p->tok;
		next(p);
		e = binary(p, op, e, p_sum(p));
	}
	return e;
}

static struct bsm_expr *
p_not(struct parser *p)
{
	if (p->tok == T_NOT) {
		struct bsm_expr *e;
		if (enter(p) < 0)
			return NULL;
		e = node(N_UNARY);
		e->op = T_NOT;
		next(p);
		add_arg(p, e, p_not(p));
		p->nest--;
		return e;
	}
	return p_cmp(p);
}

static struct bsm_expr *
p_and(struct parser *p)
{
	struct bsm_expr *e = p_not(p);

	while (!p->err && p->tok == T_AND) {
		next(p);
		e = binary(p, T_AND, e, p_not(p));
	}
	return e;
}

static struct bsm_expr *
p_or(struct parser *p)
{
	struct bsm_expr *e;

	if (enter(p) < 0)
		return NULL;
	e = p_and(p);
	while (!p->err && p->tok == T_OR) {
		next(p);
		e = binary(p, T_OR, e, p_and(p));
	}
	p->nest--;
	return e;
}

static const char *const functions[] = {
	"count", "sum", "max", "min", "in", "attr", NULL
};

static int
check_calls(const struct bsm_expr *e, char **err)
{
	size_t i;

	if (!e)
		return 0;
	if (e->kind == N_CALL) {
		for (i = 0; functions[i]; i++)
			if (!strcmp(functions[i], e->name))
				break;
		if (!functions[i]) {
			*err = xasprintf("unknown function %s()", e->name);
			return -1;
		}
		if (!strcmp(e->name, "attr") &&
		    (e->nargs != 2 || e->args[0]->kind != N_FIELD)) {
			*err = xasprintf("attr() takes a field name and an attribute");
			return -1;
		}
		if ((!strcmp(e->name, "count") || !strcmp(e->name, "sum")) && e->nargs != 1) {
			*err = xasprintf("%s() takes one argument", e->name);
			return -1;
		}
		if (strcmp(e->name, "count") && strcmp(e->name, "sum") && e->nargs != 2) {
			*err = xasprintf("%s() takes two arguments", e->name);
			return -1;
		}
	}
	for (i = 0; i < e->nargs; i++)
		if (check_calls(e->args[i], err) < 0)
			return -1;
	return 0;
}

struct bsm_expr *
bsm_expr_parse(const char *text, char **err)
{
	struct parser p;
	struct bsm_expr *e;

	memset(&p, 0, sizeof p);
	p.s = text;
	buf_init(&p.text);
	next(&p);
	e = p_or(&p);
	if (!p.err && p.tok != T_END)
		perr(&p, "unexpected text after the expression");
	buf_release(&p.text);
	*err = NULL;
	if (!p.err && check_calls(e, err) < 0)
		p.err = *err;
	if (p.err) {
		bsm_expr_free(e);
		*err = p.err;
		return NULL;
	}
	return e;
}

void
bsm_expr_free(struct bsm_expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nargs; i++)
		bsm_expr_free(e->args[i]);
	free(e->args);
	free(e->name);
	free(e->sub);
	json_decref(e->lit);
	free(e);
}

int
bsm_truthy(const json_t *v)
{
	if (!v || json_is_null(v) || json_is_false(v))
		return 0;
	if (json_is_true(v))
		return 1;
	if (json_is_number(v))
		return json_number_value(v) != 0;
	if (json_is_string(v))
		return json_string_length(v) > 0;
	if (json_is_array(v))
		return json_array_size(v) > 0;
	return 1;
}

#define EPS 1e-9

static json_t *
num(double d)
{
	return json_real(d);
}

static int
cmp_values(const json_t *a, const json_t *b, int *res)
{
	if (json_is_number(a) && json_is_number(b)) {
		double x = json_number_value(a), y = json_number_value(b);
		*res = fabs(x - y) <= EPS ? 0 : x < y ? -1 : 1;
		return 0;
	}
	if (json_is_string(a) && json_is_string(b)) {
		int c = strcmp(json_string_value(a), json_string_value(b));
		*res = c < 0 ? -1 : c > 0;
		return 0;
	}
	if (json_is_boolean(a) && json_is_boolean(b)) {
		*res = json_is_true(a) == json_is_true(b) ? 0 : 1;
		return 0;
	}
	if (json_is_null(a) && json_is_null(b)) {
		*res = 0;
		return 0;
	}
	return -1;
}

static json_t *
field_value(const struct bsm_expr *e, const json_t *row)
{
	json_t *v = json_object_get(row, e->name);
	json_t *out, *item;
	size_t i;

	if (!v)
		return json_null();
	if (!e->sub)
		return json_incref(v);
	out = json_array();
	if (json_is_array(v))
		json_array_foreach(v, i, item) {
			json_t *s = json_object_get(item, e->sub);
			json_array_append(out, s ? s : json_null());
		}
	return out;
}

static json_t *
call(const struct bsm_expr *e, const json_t *row, const json_t *enums)
{
	json_t *a, *b, *r, *item;
	size_t i;

	if (!strcmp(e->name, "attr")) {
		json_t *defs = enums ? json_object_get(enums, e->args[0]->name) : NULL;
		json_t *val = json_object_get(row, e->args[0]->name);
		json_t *attr = bsm_expr_eval(e->args[1], row, enums);
		r = NULL;
		if (json_is_array(defs) && json_is_string(attr) && val)
			json_array_foreach(defs, i, item) {
				int c;
				if (cmp_values(json_object_get(item, "value"), val, &c) == 0 && c == 0) {
					r = json_object_get(item, json_string_value(attr));
					break;
				}
			}
		json_decref(attr);
		if (r && json_is_integer(r))
			return num((double)json_integer_value(r));
		return r ? json_incref(r) : json_null();
	}
	a = bsm_expr_eval(e->args[0], row, enums);
	if (!strcmp(e->name, "count")) {
		r = num(json_is_array(a) ? (double)json_array_size(a) : 0);
		json_decref(a);
		return r;
	}
	if (!strcmp(e->name, "sum")) {
		double s = 0;
		if (json_is_array(a))
			json_array_foreach(a, i, item)
				if (json_is_number(item))
					s += json_number_value(item);
		json_decref(a);
		return num(s);
	}
	b = bsm_expr_eval(e->args[1], row, enums);
	if (!strcmp(e->name, "in")) {
		int found = 0, c;
		if (json_is_array(b))
			json_array_foreach(b, i, item)
				if (cmp_values(a, item, &c) == 0 && c == 0)
					found = 1;
		r = json_boolean(found);
	} else if (json_is_number(a) && json_is_number(b)) {
		double x = json_number_value(a), y = json_number_value(b);
		r = num(!strcmp(e->name, "max") ? (x > y ? x : y) : (x < y ? x : y));
	} else {
		r = json_null();
	}
	json_decref(a);
	json_decref(b);
	return r;
}

json_t *
bsm_expr_eval(const struct bsm_expr *e, const json_t *row, const json_t *enums)
{
	json_t *a, *b, *r;
	int c;

	switch (e->kind) {
	case N_LIT:
		return json_incref(e->lit);
	case N_FIELD: {
		json_t *v = field_value(e, row);
		if (json_is_integer(v)) {
			r = num((double)json_integer_value(v));
			json_decref(v);
			return r;
		}
		if (json_is_array(v)) {
			size_t i;
			json_t *item;
			json_array_foreach(v, i, item)
				if (json_is_integer(item))
					json_array_set_new(v, i, num((double)json_integer_value(item)));
		}
		return v;
	}
	case N_CALL:
		return call(e, row, enums);
	case N_UNARY:
		a = bsm_expr_eval(e->args[0], row, enums);
		if (e->op == T_NOT)
			r = json_boolean(!bsm_truthy(a));
		else
			r = json_is_number(a) ? num(-json_number_value(a)) : json_null();
		json_decref(a);
		return r;
	case N_BINARY:
		break;
	}
	a = bsm_expr_eval(e->args[0], row, enums);
	if (e->op == T_AND || e->op == T_OR) {
		int t = bsm_truthy(a);
		json_decref(a);
		if (e->op == T_AND && !t)
			return json_false();
		if (e->op == T_OR && t)
			return json_true();
		b = bsm_expr_eval(e->args[1], row, enums);
		r = json_boolean(bsm_truthy(b));
		json_decref(b);
		return r;
	}
	b = bsm_expr_eval(e->args[1], row, enums);
	r = NULL;
	switch (e->op) {
	case T_EQ: case T_NE:
		if (cmp_values(a, b, &c) < 0)
			c = 1;
		r = json_boolean(e->op == T_EQ ? c == 0 : c != 0);
		break;
	case T_LT: case T_LE: case T_GT: case T_GE:
		if (cmp_values(a, b, &c) < 0 || json_is_null(a))
			r = json_false();
		else
			r = json_boolean(e->op == T_LT ? c < 0 : e->op == T_LE ? c <= 0 :
			    e->op == T_GT ? c > 0 : c >= 0);
		break;
	default:
		if (json_is_number(a) && json_is_number(b)) {
			double x = json_number_value(a), y = json_number_value(b);
			if (e->op == T_PLUS) r = num(x + y);
			else if (e->op == T_MINUS) r = num(x - y);
			else if (e->op == T_MUL) r = num(x * y);
			else r = y != 0 ? num(x / y) : json_null();
		} else {
			r = json_null();
		}
	}
	json_decref(a);
	json_decref(b);
	return r;
}

static const char *
op_name(int op)
{
	switch (op) {
	case T_OR: return "or";
	case T_AND: return "and";
	case T_NOT: return "not";
	case T_EQ: return "==";
	case T_NE: return "!=";
	case T_LT: return "<";
	case T_LE: return "<=";
	case T_GT: return ">";
	case T_GE: return ">=";
	case T_PLUS: return "+";
	case T_MINUS: return "-";
	case T_MUL: return "*";
	case T_DIV: return "/";
	default: return "?";
	}
}

json_t *
bsm_expr_json(const struct bsm_expr *e)
{
	json_t *o, *a;
	size_t i;

	if (!e)
		return json_null();
	o = json_object();
	switch (e->kind) {
	case N_LIT:
		json_set_str(o, "k", "lit");
		json_set_new(o, "v", json_incref(e->lit));
		break;
	case N_FIELD:
		json_set_str(o, "k", "field");
		json_set_str(o, "name", e->name);
		if (e->sub)
			json_set_str(o, "sub", e->sub);
		break;
	case N_CALL:
		json_set_str(o, "k", "call");
		json_set_str(o, "name", e->name);
		a = json_array();
		for (i = 0; i < e->nargs; i++)
			json_array_append_new(a, bsm_expr_json(e->args[i]));
		json_set_new(o, "args", a);
		break;
	case N_UNARY:
		json_set_str(o, "k", "un");
		json_set_str(o, "op", e->op == T_NOT ? "not" : "-");
		json_set_new(o, "a", bsm_expr_json(e->args[0]));
		break;
	case N_BINARY:
		json_set_str(o, "k", "bin");
		json_set_str(o, "op", op_name(e->op));
		json_set_new(o, "a", bsm_expr_json(e->args[0]));
		json_set_new(o, "b", bsm_expr_json(e->args[1]));
		break;
	}
	return o;
}
