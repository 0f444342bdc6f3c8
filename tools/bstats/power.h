/*
 * power.h - the power of the pre-registered design, by simulation (spec
 * 001 §6.2's "substantial statistical power", §6.5's clustering): studies
 * drawn from the study's own design under stated assumptions, each run
 * through the whole analysis (bstats_analyse), and the share of studies in
 * which each hypothesis is rejected.
 *
 * THE FILES, in floors (bstats.h maps the rest of the program):
 *
 *   power.c       bstats_power, the driver: the design from a corpus
 *                 directory, the simulated studies over threads, the
 *                 rejections counted per target, the minimum detectable
 *                 effect of H1; calls power-sim.c and bstats_analyse
 *   power-out.c   bstats_power_report: the Markdown section from the
 *                 result records bstats_power returned; calls nothing
 *   power-sim.c   the model (below): one simulated study into a struct
 *                 bst_study, and the latent shift of a Cliff's δ
 *
 * THE MODEL.  For each metric of 000 (factual accuracy, hallucination
 * count, completeness, citation fidelity) and each scored (site, question,
 * model) the paired difference Δ (THE SIGN CONVENTION of bstats.h) comes
 * from a latent normal
 *
 *     z = θ + u_site + u_model + u_question + e,   var(z) = 1,
 *
 * with var(u_site) = icc_site, var(u_model) = icc_model, var(u_question) =
 * icc_question and e the rest (independent normals, drawn anew for each
 * study and metric).  Δ = 0 when |z| <= c, where c is chosen so that a
 * share `ties` of pairs is tied when θ = 0; beyond c, |Δ| = 1 + floor((|z|
 * - c) / 0.5), at most the scale's range, with the sign of z.  Marginally z
 * is N(θ, 1), so the population Cliff's δ of the pairs is
 * Φ(θ - c) - Φ(-θ - c): θ is solved from the δ asked for, which is the
 * effect size the report prints.  The A and B scores are the two values on
 * the scale that differ by Δ, the lower one uniform over where both fit.
 * Factual accuracy's δ is the given effect plus +tier/2 for small models,
 * -tier/2 for large ones (H4) and -complexity/2 for single-fact questions,
 * +complexity/2 for the two complex levels (H5).  Input tokens: A is
 * 4,000-6,000 per question and A - B = 500 z with θ the paired Cohen's d.
 * Each rating is excluded with probability `exclusion`, and citation
 * fidelity is not applicable with probability `cite_na`.
 */
#ifndef BSTATS_POWER_H
#define BSTATS_POWER_H

#include <stddef.h>
#include <jansson.h>

#include "bstats.h"

/* The simulated metrics: enum bst_metric's first five. */
#define PW_NMETRIC 5

/* The assumptions of one scenario. */
struct pw_assume {
	double effect[PW_NMETRIC];	/* Cliff's δ; M_TOK: Cohen's d */
	double ties;		/* share of tied pairs at no effect */
	double icc_site, icc_model, icc_question;
	double tier, complexity;	/* H4, H5: differences of δ */
	double exclusion;	/* share of ratings excluded */
	double cite_na;		/* share of citation fidelity not applicable */
};

/* A power run: the design, the assumptions, the simulation. */
struct bst_power {
	const char *design;	/* corpus directory */
	struct pw_assume as;
	size_t sims;		/* studies per scenario */
	unsigned threads;	/* 0: one per online core */
	int mde_steps;		/* bisection steps for H1's MDE (0: none) */
	double target;		/* the power the MDE reaches (0.8) */
	unsigned long seed;
	double alpha;
	int quiet;		/* no progress line */
};

/* The design of a study: its sites, questions and models. */
struct pw_design {
	size_t nsites, nq, nm;
	const char **site;	/* site ids, in order of first question */
	struct pw_question {
		const char *id, *complexity;
		size_t site;	/* index into site */
		int cx;		/* 0 single-fact, 1, 2 the complex levels */
	} *q;
	struct pw_model {
		const char *id, *tier, *family;
		int tier_k;	/* 0 small, 1 medium, 2 large, 3 other */
	} *m;
	json_t *hold;		/* the loaded files the strings point into */
};

/* power.c: run the simulation; a new array of result records the caller
 * releases (one per target and scenario, the MDE, the assumptions).
 * Dies naming the file on a design it cannot read. */
json_t *bstats_power(const struct bst_power *p);

/* power-out.c: the report section of bstats_power's records. */
void bstats_power_report(const json_t *res, FILE *fp);

/* power-sim.c: the latent shift θ whose Cliff's δ over a scale with tie
 * threshold c is delta (|delta| < 1). */
double pw_theta(double delta, double c);
/* power-sim.c: the tie threshold of a share of ties. */
double pw_tie_cut(double ties);
/* power-sim.c: simulated study number k of seed into s (whose obs array it
 * fills, reusing s->obs; strings borrowed from d).  s must be fresh or
 * released with bstats_free_analysis. */
void pw_simulate(struct bst_study *s, const struct pw_design *d,
    const struct pw_assume *as, unsigned long seed, size_t k);
/* power-sim.c: release what pw_simulate allocated in s (the obs array). */
void pw_release(struct bst_study *s);

#endif
