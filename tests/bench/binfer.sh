#!/bin/sh
# binfer's benchmark (make bench), two parts in one run:
#
# 1. Against a real llama.cpp llama-server (make deps-servers) at --parallel
#    N = 1, 2, 4 slots: binfer -j N against the ideal client, N concurrent
#    loops of curl sending the same bodies (and one curl --parallel), on the
#    example study's varied contexts (examples/pipeline.sh's counted
#    contexts: every question of the example site, both conditions):
#    requests completed per second, the server's busy slots (per decode from
#    /metrics, and /slots sampled during the run), tokens per second, the
#    ratio binfer/curl (issue 34 asks >= 0.95) and whether every side got
#    the same answers (tests/bench/binfer-slots.py).  Skipped, saying so,
#    without the server.
# 2. CPU time per request at -j 1, 4 and 16 against a test server that
#    answers at once, compared with curl --parallel sending the same requests
#    (what libcurl costs by itself).
#
# BINFER_BENCH_ROUNDS (default 7) rounds per number of slots: a round's
# ratio moves by up to a tenth either way (at 4 slots, where the server is
# the bound and binfer and curl come out even, that straddles 0.95), so the
# median is taken over seven;
# BINFER_BENCH_SLOTS (default 1,2,4), BINFER_BENCH_N (default 400) requests
# of part 2.  Never run by make check: these are timings.
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
BINFER=${CTXBENCH_BINFER:-$BUILD/bin/binfer}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
N=${BINFER_BENCH_N:-400}
W=$(mktemp -d "${TMPDIR:-/tmp}/binfer-bench.XXXXXX")
spid=
cleanup() { [ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT INT TERM

LLAMA_DIR=${CTXBENCH_LLAMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/llama.cpp}
if [ -x "$LLAMA_DIR/bin/llama-server" ] && [ -f "$LLAMA_DIR/models/tiny-llama3.gguf" ]; then
	echo "binfer: throughput against llama-server $(cat "$LLAMA_DIR/bin/REV" 2>/dev/null | cut -c1-12)" \
	    "(tiny-llama3.gguf, one thread) at --parallel N, against N loops of curl"
	OUT=$W/study PATH=$BUILD/bin:$PATH sh "$TOP/examples/pipeline.sh" >"$W/pipeline.log" 2>&1 ||
	    { tail -n 20 "$W/pipeline.log" >&2; echo "bench: examples/pipeline.sh failed" >&2; exit 1; }
	mkdir -p "$W/slots"
	$PY "$TOP/tests/bench/binfer-slots.py" --binfer "$BINFER" \
	    --llama-server "$LLAMA_DIR/bin/llama-server" --model "$LLAMA_DIR/models/tiny-llama3.gguf" \
	    --config "$TOP/tests/binfer/config.json" --model-id llama-3.3-8b-q8_0 \
	    --contexts "$W/study/counted.ndjson" --work "$W/slots" \
	    --slots "${BINFER_BENCH_SLOTS:-1,2,4}" --rounds "${BINFER_BENCH_ROUNDS:-7}"
else
	echo "binfer: llama-server is not built (make deps-servers): no throughput against a real server"
fi
echo

$PY "$TOP/tests/binfer/server.py" --port-file "$W/port" --log "$W/log" &
spid=$!
i=0
while [ ! -s "$W/port" ]; do i=$((i + 1)); [ $i -gt 200 ] && { echo "server did not start" >&2; exit 1; }; sleep 0.05; done
url=http://127.0.0.1:$(cat "$W/port")

i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	printf 'S900-Q%04d\t%s\tWhat is item %d?\tItem %d is a small thing that answers at once.\n' $i A $i $i
done | $PY "$TOP/tests/binfer/mkctx.py" >"$W/ctx.ndjson"

# the request bodies binfer sends, for curl to send the same
"$BINFER" -c "$TOP/tests/binfer/config.json" -m qwen3-8b-q8_0 --endpoint "$url" --no-cache --warmup 0 \
    -j 4 "$W/ctx.ndjson" >/dev/null 2>"$W/capture.err" || { cat "$W/capture.err" >&2; exit 1; }
$PY - "$W" "$url" <<'PYEOF'
import json, sys
w, url = sys.argv[1], sys.argv[2]
with open(w + "/log") as f, open(w + "/curl.cfg", "w") as cfg:
    chats = [json.loads(line) for line in f]
    chats = [c for c in chats if c["path"] == "/api/chat"]
    for k, c in enumerate(chats):
        if k:
            cfg.write("next\n")
        body = json.dumps(c["body"], separators=(",", ":"))
        with open("%s/body%d.json" % (w, k), "w") as b:
            b.write(body)
        cfg.write('url = "%s/api/chat"\ndata-binary = "@%s/body%d.json"\nheader = "Content-Type: application/json"\n'
                  'output = "/dev/null"\n' % (url, w, k))
PYEOF

. "$TOP/tests/bench/bench-lib"
# measure CMD...: prints "wall_s cpu_s" of the command (bench_rusage); its
# standard error only when it fails (binfer ends every run with a line)
measure() {
	bench_rusage /dev/null "$@" >"$W/rusage" 2>"$W/measure.err" || {
		cat "$W/measure.err" >&2
		echo "bench: $1 failed" >&2
		exit 1
	}
	awk '{ printf "%.6f %.6f\n", $1, $2 + $3 }' "$W/rusage"
}

echo "binfer: CPU per request, $N requests to a server that answers at once ($(curl --version | head -n 1 | cut -d' ' -f1-2))"
printf '%-8s %4s %12s %16s %14s\n' program jobs "requests/s" "CPU ms/request" "CPU vs curl"
for j in 1 4 16; do
	set -- $(measure curl -s -Z --parallel-max "$j" -K "$W/curl.cfg")
	cw=$1 cc=$2
	set -- $(measure "$BINFER" -c "$TOP/tests/binfer/config.json" -m qwen3-8b-q8_0 --endpoint "$url" \
	    --no-cache --warmup 0 -j "$j" "$W/ctx.ndjson")
	bw=$1 bc=$2
	awk -v n="$N" -v j="$j" -v cw="$cw" -v cc="$cc" -v bw="$bw" -v bc="$bc" 'BEGIN {
		printf "%-8s %4d %12.0f %16.3f %14s\n", "curl", j, n / cw, cc * 1000 / n, "1.00"
		printf "%-8s %4d %12.0f %16.3f %14.2f\n", "binfer", j, n / bw, bc * 1000 / n, (cc > 0 ? bc / cc : 0)
	}'
done
