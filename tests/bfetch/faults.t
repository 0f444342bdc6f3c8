#!/bin/sh
# bfetch against the fault-injecting test server: every fault gets its
# fetch_status and failure_reason, the good pages around them are archived
# intact, robots.txt is fetched once and obeyed, *.invalid is DNS_FAILURE.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
start_server

FAULTS="slow-headers stall-body reset cf-challenge akamai 429 500 loop ftp
redirect gzip-bomb gzip-page.html huge wrong-length app-shell.html empty"
{
	job S1 A "$BASE/docs/index.html"
	job S1 B "$BASE/docs/index.md"
	job S1 A "$BASE/private/secret.html"
	job S1 A "$BASE/private/open.html"
	for f in $FAULTS; do job S1 A "$BASE/fault/$f"; done
	job S1 B "$BASE/fault/html.md"
	job S1 A "$BASE/docs/guide.html#install"
	job S2 A "http://nowhere.invalid/docs/"
	job S1 A "$BASE/docs/index.html"
	job S1 llms_txt "$BASE/llms.txt"
} >"$T/jobs"

run --stdin "$T/jobs" "$BFETCH" -a "$T/arch" -r 0 -t 2 --max-size 1M -j 8 --per-host 8
expect_status 0 "run with every fault exits 0"
O=$T/out
is "$(wc -l <"$O" | tr -d ' ')" "$(wc -l <"$T/jobs" | tr -d ' ')" "one record per job"
is "$(jq -r .url "$O")" "$(jq -r .url "$T/jobs")" "records in input order"

# check URL STATUS HTTP REASON-ERE
check() {
	is "$(rec "$O" "$1" fetch_status | head -n 1)" "$2" "$1: fetch_status $2"
	is "$(rec "$O" "$1" http_status | head -n 1)" "$3" "$1: http_status $3"
	like "$(rec "$O" "$1" failure_reason | head -n 1)" "$4" "$1: failure_reason"
}
F=$BASE/fault
check "$F/slow-headers" TIMEOUT null '^transfer timed out after 2000 ms'
check "$F/stall-body" TIMEOUT 200 'timed out after 2000 ms.*bytes received'
check "$F/reset" HTTP_ERROR null 'connection failed mid-transfer.*reset'
check "$F/cf-challenge" WAF_BLOCKED 403 '^HTTP 403 Forbidden: Cloudflare challenge'
check "$F/akamai" WAF_BLOCKED 403 'Akamai block \(server: AkamaiGHost\)'
check "$F/429" HTTP_ERROR 429 '^HTTP 429 Too Many Requests; Retry-After: 120$'
is "$(rec "$O" "$F/429" retry_after)" 120 "429 keeps Retry-After"
check "$F/500" HTTP_ERROR 500 '^HTTP 500 Internal Server Error$'
check "$F/loop" HTTP_ERROR 302 '^more than 10 redirects'
is "$(rec "$O" "$F/loop" redirect_count)" 10 "redirect loop: 10 redirects followed"
check "$F/ftp" HTTP_ERROR 302 'non-http\(s\) URL refused \(Location: ftp://'
check "$F/gzip-bomb" HTTP_ERROR 200 'larger than the 1048576-byte cap after decoding'
check "$F/huge" HTTP_ERROR 200 'larger than the 1048576-byte cap \(Content-Length\)'
check "$F/wrong-length" HTTP_ERROR 200 'shorter than its Content-Length'
check "$F/app-shell.html" JS_ONLY 200 '^0 characters of visible text \(under 50\)'
check "$F/empty" HTTP_ERROR 200 'empty body'
check "$F/html.md" HTTP_ERROR 200 '^markdown URL answered with an HTML page'
check "$BASE/private/secret.html" HTTP_ERROR null '^disallowed by robots.txt for ctxbench-bfetch \(Disallow: /private/\)'
check http://nowhere.invalid/docs/ DNS_FAILURE null 'Could not resolve host: nowhere.invalid'
check "$F/redirect" SUCCESS 200 '^null$'
is "$(rec "$O" "$F/redirect" final_url)" "$BASE/docs/index.html" "redirect: final_url"
is "$(rec "$O" "$F/redirect" redirect_count)" 1 "redirect: redirect_count"

for u in "$F/slow-headers" "$F/reset" "$F/gzip-bomb" "$F/huge" "$F/wrong-length" \
    "$F/html.md" "$F/cf-challenge" "$BASE/private/secret.html"; do
	is "$(rec "$O" "$u" archive_path)" null "${u#$BASE} not archived"
