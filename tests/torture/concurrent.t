#!/bin/sh
# Concurrent writers other than bfetch (whose archive lock tests/bfetch/lock.t
# checks): four binfer processes sharing one cache, and four bscore-merge and
# four bstats processes writing the same outputs at once.  Each process
# succeeds and every file ends whole and equal to what one process writes
# (each output is a rename of a complete temporary; the cache's entries too).
. "${0%/*}/../lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed"
W=$T
. "$TOP/tests/torture/cases.sh"
BIN=$CTXBENCH_BUILD/bin
pipe=$CTXBENCH_BUILD/torture/pipe
pipeline_once "$pipe" || { echo "Bail out! examples/pipeline.sh failed"; exit 1; }
cfg=$pipe/study/benchmark-config.json
head -n 4 "$pipe/counted.ndjson" >"$T/counted.ndjson"

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
strip() { jq -c 'del(.timings)' "$1"; }

"$BIN/binfer" -c "$cfg" -m extractive-baseline -e extractive --cache "$T/c0" \
    -o "$T/r0.ndjson" "$T/counted.ndjson" 2>"$T/err"
four "$BIN/binfer -c $cfg -m extractive-baseline -e extractive --cache $T/cache -o $T/r@K@.ndjson $T/counted.ndjson" \
    "binfer, one cache"
for k in 1 2 3 4; do
	is "$(strip "$T/r$k.ndjson")" "$(strip "$T/r0.ndjson")" "binfer, one cache: process $k's results are one process's"
done
is "$(find "$T/cache" -type f ! -name '.*' | wc -l | tr -d ' ')" \
    "$(find "$T/c0" -type f ! -name '.*' | wc -l | tr -d ' ')" "binfer, one cache: as many entries as one process writes"
is "$(find "$T/cache" -name '.*' -type f | wc -l | tr -d ' ')" 0 "binfer, one cache: no temporary left"

"$BIN/bscore-merge" merge -k "$pipe/key.json" -r "$pipe/responses.ndjson" -o "$T/s0.ndjson" \
    --raw-data "$T/raw0.csv" "$pipe/autoscore.ndjson" 2>"$T/err"
four "$BIN/bscore-merge merge -k $pipe/key.json -r $pipe/responses.ndjson -o $T/s.ndjson --raw-data $T/raw.csv $pipe/autoscore.ndjson" \
    "bscore-merge, same outputs"
ok cmp -s "$T/s.ndjson" "$T/s0.ndjson"
ok cmp -s "$T/raw.csv" "$T/raw0.csv"

"$BIN/bstats" -r "$T/rep0.md" -o "$T/res0.ndjson" "$pipe/scored.ndjson" 2>"$T/err"
four "$BIN/bstats -r $T/rep.md -o $T/res.ndjson $pipe/scored.ndjson" "bstats, same outputs"
ok cmp -s "$T/rep.md" "$T/rep0.md"
ok cmp -s "$T/res.ndjson" "$T/res0.ndjson"
is "$(find "$T" -maxdepth 1 -name '.*.??????' | wc -l | tr -d ' ')" 0 "no temporary left"
done_testing
