/*
 * svg.c - the figures of bstats, drawn for a paper: the Δtokens vs
 * Δaccuracy scatter with Spearman's ρ and a median trend line (001 §6.7,
 * Figure 4), the mean token reduction per site with 95 % intervals (001
 * §2.6, 000 §4), factual accuracy by condition with Wilson intervals, and a
 * forest plot of Cliff's δ by tier and complexity (§6.6) with n and δ [95 %
 * CI] beside each row.  Axes carry "nice" ticks (1, 2, 5 times a power of
 * ten) over a padded range, every label sits outside the plot area, sites
 * are in natural order (S2 before S10), and the colours are the Okabe-Ito
 * palette, which stays distinct under the common colour-vision deficiencies.
 * Each figure states the sign convention in its caption, and a CSV of the
 * data it plots is written beside it so that authors can re-plot (common's
 * CSV writer: text cells a spreadsheet would run as a formula get a leading
 * space, as in raw-data.csv).  Plain SVG 1.1, deterministic: the
 * scatter's jitter is a hash of the pair's key.  Reads the pairs and the
 * result records of an analysed study; calls obs.c.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "ctx.h"
#include "bstats.h"
#include "stats.h"

/* Okabe & Ito (2008), "Color Universal Design" */
#define C_A "#E69F00"		/* orange: Condition A */
#define C_B "#0072B2"		/* blue: Condition B */
#define C_GOOD "#009E73"	/* bluish green: B better */
#define C_BAD "#D55E00"		/* vermillion: A better */
#define C_GRID "#e5e5e5"
#define C_MUTED "#555555"

#define FONT 12

struct plot {
	FILE *fp;
	double w, h;		/* the whole figure */
	double l, r, t, b;	/* the plot area's edges */
	double x0, x1, y0, y1;	/* the data range the axes show */
};

static void
xml_text(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<') fputs("&lt;", fp);
		else if (*s == '>') fputs("&gt;", fp);
		else if (*s == '&') fputs("&amp;", fp);
		else if (*s == '"') fputs("&quot;", fp);
		else fputc(*s, fp);
	}
}

static double
px(const struct plot *p, double v)
{
	return p->l + (v - p->x0) / (p->x1 - p->x0) * (p->r - p->l);
}

static double
py(const struct plot *p, double v)
{
	return p->b - (v - p->y0) / (p->y1 - p->y0) * (p->b - p->t);
}

/* ------------------------------------------------------------ ticks */

/* Heckbert's nice number (Graphics Gems, 1990): 1, 2, 5 or 10 x 10^k. */
static double
nice_num(double x, int round_it)
{
	double e = floor(log10(x)), f = x / pow(10, e), nf;

	if (round_it)
		nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

/*
 * Extend [*lo, *hi] by pad (a share of the range) and out to multiples of a
 * nice step giving about n ticks; returns the step.
 */
static double
nice_range(double *lo, double *hi, int n, double pad)
{
	double range, step;

	if (!(*hi > *lo)) {
		*lo -= 1;
		*hi += 1;
	}
	range = *hi - *lo;
	if (*lo != 0)
		*lo -= pad * range;
	if (*hi != 0)
		*hi += pad * range;
	step = nice_num(nice_num(*hi - *lo, 0) / (n - 1), 1);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
	return step;
}

/* A tick label with as many decimals as the step needs; never "-0". */
static void
tick_label(FILE *fp, double v, double step)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-6)
		v = 0;
	if (fabs(v) >= 1e4 && dec == 0)
		fprintf(fp, "%.0f", v);
	else
		fprintf(fp, "%.*f", dec, v);
}

static void
x_axis(const struct plot *p, double step, const char *label)
{
	double v;

	for (v = ceil(p->x0 / step - 1e-9) * step; v <= p->x1 + step * 1e-6;
	    v += step) {
		fprintf(p->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"%s\"/>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"black\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">", px(p, v), p->t, px(p, v), p->b, C_GRID,
		    px(p, v), p->b, px(p, v), p->b + 5, px(p, v), p->b + 18);
		tick_label(p->fp, v, step);
		fputs("</text>\n", p->fp);
	}
	fprintf(p->fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
	    (p->l + p->r) / 2, p->b + 38);
	xml_text(p->fp, label);
	fputs("</text>\n", p->fp);
}

