#!/bin/sh
# bfetch options, input errors, dry runs, --site/--sites, the config's
# archive_protocol (user agent, timeout, rate limit, robots), robots.txt
# unreachable/unavailable, --retry, and the immutable archive.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# ---- help, version, usage errors (exit 2)
run "$BFETCH" --help
expect_status 0 "--help exits 0"
like "$out" '--resume' "--help lists the options"
run "$BFETCH" -V
like "$out" '^bfetch \(ctxbench\) ' "--version"
for a in "-j 0" "--rate-limit x" "--timeout 0" "--max-size 0" "--bogus" "--retry 99" "-A /1.0" "--resolve x" "--resolve h:0:1.2.3.4" "--resolve h:80:" \
    "--connect-to x" "--connect-to h:80:a" "--connect-to h:99999:a:80" "--connect-to h:80::80" "--connect-to h:80:a:x"; do
	# shellcheck disable=SC2086
	run "$BFETCH" $a
	expect_status 2 "usage error: $a"
done
run "$BFETCH" -j
expect_status 2 "missing argument: exit 2"
is "$(head -n 1 "$T/err")" "bfetch: -j: missing argument" "missing argument: one message, no path"
run "$BFETCH" --bogus
is "$(head -n 1 "$T/err")" "bfetch: unknown option --bogus" "unknown option: named"
run "$BFETCH" --connect-to h:80:a
like "$err" "connect-to: expected HOST:PORT:ADDRESS:PORT" "--connect-to: message"
run "$BFETCH" --sites x.csv jobs.ndjson
expect_status 2 "--sites with input files"
like "$err" "exclusive" "--sites with input files: message"

# ---- input errors (exit 1, FILE:LINE)
bad() {	# INPUT ERE DESCRIPTION
	printf '%s\n' "$1" >"$T/bad.ndjson"
	run "$BFETCH" --dry-run -a "$T/none" "$T/bad.ndjson"
	expect_status 1 "$3: exit 1"
	like "$err" "$2" "$3: message"
}
bad '{"site_id":"S1","url":"http://x/","condition":"A"}
not json' "^bfetch: $T/bad.ndjson:2: " "line that is not JSON"
bad '{"site_id":"S1","condition":"A"}' "^bfetch: $T/bad.ndjson:1: url: .*expected a string" "missing url"
bad '{"site_id":"S1","url":"http://x/","condition":"C"}' ":1: condition: expected A, B, llms_txt or llms_full_txt" "unknown condition"
bad '{"site_id":"../etc","url":"http://x/","condition":"A"}' ":1: site_id: expected letters, digits" "site_id that is not a directory name"
bad '{"site_id":1,"url":"http://x/","condition":"A"}' ":1: site_id: expected a string" "site_id of the wrong type"

# ---- dry run: no network, no archive
{
	job S1 A http://127.0.0.1:9/a.html
	job S2 B http://127.0.0.1:9/b.md
	job S1 A http://127.0.0.1:9/a.html
} >"$T/dry.ndjson"
run "$BFETCH" --dry-run -a "$T/dry" "$T/dry.ndjson"
expect_status 0 "--dry-run exits 0"
is "$(jq -r .action "$T/out" | tr '\n' ' ')" "fetch fetch duplicate " "--dry-run actions"
is "$(jq -r .archive_path "$T/out" | sed -n 2p)" "markdown/S2/$(printf '%s' http://127.0.0.1:9/b.md | sha256sum | cut -d' ' -f1).md" "--dry-run shows the archive path"
ok test ! -e "$T/dry"
run "$BFETCH" --dry-run --site S2 -a "$T/dry" "$T/dry.ndjson"
is "$(jq -r .site_id "$T/out" | tr '\n' ' ')" "S2 " "--site keeps only that site's jobs"

# ---- --sites: llms.txt (and llms-full.txt) jobs from site-list.csv
start_server
cat >"$T/sites.csv" <<CSV
"site_id","domain","llms_txt_url","html_docs_url","sector","llms_txt_page_count","has_llms_full","verification_date","verification_status","exclusion_reason","notes"
"S1","127.0.0.1","$BASE/llms.txt","$BASE/docs/","Developer Tools & APIs",1,"TRUE","2026-02-22","PASS","",""
"S2","127.0.0.1","$BASE/x/llms.txt","$BASE/docs/","Developer Tools & APIs",1,"FALSE","2026-02-22","EXCLUDED","EC-1",""
"S3","localhost","$BASE/docs/llms.txt","$BASE/docs/","Developer Tools & APIs",1,"FALSE","2026-02-22","PASS","",""
CSV
run "$BFETCH" --dry-run --sites "$T/sites.csv" -a "$T/s"
is "$(jq -r '[.site_id,.condition,.url] | join(" ")' "$T/out" | tr '\n' '|')" \
    "S1 llms_txt $BASE/llms.txt|S1 llms_full_txt $BASE/llms-full.txt|S3 llms_txt $BASE/docs/llms.txt|" \
    "--sites: llms.txt jobs, llms-full.txt where has_llms_full, EXCLUDED skipped"
