#!/bin/sh
# bscore-merge autoscore: the overlap-based first-pass rater (spec 000 §10),
# run on blinded sheets, recorded as a non-human rater, valid for merge.
. "${0%/*}/../lib/tap.sh"
B=$(prog bscore-merge)
F=$TOP/tests/bscore-merge/fixtures
E=$TOP/tests/bscore-merge/examples

"$B" blind -k "$T/key.json" -d "$T/s" --seed 5 --passes "$F/responses.ndjson" 2>/dev/null
run "$B" autoscore --date 2026-03-01 "$T/s/sheet-1-factual_accuracy.csv" "$T/s/sheet-3-completeness.csv"
expect_status 0 "autoscore reads blinded sheets"
printf '%s\n' "$out" >"$T/auto.ndjson"
is "$(wc -l <"$T/auto.ndjson")" 16 "one row per response, even over several pass sheets"
is "$(jq -r '[.rater_id, .rater_kind, .scoring_date] | @tsv' "$T/auto.ndjson" | sort -u)" \
	"$(printf 'autoscore\tautoscore\t2026-03-01')" "recorded as a non-human rater"
sid() { jq -r --arg q "$1" --arg c "$2" '.responses[] | select(.question_id == $q and .condition == $c and (.model_id | startswith("llama"))) | .response_id' "$T/key.json"; }
a() { jq -c --arg id "$1" 'select(.response_id == $id) | [.factual_accuracy, .completeness, .citation_fidelity, .refusal, .hallucination_count]' "$T/auto.ndjson"; }
is "$(a "$(sid S009-Q01 B)")" '[3,1,null,false,0]' "the example 2.1 score-3 response scores 3, citation N/A"
is "$(a "$(sid S009-Q01 A)")" '[1,1,null,false,0]' "the example 2.1 score-1 response scores 1"
is "$(a "$(sid S003-Q07 A)")" '[0,0,null,true,0]' "a refusal scores 0/0 with no hallucinations (EC-05)"
is "$(a "$(sid S001-Q01 B)")" '[3,1,2,false,0]' "example 2.2 score 3: naming the question's source section gets citation 2"
is "$(a "$(sid S001-Q01 A)" | jq -c '.[0]')" 1 "example 2.2 score 1: half the synthesis scores 1"
is "$(a "$(sid S003-Q07 B)" | jq -c '.[0]')" 2 "example 2.3 score 2 scores 2"
is "$(a "$(sid S001-Q01 A)" | jq -c '.[2]')" 0 "a response without the attribution the question asks for gets 0"
is "$(a "$(sid S004-Q02 A)" | jq -c '.[2]')" 1 "a vague citation naming no source section gets 1"
like "$(jq -r 'select(.factual_accuracy < 3) | .scoring_notes' "$T/auto.ndjson" | head -n 1)" '^autoscore: gold-answer term recall' "notes explain each score"
run "$B" autoscore --date 2026-03-01 "$T/s/sheet-1-factual_accuracy.csv" "$T/s/sheet-3-completeness.csv"
is "$out" "$(cat "$T/auto.ndjson")" "the same sheets give the same scores"
run "$B" merge -k "$T/key.json" -r "$F/responses.ndjson" --raw-data "$T/raw.csv" "$T/auto.ndjson"
expect_status 0 "autoscore rows pass the rubric's validation in merge"
is "$(tail -n +2 "$T/raw.csv" | grep -c ',autoscore,2026-03-01$')" 16 "and fill raw-data.csv when they are all there is"

run "$B" autoscore -R answer-quality "$T/s/sheet-1-factual_accuracy.csv"
expect_status 1 "a rubric without an autoscore section"
like "$err" 'has no "autoscore" section' "is refused"
run "$B" autoscore "$E/ex004.ndjson"
expect_status 1 "a sheet without the blinded texts"
like "$err" 'no question column' "is refused with the column it lacks"
run "$B" autoscore --date 2026-13-01 "$T/s/sheet-1-factual_accuracy.csv"
expect_status 2 "a bad --date is a usage error"
run "$B" autoscore
expect_status 2 "autoscore without sheets is a usage error"

done_testing