static void
y_axis(const struct plot *p, double step, const char *label)
{
	double v;

	for (v = ceil(p->y0 / step - 1e-9) * step; v <= p->y1 + step * 1e-6;
	    v += step) {
		fprintf(p->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"%s\"/>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"black\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"end\">", p->l, py(p, v), p->r, py(p, v), C_GRID,
		    p->l - 5, py(p, v), p->l, py(p, v), p->l - 8, py(p, v) + 4);
		tick_label(p->fp, v, step);
		fputs("</text>\n", p->fp);
	}
	fprintf(p->fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 %.1f %.1f)\">", p->l - 52, (p->t + p->b) / 2,
	    p->l - 52, (p->t + p->b) / 2);
	xml_text(p->fp, label);
	fputs("</text>\n", p->fp);
}

/* The plot area's frame (drawn last, over the grid). */
static void
frame(const struct plot *p)
{
	fprintf(p->fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	    "fill=\"none\" stroke=\"black\"/>\n", p->l, p->t, p->r - p->l,
	    p->b - p->t);
}

/* The figure's frame: title above, caption lines below, all outside. */
static void
begin(struct plot *p, FILE *fp, double w, double h, const char *title,
    const char *subtitle)
{
	p->fp = fp;
	p->w = w;
	p->h = h;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, "
	    "Arial, Helvetica, sans-serif\" font-size=\"%d\">\n<rect width=\"%.0f\" "
	    "height=\"%.0f\" fill=\"white\"/>\n<text x=\"%.1f\" y=\"24\" "
	    "font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\">", w, h,
	    w, h, FONT, w, h, w / 2);
	xml_text(fp, title);
	fputs("</text>\n", fp);
	if (subtitle) {
		fprintf(fp, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" "
		    "fill=\"%s\">", w / 2, C_MUTED);
		xml_text(fp, subtitle);
		fputs("</text>\n", fp);
	}
}

static void
end(struct plot *p, const char *caption)
{
	fprintf(p->fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
	    "text-anchor=\"middle\" fill=\"%s\">", p->w / 2, p->h - 10, C_MUTED);
	xml_text(p->fp, caption);
	fputs("</text>\n</svg>\n", p->fp);
}

/* A legend entry at (x, y), outside the plot area. */
static void
legend(FILE *fp, double x, double y, const char *colour, const char *label)
{
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
	    "fill=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\">", x, y - 10, colour,
	    x + 17, y);
	xml_text(fp, label);
	fputs("</text>\n", fp);
}

/* ----------------------------------------------------------- CSV data */

/* A number cell: the shortest of %.15g and %.17g that reads back as v. */
static void
csv_num(struct csv_writer *w, double v)
{
	char b[40];

	snprintf(b, sizeof b, "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof b, "%.17g", v);
	csv_write_field(w, b);
}

static void
csv_header(struct csv_writer *w, FILE *fp, const char *const *names)
{
	size_t n;

	csv_writer_init(w, fp, 0, 0);
	for (n = 0; names[n]; n++)
		;
	csv_write_row(w, names, n);
}

/* ------------------------------------------------------ Figure 4 scatter */

static unsigned long
fnv(const char *a, const char *b, const char *c)
{
	unsigned long h = 2166136261UL;
	const char *p[3] = { a, b, c };
	const char *q;
	int i;

	for (i = 0; i < 3; i++)
		for (q = p[i] ? p[i] : ""; *q; q++)
			h = ((h ^ (unsigned char)*q) * 16777619UL) & 0xffffffffUL;
	return h & 0xffffffUL;
}

static const json_t *
find_metric(const json_t *res, const char *metric)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "metric")) ?
		    json_string_value(json_object_get(r, "metric")) : "", metric))
			return r;
	return NULL;
}

struct xy {
	double x, y;
};

