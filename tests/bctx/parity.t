#!/bin/sh
# bctx assemble: A<->B parity on one page of an imaginary site in five
# versions (tests/bctx/parity/make-fixture.py): the same version on both
# sides, a Markdown twin with one table column more, one with a column more
# and a section the HTML lacks, one whose code example changed, and a page
# with no Markdown twin.
. "${0%/*}/../lib/tap.sh"
BCTX=$(prog bctx)
/usr/bin/python3 "${0%/*}/parity/make-fixture.py" "$T"
run "$BCTX" assemble -q "$T/questions.json" "$T/pages.ndjson"
expect_status 0 "assemble runs"
R=$T/ctx
cp "$T/out" "$R"
get() { jq -r --arg q "$1" --arg c "$2" "select(.question_id==\$q and .condition==\$c)|$3" "$R"; }
F='[.parity_b_in_a,.parity_a_in_b,.parity_code_b_in_a,.parity_code_a_in_b,.pair_drift]|map(tostring)|join(" ")'

for q in P001-Q1 P001-Q2 P001-Q3 P001-Q4; do
	is "$(get $q A "$F")" "$(get $q B "$F")" "$q: both records of the pair carry the same parity"
done
is "$(get P001-Q1 A "$F")" "0.9873 0.9512 1 null false" \
    "same version: parity near 1 (A's page chrome, B's fence info string), code all found, no drift"
is "$(get P001-Q2 A '.parity_a_in_b')" "$(get P001-Q1 A '.parity_a_in_b')" \
    "one column more in B: A's share found in B unchanged"
is "$(get P001-Q2 A '[.parity_b_in_a < 0.95, .parity_b_in_a > 0.8, .facts_b_in_a < 0.7, .pair_drift]|map(tostring)|join(" ")')" \
    "true true true true" "one column more in B: the word share stays above 0.8, B's version column is 8 facts A lacks: flagged"
is "$(get P001-Q3 A '[.parity_b_in_a < 0.8, .parity_a_in_b, .pair_drift]|map(tostring)|join(" ")')" \
    "true 0.9512 true" "a column and a section more in B: below 0.8, the pair is flagged"
is "$(get P001-Q4 A '[.parity_code_b_in_a, .parity_b_in_a > 0.8, .pair_drift]|map(tostring)|join(" ")')" \
    "0 true true" "changed code example: no code line of B in A, flagged although the words agree"
is "$(get P001-Q5 A "$F")" "null null null null null" "no pair (B missing): all five null on A"
is "$(get P001-Q5 B "$F|tostring")/$(get P001-Q5 B .excluded)" "null null null null null/true" \
    "no pair: all five null on the excluded B"

# --condition writes one side, with the pair's parity
run "$BCTX" assemble -q "$T/questions.json" --condition B --question P001-Q3 "$T/pages.ndjson"
is "$(printf '%s\n' "$out" | jq -r "$F")" "$(get P001-Q3 B "$F")" \
    "--condition B: the record still carries the pair's parity"

# the fields reach scored records: btok and binfer pass them through
run sh -c "'$(prog btok)' -t llama3 '$R' | '$(prog binfer)' -m extractive-baseline -e extractive"
expect_status 0 "btok and binfer run on the contexts"
is "$(printf '%s\n' "$out" | jq -r 'select(.question_id=="P001-Q3" and .condition=="B")|'"$F")" \
    "$(get P001-Q3 B "$F")" "btok and binfer pass the parity fields through"
done_testing
