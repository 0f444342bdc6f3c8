#!/bin/sh
# Failures of this machine, not the site's (bfetch(1), EXIT STATUS), provoked
# at a known place by the torture shim (tests/torture/shim.c,
# TORTURE_ALLOC_IN): the first allocation libcurl makes parsing a job's URL,
# and the first it makes running the transfers (curl error 27, "out of
# memory", which the HTTP layer reports as a local failure); and the first
# allocation libxml2 makes counting a page's visible text (bfetch makes it
# allocate through the checked allocators, which die, where libxml2 would
# stop parsing and the page would count fewer characters: a JS_ONLY).  Each run exits
# 1 with one message naming the URL, writes no record blaming the site (no
# record at all: the manifest is empty, no -o file), and bfetch --resume
# afterwards fetches every page and leaves the archive and records of an
# undisturbed run.  (Before, a URL libcurl could not allocate for was
# recorded as an "invalid URL: A memory function failed" HTTP_ERROR, and the
# run exited 0.)
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
need_shim
start_server
FIRST=$BASE/docs/index.html
{
	job S1 A "$FIRST"
	job S1 B "$BASE/docs/index.md"
	job S1 A "$BASE/docs/guide.html"
} >"$T/jobs"
# --no-robots, one request in flight: the first transfer is the first page's
OPTS="-r 0 -j 1 --no-robots"

# fetch DIR [ENV...]: bfetch in DIR (made), archive DIR/arch, records in
# DIR/out.ndjson; status in rc, stderr in $T/err
fetch() {
	_d=$1
	shift
	mkdir -p "$_d"
	rc=0
	(cd "$_d" && env "$@" "$BFETCH" -a arch $OPTS ${RESUME:-} -o out.ndjson \
	    "$T/jobs") >/dev/null 2>"$T/err" || rc=$?
}
# The records and the archive without the fields that differ between two
# undisturbed runs; the archived pages with their checksums.
records() { jq -c 'del(.fetch_timestamp, .elapsed_ms)' "$1"; }
pages() { (cd "$1" && find html markdown -type f | sort | xargs sha256sum); }

fetch "$T/ref" CTXBENCH_PROGRESS=0
is "$rc" 0 "the undisturbed run exits 0"
is "$(jq -r .fetch_status "$T/ref/out.ndjson" | sort -u)" SUCCESS "the undisturbed run: every page SUCCESS"

for place in curl_url_set curl_multi_perform htmlParseChunk; do
	case $place in
	curl_url_set) what="libcurl out of memory parsing the URL"
		msg="^bfetch: out of memory parsing the URL $FIRST\$" ;;
	htmlParseChunk) what="libxml2 out of memory counting visible text"
		msg="^bfetch: out of memory allocating [0-9]+ bytes\$" ;;
	*) what="libcurl out of memory during the transfer"
		msg="^bfetch: $FIRST: local failure, not the site's \\(curl error 27: .*\\); no record written for it: bfetch --resume fetches it again\$" ;;
	esac
	D=$T/$place
	RESUME= fetch "$D" LD_PRELOAD="$SHIM" TORTURE_ALLOC_IN=$place
	is "$rc" 1 "$what: exit 1"
	like "$(cat "$T/err")" "$msg" "$what: the message"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "$what: one line"
	ok test ! -e "$D/out.ndjson"
	is "$(cat "$D/arch/manifest.ndjson" 2>/dev/null | wc -l | tr -d ' ')" 0 \
	    "$what: no record in manifest.ndjson"
	RESUME=--resume fetch "$D"
	is "$rc" 0 "$what: --resume afterwards exits 0"
	like "$(cat "$T/err")" "records: 3 \\(3 fetched, 0 from the archive" \
	    "$what: --resume fetches every page, the first too"
	is "$(records "$D/out.ndjson")" "$(records "$T/ref/out.ndjson")" \
	    "$what: --resume gives the records of an undisturbed run"
	is "$(records "$D/arch/manifest.ndjson")" "$(records "$T/ref/arch/manifest.ndjson")" \
	    "$what: --resume gives the manifest of an undisturbed run"
	is "$(pages "$D/arch")" "$(pages "$T/ref/arch")" \
	    "$what: --resume archives the pages of an undisturbed run"
	ok test ! -e "$D/arch/manifest-superseded.ndjson"
done

# A URL given with user information: the message shows it without.
SECRET=$(printf '%s' "$FIRST" | sed 's|^http://|http://reader:s3cret@|')
job S1 A "$SECRET" >"$T/jobs"
fetch "$T/userinfo" LD_PRELOAD="$SHIM" TORTURE_ALLOC_IN=curl_url_set
is "$rc" 1 "out of memory parsing a URL with user information: exit 1"
is "$(cat "$T/err")" "bfetch: out of memory parsing the URL $FIRST" \
    "out of memory parsing a URL with user information: the URL shown without it"

# Out of descriptors (ulimit -n): at every limit from 5 to 24, bfetch either
# fetches the page or stops with a local failure; no record ever blames the
# site with a connection failure.  Some limit must reach the connection
# (the socket cannot be opened) for the check to mean anything.
job S1 A "$FIRST" >"$T/jobs"
blamed=0 nlocal=0 fetched=0
for n in $(seq 5 24); do
	rm -rf "$T/fd"
	mkdir -p "$T/fd"
	rc=0
	(cd "$T/fd" && ulimit -n "$n" && "$BFETCH" -a arch $OPTS -o out.ndjson \
	    "$T/jobs") >/dev/null 2>"$T/err" || rc=$?
	if [ -s "$T/fd/out.ndjson" ] &&
	    [ "$(jq -r .fetch_status "$T/fd/out.ndjson")" = HTTP_ERROR ]; then
		blamed=$((blamed + 1))
		diag "ulimit -n $n: $(jq -r .failure_reason "$T/fd/out.ndjson")"
	elif grep -q "local failure, not the site's (curl error 7: .*(socket: Too many open files))" "$T/err"; then
		nlocal=$((nlocal + 1))
	elif [ "$rc" -eq 0 ]; then
		fetched=$((fetched + 1))
	fi
done
is "$blamed" 0 "out of descriptors: no record blames the site"
DESC="out of descriptors: some limit fails the connection, as a local failure" ok test "$nlocal" -gt 0
DESC="out of descriptors: a higher limit fetches the page" ok test "$fetched" -gt 0
done_testing