static int
xy_cmp(const void *pa, const void *pb)
{
	const struct xy *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return (a->y > b->y) - (a->y < b->y);
}

/*
 * The trend of Δaccuracy over Δtokens, drawn within the plot: the pairs
 * sorted by Δtokens in ten groups of equal size (fewer when there are fewer
 * than 20 pairs, none under 4), and a line through each group's median
 * Δtokens and median Δaccuracy.  Medians, because a least-squares line
 * follows one extreme site wherever it lies, and the statistic the figure
 * illustrates, Spearman's ρ, is a rank statistic that does not.
 */
static void
median_line(const struct plot *p, const struct bst_study *s)
{
	struct xy *v, *g;
	size_t i, k, n = s->npairs, groups = n >= 20 ? 10 : n / 2, lo, hi, m;
	double mx, my, *ys;

	if (n < 4)
		return;
	v = xcalloc(n, sizeof *v);
	ys = xcalloc(n, sizeof *ys);
	for (i = 0; i < n; i++) {
		v[i].x = bst_delta(M_TOK, s->pairs[i].a, s->pairs[i].b);
		v[i].y = bst_delta(M_ACC, s->pairs[i].a, s->pairs[i].b);
	}
	qsort(v, n, sizeof *v, xy_cmp);
	fprintf(p->fp, "<polyline fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"2\" points=\"", C_BAD);
	for (k = 0; k < groups; k++) {
		lo = k * n / groups;
		hi = (k + 1) * n / groups;
		g = v + lo;
		m = hi - lo;
		mx = (g[(m - 1) / 2].x + g[m / 2].x) / 2;
		for (i = 0; i < m; i++)
			ys[i] = g[i].y;
		qsort(ys, m, sizeof *ys, bst_cmp_double);
		my = (ys[(m - 1) / 2] + ys[m / 2]) / 2;
		fprintf(p->fp, "%s%.1f,%.1f", k ? " " : "", px(p, mx),
		    py(p, fmax(p->y0, fmin(p->y1, my))));
	}
	fprintf(p->fp, "\"/>\n");
	free(ys);
	free(v);
}

/*
 * Figure 4's title says what the x axis holds in this study: a reduction
 * when B uses fewer tokens on some pair, an increase when B never does.
 */
static const char *
scatter_title(const struct bst_study *s)
{
	size_t i;

	for (i = 0; i < s->npairs; i++)
		if (bst_delta(M_TOK, s->pairs[i].a, s->pairs[i].b) > 0)
			return "Token reduction and accuracy change (001 §6.7, "
			    "Figure 4)";
	return "Token increase under B and accuracy change (001 §6.7, "
	    "Figure 4; B never uses fewer tokens)";
}

static void
scatter_svg(const struct bst_study *s, FILE *fp)
{
	const json_t *sp = find_metric(s->results, "delta_tokens~delta_accuracy");
	struct plot p = { 0 };
	char sub[200], pb[32];
	double step, v;
	size_t i;

	if (sp && json_is_true(json_object_get(sp, "computable")))
		snprintf(sub, sizeof sub, "Spearman ρ = %.3f, p = %s, n = %zu pairs",
		    json_number_value(json_object_get(sp, "statistic")),
		    bst_fmt_p(json_number_value(json_object_get(sp, "p")), pb,
		    sizeof pb), s->npairs);
	else
		snprintf(sub, sizeof sub, "Spearman ρ not computable, n = %zu pairs",
		    s->npairs);
	begin(&p, fp, 720, 520, scatter_title(s), sub);
	p.l = 90, p.r = 700, p.t = 60, p.b = 420;
	p.x0 = 0, p.x1 = 0;
	for (i = 0; i < s->npairs; i++) {
		v = bst_delta(M_TOK, s->pairs[i].a, s->pairs[i].b);
		p.x0 = i ? fmin(p.x0, v) : v;
		p.x1 = i ? fmax(p.x1, v) : v;
	}
	step = nice_range(&p.x0, &p.x1, 7, 0.04);
	p.y0 = -3.5, p.y1 = 3.5;
	x_axis(&p, step, "Δtokens = A − B (input tokens; positive: B uses fewer)");
	y_axis(&p, 1, "Δaccuracy = B − A (positive: B better)");
	if (p.x0 < 0 && p.x1 > 0)
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", px(&p, 0), p.t,
		    px(&p, 0), p.b, C_MUTED);
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *q = &s->pairs[i];
		double jit = ((double)fnv(q->a->site, q->a->question, q->a->model) /
		    16777216.0 - 0.5) * 0.5;

		fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" "
		    "fill-opacity=\"0.45\"/>\n", px(&p, bst_delta(M_TOK, q->a, q->b)),
		    py(&p, bst_delta(M_ACC, q->a, q->b) + jit), C_B);
	}
	median_line(&p, s);
	frame(&p);
	legend(fp, 400, 486, C_B, "one pair (jittered ±0.25 vertically)");
	fprintf(fp, "<line x1=\"200\" y1=\"481\" x2=\"220\" y2=\"481\" stroke=\"%s\" "
	    "stroke-width=\"2\"/>\n<text x=\"225\" y=\"486\">median per tenth"
	    "</text>\n", C_BAD);
	end(&p, BST_SIGN);
}

