#!/bin/sh
# bread.sh - `make bench` for bread (issue 4): bread against Mozilla
# Readability.js 0.6.0 on linkedom, on the same pages in the same run.
#
# Prints pages per second of each side, by CPU time (user + system: bread's
# whole process, start-up and reading included; the reference's timed
# rounds) and by wall time (each in one process, over several
# rounds of varied pages: tests/bread/page-list; bread run before and
# after the reference, its figures the mean of the two), the speed ratio, and the
# agreement of the two texts per page: 4-gram shingle F1 over \w+ tokens
# (the metric of tests/bread/conform.py), and exact title agreement.
# The reference is installed from npm into $CTXBENCH_BUILD/bench-node.
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
BREAD=${CTXBENCH_BREAD:-$BUILD/bin/bread}
ROUNDS=${BREAD_BENCH_ROUNDS:-3}
NODE_DIR=$BUILD/bench-node
PY=/usr/bin/python3

. "$TOP/tests/bench/bench-lib"
bench_npm "$NODE_DIR" @mozilla/readability@0.6.0 linkedom@0.18

W=$(mktemp -d "${TMPDIR:-/tmp}/bread-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
"$TOP/tests/bread/page-list" >"$W/list"
n=$(wc -l <"$W/list" | tr -d ' ')

# bread: all pages, ROUNDS times, in one process, run twice: once before
# the reference and once after it.  bread's run lasts about a second and
# the reference's half a minute; on a shared machine a single short run
# measures whatever the neighbours did in that second, and the two runs
# around the reference see the load the reference saw.  Both runs count.
# A run's CPU time is the bread process's rusage (bench_rusage).
bench_repeat "$W/list" "$ROUNDS" >"$W/list.all"
run_bread() {	# output timefile
	_o=$1 _t=$2
	set --
	while IFS= read -r f; do set -- "$@" "$f"; done <"$W/list.all"
	bench_rusage "$_o" "$BREAD" --json "$@" >"$W/rusage"
	awk '{ print $2, $3 }' "$W/rusage" >"$_t"
}
t0=$(date +%s%N)
run_bread "$W/bread.all" "$W/bread.time"
t1=$(date +%s%N)
head -n "$n" "$W/bread.all" >"$W/bread.ndjson"

# Readability.js on linkedom: the same, in one node process
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$W/list"
BREAD_BENCH_NODE=$NODE_DIR BREAD_BENCH_ROUNDS=$ROUNDS \
	node "$TOP/tests/bread/bench-ref.mjs" "$@" >"$W/ref.ndjson" 2>"$W/ref.err"
ref_ms=$(sed -n 's/^ms=\([0-9]*\).*/\1/p' "$W/ref.err")
ref_cpu=$(sed -n 's/.* cpu_ms=\([0-9]*\).*/\1/p' "$W/ref.err")

t2=$(date +%s%N)
run_bread "$W/bread2.all" "$W/bread2.time"
t3=$(date +%s%N)
cmp -s "$W/bread.all" "$W/bread2.all" || {
	echo "bench: bread's two runs differ" >&2
	exit 1
}
bread_ms=$(( (t1 - t0 + t3 - t2) / 2000000 ))
bread_cpu=$(cat "$W/bread.time" "$W/bread2.time" |
	awk '{ s += $1 + $2 } END { printf "%d", s * 500 }')

PYTHONDONTWRITEBYTECODE=1 $PY - "$TOP/tests/bread" "$W/bread.ndjson" "$W/ref.ndjson" \
	"$n" "$ROUNDS" "$bread_ms" "$ref_ms" "$bread_cpu" "$ref_cpu" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import conform
b = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
r = [json.loads(l) for l in open(sys.argv[3], encoding="utf-8")]
n, rounds, bms, rms = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
rows = []
for x, y in zip(b, r):
    p, q = conform.pr(x["text"], y["text"] or "")
    f = 2 * p * q / (p + q) if p + q else 0.0
    parts = x["file"].split("/")
    name = parts[-2] if parts[-1] == "source.html" else parts[-2] + "/" + parts[-1]
    rows.append((f, name, p, q, x["title"] == y["title"]))
rows.sort()
print("per-page agreement (bread vs Readability.js on linkedom), lowest first:")
for f, name, p, q, t in rows:
    if f < 0.999 or not t:
        print("  %-42s F1=%.3f P=%.3f R=%.3f%s" % (name, f, p, q, "" if t else "  title differs"))
same = sum(1 for x in rows if x[0] >= 0.999)
print("  (%d of %d pages agree with F1 >= 0.999; not listed)" % (same, len(rows)))
bcpu, rcpu = float(sys.argv[8]), float(sys.argv[9])
def rate(ms):
    return n * rounds / (ms / 1000.0) if ms else float("inf")
print("pages: %d x %d rounds, each side in one process (bread's figures: the mean"
      " of its runs before and after the reference's)" % (n, rounds))
print("                            CPU (user+sys)       wall")
print("bread:                       %8.1f pages/s  %8.1f pages/s" % (rate(bcpu), rate(bms)))
print("Readability.js + linkedom:   %8.1f pages/s  %8.1f pages/s" % (rate(rcpu), rate(rms)))
print("speed ratio (bread / Readability.js): %.1fx CPU, %.1fx wall"
      % (rcpu / bcpu if bcpu else float("inf"), rms / bms if bms else float("inf")))
print("agreement: mean F1 %.4f, titles %d/%d, pages F1 >= 0.99: %d/%d"
      % (sum(x[0] for x in rows) / len(rows), sum(x[4] for x in rows), len(rows),
         sum(1 for x in rows if x[0] >= 0.99), len(rows)))
PY
