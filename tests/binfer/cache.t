#!/bin/sh
# The request cache: a run killed at any instant resumes by running it
# again, with nothing lost or asked twice; SIGINT leaves no partial -o file.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

CFG=$HERE/config.json
start_server c
mkctx "$T/ctx.ndjson" <<EOF2
$(for i in $(seq 1 12); do printf 'S003-Q%02d\t%s\tQuestion %d?\tSlow [[SLOW:0.25]] content %d.\n' $(( (i + 1) / 2 )) $( [ $((i % 2)) = 1 ] && echo A || echo B) $i $i; done)
EOF2
entries() { find "$T/cache" -name '*.json' ! -name '.*' 2>/dev/null | wc -l | tr -d ' '; }
reqs() { asked "$T/c.log" 'Slow [[SLOW'; }
# same_answers A B MSG: A and B byte for byte but for the cache
# provenance, which is each run's own (a hit in one, a request in another)
same_answers() {
	jq -c 'del(.cache)' "$1" >"$1.nc"
	jq -c 'del(.cache)' "$2" >"$2.nc"
	files_eq "$1.nc" "$2.nc" "$3"
}
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
same_answers "$T/out3.ndjson" "$T/out2.ndjson" "cached: output identical byte for byte but for the cache provenance"
is "$(jq -r '.cache.hit' "$T/out3.ndjson" | sort -u)" true "cached: every record says it is a cache hit"
is "$(jq -r 'select(.cache.hit) | .request_hash == .cache.key and .request.body_sha256 != null and .cache.first_obtained != null and (.cache.request_rebuilt | not)' "$T/out3.ndjson" | sort -u)" true \
   "cached: each names its key, when it was first obtained, and the request stored with it"
jq -c '.request' "$T/out2.ndjson" >"$T/req2"
jq -c '.request' "$T/out3.ndjson" >"$T/req3"
files_eq "$T/req3" "$T/req2" "cached: the request recorded is the one that obtained the answer"
jq -c '{k: .cache.key, t: .cache.first_obtained}' "$T/out2.ndjson" | sort >"$T/when2"
jq -c '{k: .cache.key, t: .cache.first_obtained}' "$T/out3.ndjson" | sort >"$T/when3"
files_eq "$T/when3" "$T/when2" "cached: first obtained when the answer first came"

# 4. --refresh asks again; --no-cache neither reads nor writes
: >"$T/c.log"
run $B -j 6 --refresh -o "$T/out4.ndjson" "$T/ctx.ndjson"
is "$(reqs)" 12 "--refresh: every request sent again"
same_answers "$T/out4.ndjson" "$T/out2.ndjson" "--refresh: same answers"
is "$(jq -r '.cache.hit' "$T/out4.ndjson" | sort -u)" false "--refresh: no record says it is a cache hit"
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
same_answers "$T/out6.ndjson" "$T/out2.ndjson" "damaged entry: same output"

# 6. another parameter is another request
: >"$T/c.log"
run $B -j 6 --num-predict 256 -o "$T/out7.ndjson" "$T/ctx.ndjson"
is "$(reqs)" 12 "changed num_predict: not answered from the cache"

# 7. SIGINT (Ctrl-C): the requests in flight finish and are cached, and
# the -o file is not committed: a partial file under the final name would
# pass for a finished stage.  What was there before stays as it was; the
# same command again completes the output from the cache.
# interrupt OUT ARGS...: $B -j 1 ARGS with stdout in OUT, stderr in
# $T/interr, from an empty cache, interrupted once two answers are cached;
# its exit status in $rc
interrupt() {
	rm -rf "$T/cache"
	_o=$1; shift
	$B -j 1 "$@" >"$_o" 2>"$T/interr" &
	bpid=$!
	i=0
	while [ "$(entries)" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	kill -INT $bpid
	rc=0; wait $bpid || rc=$?
}
printf 'an older output\n' >"$T/int.ndjson"
interrupt /dev/null -o "$T/int.ndjson" "$T/ctx.ndjson"
is "$rc" 130 "SIGINT: exit status 130"
is "$(cat "$T/int.ndjson")" "an older output" "SIGINT: the output file is not replaced by a partial one"
is "$(find "$T" -maxdepth 1 -name '.int.ndjson*' | wc -l | tr -d ' ')" 0 "SIGINT: no temporary file left"
like "$(tail -n 1 "$T/interr")" "^binfer: interrupted after [0-9:]+ with [0-9]+ records? done \(.*\); nothing written to $T/int.ndjson; run again to resume from the cache$" \
   "SIGINT: the last line says what was done and that nothing was written"
k=$(entries)
is "$((k >= 2 && k < 12))" 1 "SIGINT: $k answers cached (the request in flight finished)"
: >"$T/c.log"
run $B -j 6 -o "$T/int.ndjson" "$T/ctx.ndjson"
same_answers "$T/int.ndjson" "$T/out2.ndjson" "SIGINT: a re-run completes the same output"
is "$(reqs)" "$((12 - k))" "SIGINT: the re-run asks only the $((12 - k)) missing requests"

# 8. SIGINT with the records on standard output: those written are whole
interrupt "$T/int.out" "$T/ctx.ndjson"
is "$rc" 130 "SIGINT, standard output: exit status 130"
k=$(grep -c '' "$T/int.out")
is "$((k >= 2 && k < 12))" 1 "SIGINT, standard output: $k records written"
is "$(jq -r '.response_text' "$T/int.out" | grep -c '^Answer to')" "$k" "SIGINT, standard output: every written record is whole"
like "$(tail -n 1 "$T/interr")" "; $k records? written; run again to resume from the cache$" "SIGINT, standard output: says how many were written"

done_testing
