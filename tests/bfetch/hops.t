#!/bin/sh
# Redirects followed hop by hop (robots.txt of every hop's origin, the chain
# on the record), robots.txt redirects, Crawl-delay, Retry-After dates,
# Markdown sniffing, mirrors (--connect-to) and provenance, the CA options,
# manifest.json, and the dry run of an existing archive.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
start_server
R=""
for h in b.test c.test other.test robotsredir.test robotsloop.test crawl.test; do
	R="$R --resolve $h:$PORT:127.0.0.1"
done
F=$BASE/fault
B=http://b.test:$PORT
{
	job S1 A "$F/to-private"
	job S1 A "$F/cross-ok"
	job S1 A "$F/cross-private"
	job S1 A "$F/cross-loop"
	job S1 B "$F/md-as-html.md"
	job S1 B "$F/html.md"
	job S2 A "http://robotsredir.test:$PORT/docs/index.html"
	job S2 A "http://robotsredir.test:$PORT/docs/guide.html"
	job S3 A "http://robotsloop.test:$PORT/docs/index.html"
} >"$T/jobs"
# shellcheck disable=SC2086
run --stdin "$T/jobs" "$BFETCH" -a "$T/arch" -r 0 -t 5 --max-redirs 4 $R
expect_status 0 "run with redirect chains exits 0"
O=$T/out

# ---- same host: a redirect to a path robots.txt disallows
is "$(rec "$O" "$F/to-private" fetch_status)" HTTP_ERROR "redirect to a disallowed path: HTTP_ERROR"
like "$(rec "$O" "$F/to-private" failure_reason)" \
    "^disallowed by robots.txt for ctxbench-bfetch \(Disallow: /private/\): redirect hop 1 to $BASE/private/secret.html not fetched" \
    "redirect to a disallowed path: the rule and the hop"
is "$(rec "$O" "$F/to-private" redirect_chain)" "[{\"url\":\"$F/to-private\",\"http_status\":302}]" "the chain is on the record"
is "$(rec "$O" "$F/to-private" archive_path)" null "nothing archived"
is "$(grep -c ' /private/secret.html ' "$T/access.log")" 0 "the disallowed hop is never requested"

# ---- another host: its robots.txt is read first, then the hop
is "$(rec "$O" "$F/cross-ok" fetch_status)" SUCCESS "redirect to another host: SUCCESS"
is "$(rec "$O" "$F/cross-ok" final_url)" "$B/docs/index.html" "final_url on the other host"
is "$(rec "$O" "$F/cross-ok" redirect_count)" 1 "redirect_count 1"
first_b=$(grep -n "^[0-9.]* b.test:$PORT " "$T/access.log" | head -n 1 | cut -d' ' -f3)
is "$first_b" /robots.txt "the other host's robots.txt is its first request"
is "$(grep -c "b.test:$PORT /robots.txt " "$T/access.log")" 1 "fetched once for the host"

# ---- via a second host to a disallowed path on a third
is "$(rec "$O" "$F/cross-private" fetch_status)" HTTP_ERROR "disallowed path on a third host: HTTP_ERROR"
like "$(rec "$O" "$F/cross-private" failure_reason)" "redirect hop 2 to http://c.test:$PORT/private/secret.html not fetched" "third host: the hop named"
is "$(rec "$O" "$F/cross-private" redirect_count)" 2 "third host: two redirects followed"
is "$(jq -r --arg u "$F/cross-private" 'select(.url == $u) | [.redirect_chain[].url] | join(" ")' "$O")" \
    "$F/cross-private $B/fault/to-c-private" "third host: both hops in the chain"
is "$(grep -c "c.test:$PORT /private/" "$T/access.log")" 0 "third host: nothing robots forbids requested"
is "$(grep -c "c.test:$PORT /robots.txt " "$T/access.log")" 1 "third host: its robots.txt read"

# ---- a loop across two hosts ends at --max-redirs
is "$(rec "$O" "$F/cross-loop" fetch_status)" HTTP_ERROR "loop across hosts: HTTP_ERROR"
like "$(rec "$O" "$F/cross-loop" failure_reason)" '^more than 4 redirects' "loop across hosts: message"
is "$(rec "$O" "$F/cross-loop" redirect_count)" 4 "loop across hosts: 4 redirects followed"

# ---- Markdown sniffing
is "$(rec "$O" "$F/md-as-html.md" fetch_status)" SUCCESS "Markdown served as text/html: SUCCESS"
like "$(rec "$O" "$F/md-as-html.md" content_type)" '^text/html' "the Content-Type is recorded as sent"
like "$(rec "$O" "$F/md-as-html.md" archive_path)" '^markdown/S1/' "stored as Markdown"
is "$(rec "$O" "$F/html.md" fetch_status)" HTTP_ERROR "an HTML page at a .md URL is still refused"

