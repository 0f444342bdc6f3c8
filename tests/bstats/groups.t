#!/bin/sh
# bstats: the subgroups of 001 §6.6: H4 and H5 as Kruskal-Wallis on the
# accuracy Δ per (site, question) within each tier or complexity level, the
# Mann-Whitney follow-ups only after a significant Kruskal-Wallis and
# one-tailed in the direction the hypothesis states, and the tier family.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# --- H4: Kruskal-Wallis per (site, question) within each tier; follow-ups
python3 - "$T/tiers.ndjson" <<'PY'
import json, sys
# 3 models per tier, 30 questions: small tier gains 2 points under B, large none
with open(sys.argv[1], "w") as f:
    for q in range(30):
        for t, tier in enumerate(("small", "medium", "large")):
            for m in range(3):
                gain = (2, 1, 0)[t] if (q + m) % 5 else 0
                for c, fa in (("A", 1), ("B", 1 + gain)):
                    f.write(json.dumps({"site_id": "S%d" % (q // 5 + 1), "question_id": "Q%d" % q,
                        "model_id": "%s-%d" % (tier, m), "condition": c, "tier": tier,
                        "complexity": "single-fact", "factual_accuracy": min(fa, 3),
                        "hallucination_count": 0, "completeness": 1, "citation_fidelity": None,
                        "input_token_count": 100}) + "\n")
PY
run "$B" -r "$T/tiers.md" "$T/tiers.ndjson"
expect_status 0 "a study with a tier interaction runs"
kw=$(jq -c 'select(.test=="kruskal_wallis" and .group=="tier")' "$T/out")
is "$(printf '%s' "$kw" | jq -c '[.n, .groups.small.n, .significant, .followups_run]')" '[90,30,true,true]' \
	"KW on 30 (site, question) means per tier (90 values), significant: follow-ups run"
is "$(jq -r 'select(.test=="mann_whitney_u" and .group=="tier") | "\(.subset) \(.alternative)"' "$T/out" | tr '\n' ';')" \
	"tier=small vs medium greater;tier=small vs large greater;tier=medium vs large greater;" \
	"follow-ups one-tailed in H4's direction (smaller tier first)"
like "$(cat "$T/tiers.md")" '\*\*H4 significant \(interaction\)\*\*' "the interpretation reads H4 as supported"
is "$(jq -c 'select(.test=="mann_whitney_u" and .group=="complexity")' "$T/out")" "" "one complexity level: no follow-ups for H5"
kw5=$(jq -c 'select(.test=="kruskal_wallis" and .group=="complexity")' "$T/out")
like "$kw5" '"computable":false' "H5 with one group: Kruskal-Wallis not computable"

# --- the synthetic study: the tier family; KW not significant, so no
# follow-ups
synthetic_study
expect_status 0 "the synthetic study runs"
is "$(jq -r 'select(.family=="tier") | .family_size' "$T/r1.ndjson" | sort -u)" 10 "the tier family: H4 + 3 tiers x 3 metrics"
is "$(jq -c 'select(.test=="mann_whitney_u")' "$T/r1.ndjson")" "" "Kruskal-Wallis not significant: no Mann-Whitney follow-ups"
is "$(jq -c 'select(.test=="kruskal_wallis") | .followups_run' "$T/r1.ndjson" | sort -u)" false "... and the record says so"
done_testing
