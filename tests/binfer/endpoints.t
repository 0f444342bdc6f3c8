#!/bin/sh
# Several endpoints (issue: the study across machines): requests spread over
# them, a dead endpoint's requests moved to the live ones, and the answers
# byte-identical to one endpoint's.  Against three llama-server processes
# when make deps-servers has built it, else three test servers.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

if have_llama; then
	kind=llama.cpp
	start() { start_llama "$1" -m "$LLAMA_MODEL" -c 2048 -np 2; }
	B="$BINFER -c $HERE/config.json -e openai -m llama-3.3-8b-q8_0 --num-predict 16 --warmup 0 --no-cache"
else
	diag "llama-server is not built (make deps-servers): using the test server"
	kind=ollama
	start() { start_server "$1"; }
	B="$BINFER -c $HERE/config.json -m qwen3-8b-q8_0 --warmup 0 --no-cache"
fi
start e1
start e2
start e3
mkctx "$T/ctx.ndjson" <<EOF2
$(for i in $(seq 1 24); do printf 'S001-Q%02d\t%s\tWhat is item %d?\tItem %d is [[SLOW:0.1]] number %d of the list.\n' $(( (i + 1) / 2 )) $( [ $((i % 2)) = 1 ] && echo A || echo B) $i $i $i; done)
EOF2
answers() { jq -c 'del(.endpoint, .timings, .request.url, .cache.first_obtained)' "$1"; }
sent() { if [ $kind = ollama ]; then asked "$T/$1.log" 'Item '; else grep -c 'request: POST /v1/chat/completions' "$T/$1.log"; fi; }

run --stdin "$T/ctx.ndjson" $B --endpoint "$url_e1" -j 2
expect_status 0 "one endpoint ($kind)"
printf '%s\n' "$out" >"$T/one.ndjson"
base1=$(sent e1)

printf '# the study'"'"'s servers\n%s\n\n%s/\n%s\n' "$url_e1" "$url_e2" "$url_e3" >"$T/endpoints.txt"
run --stdin "$T/ctx.ndjson" $B --endpoints "$T/endpoints.txt" -j 6
expect_status 0 "three endpoints from --endpoints FILE"
printf '%s\n' "$out" >"$T/three.ndjson"
is "$(answers "$T/three.ndjson" | cksum)" "$(answers "$T/one.ndjson" | cksum)" "three endpoints: the same records as one"
is "$(jq -r .endpoint "$T/three.ndjson" | sort -u | wc -l | tr -d ' ')" 3 "three endpoints: each one answered"
is "$(( $(sent e1) - base1 + $(sent e2) + $(sent e3) ))" 24 "three endpoints: each request sent once"

# a dead endpoint from the start: its share goes to the live ones
dead=http://127.0.0.1:$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run --stdin "$T/ctx.ndjson" $B --endpoint "$url_e2" --endpoint "$dead" --endpoint "$url_e3" -j 6
expect_status 0 "dead endpoint: exit 0"
like "$err" "$dead: no server answers; its requests go to the other endpoints" "dead endpoint: said"
printf '%s\n' "$out" >"$T/dead.ndjson"
is "$(jq -r 'select(.error != null) | .error' "$T/dead.ndjson")" "" "dead endpoint: no record failed"
is "$(jq -r .endpoint "$T/dead.ndjson" | grep -c "$dead")" 0 "dead endpoint: answered nothing"

# an endpoint that dies in the middle of the run
: >"$T/mid.err"
$B --endpoint "$url_e1" --endpoint "$url_e2" --endpoint "$url_e3" -j 6 --retry-delay 50 "$T/ctx.ndjson" \
    >"$T/mid.ndjson" 2>"$T/mid.err" &
bpid=$!
sleep 0.4
kill "$pid_e3"
wait $bpid
is "$?" 0 "an endpoint killed mid-run: exit 0"
is "$(answers "$T/mid.ndjson" | cksum)" "$(answers "$T/one.ndjson" | cksum)" "an endpoint killed mid-run: the same records as one endpoint"

done_testing
