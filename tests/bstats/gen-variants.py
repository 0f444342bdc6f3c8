#!/usr/bin/env python3
"""gen-variants.py - a synthetic scored study with condition variants whose
truth is known, for bstats' exploratory comparisons (issue 30).

Usage: gen-variants.py primary|variants
Writes scored records on stdout, the same bytes on every run (every score
follows from the tuple's index i, 0..29: 3 sites x 5 questions x 2 models).

  primary   A and B only: B's factual accuracy is 2 or 3 where A's is 1
            (B - A = 1.5 in means), fewer hallucinations and tokens under B
  variants  the same records, then the variants' (after A and B, so that
            the primary records come first in the input as in a real merge):
    B-plain (of B)     1 point below B's accuracy where i % 3 != 0 (20 of
                       30 pairs): B - B-plain = 0.667, 44 % of B - A;
                       40-44 fewer tokens than B; one more hallucination
                       where i % 4 == 0
    A-markdown (of A)  1 point above A's accuracy where i is even (15 of
                       30): A-markdown - A = 0.5, 33 % of B - A
    A-whole (of A)     1 above A where i % 4 == 0, 1 below where i % 4 ==
                       1 (8 pairs each way): no difference in accuracy;
                       three times A's tokens
    B-neutral-prompt (of B)  B's scores, in the first four tuples only
Standard library only.
"""
import json
import sys


def rec(i, cond, acc, hall, comp, cite, tok, of=None):
    site = "S%d" % (i // 10 + 1)
    r = {"site_id": site, "question_id": "%s-Q%d" % (site, i % 10 // 2 + 1),
         "model_id": "model-%d" % (i % 2), "condition": cond,
         "complexity": "single-fact", "tier": "small", "sector": "SaaS",
         "factual_accuracy": acc, "hallucination_count": hall,
         "completeness": comp, "citation_fidelity": cite,
         "input_token_count": tok, "exclusion_reason": None,
         "rater_id": "r1", "rater_kind": "human", "primary": True}
    if of:
        r["variant_of"] = of
    return r


def a_rec(i):
    return rec(i, "A", 1, 2 if i % 2 == 0 else 1, 0 if i % 3 == 0 else 1,
               None if i % 5 == 0 else 1, 1000 + 10 * i)


def b_rec(i):
    return rec(i, "B", 2 + i % 2, 1 if i % 3 == 0 else 0, 1,
               None if i % 5 == 0 else 2 - i % 2, 500 + 7 * i)


def variants(i):
    a, b = a_rec(i), b_rec(i)
    out = [rec(i, "B-plain", b["factual_accuracy"] - (i % 3 != 0),
               b["hallucination_count"] + (i % 4 == 0), b["completeness"],
               b["citation_fidelity"], b["input_token_count"] - 40 - i % 5,
               "B"),
           rec(i, "A-markdown", a["factual_accuracy"] + (i % 2 == 0),
               a["hallucination_count"], a["completeness"],
               a["citation_fidelity"], a["input_token_count"] + 30 + i % 7,
               "A"),
           rec(i, "A-whole", a["factual_accuracy"] + (i % 4 == 0) -
               (i % 4 == 1), a["hallucination_count"], a["completeness"],
               a["citation_fidelity"], 3 * a["input_token_count"] + i, "A")]
    if i < 4:
        out.append(dict(b, condition="B-neutral-prompt", variant_of="B"))
    return out


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("primary", "variants"):
        sys.exit(__doc__)
    recs = []
    for i in range(30):
        recs += [a_rec(i), b_rec(i)]
    if sys.argv[1] == "variants":
        for i in range(30):
            recs += variants(i)
    for r in recs:
        print(json.dumps(r, ensure_ascii=False))


main()
