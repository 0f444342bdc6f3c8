#!/bin/sh
# The model a record names is the model that answered: -m must be a model
# of the configuration, the extractive engine answers as the extractive
# baseline only (never under a benchmarked model's id, whatever the
# configuration's default engine), and a model's own engine in the
# configuration is the default one.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

cd "$T" || exit 1
# the example study's configuration: its default engine is the extractive one
cp "$TOP/examples/benchmark-config.json" cfg.json
mkctx ctx.ndjson <<EOF2
S001-Q01	A	What is the limit?	The limit is 100 requests per minute.
S001-Q01	B	What is the limit?	The limit is one hundred requests per minute.
EOF2

run "$BINFER" -c cfg.json -m qwen3-8b-q8_0 --no-cache ctx.ndjson
expect_status 2 "a benchmarked model with the configuration's extractive engine: refused"
is "$out" "" "... no record labelled with a model that never answered"
like "$err" "^binfer: --model qwen3-8b-q8_0: the extractive engine \(the config's inference_endpoint.engine\) answers as the extractive baseline only" \
   "... the message says which engine and where it came from"
like "$err" "run qwen3-8b-q8_0 with -e ollama or -e openai" "... and how to run the model"

run "$BINFER" -c cfg.json -m nosuch --no-cache ctx.ndjson
expect_status 2 "a model the configuration does not define: refused"
like "$err" "^binfer: --model: nosuch is not a model_id of cfg.json" "... named"

run "$BINFER" -e extractive -m llama-3.3-8b-q8_0 --no-cache ctx.ndjson
expect_status 2 "-e extractive with a model's id, no configuration: refused"
like "$err" "the extractive engine \(--engine\) answers as the extractive baseline only" "... named"

run "$BINFER" -c cfg.json -m extractive-baseline -e ollama --no-cache ctx.ndjson
expect_status 2 "the extractive baseline's id with a model server's engine: refused"
like "$err" "extractive-baseline is the extractive baseline: the ollama engine \(--engine\) cannot answer as it" "... named"

run "$BINFER" -c cfg.json -m extractive-baseline --no-cache ctx.ndjson
expect_status 0 "the extractive baseline from the configuration"
is "$(printf '%s\n' "$out" | jq -c '[.model_id, .engine, .tier]' | sort -u)" '["extractive-baseline","extractive","baseline"]' \
   "... labelled as what answered"
run "$BINFER" -c cfg.json --no-cache ctx.ndjson
expect_status 0 "no -m with the extractive engine: the baseline"
is "$(printf '%s\n' "$out" | jq -r .model_id | sort -u)" extractive-baseline "... under its own id"

# a second extractive model of a configuration (tests/e2e/fanout-ssh.t has one)
jq '.models += [(.models[0] | .model_id = "extractive-two")]' cfg.json >two.json
run "$BINFER" -c two.json -m extractive-two --no-cache ctx.ndjson
expect_status 0 "a model whose engine is extractive"
is "$(printf '%s\n' "$out" | jq -c '[.model_id, .engine]' | sort -u)" '["extractive-two","extractive"]' "... labelled with its id"

# a model's own engine in the configuration comes before the default engine
start_server o
jq --arg u "$url_o" '(.models[] | select(.model_id == "qwen3-8b-q8_0")) += {"engine": "ollama"}
    | .inference_endpoint.base_url = $u' cfg.json >own.json
run "$BINFER" -c own.json -m qwen3-8b-q8_0 --no-cache --warmup 0 ctx.ndjson
expect_status 0 "a model with its own engine"
is "$(printf '%s\n' "$out" | jq -c '[.model_id, .engine, .server, (.response_text | startswith("Answer to"))]' | sort -u)" \
   '["qwen3-8b-q8_0","ollama","ollama",true]' "... answered by that engine and labelled so"
jq '(.models[] | select(.model_id == "qwen3-8b-q8_0")) += {"engine": "gpt"}' cfg.json >bad.json
run "$BINFER" -c bad.json -m qwen3-8b-q8_0 --no-cache ctx.ndjson
expect_status 2 "a model's engine that does not exist: refused"
like "$err" "the model's engine in the config: expected ollama, openai or extractive, got 'gpt'" "... named"

done_testing
