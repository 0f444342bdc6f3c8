#!/bin/sh
# binfer against a server speaking Ollama's native /api/chat, whole and
# streamed, with every kind of misbehaviour: each case gets its record.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
start_server o

words300=$(yes word | head -n 300 | tr '\n' ' ')
words800=$(yes word | head -n 800 | tr '\n' ' ')
mkctx "$T/ctx.ndjson" <<EOF2
S001-Q01	A	What is the rate limit?	The rate limit is 100 requests per minute.
S001-Q01	B	What is the rate limit?	[[THINK]] The limit is 100 per minute.
S001-Q02	A	Flaky?	flaky [[500x2]] server
S001-Q02	B	Down?	down [[500]] server
S001-Q03	A	Reset?	reset [[RESETx1]] mid-body
S001-Q03	B	Garbage?	garbage [[MALFORMEDx1]] json
S001-Q04	A	Busy?	busy [[429x1]] server
S001-Q04	B	Bad?	bad [[400]] request
S001-Q05	A	Overflow?	too [[OVERFLOW]] long
S001-Q05	B	Truncated?	cut [[TRUNCATE]] $words300
S001-Q06	A	Long?	runs [[LENGTH]] on
S001-Q06	B	Slow?	slow [[SLOW:0.4]] answer
S001-Q07	A	Excluded?	nothing here	excluded:JS_ONLY
S001-Q07	B	Miscounted?	miscounted $words800	lie:50
S001-Q08	A	Huge?	a huge prompt	lie:200000
S001-Q08	B	Last?	The last answer.
EOF2
n=$(wc -l <"$T/ctx.ndjson")

field() {	# FILE QID COND JQ-EXPR
	jq -r --arg q "$2" --arg c "$3" "select(.question_id == \$q and .condition == \$c) | $4" "$1"
}

