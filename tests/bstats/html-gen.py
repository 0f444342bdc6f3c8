#!/usr/bin/env python3
"""html-gen.py - scored records with every text the results browser shows.

Usage: html-gen.py QUESTIONS MODELS SEED [hostile|plain [WORDS]] > scored.ndjson

Writes what `bscore-merge merge --keep-texts` writes for a study of
QUESTIONS questions (8 per site) and MODELS models: both conditions'
content, system and user prompts, responses, binfer's response fields
(server, timings, tokens, finish_reason, request_hash, endpoint, error, the
request with its body and the cache provenance; none on S001-Q05, as an
older binfer wrote them, and no body on S001-Q08, as a merge without
--keep-texts leaves them; model-00's S001-Q02 a cache hit) and
bctx's fact fields (facts_changed, facts_b_in_a, pair_drift ...), rated by
autoscore with its notes.  A context has about WORDS words (default 320;
the real study's contexts average some 2,000).  With "hostile", markup, formulas and secrets
stand in every text field; the fixed cases the browser tests look for are
listed in the comments below.  Standard library only.
"""
import hashlib
import json
import random
import sys

nq, nm, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
hostile = len(sys.argv) > 4 and sys.argv[4] == "hostile"
nwords = int(sys.argv[5]) if len(sys.argv) > 5 else 320
rng = random.Random(seed)
EVIL = '<img src=x onerror="window.__pwned=1">'
SCRIPT = "</script><script>window.__pwned=1</script>"
SYSTEM = "You are a factual question-answering system. Answer from the content only."
WORDS = ("archive fetch request host header timeout retry cache model server token "
         "context prompt answer section page markdown table default value option").split()


def prose(r, n):
    return " ".join(r.choice(WORDS) for _ in range(n))