run "$BFETCH" --sites "$T/sites.csv" --site S1 -a "$T/s" -r 0 -t 5
expect_status 0 "--sites fetch"
is "$(jq -r '.fetch_status + " " + (.archive_path // "-" | sub("[0-9a-f]{64}";"H"))' "$T/out" | tr '\n' '|')" \
    "SUCCESS llms/S1/H.txt|HTTP_ERROR -|" "--sites: llms.txt archived under llms/, llms-full.txt 404"
is "$(jq -r .domain "$T/out" | head -n 1)" 127.0.0.1 "--sites jobs carry the domain"
printf '"site_id"\n"S1"\n' >"$T/badsites.csv"
run "$BFETCH" --dry-run --sites "$T/badsites.csv"
expect_status 1 "malformed site-list.csv: exit 1"
like "$err" "badsites.csv" "malformed site-list.csv: names the file"
# a header that is not site-list.csv's, with and without rows after it
printf 'site,url\n' >"$T/hdr0.csv"
printf 'site,url\nS1,http://x/llms.txt\n' >"$T/hdr1.csv"
for f in hdr0 hdr1; do
	run "$BFETCH" --dry-run --sites "$T/$f.csv" -a "$T/none"
	expect_status 1 "--sites with a wrong header ($f): exit 1"
	is "$(head -n 1 "$T/err")" "bfetch: $T/$f.csv:1: header: missing column 'site_id'" "--sites with a wrong header ($f): file:line"
done

# ---- the config's archive_protocol: user agent, timeout, rate limit, robots group
cat >"$T/config.json" <<'JSON'
{ "archive_protocol": { "fetch_timeout_seconds": 2, "user_agent": "OtherBot/2.0 (test)",
  "respect_robots_txt": true, "rate_limit_ms": 300 },
  "extraction": { "min_content_length_chars": 50 } }
JSON
{
	job S1 A "$BASE/docs/index.html"
	job S1 A "$BASE/docs/guide.html"
} >"$T/two.ndjson"
: >"$T/access.log"
run --stdin "$T/two.ndjson" "$BFETCH" -c "$T/config.json" -a "$T/c1"
expect_status 1 "config run (exit 1: robots.txt disallows every page)"
is "$(jq -r .fetch_status "$T/out" | sort -u)" HTTP_ERROR "config's user agent: its robots.txt group (Disallow: /) applies"
like "$(jq -r .failure_reason "$T/out" | head -n 1)" 'disallowed by robots.txt for OtherBot \(Disallow: /\)' "disallow names the product token and rule"
is "$(cut -d' ' -f3- "$T/access.log")" "/robots.txt OtherBot/2.0 (test)" "only robots.txt requested, with the config's user agent"

sed 's/OtherBot/CfgBot/' "$T/config.json" >"$T/config2.json"
{
	job S1 A "$BASE/docs/index.html"
	job S1 A "$BASE/docs/guide.html"
	job S1 A "$BASE/private/open.html"
	job S1 A "$BASE/fault/slow-headers"
} >"$T/four.ndjson"
: >"$T/access.log"
run --stdin "$T/four.ndjson" "$BFETCH" -c "$T/config2.json" -a "$T/c2"
expect_status 0 "config run with rate limit"
is "$(jq -r .fetch_status "$T/out" | tr '\n' ' ')" "SUCCESS SUCCESS SUCCESS TIMEOUT " "config run statuses"
like "$(jq -r .failure_reason "$T/out" | tail -n 1)" 'after 2000 ms' "timeout from fetch_timeout_seconds"
# Politeness: successive request starts on the host rate_limit_ms apart.  The
# server logs when it has read a request, so a request that opened a new
# connection shows up late, and a loaded machine delays the log further: a gap
# of at least half the delay shows the politeness (without it, gaps are ~0).
gaps=$(awk 'NR > 1 { printf "%d\n", ($1 - prev) * 1000 } { prev = $1 }' "$T/access.log")
is "$(printf '%s\n' "$gaps" | wc -l | tr -d ' ')" 4 "five requests (robots.txt and four pages)"
is "$(printf '%s\n' "$gaps" | awk '$1 < 150' | wc -l | tr -d ' ')" 0 "requests about 300 ms apart (gaps: $(echo $gaps))"
: >"$T/access.log"
sed 's/"rate_limit_ms": 300/"rate_limit_ms": 20000/' "$T/config2.json" >"$T/config3.json"
run --stdin "$T/two.ndjson" "$BFETCH" -c "$T/config3.json" -a "$T/c3" -r 0
span=$(awk 'NR == 1 { first = $1 } { last = $1 } END { printf "%d", (last - first) * 1000 }' "$T/access.log")
is "$(wc -l <"$T/access.log" | tr -d ' ')" 3 "-r 0 run: robots.txt and two pages"
DESC="-r 0 overrides the config's 20 s delay (span $span ms)" ok test "$span" -lt 10000

