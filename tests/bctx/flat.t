#!/bin/sh
# bctx assemble's page records read straight from their lines (flat.c)
# against the common reader (ndjson.h): the same records written in other
# JSON forms (escapes, CRLF, white space, a nested field that sends every
# line to the common reader) give byte-identical contexts, and every line
# the flat reader refuses gets the common reader's message with its file
# and line, exit status 1.
. "${0%/*}/../lib/tap.sh"
F=${0%/*}/fixture
BCTX=$(prog bctx)
Q=$F/questions.json

assemble() {	# PAGES OUT
	"$BCTX" assemble -q "$Q" -s "$F/sites.csv" "$1" >"$2" 2>"$2.err"
}

assemble "$F/records.ndjson" "$T/base"
is "$?/$(wc -l <"$T/base" | tr -d ' ')" 0/12 "the fixture's contexts"
# every line through the common reader: an object within, which it alone reads
sed 's/^{/{"_n": {"o": 0}, /' "$F/records.ndjson" >"$T/nested.ndjson"
assemble "$T/nested.ndjson" "$T/nested"
files_eq "$T/nested" "$T/base" "records read by the common reader: the same contexts"
# escapes in strings: every "/" and ". " (in values only) written as escapes
sed 's|/|\\/|g; s/\. /\\u002e /g' "$F/records.ndjson" >"$T/esc.ndjson"
assemble "$T/esc.ndjson" "$T/esc"
files_eq "$T/esc" "$T/base" "escaped strings: the same contexts"
# every "o" (in keys and strings only) escaped: keys so written go to the common reader
sed 's/o/\\u006f/g' "$F/records.ndjson" >"$T/esck.ndjson"
assemble "$T/esck.ndjson" "$T/esck"
files_eq "$T/esck" "$T/base" "escaped keys: the same contexts"
# the llms.txt records given apart (-l), read flat or by the common reader
grep '"kind"' "$F/records.ndjson" >"$T/links.ndjson"
grep -v '"kind"' "$F/records.ndjson" >"$T/pages.ndjson"
sed 's/^{/{"_n": {"o": 0}, /' "$T/links.ndjson" >"$T/links-nested.ndjson"
"$BCTX" assemble -q "$Q" -s "$F/sites.csv" -l "$T/links.ndjson" "$T/pages.ndjson" >"$T/l1" 2>/dev/null
"$BCTX" assemble -q "$Q" -s "$F/sites.csv" -l "$T/links-nested.ndjson" "$T/pages.ndjson" >"$T/l2" 2>/dev/null
files_eq "$T/l1" "$T/base" "links given apart: the same contexts"
files_eq "$T/l2" "$T/base" "links given apart, read by the common reader: the same contexts"
"$BCTX" plan -q "$Q" -s "$F/sites.csv" -l "$T/links.ndjson" >"$T/p1" 2>/dev/null
"$BCTX" plan -q "$Q" -s "$F/sites.csv" -l "$T/links-nested.ndjson" >"$T/p2" 2>/dev/null
files_eq "$T/p1" "$T/p2" "bctx plan: the same jobs from either reading"
printf '%s\n' '{"kind":"link","site_id":"S001","url":"https://x.org/a.md","optional":"yes"}' >"$T/badlink.ndjson"
run "$BCTX" assemble -q "$Q" -l "$T/badlink.ndjson" "$T/pages.ndjson"
is "$rc: $err" "1: bctx: $T/badlink.ndjson:1: optional: expected a boolean, got a string" \
    "a link record refused: the same message"
sed 's/$/\r/; s/^{/ {  /; s/}\r$/ }\t\r/' "$F/records.ndjson" >"$T/crlf.ndjson"
printf '\n  \n' >>"$T/crlf.ndjson"
assemble "$T/crlf.ndjson" "$T/crlf"
files_eq "$T/crlf" "$T/base" "CRLF, white space and blank lines: the same contexts"
# values of other types where a page entry copies them as given
sed '/"condition": "B"/s|"http_status": 200, "archive_path": "markdown/S001/x", "last_modified": "[^"]*"|"http_status": 2e2, "archive_path": {"k": [1, 2.50]}, "last_modified": 1e3|' \
    "$F/records.ndjson" >"$T/odd.ndjson"
sed 's/^{/{"_n": {"o": 0}, /' "$T/odd.ndjson" >"$T/odd-nested.ndjson"
assemble "$T/odd.ndjson" "$T/odd"
assemble "$T/odd-nested.ndjson" "$T/odd-nested"
files_eq "$T/odd" "$T/odd-nested" "numbers and nested values of a page entry: as the common reader reads them"
if grep -q '"archive_path":{"k":\[1,2\.5\]},"fetch_status":"SUCCESS","last_modified":1000\.0}' "$T/odd"; then
	pass "copied as given, in the compact form"
else
	fail "copied as given, in the compact form"
fi

# Lines the flat reader refuses: the common reader's message, file and line.
P='{"site_id":"S001","url":"https://docs.example.com/guide/install","condition":"A","fetch_status":"SUCCESS","text":"ok"}'
n=0
while IFS='|' read -r line want; do
	n=$((n + 1))
	printf '%s\n%s\n' "$P" "$line" >"$T/bad$n.ndjson"
	run "$BCTX" assemble -q "$Q" "$T/bad$n.ndjson"
	is "$rc: $err" "1: bctx: $T/bad$n.ndjson:2: $want" "refused: $want"
done <<'EOF'
{"site_id":"S001","url":"https://x.org/","condition":"A","url":"https://y.org/"}|invalid JSON at column 62: duplicate object key near '"url"'
{"site_id":"S001","url":"https://x.org/\u0000","condition":"A"}|invalid JSON at column 46: \u0000 is not allowed without JSON_ALLOW_NUL
{"site_id":"S001","url":"https://x.org/	a","condition":"A"}|invalid JSON at column 39: control character 0x9 near '"https://x.org/'
{"site_id":"S001","url":"https://x.org/","condition":"A"}x|invalid JSON at column 58: end of file expected near 'x'
{"site_id":"S001","url":"https://x.org/","condition":"A"} {}|invalid JSON at column 59: end of file expected near '{'
{"site_id":"S001","url":7,"condition":"A"}|url: expected a string, got an integer
{"site_id":"S001","url":"https://x.org/","condition":"A","n":1e999}|invalid JSON at column 66: real number overflow near '1e999'
{"site_id":"S001","url":"https://x.org/","condition":"A","n":01}|invalid JSON at column 62: invalid token near '0'
{"site_id":"S001","url":"https://x.org/","condition":"A","n":99999999999999999999}|invalid JSON at column 81: too big integer near '99999999999999999999'
{"site_id":"S001","url":"https://x.org/","condition":"A","n":-}|invalid JSON at column 62: invalid token near '-'
{"site_id":"S001","url":"https://x.org/\ud800","condition":"A"}|invalid JSON at column 46: invalid Unicode '\uD800'
{"site_id":"S001","url":"https://x.org/","condition":"A","n":"\x"}|invalid JSON at column 64: invalid escape near '"\x'
{"site_id":"S001","url":"https://x.org/","condition":"A",}|invalid JSON at column 58: string or '}' expected near '}'
{"site_id":"S001","url":"https://x.org/","condition":"A"|invalid JSON at column 56: '}' expected near end of file
[1]|expected a JSON object, got an array
{"site_id":"S001","url":"https://x.org/","condition":"B","fetch_status":"SUCCESS","markdown":null}|markdown: missing (expected a string)
{"site_id":"S001","url":"https://x.org/","condition":"B","fetch_status":"SUCCESS"}|no markdown: a fetched condition B page is read from bmdprep's records (run bmdprep first)
{"site_id":"S001","url":"https://x.org/","condition":"B","variant":"A-whole"}|variant: a variant's page is a condition A record (bread --variant), not condition B
{"site_id":"S001","url":"https://x.org/","condition":"A","fetch_status":5}|fetch_status: expected a string, got an integer
EOF
printf '%s\n\377\n' "$P" >"$T/utf8.ndjson"
run "$BCTX" assemble -q "$Q" "$T/utf8.ndjson"
is "$rc: $err" "1: bctx: $T/utf8.ndjson:2: invalid UTF-8 at byte 1" "refused: invalid UTF-8"
printf '%s\n{"site_id":"S001"' "$P" >"$T/trunc.ndjson"
run "$BCTX" assemble -q "$Q" "$T/trunc.ndjson"
is "$rc: $err" "1: bctx: $T/trunc.ndjson:2: truncated record at end of input (no newline): '}' expected near end of file" \
    "refused: a last line cut short"
# more keys than the flat reader holds: the common reader takes the record
awk -v p="$P" 'BEGIN { s = "{"; for (i = 0; i < 40; i++) s = s "\"k" i "\":" i ","
	sub(/^\{/, s, p); print p }' >"$T/many.ndjson"
run "$BCTX" assemble -q "$Q" --allow-empty "$T/many.ndjson"
expect_status 0 "a record of 45 keys is read"
done_testing
