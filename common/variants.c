/*
 * variants.c - the "variants" and "comparisons" of benchmark-config.json,
 * checked and copied into a struct variants (see variants.h).
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jsonx.h"
#include "variants.h"

static const struct {
	const char *name;
	const char *of;
	enum variant_kind kind;
} builtins[] = {
	{ "B-plain", "B", VARIANT_B_PLAIN },
	{ "A-markdown", "A", VARIANT_A_MARKDOWN },
	{ "A-whole", "A", VARIANT_A_WHOLE },
};
#define NBUILTIN (sizeof(builtins) / sizeof(builtins[0]))

static int
builtin_index(const char *name)
{
	size_t i;

	for (i = 0; i < NBUILTIN; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
is_primary(const char *name)
{
	return strcmp(name, "A") == 0 || strcmp(name, "B") == 0;
}

/* [A-Za-z0-9][A-Za-z0-9._-]* */
static int
name_ok(const char *s)
{
	const char *p;

	if (*s == '\0' || strchr(".-_", *s))
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._-", *p)))
			return 0;
	return 1;
}

/* A or B, or one of the first nv variants of vs. */
static int
declared(const struct variants *vs, const char *name)
{
	return is_primary(name) || variants_find(vs, name) != NULL;
}

/* A string member of an object entry; dies when absent or of another type. */
static const char *
member_str(json_t *o, const char *key, const char *path, const char *where)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		die("%s: %s.%s: expected a string, got %s", path, where, key,
		    json_type_desc(v));
	return json_string_value(v);
}

/* Checks common to both forms of entry: the name's spelling, uniqueness. */
static void
check_name(const struct variants *vs, const char *name, const char *path,
    const char *where)
{
	if (is_primary(name))
		die("%s: %s: '%s' is a primary condition, not a variant", path,
		    where, name);
	if (!name_ok(name))
		die("%s: %s: '%s' is not a valid name (letters, digits, '.', '_' "
		    "and '-', starting with a letter or digit)", path, where, name);
	if (variants_find(vs, name))
		die("%s: %s: '%s' is declared twice", path, where, name);
}

/* A built-in variant's entry, where ("variants[I]") its path for messages. */
static void
add_builtin(struct variants *vs, json_t *e, const char *where, const char *path)
{
	const char *name = json_string_value(e);
	int b;

	b = builtin_index(name);
	if (b < 0)
		die("%s: %s: unknown built-in variant '%s' (B-plain, A-markdown, "
		    "A-whole; a prompt variant is an object with name, of and "
		    "prompt_template)", path, where, name);
	check_name(vs, name, path, where);
	vs->v[vs->nv].name = xstrdup(name);
	vs->v[vs->nv].of = xstrdup(builtins[b].of);
	vs->v[vs->nv].kind = builtins[b].kind;
	vs->nv++;
}

/* The object entry's keys are name, of, prompt_template and _comments. */
static void
check_keys(json_t *e, const char *path, const char *where)
{
	const char *k;
	json_t *x;

	json_object_foreach(e, k, x) {
		if (k[0] == '_' || strcmp(k, "name") == 0 || strcmp(k, "of") == 0 ||
		    strcmp(k, "prompt_template") == 0)
			continue;
		die("%s: %s.%s: unknown field (a prompt variant has name, of and "
		    "prompt_template)", path, where, k);
	}
}

/* prompt_template: an object with both prompts, the user one with both slots. */
static void
check_template(json_t *t, const char *path, const char *where)
{
	static const char *const slots[] = { "{assembled_content}", "{question_text}" };
	char tw[160];
	size_t k;

	if (!json_is_object(t))
		die("%s: %s.prompt_template: expected an object, got %s", path,
		    where, json_type_desc(t));
	snprintf(tw, sizeof tw, "%s.prompt_template", where);
	member_str(t, "system_prompt", path, tw);
	for (k = 0; k < 2; k++)
		if (!strstr(member_str(t, "user_prompt", path, tw), slots[k]))
			die("%s: %s.user_prompt: lacks the placeholder %s", path, tw,
			    slots[k]);
}

/* A prompt variant's entry, where ("variants[I]") its path for messages. */
static void
add_prompt(struct variants *vs, json_t *e, const char *where, const char *path)
{
	const char *name, *of;
	char nw[160];
	json_t *t;
	struct variant *v;

	check_keys(e, path, where);
	name = member_str(e, "name", path, where);
	snprintf(nw, sizeof nw, "%s.name", where);
	if (builtin_index(name) >= 0)
		die("%s: %s: '%s' is a built-in variant (declare it as the string "
		    "\"%s\")", path, nw, name, name);
	check_name(vs, name, path, nw);
	of = member_str(e, "of", path, where);
	if (!declared(vs, of))
		die("%s: %s.of: '%s' is not declared (A, B or a variant declared "
		    "before this one)", path, where, of);
	t = json_object_get(e, "prompt_template");
	check_template(t, path, where);
	v = &vs->v[vs->nv];
	v->name = xstrdup(name);
	v->of = xstrdup(of);
	v->kind = VARIANT_PROMPT;
	v->system_prompt = xstrdup(json_string_value(json_object_get(t,
	    "system_prompt")));
	v->user_prompt = xstrdup(json_string_value(json_object_get(t,
	    "user_prompt")));
	vs->nv++;
}

