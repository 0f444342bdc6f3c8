#!/bin/sh
# The pipelines of binfer(1)'s EXAMPLES run (servers replaced by the test server).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

cd "$T" || exit 1
cp "$HERE/ctx-small.ndjson" contexts.ndjson
cp "$HERE/config.json" benchmark-config.json
run "$BINFER" -e extractive contexts.ndjson
expect_status 0 "extractive example"
is "$(printf '%s\n' "$out" | jq -r '.engine' | sort -u)" extractive "extractive example: labelled"
printf '%s\n' "$out" >responses-extractive.ndjson

start_server e
run "$BINFER" -c benchmark-config.json -m qwen3-8b-q8_0 -j 4 --endpoint "$url_e" --warmup 1 \
    -o responses-qwen3-8b.ndjson contexts.ndjson
expect_status 0 "ollama example"
is "$(jq -r '.response_text' responses-qwen3-8b.ndjson | grep -c '^Answer to')" 3 "ollama example: three answers, one excluded"
start_server l --openai-only
run "$BINFER" -c benchmark-config.json -m gemma3-12b-q8_0 -e openai --endpoint "$url_l" --endpoint "$url_l" \
    --warmup 0 contexts.ndjson
expect_status 0 "openai example"
run "$BINFER" --judge -c benchmark-config.json -m judge-qwen2.5-72b --model-tag judge:latest \
    --endpoint "$url_e" --warmup 0 responses-qwen3-8b.ndjson
expect_status 0 "judge example"
is "$(printf '%s\n' "$out" | jq -r 'select(.excluded | not) | .factual_accuracy' | sort -u)" 2 "judge example: scores"
done_testing
