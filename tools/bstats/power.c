/*
 * power.c - bstats --power, the driver of power.h: the study's design read
 * from a corpus directory (questions.json for the sites, questions and
 * complexity levels, benchmark-config.json for the model matrix and its
 * tiers), studies simulated under the assumptions (power-sim.c) and each
 * analysed by bstats_analyse exactly as a real study is, on a pool of
 * threads, one study at a time per thread; the rejections counted per
 * target (the hypotheses after BH, the subgroup and interaction tests, the
 * §6.5 clustering checks) with a Clopper-Pearson interval; H1 once more
 * without clustering; and the minimum detectable effect of H1 by bisection
 * over its Cliff's δ, every step on the same simulated studies.  Results
 * depend on the seed only, not on the threads.  Sits above analysis.c.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "ctx.h"
#include "fsutil.h"
#include "study.h"
#include "power.h"

/* ------------------------------------------------------------- targets */

enum pw_rule { R_BH, R_RAW, R_ALLB };

/* A result record of the analysis whose rejection is counted. */
struct target {
	const char *name, *hyp, *test, *group, *metric, *subset;
	enum pw_rule rule;
};

static const struct target TARGETS[] = {
	{ "H1", "H1", NULL, "primary", NULL, NULL, R_BH },
	{ "H2", "H2", NULL, "primary", NULL, NULL, R_BH },
	{ "H3", "H3", NULL, "primary", NULL, NULL, R_BH },
	{ "H6", "H6", "mcnemar_exact", "secondary", NULL, NULL, R_BH },
	{ "citation fidelity", NULL, NULL, "secondary", "citation_fidelity",
	    NULL, R_BH },
	{ "H4 interaction", "H4", "kruskal_wallis", "tier", NULL, NULL, R_BH },
	{ "H4 small vs large", "H4", "mann_whitney_u", "tier", NULL,
	    "tier=small vs large", R_BH },
	{ "H4 small vs medium", "H4", "mann_whitney_u", "tier", NULL,
	    "tier=small vs medium", R_BH },
	{ "H4 medium vs large", "H4", "mann_whitney_u", "tier", NULL,
	    "tier=medium vs large", R_BH },
	{ "H5 interaction", "H5", "kruskal_wallis", "complexity", NULL, NULL,
	    R_BH },
	{ "H5 multi-section-synthesis vs single-fact", "H5", "mann_whitney_u",
	    "complexity", NULL,
	    "complexity=multi-section-synthesis vs single-fact", R_BH },
	{ "H5 conceptual-relationship vs single-fact", "H5", "mann_whitney_u",
	    "complexity", NULL,
	    "complexity=conceptual-relationship vs single-fact", R_BH },
	{ "accuracy, small tier", NULL, NULL, "tier", "factual_accuracy",
	    "tier=small", R_BH },
	{ "accuracy, medium tier", NULL, NULL, "tier", "factual_accuracy",
	    "tier=medium", R_BH },
	{ "accuracy, large tier", NULL, NULL, "tier", "factual_accuracy",
	    "tier=large", R_BH },
	{ "accuracy, single-fact", NULL, NULL, "complexity", "factual_accuracy",
	    "complexity=single-fact", R_BH },
	{ "accuracy, multi-section-synthesis", NULL, NULL, "complexity",
	    "factual_accuracy", "complexity=multi-section-synthesis", R_BH },
	{ "accuracy, conceptual-relationship", NULL, NULL, "complexity",
	    "factual_accuracy", "complexity=conceptual-relationship", R_BH },
	{ "H1 site-level check", "H1", NULL, "clustering_site", NULL, NULL,
	    R_RAW },
	{ "H2 site-level check", "H2", NULL, "clustering_site", NULL, NULL,
	    R_RAW },
	{ "H3 site-level check", "H3", NULL, "clustering_site", NULL, NULL,
	    R_RAW },
	{ "H1 every model favours B", "H1", NULL, "clustering_model", NULL,
	    NULL, R_ALLB },
};
#define NT (sizeof TARGETS / sizeof TARGETS[0])
/* The two targets also run without clustering: H1 and its site check. */
enum { T_H1 = 0, T_H1_SITE = 18 };

static const char *const CRITERION[] = { "BH-adjusted p <= alpha",
    "p <= alpha (not adjusted: a robustness check)",
    "every model's mean Δ favours B (descriptive, 001 §6.5)" };

static int
field_is(const json_t *r, const char *key, const char *want)
{
	const char *v = json_string_value(json_object_get(r, key));

	return !want || (v && !strcmp(v, want));
}

