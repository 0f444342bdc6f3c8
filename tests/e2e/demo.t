#!/bin/sh
# The demo pipeline on the example site, end to end: every (question,
# condition) tuple reaches the final data once, scored or excluded with the
# right reason; the blinded sheet leaks nothing; the report's counts match.
. "${0%/*}/../lib/tap.sh"
O=$T/out
rc=0
OUT=$O sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "the demo pipeline runs end to end" || sed 's/^/# /' "$T/log" | tail -n 20
S=$O/scored.ndjson
is "$(jq -c 'select(.primary == true) | [.question_id, .condition]' "$S" | sort | uniq -d)" "" \
    "no (question, condition) tuple twice among primary records"
is "$(jq -c 'select(.primary == true)' "$S" | wc -l)" 38 "all 19 questions x 2 conditions present"
is "$(jq -r 'select(.question_id == "S001-Q08" and .condition == "A") | .exclusion_reason' "$S")" JS_ONLY \
    "the JavaScript-only page is excluded as JS_ONLY"
is "$(jq -r 'select(.question_id == "S001-Q09" and .condition == "B") | .exclusion_reason' "$S")" NO_MARKDOWN_MAPPING \
    "the page without a Markdown twin is NO_MARKDOWN_MAPPING"
is "$(jq -r 'select(.question_id == "S001-Q10" and .condition == "A") | .exclusion_reason' "$S")" WAF_BLOCKED \
    "the bot-protected page is WAF_BLOCKED"
is "$(jq -r 'select(.primary == true and (.exclusion_reason == null or .exclusion_reason == "") and .factual_accuracy == null) | .question_id' "$S")" "" \
    "every tuple not excluded is scored"
head -n 1 "$O/sheets/sheet.csv" >"$T/head"
unlike "$(cat "$T/head")" 'condition|model|engine|tier' "the sheet has no condition or model column"
unlike "$(cat "$O/sheets/sheet.csv")" 'extractive-baseline' "no model value in the sheet"
like "$(cat "$O/report.md")" "tuples attempted: 38" "the report counts 38 tuples"
like "$(cat "$O/report.md")" "tuples excluded: 3" "the report counts 3 exclusions"
ok test -s "$O/raw-data.csv"
is "$(ls "$O/figures"/*.svg | wc -l | tr -d ' ')" 4 "four figures"
done_testing