static void
scatter_csv(const struct bst_study *s, FILE *fp)
{
	static const char *const head[] = { "site_id", "question_id", "model_id",
	    "delta_tokens_a_minus_b", "delta_accuracy_b_minus_a", NULL };
	struct csv_writer w;
	size_t i;

	csv_header(&w, fp, head);
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *q = &s->pairs[i];

		csv_write_text(&w, q->a->site);
		csv_write_text(&w, q->a->question);
		csv_write_text(&w, q->a->model);
		csv_num(&w, bst_delta(M_TOK, q->a, q->b));
		csv_num(&w, bst_delta(M_ACC, q->a, q->b));
		csv_end_record(&w);
	}
}

/* ------------------------------------------------ per-site token bars */

struct site_bar {
	const char *site;
	size_t n;
	double mean_a, mean_b, mean, lo, hi;
};

/* Mean Δ = A - B per site with its t interval (reference counts when
 * every pair has them, as 001 §2.6 asks). */
static size_t
site_bars(const struct bst_study *s, struct site_bar **out, int *ref)
{
	struct site_bar *v = xcalloc(s->npairs + 1, sizeof *v);
	size_t i, j, k, ns = 0;

	*ref = s->npairs > 0;
	for (i = 0; i < s->npairs; i++)
		if (!s->pairs[i].a->has_reftok || !s->pairs[i].b->has_reftok)
			*ref = 0;
	for (i = 0; i < s->npairs; i = j) {
		struct site_bar *b = &v[ns++];
		double ss = 0, sd;

		for (j = i; j < s->npairs && !strcmp(s->pairs[j].a->site,
		    s->pairs[i].a->site); j++) {
			double ta = *ref ? s->pairs[j].a->reftok : s->pairs[j].a->tok;
			double tb = *ref ? s->pairs[j].b->reftok : s->pairs[j].b->tok;

			b->mean_a += ta;
			b->mean_b += tb;
		}
		b->site = s->pairs[i].a->site;
		b->n = j - i;
		b->mean_a /= (double)b->n;
		b->mean_b /= (double)b->n;
		b->mean = b->mean_a - b->mean_b;
		for (k = i; k < j; k++) {
			double d = (*ref ? s->pairs[k].a->reftok - s->pairs[k].b->reftok :
			    s->pairs[k].a->tok - s->pairs[k].b->tok) - b->mean;

			ss += d * d;
		}
		sd = b->n > 1 ? sqrt(ss / (double)(b->n - 1)) : 0;
		b->lo = b->hi = b->mean;
		if (b->n > 1) {
			double h = gsl_cdf_tdist_Pinv(0.5 + s->opt.level / 2,
			    (double)(b->n - 1)) * sd /
			    sqrt((double)b->n);

			b->lo -= h;
			b->hi += h;
		}
	}
	*out = v;
	return ns;
}