static void
load_variants(struct variants *vs, json_t *arr, const char *path)
{
	struct json_each it;
	json_t *e;

	vs->v = xcalloc(json_each_start(&it, arr, path, "variants") + 1, sizeof(*vs->v));
	while ((e = json_each_next(&it)) != NULL) {
		if (json_is_string(e))
			add_builtin(vs, e, it.where, path);
		else if (json_is_object(e))
			add_prompt(vs, e, it.where, path);
		else
			die("%s: %s: expected a string or an object, got %s", path,
			    it.where, json_type_desc(e));
	}
}

static int
same_pair(const struct comparison *c, const char *x, const char *y)
{
	return (strcmp(c->x, x) == 0 && strcmp(c->y, y) == 0) ||
	    (strcmp(c->x, y) == 0 && strcmp(c->y, x) == 0);
}

/* One "X:Y" entry, checked and appended; where ("comparisons[I]") its path. */
static void
add_comparison(struct variants *vs, const char *s, const char *where,
    const char *path)
{
	const char *colon = strchr(s, ':');
	char *x, *y;
	size_t k;

	if (colon == NULL || colon == s || colon[1] == '\0' || strchr(colon + 1, ':'))
		die("%s: %s: '%s' is not of the form X:Y", path, where, s);
	x = xstrndup(s, (size_t)(colon - s));
	y = xstrdup(colon + 1);
	vs->c[vs->nc].x = x;	/* owned by vs from here, even if a check dies */
	vs->c[vs->nc].y = y;
	vs->nc++;
	if (!declared(vs, x) || !declared(vs, y))
		die("%s: %s: '%s' is not a declared condition (A, B or a declared "
		    "variant)", path, where, declared(vs, x) ? y : x);
	if (strcmp(x, y) == 0)
		die("%s: %s: '%s' compares a condition with itself", path, where,
		    s);
	if (is_primary(x) && is_primary(y))
		die("%s: %s: '%s' is the primary analysis, which always runs; a "
		    "comparison names a variant", path, where, s);
	for (k = 0; k + 1 < vs->nc; k++)
		if (same_pair(&vs->c[k], x, y))
			die("%s: %s: '%s' is declared twice (as '%s:%s')", path,
			    where, s, vs->c[k].x, vs->c[k].y);
}

static void
load_comparisons(struct variants *vs, json_t *arr, const char *path)
{
	struct json_each it;
	json_t *e;

	vs->c = xcalloc(json_each_start(&it, arr, path, "comparisons") + 1,
	    sizeof(*vs->c));
	while ((e = json_each_next(&it)) != NULL) {
		if (!json_is_string(e))
			die("%s: %s: expected a string \"X:Y\", got %s", path,
			    it.where, json_type_desc(e));
		add_comparison(vs, json_string_value(e), it.where, path);
	}
}

void
variants_load(struct variants *out, json_t *config, const char *path)
{
	json_t *v, *c;
	size_t i;

	memset(out, 0, sizeof(*out));
	v = json_object_get(config, "variants");
	c = json_object_get(config, "comparisons");
	if (v && !json_is_null(v))
		load_variants(out, v, path);
	if (c && !json_is_null(c)) {
		load_comparisons(out, c, path);
		return;
	}
	if (out->nv == 0)
		return;
	out->c = xcalloc(out->nv, sizeof(*out->c));
	for (i = 0; i < out->nv; i++) {
		out->c[i].x = xstrdup(out->v[i].name);
		out->c[i].y = xstrdup(out->v[i].of);
	}
	out->nc = out->nv;
}

const struct variant *
variants_find(const struct variants *vs, const char *name)
{
	size_t i;

	for (i = 0; i < vs->nv; i++)
		if (strcmp(vs->v[i].name, name) == 0)
			return &vs->v[i];
	return NULL;
}

const char *
variants_base(const struct variants *vs, const char *name)
{
	const struct variant *v;
	size_t steps;

	/* `of` names an earlier entry, so the chain ends within nv steps. */
	for (steps = 0; steps <= vs->nv; steps++) {
		if (strcmp(name, "A") == 0)
			return "A";
		if (strcmp(name, "B") == 0)
			return "B";
		if ((v = variants_find(vs, name)) == NULL)
			return NULL;
		name = v->of;
	}
	return NULL;
}

void
variants_free(struct variants *vs)
{
	size_t i;

	for (i = 0; i < vs->nv; i++) {
		free(vs->v[i].name);
		free(vs->v[i].of);
		free(vs->v[i].system_prompt);
		free(vs->v[i].user_prompt);
	}
	for (i = 0; i < vs->nc; i++) {
		free(vs->c[i].x);
		free(vs->c[i].y);
	}
	free(vs->v);
	free(vs->c);
	memset(vs, 0, sizeof(*vs));
}