for mode in whole stream; do
	flag=; [ $mode = stream ] && flag=--stream
	: >"$T/o.log"
	t0=$(date +%s%N)
	run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" \
	    -j 4 --retries 2 --retry-delay 20 --cache "$T/cache-$mode" $flag
	t1=$(date +%s%N)
	expect_status 1 "$mode: exit 1: some records failed"
	like "$err" "2 records excluded as INFERENCE_ERROR \(see the error field\)" "$mode: failures counted per reason on stderr"
	like "$err" "3 records excluded as CONTEXT_OVERFLOW" "$mode: overflows counted (the protocol's exclusion, no failure)"
	like "$err" "3 of 16 records failed \(--allow-failures 0\)" "$mode: failed records counted"
	printf '%s\n' "$out" >"$T/out.ndjson"
	is "$(jq -r '.question_id + .condition' "$T/out.ndjson" | tr '\n' ' ')" \
	   "$(jq -r '.question_id + .condition' "$T/ctx.ndjson" | tr '\n' ' ')" "$mode: output order = input order"
	is "$(jq -r 'select(.model_id != "qwen3-8b-q8_0" or .engine != "ollama" or .tier != "small" or .model_family != "qwen3")' "$T/out.ndjson")" "" \
	   "$mode: model_id, family, tier, engine on every record"
	o=$T/out.ndjson
	is "$(field "$o" S001-Q01 A '[.response_text, .error, .exclusion_reason, .finish_reason] | tojson')" \
	   '["Answer to: What is the rate limit?",null,null,"stop"]' "$mode: plain answer"
	is "$(field "$o" S001-Q01 A '.prompt_eval_count == .expected_prompt_tokens and .num_ctx == .expected_prompt_tokens + 512 + 128')" \
	   true "$mode: num_ctx = prompt tokens + num_predict + overhead"
	is "$(field "$o" S001-Q01 A '.timings | tojson')" '{"total_ms":1500,"load_ms":250,"prompt_ms":500,"eval_ms":750}' \
	   "$mode: timings from the nanosecond durations"
	like "$(field "$o" S001-Q01 A '.model_digest')" '^[0-9a-f]{64}$' "$mode: model digest from /api/tags"
	like "$(field "$o" S001-Q01 A '.request_hash')" '^[0-9a-f]{64}$' "$mode: request hash"
	is "$(field "$o" S001-Q01 A '.input_token_count')" 8 "$mode: input_token_count = tokens[qwen3]"
	is "$(field "$o" S001-Q01 B '.response_text')" "Answer to: What is the rate limit?" "$mode: thinking removed from response_text"
	like "$(field "$o" S001-Q01 B '.response_raw')" '^<think>' "$mode: thinking kept in response_raw"
	is "$(field "$o" S001-Q02 A '[.response_text, .error] | tojson')" '["Answer to: Flaky?",null]' "$mode: two 500s, then an answer"
	is "$(asked "$T/o.log" 'flaky [[500x2]]')" 3 "$mode: 500 retried twice"
	is "$(field "$o" S001-Q02 B '[.response_text, .exclusion_reason, .excluded] | tojson')" '[null,"INFERENCE_ERROR",true]' \
	   "$mode: persistent 500 is INFERENCE_ERROR"
	like "$(field "$o" S001-Q02 B '.error')" '^HTTP 500: llama runner .*\(after 3 attempts\)$' "$mode: its error"
	is "$(asked "$T/o.log" 'down [[500]]')" 3 "$mode: retries bounded by --retries"
	is "$(field "$o" S001-Q03 A '.response_text')" "Answer to: Reset?" "$mode: reset mid-body retried"
	is "$(field "$o" S001-Q03 B '.response_text')" "Answer to: Garbage?" "$mode: malformed JSON retried"
	is "$(field "$o" S001-Q04 A '.response_text')" "Answer to: Busy?" "$mode: 429 retried"
	is "$(asked "$T/o.log" 'busy [[429x1]]')" 2 "$mode: 429 asked twice"
	is "$(( (t1 - t0) / 1000000 >= 1000 ))" 1 "$mode: Retry-After: 1 honoured"
	is "$(field "$o" S001-Q04 B '[.exclusion_reason, .error] | tojson')" '["INFERENCE_ERROR","HTTP 400: invalid option: nonsense"]' \
	   "$mode: 400 is an error record"
	is "$(asked "$T/o.log" 'bad [[400]]')" 1 "$mode: 400 never retried"
	is "$(field "$o" S001-Q05 A '.exclusion_reason')" CONTEXT_OVERFLOW "$mode: server overflow error is CONTEXT_OVERFLOW"
	is "$(asked "$T/o.log" 'too [[OVERFLOW]]')" 1 "$mode: overflow not retried"
	is "$(field "$o" S001-Q05 B '[.exclusion_reason, .excluded, .prompt_eval_count, .response_text] | tojson')" \
	   '["CONTEXT_TRUNCATED",true,100,"Answer to: Truncated?"]' "$mode: low prompt_eval_count is CONTEXT_TRUNCATED"
	is "$(field "$o" S001-Q06 A '[.finish_reason, .output_truncated, .output_token_count, .exclusion_reason] | tojson')" \
	   '["length",true,512,null]' "$mode: stop at num_predict flagged"
	is "$(field "$o" S001-Q06 B '.response_text')" "Answer to: Slow?" "$mode: slow answer"
	is "$(field "$o" S001-Q07 A '[.model_id, .exclusion_reason, has("response_text"), has("request_hash")] | tojson')" \
	   '["qwen3-8b-q8_0","JS_ONLY",false,false]' "$mode: excluded context passes through, no request"
	is "$(asked "$T/o.log" 'nothing here')" 0 "$mode: excluded context not sent"
	is "$(field "$o" S001-Q07 B '.exclusion_reason')" CONTEXT_OVERFLOW \
	   "$mode: a prompt longer than num_ctx is refused by the server (truncate false), not cut"
	is "$(field "$o" S001-Q08 A '[.exclusion_reason, .num_ctx] | tojson')" '["CONTEXT_OVERFLOW",131072]' \
	   "$mode: a prompt beyond the model's context is not sent"
	like "$(field "$o" S001-Q08 A '.error')" 'does not fit the model.s context of 131072' "$mode: its error"
	is "$(asked "$T/o.log" 'a huge prompt')" 0 "$mode: ... and never reaches the server"
	is "$(asked "$T/o.log" 'Warm-up request')" 3 "$mode: warmup_prompt_count warm-ups"
	is "$(chat_count "$T/o.log")" "$(( $(asked "$T/o.log" 'Warm-up request') + 14 + 2 + 2 + 1 + 1 + 1 ))" \
	   "$mode: no request sent twice beyond retries"
	# the request as sent
	line=$(grep -F 'The rate limit is 100 requests' "$T/o.log" | head -n 1)
	want_ctx=$(field "$o" S001-Q01 A '.num_ctx')
	s=false; [ $mode = stream ] && s=true
	like "$line" "\"model\": \"qwen3:8b-q8_0\", \"messages\": .*, \"stream\": $s, \"think\": false, \"truncate\": false, \"shift\": false, \"options\": \\{\"temperature\": 0\\.0, \"seed\": 42, \"top_p\": 1\\.0, \"top_k\": 0, \"repeat_penalty\": 1\\.0, \"num_predict\": 512, \"num_ctx\": $want_ctx\\}" \
	   "$mode: every option explicit, think/truncate/shift false"
	is "$(grep -F 'The rate limit is 100 requests' "$T/o.log" | head -n 1 | jq -c '.body.messages | map(.role)')" '["system","user"]' \
	   "$mode: system and user messages"
done

# a family that does not think: no think field; /no_think convention on demand
: >"$T/o.log"
head -n 1 "$T/ctx.ndjson" >"$T/one.ndjson"
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -m llama-3.3-8b-q8_0 --endpoint "$url_o" --no-cache --warmup 0 --no-think-prompt
expect_status 0 "llama model runs"
is "$(grep -F 'rate limit is' "$T/o.log" | jq -c '.body | [has("think"), .model, (.messages[1].content | endswith(" /no_think"))]')" \
   '[false,"llama3.3:8b-instruct-q8_0",true]' "no think field for llama; --no-think-prompt appends /no_think"
is "$(printf '%s\n' "$out" | jq -r '.input_token_count')" 8 "llama: input_token_count = tokens[llama3]"

