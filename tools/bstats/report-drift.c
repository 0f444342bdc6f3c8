/*
 * report-drift.c - the report's "Content drift between snapshots" section
 * (spec 001 §7 L-SL-2): from the records of `bctx drift` (drift.c), the
 * drift rate of each condition, a sentence saying which condition's
 * content drifted more (or neither) with its counts, a table per site,
 * the changed pages with their word-level difference, and the changed
 * facts, the first RP_DRIFT_FACTS of them.
 */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "report.h"

#define RP_DRIFT_FACTS 20

static const char *const PAGE[] = { "site_id", "condition", "url" };

/* "| v0 | v1 ... " for the string members k[0..n) of o, as text. */
static void
cells(FILE *fp, const json_t *o, const char *const *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs("| ", fp);
		bst_md(fp, rp_str(o, k[i]));
		fputc(' ', fp);
	}
}

/* What a condition's content is, for the sentence. */
static const char *
what(const char *cond)
{
	if (strcmp(cond, "A") == 0)
		return "Condition A (the HTML pages)";
	if (strcmp(cond, "B") == 0)
		return "Condition B (the llms.txt Markdown)";
	return cond;
}

static void
rate(FILE *fp, const json_t *t)
{
	double old = rp_num(t, "old_pages");

	if (old > 0)
		fprintf(fp, "%.1f %%", 100 * rp_num(t, "drifted") / old);
	else
		fputs("–", fp);
}

static void
counts_row(FILE *fp, const json_t *t)
{
	static const char *const k[] = { "old_pages", "unchanged",
		"same_content", "changed", "gone", "new", "excluded" };
	size_t i;

	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		fprintf(fp, "%lld | ", (long long)rp_num(t, k[i]));
	rate(fp, t);
	fputs(" |\n", fp);
}

static const json_t *
condition(const json_t *d, const char *c)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(d, "conditions"), i, t)
		if (rp_is(t, "condition", c))
			return t;
	return NULL;
}

/* "5 of 16 pages changed or gone (31.2 %)", words: 0 for "5 of 16 (...)" */
static void
of(FILE *fp, const json_t *t, int words)
{
	fprintf(fp, "%lld of %lld%s (", (long long)rp_num(t, "drifted"),
	    (long long)rp_num(t, "old_pages"), words ? " pages changed or gone" :
	    "");
	rate(fp, t);
	fputs(")", fp);
}

/* Which of A and B drifted more, or neither, with the counts. */
static void
verdict(FILE *fp, const json_t *d)
{
	const json_t *a = condition(d, "A"), *b = condition(d, "B"), *hi, *lo;
	double na, nb, diff;

	if (a == NULL || b == NULL || rp_num(a, "old_pages") == 0 ||
	    rp_num(b, "old_pages") == 0) {
		fputs("No comparison of the two conditions: the records do not "
		    "hold pages of both Condition A and Condition B that were "
		    "usable in the first snapshot.\n", fp);
		return;
	}
	na = rp_num(a, "old_pages");
	nb = rp_num(b, "old_pages");
	/* rates compared exactly: drifted_b / nb against drifted_a / na */
	diff = rp_num(b, "drifted") * na - rp_num(a, "drifted") * nb;
	if (diff == 0) {
		fputs("Neither condition drifted more: Condition A ", fp);
		of(fp, a, 1);
		fputs(", Condition B ", fp);
		of(fp, b, 0);
		fputs(".", fp);
	} else {
		hi = diff > 0 ? b : a;
		lo = diff > 0 ? a : b;
		fprintf(fp, "%s drifted more than %s: ", what(rp_str(hi,
		    "condition")), what(rp_str(lo, "condition")));
		of(fp, hi, 1);
		fputs(" against ", fp);
		of(fp, lo, 0);
		fputs(".", fp);
	}
	fputs("  A description of these pages, not a test.\n", fp);
}

