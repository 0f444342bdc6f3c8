#!/bin/sh
# bench/bfetch.sh - bfetch against `curl --parallel` on the same pages,
# served by nginx (Debian's nginx-light) on 127.0.0.1.
#
# BENCH_PAGES pages of about 4 KB (default 5000, written here) are spread
# over BENCH_HOSTS host names (default 16) that --resolve maps to nginx.
# Both sides run BENCH_PAR requests in flight (default 16: bfetch -j N,
# curl --parallel-max N) and write every page to tmpfs.  bfetch does its
# whole job: robots.txt once per host, politeness bookkeeping (-r 0, one
# request per host), SHA-256, classification (JS_ONLY check), the archive
# and the manifest.  BENCH_RUNS rotated rounds (default 5; bfetch first in
# odd rounds, curl first in even ones); the medians are printed: pages per
# second, CPU (user + system) per page and peak RSS, and the ratios.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
bfetch=${CTXBENCH_BFETCH:-$build/bin/bfetch}
pages=${BENCH_PAGES:-5000}
hosts=${BENCH_HOSTS:-16}
par=${BENCH_PAR:-16}
runs=${BENCH_RUNS:-5}
nginx=${NGINX:-/usr/sbin/nginx}
[ -x "$nginx" ] || { echo "bench: no nginx ($nginx): apt-get install nginx-light" >&2; exit 1; }
# tmpfs (BENCH_TMP, default /dev/shm when writable): on ext4 the disk, not
# the programs, would be measured.
tmpdir=${BENCH_TMP:-/dev/shm}
[ -d "$tmpdir" ] && [ -w "$tmpdir" ] || { tmpdir=$build/bench; mkdir -p "$tmpdir"; }
work=$(mktemp -d "$tmpdir/ctxbench-bfetch.XXXXXX")
chmod 755 "$work"

# The pages: our own text, about 4 KB each, each different.
mkdir -p "$work/www/p" "$work/nginx/logs"
awk -v n="$pages" -v dir="$work/www/p" 'BEGIN {
	para = "<p>ctxbench archives each documentation page once, so that every " \
	    "model later reads byte-identical content. This paragraph is filler " \
	    "written for the benchmark, long enough to make a realistic page.</p>\n"
	for (i = 1; i <= n; i++) {
		f = sprintf("%s/%d.html", dir, i)
		printf "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" \
		    "<title>Page %d</title><link rel=\"stylesheet\" href=\"/site.css\">" \
		    "</head>\n<body><nav><a href=\"/\">Home</a></nav><main><h1>Page %d</h1>\n", i, i > f
		for (k = 0; k < 16; k++)
			printf "%s", para > f
		printf "<script src=\"/site.js\"></script></main></body></html>\n" > f
		close(f)
	}
}'
printf 'User-agent: *\nDisallow: /private/\n' >"$work/www/robots.txt"
port=$("${PYTHON:-/usr/bin/python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx/nginx.conf" <<EOC
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
$( [ "$(id -u)" -eq 0 ] && echo 'user root;' )
events { worker_connections 1024; }
http {
	access_log off;
	sendfile on;
	tcp_nodelay on;
	keepalive_requests 100000;
	types { text/html html; text/plain txt; }
	client_body_temp_path $work/nginx/body;
	proxy_temp_path $work/nginx/proxy;
	fastcgi_temp_path $work/nginx/fastcgi;
	uwsgi_temp_path $work/nginx/uwsgi;
	scgi_temp_path $work/nginx/scgi;
	server {
		listen 127.0.0.1:$port;
		root $work/www;
	}
}
EOC
"$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' 2>"$work/nginx/stderr" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || :; rm -rf "$work"' EXIT INT TERM
i=0
until curl -s -o /dev/null "http://127.0.0.1:$port/robots.txt"; do
	i=$((i + 1))
	[ $i -le 100 ] || { echo "bench: nginx did not start:" >&2; cat "$work/nginx/stderr" "$work/nginx/logs/error.log" >&2; exit 1; }
	sleep 0.05
done

# Jobs for bfetch, a config for curl, and the --resolve list for both.
awk -v n="$pages" -v h="$hosts" -v port="$port" -v w="$work" 'BEGIN {
	for (i = 1; i <= n; i++) {
		k = (i - 1) % h + 1
		url = sprintf("http://h%02d.bench.test:%d/p/%d.html", k, port, i)
		printf "{\"site_id\":\"S%02d\",\"url\":\"%s\",\"condition\":\"A\"}\n", k, url > w "/jobs.ndjson"
		printf "url = \"%s\"\noutput = \"%s/curl-out/S%02d/%d.html\"\n", url, w, k, i > w "/curl.cfg"
	}
	for (k = 1; k <= h; k++)
		printf "h%02d.bench.test:%d:127.0.0.1\n", k, port > w "/resolve"
}'
set --
while read -r r; do set -- "$@" --resolve "$r"; done <"$work/resolve"