/* s cut to max characters with an ellipsis (the full text in a title). */
static void
xml_text_cut(FILE *fp, const char *s, size_t max)
{
	size_t n = 0;
	const char *p;
	char *cut;

	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && ++n > max)
			break;
	if (!*p) {
		xml_text(fp, s);
		return;
	}
	cut = xstrndup(s, (size_t)(p - s));
	xml_text(fp, cut);
	fputs("…", fp);
	free(cut);
}

/* Longest label in characters (UTF-8 continuation bytes not counted). */
static size_t
label_chars(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void
site_tokens_svg(const struct bst_study *s, FILE *fp)
{
	struct site_bar *v;
	int ref;
	size_t ns = site_bars(s, &v, &ref), i, wlab = 4;
	struct plot p = { 0 };
	double step, row, bar;
	char title[160], xl[160];

	for (i = 0; i < ns; i++)
		wlab = label_chars(v[i].site) > wlab ? label_chars(v[i].site) : wlab;
	wlab = wlab > 24 ? 24 : wlab;
	row = ns > 40 ? 12 : 24;
	snprintf(title, sizeof title, "Mean token reduction per site (%s)",
	    ref ? "Llama 3 reference tokenizer" : "input tokens");
	begin(&p, fp, 720, 150 + row * (double)(ns ? ns : 1), title,
	    "bars: mean Δ = A − B per site; whiskers: 95 % t interval of the mean");
	p.l = 40 + 7.5 * (double)wlab, p.r = 640, p.t = 56;
	p.b = p.t + row * (double)(ns ? ns : 1);
	p.x0 = 0, p.x1 = 0;
	for (i = 0; i < ns; i++) {
		p.x0 = fmin(p.x0, v[i].lo);
		p.x1 = fmax(p.x1, v[i].hi);
	}
	step = nice_range(&p.x0, &p.x1, 6, 0.04);
	p.y0 = 0, p.y1 = (double)(ns ? ns : 1);
	snprintf(xl, sizeof xl, "mean Δtokens = A − B (positive: B uses fewer)");
	x_axis(&p, step, xl);
	bar = fmin(16, row * 0.7);
	for (i = 0; i < ns; i++) {
		double yc = p.t + row * ((double)i + 0.5);
		double xa = px(&p, fmin(0, v[i].mean)), xb = px(&p, fmax(0, v[i].mean));

		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"%s\"><title>", xa, yc - bar / 2, fmax(xb - xa, 0.5), bar,
		    v[i].mean >= 0 ? C_GOOD : C_BAD);
		xml_text(fp, v[i].site);
		fprintf(fp, ": %.1f [%.1f, %.1f], n = %zu</title></rect>\n", v[i].mean,
		    v[i].lo, v[i].hi, v[i].n);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"black\"/>\n", px(&p, v[i].lo), yc, px(&p, v[i].hi), yc);
		if (row >= 20) {
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			    p.l - 6, yc + 4);
			xml_text_cut(fp, v[i].site, 23);
			fprintf(fp, "</text>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">"
			    "n = %zu</text>\n", p.r + 8, yc + 4, C_MUTED, v[i].n);
		}
	}
	fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	    "stroke=\"black\"/>\n", px(&p, 0), p.t, px(&p, 0), p.b);
	frame(&p);
	legend(fp, 150, p.h - 34, C_GOOD, "B (llms.txt) uses fewer tokens");
	legend(fp, 420, p.h - 34, C_BAD, "B uses more tokens");
	end(&p, BST_SIGN);
	free(v);
}

