#!/usr/bin/env python3
"""gen-study.py - a synthetic scored study for bstats' tests and benchmark.

Usage: gen-study.py MODELS QUESTIONS [SEED [parity]]
Writes scored records (the bscore-merge contract of notes/records.md) on
stdout: every (site, question, model, condition), a few exclusions, and a
10 % subset rated again by a second rater, a self-check and an LLM judge.
With "parity", every record also carries bctx's A<->B parity fields
(parity_b_in_a, parity_a_in_b, parity_code_b_in_a, parity_code_a_in_b,
pair_drift) and gold_coverage, drawn from a generator of their own so the
other fields stay the same.  Standard library only.
"""
import json
import random
import sys

models = int(sys.argv[1])
questions = int(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
parity = len(sys.argv) > 4 and sys.argv[4] == "parity"
tiers = ["small", "medium", "large"]
cx = ["single-fact", "multi-section-synthesis", "conceptual-relationship"]
sectors = ["Developer Tools & APIs", "Cloud Infrastructure", "SaaS", "Education"]
out = sys.stdout
for q in range(questions):
    site = "S%03d" % (q // 8 + 1)
    qid = "%s-Q%02d" % (site, q % 8 + 1)
    comp = cx[q % 3]
    sector = sectors[(q // 8) % 4]
    base_tok = rng.randint(800, 6000)
    prng = random.Random(1000 + q)
    par = {}
    if parity:
        bia, aib = prng.uniform(0.55, 1.0), prng.uniform(0.55, 1.0)
        code = prng.random() < 0.5
        par = {"parity_b_in_a": round(bia, 4), "parity_a_in_b": round(aib, 4),
               "parity_code_b_in_a": round(prng.uniform(0.5, 1), 4) if code else None,
               "parity_code_a_in_b": round(prng.uniform(0.5, 1), 4) if code else None,
               "pair_drift": bia < 0.7 or aib < 0.7}
    for m in range(models):
        tier = tiers[m % 3]
        mid = "model-%02d" % m
        skill = 1.2 + 0.3 * (m % 3)
        for cond in "AB":
            rec = {"site_id": site, "question_id": qid, "model_id": mid,
                   "condition": cond, "complexity": comp, "tier": tier,
                   "sector": sector, "rater_id": "r1", "rater_kind": "human",
                   "primary": True, "exclusion_reason": None,
                   "response_id": "R%d-%d-%s" % (q, m, cond)}
            if site == "S003" and cond == "A":
                rec["exclusion_reason"] = "JS_ONLY"
            elif rng.random() < 0.01:
                rec["exclusion_reason"] = "HTTP_404"
            bonus = 0.35 if cond == "B" else 0.0
            fa = max(0, min(3, round(rng.gauss(skill + bonus, 0.9))))
            hc = max(0, round(rng.gauss(1.0 - bonus, 1.0)))
            tok = base_tok if cond == "A" else int(base_tok * rng.uniform(0.3, 0.8))
            rec.update({
                "factual_accuracy": fa, "hallucination_count": hc,
                "hallucinations": [{"category": rng.choice(
                    ["H-FAB", "H-SRC", "H-EXT", "H-TMP"])} for _ in range(hc)],
                "completeness": int(rng.random() < 0.55 + bonus / 2),
                "citation_fidelity": rng.choice([None, 0, 1, 2, 2]),
                "input_token_count": tok + m * 7,
                "ref_token_count": tok,
                "last_modified": "Mon, %02d Feb 2026 10:00:00 GMT" % rng.randint(1, 28),
            })
            if parity:
                rec.update(par)
                rec["gold_coverage"] = round(prng.uniform(0.4, 1.0), 4)
            out.write(json.dumps(rec) + "\n")
            if rec["exclusion_reason"] is None and rng.random() < 0.1:
                for rid, kind in (("r2", "human"), ("r1", "human"), ("judge", "llm_judge")):
                    sec = dict(rec, rater_id=rid, rater_kind=kind, primary=False)
                    sec["factual_accuracy"] = max(0, min(3, fa + rng.choice([0, 0, 0, 1, -1])))
                    sec["completeness"] = rec["completeness"] if rng.random() < 0.85 else 1 - rec["completeness"]
                    sec["hallucination_count"] = max(0, hc + rng.choice([0, 0, 1, -1]))
                    out.write(json.dumps(sec) + "\n")
