#!/bin/sh
# binfer's benchmark (make bench): requests per second at -j 1, 4 and 16 and
# CPU time per request, against a test server that answers at once, compared
# in the same run with curl sending the same requests (curl --parallel over
# one connection pool, the reference for what libcurl costs by itself).
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
    -j 4 "$W/ctx.ndjson" >/dev/null
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

# measure CMD...: prints "wall_s cpu_s" of the command (children's rusage)
measure() {
	$PY - "$@" <<'PYEOF'
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL if sys.argv[1] == "curl" else None)
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f" % (wall, ru.ru_utime + ru.ru_stime))
PYEOF
}

echo "binfer: $N requests to a server that answers at once ($(curl --version | head -n 1 | cut -d' ' -f1-2))"
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
