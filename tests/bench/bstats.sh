#!/bin/sh
# bench/bstats.sh - the full analysis of a synthetic 10-model x 286-question
# study (2,860 pairs, every bootstrap at 10,000 resamples) by bstats and by a
# Python script doing the same with scipy / statsmodels / scikit-learn
# (tests/bstats/bench-ref.py), in one run; prints both times and the ratio.
set -eu
: "${CTXBENCH_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${CTXBENCH_BUILD:=$CTXBENCH_TOP/build}"
B=${CTXBENCH_BSTATS:-$CTXBENCH_BUILD/bin/bstats}
W=$CTXBENCH_BUILD/bench/bstats
mkdir -p "$W"
python3 "$CTXBENCH_TOP/tests/bstats/gen-study.py" 10 286 7 >"$W/study.ndjson"
echo "study: $(wc -l <"$W/study.ndjson") scored records"

# best of 3 runs: "WALL CPU" seconds (CPU = user + system, steadier on a
# shared machine)
best() {
	bw="" bc=""
	for _ in 1 2 3; do
		/usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >/dev/null ||
			{ echo "bench: $1 failed" >&2; exit 1; }
		w=$(awk '{print $1}' "$W/time"); c=$(awk '{print $2 + $3}' "$W/time")
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" -eq 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" -eq 1 ]; then bc=$c; fi
	done
	echo "$bw $bc"
}
[ -x "$B" ] || { echo "bench: $B is missing (make all)" >&2; exit 1; }
set -- $(best "$B" -r "$W/report.md" -f "$W/figures" -o "$W/results.ndjson" "$W/study.ndjson")
bw=$1 bc=$2
set -- $(best /usr/bin/python3 "$CTXBENCH_TOP/tests/bstats/bench-ref.py" "$W/study.ndjson")
pw=$1 pc=$2
echo "bstats (report, results, figures): wall ${bw} s, cpu ${bc} s"
echo "python scipy/statsmodels/sklearn:  wall ${pw} s, cpu ${pc} s"
echo "ratio python/bstats: wall $(echo "$pw / $bw" | bc -l | xargs printf '%.1f')x, cpu $(echo "$pc / $bc" | bc -l | xargs printf '%.1f')x"
