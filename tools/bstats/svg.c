/*
 * svg.c - the SVG figures of bstats: the Δtokens vs Δaccuracy scatter with
 * Spearman's ρ and the least-squares line (001 §6.7, Figure 4), per-site
 * token deltas (001 §2.6, 000 §4), accuracy distributions by condition, and
 * a forest plot of Cliff's δ by tier and complexity (§6.6).  Plain SVG 1.1,
 * deterministic: the scatter's vertical jitter comes from a hash of the
 * pair's key, not from a clock.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "bstats.h"

#define W 720
#define H 480
#define ML 80
#define MR 30
#define MT 50
#define MB 60

struct svgf {
	struct atomic_file *af;
	FILE *fp;
	const char *path;
};

static void
xml_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '<') fputs("&lt;", fp);
		else if (*s == '>') fputs("&gt;", fp);
		else if (*s == '&') fputs("&amp;", fp);
		else if (*s == '"') fputs("&quot;", fp);
		else fputc(*s, fp);
	}
}

static void
svg_open(struct svgf *f, const char *dir, const char *name,
    const char *title)
{
	char *path = path_join(dir, name);

	f->af = atomic_open(path, 0644);
	if (!f->af)
		die_errno("%s", path);
	f->fp = atomic_fp(f->af);
	f->path = path;
	fprintf(f->fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	    "<text x=\"%d\" y=\"28\" font-size=\"15\" text-anchor=\"middle\">",
	    W, H, W, H, W / 2);
	xml_text(f->fp, title);
	fputs("</text>\n", f->fp);
}

static void
svg_close(struct svgf *f)
{
	fputs("</svg>\n", f->fp);
	if (atomic_commit(f->af) != 0)
		die_errno("%s", f->path);
	free((void *)f->path);
}

enum { AX_NO_XTICKS = 1, AX_NO_YTICKS = 2 };

static void
axes(FILE *fp, double x0, double x1, double y0, double y1,
    const char *xl, const char *yl, int flags)
{
	int i;

	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
	    ML, H - MB, W - MR, H - MB);
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
	    ML, MT, ML, H - MB);
	for (i = 0; i <= 4; i++) {
		double fx = x0 + (x1 - x0) * i / 4, fy = y0 + (y1 - y0) * i / 4;
		double px = ML + (double)(W - ML - MR) * i / 4;
		double py = H - MB - (double)(H - MT - MB) * i / 4;

		if (!(flags & AX_NO_XTICKS))
			fprintf(fp, "<text x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">%.4g</text>\n", px, H - MB + 16, fx);
		if (!(flags & AX_NO_YTICKS))
			fprintf(fp, "<text x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%.4g</text>\n", ML - 6, py + 4, fy);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (W + ML - MR) / 2,
	    H - 18);
	xml_text(fp, xl);
	fprintf(fp, "</text>\n<text x=\"18\" y=\"%d\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 18 %d)\">", H / 2, H / 2);
	xml_text(fp, yl);
	fputs("</text>\n", fp);
}

static double
sx(double v, double lo, double hi)
{
	return ML + (v - lo) / (hi - lo) * (W - ML - MR);
}

static double
sy(double v, double lo, double hi)
{
	return H - MB - (v - lo) / (hi - lo) * (H - MT - MB);
}

static unsigned long
fnv(const char *a, const char *b, const char *c)
{
	unsigned long h = 1469598103UL;
	const char *p[3] = { a, b, c };
	int i;

	for (i = 0; i < 3; i++)
		for (const char *q = p[i] ? p[i] : ""; *q; q++)
			h = (h ^ (unsigned char)*q) * 16777619UL;
	return h & 0xffffffUL;
}

static const char *
js(const json_t *r, const char *k)
{
	const char *v = json_string_value(json_object_get(r, k));

	return v ? v : "";
}

static const json_t *
find_spearman(const json_t *res)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (!strcmp(js(r, "metric"),
		    "delta_tokens~delta_accuracy"))
			return r;
	return NULL;
}

static void
scatter(const struct bst_study *s, const char *dir)
{
	struct svgf f;
	const json_t *sp = find_spearman(s->results);
	char title[160];
	double x0 = 0, x1 = 1, mx = 0, my = 0, sxx = 0, sxy = 0;
	size_t i;

	if (sp && json_is_true(json_object_get(sp, "computable")))
		snprintf(title, sizeof title, "Δtokens vs Δaccuracy (Spearman ρ = %.3f, "
		    "p = %.3g, n = %zu)", json_number_value(json_object_get(sp, "statistic")),
		    json_number_value(json_object_get(sp, "p")), s->npairs);
	else
		snprintf(title, sizeof title, "Δtokens vs Δaccuracy (Spearman ρ not "
		    "computable, n = %zu)", s->npairs);
	svg_open(&f, dir, "fig4-tokens-vs-accuracy.svg", title);
	for (i = 0; i < s->npairs; i++) {
		double d = s->pairs[i].a->tok - s->pairs[i].b->tok;

		if (i == 0 || d < x0) x0 = d;
		if (i == 0 || d > x1) x1 = d;
	}
	if (x1 <= x0)
		x1 = x0 + 1;
	axes(f.fp, x0, x1, -3.5, 3.5, "Δtokens = A − B (input tokens)",
	    "Δaccuracy = B − A (jittered)", AX_NO_YTICKS);
	for (i = 0; i < 7; i++)
		fprintf(f.fp, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
		    ML - 6, sy((double)i - 3, -3.5, 3.5) + 4, (int)i - 3);
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];
		double x = p->a->tok - p->b->tok, y = p->b->fa - p->a->fa;
		double jit = ((double)fnv(p->a->site, p->a->question, p->a->model) /
		    16777216.0 - 0.5) * 0.5;

		fprintf(f.fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#1f77b4\" "
		    "fill-opacity=\"0.4\"/>\n", sx(x, x0, x1), sy(y + jit, -3.5, 3.5));
		mx += x;
		my += y;
	}
	if (s->npairs > 1) {
		double b, a;

		mx /= (double)s->npairs;
		my /= (double)s->npairs;
		for (i = 0; i < s->npairs; i++) {
			double x = s->pairs[i].a->tok - s->pairs[i].b->tok;
			double y = s->pairs[i].b->fa - s->pairs[i].a->fa;

			sxx += (x - mx) * (x - mx);
			sxy += (x - mx) * (y - my);
		}
		if (sxx > 0) {
			b = sxy / sxx;
			a = my - b * mx;
			fprintf(f.fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#d62728\" stroke-width=\"2\"/>\n", sx(x0, x0, x1),
			    sy(fmax(-3.5, fmin(3.5, a + b * x0)), -3.5, 3.5), sx(x1, x0, x1),
			    sy(fmax(-3.5, fmin(3.5, a + b * x1)), -3.5, 3.5));
		}
	}
	svg_close(&f);
}

static void
site_tokens(const struct bst_study *s, const char *dir)
{
	struct svgf f;
	const char **site = xreallocarray(NULL, s->npairs + 1, sizeof *site);
	double *sum = xcalloc(s->npairs + 1, sizeof *sum), lo = 0, hi = 0;
	size_t *cnt = xcalloc(s->npairs + 1, sizeof *cnt), ns = 0, i, j;

	/* pairs are sorted by site; reference (Llama 3) counts when present */
	for (i = 0; i < s->npairs; i++) {
		const struct bst_pair *p = &s->pairs[i];
		double d = p->a->has_reftok && p->b->has_reftok ?
		    p->a->reftok - p->b->reftok : p->a->tok - p->b->tok;

		if (ns == 0 || strcmp(site[ns - 1], p->a->site))
			site[ns++] = p->a->site;
		sum[ns - 1] += d;
		cnt[ns - 1]++;
	}
	for (j = 0; j < ns; j++) {
		sum[j] /= (double)cnt[j];
		lo = fmin(lo, sum[j]);
		hi = fmax(hi, sum[j]);
	}
	if (hi <= lo)
		hi = lo + 1;
	svg_open(&f, dir, "site-token-deltas.svg",
	    "Mean token reduction per site (A − B, reference tokenizer)");
	axes(f.fp, lo, hi, 0, (double)ns, "mean Δtokens = A − B", "site",
	    AX_NO_YTICKS);
	for (j = 0; j < ns; j++) {
		double y = sy((double)j + 0.9, 0, (double)(ns ? ns : 1));
		double h = fmax(1, (double)(H - MT - MB) / (double)(ns ? ns : 1) * 0.8);
		double xa = sx(fmin(0, sum[j]), lo, hi), xb = sx(fmax(0, sum[j]), lo, hi);

		fprintf(f.fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"%s\"><title>", xa, y, xb - xa, h,
		    sum[j] >= 0 ? "#2ca02c" : "#d62728");
		xml_text(f.fp, site[j]);
		fprintf(f.fp, ": %.1f</title></rect>\n", sum[j]);
		if (ns <= 40) {
			fprintf(f.fp, "<text x=\"%d\" y=\"%.1f\" font-size=\"9\" "
			    "text-anchor=\"end\">", ML - 4, y + h);
			xml_text(f.fp, site[j]);
			fputs("</text>\n", f.fp);
		}
	}
	svg_close(&f);
	free(site);
	free(sum);
	free(cnt);
}

