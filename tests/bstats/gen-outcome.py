#!/usr/bin/env python3
"""gen-outcome.py - synthetic scored studies whose truth is known, one per
ordinary outcome of a study, for the statements of bstats' report.

Usage: gen-outcome.py OUTCOME
Writes scored records on stdout, the same bytes on every run (no random
numbers: every score follows from the indices).  OUTCOME is one of:

  b-better   B is more accurate in 60 % of pairs, never less; fewer tokens,
             fewer hallucinations, more complete (6 sites x 8 questions x 3
             models)
  a-better   A is more accurate in 69 % of pairs and B less complete in 50 %
  no-diff    accuracy differs in half the pairs, as often each way
  ties       every pair scores the same under A and B (tokens too)
  neg-corr   the larger B's token saving, the worse B's accuracy
  pos-corr   the larger B's token saving, the better B's accuracy
  no-b       b-better with a fourth model that has no Condition B response
  no-tier    b-better with the 48 pairs of one model lacking a tier
  clustered  B better at 3 of 12 sites only; the other 9 lean a little
             either way (4 towards B, 5 towards A)
  n1         a single pair, B better
  n4         four pairs, B better in every one
  autoscore  b-better rated by bscore-merge autoscore only (no
             hallucinations assessed: every count 0)
  rater2     b-better with a second human rater on 12 of 96 responses
             (12.5 %) who disagrees on factual accuracy
  huge       3000 pairs, B better in every one (p below 1e-300)
Standard library only.
"""
import json
import sys

TIERS = ["small", "medium", "large"]
LEVELS = ["single-fact", "multi-section-synthesis", "conceptual-relationship"]


def rec(site, q, model, cond, acc, hall, comp, tok, **kw):
    r = {"site_id": site, "question_id": q, "model_id": model,
         "condition": cond, "complexity": LEVELS[int(q[-2:]) % 3],
         "tier": TIERS[int(model[-1]) % 3], "sector": "SaaS",
         "factual_accuracy": acc, "hallucination_count": hall,
         "completeness": comp, "citation_fidelity": None,
         "input_token_count": tok, "exclusion_reason": None,
         "rater_id": "r1", "rater_kind": "human", "primary": True}
    r.update(kw)
    return r


def grid(sites, questions, models):
    """(index, site, question, model) over the whole design."""
    i = 0
    for s in range(sites):
        for q in range(questions):
            for m in range(models):
                yield (i, "S%03d" % (s + 1), "S%03d-Q%02d" % (s + 1, q + 1),
                       "model-%d" % m)
                i += 1


def pair(out, site, q, model, a, b, **kw):
    """a, b: (accuracy, hallucinations, completeness, tokens)."""
    out.append(rec(site, q, model, "A", *a, **kw))
    out.append(rec(site, q, model, "B", *b, **kw))


def b_better(out, models=3, **kw):
    for i, s, q, m in grid(6, 8, models):
        gain = 1 if i % 5 < 3 else 0          # 60 % of pairs
        tok = 1000 + 37 * (i % 23)
        pair(out, s, q, m, (1, 1 + (i % 4 == 0), int(i % 3 == 0), tok),
             (1 + gain, 1, 1, tok * 6 // 10 + i % 7), **kw)


def a_better(out):
    for i, s, q, m in grid(6, 8, 3):
        loss = 1 if i % 13 < 9 else 0         # 69 % of pairs
        tok = 1000 + 37 * (i % 23)
        pair(out, s, q, m, (2, 1, 1, tok),
             (2 - loss, 1, 0 if i % 2 == 0 else 1, tok * 6 // 10 + i % 7))


def no_diff(out):
    for i, s, q, m in grid(6, 8, 3):
        d = [1, 0, -1, 0][i % 4]
        tok = 1000 + 37 * (i % 23)
        pair(out, s, q, m, (2, 1, 1, tok), (2 + d, 1, 1, tok - 200 - i % 11))


def ties(out):
    for i, s, q, m in grid(3, 4, 2):
        pair(out, s, q, m, (2, 1, 1, 900), (2, 1, 1, 900))


def corr(out, sign):
    for i, s, q, m in grid(6, 8, 3):
        saving = 100 + 40 * (i % 25)          # 100 .. 1060 tokens
        d = 1 if saving > 700 else -1 if saving < 400 else 0
        pair(out, s, q, m, (2, 1, 1, 3000), (2 + sign * d, 1, 1,
             3000 - saving))


def tok_up(out):
    """B never uses fewer tokens; one pair far out on both axes."""
    for i, s, q, m in grid(6, 8, 3):
        more = 50 + 10 * (i % 20)
        d = -1 if i % 3 == 0 else 0
        if i == 0:
            more, d = 20000, 3
        pair(out, s, q, m, (0 if i == 0 else 2, 1, 1, 1000),
             (2 + d if i else 3, 1, 1, 1000 + more))


def no_b(out):
    b_better(out)
    for i, s, q, m in grid(6, 4, 1):
        out.append(rec(s, q, "model-9", "A", 2, 1, 1, 1200))


def no_tier(out):
    b_better(out)
    for r in out:
        if r["model_id"] == "model-2":
            del r["tier"]


def clustered(out):
    for i, s, q, m in grid(12, 20, 1):
        site = int(s[1:])
        if site <= 3:
            d = 1 if i % 10 < 8 else 0
        elif q.endswith("Q01"):               # a small lean either way
            d = 1 if site % 2 else -1
        else:
            d = [1, -1, 0, 0][i % 4]
        pair(out, s, q, m, (1, 1, 1, 2000), (1 + d, 1, 1, 1500 - i % 13))


def small(out, n):
    for i in range(n):
        pair(out, "S001", "S001-Q%02d" % (i + 1), "model-0",
             (1, 1, 1, 1000 + 10 * i), (2, 0, 1, 600 + 7 * i))


def autoscore(out):
    b_better(out, rater_id="autoscore", rater_kind="autoscore")
    for r in out:
        r["hallucination_count"] = 0


def rater2(out):
    b_better(out, models=1)
    second = []
    for r in out[:12]:
        s = dict(r, rater_id="r2", primary=False)
        s["factual_accuracy"] = 3 - r["factual_accuracy"]
        second.append(s)
    out.extend(second)


def huge(out):
    for i in range(3000):
        q = "S%03d-Q%02d" % (i // 10 + 1, i % 10 + 1)
        pair(out, q[:4], q, "model-0", (1, 1, 1, 1000 + i % 97),
             (2, 0, 1, 600 + i % 89))


OUTCOMES = {
    "b-better": b_better, "a-better": a_better, "no-diff": no_diff,
    "ties": ties, "neg-corr": lambda o: corr(o, -1),
    "pos-corr": lambda o: corr(o, 1), "no-b": no_b, "no-tier": no_tier,
    "clustered": clustered, "n1": lambda o: small(o, 1),
    "n4": lambda o: small(o, 4), "autoscore": autoscore, "rater2": rater2,
    "huge": huge, "tok-up": tok_up,
}

if len(sys.argv) != 2 or sys.argv[1] not in OUTCOMES:
    sys.exit("usage: gen-outcome.py OUTCOME (%s)" % ", ".join(OUTCOMES))
records = []
OUTCOMES[sys.argv[1]](records)
for r in records:
    sys.stdout.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
