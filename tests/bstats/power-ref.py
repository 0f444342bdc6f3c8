#!/usr/bin/python3
"""power-ref.py - what bstats --power is checked against (tests/bstats/power.t).

  power-ref.py design DIR SITES QUESTIONS_PER_SITE MODELS
      a small corpus: DIR/questions.json (complexity levels in turn) and
      DIR/benchmark-config.json (tiers small, medium, large in turn)
  power-ref.py closed N DELTA TIES D ALPHA
      two closed forms over N independent pairs: the exact power of the
      two-sided exact McNemar test (H6) when completeness follows
      bstats(1)'s model at Cliff's delta DELTA with TIES, and the power of
      the one-sided paired t-test (H3) at Cohen's d D (non-central t)
  power-ref.py brute DIR SIMS SEED EFFECT ICC_SITE ICC_MODEL ICC_QUESTION
      a brute-force simulation of the same model written apart from
      bstats: H1-H3 with scipy and statsmodels as spec 001 §6.2 and §6.4
      state them, ties 0.5, no exclusions; prints H1's power

Needs numpy, scipy and statsmodels (Debian's python3-* packages).
"""
import json
import os
import sys

import numpy as np
from scipy import stats
from scipy.special import gammaln
from statsmodels.stats.multitest import multipletests

TIERS = ["small", "medium", "large"]
LEVELS = ["single-fact", "multi-section-synthesis", "conceptual-relationship"]


def design(d, nsites, nq, nm):
    sites = []
    for s in range(nsites):
        sid = "S%03d" % (s + 1)
        qs = [{"question_id": "%s-Q%02d" % (sid, q + 1), "text": "Question?",
               "complexity": LEVELS[(s * nq + q) % 3],
               "source_sections": ["Intro"],
               "source_urls": ["https://s%d.example/docs/" % s]}
              for q in range(nq)]
        sites.append({"site_id": sid, "domain": "s%d.example" % s,
                      "questions": qs})
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "questions.json"), "w") as f:
        json.dump(sites, f, indent=1)
    models = [{"model_id": "m%02d" % m, "family": "llama",
               "tier": TIERS[m % 3]} for m in range(nm)]
    with open(os.path.join(d, "benchmark-config.json"), "w") as f:
        json.dump({"models": models}, f, indent=1)


def theta_of(delta, c):
    """The latent shift whose Cliff's delta is delta (bisection)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if stats.norm.cdf(mid - c) - stats.norm.cdf(-mid - c) < delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mcnemar(n, delta, ties, alpha):
    c = stats.norm.ppf((1 + ties) / 2)
    th = theta_of(delta, c)
    pp, pm = stats.norm.sf(c - th), stats.norm.cdf(-c - th)
    b, cc = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    fit = b + cc <= n
    b, cc = b[fit], cc[fit]
    rest = n - b - cc
    pr = np.exp(gammaln(n + 1) - gammaln(b + 1) - gammaln(cc + 1) -
                gammaln(rest + 1) + b * np.log(pp) + cc * np.log(pm) +
                rest * np.log1p(-pp - pm))
    p = np.where(b + cc == 0, 1.0, np.minimum(1.0, 2 * stats.binom.cdf(
        np.minimum(b, cc), np.maximum(b + cc, 1), 0.5)))
    return float(pr[p <= alpha].sum())


def ttest(n, d, alpha):
    t = stats.t.ppf(1 - alpha, n - 1)
    return float(stats.nct.sf(t, n - 1, d * np.sqrt(n)))


def ordinal(z, c, rng_max):
    k = np.minimum(rng_max, 1 + np.floor((np.abs(z) - c) / 0.5))
    return np.where(np.abs(z) <= c, 0, np.sign(z) * k)


def signrank_p(d):
    d = d[d != 0]
    if len(d) == 0:
        return None
    return stats.wilcoxon(d, zero_method="wilcox", alternative="greater",
                          method="approx").pvalue


def brute(d, sims, seed, effect, icc_s, icc_m, icc_q):
    qs = json.load(open(os.path.join(d, "questions.json")))
    models = json.load(open(os.path.join(d, "benchmark-config.json")))["models"]
    site_of = [s for s, site in enumerate(qs) for _ in site["questions"]]
    nq, nm, ns = len(site_of), len(models), len(qs)
    site_of = np.repeat(np.array(site_of), nm)
    model_of = np.tile(np.arange(nm), nq)
    q_of = np.repeat(np.arange(nq), nm)
    c = stats.norm.ppf(0.75)
    sd_e = np.sqrt(1 - icc_s - icc_m - icc_q)
    rng = np.random.default_rng(seed)
    thetas = (theta_of(effect, c), theta_of(0.1, c), 0.5)
    hits = 0
    for _ in range(sims):
        z = []
        for th in thetas:
            us = rng.normal(0, np.sqrt(icc_s), ns)
            um = rng.normal(0, np.sqrt(icc_m), nm)
            uq = rng.normal(0, np.sqrt(icc_q), nq)
            z.append(th + us[site_of] + um[model_of] + uq[q_of] +
                     rng.normal(0, sd_e, nq * nm))
        p = [signrank_p(ordinal(z[0], c, 3)), signrank_p(ordinal(z[1], c, 3))]
        dt = np.round(500 * z[2])
        sw = stats.shapiro(dt).pvalue
        p.append(stats.ttest_1samp(dt, 0, alternative="greater").pvalue
                 if sw >= 0.05 else signrank_p(dt))
        ok = [x for x in p if x is not None]
        adj = multipletests(ok, method="fdr_bh")[1]
        hits += p[0] is not None and adj[0] <= 0.05
    print("%.6f" % (hits / sims))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "design":
        design(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif a[0] == "closed":
        print("%.6f %.6f" % (mcnemar(int(a[1]), float(a[2]), float(a[3]),
                                     float(a[5])),
                             ttest(int(a[1]), float(a[4]), float(a[5]))))
    elif a[0] == "brute":
        brute(a[1], int(a[2]), int(a[3]), float(a[4]), float(a[5]),
              float(a[6]), float(a[7]))
    else:
        sys.exit("power-ref.py: unknown command " + a[0])