# ---- robots.txt redirecting to another host's robots.txt (its rules apply)
is "$(rec "$O" "http://robotsredir.test:$PORT/docs/index.html" fetch_status)" SUCCESS "robots.txt via another host: allowed page fetched"
like "$(rec "$O" "http://robotsredir.test:$PORT/docs/guide.html" failure_reason)" 'Disallow: /docs/guide.html' "robots.txt via another host: its rules apply"
# ---- a robots.txt redirect loop: unreachable after five hops
like "$(rec "$O" "http://robotsloop.test:$PORT/docs/index.html" failure_reason)" \
    '^robots.txt unreachable \(more than 5 redirects' "robots.txt loop: more than 5 redirects (not the page limit)"
is "$(grep -c "robotsloop.test:$PORT /robots.txt " "$T/access.log")" 6 "robots.txt loop: the request and five redirects"

# ---- provenance
is "$(rec "$O" "$F/cross-ok" remote_address)" "127.0.0.1:$PORT" "remote_address: the address that answered"
is "$(rec "$O" "$F/cross-ok" proxy)" null "no proxy"
is "$(rec "$O" "$F/cross-ok" resolve)" "b.test:$PORT:127.0.0.1" "the --resolve entry used is named"
is "$(rec "$O" "$F/cross-ok" connect_to)" null "no connect-to"

# ---- manifest.json: written when the run ends, complete, a JSON array
is "$(jq -r type "$T/arch/manifest.json")" array "manifest.json is a JSON array"
is "$(jq -c '.[]' "$T/arch/manifest.json" | md5sum)" "$(jq -c . "$T/arch/manifest.ndjson" | md5sum)" "manifest.json holds every manifest record"

# ---- a dry run of the existing archive (no --resume needed) says archived
run --stdin "$T/jobs" "$BFETCH" --dry-run -a "$T/arch"
expect_status 0 "dry run of an existing archive: exit 0"
is "$(jq -r --arg u "$F/cross-ok" 'select(.url == $u) | .action' "$T/out")" archived "dry run: archived"
is "$(jq -r --arg u "$F/to-private" 'select(.url == $u) | .action' "$T/out")" fetch "dry run: failed jobs would be fetched again"

# ---- --resume rebuilds manifest.json
rm "$T/arch/manifest.json"
# shellcheck disable=SC2086
run --stdin "$T/jobs" "$BFETCH" -a "$T/arch" -r 0 -t 5 --max-redirs 4 --resume $R
expect_status 0 "resume"
is "$(jq length "$T/arch/manifest.json")" "$(wc -l <"$T/arch/manifest.ndjson" | tr -d ' ')" "--resume rebuilds manifest.json"

# ---- Crawl-delay longer than -r is honoured
{
	job S4 A "http://crawl.test:$PORT/docs/index.html"
	job S4 A "http://crawl.test:$PORT/docs/guide.html"
	job S4 A "http://crawl.test:$PORT/private/open.html"
} >"$T/crawl"
: >"$T/access.log"
# shellcheck disable=SC2086
run --stdin "$T/crawl" "$BFETCH" -a "$T/crawl-arch" -r 0 $R
is "$(jq -r .fetch_status "$T/out" | sort -u)" SUCCESS "Crawl-delay host: pages fetched"
gaps=$(awk 'NR > 1 { printf "%d\n", ($1 - prev) * 1000 } { prev = $1 }' "$T/access.log")
is "$(printf '%s\n' "$gaps" | awk '$1 < 550' | wc -l | tr -d ' ')" 0 "Crawl-delay: 0.6 s between requests (gaps: $(echo $gaps))"

# ---- Retry-After as an HTTP date
job S5 A "$F/503-date" >"$T/ra"
: >"$T/access.log"
run --stdin "$T/ra" "$BFETCH" -a "$T/ra-arch" -r 0 --retry 1 --no-robots
is "$(rec "$T/out" "$F/503-date" fetch_status)" SUCCESS "503 with a Retry-After date, retried: SUCCESS"
is "$(rec "$T/out" "$F/503-date" attempts)" 2 "two attempts"
wait_ms=$(awk '{ t[NR] = $1 } END { printf "%d", (t[2] - t[1]) * 1000 }' "$T/access.log")
is "$([ "$wait_ms" -ge 900 ] && echo yes)" yes "the retry waited for the date (${wait_ms} ms)"

