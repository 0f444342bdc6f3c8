/*
 * common_facts.c - libFuzzer target for the fact model (common/facts.c):
 * the input read as plain text and as Markdown (split at its first NUL
 * into two documents of one set, the second at its offset).  Invariants
 * checked: every key and value is valid UTF-8 without NUL, values of at
 * most 1024 bytes; every span lies in the text; the occurrences of each
 * distinct fact add up; a set compared with itself shares everything and
 * changes nothing; plain against Markdown gives shares in 0..1 (or -1),
 * statuses that agree with the changes, and spans of changes in the text;
 * every atom of a set is an atom of it.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "ctx.h"
#include "facts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_set(const struct facts *f, size_t size)
{
	size_t i, total = 0;

	assert(f->n <= FACTS_MAX && f->nd <= f->n);
	for (i = 0; i < f->nd; i++) {
		const char *k = facts_key(f, i), *v = facts_value(f, i);

		assert(utf8_valid(k, strlen(k), NULL) && utf8_valid(v, strlen(v), NULL));
		assert(strlen(v) <= 1024 && f->d[i].count > 0);
		assert(f->v[f->d[i].first].id == i);
		total += f->d[i].count;
	}
	assert(total == f->n);
	for (i = 0; i < f->n; i++)
		assert(f->v[i].id < f->nd && f->v[i].off + f->v[i].len <= size);
	for (i = 0; i < f->nseq; i++)
		assert(f->seq[i].off + f->seq[i].len <= size &&
		    f->seq[i].id < f->lines.n);
	for (i = 0; i < f->nrseq; i++)
		assert(f->rseq[i].off + f->rseq[i].len <= size &&
		    f->rseq[i].id < f->runs.n);
}

static int
share_ok(double v)
{
	return v == -1 || (v >= 0 && v <= 1);
}

static void
check_compare(const struct facts *a, const struct facts *b, size_t size)
{
	struct facts_cmp c;
	size_t i, changed_a = 0, changed_b = 0;

	facts_compare(a, b, &c);
	assert(share_ok(c.a_in_b) && share_ok(c.b_in_a));
	for (i = 0; i < a->nd; i++)
		changed_a += c.sa[i] == FACT_CHANGED;
	for (i = 0; i < b->nd; i++)
		changed_b += c.sb[i] == FACT_CHANGED;
	assert(changed_a <= c.nchanged && changed_b <= c.nchanged);
	for (i = 0; i < c.nchanged; i++) {
		struct fact_shown s;
		const struct fact_change *ch = &c.changed[i];

		assert(ch->a == FACTS_LINE || ch->a == FACTS_RUN ||
		    c.sa[ch->a] == FACT_CHANGED);
		assert(ch->b == FACTS_LINE || ch->b == FACTS_RUN ||
		    c.sb[ch->b] == FACT_CHANGED);
		assert(ch->a < FACTS_RUN || ch->b < FACTS_RUN);
		facts_change(a, b, &c, i, &s);
		assert(strcmp(s.a, s.b) != 0);
		assert(s.aoff + s.alen <= size && s.boff + s.blen <= size);
	}
	facts_cmp_release(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nul;
	struct facts p = FACTS_INIT, m = FACTS_INIT;
	struct facts_cmp c;
	size_t first, i, n;
	char **atoms;

	if (size > 65536)
		return 0;
	nul = memchr(s, '\0', size);
	first = nul ? (size_t)(nul - s) : size;
	facts_add(&p, s, size, 0, 0);
	facts_add(&m, s, first, 0, FACTS_MARKDOWN);
	if (nul)
		facts_add(&m, nul + 1, size - first - 1, first + 1, FACTS_MARKDOWN);
	check_set(&p, size);
	check_set(&m, size);
	facts_compare(&m, &m, &c);
	assert(c.nchanged == 0 && c.shared_a == m.nd && c.shared_b == m.nd);
	assert(c.a_in_b == (m.nd ? 1 : -1));
	facts_cmp_release(&c);
	check_compare(&p, &m, size);
	check_compare(&m, &p, size);
	atoms = facts_atoms(&m, &n);
	for (i = 0; i < n; i++) {
		assert(facts_has_atom(&m, atoms[i]));
		free(atoms[i]);
	}
	free(atoms);
	facts_release(&p);
	facts_release(&m);
	return 0;
}
