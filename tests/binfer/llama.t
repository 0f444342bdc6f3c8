#!/bin/sh
# binfer against a real llama.cpp llama-server (make deps-servers builds it
# with a tiny random-weight model that has the real Llama 3 vocabulary):
# every locked parameter of 001 §4.6 applied, as the server itself reports
# it (/slots, its verbose log); byte-identical answers across runs and at
# -j 4 over four slots; the context checks; the model's identity in the
# cache key; and each failure path (a server killed mid-run stops the run).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
have_llama || skip_all "llama-server is not built: run make deps-servers (tests/binfer/deps-servers.sh)"

CFG=$HERE/config.json
# server defaults as LM Studio-style setups have them: none of these may apply
start_llama a -m "$LLAMA_MODEL" -c 2048 -np 1 --repeat-penalty 1.3 --top-k 40 --min-p 0.05 --temp 0.8 --seed 7
mkctx "$T/ctx.ndjson" <<EOF2
$(for i in 1 2 3 4 5 6 7 8; do printf 'S001-Q%02d\tA\tWhat is the limit number %d?\tThe limit number %d is %d requests per minute for each key.\n' $i $i $i $((i * 25)); done)
EOF2
B="$BINFER -c $CFG -e openai -m llama-3.3-8b-q8_0 --num-predict 24 --warmup 1 --no-cache"

run --stdin "$T/ctx.ndjson" $B --endpoint "$url_a"
expect_status 0 "llama-server: exit 0"
printf '%s\n' "$out" >"$T/run1.ndjson"
is "$(jq -r '.server' "$T/run1.ndjson" | sort -u)" "llama.cpp" "detected as llama.cpp"
like "$(jq -r '.server_version' "$T/run1.ndjson" | sort -u)" '^b[0-9]+-' "its build recorded as server_version"
like "$(jq -r '.model_identity' "$T/run1.ndjson" | sort -u)" 'tiny-llama3.gguf size=[0-9]+ params=[0-9]+$' "model path, size and parameters are the identity"
is "$(jq -r '.num_ctx' "$T/run1.ndjson" | sort -u)" 2048 "num_ctx: the server's context"
is "$(jq -r 'select(.response_text == null or .error != null)' "$T/run1.ndjson")" "" "every record answered"
unlike "$err" "cannot lock" "no parameter it cannot lock"

# the server's own view of the last request: /slots
slots=$(curl -fs "$url_a/slots")
is "$(printf '%s' "$slots" | jq -c '.[0].params | [.temperature, .seed, .top_p, .top_k, .min_p, .repeat_penalty, .n_predict]')" \
   '[0,42,1,0,0,1,24]' "/slots: temperature 0, seed 42, top_p 1, top_k 0, min_p 0, repeat_penalty 1, n_predict 24"
like "$(grep -F 'request:  {' "$T/a.log" | grep -F 'limit number 1 ' | head -n 1)" '"cache_prompt":false' \
   "verbose log: the prompt cache is off (cache_prompt false)"
logged=$(grep -F 'request:  {' "$T/a.log" | grep -F 'limit number 1 ' | head -n 1 | sed 's/^.*request:  //')
is "$(printf '%s\n' "$logged" | jq -cS . 2>&1)" "$(jq -r 'select(.question_text == "What is the limit number 1?") | .request.body' "$T/run1.ndjson" | jq -cS .)" \
   "verbose log: llama-server received the request body the record holds"
is "$(jq -r '[.request.url, .request.server, .request.warmup_requests, .cache.hit] | tojson' "$T/run1.ndjson" | sort -u)" \
   "[\"$url_a/v1/chat/completions\",\"llama.cpp\",1,false]" "the request's URL, server and warm-up; no cache"

# the same run again, and at -j 4 over four slots: the same bytes
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_a"
printf '%s\n' "$out" >"$T/run2.ndjson"
is "$(jq -c '[.response_text, .output_token_count]' "$T/run2.ndjson" | cksum)" "$(jq -c '[.response_text, .output_token_count]' "$T/run1.ndjson" | cksum)" \
   "two runs: byte-identical answers"
start_llama p -m "$LLAMA_MODEL" -c 8192 -np 4
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_p" -j 4
printf '%s\n' "$out" >"$T/run4.ndjson"
is "$(jq -c '[.response_text, .output_token_count]' "$T/run4.ndjson" | cksum)" "$(jq -c '[.response_text, .output_token_count]' "$T/run1.ndjson" | cksum)" \
   "-j 4 with --parallel 4: the same answers"
is "$(grep -c 'request: POST /v1/chat/completions' "$T/p.log")" 9 "-j 4: eight requests and a warm-up, each once"

# Qwen 3's thinking off: chat_template_kwargs, seen by the template
cat >"$T/think.jinja" <<'EOF2'
{%- for m in messages %}<|start_header_id|>{{ m['role'] }}<|end_header_id|>

{{ m['content'] }}<|eot_id|>{%- endfor %}<|start_header_id|>assistant<|end_header_id|>

{%- if enable_thinking is defined and enable_thinking is false %}<think>

</think>

