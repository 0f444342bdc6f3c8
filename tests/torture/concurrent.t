#!/bin/sh
# Concurrent writers other than bfetch (whose archive lock tests/bfetch/lock.t
# checks): four binfer processes sharing one cache, and four bscore-merge and
# four bstats processes writing the same outputs at once (every output of
# each: merge's scored records, raw-data.csv and details; bstats' -o, -r,
# --html and the figures directory).  Each process succeeds and every file
# ends whole and equal to what one process writes (each output is a rename
# of a complete temporary; the cache's entries too).  A figures directory
# that does not exist yet is the exception: each process stages its own and
# one rename makes it; a process whose rename finds it made stops with one
# message and writes nothing, so at least one succeeds and every file is
# still whole.
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
# the figures directory not there yet: one process makes it
for k in 1 2 3 4; do
	sh -c "$BSTATS $pipe/scored.ndjson" >/dev/null 2>"$T/err$k" &
	eval "p$k=\$!"
done
won=0
for k in 1 2 3 4; do
	rc=0
	eval "wait \$p$k" || rc=$?
	if [ "$rc" -eq 0 ]; then
		won=$((won + 1))
	else
		is "$rc" 1 "bstats, a new figures directory: process $k stops with exit 1"
		like "$(cat "$T/err$k")" "^bstats: $T/fig: cannot write: Directory not empty; no output written\$" \
		    "bstats, a new figures directory: process $k says the directory was made meanwhile"
	fi
done
DESC="bstats, a new figures directory: $won of 4 processes succeed" ok test "$won" -ge 1
same_stats "bstats, a new figures directory"
four "$BSTATS $pipe/scored.ndjson" "bstats, same outputs"
same_stats "bstats, same outputs"
is "$(find "$T" -maxdepth 1 -name '.*.??????' | wc -l | tr -d ' ')" 0 "no temporary left"
done_testing