static void
site_tokens_csv(const struct bst_study *s, FILE *fp)
{
	static const char *const head[] = { "site_id", "n", "mean_a", "mean_b",
	    "mean_delta_a_minus_b", "ci_low", "ci_high", "delta_pct_of_a",
	    "counts", NULL };
	struct site_bar *v;
	struct csv_writer w;
	int ref;
	size_t ns = site_bars(s, &v, &ref), i;

	csv_header(&w, fp, head);
	for (i = 0; i < ns; i++) {
		csv_write_text(&w, v[i].site);
		csv_num(&w, (double)v[i].n);
		csv_num(&w, v[i].mean_a);
		csv_num(&w, v[i].mean_b);
		csv_num(&w, v[i].mean);
		csv_num(&w, v[i].lo);
		csv_num(&w, v[i].hi);
		if (v[i].mean_a > 0)
			csv_num(&w, 100 * v[i].mean / v[i].mean_a);
		else
			csv_write_field(&w, "");
		csv_write_field(&w, ref ? "ref_token_count" : "input_token_count");
		csv_end_record(&w);
	}
	free(v);
}

/* ------------------------------------------- accuracy by condition */

/* Wilson score interval of k successes in n (95 %: z = 1.959964). */
static void
wilson(double k, double n, double z, double *lo, double *hi)
{
	double ph, den, c, h;

	if (n == 0) {
		*lo = *hi = 0;
		return;
	}
	ph = k / n;
	den = 1 + z * z / n;
	c = (ph + z * z / (2 * n)) / den;
	h = z * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / den;
	*lo = fmax(0, c - h);
	*hi = fmin(1, c + h);
}

static void
accuracy_counts(const struct bst_study *s, double c[2][4])
{
	size_t i;

	memset(c, 0, 8 * sizeof c[0][0]);
	for (i = 0; i < s->npairs; i++) {
		assert(s->pairs[i].a->fa >= 0 && s->pairs[i].a->fa <= 3);
		assert(s->pairs[i].b->fa >= 0 && s->pairs[i].b->fa <= 3);
		c[0][s->pairs[i].a->fa]++;
		c[1][s->pairs[i].b->fa]++;
	}
}

static void
accuracy_svg(const struct bst_study *s, FILE *fp)
{
	double c[2][4], n = (double)s->npairs, z = gsl_cdf_ugaussian_Pinv(0.5 +
	    s->opt.level / 2), step, lo, hi;
	struct plot p = { 0 };
	char sub[120];
	int k, v;

	accuracy_counts(s, c);
	snprintf(sub, sizeof sub, "share of the %zu scored pairs' responses at "
	    "each score; whiskers: 95 %% Wilson intervals", s->npairs);
	begin(&p, fp, 720, 480, "Factual accuracy by condition", sub);
	p.l = 90, p.r = 700, p.t = 80, p.b = 400;
	p.x0 = -0.5, p.x1 = 3.5, p.y0 = 0, p.y1 = 0;
	for (k = 0; k < 2; k++)
		for (v = 0; v < 4; v++) {
			wilson(c[k][v], n, z, &lo, &hi);
			p.y1 = fmax(p.y1, 100 * hi);
		}
	step = nice_range(&p.y0, &p.y1, 6, 0.04);
	y_axis(&p, step, "responses (%)");
	for (v = 0; v < 4; v++)
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d"
		    "</text>\n", px(&p, v), p.b + 18, v);
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">factual "
	    "accuracy (0–3, 000 §2; higher is better)</text>\n", (p.l + p.r) / 2,
	    p.b + 38);
	for (v = 0; v < 4; v++)
		for (k = 0; k < 2; k++) {
			double x = px(&p, v - 0.36 + 0.37 * k), w = px(&p, 0.34) - px(&p, 0);
			double pc = n > 0 ? 100 * c[k][v] / n : 0;

			wilson(c[k][v], n, z, &lo, &hi);
			fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"%s\"><title>%c, score %d: %.0f of %.0f "
			    "(%.1f %%)</title></rect>\n<line x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x, py(&p, pc), w,
			    p.b - py(&p, pc), k ? C_B : C_A, k ? 'B' : 'A', v, c[k][v], n,
			    pc, x + w / 2, py(&p, 100 * lo), x + w / 2, py(&p, 100 * hi));
		}
	frame(&p);
	legend(fp, 200, 66, C_A, "A: HTML after readability extraction");
	legend(fp, 460, 66, C_B, "B: llms.txt Markdown");
	end(&p, BST_SIGN);
}

