#!/bin/sh
# Hostile pages (issue 4, "Bad input"): each gives a result, never a crash or
# unbounded memory; and the charset rules of 001 §2.2 / issue 4.
. "${0%/*}/../lib/tap.sh"

BREAD=$(prog bread)
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
# Readability's test pages (shared study data) for the declared-GBK cases.
PAGES=$SHARED/conformance/readability/test-pages
ART='<p>This is the article text, long enough to be a paragraph, with commas, more commas, and words.</p>'

# valid_json FILE: one JSON object whose text is valid UTF-8 (jq would fail otherwise)
valid_json() { jq -e 'type == "object" and (.text | type == "string")' "$1" >/dev/null; }

# 1. truncated documents: cut a page of the example site in the middle of a tag
SRC=$CTXBENCH_BUILD/site/docs/install.html
cut=$(grep -bo '<p' "$SRC" | awk -F: '$1 > 3000 { print $1 + 2; exit }')
head -c "$cut" "$SRC" >"$T/trunc.html"
run "$BREAD" --json "$T/trunc.html"
expect_status 0 "truncated page: exit 0"
printf '%s\n' "$out" >"$T/trunc.json"
ok valid_json "$T/trunc.json"
printf '<html><head><title>Cut</title></head><body><div class="content"><p>Some text that goes on and on, with commas, and more</p><p class="x' >"$T/cut.html"
run "$BREAD" "$T/cut.html"
expect_status 0 "page cut inside an attribute: exit 0"
like "$out" "Some text that goes on" "text before the cut is kept"

# 2. tag soup
printf '<p><b><i>bold italic</p></b> text</i><table><td>cell<div>in div</span></td></tr></table></tr><li>item</ul><p>%s' "$ART" >"$T/soup.html"
run "$BREAD" "$T/soup.html"
expect_status 0 "tag soup: exit 0"
like "$out" "article text" "tag soup: the paragraph survives"

# 3. a 50 MB page generated here
$PY - "$T/big.html" <<'PY'
import sys
p = ("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
     "tempor incididunt ut labore et dolore magna aliqua, ut enim ad minim.</p>\n")
n = 50 * 1024 * 1024 // len(p)
with open(sys.argv[1], "w") as f:
    f.write('<html><head><title>Big</title></head><body><div class="content">')
    f.write(p * n)
    f.write("</div></body></html>")
PY
LIMIT="ulimit -v 3000000 2>/dev/null;"
[ -n "${CTXBENCH_ASAN:-}" ] && LIMIT=""  # ASan reserves terabytes of address space
run sh -c "$LIMIT exec \"\$0\" --json \"\$1\" | jq -c '{title, n: .content_chars}'" "$BREAD" "$T/big.html"
expect_status 0 "50 MB page: exit 0 under a 3 GB address-space limit"
like "$out" '"title":"Big","n":[0-9]{8}' "50 MB page: the whole text (tens of millions of characters)"
rm -f "$T/big.html"

# 4. 10,000-deep nesting, after a real paragraph
$PY - "$T/deep.html" "$ART" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("<html><body>" + sys.argv[2] * 6 + "<div>" * 10000 + "deep" + "</div>" * 10000 + "</body></html>")
PY
run "$BREAD" "$T/deep.html"
expect_status 0 "10,000-deep nesting: exit 0"
like "$out" "article text" "10,000-deep nesting: the text before it is kept"
$PY -c 'import sys; sys.stdout.write("<span>" * 10000 + "<b>x</b>" * 10)' >"$T/deep2.html"
run "$BREAD" --markdown "$T/deep2.html"
expect_status 0 "10,000 unclosed inline elements: exit 0"

# 5. invalid bytes inside a UTF-8 page
printf '<html><head><meta charset="utf-8"><title>Bad \377 bytes</title></head><body><div>%s<p>caf\303\251 \200\201 ok \355\240\200 na\357\277</p></div></body></html>' "$ART$ART$ART$ART$ART$ART" >"$T/bytes.html"
run "$BREAD" --json "$T/bytes.html"
expect_status 0 "invalid bytes: exit 0"
printf '%s\n' "$out" >"$T/bytes.json"
ok valid_json "$T/bytes.json"
is "$(jq -r .title "$T/bytes.json")" "$(printf 'Bad \357\277\275 bytes')" "invalid byte in the title replaced by U+FFFD"

