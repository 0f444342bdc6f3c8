#!/bin/sh
# bmdprep reading the archive (issue 21): a symbolic link out of it is never
# followed, one inside is; content_sha256 is checked when the record has it;
# a SUCCESS record without archive_path is an error, in each record mode.
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
A=$T/archive
mkdir -p "$A/markdown/S001" "$A/llms" "$T/outside"
printf '# Secret\n\nsecret text\n' >"$T/outside/secret.md"
printf '# Page\n\nPage text.\n' >"$A/markdown/S001/page.md"
ln -s ../../../outside/secret.md "$A/markdown/S001/out.md"
ln -s "$T/outside/secret.md" "$A/markdown/S001/abs.md"
ln -s page.md "$A/markdown/S001/in.md"
rec() { printf '{"site_id":"S001","url":"https://e.org/%s","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S001/%s"%s}\n' "$1" "$1" "${2:-}"; }

for f in out.md abs.md; do
	rec $f >"$T/link.ndjson"
	run "$B" -a "$A" "$T/link.ndjson"
	expect_status 1 "symbolic link out of the archive ($f): exit 1"
	like "$err" "link.ndjson:1: archive_path: \"markdown/S001/$f\" leads out of the archive" \
	    "symbolic link out ($f): refused and named"
	unlike "$out" "secret" "symbolic link out ($f): nothing of the outside file"
done
rec in.md >"$T/in.ndjson"
run "$B" -a "$A" "$T/in.ndjson"
expect_status 0 "symbolic link inside the archive: followed"
is "$(printf '%s\n' "$out" | jq -r .markdown)" "$(printf '# Page\n\nPage text.')" "symbolic link inside: the page"

sum=$(sha256sum "$A/markdown/S001/page.md" | cut -d' ' -f1)
rec page.md ",\"content_sha256\":\"$sum\"" >"$T/sum.ndjson"
run "$B" -a "$A" "$T/sum.ndjson"
expect_status 0 "content_sha256 that matches: prepared"
rec page.md ',"content_sha256":"0000000000000000000000000000000000000000000000000000000000000000"' >"$T/bad.ndjson"
run "$B" -a "$A" "$T/bad.ndjson"
expect_status 1 "content_sha256 that differs: exit 1"
like "$err" "bad.ndjson:1: content_sha256: .*/page.md has SHA-256 $sum, the record says 0000" \
    "content_sha256 mismatch: both hashes named"
printf '{"site_id":"S001","url":"https://e.org/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"markdown/S001/out.md"}\n' >"$T/llms.ndjson"
run "$B" --llms -a "$A" "$T/llms.ndjson"
expect_status 1 "--llms: a symbolic link out of the archive is refused too"

printf '{"site_id":"S001","url":"https://e.org/p","condition":"B","fetch_status":"SUCCESS"}\n' >"$T/nopath.ndjson"
run "$B" -a "$A" "$T/nopath.ndjson"
expect_status 1 "SUCCESS condition B record without archive_path: exit 1"
like "$err" "nopath.ndjson:1: archive_path: expected a string for a successful fetch" \
    "SUCCESS without archive_path: named"
is "$out" "" "SUCCESS without archive_path: nothing passed through"
sed 's/"condition":"B"/"condition":"llms_txt"/' "$T/nopath.ndjson" >"$T/nopath-llms.ndjson"
run "$B" --llms -a "$A" "$T/nopath-llms.ndjson"
expect_status 1 "--llms: SUCCESS llms_txt record without archive_path: exit 1"
printf '{"site_id":"S001","url":"https://e.org/p","condition":"B","fetch_status":"TIMEOUT"}\n' >"$T/failed.ndjson"
run "$B" -a "$A" --allow-empty "$T/failed.ndjson"
expect_status 0 "a failed fetch without archive_path passes through"
is "$out" "$(jq -c . "$T/failed.ndjson")" "untouched"
run "$B" -a "$A" -o "$T/failed.out" "$T/failed.ndjson"
expect_status 1 "a run that prepares nothing exits 1 (without --allow-empty)"
like "$err" 'failed.ndjson: no fetched condition B page among 1 records, nothing prepared \(--allow-empty' "saying so in one line"
[ ! -e "$T/failed.out" ]
is "$?" 0 "and writes no output"
printf '{"site_id":"S001","url":"https://e.org/p.html","condition":"A","fetch_status":"SUCCESS","archive_path":"html/S001/p.html"}\n' >"$T/cond-a.ndjson"
run "$B" -a "$A" "$T/cond-a.ndjson"
expect_status 1 "records of condition A only: exit 1"
like "$err" 'cond-a.ndjson: all 1 records are of condition A, nothing prepared: .*condition A goes to bread' "naming the stage they belong to"
printf '{"site_id":"S001","question_id":"S001-Q01","condition":"B","content":"x"}\n' >"$T/ctx.ndjson"
run "$B" -a "$A" "$T/ctx.ndjson"
expect_status 1 "a condition B record bfetch did not write: exit 1"
like "$err" 'ctx.ndjson:1: no fetch_status: .*run bfetch first' "naming the stage to run first"
printf '{"site_id":"S001","url":"https://e.org/p","condition":"A","fetch_status":"TIMEOUT"}\n' >"$T/llms-none.ndjson"
run "$B" --llms -a "$A" "$T/llms-none.ndjson"
expect_status 1 "--llms over records without an llms_txt fetch: exit 1"
like "$err" 'no llms_txt record among 1 records, nothing parsed' "saying so"

# ---- what the input is, when nothing says
printf '\357\273\277{"site_id":"S001"}\n' >"$T/bom.ndjson"
run "$B" "$T/bom.ndjson"
expect_status 1 "a byte order mark before NDJSON: exit 1"
like "$err" "bom.ndjson:1: a UTF-8 byte order mark before NDJSON records" "BOM before NDJSON: named"
printf '\n[{"a":1}]\n' >"$T/arr.json"
run "$B" "$T/arr.json"
expect_status 1 "a JSON array: exit 1"
like "$err" "arr.json:2: an array, not an NDJSON record nor Markdown" "JSON array: named with its line"
printf '42\n' >"$T/num.txt"
run "$B" "$T/num.txt"
like "$err" "num.txt:1: an integer, not an NDJSON record" "a number alone: refused"
run "$B" --raw "$T/num.txt"
is "$out" "42" "--raw: the same file prepared as Markdown"
printf '1. First step\n[Home](/) and more\n' >"$T/list.md"
run "$B" "$T/list.md"
is "$out" "$(cat "$T/list.md")" "Markdown starting with a digit or a bracket: prepared"
printf '\357\273\277# Title\n' >"$T/bom.md"
run "$B" "$T/bom.md"
is "$out" "# Title" "Markdown after a byte order mark: the mark dropped"
/usr/bin/python3 -c 'import sys; sys.stdout.write("# T\n" + "x" * (2 << 20) + "\n")' >"$T/long.md"
run "$B" "$T/long.md"
expect_status 1 "a line over 1 MiB: exit 1"
like "$err" "long.md:2: a line of 2097152 bytes: not a Markdown or llms.txt file" "long line: named"
run sh -c "'$B' --raw '$T/long.md' | wc -c"
is "$out" 2097157 "--raw: the long line prepared all the same"
done_testing
