#!/bin/sh
# Hostile and oversized input: a 10 MB llms.txt, 7,000 links, binary files,
# CRLF, invalid UTF-8, pathological lines for the reference patterns.  Every
# case ends with records or a clear error, never a crash.  The inputs are
# generated here.  (timeout only guards against a hang; nothing is timed.)
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
TO="timeout 300"

# ---------------------------------------------------------------- 7,000 links
awk 'BEGIN {
	print "# Big Site\n\n> Many links.\n\nInfo.\n"
	for (s = 0; s < 70; s++) {
		printf "## Section %d\n\n", s
		for (i = 0; i < 100; i++)
			printf "- [Page %d.%d](https://big.example.com/s%d/p%d.md): page %d of section %d\n", s, i, s, i, i, s
		print ""
	}
}' >"$T/links.txt"
run $TO "$B" --llms --site-id BIG "$T/links.txt"
expect_status 0 "7,000 links: lenient parse"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="llms") | .link_count')" "7000" "7,000 link records counted"
is "$(printf '%s\n' "$out" | grep -c '"kind":"link"')" "7000" "7,000 link records emitted"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link") | .line' | tail -1)" \
	"$(grep -n 'p99.md' "$T/links.txt" | tail -1 | cut -d: -f1)" "last link's line number"
run $TO "$B" --llms -r --dump "$T/links.txt"
expect_status 0 "7,000 links: reference parse"
is "$(printf '%s\n' "$out" | jq '[.sections[] | length] | add')" "7000" "reference keeps all 7,000"
run $TO "$B" --check "$T/links.txt"
is "$(printf '%s\n' "$out" | jq -r '"\(.verdict) \(.distinct_markdown_links)"')" "PASS 7000" "--check on 7,000 links"

# ---------------------------------------------------------------- 10 MB
awk 'BEGIN {
	print "# Huge\n\n> A 10 MB file.\n"
	line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor."
	for (i = 0; i < 125000; i++) print line
	print "\n## Docs\n"
	for (i = 0; i < 1000; i++)
		printf "- [Doc %d](/docs/%d.md): described\n", i, i
}' >"$T/huge.txt"
size=$(wc -c <"$T/huge.txt")
ok test "$size" -gt 10000000
run $TO "$B" --llms --base https://h.example.com/llms.txt "$T/huge.txt"
expect_status 0 "10 MB llms.txt: lenient parse"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="llms") | "\(.link_count) \(.info | length)"')" \
	"1000 9999999" "10 MB: info kept whole, links found"
run $TO "$B" --llms -r --dump "$T/huge.txt"
expect_status 0 "10 MB llms.txt: reference parse"
run $TO "$B" --raw "$T/huge.txt"
expect_status 0 "10 MB Markdown preparation"
is "$(wc -c <"$T/out" | tr -d ' ')" "$size" "10 MB: Markdown unchanged when nothing to strip"

# pathological lines for the reference link pattern and the head pattern:
# linear-time matching keeps them fast
awk 'BEGIN { printf "# T\n\n> s\n\ni\n\n## A\n"; for (i = 0; i < 300000; i++) printf "-["; print "" }' >"$T/patho1.txt"
run $TO "$B" --llms -r "$T/patho1.txt"
expect_status 1 "600 KB line of -[ : reference raises (no link)"
like "$err" "patho1.txt:8: reference parser raises" "line named"
run $TO "$B" --llms "$T/patho1.txt"
expect_status 0 "600 KB line of -[ : lenient parse"
awk 'BEGIN { printf "#"; for (i = 0; i < 200000; i++) printf " \n"; printf "x"; for (i = 0; i < 200000; i++) printf "\n>x"; print "" }' >"$T/patho2.txt"
run $TO "$B" --llms -r --dump "$T/patho2.txt"
expect_status 0 "whitespace and quote runs in the head: reference parse ends"
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "<!--<img src=\"data:image/ "; print "" }' >"$T/patho3.md"
run $TO "$B" -r --raw "$T/patho3.md"
expect_status 0 "pathological comment/img line: reference filter ends"
run $TO "$B" --raw "$T/patho3.md"
expect_status 0 "pathological comment/img line: preparation ends"

