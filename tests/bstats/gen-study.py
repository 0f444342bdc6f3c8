#!/usr/bin/env python3
"""gen-study.py - a synthetic scored study for bstats' tests and benchmark.

Usage: gen-study.py MODELS QUESTIONS [SEED]
Writes scored records (the bscore-merge contract of notes/records.md) on
stdout: every (site, question, model, condition), a few exclusions, and a
10 % subset rated again by a second rater, a self-check and an LLM judge.
Standard library only.
"""
import json
import random
import sys

models = int(sys.argv[1])
questions = int(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
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
            out.write(json.dumps(rec) + "\n")
            if rec["exclusion_reason"] is None and rng.random() < 0.1:
                for rid, kind in (("r2", "human"), ("r1", "human"), ("judge", "llm_judge")):
                    sec = dict(rec, rater_id=rid, rater_kind=kind, primary=False)
                    sec["factual_accuracy"] = max(0, min(3, fa + rng.choice([0, 0, 0, 1, -1])))
                    sec["completeness"] = rec["completeness"] if rng.random() < 0.85 else 1 - rec["completeness"]
                    sec["hallucination_count"] = max(0, hc + rng.choice([0, 0, 1, -1]))
                    out.write(json.dumps(sec) + "\n")
