#!/bin/sh
# bstats: a run that is wrong looks wrong: records nobody scored name the
# stage to run first, in one message; a run that reads nothing or can
# test nothing exits 1 saying so; every run ends with one line on stderr.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# --- responses that were never scored: one message naming bscore-merge
printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","response":"text","input_token_count":10}\n' >"$T/responses.ndjson"
run "$B" "$T/responses.ndjson"
expect_status 1 "unscored responses are a data error"
is "$err" "bstats: $T/responses.ndjson:1: no scores (factual_accuracy, hallucination_count, completeness): the record is not scored — run bscore-merge first (blind, then merge the raters' sheets)" \
	"one message, naming the stage to run first"

# --- a scored record missing one score is still named by its field
rec S1 Q1 m A 2 1 1 null 100 | sed 's/"hallucination_count":1,//' >"$T/half.ndjson"
run "$B" "$T/half.ndjson"
expect_status 1 "a record missing one score"
like "$err" 'half.ndjson:1: hallucination_count' "... names the field, not the stage"

# --- nothing read
run "$B" /dev/null
expect_status 1 "an empty input exits 1"
like "$err" 'no primary scored records in the input' "... saying so"

# --- every record excluded: outputs written, exit 1
rec S1 Q1 m A 2 1 1 null 100 | sed 's/"exclusion_reason":null/"exclusion_reason":"HTTP_404"/' >"$T/excl.ndjson"
rec S1 Q1 m B 2 1 1 null 100 | sed 's/"exclusion_reason":null/"exclusion_reason":"HTTP_404"/' >>"$T/excl.ndjson"
run "$B" -o "$T/excl.out" -r "$T/excl.md" "$T/excl.ndjson"
expect_status 1 "every record excluded: exit 1"
like "$err" 'no scored pair' "... saying nothing was tested"
is "$(jq -r 'select(.test=="exclusion_accounting") | .by_reason.HTTP_404' "$T/excl.out")" 2 "... with the results written to say why"
like "$(cat "$T/excl.md")" '^- tuples excluded: 2$' "... and the report"

# --- the one-line summary of a good run
identical_pairs "$T/same.ndjson"
run "$B" -o "$T/same.out" "$T/same.ndjson"
expect_status 0 "a good run"
is "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "one line on stderr"
like "$err" '^bstats: 12 primary ratings, 0 other; 6 pairs analysed \(0 tuples excluded, 0 whose partner was excluded, 0 unpaired\); [0-9]+ result records$' \
	"the summary counts ratings, pairs and where the rest went"

# --- progress on a terminal: count of total, rate, ETA, and the total is
# exact (the last line drawn is T/T)
if command -v script >/dev/null 2>&1; then
	$GEN 3 48 11 parity >"$T/study.ndjson"
	script -qec "CTXBENCH_PROGRESS=1 '$B' -b 200 -o /dev/null '$T/study.ndjson'" /dev/null >"$T/tty" 2>&1 </dev/null
	tr '\r' '\n' <"$T/tty" | sed 's/\x1b\[K//g' | grep -E '^bstats: [0-9]+/[0-9]+ ' | tail -n 1 >"$T/last"
	like "$(cat "$T/last")" '^bstats: ([0-9]+)/\1 +[0-9.]+ interval/s' "the progress line counts intervals of a known total"
	like "$(tr '\r' '\n' <"$T/tty")" 'ETA' "... with an ETA"
else
	skip "script(1) is not installed: no terminal to show progress on"
	skip "script(1) is not installed"
fi
done_testing