# ---------------------------------------------------------------- binary
# The same bytes every run (a fixed seed): one random file in 256 would
# start with '{' and be read as records (checked on its own below).
/usr/bin/python3 -c 'import random, sys
sys.stdout.buffer.write(b"\x89" + random.Random(1).randbytes(65535) + bytes(4))' >"$T/random.bin"
run "$B" --llms "$T/random.bin"
expect_status 0 "binary input: lenient mode reports, does not fail"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic") | .code' | tr '\n' ' ')" \
	"binary_input missing_h1 " "binary input diagnosed"
run "$B" --llms -r "$T/random.bin"
expect_status 1 "binary input: reference mode fails"
like "$err" "random.bin:[0-9]+: reference parser raises UnicodeDecodeError" "binary: decode error with line"
run "$B" --check "$T/random.bin"
is "$(printf '%s\n' "$out" | jq -r '"\(.verdict) \(.reasons[0])"')" "FAIL IC-1: binary file" "binary fails IC-1"
run "$B" --raw "$T/random.bin"
expect_status 0 "binary Markdown: prepared as text, invalid bytes replaced"
ok sh -c "iconv -f UTF-8 -t UTF-8 '$T/out' >/dev/null"
cp "$T/random.bin" "$T/ctx.txt"
run "$B" --ctx "$T/ctx.txt"
expect_status 1 "--ctx on binary fails like the reference"

# Binary bytes after a '{' are guessed to be records, as bmdprep(1) says,
# and refused with the file and line.
{ printf '{'; cat "$T/random.bin"; } >"$T/brace.bin"
run "$B" --llms "$T/brace.bin"
expect_status 1 "binary after '{': taken as records, refused"
like "$err" "brace.bin:1: NUL byte at column [0-9]+" "binary after '{': the line and column named"

# ---------------------------------------------------------------- encodings
printf '# Caf\351\n\n> s\n\n## Docs\n- [a](https://e.org/a.md): caf\351\n' >"$T/latin1.txt"
run "$B" --llms "$T/latin1.txt"
expect_status 0 "Latin-1 bytes: lenient parse"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="llms") | .title')" "Caf$(printf '\357\277\275')" \
	"invalid UTF-8 replaced by U+FFFD"
like "$out" '"code":"invalid_utf8","line":1' "invalid UTF-8 diagnosed with its line"
run "$B" --llms -r "$T/latin1.txt"
expect_status 1 "Latin-1 bytes: reference mode fails"
like "$err" "latin1.txt:1: reference parser raises UnicodeDecodeError" "decode error at line 1"
printf '\357\273\277# T\r\n\r\n> S\r\n\r\n## Docs\r\n- [a](https://e.org/a.md): d\r\n' >"$T/crlf.txt"
run "$B" --llms "$T/crlf.txt"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind!="diagnostic") | .title // empty')" "T
a" "BOM and CRLF: clean title and link"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link") | .description')" "d" "CRLF: description without CR"
run "$B" --llms -r "$T/crlf.txt"
expect_status 1 "reference mode: a BOM before the H1 makes the reference raise"
like "$err" "crlf.txt:1: reference parser raises AttributeError" "BOM: header error at line 1"
printf '# T\r\n\r\n> S\r\n\r\ninfo\r\n\r\n## A\r\n- [a](u): d\r\n' >"$T/crlf2.txt"
run "$B" --llms -r --dump "$T/crlf2.txt"
is "$(printf '%s\n' "$out" | jq -c '[.title, .summary, .info]')" '["T\r\n\r","S\r","\r\ninfo"]' \
	"reference CRLF quirks"
printf '' >"$T/empty.txt"
run "$B" --llms "$T/empty.txt"
expect_status 0 "empty file: lenient"
like "$out" '"code":"missing_h1"' "empty file: missing H1"
run "$B" --llms -r "$T/empty.txt"
expect_status 1 "empty file: reference raises"
printf 'a\0b\n\0\n' >"$T/nul.md"
run "$B" --raw "$T/nul.md"
is "$(od -An -c "$T/out" | tr -d ' \n')" 'ab\n' "NUL bytes dropped from Markdown"
printf '{"site_id":"S","url":"u","condition":"B","fetch_status":"SUCCESS","archive_path":"n.md"}\n' >"$T/nul.ndjson"
cp "$T/nul.md" "$T/n.md"
run "$B" -a "$T" "$T/nul.ndjson"
is "$(printf '%s\n' "$out" | jq -c '[.markdown, .content_chars]')" '["ab\n",3]' "NUL bytes: record mode"
done_testing