# ---- mirrors: --connect-to, and one to a closed port
job S6 A "http://docs.mirror.test/docs/index.html" >"$T/m"
run --stdin "$T/m" "$BFETCH" -a "$T/m-arch" -r 0 --no-robots --connect-to "docs.mirror.test:80:127.0.0.1:$PORT"
is "$(rec "$T/out" http://docs.mirror.test/docs/index.html fetch_status)" SUCCESS "--connect-to: fetched from the mirror"
is "$(rec "$T/out" http://docs.mirror.test/docs/index.html connect_to)" "docs.mirror.test:80:127.0.0.1:$PORT" "--connect-to: the record says so"
is "$(grep -c "docs.mirror.test /docs/index.html" "$T/access.log")" 1 "--connect-to: the Host header stays the site's"
run --stdin "$T/m" "$BFETCH" -a "$T/m-arch2" -r 0 -t 5 --no-robots --connect-to "docs.mirror.test:80:127.0.0.1:1"
is "$(rec "$T/out" http://docs.mirror.test/docs/index.html fetch_status)" HTTP_ERROR "--connect-to a closed port: HTTP_ERROR"
like "$(rec "$T/out" http://docs.mirror.test/docs/index.html failure_reason)" "Failed to connect|Connection refused|curl error 7" "--connect-to a closed port: the reason"

# ---- through a proxy (the proxy variables, as curl reads them)
job S8 A "http://proxied.test/docs/index.html" >"$T/px"
: >"$T/access.log"
run --stdin "$T/px" env http_proxy="http://user:pw@127.0.0.1:$PORT" "$BFETCH" -a "$T/px-arch" -r 0 -t 5
is "$(rec "$T/out" http://proxied.test/docs/index.html fetch_status)" SUCCESS "through a proxy: SUCCESS"
is "$(rec "$T/out" http://proxied.test/docs/index.html proxy)" "http://127.0.0.1:$PORT" "the record names the proxy, without credentials"
is "$(rec "$T/out" http://proxied.test/docs/index.html remote_address)" "127.0.0.1:$PORT" "remote_address is the proxy's"
is "$(grep -c '(via proxy as user:pw)' "$T/access.log")" 2 "robots.txt and the page went through the proxy, with the proxy's credentials"
run --stdin "$T/px" env no_proxy=proxied.test http_proxy="http://127.0.0.1:$PORT" "$BFETCH" -a "$T/px-arch2" -r 0 -t 5
is "$(rec "$T/out" http://proxied.test/docs/index.html fetch_status)" DNS_FAILURE "no_proxy: the host is reached directly (and does not resolve)"
is "$(rec "$T/out" http://proxied.test/docs/index.html proxy)" null "no_proxy: no proxy recorded"

# ---- a CA file that is not a certificate
printf 'not a certificate\n' >"$T/ca.pem"
job S7 A "https://127.0.0.1:$PORT/docs/index.html" >"$T/tls"
run --stdin "$T/tls" "$BFETCH" -a "$T/tls-arch" -r 0 -t 5 --no-robots --cacert "$T/ca.pem"
is "$(rec "$T/out" "https://127.0.0.1:$PORT/docs/index.html" fetch_status)" HTTP_ERROR "a CA file that is not a certificate: HTTP_ERROR"
like "$(rec "$T/out" "https://127.0.0.1:$PORT/docs/index.html" failure_reason)" "^CA certificates unusable" "a CA file that is not a certificate: said so"
is "$(find "$T/tls-arch" -name '*.html' | wc -l | tr -d ' ')" 0 "nothing archived"

# ---- a damaged manifest: file:line, nothing changed
mkdir -p "$T/bad1" "$T/bad2"
printf '{"site_id":"S1","url":"u1","condition":"A"}\nnot json\n{"site_id":"S1","url":"u2","condition":"A"}\n' >"$T/bad1/manifest.ndjson"
cp "$T/bad1/manifest.ndjson" "$T/bad1.copy"
run --stdin "$T/m" "$BFETCH" -a "$T/bad1" --resume --no-robots
expect_status 1 "a manifest line that is not JSON: exit 1"
is "$(head -n 1 "$T/err")" "bfetch: $T/bad1/manifest.ndjson:2: expected a manifest record (a JSON object)" "a bad manifest line: file:line"
files_eq "$T/bad1/manifest.ndjson" "$T/bad1.copy" "a bad manifest is left as it was"
printf '{"site_id":"S1","condition":"A"}\n' >"$T/bad2/manifest.ndjson"
run --stdin "$T/m" "$BFETCH" --dry-run -a "$T/bad2"
expect_status 1 "a record without url: exit 1"
like "$err" "manifest.ndjson:1: expected site_id, url and condition strings" "a record without url: file:line"
# a last record whose newline a kill cut off: kept, and the next record on its own line
head -c -1 "$T/m-arch/manifest.ndjson" >"$T/m-arch/nonl" && mv "$T/m-arch/nonl" "$T/m-arch/manifest.ndjson"
job S6 A "http://docs.mirror.test/docs/guide.html" >>"$T/m"
run --stdin "$T/m" "$BFETCH" -a "$T/m-arch" -r 0 --no-robots --resume --connect-to "docs.mirror.test:80:127.0.0.1:$PORT"
expect_status 0 "resume after a record without its newline"
is "$(jq -c . "$T/m-arch/manifest.ndjson" | wc -l | tr -d ' ')" 2 "both records whole, one per line"

done_testing
