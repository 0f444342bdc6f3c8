#!/bin/sh
# bstats: the token analyses (001 §2.6, 000 §4): per site (means, medians,
# Δ = A - B and its percentage of A), across models (tokenizers), and the
# freshness correlation's pairs (001 §6.8).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

{ rec S1 Q1 m A 1 2 0 null 300; rec S1 Q1 m B 3 0 1 null 100; } >"$T/one.ndjson"
run "$B" "$T/one.ndjson"
expect_status 0 "a single pair runs"
is "$(jq -c 'select(.test=="token_summary") | .sites[0] | [.mean_a, .mean_b, .median_a, .median_b, .delta, (.delta_pct*1000|round)]' "$T/out")" '[300,100,300,100,200,66667]' "per-site tokens: means, medians, A - B and its percentage of A"

synthetic_study
expect_status 0 "the synthetic study runs"
like "$(cat "$T/r1.md")" '\| site \| pairs \| mean A \| mean B \| median A \| median B \|' "000 §4: per-site medians"
like "$(cat "$T/r1.md")" 'Token variation across models \(001 §2\.6, level 2\)' "001 §2.6: cross-model token variation"
is "$(jq -r 'select(.test=="token_variation") | .models | length' "$T/r1.ndjson")" 3 "... one row per model"
is "$(jq -r 'select(.metric=="staleness_days~delta_accuracy") | .n' "$T/r1.ndjson")" \
	"$(jq -r 'select(.test=="exclusion_accounting") | .pairs' "$T/r1.ndjson")" "freshness: every pair has Last-Modified dates"
done_testing
