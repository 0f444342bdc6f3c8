#!/usr/bin/python3
"""variants-ref.py - the reference side of tests/bstats/variants.t: each
exploratory comparison X:Y of bstats' results recomputed with scipy and
statsmodels from the scored records: pairs on (site, question, model), both
ratings usable; Wilcoxon signed-rank two-sided (factual accuracy,
hallucinations, citation fidelity where it applies in both), Shapiro-Wilk
then the two-sided paired t-test or the Wilcoxon fallback (tokens),
McNemar's exact test (completeness); Cliff's delta as the mean sign of the
Δ oriented X better; Benjamini-Hochberg within the comparison's family.

Usage: variants-ref.py SCORED.ndjson RESULTS.ndjson
Prints one line per check: "PASS what" or "FAIL what: bstats V, scipy W".
"""
import json
import sys

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

LOWER = {"hallucination_count", "input_token_count"}


def load(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def pairs(recs, x, y):
    by = {}
    for r in recs:
        if r.get("primary", True) and r["condition"] in (x, y):
            by[(r["site_id"], r["question_id"], r["model_id"],
                r["condition"])] = r
    out = []
    for (s, q, m, c), rx in sorted(by.items()):
        ry = by.get((s, q, m, y))
        if c == x and ry and not rx.get("exclusion_reason") and \
                not ry.get("exclusion_reason"):
            out.append((rx, ry))
    return out


def oriented(ps, metric):
    if metric == "citation_fidelity":
        ps = [p for p in ps if p[0][metric] is not None and
              p[1][metric] is not None]
    x = np.array([p[0][metric] for p in ps], float)
    y = np.array([p[1][metric] for p in ps], float)
    return (y - x if metric in LOWER else x - y), x, y


def signrank(d):
    """Two-sided Wilcoxon p as scipy >= 1.15 gives it (bstats(1)): zeros
    dropped; n <= 50 (zeros included) the exact conditional distribution of
    R+ over the observed midranks, counted here by dynamic programming over
    twice the ranks; above, scipy's normal approximation."""
    if len(d) > 50:
        return stats.wilcoxon(d, correction=False, method="approx").pvalue
    nz = d[d != 0]
    w = np.rint(2 * stats.rankdata(np.abs(nz))).astype(int)
    r = int(w[nz > 0].sum())
    dist = np.zeros(int(w.sum()) + 1)
    dist[0] = 1.0
    for k in w:
        dist[k:] = dist[k:] + dist[:len(dist) - k].copy()
    dist /= dist.sum()
    return min(1.0, 2 * min(dist[:r + 1].sum(), dist[r:].sum()))


def test(ps, metric):
    """(p or None, Cliff's delta or None) of one metric."""
    d, x, y = oriented(ps, metric)
    if metric == "completeness":
        b = int(((y == 0) & (x == 1)).sum())
        c = int(((y == 1) & (x == 0)).sum())
        return mcnemar([[0, c], [b, 0]], exact=True).pvalue, None
    cliff = float(np.sign(d).mean()) if len(d) else None
    if not np.any(d):
        return None, cliff
    if metric == "input_token_count" and len(set(d)) > 1 and \
            stats.shapiro(d).pvalue >= 0.05:
        return stats.ttest_rel(y, x).pvalue, None
    return signrank(d), cliff


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(
        1e-300, abs(b)) + 1e-15


def check(what, got, want):
    ok = (got is None and want is None) or close(got, want)
    print(("PASS %s" if ok else "FAIL %s: bstats %r, scipy %r") %
          ((what,) if ok else (what, got, want)))


def comparison(recs, res, cmp):
    x, y = cmp["x"], cmp["y"]
    ps = pairs(recs, x, y)
    check("%s: pairs" % cmp["comparison"], cmp["pairs"], len(ps))
    rows = [r for r in res if r.get("comparison") == cmp["comparison"] and
            r["test"] not in ("comparison", "mcnemar_chi2")]
    fam_p, fam_r = [], []
    for r in rows:
        p, cliff = test(ps, r["metric"])
        what = "%s %s" % (cmp["comparison"], r["metric"])
        check(what + ": p", r["p"], p)
        e = r.get("effect") or {}
        if e.get("measure") == "cliffs_delta" and cliff is not None:
            check(what + ": Cliff's delta", e.get("value"), cliff)
        if p is not None:
            fam_p.append(p)
            fam_r.append(r)
    if fam_p:
        adj = multipletests(fam_p, method="fdr_bh")[1]
        for r, a in zip(fam_r, adj):
            check("%s %s: BH within %s (%d tests)" % (
                cmp["comparison"], r["metric"], r["family"], len(fam_p)),
                r["p_adjusted"], float(a))
            check("%s %s: family size" % (cmp["comparison"], r["metric"]),
                  r["family_size"], len(fam_p))


def main():
    recs, res = load(sys.argv[1]), load(sys.argv[2])
    for cmp in res:
        if cmp["test"] == "comparison" and cmp["run"]:
            comparison(recs, res, cmp)


main()