static void
accuracy_dist(const struct bst_study *s, const char *dir)
{
	struct svgf f;
	double c[2][4] = { { 0 } }, top = 1;
	size_t i;
	int k, v;

	for (i = 0; i < s->npairs; i++) {
		c[0][s->pairs[i].a->fa]++;
		c[1][s->pairs[i].b->fa]++;
	}
	for (k = 0; k < 2; k++)
		for (v = 0; v < 4; v++)
			top = fmax(top, c[k][v]);
	svg_open(&f, dir, "accuracy-by-condition.svg",
	    "Factual accuracy by condition (scored pairs)");
	axes(f.fp, -0.5, 3.5, 0, top, "factual accuracy (0–3)", "responses",
	    AX_NO_XTICKS);
	for (v = 0; v < 4; v++)
		fprintf(f.fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
		    sx(v, -0.5, 3.5), H - MB + 16, v);
	for (v = 0; v < 4; v++)
		for (k = 0; k < 2; k++) {
			double x = sx(v - 0.35 + 0.35 * k, -0.5, 3.5);
			double y = sy(c[k][v], 0, top);

			fprintf(f.fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"%s\"><title>%c=%d: %.0f</title></rect>\n",
			    x, y, sx(0.33, -0.5, 3.5) - sx(0, -0.5, 3.5), H - MB - y,
			    k ? "#ff7f0e" : "#1f77b4", k ? 'B' : 'A', v, c[k][v]);
		}
	fprintf(f.fp, "<rect x=\"%d\" y=\"40\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/>"
	    "<text x=\"%d\" y=\"49\">A (HTML)</text>\n", W - 180, W - 165);
	fprintf(f.fp, "<rect x=\"%d\" y=\"56\" width=\"10\" height=\"10\" fill=\"#ff7f0e\"/>"
	    "<text x=\"%d\" y=\"65\">B (llms.txt Markdown)</text>\n", W - 180, W - 165);
	svg_close(&f);
}