static int
matches(const json_t *r, const struct target *t)
{
	return field_is(r, "hypothesis", t->hyp) && field_is(r, "test", t->test) &&
	    field_is(r, "group", t->group) && field_is(r, "metric", t->metric) &&
	    field_is(r, "subset", t->subset);
}

static int
rejected(const json_t *r, enum pw_rule rule, double alpha)
{
	json_t *p = json_object_get(r, "p");

	if (rule == R_BH)
		return json_is_true(json_object_get(r, "significant"));
	if (rule == R_RAW)
		return json_is_number(p) && json_number_value(p) <= alpha;
	return json_integer_value(json_object_get(r, "n")) > 0 &&
	    json_integer_value(json_object_get(r, "models_favouring_b")) ==
	    json_integer_value(json_object_get(r, "n"));
}

/* One analysed study's verdict on each target into rej[NT]. */
static void
score(const struct bst_study *s, unsigned char *rej, double alpha)
{
	size_t i, k;
	json_t *r;

	memset(rej, 0, NT);
	for (k = 0; k < NT; k++)
		json_array_foreach(s->results, i, r)
			if (matches(r, &TARGETS[k])) {
				rej[k] = (unsigned char)rejected(r, TARGETS[k].rule,
				    alpha);
				break;
			}
}

/* -------------------------------------------------------------- design */

static int
tier_rank(const char *t)
{
	static const char *const TIERS[] = { "small", "medium", "large" };
	int k;

	for (k = 0; t && k < 3; k++)
		if (!strcmp(t, TIERS[k]))
			return k;
	return 3;
}

static void
design_models(struct pw_design *d, const json_t *cfg, const char *path)
{
	json_t *ms = json_object_get(cfg, "models"), *m;
	size_t i;

	if (!json_is_array(ms) || json_array_size(ms) == 0)
		die("%s: models: expected a non-empty array", path);
	d->nm = json_array_size(ms);
	d->m = xcalloc(d->nm, sizeof *d->m);
	json_array_foreach(ms, i, m) {
		d->m[i].id = json_string_value(json_object_get(m, "model_id"));
		if (!d->m[i].id || !*d->m[i].id)
			die("%s: models[%zu]: model_id: expected a string", path, i);
		d->m[i].tier = json_string_value(json_object_get(m, "tier"));
		d->m[i].family = json_string_value(json_object_get(m, "family"));
		d->m[i].tier_k = tier_rank(d->m[i].tier);
	}
}

static void
design_questions(struct pw_design *d, const json_t *qs, const char *path)
{
	json_t *slot = json_object(), *q;
	size_t i;
	int k;

	if (json_array_size(qs) == 0)
		die("%s: expected at least one question", path);
	d->nq = json_array_size(qs);
	d->q = xcalloc(d->nq, sizeof *d->q);
	d->site = xcalloc(d->nq, sizeof *d->site);
	json_array_foreach(qs, i, q) {
		const char *site = json_string_value(json_object_get(q, "site_id"));
		json_t *at = json_object_get(slot, site);

		if (!at) {
			at = json_integer((json_int_t)d->nsites);
			json_object_set_new(slot, site, at);
			d->site[d->nsites++] = site;
		}
		d->q[i].site = (size_t)json_integer_value(at);
		d->q[i].id = json_string_value(json_object_get(q, "question_id"));
		d->q[i].complexity = json_string_value(json_object_get(q,
		    "complexity"));
		for (k = 0; study_complexities[k] &&
		    strcmp(study_complexities[k], d->q[i].complexity); k++)
			;
		d->q[i].cx = k > 2 ? 0 : k;
	}
	json_decref(slot);
}

static void
design_load(struct pw_design *d, const char *dir)
{
	char *qp = path_join(dir, "questions.json");
	char *cp = path_join(dir, "benchmark-config.json");
	json_t *qs = study_questions_load(qp), *cfg = study_config_load(cp);

	memset(d, 0, sizeof *d);
	d->hold = json_pack("[oo]", qs, cfg);
	design_questions(d, qs, qp);
	design_models(d, cfg, cp);
	free(qp);
	free(cp);
}

static void
design_free(struct pw_design *d)
{
	free(d->q);
	free(d->m);
	free((void *)d->site);
	json_decref(d->hold);
}

/* ---------------------------------------------------------- the threads */

