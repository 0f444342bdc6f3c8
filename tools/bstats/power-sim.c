/*
 * power-sim.c - the model of power.h: one simulated study drawn from a
 * design and its assumptions into the ratings of a struct bst_study, as
 * bstats_add_record would have read them, ready for bstats_analyse.  Each
 * study has its own generator (GSL's mt19937, seeded from the run's seed
 * and the study's number), so a study does not depend on which thread
 * draws it or when.  Calls nothing of bstats.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "ctx.h"
#include "hashing.h"
#include "power.h"

/* |Δ| grows by one every WIDTH beyond the tie threshold. */
#define WIDTH 0.5
/* The scale of each simulated metric: the largest |Δ|. */
static const int RANGE[PW_NMETRIC] = { 3, 3, 0, 1, 2 };

double
pw_tie_cut(double ties)
{
	return gsl_cdf_ugaussian_Pinv((1 + ties) / 2);
}

/* The Cliff's δ of a N(theta, 1) latent cut at +-c. */
static double
delta_of(double theta, double c)
{
	return gsl_cdf_ugaussian_P(theta - c) - gsl_cdf_ugaussian_P(-theta - c);
}

double
pw_theta(double delta, double c)
{
	double lo = -40, hi = 40;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (delta_of(mid, c) < delta)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* A 64-bit mix of the run's seed and the study's number (splitmix64). */
static unsigned long
study_seed(unsigned long seed, size_t k)
{
	return (unsigned long)ctx_mix64((uint64_t)seed * 0x9e3779b97f4a7c15ULL +
	    (uint64_t)k + 1);
}

/* The random effects of one metric: sites, then models, then questions. */
static void
effects(gsl_rng *r, const struct pw_design *d, const struct pw_assume *as,
    double *u)
{
	size_t i;

	for (i = 0; i < d->nsites; i++)
		u[i] = gsl_ran_gaussian_ziggurat(r, sqrt(as->icc_site));
	for (i = 0; i < d->nm; i++)
		u[d->nsites + i] = gsl_ran_gaussian_ziggurat(r,
		    sqrt(as->icc_model));
	for (i = 0; i < d->nq; i++)
		u[d->nsites + d->nm + i] = gsl_ran_gaussian_ziggurat(r,
		    sqrt(as->icc_question));
}

/* Factual accuracy's δ in one tier and complexity cell (H4, H5). */
static double
cell_delta(const struct pw_assume *as, int tier, int cx)
{
	double v = as->effect[M_ACC];

	if (tier == 0)
		v += as->tier / 2;
	else if (tier == 2)
		v -= as->tier / 2;
	v += cx == 0 ? -as->complexity / 2 : as->complexity / 2;
	return fmax(-0.999, fmin(0.999, v));
}

/* Δ of an ordinal metric from its latent z. */
static int
ordinal_delta(double z, double c, int range)
{
	int k;

	if (fabs(z) <= c)
		return 0;
	k = 1 + (int)floor((fabs(z) - c) / WIDTH);
	if (k > range)
		k = range;
	return z > 0 ? k : -k;
}

/* The lower of two values on 0..range that differ by |delta|, uniform
 * over where both fit. */
static int
lower_value(gsl_rng *r, int delta, int range)
{
	int span = range - abs(delta);

	return span > 0 ? (int)gsl_rng_uniform_int(r, (unsigned long)span + 1) :
	    0;
}

/* The per-study state: the generator, the latent shifts and effects. */
struct draw {
	gsl_rng *r;
	const struct pw_design *d;
	const struct pw_assume *as;
	double c;
	double theta[PW_NMETRIC];
	double acc_theta[4][3];	/* by tier, complexity */
	double *u[PW_NMETRIC];
	double sd_e;
};

/* The latent z of metric m for question qi and model mi. */
static double
latent(struct draw *w, int m, size_t qi, size_t mi, double theta)
{
	const struct pw_design *d = w->d;

	return theta + w->u[m][d->q[qi].site] + w->u[m][d->nsites + mi] +
	    w->u[m][d->nsites + d->nm + qi] +
	    gsl_ran_gaussian_ziggurat(w->r, w->sd_e);
}

/* The scores of one (question, model) under A and B. */
static void
score_pair(struct draw *w, size_t qi, size_t mi, struct bst_obs *a,
    struct bst_obs *b)
{
	const struct pw_model *mo = &w->d->m[mi];
	int dl, lo;
	double z, base;

	dl = ordinal_delta(latent(w, M_ACC, qi, mi,
	    w->acc_theta[mo->tier_k][w->d->q[qi].cx]), w->c, RANGE[M_ACC]);
	lo = lower_value(w->r, dl, RANGE[M_ACC]);
	a->fa = dl >= 0 ? lo : lo - dl;
	b->fa = a->fa + dl;
	/* fewer hallucinations is better: Δ = A - B */
	dl = ordinal_delta(latent(w, M_HALL, qi, mi, w->theta[M_HALL]), w->c,
	    RANGE[M_HALL]);
	lo = lower_value(w->r, dl, RANGE[M_HALL]);
	b->hc = dl >= 0 ? lo : lo - dl;
	a->hc = b->hc + dl;
	dl = ordinal_delta(latent(w, M_COMP, qi, mi, w->theta[M_COMP]), w->c, 1);
	a->comp = dl > 0 ? 0 : dl < 0 ? 1 : (int)gsl_rng_uniform_int(w->r, 2);
	b->comp = a->comp + dl;
	dl = ordinal_delta(latent(w, M_CITE, qi, mi, w->theta[M_CITE]), w->c,
	    RANGE[M_CITE]);
	lo = lower_value(w->r, dl, RANGE[M_CITE]);
	a->cf = dl >= 0 ? lo : lo - dl;
	b->cf = a->cf + dl;
	if (gsl_rng_uniform(w->r) < w->as->cite_na)
		a->cf = -1;
	if (gsl_rng_uniform(w->r) < w->as->cite_na)
		b->cf = -1;
	z = latent(w, M_TOK, qi, mi, w->theta[M_TOK]);
	base = 4000 + 2000 * (double)((qi * 2654435761u) % 1000) / 1000;
	a->tok = round(base);
	b->tok = fmax(1, round(base - 500 * z));
}

/* One rating's identity: the tuple, the rater, its exclusion. */
static void
identity(struct draw *w, struct bst_obs *o, size_t qi, size_t mi, char cond,
    size_t line)
{
	const struct pw_design *d = w->d;

	memset(o, 0, sizeof *o);
	o->site = (char *)d->site[d->q[qi].site];
	o->question = (char *)d->q[qi].id;
	o->complexity = (char *)d->q[qi].complexity;
	o->model = (char *)d->m[mi].id;
	o->tier = (char *)d->m[mi].tier;
	o->family = (char *)d->m[mi].family;
	o->rater = (char *)"simulated";
	o->cond = cond;
	o->primary = 1;
	o->gold_cov = o->par_b_in_a = o->par_a_in_b = -1;
	o->par_code_b_in_a = o->par_code_a_in_b = -1;
	o->drift = -1;
	o->file = "simulation";
	o->line = line;
	if (gsl_rng_uniform(w->r) < w->as->exclusion) {
		o->excluded = 1;
		o->reason = (char *)"SIMULATED_EXCLUSION";
	}
}

/* The latent shifts of the study's assumptions. */
static void
shifts(struct draw *w)
{
	const struct pw_assume *as = w->as;
	int m, t, x;

	w->c = pw_tie_cut(as->ties);
	for (m = 0; m < PW_NMETRIC; m++)
		w->theta[m] = m == M_TOK ? as->effect[m] : pw_theta(
		    as->effect[m], w->c);
	for (t = 0; t < 4; t++)
		for (x = 0; x < 3; x++)
			w->acc_theta[t][x] = pw_theta(cell_delta(as, t, x), w->c);
	w->sd_e = sqrt(fmax(0, 1 - as->icc_site - as->icc_model -
	    as->icc_question));
}

void
pw_simulate(struct bst_study *s, const struct pw_design *d,
    const struct pw_assume *as, unsigned long seed, size_t k)
{
	struct draw w = { .d = d, .as = as };
	size_t n = 2 * d->nq * d->nm, nu = d->nsites + d->nm + d->nq, qi, mi,
	    at = 0;
	int m;

	if (!(w.r = gsl_rng_alloc(gsl_rng_mt19937)))
		die("cannot allocate the random number generator");
	gsl_rng_set(w.r, study_seed(seed, k));
	shifts(&w);
	for (m = 0; m < PW_NMETRIC; m++) {
		w.u[m] = xreallocarray(NULL, nu + 1, sizeof *w.u[m]);
		effects(w.r, d, as, w.u[m]);
	}
	if (s->capobs < n) {
		s->obs = xreallocarray(s->obs, n, sizeof *s->obs);
		s->capobs = n;
	}
	for (qi = 0; qi < d->nq; qi++)
		for (mi = 0; mi < d->nm; mi++, at += 2) {
			identity(&w, &s->obs[at], qi, mi, 'A', at + 1);
			identity(&w, &s->obs[at + 1], qi, mi, 'B', at + 2);
			score_pair(&w, qi, mi, &s->obs[at], &s->obs[at + 1]);
		}
	s->nobs = n;
	for (m = 0; m < PW_NMETRIC; m++)
		free(w.u[m]);
	gsl_rng_free(w.r);
}

void
pw_release(struct bst_study *s)
{
	free(s->obs);
	s->obs = NULL;
	s->nobs = s->capobs = 0;
}
