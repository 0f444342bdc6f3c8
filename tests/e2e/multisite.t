#!/bin/sh
# Several sites at once: the example site served under three host names on
# loopback (bfetch --connect-to maps each to its own server), each with its
# own robots.txt and politeness, fetched sharded by site (one bfetch per
# site, run by GNU parallel), the shards' archives and manifests joined and
# checked against one unsharded run.
. "${0%/*}/../lib/tap.sh"
BFETCH=$(prog bfetch)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
command -v parallel >/dev/null 2>&1 || skip_all "GNU parallel is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

SITES="a b c"
# Per-site robots.txt: a as shipped; b forbids the FAQ; c asks for a
# Crawl-delay longer than the run's -r.
pids=""
stop() { for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; }
at_exit stop
CT=""
for s in $SITES; do
	w=$T/www-$s
	cp -R "$CTXBENCH_BUILD/site" "$w"
	# the site's links name its own host
	find "$w" -type f \( -name '*.html' -o -name '*.md' -o -name '*.txt' \) \
	    -exec sed -i "s|https://docs.ctxbench.example|http://docs-$s.test|g" {} +
	case $s in
	b) printf 'User-agent: *\nDisallow: /docs/faq\n' >"$w/robots.txt" ;;
	c) printf 'User-agent: *\nAllow: /\nCrawl-delay: 0.4\n' >"$w/robots.txt" ;;
	esac
	"$PY" "$TOP/examples/serve.py" --root "$w" --port-file "$T/port-$s" --verbose 2>"$T/log-$s" &
	pids="$pids $!"
done
for s in $SITES; do
	i=0
	while [ ! -s "$T/port-$s" ]; do
		i=$((i + 1))
		[ "$i" -le 100 ] || { echo "Bail out! example server $s did not start"; exit 1; }
		sleep 0.05
	done
	CT="$CT --connect-to docs-$s.test:80:127.0.0.1:$(cat "$T/port-$s")"
done

