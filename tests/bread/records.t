#!/bin/sh
# Record mode (records.md "bread"): manifest records in, records with text,
# title, byline, excerpt, content_chars, extractor and exclusion_reason out;
# failed fetches and other conditions pass through untouched; errors name
# the file and line.  Also the options and usage errors.
. "${0%/*}/../lib/tap.sh"

BREAD=$(prog bread)
A=$T/archive
mkdir -p "$A/html/S001" "$A/markdown/S001"
ART='<p>Readability scores paragraphs by their commas, their length, and the class names of their ancestors, then keeps the best.</p>'
printf '<html><head><title>Doc page | Site</title><meta name="author" content="Ada"></head><body><nav class="menu"><a href="/">Home</a></nav><div class="content">%s%s%s%s%s</div></body></html>' \
	"$ART" "$ART" "$ART" "$ART" "$ART" >"$A/html/S001/a.html"
printf '<html><body><div id="app"></div><script>boot()</script></body></html>' >"$A/html/S001/js.html"
printf '<html><head><meta charset="iso-8859-1"><title>x</title></head><body><p>Caf\351 au lait, caf\351 cr\350me, and other drinks of the morning, served hot.</p></body></html>' >"$A/html/S001/l1.html"
printf '# md\n' >"$A/markdown/S001/m.md"
cat >"$T/in.ndjson" <<'J'
{"site_id":"S001","url":"https://ex.org/a","condition":"A","fetch_status":"SUCCESS","http_status":200,"content_type":"text/html; charset=utf-8","archive_path":"html/S001/a.html"}
{"site_id":"S001","url":"https://ex.org/js","condition":"A","fetch_status":"SUCCESS","http_status":200,"content_type":"text/html","archive_path":"html/S001/js.html"}
{"site_id":"S001","url":"https://ex.org/gone","condition":"A","fetch_status":"HTTP_ERROR","http_status":404,"archive_path":null}
{"site_id":"S001","url":"https://ex.org/m.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S001/m.md"}
{"site_id":"S001","url":"https://ex.org/l1","condition":"A","fetch_status":"SUCCESS","content_type":"text/html; charset=windows-1252","archive_path":"html/S001/l1.html"}
J
run "$BREAD" -a "$A" "$T/in.ndjson"
expect_status 0 "record mode: exit 0"
printf '%s\n' "$out" >"$T/out.ndjson"
is "$(wc -l <"$T/out.ndjson" | tr -d ' ')" 5 "one record out per record in, in order"
is "$(jq -r 'select(.url == "https://ex.org/a") | [.title, .byline, (.content_chars > 300), .extractor.name, (.exclusion_reason // "none")] | join(",")' "$T/out.ndjson")" \
	"Doc page | Site,Ada,true,bread,none" "extracted record: title (a short title keeps its site name, as in Readability.js), byline, content_chars, extractor"
like "$(jq -r 'select(.url == "https://ex.org/a") | .text' "$T/out.ndjson")" "^Readability scores paragraphs" "the text starts with the article"
unlike "$(jq -r 'select(.url == "https://ex.org/a") | .text' "$T/out.ndjson")" "Home" "navigation is not in the text"
is "$(jq -r 'select(.url == "https://ex.org/a") | .excerpt' "$T/out.ndjson" | cut -c1-20)" "Readability scores p" "excerpt from the first paragraph"
is "$(jq -c 'select(.url == "https://ex.org/js") | [.content_chars, .exclusion_reason]' "$T/out.ndjson")" '[0,"JS_ONLY"]' "empty text: JS_ONLY"
is "$(sed -n 3p "$T/out.ndjson")" "$(sed -n 3p "$T/in.ndjson" | jq -c .)" "failed fetch passes through untouched"
is "$(sed -n 4p "$T/out.ndjson")" "$(sed -n 4p "$T/in.ndjson" | jq -c .)" "condition B passes through untouched"
like "$(jq -r 'select(.url == "https://ex.org/l1") | .text' "$T/out.ndjson")" "Café au lait, café crème" "Content-Type charset from the manifest"
is "$(jq -r 'select(.url == "https://ex.org/a") | .extractor.version' "$T/out.ndjson")" "$("$BREAD" --version | awk '{print $NF}')" "extractor version is the program's"

is "$err" "bread: records: 5  extracted 3 (JS_ONLY 1)  passed through untouched 2" "a one-line summary on stderr"

