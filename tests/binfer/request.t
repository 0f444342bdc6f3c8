#!/bin/sh
# The request binfer records with each answer (binfer(1), "Output records"):
# the body the server received, byte for byte, where it went, the warm-ups
# before it, the cache provenance; an answer from the cache carries the
# request that obtained it; the API key, a credential in --extra and the
# user information of an endpoint's URL appear in no file binfer writes.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
SECRET=sk-request-test-5b8e1f0c93
PASS=pw-userinfo-31c7a2
EXTRA_KEY=extra-credential-9d04e6
start_server r --api-key "$SECRET" --n-ctx 4096 --openai-only
export BINFER_TEST_KEY=$SECRET

mkctx "$T/ctx.ndjson" <<EOF2
S001-Q01	A	What is the rate limit?	The rate limit is 100 requests per minute.
S001-Q01	B	What does "café" mean?	Unicode: café, naïve, 東京 and a tab\there; quotes "x" and <b>tags</b>.
S001-Q02	A	Which header?	Send the header X-Limit: 5 \\ and a backslash.
EOF2
n=$(wc -l <"$T/ctx.ndjson")

# the chat requests the server received with a question (no warm-up), in order
received() { jq -c "select(.path == \"/v1/chat/completions\" and (.raw | contains(\"Question: \"))) | $2" "$1"; }
B="$BINFER -c $CFG -e openai -m mistral-small-3.1-24b-q8_0 --api-key-env BINFER_TEST_KEY -j 1"

# 1. a fresh run: each record's request is the body the server received
: >"$T/r.log"
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_r" --warmup 2 --cache "$T/cache"
expect_status 0 "fresh: exit 0"
printf '%s\n' "$out" >"$T/fresh.ndjson"
received "$T/r.log" .raw >"$T/raw.json"
jq -c '.request.body' "$T/fresh.ndjson" >"$T/body.json"
is "$(wc -l <"$T/raw.json" | tr -d ' ')" "$n" "fresh: $n requests received"
files_eq "$T/body.json" "$T/raw.json" "fresh: request.body is the body the server received, byte for byte"
sums=$(received "$T/r.log" .raw | while read -r s; do printf '%s' "$s" | jq -j . | sha256sum | cut -c1-64; done | tr '\n' ' ')
is "$(jq -r '.request.body_sha256' "$T/fresh.ndjson" | tr '\n' ' ')" "$sums" "fresh: body_sha256 is the SHA-256 of the bytes received"
is "$(jq -r '[.request.sent, .request.body_masked, .request.url, .request.server, .request.warmup_requests] | tojson' "$T/fresh.ndjson" | sort -u)" \
   "[true,false,\"$url_r/v1/chat/completions\",\"openai\",2]" "fresh: sent, unmasked, its URL, the server, 2 warm-ups before it"
is "$(jq -r '.request.body | fromjson | [.messages[0].role, .messages[0].content == $s, .seed, .temperature, .stream] | tojson' --arg s "$(jq -r .system_prompt "$T/ctx.ndjson" | head -n 1)" "$T/fresh.ndjson" | sort -u)" \
   '["system",true,42,0,false]' "fresh: the body holds the system prompt and the locked parameters"
is "$(jq -r '[.cache.hit, .cache.key == .request_hash, (.cache.first_obtained | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")), .cache.request_rebuilt] | tojson' "$T/fresh.ndjson" | sort -u)" \
   '[false,true,true,false]' "fresh: not a cache hit, its key, when obtained"
is "$(jq -r '[.server, .endpoint, .finish_reason, .request_hash == .cache.key] | tojson' "$T/fresh.ndjson" | sort -u)" \
   "[\"openai\",\"$url_r\",\"stop\",true]" "fresh: today's fields as they were"

# 2. the same records streamed: answered from the cache, with the request
# that obtained the answers (not streamed), stored in the entry
: >"$T/r.log"
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_r" --warmup 2 --cache "$T/cache" --stream
expect_status 0 "cached: exit 0"
printf '%s\n' "$out" >"$T/hit.ndjson"
is "$(chat_count "$T/r.log")" 0 "cached: nothing sent"
is "$(jq -r '.cache.hit' "$T/hit.ndjson" | sort -u)" true "cached: each record says it is a cache hit"
jq -c '.request' "$T/fresh.ndjson" >"$T/req1"
jq -c '.request' "$T/hit.ndjson" >"$T/req2"
files_eq "$T/req2" "$T/req1" "cached: the request that obtained the answer, not the streamed one built now"
is "$(jq -c '.cache.first_obtained' "$T/hit.ndjson" | tr '\n' ' ')" "$(jq -c '.cache.first_obtained' "$T/fresh.ndjson" | tr '\n' ' ')" \
   "cached: first obtained when the first run received it"

