#!/bin/sh
# Concurrent writers other than bfetch (whose archive lock tests/bfetch/lock.t
# checks): four binfer processes sharing one cache (against binfer's test
# server, whose answers are cached), and four bscore-merge and
# four bstats processes writing the same outputs at once (every output of
# each: merge's scored records, raw-data.csv and details; bstats' -o, -r,
# --html and the figures directory).  Each process succeeds and every file
# ends whole and equal to what one process writes (each output is a rename
# of a complete temporary; the cache's entries too).
. "${0%/*}/../lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed"
W=$T
. "$TOP/tests/torture/cases.sh"
BIN=$CTXBENCH_BUILD/bin
pipe=$CTXBENCH_BUILD/torture/pipe
pipeline_once "$pipe" || { echo "Bail out! examples/pipeline.sh failed"; exit 1; }
cfg=$pipe/study/benchmark-config.json

# four CMD WHAT: start CMD (@K@ in it: the process's number) four times at
# once and wait for each
four() {
	for k in 1 2 3 4; do
		sh -c "$(printf '%s' "$1" | sed "s/@K@/$k/g")" >/dev/null 2>"$T/err$k" &
		eval "p$k=\$!"
	done
	for k in 1 2 3 4; do
		eval "wait \$p$k"
		DESC="$2: process $k succeeds" ok test $? -eq 0
	done
}

# binfer against its test server (tests/binfer/server.py), whose answers it
# caches (the extractive engine needs no cache)
. "$TOP/tests/binfer/lib.sh"
HERE=$TOP/tests/binfer
start_server c
for i in 1 2 3 4 5 6; do
	printf 'S003-Q%02d\tA\tQuestion %d?\tContent %d.\n' $i $i $i
done | mkctx "$T/ctx.ndjson"
B="$BINFER -c $HERE/config.json -m qwen3-8b-q8_0 --endpoint $url_c -j 2 --warmup 1"
strip() { jq -c 'del(.timings, .cache)' "$1"; }
$B --cache "$T/c0" -o "$T/r0.ndjson" "$T/ctx.ndjson" 2>"$T/err"
is "$(jq -r .response "$T/r0.ndjson" | grep -c .)" 6 "binfer, one process: six answers"
four "$B --cache $T/cache -o $T/r@K@.ndjson $T/ctx.ndjson" "binfer, one cache"
for k in 1 2 3 4; do
	is "$(strip "$T/r$k.ndjson")" "$(strip "$T/r0.ndjson")" "binfer, one cache: process $k's results are one process's"
done
n0=$(find "$T/c0" -type f ! -name '.*' | wc -l | tr -d ' ')
DESC="binfer: one process caches its answers ($n0 entries)" ok test "$n0" -ge 6
is "$(find "$T/cache" -type f ! -name '.*' | wc -l | tr -d ' ')" "$n0" \
    "binfer, one cache: as many entries as one process writes"
is "$(find "$T/cache" -name '.*' -type f | wc -l | tr -d ' ')" 0 "binfer, one cache: no temporary left"

"$BIN/bscore-merge" merge -k "$pipe/key.json" -r "$pipe/responses.ndjson" -o "$T/s0.ndjson" \
    --raw-data "$T/raw0.csv" --details "$T/d0.json" "$pipe/autoscore.ndjson" 2>"$T/err"
four "$BIN/bscore-merge merge -k $pipe/key.json -r $pipe/responses.ndjson -o $T/s.ndjson --raw-data $T/raw.csv --details $T/d.json $pipe/autoscore.ndjson" \
    "bscore-merge, same outputs"
ok cmp -s "$T/s.ndjson" "$T/s0.ndjson"
ok cmp -s "$T/raw.csv" "$T/raw0.csv"
ok cmp -s "$T/d.json" "$T/d0.json"

BSTATS="$BIN/bstats -r $T/rep.md -o $T/res.ndjson --html $T/b.html -f $T/fig"
"$BIN/bstats" -r "$T/rep0.md" -o "$T/res0.ndjson" --html "$T/b0.html" -f "$T/fig0" \
    "$pipe/scored.ndjson" 2>"$T/err"
# same_stats: every output equal to the one process's
same_stats() {
	ok cmp -s "$T/rep.md" "$T/rep0.md"
	ok cmp -s "$T/res.ndjson" "$T/res0.ndjson"
	ok cmp -s "$T/b.html" "$T/b0.html"
	is "$(cd "$T/fig" && find . -type f | sort | xargs sha256sum)" \
	    "$(cd "$T/fig0" && find . -type f | sort | xargs sha256sum)" "$1: the figures are one process's"
}
# over a previous run's outputs (a figures directory that does not exist
# yet, made by several processes at once, is not safe: ctxbench(7))
sh -c "$BSTATS $pipe/scored.ndjson" >/dev/null 2>"$T/err"
four "$BSTATS $pipe/scored.ndjson" "bstats, same outputs"
same_stats "bstats, same outputs"
is "$(find "$T" -maxdepth 1 -name '.*.??????' | wc -l | tr -d ' ')" 0 "no temporary left"
done_testing