/* One scenario's studies, shared by the workers. */
struct pool {
	const struct bst_power *p;
	const struct pw_design *d;
	const struct pw_assume *as;
	size_t sims;
	unsigned char *rej;	/* sims x NT verdicts */
	size_t next;
	pthread_mutex_t mu;
	struct progress *prog;
};

static size_t
take(struct pool *pl, int done)
{
	size_t k;

	pthread_mutex_lock(&pl->mu);
	if (done)
		progress_add(pl->prog, 1, NULL);
	k = pl->next++;
	pthread_mutex_unlock(&pl->mu);
	return k;
}

static void *
worker(void *arg)
{
	struct pool *pl = arg;
	struct bst_study s;
	size_t k;

	memset(&s, 0, sizeof s);
	s.opt.alpha = pl->p->alpha;
	s.opt.level = 0.95;
	s.opt.nboot = 0;	/* intervals are not counted: no bootstrap */
	s.opt.quiet = 1;
	for (k = take(pl, 0); k < pl->sims; k = take(pl, 1)) {
		pw_simulate(&s, pl->d, pl->as, pl->p->seed, k);
		bstats_analyse(&s);
		score(&s, pl->rej + k * NT, pl->p->alpha);
		bstats_free_analysis(&s);
	}
	pw_release(&s);
	return NULL;
}

static unsigned
threads_of(const struct bst_power *p)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (p->threads > 0)
		return p->threads;
	return n > 0 ? (unsigned)n : 1;
}

