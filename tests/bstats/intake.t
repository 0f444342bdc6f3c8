#!/bin/sh
# bstats: what the records bring in: the exclusion accounting of 001 §2.5
# (a study where no tuple pairs still reports, every result saying why),
# and the flags bscore-merge writes (self_check, rater_kind, an empty
# exclusion_reason).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# every tuple of one condition excluded: no pairs, every test says why
{ printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","exclusion_reason":"JS_ONLY"}\n'
  rec S1 Q1 m B 2 0 1 null 50; } >"$T/excl.ndjson"
run "$B" -r "$T/excl.md" -f "$T/exfig" "$T/excl.ndjson"
expect_status 0 "a study without pairs still reports"
is "$(jq -r 'select(.test=="exclusion_accounting") | [.tuples_attempted, .tuples_excluded, .pairs, .by_reason.JS_ONLY] | @tsv' "$T/out")" "$(printf '2\t1\t0\t1')" "exclusion accounting: attempted, excluded, pairs, by reason"
is "$(jq -c 'select(.computable==false and (.reason|type)!="string")' "$T/out")" "" "every not computable result has a reason"
unlike "$(cat "$T/excl.md" "$T/out" "$T"/exfig/*.svg)" "$NANINF" "no NaN or inf anywhere"

# bscore-merge's flags: self_check, rater_kind autoscore, exclusion_reason ""
: >"$T/kinds.ndjson"
for q in 1 2 3 4; do
	rec S1 Q$q m A $((q % 4)) 0 $((q % 2)) null 100 | sed 's/"exclusion_reason":null/"exclusion_reason":""/' >>"$T/kinds.ndjson"
	rec S1 Q$q m B $(((q + 1) % 4)) 0 $(((q + 1) % 2)) null 90 >>"$T/kinds.ndjson"
	rec S1 Q$q m A $((q % 4)) 0 $((q % 2)) null 100 | sed 's/"primary":true/"primary":false,"self_check":true/;s/"r1"/"r1-later"/' >>"$T/kinds.ndjson"
	rec S1 Q$q m B $((q % 4)) 0 $((q % 2)) null 90 | sed 's/"primary":true/"primary":false,"rater_kind":"autoscore"/;s/"r1"/"auto"/' >>"$T/kinds.ndjson"
done
run "$B" "$T/kinds.ndjson"
expect_status 0 "ratings with bscore-merge's flags"
is "$(jq -r 'select(.test=="exclusion_accounting") | .tuples_excluded' "$T/out")" 0 'an exclusion_reason of "" is no exclusion'
is "$(jq -r 'select(.test=="percent_agreement") | "\(.subset)=\(.statistic)"' "$T/out" | tr '\n' ' ')" "self_check=100 human_vs_autoscore=0 " "self_check flag and autoscore ratings are told apart"
done_testing
