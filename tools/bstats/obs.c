/*
 * obs.c - what every other file of bstats knows of one rating (struct
 * bst_obs): its five metric values and THE SIGN CONVENTION of bstats.h
 * (bst_delta), the order of tuples (site and question in natural order,
 * model, condition), and the two small helpers of every output, the natural
 * order of ids and the printed p-value.  The lowest floor: it calls no other
 * file of bstats.
 */
#include <ctype.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

const char *const BST_METRIC_NAME[] = { "factual_accuracy",
    "hallucination_count", "input_token_count", "completeness",
    "citation_fidelity" };

/* ------------------------------------------------- the sign convention */

double
bst_metric_val(const struct bst_obs *o, enum bst_metric m)
{
	switch (m) {
	case M_ACC: return o->fa;
	case M_HALL: return o->hc;
	case M_TOK: return o->tok;
	case M_COMP: return o->comp;
	default: return o->cf;
	}
}

/* Lower is better for hallucinations and tokens: there Δ = A - B. */
double
bst_delta(enum bst_metric m, const struct bst_obs *a, const struct bst_obs *b)
{
	if (m == M_HALL || m == M_TOK)
		return bst_metric_val(a, m) - bst_metric_val(b, m);
	return bst_metric_val(b, m) - bst_metric_val(a, m);
}

const char *
bst_delta_def(enum bst_metric m)
{
	return m == M_HALL || m == M_TOK ? "A − B" : "B − A";
}

/* ---------------------------------------------------------------- orders */

int
bst_cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int
bst_natcmp(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			if ((c = strncmp(a, b, la)) != 0)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

int
bst_tuple_cmp(const struct bst_obs *a, const struct bst_obs *b)
{
	int c;

	if ((c = bst_natcmp(a->site, b->site)) ||
	    (c = bst_natcmp(a->question, b->question)) ||
	    (c = bst_cmp_str(a->model, b->model)))
		return c;
	return a->cond - b->cond;
}

int
bst_obs_cmp(const void *x, const void *y)
{
	const struct bst_obs *a = *(const struct bst_obs *const *)x;
	const struct bst_obs *b = *(const struct bst_obs *const *)y;
	int c;

	if ((c = bst_tuple_cmp(a, b)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

int
bst_same_triple(const struct bst_obs *a, const struct bst_obs *b)
{
	return !bst_cmp_str(a->site, b->site) &&
	    !bst_cmp_str(a->question, b->question) &&
	    !bst_cmp_str(a->model, b->model);
}

/* ------------------------------------------------------------- printing */

char *
bst_fmt_p(double p, char *out, size_t len)
{
	if (p == 0)	/* below the smallest double */
		snprintf(out, len, "< 1e-300");
	else if (p < 0.001)
		snprintf(out, len, "%.2e", p);
	else
		snprintf(out, len, "%.4f", p);
	return out;
}