{% endif %}
EOF2
start_llama q -m "$LLAMA_MODEL" -c 2048 -np 1 --jinja --chat-template-file "$T/think.jinja"
head -n 1 "$T/ctx.ndjson" >"$T/one.ndjson"
run --stdin "$T/one.ndjson" $B --endpoint "$url_q" -m qwen3-8b-q8_0 --warmup 0
off=$(printf '%s\n' "$out" | jq -r .prompt_eval_count)
run --stdin "$T/one.ndjson" $B --endpoint "$url_q" -m qwen3-8b-q8_0 --warmup 0 \
    --extra '{"chat_template_kwargs": {"enable_thinking": true}}'
on=$(printf '%s\n' "$out" | jq -r .prompt_eval_count)
is "$((off - on))" 6 "qwen3: the server's template got enable_thinking false (6 more prompt tokens: the empty think block)"
like "$(grep -F 'request:  {' "$T/q.log" | head -n 1)" '"chat_template_kwargs":\{"enable_thinking":false\}' "qwen3: sent as chat_template_kwargs"

# context: a prompt and output cap beyond the server's context are not sent
start_llama c -m "$LLAMA_MODEL" -c 256 -np 1
long=$(yes 'The limit is one hundred requests per minute for each key.' | head -n 12 | tr '\n' ' ')
mkctx "$T/long.ndjson" <<EOF2
S002-Q01	A	What is the limit?	$long	lie:200
S002-Q01	B	What is the limit?	$long	lie:150
EOF2
run --stdin "$T/long.ndjson" $B --endpoint "$url_c" --warmup 0 --num-predict 100 --tolerance 200
expect_status 1 "small context: exit 1"
is "$(printf '%s\n' "$out" | jq -c '[.exclusion_reason, .num_ctx]' | tr '\n' ' ')" '["CONTEXT_OVERFLOW",256] ["CONTEXT_EXHAUSTED",256] ' \
   "200 + 100 > 256: CONTEXT_OVERFLOW before sending; a stop when the server's context ran out: CONTEXT_EXHAUSTED"
is "$(grep -c 'request: POST /v1/chat/completions' "$T/c.log")" 1 "the overflowing one was never sent"
like "$(printf '%s\n' "$out" | sed -n 2p | jq -r .error)" "context ran out after [0-9]+ output tokens \\(cap 100\\)" "exhaustion: its error"
like "$err" "1 record excluded as CONTEXT_EXHAUSTED" "exhaustion: counted on stderr"

# the model's identity is in the cache key: another model, no cached answers
$PY - "$LLAMA_MODEL" "$T/other.gguf" <<'PYEOF'
import sys
# the same file with one more byte of padding at the end: another size
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as g:
    g.write(f.read())
    g.write(b"\0" * 32)
PYEOF
run --stdin "$T/one.ndjson" $B --endpoint "$url_c" --cache "$T/cache" --warmup 0
h1=$(printf '%s\n' "$out" | jq -r .request_hash)
kill "$pid_c"; wait "$pid_c" 2>/dev/null
start_llama c -m "$T/other.gguf" -c 256 -np 1
run --stdin "$T/one.ndjson" $B --endpoint "$url_c" --cache "$T/cache" --warmup 0
isnt "$(printf '%s\n' "$out" | jq -r .request_hash)" "$h1" "another model file: another request hash"
is "$(grep -c 'request: POST /v1/chat/completions' "$T/c.log")" 1 "... so the new model is asked, not the cache"

# failures: the server killed mid-run, and a wrong API key
start_llama k -m "$LLAMA_MODEL" -c 2048 -np 1
mkctx "$T/many.ndjson" <<EOF2
$(for i in $(seq 1 30); do printf 'S003-Q%02d\tA\tWhat is item %d?\tItem %d is a thing.\n' $i $i $i; done)
EOF2
# SIGKILL: a crash.  On SIGTERM llama-server stops decoding but may keep
# its port open, so requests would wait for their timeout, not fail.
( sleep 1; kill -9 "$pid_k" ) &
run --stdin "$T/many.ndjson" $B --endpoint "$url_k" --num-predict 64 --retries 1 --retry-delay 10
expect_status 1 "server killed mid-run: exit 1"
like "$err" "$url_k: no connection \(Couldn.t connect to server\)" "server killed: said at once, naming the server"
like "$(printf '%s\n' "$err" | tail -n 1)" "^binfer: $url_k: no server answers any more: stopped after [0-9:]+ with [0-9]+ records? done" \
   "server killed: the run stops, saying why"
n=$(printf '%s\n' "$out" | grep -c . || true)
is "$((n < 30))" 1 "server killed: $n of 30 records written, the rest left to a second run"
is "$(printf '%s\n' "$out" | jq -r 'select(.error != null) | .error' | grep -c connect || true)" 0 \
   "server killed: no record written with the lost connection as its error"
start_llama key -m "$LLAMA_MODEL" -c 2048 -np 1 --api-key sk-llama-secret-42
BINFER_KEY=wrong-key-7 run --stdin "$T/one.ndjson" $B --endpoint "$url_key" --api-key-env BINFER_KEY --warmup 0
expect_status 1 "401: exit 1"
like "$(printf '%s\n' "$out" | jq -r .error)" "^HTTP 401" "401: recorded"
BINFER_KEY=sk-llama-secret-42 run --stdin "$T/one.ndjson" $B --endpoint "$url_key" --api-key-env BINFER_KEY --warmup 0
expect_status 0 "the right key: exit 0"
unlike "$out$err" "sk-llama-secret-42" "the key is never written"

done_testing