# ---- robots.txt unreachable (5xx): complete disallow; unavailable (4xx): allow all
: >"$T/access.log"
{
	job S1 A "http://robots500.test:$PORT/docs/index.html"
	job S1 A "http://norobots.test:$PORT/private/secret.html"
} >"$T/rb.ndjson"
run --stdin "$T/rb.ndjson" "$BFETCH" -a "$T/rb" -r 0 -t 5 \
    --resolve "robots500.test:$PORT:127.0.0.1" --resolve "norobots.test:$PORT:127.0.0.1"
is "$(jq -r .fetch_status "$T/out" | tr '\n' ' ')" "HTTP_ERROR SUCCESS " "robots.txt 500 disallows all; 404 allows all"
like "$(jq -r .failure_reason "$T/out" | head -n 1)" 'robots.txt unreachable \(HTTP 500\): complete disallow' "robots.txt 500: reason"
is "$(grep -c 'robots500.test.* /docs/index.html' "$T/access.log")" 0 "robots.txt 500: page not requested"

# ---- --no-robots
: >"$T/access.log"
job S1 A "$BASE/private/secret.html" >"$T/secret.ndjson"
run --stdin "$T/secret.ndjson" "$BFETCH" -a "$T/nr" --no-robots -r 0 -t 5
is "$(jq -r .fetch_status "$T/out")" SUCCESS "--no-robots fetches a disallowed page"
is "$(grep -c ' /robots.txt ' "$T/access.log")" 0 "--no-robots does not request robots.txt"
job S9 A "http://docs.example.invalid/a.html" >"$T/dns.ndjson"
run --stdin "$T/dns.ndjson" "$BFETCH" -a "$T/dns" --no-robots -r 0 -t 5
is "$(jq -r .fetch_status "$T/out")" DNS_FAILURE "*.invalid page: DNS_FAILURE"
like "$(jq -r .failure_reason "$T/out")" '^DNS resolution failed: Could not resolve host: docs.example.invalid' "*.invalid page: reason"
expect_status 1 "a run whose every fetch failed exits 1"
like "$err" 'every one of the 1 fetches failed' "saying so"
run "$BFETCH" -a "$T/dns-o" --no-robots -r 0 -t 5 -o "$T/dns-o.ndjson" "$T/dns.ndjson"
is "$(jq -r .fetch_status "$T/dns-o.ndjson")" DNS_FAILURE "the failed records are written all the same (-o)"
like "$err" 'records: 1 \(1 fetched.*dns 1' "and counted by reason in the summary"

# ---- on a terminal: the progress line (count of total, rate, ETA, statuses),
# then the summary line
{ job S1 A "$BASE/docs/index.html"; job S1 A "$BASE/docs/guide.html"; } >"$T/p2.ndjson"
script -qec "CTXBENCH_PROGRESS=1 $BFETCH -a $T/ptty -r 0 -o $T/ptty.ndjson $T/p2.ndjson" /dev/null >"$T/tty" 2>&1
like "$(tr '\r' '\n' <"$T/tty")" 'bfetch: [12]/2  [0-9.]+ rec/s  ETA [0-9]+:[0-9]{2}  ok [12]' "progress line: count of total, rate, ETA, statuses"
like "$(tr '\r' '\n' <"$T/tty" | grep -v '^$' | tail -n 1)" 'bfetch: records: 2 \(2 fetched' "then the summary line"