# 6. no body, frameset, empty file, only a script (JS-rendered)
printf '<html><head><title>Only a head</title></head></html>' >"$T/nobody.html"
run "$BREAD" --json "$T/nobody.html"
expect_status 0 "no body: exit 0"
is "$(printf '%s' "$out" | jq -r '[.title, .text] | join("|")')" "Only a head|" "no body: title, empty text"
printf '<html><head><title>Frames</title></head><frameset cols="50%%,50%%"><frame src="a.html"><frame src="b.html"></frameset></html>' >"$T/frames.html"
run "$BREAD" --json "$T/frames.html"
expect_status 0 "frameset: exit 0"
is "$(printf '%s' "$out" | jq -r .content_chars)" 0 "frameset: no text"
: >"$T/empty.html"
run "$BREAD" --json "$T/empty.html"
expect_status 0 "empty file: exit 0"
is "$(printf '%s' "$out" | jq -c '[.title, .text, .byline]')" '["","",null]' "empty file: empty result"
printf '<html><body><div id="root"></div><script>render(document.getElementById("root"))</script><noscript>You need to enable JavaScript to run this app.</noscript></body></html>' >"$T/spa.html"
run "$BREAD" --json "$T/spa.html"
is "$(printf '%s' "$out" | jq -r .content_chars)" 0 "JavaScript-only page: no text (script and noscript removed)"

# 7. binary files with an .html name
cp "$BREAD" "$T/binary.html"
run "$BREAD" --json "$T/binary.html"
expect_status 0 "binary (an ELF file): exit 0"
printf '%s\n' "$out" >"$T/bin.json"
ok valid_json "$T/bin.json"
$PY -c 'import random, sys; r = random.Random(4); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(300000)))' >"$T/random.html"
run "$BREAD" --json "$T/random.html"
expect_status 0 "random bytes: exit 0"
printf '%s\n' "$out" >"$T/rand.json"
ok valid_json "$T/rand.json"

# 8. charsets: header first, then BOM, then meta; valid UTF-8 wins
page() { printf '<html><head>%s<title>%b</title></head><body><div>%s</div></body></html>' "$1" "$2" "$ART"; }
page '' 'caf\351' >"$T/latin1.html"
run "$BREAD" --json -t 'text/html; charset=ISO-8859-1' "$T/latin1.html"
is "$(printf '%s' "$out" | jq -r '.title + " " + .charset')" "café WINDOWS-1252" "Content-Type charset ISO-8859-1 (as windows-1252)"
run "$BREAD" --json "$T/latin1.html"
is "$(printf '%s' "$out" | jq -r .title)" "café" "no declaration: windows-1252 default"
page '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">' '\301\302\327' >"$T/koi.html"
run "$BREAD" --json "$T/koi.html"
is "$(printf '%s' "$out" | jq -r .title)" "абв" "meta http-equiv charset (KOI8-R)"
page '<meta charset="iso-8859-1">' 'caf\303\251 \342\200\224 ok' >"$T/lie.html"
run "$BREAD" --json -t 'text/html; charset=gbk' "$T/lie.html"
is "$(printf '%s' "$out" | jq -r '.title + " " + .charset')" "café — ok UTF-8" "declared GBK and ISO-8859-1 but valid UTF-8: not garbled"
page '<meta charset="shift_jis">' '\223\372\226\173' >"$T/sjis.html"
run "$BREAD" --json "$T/sjis.html"
is "$(printf '%s' "$out" | jq -r .title)" "日本" "meta charset Shift_JIS"
page '' 'utf16 \351t\351' | iconv -f latin1 -t UTF-16LE >"$T/u16.body"
{ printf '\377\376'; cat "$T/u16.body"; } >"$T/u16.html"
run "$BREAD" --json -t 'text/html; charset=iso-8859-1' "$T/u16.html"
is "$(printf '%s' "$out" | jq -r .title)" "utf16 été" "UTF-16LE byte order mark"
{ printf '\357\273\277'; page '' 'bom \303\251'; } >"$T/bom8.html"
run "$BREAD" --json "$T/bom8.html"
is "$(printf '%s' "$out" | jq -r .title)" "bom é" "UTF-8 byte order mark dropped"
page '' 'x\351y' >"$T/unknown.html"
run "$BREAD" --json -t 'text/html; charset=x-no-such-charset' "$T/unknown.html"
is "$(printf '%s' "$out" | jq -r .title)" "xéy" "unknown charset label: windows-1252"
for p in gmw qq youth; do
	if ! need_shared "conformance/readability/test-pages/$p/source.html"; then
		skip "no shared Readability test page $p ($PAGES/$p)"
		continue
	fi
	run "$BREAD" --json "$PAGES/$p/source.html"
	is "$(printf '%s' "$out" | jq -r .charset)" "UTF-8" "$p: declared GBK, read as UTF-8"
done
done_testing