run_bfetch() {
	rm -rf "$work/arch"
	/usr/bin/time -f '%e %M %U %S' -o "$work/t" "$bfetch" -a "$work/arch" -r 0 \
	    -j "$par" --per-host 1 -t 30 "$@" "$work/jobs.ndjson" >"$work/bfetch.out" 2>"$work/err.bfetch"
	cat "$work/t" >>"$work/times.bfetch"
	ok=$(grep -c '"fetch_status":"SUCCESS"' "$work/bfetch.out" || true)
	[ "$ok" -eq "$pages" ] || { echo "bench: bfetch archived $ok of $pages pages" >&2; cat "$work/err.bfetch" >&2; exit 1; }
}
run_curl() {
	rm -rf "$work/curl-out"
	/usr/bin/time -f '%e %M %U %S' -o "$work/t" curl -s --parallel --parallel-max "$par" \
	    --create-dirs "$@" -K "$work/curl.cfg" 2>"$work/err.curl" || true
	cat "$work/t" >>"$work/times.curl"
	got=$(find "$work/curl-out" -type f | wc -l)
	[ "$got" -eq "$pages" ] || { echo "bench: curl wrote $got of $pages pages" >&2; exit 1; }
}
r=1
while [ $r -le "$runs" ]; do
	if [ $((r % 2)) -eq 1 ]; then run_bfetch "$@"; run_curl "$@"; else run_curl "$@"; run_bfetch "$@"; fi
	r=$((r + 1))
done

# median of column C of FILE
med() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cpu() { awk '{ print $3 + $4 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
awk -v n="$pages" -v h="$hosts" -v p="$par" -v runs="$runs" \
    -v bs="$(med "$work/times.bfetch" 1)" -v bm="$(med "$work/times.bfetch" 2)" -v bc="$(cpu "$work/times.bfetch")" \
    -v cs="$(med "$work/times.curl" 1)" -v cm="$(med "$work/times.curl" 2)" -v cc="$(cpu "$work/times.curl")" 'BEGIN {
	if (bs <= 0) bs = 0.01; if (cs <= 0) cs = 0.01
	printf "bfetch bench: %d pages of ~4 KB from nginx over %d host names, %d in flight, median of %d rotated runs\n", n, h, p, runs
	printf "  %-16s %7.2f s %7.0f pages/s %6.1f us CPU/page %6.1f MiB peak\n", "bfetch", bs, n / bs, bc * 1e6 / n, bm / 1024
	printf "  %-16s %7.2f s %7.0f pages/s %6.1f us CPU/page %6.1f MiB peak\n", "curl --parallel", cs, n / cs, cc * 1e6 / n, cm / 1024
	printf "  ratio bfetch/curl: pages/s %.2f, CPU per page %.2f, peak memory %.2f\n", (n / bs) / (n / cs), (cc > 0 ? bc / cc : 0), bm / cm
}'
