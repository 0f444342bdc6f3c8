#!/bin/sh
# binfer against an OpenAI-compatible /v1/chat/completions server (llama.cpp,
# vLLM, LM Studio), whole and streamed (server-sent events).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
SECRET=sk-test-7f3a9c0d1e2b
start_server a --api-key "$SECRET" --n-ctx 4096 --openai-only

mkctx "$T/ctx.ndjson" <<EOF2
S001-Q01	A	What is the rate limit?	The rate limit is 100 requests per minute.
S001-Q01	B	Think?	[[THINK]] thinking model
S001-Q02	A	Flaky?	flaky [[500x1]] server
S001-Q02	B	Busy?	busy [[429x1]] server
S001-Q03	A	Reset?	reset [[RESETx1]] mid-body
S001-Q03	B	Garbage?	garbage [[MALFORMEDx1]] json
S001-Q04	A	Overflow?	too [[OVERFLOW]] long
S001-Q04	B	Truncated?	cut [[TRUNCATE]] $(yes w | head -n 300 | tr '\n' ' ')
S001-Q05	A	Long?	runs [[LENGTH]] on
S001-Q05	B	Bad?	bad [[400]] request
EOF2

field() { jq -r --arg q "$2" --arg c "$3" "select(.question_id == \$q and .condition == \$c) | $4" "$1"; }

export BINFER_TEST_KEY=$SECRET
for mode in whole stream; do
	flag=; [ $mode = stream ] && flag=--stream
	: >"$T/a.log"
	run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -e openai -m mistral-small-3.1-24b-q8_0 \
	    --endpoint "$url_a" --api-key-env BINFER_TEST_KEY --extra '{"top_k":0,"repeat_penalty":1.0}' \
	    -j 3 --retries 2 --retry-delay 20 --cache "$T/cache-$mode" --warmup 2 $flag
	expect_status 1 "$mode: exit 1: two records failed"
	like "$err" "2 of 10 records failed" "$mode: failures counted"
	like "$err" "server kind openai: cannot lock num_ctx" "$mode: a plain OpenAI server: what cannot be locked, said once"
	printf '%s\n' "$out" >"$T/out.ndjson"
	o=$T/out.ndjson
	is "$(jq -r '.question_id + .condition' "$o" | tr '\n' ' ')" "$(jq -r '.question_id + .condition' "$T/ctx.ndjson" | tr '\n' ' ')" \
	   "$mode: output order = input order"
	is "$(field "$o" S001-Q01 A '[.engine, .model_id, .response_text, .prompt_eval_count == .expected_prompt_tokens, .output_token_count, .finish_reason, .num_ctx] | tojson')" \
	   '["openai","mistral-small-3.1-24b-q8_0","Answer to: What is the rate limit?",true,7,"stop",null]' "$mode: answer, usage, finish_reason"
	like "$(field "$o" S001-Q01 A '.model_digest')" '^fp_test_' "$mode: system_fingerprint as model_digest"
	is "$(field "$o" S001-Q01 A '.timings | tojson')" '{"total_ms":null,"load_ms":null,"prompt_ms":500,"eval_ms":750}' "$mode: llama.cpp timings"
	is "$(field "$o" S001-Q01 B '.response_text')" "Answer to: Think?" "$mode: thinking block removed"
	like "$(field "$o" S001-Q01 B '.response_raw')" '^<think>' "$mode: raw answer kept"
	is "$(field "$o" S001-Q01 B '[.thinking_stripped, .output_token_count] | tojson')" '[true,null]' \
	   "$mode: thinking flagged, not counted as output tokens"
	is "$(field "$o" S001-Q01 A '.thinking_stripped')" false "$mode: no thinking, no flag"
	is "$(field "$o" S001-Q02 A '.response_text')" "Answer to: Flaky?" "$mode: 500 retried"
	is "$(field "$o" S001-Q02 B '.response_text')" "Answer to: Busy?" "$mode: 429 retried"
	is "$(field "$o" S001-Q03 A '.response_text')" "Answer to: Reset?" "$mode: reset retried"
	is "$(field "$o" S001-Q03 B '.response_text')" "Answer to: Garbage?" "$mode: malformed answer retried"
	is "$(field "$o" S001-Q04 A '[.exclusion_reason, .error] | tojson')" \
	   '["CONTEXT_OVERFLOW","HTTP 400: the request exceeds the available context size, try increasing it (exceed_context_size_error)"]' \
	   "$mode: context overflow"
	is "$(asked "$T/a.log" 'too [[OVERFLOW]]')" 1 "$mode: overflow not retried"
	is "$(field "$o" S001-Q04 B '.exclusion_reason')" CONTEXT_TRUNCATED "$mode: truncation detected from usage.prompt_tokens"
	is "$(field "$o" S001-Q05 A '[.finish_reason, .output_truncated] | tojson')" '["length",true]' "$mode: max_tokens stop flagged"
	is "$(field "$o" S001-Q05 B '.exclusion_reason')" INFERENCE_ERROR "$mode: 400 is an error"
	is "$(asked "$T/a.log" 'bad [[400]]')" 1 "$mode: 400 not retried"
	is "$(asked "$T/a.log" 'Warm-up request')" 2 "$mode: --warmup 2"
	line=$(grep -F 'The rate limit is 100 requests' "$T/a.log" | head -n 1)
	s=false; [ $mode = stream ] && s=true
	like "$line" "\"temperature\": 0\\.0, \"seed\": 42, \"top_p\": 1\\.0, \"max_tokens\": 512, \"stream\": $s, .*\"top_k\": 0, \"repeat_penalty\": 1\\.0\\}" \
	   "$mode: seed, temperature, top_p, max_tokens always; extras merged"
	unlike "$out$err" "$SECRET" "$mode: the API key is never printed"
	is "$(printf '%s\n' "$err" | grep -c 'cannot lock')" 1 "$mode: the warning said once"