# tolerance: a shortfall within --tolerance is not truncation
mkctx "$T/tol.ndjson" <<EOF2
S004-Q01	A	Close?	close enough	lie:60
S004-Q01	B	Far?	far off	lie:200
EOF2
run --stdin "$T/tol.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --no-cache --warmup 0
is "$(printf '%s\n' "$out" | jq -c '[.prompt_eval_count, .expected_prompt_tokens, .exclusion_reason]' | tr '\n' ' ')" \
   '[36,60,null] [36,200,"CONTEXT_TRUNCATED"] ' "shortfall of 24 tolerated, of 164 not (--tolerance 64)"
run --stdin "$T/tol.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --no-cache --warmup 0 --tolerance 0
is "$(printf '%s\n' "$out" | jq -r '.exclusion_reason' | tr '\n' ' ')" 'CONTEXT_TRUNCATED CONTEXT_TRUNCATED ' "--tolerance 0"

# Retry-After as an HTTP-date
mkctx "$T/date.ndjson" <<EOF2
S005-Q01	A	Date?	busy [[429DATEx1]] until a date
EOF2
t0=$(date +%s%N)
run --stdin "$T/date.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --no-cache --warmup 0 --retry-delay 1
t1=$(date +%s%N)
is "$(printf '%s\n' "$out" | jq -r '.response_text')" "Answer to: Date?" "Retry-After HTTP-date: answered on retry"
is "$(( (t1 - t0) / 1000000 >= 1000 ))" 1 "Retry-After HTTP-date: waited, not the 1 ms backoff"

# several endpoints share the work
start_server p
mkctx "$T/many.ndjson" <<EOF2
$(for i in 1 2 3 4 5 6 7 8; do printf 'S002-Q%02d\tA\tQuestion %d?\tContent [[SLOW:0.2]] number %d.\n' $i $i $i; done)
EOF2
: >"$T/o.log"
run --stdin "$T/many.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --endpoint "$url_p/" \
    -j 4 --no-cache --warmup 1
expect_status 0 "two endpoints"
is "$(printf '%s\n' "$out" | jq -r '.response_text' | tr '\n' '|')" \
   "$(for i in 1 2 3 4 5 6 7 8; do printf 'Answer to: Question %d?|' $i; done)" "two endpoints: answers in input order"
is "$(( $(asked "$T/o.log" "Content [[SLOW") >= 2 ))" 1 "two endpoints: first one used"
is "$(( $(asked "$T/p.log" "Content [[SLOW") >= 2 ))" 1 "two endpoints: second one used"
is "$(( $(asked "$T/o.log" 'Content [[SLOW') + $(asked "$T/p.log" 'Content [[SLOW') ))" 8 "two endpoints: each request sent once"
is "$(printf '%s\n' "$out" | jq -r '.endpoint' | sort -u | wc -l | tr -d ' ')" 2 "two endpoints: endpoint recorded"

# endpoints serving different builds of the model are refused
start_server q --salt other
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --endpoint "$url_q" --no-cache
expect_status 1 "different digests: exit 1"
like "$err" "serve different builds of qwen3:8b-q8_0" "different digests: message"

# a model the server does not have
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -m gemma3-4b-q8_0 --endpoint "$url_o" --no-cache
expect_status 1 "missing model: exit 1"
like "$err" "model gemma3:4b-it-q8_0 is not there \(ollama pull" "missing model: message"

# no server at all: a clear error
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint http://127.0.0.1:9 --retries 0 --no-cache
expect_status 1 "no server: exit 1"
like "$err" "api/tags: cannot list the models" "no server: message"

# no server, digest given: every record carries its connection error
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint http://127.0.0.1:9 --retries 1 \
    --retry-delay 10 --no-cache --digest abc --warmup 1
expect_status 1 "no server, digest given: exit 1"
is "$(printf '%s\n' "$out" | jq -c '[.exclusion_reason, (.error | test("Couldn.t connect|connect"))]')" '["INFERENCE_ERROR",true]' \
   "no server: connection error recorded"
like "$err" "warm-up request 1 failed" "no server: warm-up failure reported"

# the model's maximum context comes from /api/show, not only the config
start_server small --ctx-len 40960
mkctx "$T/big.ndjson" <<EOF2
S006-Q01	A	Big?	a big prompt	lie:40000
S006-Q01	B	Bigger?	a bigger prompt	lie:45000
EOF2
run --stdin "$T/big.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_small" --no-cache --warmup 0
is "$(printf '%s\n' "$out" | jq -c '[.num_ctx, .exclusion_reason]' | tr '\n' ' ')" '[40640,"CONTEXT_TRUNCATED"] [40960,"CONTEXT_OVERFLOW"] ' \
   "num_ctx = min(/api/show context_length 40960, prompt + 512 + 128), never the config's 131072"
like "$(printf '%s\n' "$out" | sed -n 2p | jq -r .error)" "does not fit the model.s context of 40960" "overflow against the server's context length"
is "$(printf '%s\n' "$out" | jq -c '[.server, .server_version]' | sort -u)" '["ollama","0.12.6"]' "server kind and version on every record"

done_testing
