#!/bin/sh
# bstats -f: the four figures, each with the CSV of its data: the sign
# convention in every caption, the Okabe-Ito palette, nice ticks, n and
# δ [95 % CI] on the forest rows, interval whiskers, valid XML; sites in
# natural order, formula-like CSV cells neutralised, one-site charts.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

synthetic_study
expect_status 0 "the synthetic study runs"
is "$(ls "$T/fig" | tr '\n' ' ')" "accuracy-by-condition.csv accuracy-by-condition.svg fig4-tokens-vs-accuracy.csv fig4-tokens-vs-accuracy.svg forest-tier-complexity.csv forest-tier-complexity.svg site-token-deltas.csv site-token-deltas.svg " "four figures, each with the CSV of its data"
is "$(sed 1d "$T/fig/fig4-tokens-vs-accuracy.csv" | wc -l)" "$(jq -r 'select(.test=="exclusion_accounting") | .pairs' "$T/r1.ndjson")" "the scatter's CSV has one row per pair"
is "$(awk -F, 'NR > 1 { print $1 }' "$T/fig/site-token-deltas.csv" | tr '\n' ' ')" "S001 S002 S004 S005 S006 " "the site CSV: one row per site with pairs"
for f in "$T"/fig/*.svg; do
	like "$(cat "$f")" 'positive = Condition B better' "$(basename "$f"): the caption states the sign convention"
done
unlike "$(cat "$T"/fig/*.svg)" '#d62728|#2ca02c|#ff7f0e|#1f77b4' "no red-green pair: the Okabe-Ito palette"
is "$(grep -o '>[^<]*</text>' "$T/fig/fig4-tokens-vs-accuracy.svg" | grep -E '^>-?[0-9.]+</text>$' | tr -d '></text' | awk '{ if ($1 != int($1 / 500) * 500 && ($1 < -3 || $1 > 3)) print "odd " $1 }')" "" "nice tick labels (multiples of a round step)"
like "$(cat "$T/fig/forest-tier-complexity.svg")" '>n = [0-9]+</text>' "forest rows carry n"
like "$(cat "$T/fig/forest-tier-complexity.svg")" '>-?[01]\.[0-9]{3} \[-?[01]\.[0-9]{3}, -?[01]\.[0-9]{3}\]</text>' "... and δ [95 % CI]"
is "$(grep -c '<line' "$T/fig/site-token-deltas.svg" | awk '{ print ($1 > 5) }')" 1 "site bars carry interval whiskers"
ok grep -q 'Spearman ρ = ' "$T/fig/fig4-tokens-vs-accuracy.svg"
ok python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' "$T"/fig/*.svg

# --- natural order of site ids, one-site charts, CSV formula cells
natural_sites "$T/nat.ndjson"
run "$B" -f "$T/natfig" -r "$T/nat.md" "$T/nat.ndjson"
is "$(awk -F, 'NR > 1 { print $1 }' "$T/natfig/site-token-deltas.csv" | tr '\n' '|')" " =cmd|S1|S9|S10|" \
	"sites in natural order (S9 before S10); a formula-like cell starts with a space (as raw-data.csv)"
rec S1 Q1 m A 2 1 1 null 300 >"$T/one1.ndjson"
rec S1 Q1 m B 3 0 1 null 200 >>"$T/one1.ndjson"
run "$B" -f "$T/onefig" "$T/one1.ndjson"
is "$(grep -o 'height="[0-9.]*" fill="#009E73"><title>' "$T/onefig/site-token-deltas.svg" | cut -d'"' -f2)" 16.0 "a one-site chart is one bar of normal thickness, not a block"
done_testing