static void
accuracy_csv(const struct bst_study *s, FILE *fp)
{
	static const char *const head[] = { "condition", "score", "count", "n",
	    "pct", "ci_low_pct", "ci_high_pct", NULL };
	double c[2][4], n = (double)s->npairs, z = gsl_cdf_ugaussian_Pinv(0.5 +
	    s->opt.level / 2), lo, hi;
	struct csv_writer w;
	int k, v;

	accuracy_counts(s, c);
	csv_header(&w, fp, head);
	for (k = 0; k < 2; k++)
		for (v = 0; v < 4; v++) {
			wilson(c[k][v], n, z, &lo, &hi);
			csv_write_field(&w, k ? "B" : "A");
			csv_num(&w, v);
			csv_num(&w, c[k][v]);
			csv_num(&w, n);
			csv_num(&w, n > 0 ? 100 * c[k][v] / n : 0);
			csv_num(&w, 100 * lo);
			csv_num(&w, 100 * hi);
			csv_end_record(&w);
		}
}

/* ------------------------------------------------------- forest plot */

static int
forest_row(const json_t *r)
{
	const char *g = json_string_value(json_object_get(r, "group"));
	const char *m = json_string_value(json_object_get(r, "metric"));

	return g && m && (!strcmp(g, "tier") || !strcmp(g, "complexity")) &&
	    !strcmp(m, "factual_accuracy");
}

static void
forest_text(const struct plot *p, const json_t *r, double y)
{
	json_t *e = json_object_get(r, "effect");

	fprintf(p->fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p->l - 8,
	    y + 4);
	xml_text_cut(p->fp, strchr(json_string_value(json_object_get(r,
	    "subset")), '=') + 1, 30);
	fprintf(p->fp, "</text>\n<text x=\"%.1f\" y=\"%.1f\">n = %lld</text>\n"
	    "<text x=\"%.1f\" y=\"%.1f\">", p->r + 10, y + 4,
	    (long long)json_integer_value(json_object_get(r, "n")), p->r + 70, y + 4);
	if (json_is_number(json_object_get(e, "value")))
		fprintf(p->fp, "%.3f [%.3f, %.3f]",
		    json_number_value(json_object_get(e, "value")),
		    json_number_value(json_object_get(e, "ci_low")),
		    json_number_value(json_object_get(e, "ci_high")));
	else
		fputs("not computable", p->fp);
	fputs("</text>\n", p->fp);
}

static void
forest_svg(const struct bst_study *s, FILE *fp)
{
	struct plot p = { 0 };
	size_t i, nrow = 0, row = 0, ngroup = 0;
	const char *lastg = NULL;
	json_t *r;
	double y;

	json_array_foreach(s->results, i, r)
		if (forest_row(r)) {
			nrow++;
			if (!lastg || strcmp(lastg, json_string_value(json_object_get(r,
			    "group"))))
				ngroup++;
			lastg = json_string_value(json_object_get(r, "group"));
		}
	begin(&p, fp, 760, 166 + 26.0 * (double)(nrow + ngroup), "Factual "
	    "accuracy by tier and complexity (001 §6.6)", "Cliff's δ of the "
	    "paired Δ = B − A with 95 % bootstrap intervals");
	p.l = 230, p.r = 540, p.t = 76, p.b = p.t + 26.0 * (double)(nrow + ngroup);
	p.x0 = -1, p.x1 = 1, p.y0 = 0, p.y1 = 1;
	x_axis(&p, 0.5, "Cliff's δ (positive: B better)");
	fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	    "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
	    "font-weight=\"bold\">n</text>\n<text x=\"%.1f\" y=\"%.1f\" "
	    "font-weight=\"bold\">δ [95 %% CI]</text>\n", px(&p, 0), p.t, px(&p, 0),
	    p.b, C_MUTED, p.r + 10, p.t - 6, p.r + 70, p.t - 6);
	lastg = NULL;
	json_array_foreach(s->results, i, r) {
		json_t *e = json_object_get(r, "effect");
		const char *g = json_string_value(json_object_get(r, "group"));

		if (!forest_row(r))
			continue;
		if (!lastg || strcmp(lastg, g)) {
			y = p.t + 26.0 * ((double)row++ + 0.6);
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\" "
			    "text-anchor=\"end\">%s</text>\n", p.l - 8, y + 4,
			    !strcmp(g, "tier") ? "Model tier" : "Question complexity");
			lastg = g;
		}
		y = p.t + 26.0 * ((double)row++ + 0.6);
		forest_text(&p, r, y);
		if (!json_is_number(json_object_get(e, "value")))
			continue;
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"black\" stroke-width=\"1.5\"/>\n<rect x=\"%.1f\" "
		    "y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"/>\n",
		    px(&p, json_number_value(json_object_get(e, "ci_low"))), y,
		    px(&p, json_number_value(json_object_get(e, "ci_high"))), y,
		    px(&p, json_number_value(json_object_get(e, "value"))) - 4.5,
		    y - 4.5, C_B);
	}
	frame(&p);
	end(&p, BST_SIGN);
}