# A run that extracts nothing says so and exits 1 (nothing written), unless
# --allow-empty; a record bfetch did not write names the stage to run first.
sed -n 4p "$T/in.ndjson" >"$T/only-b.ndjson"
run "$BREAD" -a "$A" -o "$T/b-out.ndjson" "$T/only-b.ndjson"
expect_status 1 "records of condition B only: exit 1"
like "$err" "only-b.ndjson: all 1 records are of condition B, nothing extracted: .*condition B goes to bmdprep \\(--allow-empty" "naming the condition, the stage and the option"
is "$(printf '%s\n' "$err" | wc -l)" 1 "in one line"
[ ! -e "$T/b-out.ndjson" ]
is "$?" 0 "and no output file"
sed -n 3p "$T/in.ndjson" >"$T/only-failed.ndjson"
run "$BREAD" -a "$A" "$T/only-failed.ndjson"
expect_status 1 "no successful condition A fetch: exit 1"
like "$err" "no successful condition A fetch among 1 records, nothing extracted" "saying so"
run "$BREAD" -a "$A" --allow-empty -o "$T/b-out.ndjson" "$T/only-b.ndjson"
expect_status 0 "--allow-empty accepts it"
is "$(cat "$T/b-out.ndjson")" "$(jq -c . "$T/only-b.ndjson")" "passing the records through"
printf '{"site_id":"S001","question_id":"S001-Q01","condition":"A","content":"x"}\n' >"$T/ctx.ndjson"
run "$BREAD" -a "$A" "$T/ctx.ndjson"
expect_status 1 "a record bfetch did not write: exit 1"
like "$err" "ctx.ndjson:1: no fetch_status: .*run bfetch first" "naming the stage to run first"

# threshold from the config and from --min-chars; stdin and -o
printf '{"extraction": {"min_content_length_chars": 100000}}\n' >"$T/cfg.json"
run sh -c "\"\$0\" -a \"\$1\" -c \"\$2\" -o \"\$3\" <\"\$4\"" "$BREAD" "$A" "$T/cfg.json" "$T/o.ndjson" "$T/in.ndjson"
expect_status 0 "stdin in, -o out"
is "$(jq -r 'select(.condition == "A" and .fetch_status == "SUCCESS") | .exclusion_reason' "$T/o.ndjson" | sort -u)" "JS_ONLY" "config min_content_length_chars applies"
run sh -c "\"\$0\" -a \"\$1\" --min-chars 0 <\"\$2\" | jq -r 'select(.url == \"https://ex.org/js\") | .exclusion_reason // \"none\"'" "$BREAD" "$A" "$T/in.ndjson"
is "$out" "none" "--min-chars 0: no exclusion"
CTXBENCH_ARCHIVE=$A run "$BREAD" "$T/in.ndjson"
expect_status 0 "archive from \$CTXBENCH_ARCHIVE"

# errors in records: file and line
printf '%s\n' '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"html/S001/missing.html"}' >"$T/miss.ndjson"
run "$BREAD" -a "$A" "$T/miss.ndjson"
expect_status 1 "missing archived file: exit 1"
like "$err" "^bread: .*miss.ndjson:1: .*missing.html: No such file" "missing file: message names record and file"
printf '%s\n%s\n' '{"condition":"B","fetch_status":"SUCCESS"}' '{"condition":"A","fetch_status":"SUCCESS","url":"u"}' >"$T/noap.ndjson"
run "$BREAD" -a "$A" "$T/noap.ndjson"
expect_status 1 "success without archive_path: exit 1"
like "$err" "noap.ndjson:2: archive_path: expected a string" "no archive_path: line 2"
printf '%s\n' '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"../../etc/passwd"}' >"$T/esc.ndjson"
run "$BREAD" -a "$A" "$T/esc.ndjson"
expect_status 1 "archive_path leaving the archive: exit 1"
like "$err" "esc.ndjson:1: archive_path: expected a path inside the archive" "path escape refused"
# symbolic links (issue 21): one out of the archive is never followed, one
# that stays inside is
printf 'root:x:0:0:secret outside the archive, a line long enough to be an article text of its own:/root:/bin/sh\n' >"$T/outside.html"
ln -s "$T/outside.html" "$A/html/S001/abs.html"
ln -s ../../../outside.html "$A/html/S001/rel.html"
ln -s a.html "$A/html/S001/inside.html"
mkdir -p "$T/elsewhere" && ln -s "$T/elsewhere" "$A/html/S001/dirlink"
cp "$T/outside.html" "$T/elsewhere/p.html"
for f in abs.html rel.html dirlink/p.html; do
	printf '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"html/S001/%s"}\n' "$f" >"$T/link.ndjson"
	run "$BREAD" -a "$A" "$T/link.ndjson"
	expect_status 1 "symbolic link out of the archive ($f): exit 1"
	like "$err" "link.ndjson:1: archive_path: \"html/S001/$f\" leads out of the archive" "symbolic link out ($f): refused, named"
	unlike "$out" "secret" "symbolic link out ($f): nothing of the outside file"
done
printf '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"html/S001/inside.html"}\n' >"$T/link.ndjson"
run "$BREAD" -a "$A" "$T/link.ndjson"
expect_status 0 "symbolic link inside the archive: followed"
like "$out" "Readability scores paragraphs" "symbolic link inside: the page's text"