/* The counts table of the conditions, or with site of the sites. */
static void
counts_table(FILE *fp, const json_t *rows, int site)
{
	const json_t *t;
	size_t i;

	fprintf(fp, "\n| %scondition | pages (first snapshot) | unchanged | "
	    "same content | changed | gone | new | excluded | drift rate |\n"
	    "|%s---|---|---|---|---|---|---|---|---|\n", site ? "site | " : "",
	    site ? "---|" : "");
	json_array_foreach(rows, i, t) {
		cells(fp, t, site ? PAGE : PAGE + 1, site ? 2 : 1);
		fputs("| ", fp);
		counts_row(fp, t);
	}
}

static void
changed_pages(FILE *fp, const json_t *d)
{
	const json_t *p;
	size_t i;

	if (json_array_size(json_object_get(d, "changed")) == 0)
		return;
	fputs("\n### Changed pages\n\n| site | condition | page | facts changed "
	    "| facts added | facts removed | words removed | words added | "
	    "word similarity |\n|---|---|---|---|---|---|---|---|---|\n", fp);
	json_array_foreach(json_object_get(d, "changed"), i, p) {
		cells(fp, p, PAGE, 3);
		fprintf(fp, "| %lld | %lld | %lld | %lld | %lld | ",
		    (long long)rp_num(p, "facts_changed_count"),
		    (long long)rp_num(p, "facts_added_count"),
		    (long long)rp_num(p, "facts_removed_count"),
		    (long long)rp_num(p, "words_removed"),
		    (long long)rp_num(p, "words_added"));
		if (json_is_number(json_object_get(p, "word_similarity")))
			fprintf(fp, "%.3f |\n", rp_num(p, "word_similarity"));
		else
			fputs("– |\n", fp);
	}
}

static void
fact_row(FILE *fp, const json_t *p, const json_t *f)
{
	static const char *const FACT[] = { "key", "old", "new" };

	cells(fp, p, PAGE, 3);
	cells(fp, f, FACT, 3);
	fputs("|\n", fp);
}

static void
changed_facts(FILE *fp, const json_t *d)
{
	const json_t *p, *f;
	size_t i, j, shown = 0;
	long long all = 0;

	json_array_foreach(json_object_get(d, "changed"), i, p)
		all += (long long)rp_num(p, "facts_changed_count");
	if (all == 0)
		return;
	fputs("\n### Changed facts\n\nA fact both snapshots state with another "
	    "value (its key is its context: the row and column of a table "
	    "cell, the words around a number).\n\n| site | condition | page | "
	    "fact | first snapshot | second snapshot |\n"
	    "|---|---|---|---|---|---|\n", fp);
	json_array_foreach(json_object_get(d, "changed"), i, p) {
		json_array_foreach(json_object_get(p, "facts_changed"), j, f) {
			if (shown == RP_DRIFT_FACTS)
				break;
			fact_row(fp, p, f);
			shown++;
		}
	}
	if (all > (long long)shown)
		fprintf(fp, "\n%lld more changed facts are in the drift "
		    "records.\n", all - (long long)shown);
}

void
rp_drift(FILE *fp, const json_t *d)
{
	fprintf(fp, "\n## Content drift between snapshots (001 §7 L-SL-2; "
	    "`bctx drift`)\n\n"
	    "The study's pages archived a second time and compared page by "
	    "page (%lld pages): *unchanged* (the same bytes), *same content* "
	    "(other bytes, the same text or Markdown a model is given), "
	    "*changed*, *gone* (usable in the first snapshot only), *new* "
	    "(usable in the second only), *excluded* (in neither).  The drift "
	    "rate is (changed + gone) over the pages usable in the first "
	    "snapshot.\n\n", (long long)rp_num(d, "pages"));
	verdict(fp, d);
	counts_table(fp, json_object_get(d, "conditions"), 0);
	if (json_array_size(json_object_get(d, "sites")) > 0) {
		fputs("\n### Per site\n", fp);
		counts_table(fp, json_object_get(d, "sites"), 1);
	}
	changed_pages(fp, d);
	changed_facts(fp, d);
}
