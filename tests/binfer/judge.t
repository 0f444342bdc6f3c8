#!/bin/sh
# Judge mode (000 §10): a separate model scores responses against the gold
# answer; its JSON verdict becomes scores with the judge as rater.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
start_server j
mkctx "$T/ctx.ndjson" <<EOF2
S001-Q01	A	What is the rate limit?	The rate limit is 100 requests per minute.
S001-Q01	B	What is the rate limit?	Limits: 100 per minute.
S001-Q02	A	Where?	nothing	excluded:HTTP_404
S001-Q02	B	Bad verdict?	whatever
EOF2
# response records as binfer writes them
jq -c '. + {model_id: "qwen3-8b-q8_0", model_family: "qwen3", tier: "small", engine: "ollama",
      response_text: (if .excluded then null else "It is 100 requests per minute." end)}
    | if .question_id == "S001-Q02" and .condition == "B" then .response_text = "[[BADVERDICT]]" else . end
    | if .excluded then del(.response_text) else . end' "$T/ctx.ndjson" >"$T/resp.ndjson"

J="$BINFER --judge -c $CFG --endpoint $url_j --warmup 0 --no-cache"

run --stdin "$T/resp.ndjson" $J -m qwen3-8b-q8_0
expect_status 2 "a benchmarked model as judge: usage error"
like "$err" "judge model qwen3-8b-q8_0 is one of the benchmarked models" "... says why"
run --stdin "$T/resp.ndjson" $J -m big-judge --model-tag gemma3:27b-it-q8_0
expect_status 2 "a benchmarked model's tag as judge: usage error"
run --stdin "$T/resp.ndjson" $J -m judge-70b --model-tag judge:latest -e extractive
expect_status 2 "the extractive engine cannot judge"

run --stdin "$T/resp.ndjson" $J -m judge-70b --model-tag judge:latest -j 2
expect_status 1 "judge run: exit 1, a verdict is missing"
printf '%s\n' "$out" >"$T/out.ndjson"
is "$(jq -c 'select(.question_id == "S001-Q01" and .condition == "A") | [.rater_id, .rater_kind, .primary, .rubric, .factual_accuracy, .completeness, .hallucination_count, .scoring_notes, .judge.model_tag, .judge.error, .model_id]' "$T/out.ndjson")" \
   '["llm_judge:judge-70b","llm_judge",false,"context-collapse",2,1,0,"matches the gold answer mostly","judge:latest",null,"qwen3-8b-q8_0"]' \
   "verdict parsed into scores; the judge is the rater; the response's model_id kept"
like "$(jq -r 'select(.question_id == "S001-Q01" and .condition == "A") | .scoring_date' "$T/out.ndjson")" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}$' "scoring_date"
like "$(jq -r 'select(.question_id == "S001-Q01" and .condition == "A") | .judge.model_digest' "$T/out.ndjson")" '^[0-9a-f]{64}$' "judge digest"
jq -c "select(.path == \"/api/chat\" and (.raw | contains(\"Q01\")) and (.raw | contains(\"Warm-up\") | not)) | .raw" "$T/j.log" | sort >"$T/jraw"
jq -c 'select(.question_id == "S001-Q01" and .judge.request != null) | .judge.request.body' "$T/out.ndjson" | sort >"$T/jbody"
DESC="the judge's request: the body the server received" ok [ -s "$T/jbody" ] && files_eq "$T/jbody" "$T/jraw" "the judge's request: the body the server received"
is "$(jq -c 'select(.question_id == "S001-Q01" and .condition == "A") | [.judge.request.sent, .judge.cache.hit, .judge.cache.key == .judge.request_hash]' "$T/out.ndjson")" \
   '[true,false,true]' "the judge's request sent, its cache provenance"
is "$(sed -n 3p "$T/out.ndjson")" "$(sed -n 3p "$T/resp.ndjson")" "excluded response passes through unchanged"
is "$(jq -c 'select(.question_id == "S001-Q02" and .condition == "B") | [.factual_accuracy, .judge.error]' "$T/out.ndjson")" \
   '[null,"no JSON object with factual_accuracy in the judge'"'"'s answer"]' "an answer without a verdict: error, no score"
like "$err" "1 record excluded as JUDGE_ERROR" "the unparsable verdict is counted"
run --stdin "$T/resp.ndjson" $J -m judge-70b --model-tag judge:latest -j 2 --allow-failures 1
expect_status 0 "--allow-failures 1: exit 0 with one failed verdict"
prompt=$(grep -F 'Gold for S001-Q01' "$T/j.log" | head -n 1 | jq -r '.body.messages[1].content')
like "$prompt" "Gold-standard answer:
Gold for S001-Q01" "judge prompt carries the gold answer"
like "$prompt" "Response to grade:
It is 100 requests per minute." "judge prompt carries the response"
unlike "$(grep -F 'Gold for S001-Q01' "$T/j.log" | head -n 1)" 'qwen3|"condition"|Condition [AB]' "judge prompt is blind to model and condition"
like "$(grep -F 'Gold for S001-Q01' "$T/j.log" | head -n 1 | jq -r '.body.messages[0].content')" '^You are an impartial grader' "rubric system prompt from share/binfer"

jq -c '.model_id = "judge-70b"' "$T/resp.ndjson" >"$T/self.ndjson"
run --stdin "$T/self.ndjson" $J -m judge-70b --model-tag judge:latest
expect_status 1 "a judge scoring itself: exit 1"
like "$err" "<stdin>:1: model_id: judge-70b cannot judge its own responses" "... with file and line"
jq -c 'del(.gold_answer)' "$T/resp.ndjson" >"$T/nogold.ndjson"
run "$BINFER" --judge -c "$CFG" --endpoint "$url_j" --warmup 0 --no-cache -m judge-70b --model-tag judge:latest "$T/nogold.ndjson"
expect_status 1 "missing gold answer: exit 1"
like "$err" "nogold.ndjson:1: gold_answer" "... with file, line and field"
run --stdin "$T/resp.ndjson" $J -m judge-70b --model-tag judge:latest --rubric nosuch
expect_status 1 "unknown rubric: exit 1"
like "$err" "judge-nosuch.txt" "... names the template it looked for"

done_testing