done

# the config's extras and a wrong key
: >"$T/a.log"
head -n 1 "$T/ctx.ndjson" >"$T/one.ndjson"
jq '.inference_endpoint.openai_extra = {"chat_template_kwargs": {"enable_thinking": false}}' "$CFG" >"$T/cfg.json"
run --stdin "$T/one.ndjson" "$BINFER" -c "$T/cfg.json" -e openai -m qwen3-8b-q8_0 --endpoint "$url_a" \
    --api-key-env BINFER_TEST_KEY --no-cache --warmup 0
expect_status 0 "config extras: exit 0"
like "$(grep -F 'rate limit is' "$T/a.log")" '"chat_template_kwargs": \{"enable_thinking": false\}' "config extras sent"
BINFER_TEST_KEY=wrong-key-123 run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -e openai -m qwen3-8b-q8_0 \
    --endpoint "$url_a" --api-key-env BINFER_TEST_KEY --no-cache --warmup 0
is "$(printf '%s\n' "$out" | jq -r '.error')" "HTTP 401: invalid api key (invalid_api_key)" "401 recorded, not retried"
unlike "$out$err" "wrong-key-123" "a wrong key is not printed either"
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -e openai -m qwen3-8b-q8_0 --endpoint "$url_a" \
    --api-key-env BINFER_NO_SUCH_VAR --no-cache
expect_status 1 "unset key variable: exit 1"
like "$err" "environment variable BINFER_NO_SUCH_VAR is not set" "unset key variable: message"

# a server that echoes the key in an error: masked in every field and message
mkctx "$T/echo.ndjson" <<EOF2
S009-Q01	A	Echo?	echo [[ECHOKEY]] the key
EOF2
run --stdin "$T/echo.ndjson" "$BINFER" -c "$CFG" -e openai -m qwen3-8b-q8_0 --endpoint "$url_a" \
    --api-key-env BINFER_TEST_KEY --no-cache --warmup 0
expect_status 1 "echoed key: exit 1"
unlike "$out$err" "$SECRET" "echoed key: never written"
is "$(printf '%s\n' "$out" | jq -r '.error')" "HTTP 401: key rejected: Bearer [MASKED] (invalid_api_key)" "echoed key: masked in the error field"
is "$(printf '%s\n' "$out" | jq -c '[.server, .server_version, .model_identity]')" '["openai",null,"openai:qwen3:8b-q8_0 owned_by=library created=1771581600"]' \
   "plain OpenAI server: kind and the model's identity from /v1/models"

# Ollama's /v1 is detected (/api/version) and its limits said
start_server ov
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -e openai -m qwen3-8b-q8_0 --endpoint "$url_ov" --no-cache --warmup 0
expect_status 0 "Ollama /v1: exit 0"
is "$(printf '%s\n' "$out" | jq -c '[.server, .server_version, (.model_identity | length)]')" '["ollama-openai","0.12.6",64]' \
   "Ollama /v1: kind, version, the /api/tags digest as identity"
like "$err" "server kind ollama-openai: cannot lock top_k, repeat_penalty, num_ctx" "Ollama /v1: what it cannot lock"
like "$(grep -F 'rate limit is' "$T/ov.log" | jq -r '.body.messages[-1].content')" ' /no_think$' "Ollama /v1: qwen3 thinking off by /no_think"
run --stdin "$T/one.ndjson" "$BINFER" -c "$CFG" -e openai --server vllm -m qwen3-8b-q8_0 --endpoint "$url_a" --no-cache --warmup 0 \
    --api-key-env BINFER_TEST_KEY
like "$(grep -F 'rate limit is' "$T/a.log" | tail -n 1 | jq -c '.body | [.top_k, .min_p, .repetition_penalty, .chat_template_kwargs]')" \
   '^\[-1,0,1(\.0)?,\{"enable_thinking":false\}\]$' "--server vllm: vLLM's fields, without asking"

done_testing
