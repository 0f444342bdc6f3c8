#!/bin/sh
# What binfer says while and after it runs: a one-line summary at the end of
# every run (terminal or not); a run in which no record was answered exits
# non-zero whatever --allow-failures allows; on a terminal, a progress line
# with count, total, rate, tokens/s and an ETA; a server that does not
# answer is said at once with its URL, and one that dies mid-run stops the
# run (nothing committed, resumable) instead of failing every record.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
cd "$T" || exit 1
start_server s
mkctx ctx.ndjson <<EOF2
S001-Q01	A	What is the limit?	The limit is 100 requests per minute.
S001-Q01	B	What is the limit?	The limit is one hundred requests per minute.
S001-Q02	A	Where?	Nowhere.	excluded:NO_HTML_MAPPING
S001-Q02	B	Where is it?	It is [[400]] here.
EOF2
B="$BINFER -c $CFG -m qwen3-8b-q8_0 --endpoint $url_s --warmup 0"

# the summary line, not on a terminal
run "$BINFER" -e extractive --no-cache ctx.ndjson
expect_status 0 "extractive run"
is "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "extractive: one line on stderr"
like "$err" "^binfer: 4 records in [0-9]+:[0-9]{2}: 3 answered, 1 excluded, 0 failed$" "extractive: the summary"
run $B --cache cache --allow-failures 1 -o out.ndjson ctx.ndjson
expect_status 0 "a run with one failure allowed"
like "$(printf '%s\n' "$err" | tail -n 1)" \
   "^binfer: 4 records in [0-9]+:[0-9]{2}: 2 answered, 1 excluded, 1 failed; [0-9]+ tok/s in, [0-9.]+ tok/s out; wrote out.ndjson$" \
   "server run: the summary is the last line, with the servers' pace"
run $B --cache cache --allow-failures 1 -o out.ndjson ctx.ndjson
like "$(printf '%s\n' "$err" | tail -n 1)" "^binfer: 4 records in [0-9:]+: 2 answered \(2 from the cache\), 1 excluded, 1 failed; .*wrote out.ndjson$" \
   "resumed run: the answers from the cache counted"

# a run in which no record was answered fails, whatever --allow-failures says
mkctx bad.ndjson <<EOF2
S002-Q01	A	Bad?	A [[400]] request.
S002-Q01	B	Bad too?	Another [[400]] request.
EOF2
run $B --no-cache --allow-failures 10 -o bad-out.ndjson bad.ndjson
expect_status 1 "every record failed: exit 1 despite --allow-failures"
like "$err" "binfer: no record was answered: every one asked failed or did not fit" "every record failed: said"
is "$(jq -r .exclusion_reason bad-out.ndjson | sort -u)" INFERENCE_ERROR "every record failed: the records say why"

# the progress line on a terminal: count of total, rate, tokens/s, ETA
if command -v script >/dev/null 2>&1; then
	mkctx slow.ndjson <<EOF2
$(for i in 1 2 3 4 5 6; do printf 'S003-Q%02d\tA\tQuestion %d?\tSlow [[SLOW:0.3]] content %d.\n' $i $i $i; done)
EOF2
	CTXBENCH_PROGRESS=1 script -qec "$B --no-cache -o slow-out.ndjson slow.ndjson" /dev/null >tty.out 2>&1 || :
	tr '\r' '\n' <tty.out >tty.lines
	like "$(cat tty.lines)" "binfer: [1-5]/6  [0-9.]+ rec/s  ETA [0-9]+:[0-9]{2}  [0-9]+ tok/s in  [0-9.]+ tok/s out  0 failed" \
	   "terminal: count of total, rate, ETA, tokens/s in and out, failures"
	like "$(cat tty.lines)" "binfer: 6 records in [0-9:]+: 6 answered, 0 excluded, 0 failed" "terminal: the summary too"
else
	skip "script(1) is not installed: no terminal for the progress line"
	skip "script(1) is not installed"
fi

# no server at the endpoint: said at once, with the URL and how long binfer tries
dead=http://127.0.0.1:$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run "$BINFER" -c "$CFG" -m llama-3.3-8b-q8_0 -e openai --endpoint "$dead" --retries 2 --retry-delay 300 --no-cache ctx.ndjson
expect_status 1 "no server: exit 1"
like "$(printf '%s\n' "$err" | head -n 1)" \
   "^binfer: $dead/props: no server answers \(Couldn.t connect to server\); trying again 2 times over 1 s \(--retries, --retry-delay\)$" \
   "no server: the first failure is said before binfer tries again, naming the URL"
like "$(printf '%s\n' "$err" | tail -n 1)" "^binfer: $dead/props: no server answers" "no server: then the error"

# a server that dies mid-run: said at once, the run stops, nothing is
# committed and a second run resumes from the cache
start_server d
mkctx long.ndjson <<EOF2
$(for i in $(seq 1 20); do printf 'S004-Q%02d\tA\tQuestion %d?\tSlow [[SLOW:0.2]] content %d.\n' $i $i $i; done)
EOF2
entries() { find cache-d -name '*.json' ! -name '.*' 2>/dev/null | wc -l | tr -d ' '; }
$BINFER -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_d" --warmup 0 --cache cache-d --retries 2 --retry-delay 50 \
    -o long-out.ndjson long.ndjson 2>dies.err &
bpid=$!
i=0
while [ "$(entries)" -lt 3 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill "$pid_d"; wait "$pid_d" 2>/dev/null
rc=0; wait $bpid || rc=$?
is "$rc" 1 "server gone: exit 1"
like "$(cat dies.err)" "^binfer: $url_d: no connection \(Couldn.t connect to server\); its requests are tried again \(--retries\)" \
   "server gone: said at once, naming the URL"
like "$(tail -n 1 dies.err)" "^binfer: $url_d: no server answers any more: stopped after [0-9:]+ with [0-9]+ records? done \(.*\); nothing written to long-out.ndjson; run again to resume from the cache$" \
   "server gone: the run stops and says what to do"
unlike "$(cat dies.err)" "INFERENCE_ERROR" "server gone: no record excluded for it"
ok test ! -e long-out.ndjson
k=$(entries)
start_server d2
run "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_d2" --warmup 0 --cache cache-d -o long-out.ndjson long.ndjson
expect_status 0 "server gone: the next run completes"
is "$(jq -r 'select(.error == null) | .question_id' long-out.ndjson | wc -l | tr -d ' ')" 20 "server gone: every record answered in the end"
like "$(printf '%s\n' "$err" | tail -n 1)" "20 answered \($k from the cache\)" "server gone: what the first run finished came from the cache"

done_testing