static void
forest(const struct bst_study *s, const char *dir)
{
	struct svgf f;
	size_t i, nrow = 0, row = 0;
	json_t *r;

	json_array_foreach(s->results, i, r)
		if ((!strcmp(js(r, "group"), "tier") ||
		    !strcmp(js(r, "group"), "complexity")) &&
		    !strcmp(js(r, "metric"), "factual_accuracy"))
			nrow++;
	svg_open(&f, dir, "forest-tier-complexity.svg",
	    "Cliff's δ of factual accuracy by tier and complexity (95 % CI)");
	axes(f.fp, -1, 1, 0, 1, "Cliff's δ (B vs A)", "", AX_NO_YTICKS);
	fprintf(f.fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"gray\" "
	    "stroke-dasharray=\"4 3\"/>\n", sx(0, -1, 1), MT, sx(0, -1, 1), H - MB);
	json_array_foreach(s->results, i, r) {
		json_t *e = json_object_get(r, "effect");
		double y;

		if ((strcmp(js(r, "group"), "tier") &&
		    strcmp(js(r, "group"), "complexity")) ||
		    strcmp(js(r, "metric"), "factual_accuracy"))
			continue;
		y = MT + 20 + (double)row++ * (double)(H - MT - MB - 30) / (double)(nrow ? nrow : 1);
		fprintf(f.fp, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\">", ML + 4, y - 4);
		xml_text(f.fp, js(r, "subset"));
		fputs("</text>\n", f.fp);
		if (!json_is_number(json_object_get(e, "value")))
			continue;
		fprintf(f.fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"black\"/>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" "
		    "height=\"7\" fill=\"#1f77b4\"/>\n",
		    sx(json_number_value(json_object_get(e, "ci_low")), -1, 1), y,
		    sx(json_number_value(json_object_get(e, "ci_high")), -1, 1), y,
		    sx(json_number_value(json_object_get(e, "value")), -1, 1) - 3.5, y - 3.5);
	}
	svg_close(&f);
}

void
bstats_figures(const struct bst_study *s, const char *dir)
{
	if (mkdir_p(dir, 0755) != 0)
		die_errno("%s", dir);
	scatter(s, dir);
	site_tokens(s, dir);
	accuracy_dist(s, dir);
	forest(s, dir);
}
