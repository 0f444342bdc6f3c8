#!/usr/bin/python3
"""bench-ref.py - the reference side of tests/bench/bstats.sh: the same
analysis as bstats (001 §6, 000 §8) in Python with scipy, statsmodels and
scikit-learn, as the plan's notebook would run it: pairing, the primary and
secondary tests, Cliff's delta with a 10,000-resample percentile bootstrap
(numpy, seed 42), BH per family, clustering, subgroups with Kruskal-Wallis
and Mann-Whitney U, per-sector effect sizes, correlations, kappa.
Usage: bench-ref.py SCORED.ndjson  (prints the number of results)
"""
import json
import sys
from collections import defaultdict

import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

rng = np.random.default_rng(42)
prim, sec = {}, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = (r["site_id"], r["question_id"], r["model_id"], r["condition"])
    if r.get("primary", True):
        prim[key] = r
    else:
        sec.append(r)
pairs = []
for (s, q, m, c), a in prim.items():
    if c != "A":
        continue
    b = prim.get((s, q, m, "B"))
    if b and not a.get("exclusion_reason") and not b.get("exclusion_reason"):
        pairs.append((a, b))
results = []


def cliff_boot(x, y):
    s = np.sign(np.asarray(x, float) - np.asarray(y, float))
    n = len(s)
    if n == 0:
        return None
    boots = []
    for _ in range(10):            # 10 x 1,000 resamples
        idx = rng.integers(0, n, (1000, n))
        boots.append(s[idx].mean(axis=1))
    boots = np.concatenate(boots)
    return s.mean(), np.percentile(boots, [2.5, 97.5])


def metric(ps, name, fam):
    a = np.array([p[0][name] for p in ps], float)
    b = np.array([p[1][name] for p in ps], float)
    if name == "input_token_count":
        d = a - b
        sw = stats.shapiro(d)
        if sw.pvalue >= 0.05:
            res = stats.ttest_rel(a, b, alternative="greater")
            eff = d.mean() / d.std(ddof=1)
        else:
            res = stats.wilcoxon(d, alternative="greater")
            eff = cliff_boot(a, b)
    elif name == "completeness":
        bb = int(((a == 0) & (b == 1)).sum())
        cc = int(((a == 1) & (b == 0)).sum())
        res = mcnemar([[0, cc], [bb, 0]], exact=True)
        eff = bb / cc if cc else None
    else:
        d = b - a
        alt = "greater" if name == "factual_accuracy" else "less"
        res = stats.wilcoxon(d, alternative=alt) if np.any(d) else None
        eff = cliff_boot(b, a)
    results.append((fam, res.pvalue if res is not None else None, eff))


for n, fam in (("factual_accuracy", "primary"), ("hallucination_count", "primary"),
               ("input_token_count", "primary"), ("completeness", "secondary")):
    metric(pairs, n, fam)
cp = [p for p in pairs if p[0]["citation_fidelity"] is not None and p[1]["citation_fidelity"] is not None]
d = np.array([p[1]["citation_fidelity"] - p[0]["citation_fidelity"] for p in cp], float)
results.append(("secondary", stats.wilcoxon(d).pvalue,
                cliff_boot([p[1]["citation_fidelity"] for p in cp], [p[0]["citation_fidelity"] for p in cp])))
for field in ("tier", "complexity"):
    groups = defaultdict(list)
    for p in pairs:
        groups[p[1][field]].append(p)
    for g, ps in groups.items():
        for n in ("factual_accuracy", "hallucination_count", "input_token_count"):
            metric(ps, n, field)
    deltas = [np.array([p[1]["factual_accuracy"] - p[0]["factual_accuracy"] for p in ps]) for ps in groups.values()]
    results.append((field, stats.kruskal(*deltas).pvalue, None))
    for i in range(len(deltas)):
        for j in range(i + 1, len(deltas)):
            results.append((field + "_followup", stats.mannwhitneyu(deltas[i], deltas[j]).pvalue, None))
sectors = defaultdict(list)
for p in pairs:
    sectors[p[1].get("sector")].append(p)
for ps in sectors.values():
    results.append((None, None, cliff_boot([p[1]["factual_accuracy"] for p in ps], [p[0]["factual_accuracy"] for p in ps])))
sm = defaultdict(list)
for a, b in pairs:
    sm[(a["site_id"], a["model_id"])].append(b["factual_accuracy"] - a["factual_accuracy"])
results.append((None, stats.wilcoxon([np.mean(v) for v in sm.values()], alternative="greater").pvalue, None))
dt = [a["input_token_count"] - b["input_token_count"] for a, b in pairs]
da = [b["factual_accuracy"] - a["factual_accuracy"] for a, b in pairs]
results.append((None, stats.spearmanr(dt, da).pvalue, None))
x, y = [], []
for r in sec:
    p = prim.get((r["site_id"], r["question_id"], r["model_id"], r["condition"]))
    if p and not p.get("exclusion_reason"):
        x.append(p["factual_accuracy"])
        y.append(r["factual_accuracy"])
for w in ("linear", "quadratic", None):
    results.append((None, None, cohen_kappa_score(x, y, labels=[0, 1, 2, 3], weights=w)))
for fam in ("primary", "tier", "complexity", "secondary"):
    ps = [r[1] for r in results if r[0] == fam and r[1] is not None]
    multipletests(ps, method="fdr_bh")
print(len(results))
