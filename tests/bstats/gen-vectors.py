#!/usr/bin/python3
"""gen-vectors.py - reference vectors for bstats' statistics.

Run with Debian's Python, which has scipy, statsmodels and scikit-learn:
    /usr/bin/python3 tests/bstats/gen-vectors.py > tests/bstats/vectors.ndjson

Each output line is one case: the function ("fn"), its inputs, and what the
reference library returned ("statistic", "p"; null when the reference gives
NaN, i.e. bstats must report the case as not computable).  The data are drawn
from a fixed numpy seed, so the file is reproducible.  unit-vectors.c reads
the file and compares bstats with it (relative error <= 1e-9; Shapiro-Wilk,
which scipy computes in single precision, with the tolerance in stats.h).
"""
import json
import math
import sys
import warnings

import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

warnings.simplefilter("ignore")
rng = np.random.default_rng(20260226)
out = []


def num(v):
    v = float(v)
    return None if math.isnan(v) else v


def lst(a):
    return [float(v) if float(v) != int(v) else int(v) for v in a]


def emit(rec):
    out.append(rec)


# ------------------------------------------------------------ wilcoxon
def rplus_stat(d):
    """R+ over the sign flips of d: the ranks of |d| never change."""
    nzm = d != 0
    r = np.zeros(len(d))
    r[nzm] = stats.rankdata(np.abs(d[nzm]))

    def stat(x, axis=-1):
        return np.sum(np.where(np.moveaxis(x, axis, -1) > 0, r, 0.0), axis=-1)
    return stat


def wilcoxon_case(d, alt, correction=False, method="auto", note=""):
    """scipy >= 1.15 semantics: exact when n <= 50; with ties or zeros the
    exact conditional distribution, which Debian 12's scipy 1.10 gives
    through permutation_test(n_resamples=inf) (every sign flip)."""
    d = np.asarray(d, dtype=float)
    nz = d[d != 0]
    ties = len(np.unique(np.abs(nz))) != len(nz) or len(nz) != len(d)
    if method == "auto":
        m = "exact" if len(d) <= 50 else "approx"
    else:
        m = method
    if m == "exact" and ties:
        if len(nz) == 0 or len(nz) > 16:
            return      # enumeration too large for the reference
        stat = rplus_stat(d)
        res = stats.permutation_test((d,), stat, permutation_type="samples",
                                     vectorized=True, n_resamples=np.inf,
                                     alternative=alt)
        rp = float(stat(d[None, :])[0])
        rm = float(stats.rankdata(np.abs(nz)).sum()) - rp
        st = min(rp, rm) if alt == "two-sided" else rp
        emit({"fn": "wilcoxon", "note": note, "x": lst(d), "alt": alt,
              "correction": int(correction), "method": method,
              "scipy_method": "permutation_test(n_resamples=inf)",
              "statistic": st, "p": min(1.0, float(res.pvalue))})
        return
    try:
        res = stats.wilcoxon(d, zero_method="wilcox", correction=correction,
                             alternative=alt, method=m)
        st, p = num(res.statistic), num(res.pvalue)
    except ValueError:
        st, p = None, None
    emit({"fn": "wilcoxon", "note": note, "x": lst(d), "alt": alt,
          "correction": int(correction), "method": method, "scipy_method": m,
          "statistic": st, "p": p})


for n in (1, 2, 3, 5, 8, 12, 20, 35, 50):
    d = rng.permutation(np.arange(1, n + 1)) * rng.choice([-1, 1], n)
    for alt in ("two-sided", "greater", "less"):
        wilcoxon_case(d, alt, note="exact, no ties, n=%d" % n)
d = np.array([1, -2, 3, 4, 5, -6, 7, 8, 9, 10], dtype=float)
wilcoxon_case(d, "two-sided", method="exact", note="exact forced")
for n in (10, 51, 120, 286, 1000, 2860):
    d = rng.integers(-3, 4, n).astype(float)      # ordinal deltas: ties, zeros
    for alt in ("two-sided", "greater", "less"):
        wilcoxon_case(d, alt, note="approx, ties and zeros, n=%d" % n)
    wilcoxon_case(d, "greater", correction=True, note="continuity, n=%d" % n)
    wilcoxon_case(d, "two-sided", correction=True, note="continuity, n=%d" % n)
