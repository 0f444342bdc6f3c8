#!/bin/sh
# bstats: A<->B content parity (001 §7.1 L-IV-1) from bctx's fields on the
# scored records, per site, beside the gold-coverage asymmetry; the
# sensitivity analysis without the drifted pairs; data without the fields.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

$GEN 3 48 11 parity >"$T/parity.ndjson"
run "$B" -r "$T/parity.md" "$T/parity.ndjson"
expect_status 0 "records with parity fields"
ps=$(jq -c 'select(.test=="parity_summary")' "$T/out")
is "$(printf '%s' "$ps" | jq -c '[.computable, .pairs_with_parity == .n, (.sites | length)]')" '[true,true,5]' "parity per site"
drift=$(printf '%s' "$ps" | jq -r .pairs_drift)
isnt "$drift" 0 "some pairs are flagged as drifted"
is "$(jq -r 'select(.group=="sensitivity_parity") | "\(.hypothesis)=\(.n)"' "$T/out" | tr '\n' ' ')" \
	"H1=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) H2=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) H3=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) " \
	"the primary tests again without the drifted pairs"
is "$(jq -c 'select(.group=="sensitivity_parity") | .family' "$T/out" | sort -u)" null "... outside the BH families"
like "$(cat "$T/parity.md")" '## 8\. A↔B content parity.*' "the report has the parity section"
like "$(cat "$T/parity.md")" '\| S001 \| 24 \| 24 \| [0-9]+ \| 0\.[0-9]{3} \| 0\.[0-9]{3} \|' "... with the per-site shares"
like "$(cat "$T/parity.md")" 'gold cov\. A \| gold cov\. B' "... beside the gold-coverage asymmetry"

# older data without the fields
synthetic_study
expect_status 0 "the synthetic study runs"
like "$(cat "$T/r1.md")" 'Not reported: the scored records carry no parity fields' "older data without the fields: the report says so"
done_testing