# The jobs: each site's llms.txt and its top-level pages in both conditions.
n=0
for s in $SITES; do
	n=$((n + 1))
	id=S00$n
	printf '{"site_id":"%s","url":"http://docs-%s.test/llms.txt","condition":"llms_txt"}\n' "$id" "$s"
	for f in "$CTXBENCH_BUILD"/site/docs/*.md; do
		p=$(basename "$f" .md)
		printf '{"site_id":"%s","url":"http://docs-%s.test/docs/%s","condition":"A"}\n' "$id" "$s" "$p"
		printf '{"site_id":"%s","url":"http://docs-%s.test/docs/%s.md","condition":"B"}\n' "$id" "$s" "$p"
	done
	printf '{"site_id":"%s","url":"http://docs-%s.test/docs/reference/api","condition":"A"}\n' "$id" "$s"
done >"$T/jobs.ndjson"
NJ=$(wc -l <"$T/jobs.ndjson" | tr -d ' ')
NPERSITE=$((NJ / 3))

# ---- sharded by site: one bfetch per site, three at once
# shellcheck disable=SC2086
parallel --will-cite -j3 --joblog "$T/joblog" \
    "$BFETCH" -a "$T/shard-{}" -r 100 -t 10 --site {} $CT -o "$T/out-{}.ndjson" "$T/jobs.ndjson" \
    ::: S001 S002 S003 2>"$T/parallel.err"
is "$?" 0 "three site shards ran"
is "$(awk -F '\t' 'NR > 1 && $7 == 0' "$T/joblog" | wc -l | tr -d ' ')" 3 "every shard exited 0"

# ---- joined: the archives' trees and the manifests
mkdir -p "$T/joined"
for s in S001 S002 S003; do
	for d in html markdown llms; do
		[ -d "$T/shard-$s/$d" ] && cp -R "$T/shard-$s/$d" "$T/joined/"
	done
	cat "$T/shard-$s/manifest.ndjson"
done >"$T/joined.ndjson"
mv "$T/joined.ndjson" "$T/joined/manifest.ndjson"
jq -s 'add' "$T"/shard-S00?/manifest.json >"$T/joined/manifest.json"
is "$(wc -l <"$T/joined/manifest.ndjson" | tr -d ' ')" "$NJ" "joined manifest: one record per job"
is "$(jq length "$T/joined/manifest.json")" "$NJ" "joined manifest.json: one record per job"
is "$(jq -r '[.site_id, .condition, .url] | join(" ")' "$T/joined/manifest.ndjson" | sort -u | wc -l | tr -d ' ')" "$NJ" "no job twice"
missing=0
for ap in $(jq -r 'select(.archive_path != null) | .archive_path' "$T/joined/manifest.ndjson"); do
	[ -f "$T/joined/$ap" ] || missing=$((missing + 1))
done
is "$missing" 0 "every archived file is in the joined archive"
run --stdin "$T/jobs.ndjson" "$BFETCH" --dry-run -a "$T/joined"
is "$(jq -r .action "$T/out" | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" \
    "archived=$(jq -r 'select(.fetch_status == "SUCCESS")' "$T/joined/manifest.ndjson" | jq -s length) fetch=$(jq -r 'select(.fetch_status != "SUCCESS")' "$T/joined/manifest.ndjson" | jq -s length) " \
    "the joined archive answers every SUCCESS (dry run)"

# ---- each site's own robots.txt and politeness
M=$T/joined/manifest.ndjson
st() { jq -r --arg u "$1" --arg c "$2" 'select(.url == $u and .condition == $c) | .fetch_status' "$M"; }
is "$(st http://docs-a.test/docs/faq A)" SUCCESS "site a: the FAQ is fetched"
is "$(st http://docs-b.test/docs/faq A)" HTTP_ERROR "site b: its robots.txt forbids the FAQ"
like "$(jq -r 'select(.url == "http://docs-b.test/docs/faq") | .failure_reason' "$M")" \
    '^disallowed by robots.txt for ctxbench-bfetch \(Disallow: /docs/faq\)' "site b: the rule is named"
is "$(grep -c 'GET /docs/faq' "$T/log-b")" 0 "site b: the forbidden pages are never requested"
is "$(grep -c 'GET /robots.txt' "$T/log-a") $(grep -c 'GET /robots.txt' "$T/log-b") $(grep -c 'GET /robots.txt' "$T/log-c")" \
    "1 1 1" "each site's robots.txt read once by its shard"
is "$(jq -r 'select(.url | endswith("/reference/api")) | .fetch_status' "$M" | sort -u)" WAF_BLOCKED "each site's bot wall: WAF_BLOCKED"
reqc=$(grep -c '"GET ' "$T/log-c")
rt=$(awk -F '\t' 'NR > 1 && $9 ~ /--site S003/ { print $4 }' "$T/joblog")
is "$(awk -v t="$rt" -v n="$reqc" 'BEGIN { print (t >= (n - 2) * 0.4) ? "yes" : "no" }')" yes \
    "site c: Crawl-delay 0.4 s honoured ($reqc requests in $rt s)"
is "$(jq -r '.connect_to // "none"' "$M" | sed 's/:127.0.0.1:[0-9]*$//' | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" \
    "docs-a.test:80=$NPERSITE docs-b.test:80=$((NPERSITE - 2)) docs-c.test:80=$NPERSITE none=2 " \
    "every fetched record names the mirror it came from (the two refused by robots.txt made no request)"

# ---- the same jobs in one unsharded run give the same archive
# shellcheck disable=SC2086
run --stdin "$T/jobs.ndjson" "$BFETCH" -a "$T/single" -r 100 -t 10 $CT
expect_status 0 "one unsharded run"
key='[.site_id, .condition, .url, .fetch_status, .http_status, .content_sha256, .archive_path] | @tsv'
is "$(jq -r "$key" "$T/single/manifest.ndjson" | sort | md5sum)" "$(jq -r "$key" "$M" | sort | md5sum)" \
    "sharded and unsharded runs record the same fetches"
is "$(cd "$T/single" && find html markdown llms -type f | sort | xargs sha256sum | md5sum)" \
    "$(cd "$T/joined" && find html markdown llms -type f | sort | xargs sha256sum | md5sum)" \
    "sharded and unsharded archives hold the same files"

done_testing