for n in (60, 500, 3000):
    d = np.round(rng.normal(0.3, 1.0, n), 3)
    for alt in ("two-sided", "greater", "less"):
        wilcoxon_case(d, alt, note="approx continuous n=%d" % n)
d = np.round(rng.normal(5, 1.0, 2000), 2)
wilcoxon_case(d, "greater", note="far tail")
wilcoxon_case(d, "less", note="far tail, p near 1")
wilcoxon_case(-d, "two-sided", note="far tail two-sided")
wilcoxon_case([0, 0, 0], "greater", note="all zero: undefined")
wilcoxon_case([0, 0, 1, -1, 2, 0, 3, 1, -2, 4, 1, 1], "greater", note="small approx")
wilcoxon_case([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "greater", method="approx",
              note="approx forced")
for n in (4, 7, 11, 14, 16):
    d = rng.integers(-3, 4, n).astype(float)      # ties and zeros, n <= 50
    for alt in ("two-sided", "greater", "less"):
        wilcoxon_case(d, alt, note="exact conditional, ties and zeros, n=%d" % n)
d = np.array([0.5, 0.5, -1.5, 2, 2, 2, -3, 4.25, 0, 4.25, -0.5, 7], dtype=float)
for alt in ("two-sided", "greater", "less"):
    wilcoxon_case(d, alt, note="exact conditional, fractional values")
wilcoxon_case([1, 1, 1, 1], "greater", note="exact conditional, all tied")
wilcoxon_case([0, 0, 2, -2, 3, 3, -3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
               1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
               1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "greater",
              note="n = 60 with ties: approx")

# ------------------------------------------------------------ ttest_rel
for n in (2, 3, 10, 31, 286, 2860):
    a = rng.normal(1000, 300, n).round(0)
    b = (a - rng.normal(200, 150, n)).round(0)
    for alt in ("two-sided", "greater", "less"):
        res = stats.ttest_rel(a, b, alternative=alt)
        emit({"fn": "ttest_rel", "x": lst(a - b), "alt": alt,
              "statistic": num(res.statistic), "p": num(res.pvalue)})
res = stats.ttest_rel(np.full(10, 3.5), np.ones(10))
emit({"fn": "ttest_rel", "x": [2.5] * 10, "alt": "two-sided",
      "statistic": None, "p": None, "note": "constant differences: undefined"})
for n, df in ((40, 39), (100, 99), (500, 499)):
    d = rng.normal(0.02, 1, n).round(3)
    res = stats.ttest_rel(d, np.zeros(n), alternative="greater")
    emit({"fn": "ttest_rel", "x": lst(d), "alt": "greater",
          "statistic": num(res.statistic), "p": num(res.pvalue),
          "note": "df > 30, where GSL's t cdf approximates"})

# ------------------------------------------------------------ shapiro
for n in (3, 4, 5, 7, 11, 12, 25, 100, 286, 1000, 2860):
    x = rng.normal(0, 1, n).round(4)
    res = stats.shapiro(x)
    emit({"fn": "shapiro", "x": lst(x), "statistic": num(res.statistic),
          "p": num(res.pvalue)})
    x = rng.exponential(1, n).round(4)
    res = stats.shapiro(x)
    emit({"fn": "shapiro", "x": lst(x), "statistic": num(res.statistic),
          "p": num(res.pvalue)})
x = rng.integers(-2000, 500, 286).astype(float)
res = stats.shapiro(x)
emit({"fn": "shapiro", "x": lst(x), "statistic": num(res.statistic),
      "p": num(res.pvalue), "note": "token deltas"})
res = stats.shapiro([1, 1, 1, 1])
emit({"fn": "shapiro", "x": [1, 1, 1, 1], "statistic": num(res.statistic),
      "p": num(res.pvalue), "note": "range zero: scipy gives W = 1, p = 1"})

# ------------------------------------------------------------ mcnemar
for b, c in ((0, 1), (1, 1), (3, 9), (10, 2), (25, 40), (120, 80), (700, 655),
             (1, 1200), (0, 30)):
    for exact in (True, False):
        for corr in ((True, False) if not exact else (True,)):
            res = mcnemar([[0, c], [b, 0]], exact=exact, correction=corr)
            emit({"fn": "mcnemar", "b": b, "c": c, "exact": int(exact),
                  "correction": int(corr), "statistic": num(res.statistic),
                  "p": num(res.pvalue)})
res = mcnemar([[5, 0], [0, 3]], exact=True)
emit({"fn": "mcnemar", "b": 0, "c": 0, "exact": 1, "correction": 1,
      "statistic": num(res.statistic), "p": num(res.pvalue),
      "note": "no discordant pairs: statistic 0, p = 1"})
res = mcnemar([[5, 0], [0, 3]], exact=False, correction=True)
emit({"fn": "mcnemar", "b": 0, "c": 0, "exact": 0, "correction": 1,
      "statistic": None, "p": None, "reference": "statistic %r, p %r" % (float(res.statistic), float(res.pvalue)),
      "note": "no discordant pairs, chi-square: statsmodels divides by zero (inf, p = 0); not computable"})

# ------------------------------------------------------------ odds ratio
z = stats.norm.ppf(0.975)
for b, c in ((3, 9), (25, 40), (120, 80), (1, 1200)):
    lo = math.exp(math.log(b / c) - z * math.sqrt(1 / b + 1 / c))
    hi = math.exp(math.log(b / c) + z * math.sqrt(1 / b + 1 / c))
    emit({"fn": "paired_or", "b": b, "c": c, "statistic": b / c, "lo": lo,
          "hi": hi})

# ------------------------------------------------------------ cohen d
for n in (5, 286):
    d = rng.normal(300, 500, n).round(0)
    es = d.mean() / d.std(ddof=1)
    se = math.sqrt(1 / n + es * es / (2 * n))
    emit({"fn": "cohen_d", "x": lst(d), "statistic": es, "lo": es - z * se,
          "hi": es + z * se})

# ------------------------------------------------------------ BH
for m in (1, 3, 10, 25):
    p = rng.uniform(0, 0.2, m) ** 2
    if m >= 10:
        p[3] = p[4]          # a tie
    adj = multipletests(p, method="fdr_bh")[1]
    emit({"fn": "bh", "p_in": [float(v) for v in p], "adj": [float(v) for v in adj]})

# ------------------------------------------------------------ kruskal
for sizes in ((3, 4), (5, 5, 5), (100, 120, 80), (953, 953, 954)):
    gs = [rng.integers(-3, 4, s).astype(float) for s in sizes]
    res = stats.kruskal(*gs)
    emit({"fn": "kruskal", "groups": [lst(g) for g in gs],
          "statistic": num(res.statistic), "p": num(res.pvalue)})
gs = [rng.normal(0, 1, 50).round(3), rng.normal(0.8, 1, 60).round(3)]
res = stats.kruskal(*gs)
emit({"fn": "kruskal", "groups": [lst(g) for g in gs],
      "statistic": num(res.statistic), "p": num(res.pvalue)})
emit({"fn": "kruskal", "groups": [[1, 1], [1, 1, 1]], "statistic": None,
      "p": None, "note": "all identical"})

# ------------------------------------------------------------ mannwhitneyu
def mwu_case(x, y, alt, cont=True, method="auto", note=""):
    res = stats.mannwhitneyu(x, y, use_continuity=cont, alternative=alt,
                             method=method)
    emit({"fn": "mannwhitneyu", "x": lst(x), "y": lst(y), "alt": alt,
          "continuity": int(cont), "method": method, "note": note,
          "statistic": num(res.statistic), "p": num(res.pvalue)})


for nx, ny in ((1, 1), (3, 5), (8, 8), (8, 40), (5, 200)):
    v = rng.permutation(nx + ny).astype(float) + rng.uniform(0, 0.5)
    x, y = v[:nx], v[nx:]
    for alt in ("two-sided", "greater", "less"):
        mwu_case(x, y, alt, note="exact %dx%d" % (nx, ny))
for nx, ny in ((9, 9), (50, 70), (953, 954)):
    x = rng.integers(-3, 4, nx).astype(float)
    y = rng.integers(-2, 4, ny).astype(float)
    for alt in ("two-sided", "greater", "less"):
        mwu_case(x, y, alt, note="asymptotic ties")
    mwu_case(x, y, "two-sided", cont=False, note="no continuity")
x = rng.normal(0, 1, 30).round(3)
y = rng.normal(3, 1, 3000).round(3)
mwu_case(x, y, "less", note="far tail")
mwu_case(x[:6], y[:60], "two-sided", method="asymptotic", note="asymptotic forced")
for alt in ("two-sided", "greater", "less"):
    mwu_case([1, 1, 1], [1, 1, 1, 1], alt, note="every value tied: p = 1")
    mwu_case([0.5] * 20, [0.5] * 30, alt, note="every value tied, larger")

# ------------------------------------------------------------ spearman
for n in (3, 4, 10, 100, 2860):
    x = rng.integers(-2000, 3000, n).astype(float)
    y = rng.integers(-3, 4, n).astype(float) + (x > 500)
    for alt in ("two-sided", "greater", "less"):
        res = stats.spearmanr(x, y, alternative=alt)
        emit({"fn": "spearman", "x": lst(x), "y": lst(y), "alt": alt,
              "statistic": num(res.statistic), "p": num(res.pvalue)})
x = np.arange(20, dtype=float)
res = stats.spearmanr(x, x * 2)
emit({"fn": "spearman", "x": lst(x), "y": lst(x * 2), "alt": "two-sided",
      "statistic": num(res.statistic), "p": num(res.pvalue), "note": "perfect"})
emit({"fn": "spearman", "x": [1, 2, 3, 4], "y": [2, 2, 2, 2], "alt": "two-sided",
      "statistic": None, "p": None, "note": "constant: undefined"})

# ------------------------------------------------------------ kappa
for n in (10, 50, 300):
    a = rng.integers(0, 4, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, 3)
    for w in (None, "linear", "quadratic"):
        for labels in (None, [0, 1, 2, 3]):
            k = cohen_kappa_score(a, b, labels=labels, weights=w)
            emit({"fn": "kappa", "x": lst(a), "y": lst(b), "weights": w or "none",
                  "labels": labels, "statistic": num(k)})
a = np.array([0, 2, 2, 3, 3, 0, 2])
b = np.array([0, 2, 3, 3, 2, 0, 2])
for w in (None, "linear", "quadratic"):
    for labels in (None, [0, 1, 2, 3]):
        k = cohen_kappa_score(a, b, labels=labels, weights=w)
        emit({"fn": "kappa", "x": lst(a), "y": lst(b), "weights": w or "none",
              "labels": labels, "statistic": num(k),
              "note": "unobserved scale point: labels change the weights"})
a = rng.integers(0, 2, 200)
b = np.where(rng.uniform(size=200) < 0.8, a, 1 - a)
emit({"fn": "kappa", "x": lst(a), "y": lst(b), "weights": "none", "labels": None,
      "statistic": num(cohen_kappa_score(a, b))})
emit({"fn": "kappa", "x": [1, 1, 1], "y": [1, 1, 1], "weights": "none",
      "labels": None, "statistic": num(cohen_kappa_score([1, 1, 1], [1, 1, 1])),
      "note": "both raters constant: undefined"})
for w in (None, "linear", "quadratic"):
    for labels in (None, [0, 1, 2, 3]):
        k = cohen_kappa_score([2, 2, 2, 2, 2], [1, 2, 3, 2, 0], labels=labels, weights=w)
        emit({"fn": "kappa", "x": [2, 2, 2, 2, 2], "y": [1, 2, 3, 2, 0],
              "weights": w or "none", "labels": labels, "statistic": num(k),
              "note": "one constant rater: sklearn gives 0"})

for rec in out:
    sys.stdout.write(json.dumps(rec, separators=(",", ":")) + "\n")