static void
forest_csv(const struct bst_study *s, FILE *fp)
{
	static const char *const head[] = { "group", "subset", "n",
	    "cliffs_delta_b_minus_a", "ci_low", "ci_high", NULL };
	struct csv_writer w;
	size_t i;
	json_t *r;

	csv_header(&w, fp, head);
	json_array_foreach(s->results, i, r) {
		json_t *e = json_object_get(r, "effect");
		static const char *const k[] = { "value", "ci_low", "ci_high" };
		int j;

		if (!forest_row(r))
			continue;
		csv_write_text(&w, json_string_value(json_object_get(r, "group")));
		csv_write_text(&w, json_string_value(json_object_get(r, "subset")));
		csv_num(&w, json_number_value(json_object_get(r, "n")));
		for (j = 0; j < 3; j++)
			if (json_is_number(json_object_get(e, k[j])))
				csv_num(&w, json_number_value(json_object_get(e, k[j])));
			else
				csv_write_field(&w, "");
		csv_end_record(&w);
	}
}

/* ------------------------------------------------------------ output */

static const struct figure {
	const char *name;
	void (*svg)(const struct bst_study *, FILE *);
	void (*csv)(const struct bst_study *, FILE *);
} FIGURES[BST_NFIGURES] = {
	{ "accuracy-by-condition", accuracy_svg, accuracy_csv },
	{ "fig4-tokens-vs-accuracy", scatter_svg, scatter_csv },
	{ "forest-tier-complexity", forest_svg, forest_csv },
	{ "site-token-deltas", site_tokens_svg, site_tokens_csv },
};

const char *
bstats_figure_name(size_t i)
{
	assert(i < BST_NFIGURES);
	return FIGURES[i].name;
}

void
bstats_figure_svg(const struct bst_study *s, size_t i, FILE *fp)
{
	assert(i < BST_NFIGURES);
	FIGURES[i].svg(s, fp);
}

/* DIR/NAME.EXT in the run's group of outputs. */
static void
write_file(const struct bst_study *s, struct atomic_group *g, const char *dir,
    const char *name, const char *ext,
    void (*fn)(const struct bst_study *, FILE *), int xml)
{
	char file[128], *path;
	FILE *fp;

	snprintf(file, sizeof file, "%s.%s", name, ext);
	path = path_join(dir, file);
	if (!(fp = atomic_group_open(g, path, 0644)))
		die_errno("%s", path);
	if (xml)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	fn(s, fp);
	free(path);
}

void
bstats_figures(const struct bst_study *s, struct atomic_group *g,
    const char *dir)
{
	size_t i;

	if (atomic_group_mkdir(g, dir, 0755) != 0)
		die_errno("%s", dir);
	for (i = 0; i < BST_NFIGURES; i++) {
		write_file(s, g, dir, FIGURES[i].name, "svg", FIGURES[i].svg, 1);
		write_file(s, g, dir, FIGURES[i].name, "csv", FIGURES[i].csv, 0);
	}
}