done
jsonly=$(rec "$O" "$F/app-shell.html" archive_path)
like "$jsonly" '^html/S1/[0-9a-f]{64}\.html$' "JS_ONLY page kept in the archive for audit"

# The good pages: SUCCESS, stored whole, fields as the server sent them.
for p in docs/index.html docs/index.md private/open.html llms.txt; do
	case $p in *.md) c=B ;; llms.txt) c=llms_txt ;; *) c=A ;; esac
	u=$BASE/$p
	is "$(rec "$O" "$u" fetch_status | head -n 1)" SUCCESS "$p: SUCCESS"
	ap=$(rec "$O" "$u" archive_path | head -n 1)
	h=$(printf '%s' "$u" | sha256sum | cut -d' ' -f1)
	case $c in A) want=html/S1/$h.html ;; B) want=markdown/S1/$h.md ;; *) want=llms/S1/$h.txt ;; esac
	is "$ap" "$want" "$p: archive_path from the URL's SHA-256"
	files_eq "$T/arch/$ap" "$HERE/site/$p" "$p: archived bytes equal the served file"
	is "$(rec "$O" "$u" content_sha256 | head -n 1)" "$(sha256sum <"$HERE/site/$p" | cut -d' ' -f1)" "$p: content_sha256"
	is "$(rec "$O" "$u" content_length_bytes | head -n 1)" "$(wc -c <"$HERE/site/$p" | tr -d ' ')" "$p: content_length_bytes"
done
like "$(rec "$O" "$BASE/docs/index.html" last_modified | head -n 1)" '^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} ' "last_modified as sent"
like "$(rec "$O" "$BASE/docs/index.html" etag | head -n 1)" '^"[0-9a-f]+-[0-9a-f]+"$' "etag as sent"
like "$(rec "$O" "$BASE/docs/index.html" fetch_timestamp | head -n 1)" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "fetch_timestamp is UTC ISO 8601"
like "$(rec "$O" "$BASE/docs/index.md" content_type)" '^text/markdown' "content_type as sent"

# A compressed response is stored decoded.
ap=$(rec "$O" "$F/gzip-page.html" archive_path)
is "$(rec "$O" "$F/gzip-page.html" fetch_status)" SUCCESS "gzip-encoded page: SUCCESS"
files_eq "$T/arch/$ap" "$HERE/site/docs/guide.html" "gzip-encoded page stored decoded"

# The fragment is not sent; url_hash is of the URL as given.
u="$BASE/docs/guide.html#install"
is "$(rec "$O" "$u" fetch_status)" SUCCESS "URL with a fragment fetched"
is "$(rec "$O" "$u" url_hash)" "$(printf '%s' "$u" | sha256sum | cut -d' ' -f1)" "url_hash of the URL with its fragment"
ok grep -q ' /docs/guide.html ctxbench' "$T/access.log"

# Requests the server saw.
is "$(grep -c ' /robots.txt ' "$T/access.log")" 1 "robots.txt fetched once for the host"
is "$(grep -c ' /private/secret.html ' "$T/access.log")" 0 "disallowed page never requested"
is "$(grep -c ' /docs/index.html ' "$T/access.log")" 2 "duplicate job fetched once (plus the redirect target)"
is "$(grep -vc ' ctxbench-bfetch/' "$T/access.log")" 0 "every request carries the user agent"

# The manifest: one line per fetched job (the duplicate once), same records.
is "$(wc -l <"$T/arch/manifest.ndjson" | tr -d ' ')" $(( $(wc -l <"$T/jobs") - 1 )) "manifest: one record per unique job"
is "$(jq -c . "$T/arch/manifest.ndjson" | sort | md5sum)" "$(sort -u "$O" | md5sum)" "manifest holds the stdout records"
is "$(jq -r 'keys_unsorted | join(",")' "$O" | sort -u | grep -c 'fetch_status')" 2 "records carry the manifest fields (with or without retry_after)"
is "$(jq -c 'select(.url | endswith("/docs/index.html")) | has("site_id") and has("url_hash") and has("condition") and has("fetch_timestamp") and has("http_status") and has("content_type") and has("content_length_bytes") and has("last_modified") and has("etag") and has("fetch_status") and has("failure_reason") and has("final_url") and has("redirect_count") and has("content_sha256") and has("archive_path") and has("elapsed_ms")' "$O" | sort -u)" true "records carry every manifest field"
is "$(find "$T/arch" -name '.bfetch-*' | wc -l | tr -d ' ')" 0 "no temporary left in the archive"

done_testing