def content(q, cond, r):
    # Q0 states the changed default: warmup_prompt_count is 3 on the page
    # (A) and 1 in the Markdown (B); the sentence "needle-context-q1" is in
    # Q1's contexts only.
    parts = ["# Settings of page %d (%s)" % (q, cond), prose(r, nwords * 3 // 8)]
    if q == 0:
        parts.append("The option warmup_prompt_count sends %s warm-up requests by default."
                     % ("3" if cond == "A" else "1"))
        parts.append("| option | default |\n| rate_limit_ms | %s |" % ("1000" if cond == "A" else "500"))
    if q == 1:
        parts.append("needle-context-q1 appears here.")
    if hostile:
        parts.append("Markup in the page: %s %s" % (EVIL, SCRIPT))
    parts.append(prose(r, nwords - nwords * 3 // 8))
    return "\n\n".join(parts)


def gold(q):
    if hostile and q == 2:
        return '=HYPERLINK("http://evil.example","click") sets the archive timeout'
    return "The archive keeps %d pages; the timeout default is %d seconds." % (q + 2, 30 + q)


def question(q):
    if hostile and q == 3:
        return "What does option %d do? %s" % (q, SCRIPT)
    return "How many pages does archive %d keep, and what is the timeout default?" % q


def site_of(q):
    s = "S%03d" % (q // 8 + 1)
    return EVIL if hostile and q // 8 == 1 else s


def facts(q):
    if q == 0:
        ch = [{"kind": "number", "key": "warmup_prompt_count requests _ default", "a": "3", "b": "1"},
              {"kind": "cell", "key": "rate_limit_ms | default", "a": "1000", "b": "500"}]
        if hostile:
            ch.append({"kind": "quoted", "key": EVIL, "a": SCRIPT, "b": "=1+1"})
        return {"facts_changed": ch, "facts_changed_count": len(ch), "facts_b_in_a": 0.9,
                "facts_a_in_b": 0.85, "gold_facts_only_a": ["3"], "gold_facts_only_b": [],
                "pair_drift": True}
    return {"facts_changed": [], "facts_changed_count": 0, "facts_b_in_a": 1.0,
            "facts_a_in_b": 1.0, "gold_facts_only_a": [], "gold_facts_only_b": [],
            "pair_drift": False}


def response(q, m, cond, r):
    # Q0, model 0: A answers "3 warm-up requests", B "1"; Q4's B response
    # of model 0 holds "needle-response-q4".
    words = gold(q).replace(";", "").replace(".", "").split()
    kept = [w for w in words if r.random() < (0.8 if cond == "B" else 0.6)]
    text = "From the content: " + " ".join(kept) + "."
    if q == 0 and m == 0:
        text += " It sends %s warm-up requests." % ("3" if cond == "A" else "1")
    if q == 4 and m == 0 and cond == "B":
        text += " needle-response-q4"
    if hostile:
        text += " " + SCRIPT + " " + EVIL
    return text


def recall(g, t):
    # bscore-merge autoscore's term recall, for its notes (a close copy:
    # content words cut to five characters; the tests read the numbers the
    # page computes, not these).
    def terms(s):
        out = []
        for w in "".join(c.lower() if c.isalnum() else " " for c in s).split():
            if len(w) >= 2 and w not in ("the", "and", "does", "what", "how", "many", "sets"):
                out.append(w[:5])
        return set(out)
    gt, tt = terms(g), terms(t)
    return len(gt & tt), len(gt)


def transcript(q, m, mid, cond, h, rec):
    """binfer's request (its body as sent, compact JSON) and cache provenance."""
    body = json.dumps({"model": mid, "messages": [{"role": "system", "content": rec["system_prompt"]},
                                                  {"role": "user", "content": rec["user_prompt"]}],
                       "temperature": 0.0, "seed": 42, "top_p": 1.0, "max_tokens": 512, "stream": False},
                      separators=(",", ":"), ensure_ascii=False)
    return {"request": {"sent": True, "url": "https://user:sk-SECRET123@llm.example:8443/v1/chat/completions",
                        "server": "llamacpp", "server_version": rec["server_version"],
                        "warmup_requests": 3, "body_sha256": hashlib.sha256(body.encode()).hexdigest(),
                        "body_masked": False, "body": body},
            "cache": {"hit": q == 1 and m == 0, "key": h, "first_obtained": "2026-03-01T10:00:00Z",
                      "request_rebuilt": False}}


out = sys.stdout
for q in range(nq):
    site, qid = site_of(q), "%s-Q%02d" % ("S%03d" % (q // 8 + 1), q % 8 + 1)
    ctx = {c: content(q, c, random.Random(seed * 1000 + q * 2 + (c == "B"))) for c in "AB"}
    for m in range(nm):
        mid = "model-%02d" % m
        if hostile and m == 1:
            mid = "m<b>1</b>"
        for cond in "AB":
            resp = response(q, m, cond, rng)
            excluded = cond == "A" and q == 5
            hit, n = recall(gold(q), resp)
            fa = 0 if excluded else min(3, round(3 * hit / max(n, 1)))
            user = "Content:\n%s\n\nQuestion: %s" % (ctx[cond], question(q))
            h = hashlib.sha256(("%s|%s|%s|%s" % (site, qid, mid, cond)).encode()).hexdigest()
            rec = {
                "site_id": site, "question_id": qid, "condition": cond, "model_id": mid,
                "complexity": ("single-fact", "conceptual-relationship")[q % 2],
                "tier": ("small", "medium", "large")[m % 3], "sector": "SaaS",
                "question_text": question(q), "gold_answer": gold(q), "content": ctx[cond],
                "system_prompt": SYSTEM + (" " + EVIL + SCRIPT if hostile else ""), "user_prompt": user,
                "gold_coverage": round(rng.random(), 3),
                "parity_b_in_a": 0.95, "parity_a_in_b": 0.93,
                "model_family": "llama", "engine": "openai", "server": "llama.cpp",
                "server_version": "b4567" + (EVIL if hostile else ""),
                "endpoint": "https://user:sk-SECRET123@llm.example:8443/v1?api_key=sk-SECRET123&x=1",
                "model_identity": "model-%02d.gguf 4920733696 8030261248" % m,
                "model_digest": "fp_%02d" % m, "num_ctx": 8192, "request_hash": h,
                "finish_reason": "length" if (q == 0 and m == 0 and cond == "B") else "stop",
                "output_truncated": q == 0 and m == 0 and cond == "B",
                "thinking_stripped": q == 4,
                "input_token_count": rng.randint(800, 2000) if cond == "A" else rng.randint(300, 1100),
                "expected_prompt_tokens": 1500, "prompt_eval_count": 1500,
                "output_token_count": 40,
                "timings": {"total_ms": 812.5, "load_ms": 1.5, "prompt_ms": 400.25, "eval_ms": 410.75},
                "response_text": resp,
                "response_raw": ("<think>planning</think>" + resp) if q == 4 else resp,
                "error": "retry: Bearer sk-SECRET123 refused" if (q == 6 and cond == "B") else None,
                "response_id": "R%s" % h[:8], "rater_id": "autoscore", "rater_kind": "autoscore",
                "primary": True, "self_check": False, "rubric": "context-collapse",
                "exclusion_reason": "JS_ONLY" if excluded else None,
                "factual_accuracy": fa, "hallucination_count": rng.randint(0, 1),
                "completeness": 1 if hit * 2 >= n else 0, "citation_fidelity": None,
                "scoring_notes": "autoscore: gold-answer term recall %.2f (%d/%d); hallucinations not assessed"
                % (hit / max(n, 1), hit, n) + (" " + EVIL if hostile else ""),
            }
            if q != 4:
                rec.update(transcript(q, m, mid, cond, h, rec))
            if q == 7:
                del rec["request"]["body"]   # as merge without --keep-texts
            rec.update(facts(q))
            out.write(json.dumps(rec) + "\n")
