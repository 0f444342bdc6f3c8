#!/bin/sh
# bench/bfetch.sh - bfetch against `curl --parallel` on the same pages.
#
# The bfetch test server (tests/bfetch/server.py, a process per connection)
# serves the test site on
# 127.0.0.1; BENCH_PAGES distinct URLs (default 5000) are spread over
# BENCH_HOSTS host names (default 50) that --resolve maps to it.  Politeness
# is off for bfetch (-r 0; robots.txt is still fetched once per host, part of
# its extra work with hashing, the archive and the manifest); both sides run
# BENCH_PAR requests in flight (bfetch -j N --per-host 1, curl
# --parallel-max N).  Prints pages per second, peak RSS and the ratios.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
bfetch=${CTXBENCH_BFETCH:-$build/bin/bfetch}
pages=${BENCH_PAGES:-5000}
hosts=${BENCH_HOSTS:-50}
par=${BENCH_PAR:-50}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
# Both sides write their 5,000 files to tmpfs (BENCH_TMP, default /dev/shm
# when writable), in a fresh directory removed at the end: on ext4, creating
# files shortly after a previous run deleted 10,000 scans the recently freed
# inodes (ext4_create -> recently_deleted) and the disk, not the programs,
# would be measured.
tmpdir=${BENCH_TMP:-/dev/shm}
[ -d "$tmpdir" ] && [ -w "$tmpdir" ] || { tmpdir=$build/bench; mkdir -p "$tmpdir"; }
work=$(mktemp -d "$tmpdir/ctxbench-bfetch.XXXXXX")

"$py" "$top/tests/bfetch/server.py" --fork --root "$top/tests/bfetch/site" \
    --port-file "$work/port" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || :; rm -rf "$work"' EXIT INT TERM
i=0
while [ ! -s "$work/port" ]; do
	i=$((i + 1)); [ $i -le 100 ] || { echo "bench: server did not start" >&2; exit 1; }
	sleep 0.05
done
port=$(cat "$work/port")

# Jobs for bfetch, a config for curl, and the --resolve list for both.
awk -v n="$pages" -v h="$hosts" -v port="$port" -v dir="$work/curl-out" '
BEGIN {
	for (i = 1; i <= n; i++) {
		host = sprintf("h%02d.bench.test", (i - 1) % h + 1)
		url = sprintf("http://%s:%d/docs/index.html?p=%d", host, port, i)
		printf "{\"site_id\":\"S%02d\",\"url\":\"%s\",\"condition\":\"A\"}\n", (i - 1) % h + 1, url > "'"$work"'/jobs.ndjson"
		printf "url = \"%s\"\noutput = \"%s/S%02d/%d.html\"\n", url, dir, (i - 1) % h + 1, i > "'"$work"'/curl.cfg"
	}
	for (k = 1; k <= h; k++)
		printf "h%02d.bench.test:%d:127.0.0.1\n", k, port > "'"$work"'/resolve"
}'
set --
while read -r r; do set -- "$@" --resolve "$r"; done <"$work/resolve"
mkdir -p "$work/curl-out"

/usr/bin/time -f '%e %M %U %S' -o "$work/time.bfetch" "$bfetch" -a "$work/arch" -r 0 -j "$par" \
    --per-host 1 -t 30 "$@" "$work/jobs.ndjson" >"$work/bfetch.out" 2>"$work/err.bfetch"
/usr/bin/time -f '%e %M %U %S' -o "$work/time.curl" curl -s --parallel --parallel-max "$par" \
    --create-dirs "$@" -K "$work/curl.cfg" 2>"$work/err.curl" || true

ok=$(grep -c '"fetch_status":"SUCCESS"' "$work/bfetch.out" || true)
got=$(find "$work/curl-out" -type f | wc -l)
read -r bs bm bu bsy <"$work/time.bfetch"
read -r cs cm cu csy <"$work/time.curl"
awk -v n="$pages" -v h="$hosts" -v p="$par" -v ok="$ok" -v got="$got" \
    -v bs="$bs" -v bm="$bm" -v cs="$cs" -v cm="$cm" \
    -v bc="$(echo "$bu $bsy" | awk '{ print $1 + $2 }')" -v cc="$(echo "$cu $csy" | awk '{ print $1 + $2 }')" 'BEGIN {
	printf "bfetch bench: %d pages over %d host names, %d in flight\n", n, h, p
	printf "  %-16s %7.2f s %7.0f pages/s %6.1f MiB peak %6.2f s CPU  (%d SUCCESS)\n", "bfetch", bs, n / bs, bm / 1024, bc, ok
	printf "  %-16s %7.2f s %7.0f pages/s %6.1f MiB peak %6.2f s CPU  (%d files)\n", "curl --parallel", cs, n / cs, cm / 1024, cc, got
	printf "  ratio bfetch/curl: speed %.2f, peak memory %.2f\n", (n / bs) / (n / cs), bm / cm
}'
[ "$ok" -eq "$pages" ] || { echo "bench: bfetch archived $ok of $pages pages" >&2; exit 1; }
