/*
 * variants.h - the condition variants and exploratory comparisons a study
 * declares in benchmark-config.json (the follow-up studies of spec 001 §7:
 * L-IV-2, L-IV-3, L-IV-4).
 *
 *   "variants": [
 *     "B-plain",        Condition B's documents joined without the
 *                       <project>/<section>/<doc> tags (L-IV-3)
 *     "A-markdown",     Condition A extracted with structure kept (bread -m)
 *     "A-whole",        the page's whole visible text, no readability
 *                       extraction (L-IV-2)
 *     {"name": "B-neutral-prompt", "of": "B",
 *      "prompt_template": {"system_prompt": "...", "user_prompt": "..."}}
 *                       a prompt variant (L-IV-4): the content of condition
 *                       `of` (A, B or a variant declared before it) under a
 *                       second template
 *   ],
 *   "comparisons": ["B-plain:B", "A:A-markdown"]
 *                       exploratory contrasts X:Y, X minus Y
 *
 * Both keys are optional: absent (or null) means none, and a study without
 * them is the primary A-versus-B study unchanged.
 */
#ifndef CTX_VARIANTS_H
#define CTX_VARIANTS_H

#include <jansson.h>
#include <stddef.h>

enum variant_kind {
	VARIANT_B_PLAIN,
	VARIANT_A_MARKDOWN,
	VARIANT_A_WHOLE,
	VARIANT_PROMPT
};

/*
 * One declared variant.  of: "B" for B-plain, "A" for A-markdown and
 * A-whole, the declared `of` for a prompt variant.  system_prompt and
 * user_prompt are set for VARIANT_PROMPT only (NULL otherwise).  All strings
 * are owned by the struct variants holding the entry.
 */
struct variant {
	char *name;
	char *of;
	enum variant_kind kind;
	char *system_prompt;
	char *user_prompt;
};

/* An exploratory comparison: condition x minus condition y. */
struct comparison {
	char *x;
	char *y;
};

struct variants {
	struct variant *v;
	size_t nv;
	struct comparison *c;
	size_t nc;
};

/*
 * Read config's "variants" and "comparisons" into out (which the caller
 * releases with variants_free).  config may be NULL (no variants).  When
 * "comparisons" is absent and variants exist, each variant is compared with
 * its `of` (name:of), in declaration order.
 *
 * Names match [A-Za-z0-9][A-Za-z0-9._-]*, are unique, and are never "A" or
 * "B"; a string entry must be a built-in (B-plain, A-markdown, A-whole); an
 * object entry is a prompt variant with exactly name, of and
 * prompt_template (keys starting with "_" are comments), whose user_prompt
 * holds {assembled_content} and {question_text}; `of` names A, B or a
 * variant declared before the entry.  A comparison is "X:Y" of two distinct
 * declared conditions, not the primary A:B (or B:A), and not declared twice
 * in either order.
 *
 * Any violation dies (exit 1) with "PATH: variants[i].field: message" or
 * "PATH: comparisons[i]: message".  Entries are copied in as they pass their
 * checks, so out always holds a consistent prefix that variants_free
 * releases (for drivers whose exit hook returns control).
 */
void variants_load(struct variants *out, json_t *config, const char *path);

/* The declared variant called name (borrowed), or NULL when not declared. */
const struct variant *variants_find(const struct variants *vs, const char *name);

/*
 * The primary condition ("A" or "B") that name finally varies, following
 * `of`; "A" and "B" themselves for "A" and "B"; NULL when name is unknown.
 * The result is a static string or borrowed from vs.
 */
const char *variants_base(const struct variants *vs, const char *name);

/* Release everything variants_load allocated and empty vs; idempotent. */
void variants_free(struct variants *vs);

#endif