# ---- a run that selects nothing is an error, unless --allow-empty
job S1 A "$BASE/docs/index.html" >"$T/s1.ndjson"
run "$BFETCH" -a "$T/e1" -r 0 --site S004 -o "$T/e1.ndjson" "$T/s1.ndjson"
expect_status 1 "--site naming no site of the plan exits 1"
like "$err" 's1.ndjson: no job of site S004, nothing to fetch \(--allow-empty' "saying so, naming the site and the option"
[ ! -e "$T/e1.ndjson" ] && [ ! -e "$T/e1/manifest.ndjson" ]
is "$?" 0 "and writes nothing"
run "$BFETCH" -a "$T/e2" -r 0 --site S004 --allow-empty -o "$T/e2.ndjson" "$T/s1.ndjson"
expect_status 0 "--allow-empty accepts it"
is "$(wc -c <"$T/e2.ndjson")" 0 "writing an empty record file"
like "$err" '^bfetch: records: 0 ' "with its summary"
run "$BFETCH" -a "$T/e3" --dry-run "$T/s1.ndjson"
like "$err" '^bfetch: 1 distinct jobs planned \(dry run\)$' "a dry run ends with its summary"

# ---- --retry: transient failures tried again; none by default
job S1 A "$BASE/fault/flaky?a" >"$T/flaky.ndjson"
run --stdin "$T/flaky.ndjson" "$BFETCH" -a "$T/f1" -r 0 -t 5
is "$(jq -r '.fetch_status + " " + (.http_status|tostring)' "$T/out")" "HTTP_ERROR 503" "no automatic retry"
job S1 A "$BASE/fault/flaky?b" >"$T/flaky.ndjson"
run --stdin "$T/flaky.ndjson" "$BFETCH" -a "$T/f2" -r 0 -t 5 --retry 2
is "$(jq -r '.fetch_status + " " + (.attempts|tostring)' "$T/out")" "SUCCESS 2" "--retry: SUCCESS on the second attempt"

# ---- URLs that are not http(s)
{
	job S1 A "ftp://127.0.0.1/x"
	job S1 A "not a url"
} >"$T/urls.ndjson"
run --stdin "$T/urls.ndjson" "$BFETCH" -a "$T/u" -r 0
expect_status 1 "bad URLs are records, not input errors (exit 1: every fetch failed)"
is "$(wc -l <"$T/out")" 2 "both records are written"
like "$(jq -r .failure_reason "$T/out" | head -n 1)" "unsupported URL scheme 'ftp'" "ftp URL refused"
like "$(jq -r .failure_reason "$T/out" | tail -n 1)" "^invalid URL" "unparsable URL"

# ---- the archive is immutable: a second run needs --resume
run --stdin "$T/two.ndjson" "$BFETCH" -a "$T/c2" -r 0 -o "$T/o.ndjson"
expect_status 1 "second run without --resume refused"
like "$err" 'already records 2 of these jobs.*--resume' "second run: message"
ok test ! -e "$T/o.ndjson"
: >"$T/access.log"
run --stdin "$T/two.ndjson" "$BFETCH" -a "$T/c2" -r 0 --resume -o "$T/o.ndjson"
expect_status 0 "--resume on a complete archive"
is "$out" "" "-o: nothing on stdout"
is "$(jq -r .fetch_status "$T/o.ndjson" | tr '\n' ' ')" "SUCCESS SUCCESS " "-o: records written to the file"
is "$(wc -c <"$T/access.log" | tr -d ' ')" 0 "--resume: archived pages not requested again"
# A damaged archive file is fetched again; the old record is superseded.
f=$T/c2/$(jq -r .archive_path "$T/o.ndjson" | head -n 1)
printf 'damaged' >"$f"
run --stdin "$T/two.ndjson" "$BFETCH" -a "$T/c2" -r 0 --resume
is "$(jq -r .fetch_status "$T/out" | tr '\n' ' ')" "SUCCESS SUCCESS " "--resume with a damaged file"
is "$(grep -c ' /docs/index.html ' "$T/access.log")" 1 "--resume: the damaged page is fetched again"
files_eq "$f" "$HERE/site/docs/index.html" "--resume: the damaged file is restored"
is "$(wc -l <"$T/c2/manifest.ndjson" | tr -d ' ')" 4 "--resume: manifest keeps one record per job"
is "$(jq -r .url "$T/c2/manifest-superseded.ndjson" | sed "s|$BASE||")" "/docs/index.html" "--resume: the earlier record moves to manifest-superseded.ndjson"

# ---- the man page documents every long option and passes mandoc -Tlint
man=$TOP/man/bfetch.1
for o in $("$BFETCH" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	ok grep -q -- "Fl \\\\-${o#--}" "$man"
done
run mandoc -Tlint -W warning "$man"
expect_status 0 "mandoc -Tlint is clean"

done_testing
