#!/usr/bin/env python3
"""Make context records like bctx assemble + btok write them, for binfer's
tests.  Input lines: ID<TAB>CONDITION<TAB>QUESTION<TAB>CONTENT (\\n in CONTENT
is a line break).  "Tokens" are white-space separated words, as the test
server counts them.  A 5th column "excluded:REASON" marks an excluded context;
"lie:N" makes prompt_tokens N (a btok count the server will not match)."""
import json
import sys

SYSTEM = ("You are a factual question-answering system. Answer the following question using only the "
          "provided documentation content. If the content does not contain enough information to answer "
          "the question, say so explicitly.")

for line in sys.stdin:
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    f = line.split("\t")
    qid, cond, question, content = f[:4]
    content = content.replace("\\n", "\n")
    extra = f[4] if len(f) > 4 else ""
    user = "Content:\n%s\n\nQuestion: %s" % (content, question)
    n = len(content.split())
    p = len(SYSTEM.split()) + len(user.split())
    if extra.startswith("lie:"):
        p = int(extra[4:])
    rec = {"site_id": qid.split("-")[0], "domain": "example.com", "question_id": qid, "condition": cond,
           "complexity": "single-fact", "question_text": question, "source_urls": ["https://example.com/a"],
           "source_sections": ["A"], "gold_answer": "Gold for " + qid, "sector": "developer-tools",
           "content": content, "content_chars": len(content), "pages": [], "dropped_urls": [],
           "mapping": None, "last_modified": None, "excluded": extra.startswith("excluded:"),
           "exclusion_reason": extra[9:] if extra.startswith("excluded:") else None,
           "system_prompt": SYSTEM, "user_prompt": user, "gold_coverage": None,
           "tokens": {t: n for t in ("llama3", "qwen3", "gemma3", "mistral")},
           "prompt_tokens": {t: p for t in ("llama3", "qwen3", "gemma3", "mistral")},
           "ref_token_count": n}
    print(json.dumps(rec, separators=(",", ":")))
