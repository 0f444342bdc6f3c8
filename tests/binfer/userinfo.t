#!/bin/sh
# An endpoint's URL given with user information (http://user:password@host)
# is named without it everywhere binfer names the endpoint: every message
# on stderr (a server that does not answer, several endpoints where some
# are dead, a server that cannot lock a parameter), the response and judge
# records, the cache entries, and an answer read back from an entry an
# older binfer wrote with the password in it.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
PASS=pw-userinfo-e5a09c
with_pass() { printf '%s' "$1" | sed "s|://|://user:$PASS@|"; }
# no_pass WHAT FILE...: none of the files holds the password
no_pass() {
	_what=$1; shift
	is "$(grep -l -e "$PASS" "$@" | tr '\n' ' ')" "" "$_what: no password"
}
free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkctx "$T/ctx.ndjson" <<EOF2
S001-Q01	A	What is the rate limit?	The rate limit is 100 requests per minute.
S001-Q01	B	What is the rate limit?	Limits: 100 per minute.
EOF2

# 1. a lone endpoint where no server answers: the retry notice, then death
dead=http://127.0.0.1:$(free_port)
run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -e openai -m mistral-small-3.1-24b-q8_0 \
    --endpoint "$(with_pass "$dead")" --retries 1 --retry-delay 1 --no-cache
expect_status 1 "dead endpoint: exit 1"
printf '%s\n' "$err" >"$T/dead.err"
like "$err" "$dead/props: no server answers \\(.*\\); trying again 1 time" "dead endpoint: the retry notice names the endpoint"
like "$err" "$dead/props: no server answers: " "dead endpoint: the error names the endpoint"
no_pass "dead endpoint: stderr" "$T/dead.err"

# 2. several endpoints, dead ones set aside, then none left
start_server o
dead2=http://127.0.0.1:$(free_port)
run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --warmup 0 --no-cache \
    --endpoint "$(with_pass "$dead")" --endpoint "$(with_pass "$url_o")"
expect_status 0 "one dead of two: exit 0"
printf '%s\n' "$out" >"$T/two.ndjson"
printf '%s\n' "$err" >"$T/two.err"
like "$err" "$dead: no server answers; its requests go to the other endpoints" "one dead of two: said, named"
is "$(jq -r .endpoint "$T/two.ndjson" | sort -u)" "$url_o" "one dead of two: the records name the live endpoint"
no_pass "one dead of two: stderr and records" "$T/two.err" "$T/two.ndjson"
run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --warmup 0 --no-cache \
    --endpoint "$(with_pass "$dead")" --endpoint "$(with_pass "$dead2")"
expect_status 1 "two dead: exit 1"
printf '%s\n' "$err" >"$T/none.err"
like "$err" "$dead: no server answers at any endpoint" "two dead: said, named"
no_pass "two dead: stderr" "$T/none.err"

# 3. a plain OpenAI server cannot lock every parameter: said, named
start_server r --openai-only
run --stdin "$T/ctx.ndjson" "$BINFER" -c "$CFG" -e openai -m mistral-small-3.1-24b-q8_0 \
    --endpoint "$(with_pass "$url_r")" --warmup 1 --no-cache
expect_status 0 "cannot lock: exit 0"
printf '%s\n' "$err" >"$T/lock.err"
like "$err" "$url_r: server kind openai: cannot lock " "cannot lock: said, named"
no_pass "cannot lock: stderr" "$T/lock.err"

# 4. the judge's records and cache entries
jq -c '. + {model_id: "qwen3-8b-q8_0", model_family: "qwen3", tier: "small", engine: "ollama",
      response_text: "It is 100 requests per minute."}' "$T/ctx.ndjson" >"$T/resp.ndjson"
J="$BINFER --judge -c $CFG -m judge-70b --model-tag judge:latest --warmup 1 --cache $T/jcache"
run --stdin "$T/resp.ndjson" $J --endpoint "$(with_pass "$url_o")"
expect_status 0 "judge: exit 0"
printf '%s\n' "$out" >"$T/judge.ndjson"
printf '%s\n' "$err" >"$T/judge.err"
is "$(jq -c '[.judge.endpoint, .judge.request.url, .judge.cache.hit]' "$T/judge.ndjson" | sort -u)" \
   "[\"$url_o\",\"$url_o/api/chat\",false]" "judge: judge.endpoint and its request's URL without user information"
no_pass "judge: records, stderr and cache" "$T/judge.ndjson" "$T/judge.err" -r "$T/jcache"
run --stdin "$T/resp.ndjson" $J --endpoint "$(with_pass "$url_o")"
expect_status 0 "judge from the cache: exit 0"
printf '%s\n' "$out" >"$T/judge2.ndjson"
is "$(jq -c '[.judge.endpoint, .judge.cache.hit]' "$T/judge2.ndjson" | sort -u)" \
   "[\"$url_o\",true]" "judge from the cache: judge.endpoint without user information"

# 5. entries an older binfer wrote: the endpoint with its password, no request
for f in $(find "$T/jcache" -name '*.json' ! -name '.*'); do
	jq -c --arg e "$(with_pass "$url_o")" 'del(.request) | .endpoint = $e' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
DESC="old entries: the password planted" ok grep -rq -e "$PASS" "$T/jcache"
run --stdin "$T/resp.ndjson" $J --endpoint "$url_o"
expect_status 0 "old entries: exit 0"
printf '%s\n' "$out" >"$T/judge3.ndjson"
is "$(jq -c '[.judge.endpoint, .judge.request.url, .judge.cache.hit, .judge.cache.request_rebuilt]' "$T/judge3.ndjson" | sort -u)" \
   "[\"$url_o\",\"$url_o/api/chat\",true,true]" "old entries: the record names the endpoint without user information"
no_pass "old entries: records" "$T/judge3.ndjson"

done_testing
