#!/bin/sh
# bstats: input errors stop the run with status 1 and a message naming the
# file, the line and the field (scored records, second-rubric ratings,
# parity fields; conformance findings: conformance.t).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m C 2 0 1 null 90; } >"$T/badcond.ndjson"
run "$B" "$T/badcond.ndjson"
expect_status 1 "condition C is a data error"
like "$err" 'badcond.ndjson:2: condition' "the message names file, line and field"
{ rec S1 Q1 m A 7 0 1 null 100; } >"$T/range.ndjson"
run "$B" "$T/range.ndjson"
expect_status 1 "factual_accuracy 7 is a data error"
like "$err" 'range.ndjson:1: factual_accuracy: expected an integer from 0 to 3' "range message"
printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","factual_accuracy":1}\n' >"$T/missing.ndjson"
run "$B" "$T/missing.ndjson"
expect_status 1 "a missing score field is a data error"
like "$err" 'missing.ndjson:1: hallucination_count' "it names the missing field"
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m A 1 0 1 null 100; } >"$T/dup.ndjson"
run "$B" "$T/dup.ndjson"
expect_status 1 "two primary ratings of one tuple are an error"
like "$err" 'dup.ndjson:2: a second primary rating' "duplicate message"
printf 'not json\n' >"$T/nojson.ndjson"
run "$B" "$T/nojson.ndjson"
expect_status 1 "a line that is not JSON is an error"
: >"$T/empty.ndjson"
run "$B" "$T/empty.ndjson"
expect_status 1 "empty input is an error"

printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"B","rubric":"answer-quality","quality_score":3}\n' >"$T/aqbad.ndjson"
run "$B" "$T/aqbad.ndjson"
expect_status 1 "a quality score above 1 is a data error"
like "$err" 'aqbad.ndjson:1: quality_score' "... named with file and line"

printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","factual_accuracy":1,"hallucination_count":0,"completeness":1,"input_token_count":5,"parity_b_in_a":1.5}\n' >"$T/badpar.ndjson"
run "$B" "$T/badpar.ndjson"
expect_status 1 "a parity share above 1 is a data error"
like "$err" 'badpar.ndjson:1: parity_b_in_a: expected a number from 0 to 1' "... named with file, line and field"
done_testing