# content_sha256 (issue 21): checked when present
sum=$(sha256sum "$A/html/S001/a.html" | cut -d' ' -f1)
printf '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"html/S001/a.html","content_sha256":"%s"}\n' "$sum" >"$T/sum.ndjson"
run "$BREAD" -a "$A" "$T/sum.ndjson"
expect_status 0 "content_sha256 that matches: exit 0"
like "$out" "Readability scores paragraphs" "content_sha256 matches: extracted"
printf '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":"html/S001/l1.html","content_sha256":"%s"}\n' "$sum" >"$T/sum.ndjson"
run "$BREAD" -a "$A" "$T/sum.ndjson"
expect_status 1 "content_sha256 that does not match: exit 1"
like "$err" "sum.ndjson:1: content_sha256: .*l1.html has SHA-256 [0-9a-f]{64}, the record says $sum" "mismatch: both digests named"
is "$out" "" "mismatch: no record written"
printf '%s\n' '{"condition":"A","fetch_status":"SUCCESS","url":"u","archive_path":7}' >"$T/type.ndjson"
run "$BREAD" -a "$A" "$T/type.ndjson"
expect_status 1 "archive_path of the wrong type: exit 1"
like "$err" "type.ndjson:1: archive_path: expected a string" "wrong type: message"
printf '{"condition":"A"\n' >"$T/bad.ndjson"
run "$BREAD" -a "$A" "$T/bad.ndjson"
expect_status 1 "malformed JSON: exit 1"
like "$err" "bad.ndjson:1:" "malformed JSON: file and line"

# raw mode and options
run "$BREAD" "$A/html/S001/a.html"
expect_status 0 "raw mode"
like "$out" "^Readability scores paragraphs" "raw mode prints the text"
run --stdin "$A/html/S001/a.html" "$BREAD" --raw
like "$out" "^Readability scores paragraphs" "--raw reads a page from stdin"
run "$BREAD" --whole "$A/html/S001/a.html"
like "$out" "^Home" "--whole keeps the navigation"
printf '<html><head><title>T</title></head><body><article><h2>Install</h2><p>%s</p><ul><li>one</li><li>two</li></ul><pre>make all\n  make check</pre><ol><li>first</li></ol><blockquote>quoted words here</blockquote><table><tr><td>a</td><td>b</td></tr></table></article></body></html>' \
	"Readability keeps this paragraph, since it is long and has commas, commas, and more commas, so it scores well." >"$T/md.html"
run "$BREAD" --min-chars 0 --markdown "$T/md.html"
expect_status 0 "--markdown"
printf '%s\n' "$out" >"$T/md.out"
cat >"$T/md.want" <<'W'
## Install

Readability keeps this paragraph, since it is long and has commas, commas, and more commas, so it scores well.

- one
- two

```
make all
  make check
```

1. first

> quoted words here

a | b
W
files_eq "$T/md.out" "$T/md.want" "markdown: headings, lists, fences, quotes, cells"
run "$BREAD" "$T/md.html"
printf '%s\n' "$out" >"$T/txt.out"
cat >"$T/txt.want" <<'W'
Install
Readability keeps this paragraph, since it is long and has commas, commas, and more commas, so it scores well.
one
two
make all
  make check
first
quoted words here
a | b
W
files_eq "$T/txt.out" "$T/txt.want" "plain text: a line per block, pre verbatim"
run "$BREAD" "$A/html/S001/a.html" "$T/in.ndjson"
expect_status 2 "mixing pages and records: usage error"
run "$BREAD" --json "$T/in.ndjson"
expect_status 2 "--json in record mode: usage error"
run "$BREAD" --min-chars x "$T/in.ndjson"
expect_status 2 "bad --min-chars: usage error"
run "$BREAD" --bogus
expect_status 2 "unknown option: usage error"
run "$BREAD" "$T/nope.html"
expect_status 1 "raw mode, missing page: exit 1"
like "$err" "nope.html: No such file" "missing page named"
run "$BREAD" --help
expect_status 0 "--help"
like "$out" "^usage: bread" "--help prints usage"
run "$BREAD" --version
like "$out" "^bread " "--version"
# every long option of --help is on the man page, which lints cleanly
"$BREAD" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
missing=""
while read -r o; do
	grep -q -- "Fl \\\\-${o#--}" "$TOP/man/bread.1" || missing="$missing $o"
done <"$T/opts"
is "$missing" "" "every long option is on man/bread.1"
if command -v mandoc >/dev/null 2>&1; then
	run mandoc -Tlint -W warning "$TOP/man/bread.1"
	is "$out$err" "" "mandoc -Tlint is clean"
else
	fail "mandoc is installed (tools/bread/deps.apt)"
fi
done_testing
