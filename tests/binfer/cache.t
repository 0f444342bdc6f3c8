#!/bin/sh
# The request cache: a run killed at any instant resumes by running it
# again, with nothing lost or asked twice; SIGINT leaves valid output.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
start_server c
mkctx "$T/ctx.ndjson" <<EOF2
$(for i in $(seq 1 12); do printf 'S003-Q%02d\t%s\tQuestion %d?\tSlow [[SLOW:0.25]] content %d.\n' $(( (i + 1) / 2 )) $( [ $((i % 2)) = 1 ] && echo A || echo B) $i $i; done)
EOF2
entries() { find "$T/cache" -name '*.json' ! -name '.*' 2>/dev/null | wc -l | tr -d ' '; }
reqs() { asked "$T/c.log" 'Slow [[SLOW'; }
B="$BINFER -c $CFG -m qwen3-8b-q8_0 --endpoint $url_c -j 2 --cache $T/cache --warmup 1"

# 1. kill -9 in the middle
$B -o "$T/out1.ndjson" "$T/ctx.ndjson" 2>"$T/err1" &
bpid=$!
i=0
while [ "$(entries)" -lt 4 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -9 $bpid; wait $bpid 2>/dev/null
e=$(entries)
n1=$(reqs)
is "$((e >= 4 && e < 12))" 1 "killed with $e of 12 answers cached"
ok test ! -e "$T/out1.ndjson"
bad=0
for f in $(find "$T/cache" -name '*.json' ! -name '.*'); do jq -e .request_hash "$f" >/dev/null 2>&1 || bad=$((bad + 1)); done
is "$bad" 0 "every cache entry is whole"

# 2. the same command again finishes the work, asking only what was missing
run $B -o "$T/out2.ndjson" "$T/ctx.ndjson"
expect_status 0 "resume: exit 0"
is "$(jq -r '.question_id + .condition' "$T/out2.ndjson" | tr '\n' ' ')" "$(jq -r '.question_id + .condition' "$T/ctx.ndjson" | tr '\n' ' ')" \
   "resume: every record, in input order"
is "$(jq -r 'select(.error != null or .response_text == null)' "$T/out2.ndjson")" "" "resume: every record answered"
is "$(( $(reqs) - n1 ))" "$((12 - e))" "resume: only the $((12 - e)) missing requests sent"
is "$(entries)" 12 "resume: all 12 cached"

# 3. a third run asks nothing (not even warm-ups) and writes the same bytes
: >"$T/c.log"
run $B -o "$T/out3.ndjson" "$T/ctx.ndjson"
expect_status 0 "cached: exit 0"
is "$(chat_count "$T/c.log")" 0 "cached: no request at all"
files_eq "$T/out3.ndjson" "$T/out2.ndjson" "cached: output identical byte for byte"

# 4. --refresh asks again; --no-cache neither reads nor writes
: >"$T/c.log"
run $B -j 6 --refresh -o "$T/out4.ndjson" "$T/ctx.ndjson"
is "$(reqs)" 12 "--refresh: every request sent again"
files_eq "$T/out4.ndjson" "$T/out2.ndjson" "--refresh: same answers"
: >"$T/c.log"
run "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --endpoint "$url_c" -j 4 --no-cache --warmup 0 -o "$T/out5.ndjson" "$T/ctx.ndjson"
is "$(reqs)" 12 "--no-cache: every request sent"
ok test ! -e .binfer-cache
run "$BINFER" -c "$CFG" -m qwen3-8b-q8_0 --no-cache --refresh "$T/ctx.ndjson"
expect_status 2 "--no-cache with --refresh: usage error"

# 5. a damaged entry is asked again
f=$(find "$T/cache" -name '*.json' ! -name '.*' | head -n 1)
printf '{"request_hash":' >"$f"
: >"$T/c.log"
run $B -o "$T/out6.ndjson" "$T/ctx.ndjson"
like "$err" "damaged cache entry, asking again" "damaged entry: warned"
is "$(reqs)" 1 "damaged entry: asked again"
files_eq "$T/out6.ndjson" "$T/out2.ndjson" "damaged entry: same output"

# 6. another parameter is another request
: >"$T/c.log"
run $B -j 6 --num-predict 256 -o "$T/out7.ndjson" "$T/ctx.ndjson"
is "$(reqs)" 12 "changed num_predict: not answered from the cache"

# 7. SIGINT: in-flight requests finish, the output is valid, status 130
rm -rf "$T/cache"
$B -j 1 -o "$T/int.ndjson" "$T/ctx.ndjson" 2>"$T/interr" &
bpid=$!
i=0
while [ "$(entries)" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -INT $bpid
rc=0; wait $bpid || rc=$?
is "$rc" 130 "SIGINT: exit status 130"
like "$(cat "$T/interr")" "interrupted: wrote [0-9]+ of 12 records; run again" "SIGINT: says what it wrote"
k=$(grep -c '' "$T/int.ndjson")
is "$((k >= 2 && k < 12))" 1 "SIGINT: $k complete records written"
is "$(jq -r '.response_text' "$T/int.ndjson" | grep -c '^Answer to')" "$k" "SIGINT: every written record is whole JSON"
is "$(entries)" "$k" "SIGINT: the request in flight was finished and cached"
run $B -j 6 -o "$T/int.ndjson" "$T/ctx.ndjson"
files_eq "$T/int.ndjson" "$T/out2.ndjson" "SIGINT: a re-run completes the same output"

done_testing