/* Rejections per target over the scenario's studies into count[NT]. */
static void
run_scenario(const struct bst_power *p, const struct pw_design *d,
    const struct pw_assume *as, struct progress *prog, size_t count[NT])
{
	struct pool pl = { p, d, as, p->sims, NULL, 0,
	    PTHREAD_MUTEX_INITIALIZER, prog };
	unsigned nt = threads_of(p), i;
	pthread_t *th = xcalloc(nt, sizeof *th);
	size_t k, t;

	pl.rej = xcalloc(p->sims + 1, NT);
	for (i = 0; i < nt; i++)
		if (pthread_create(&th[i], NULL, worker, &pl) != 0)
			die("cannot start a thread");
	for (i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	for (t = 0; t < NT; t++)
		for (count[t] = 0, k = 0; k < p->sims; k++)
			count[t] += pl.rej[k * NT + t];
	free(pl.rej);
	free(th);
}

/* ------------------------------------------------------------- records */

/* Clopper-Pearson interval of k successes in n at level 0.95. */
static void
interval(size_t k, size_t n, double *lo, double *hi)
{
	*lo = k == 0 ? 0 : gsl_cdf_beta_Pinv(0.025, (double)k,
	    (double)(n - k + 1));
	*hi = k == n ? 1 : gsl_cdf_beta_Pinv(0.975, (double)(k + 1),
	    (double)(n - k));
}

static json_t *
power_record(const struct bst_power *p, const char *scenario, size_t t,
    size_t k)
{
	json_t *r = json_object();
	double lo, hi;

	interval(k, p->sims, &lo, &hi);
	json_set_str(r, "test", "power");
	json_set_str(r, "scenario", scenario);
	json_set_str(r, "target", TARGETS[t].name);
	json_set_new(r, "hypothesis", json_str_or_null(TARGETS[t].hyp));
	json_set_str(r, "group", TARGETS[t].group);
	json_set_new(r, "subset", json_str_or_null(TARGETS[t].subset));
	json_set_str(r, "criterion", CRITERION[TARGETS[t].rule]);
	json_set_int(r, "sims", (long long)p->sims);
	json_set_int(r, "rejections", (long long)k);
	json_set_real(r, "power", (double)k / (double)p->sims);
	json_set_real(r, "ci_low", lo);
	json_set_real(r, "ci_high", hi);
	json_set_real(r, "ci_level", 0.95);
	json_set_real(r, "alpha", p->alpha);
	return r;
}

static json_t *
assumptions(const struct pw_assume *as)
{
	json_t *o = json_object();

	json_set_real(o, "effect_accuracy", as->effect[M_ACC]);
	json_set_real(o, "effect_hallucinations", as->effect[M_HALL]);
	json_set_real(o, "effect_tokens", as->effect[M_TOK]);
	json_set_real(o, "effect_completeness", as->effect[M_COMP]);
	json_set_real(o, "effect_citation", as->effect[M_CITE]);
	json_set_real(o, "ties", as->ties);
	json_set_real(o, "icc_site", as->icc_site);
	json_set_real(o, "icc_model", as->icc_model);
	json_set_real(o, "icc_question", as->icc_question);
	json_set_real(o, "tier_interaction", as->tier);
	json_set_real(o, "complexity_interaction", as->complexity);
	json_set_real(o, "exclusion", as->exclusion);
	json_set_real(o, "cite_na", as->cite_na);
	return o;
}

static json_t *
design_record(const struct bst_power *p, const struct pw_design *d)
{
	json_t *r = json_object(), *tiers = json_object(), *cx = json_object();
	size_t i;

	for (i = 0; i < d->nm; i++)
		json_set_int(tiers, d->m[i].tier ? d->m[i].tier : "none",
		    json_integer_value(json_object_get(tiers, d->m[i].tier ?
		    d->m[i].tier : "none")) + 1);
	for (i = 0; i < d->nq; i++)
		json_set_int(cx, d->q[i].complexity, json_integer_value(
		    json_object_get(cx, d->q[i].complexity)) + 1);
	json_set_str(r, "test", "power_design");
	json_set_int(r, "sites", (long long)d->nsites);
	json_set_int(r, "questions", (long long)d->nq);
	json_set_int(r, "models", (long long)d->nm);
	json_set_int(r, "pairs", (long long)(d->nq * d->nm));
	json_set_new(r, "tiers", tiers);
	json_set_new(r, "complexity", cx);
	json_set_new(r, "assumptions", assumptions(&p->as));
	json_set_int(r, "sims", (long long)p->sims);
	json_set_int(r, "seed", (long long)p->seed);
	json_set_real(r, "alpha", p->alpha);
	return r;
}

/* ------------------------------------------------------------------ MDE */

/* H1's power at accuracy effect delta (the other assumptions as given). */
static double
h1_power(const struct bst_power *p, const struct pw_design *d, double delta,
    struct progress *prog)
{
	struct pw_assume as = p->as;
	size_t count[NT];

	as.effect[M_ACC] = delta;
	run_scenario(p, d, &as, prog, count);
	return (double)count[T_H1] / (double)p->sims;
}

/* The smallest Cliff's δ of accuracy at which H1 reaches the target power,
 * bracketed by bisection. */
static json_t *
mde_record(const struct bst_power *p, const struct pw_design *d,
    struct progress *prog)
{
	json_t *r = json_object();
	double lo = 0, hi = 0.5, phi = h1_power(p, d, hi, prog), pm;
	int i;

	json_set_str(r, "test", "power_mde");
	json_set_str(r, "hypothesis", "H1");
	json_set_str(r, "measure", "cliffs_delta");
	json_set_real(r, "target_power", p->target);
	json_set_int(r, "sims", (long long)p->sims);
	for (i = 0; i < p->mde_steps && phi >= p->target; i++) {
		double mid = (lo + hi) / 2;

		if ((pm = h1_power(p, d, mid, prog)) >= p->target) {
			hi = mid;
			phi = pm;
		} else {
			lo = mid;
		}
	}
	if (phi < p->target) {
		json_set_null(r, "mde");
		json_set_str(r, "reason", "the target power is not reached at "
		    "Cliff's δ = 0.5");
		return r;
	}
	json_set_real(r, "mde", hi);
	json_set_real(r, "bracket_low", lo);
	json_set_real(r, "power_at_mde", phi);
	return r;
}

/* -------------------------------------------------------------- driver */

json_t *
bstats_power(const struct bst_power *p)
{
	struct pw_design d;
	struct pw_assume indep = p->as;
	struct progress prog;
	size_t count[NT], t;
	json_t *res = json_array();

	design_load(&d, p->design);
	indep.icc_site = indep.icc_model = indep.icc_question = 0;
	progress_start(&prog, "bstats --power", (unsigned long long)p->sims *
	    (unsigned long long)(2 + (p->mde_steps > 0 ? p->mde_steps + 1 : 0)));
	prog.unit = "study";
	if (p->quiet)
		prog.active = 0;
	json_array_append_new(res, design_record(p, &d));
	run_scenario(p, &d, &p->as, &prog, count);
	for (t = 0; t < NT; t++)
		json_array_append_new(res, power_record(p, "assumed", t, count[t]));
	run_scenario(p, &d, &indep, &prog, count);
	json_array_append_new(res, power_record(p, "independent", T_H1,
	    count[T_H1]));
	json_array_append_new(res, power_record(p, "independent", T_H1_SITE,
	    count[T_H1_SITE]));
	if (p->mde_steps > 0)
		json_array_append_new(res, mde_record(p, &d, &prog));
	progress_end(&prog);
	design_free(&d);
	return res;
}
