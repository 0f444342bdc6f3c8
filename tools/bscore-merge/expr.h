/*
 * expr.h - the small expression language of rubric definitions
 * (share/rubrics/NAME.json: "when", "require", "expr" of rules and derived
 * scores), so that a rubric's rules and formulas are data, not code.
 *
 * Grammar (lowest precedence first):
 *   expr    := or
 *   or      := and { "or" and }
 *   and     := not { "and" not }
 *   not     := "not" not | cmp
 *   cmp     := sum [ ("=="|"!="|"<"|"<="|">"|">=") sum ]
 *   sum     := prod { ("+"|"-") prod }
 *   prod    := unary { ("*"|"/") unary }
 *   unary   := "-" unary | primary
 *   primary := NUMBER | STRING | "true" | "false" | "null" | "(" expr ")"
 *            | NAME [ "." NAME ] | NAME "(" [ expr { "," expr } ] ")"
 * NAME is a field of the row being scored; NAME.SUB projects SUB over the
 * items of a records field.  Functions: count(x) (items of a list), sum(x),
 * max(a, b), min(a, b), in(x, list), attr(FIELD, "name") (an attribute of the
 * enum value FIELD holds, e.g. a violation's fixed penalty).
 * Values are jansson values; numbers compare with a 1e-9 tolerance; null
 * propagates through arithmetic and is only equal to null.
 */
#ifndef BSM_EXPR_H
#define BSM_EXPR_H

#include <jansson.h>

struct bsm_expr;

/*
 * Parse text; returns the tree, or NULL with *err a malloc'd message (the
 * caller frees it).
 */
struct bsm_expr *bsm_expr_parse(const char *text, char **err);
void bsm_expr_free(struct bsm_expr *e);

/*
 * Evaluate e against row (an object).  enum_defs (may be NULL) maps a field
 * name to its array of enum value definitions, for attr().  Returns a new
 * reference, never NULL (json_null() when undefined).
 */
json_t *bsm_expr_eval(const struct bsm_expr *e, const json_t *row,
    const json_t *enum_defs);
/*
 * The tree as JSON, for pages that evaluate rules themselves (page.c):
 * {"k":"lit","v":V} {"k":"field","name":N[,"sub":S]}
 * {"k":"call","name":N,"args":[..]} {"k":"un","op":"not"|"-","a":E}
 * {"k":"bin","op":"or"|"and"|"=="|"!="|"<"|"<="|">"|">="|"+"|"-"|"*"|"/",
 * "a":E,"b":E}.  NULL e gives null.
 */
json_t *bsm_expr_json(const struct bsm_expr *e);
/* Truth of a value: true, a non-zero number, a non-empty string or list. */
int bsm_truthy(const json_t *v);

#endif