# 3. an entry written before binfer stored requests: the body built again, said
for f in $(find "$T/cache" -name '*.json' ! -name '.*'); do
	jq -c 'del(.request)' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_r" --warmup 0 --cache "$T/cache" --stream
expect_status 0 "old entries: exit 0"
printf '%s\n' "$out" >"$T/old.ndjson"
is "$(jq -r '[.cache.hit, .cache.request_rebuilt, .cache.first_obtained, (.request.body | fromjson | .stream), .request.warmup_requests, .request.url] | tojson' "$T/old.ndjson" | sort -u)" \
   "[true,true,null,true,null,\"$url_r/v1/chat/completions\"]" "old entries: a hit whose request is this run's, said so"

# 4. secrets: the API key in the content, a credential in --extra and in
# the endpoint's URL reach the server but no file binfer writes
mkctx "$T/ctx2.ndjson" <<EOF2
S002-Q01	A	What is the key?	The key is $SECRET and nothing else.
S002-Q01	B	Where?	Plain content.
EOF2
: >"$T/r.log"
u=$(printf '%s' "$url_r" | sed "s|://|://user:$PASS@|")
run --stdin "$T/ctx2.ndjson" $B --endpoint "$u" --warmup 1 --cache "$T/cache2" \
    --extra "{\"api_key\":\"$EXTRA_KEY\"}" -o "$T/secret.ndjson"
expect_status 0 "secrets: exit 0"
printf '%s\n' "$err" >"$T/secret.err"
ok grep -q "Bearer $SECRET" "$T/r.log" "secrets: the API key was sent"
ok grep -q "$EXTRA_KEY" "$T/r.log" "secrets: --extra's credential was sent"
leaks=$(grep -rl -e "$SECRET" -e "$EXTRA_KEY" "$T/secret.ndjson" "$T/secret.err" "$T/cache2" | tr '\n' ' ')
is "$leaks" "" "secrets: the keys in no output, message or cache entry"
leaks=$(grep -rl -e "$PASS" "$T/secret.ndjson" "$T/secret.err" "$T/cache2" | tr '\n' ' ')
is "$leaks" "" "secrets: the URL's password in no output, message or cache entry"
is "$(jq -r '[.request.body_masked, (.request.body | fromjson | .api_key), .request.url, .endpoint] | tojson' "$T/secret.ndjson" | sort -u)" \
   "[true,\"[MASKED]\",\"$url_r/v1/chat/completions\",\"$url_r\"]" "secrets: the body says it was masked; the URLs have no user information"
is "$(jq -r 'select(.condition == "A") | .request.body | fromjson | .messages[1].content | contains("The key is [MASKED] and")' "$T/secret.ndjson")" true \
   "secrets: the key in the prompt masked in the body"
received "$T/r.log" .raw | while read -r s; do printf '%s' "$s" | jq -j . | sha256sum | cut -c1-64; done >"$T/sums"
jq -r '.request.body_sha256' "$T/secret.ndjson" >"$T/sums-rec"
files_eq "$T/sums-rec" "$T/sums" "secrets: body_sha256 is still that of the bytes sent"

# 5. Ollama's /api/chat: the same, byte for byte
start_server o
run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_o" --warmup 1 --no-cache -j 1
expect_status 0 "ollama: exit 0"
printf '%s\n' "$out" >"$T/ollama.ndjson"
jq -c "select(.path == \"/api/chat\" and (.raw | contains(\"Question: \"))) | .raw" "$T/o.log" >"$T/raw-o.json"
jq -c '.request.body' "$T/ollama.ndjson" >"$T/body-o.json"
files_eq "$T/body-o.json" "$T/raw-o.json" "ollama: request.body is the body the server received"
is "$(jq -r '[.request.url, .request.warmup_requests, (.request.body | fromjson | .options.num_ctx) == .num_ctx, .cache.hit] | tojson' "$T/ollama.ndjson" | sort -u)" \
   "[\"$url_o/api/chat\",1,true,false]" "ollama: its URL, the warm-up, num_ctx as recorded, no cache"

done_testing
