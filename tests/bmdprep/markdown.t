#!/bin/sh
# bmdprep Markdown preparation (spec 001 §2.3, config markdown_preprocessing):
# raw files, the reference line filter, condition B records, the config.
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
# The example study's configuration (the same markdown_preprocessing as the real one).
CFG=$TOP/examples/benchmark-config.json

printf -- '---\ntitle: x\n---\n\n\n# Title\r\n\r\nText <!-- inline --> more\r\n<!-- whole line -->\nkeep\n<!--\nmulti\nline\n-->\nafter\n\n\n\n\n\nbig gap\n![logo](data:image/png;base64,AAAA) caption\n![real](https://e.org/i.png)\n<img alt="x"\n  src="data:image/gif;base64,R0lG">\n<IMG src='"'"'data:image/png;base64,QQ=='"'"' />tail\n<img src="/real.png">\n[ref]: data:image/png;base64,ZZZ\n```html\n<!-- kept in code -->\n![x](data:image/png;base64,QQ)\n```\nUse `<!-- more -->` inline.\nunterminated <!-- comment\nend\n\n\n' >"$T/doc.md"

run "$B" --raw "$T/doc.md"
expect_status 0 "raw Markdown preparation"
cat >"$T/want.md" <<'EOF'
---
title: x
---


# Title

Text  more
keep
after


big gap
 caption
![real](https://e.org/i.png)
tail
<img src="/real.png">
```html
<!-- kept in code -->
![x](data:image/png;base64,QQ)
```
Use `<!-- more -->` inline.
unterminated <!-- comment
end
EOF
files_eq "$T/out" "$T/want.md" "comments, base64 images, CRLF, blank runs; code and unclosed comments kept"
run "$B" --raw --front-matter drop --max-blank 0 "$T/doc.md"
is "$(head -n 3 "$T/out")" "# Title
Text  more
keep" "--front-matter drop and --max-blank 0"
is "$(grep -c '^$' "$T/out")" "0" "no blank line left with --max-blank 0"

# the reference implementation's line filter: only whole comment lines and
# lines with an inline base64 <img> go; no other change; no final newline
printf '# A\r\n<!-- c -->\r\n  <!-- indented -->\nx <img src="data:image/png;base64,AA"> y\n<img src=\x27data:image/png;base64,AA\x27>\nlast\n' >"$T/ref.md"
run "$B" -r --raw "$T/ref.md"
printf '# A\n  <!-- indented -->\n<img src=\x27data:image/png;base64,AA\x27>\nlast' >"$T/want-ref"
files_eq "$T/out" "$T/want-ref" "reference filter, byte for byte"

# config: strip_html_comments false keeps comments; unsupported line endings refused
jq '.extraction.markdown_preprocessing.strip_html_comments = false' "$CFG" >"$T/cfg.json"
run "$B" -c "$T/cfg.json" --raw "$T/doc.md"
like "$out" "Text <!-- inline --> more" "config strip_html_comments=false keeps comments"
jq '.extraction.markdown_preprocessing.normalize_line_endings = "CRLF"' "$CFG" >"$T/cfg2.json"
run "$B" -c "$T/cfg2.json" --raw "$T/doc.md"
expect_status 1 "unsupported line ending setting refused"
like "$err" "normalize_line_endings" "setting named"
jq '.extraction.markdown_preprocessing.max_consecutive_blank_lines = "two"' "$CFG" >"$T/cfg3.json"
run "$B" -c "$T/cfg3.json" --raw "$T/doc.md"
expect_status 1 "wrong type in config refused"
like "$err" "cfg3.json: extraction.markdown_preprocessing.max_consecutive_blank_lines" "config file and key named"
run "$B" -c "$CFG" --raw "$T/doc.md"
files_eq "$T/out" "$T/want.md" "the study config gives the defaults"

# ---------------------------------------------------------------- records
A=$T/archive
mkdir -p "$A/markdown/S1"
cp "$T/doc.md" "$A/markdown/S1/a.md"
printf '<!-- only a comment -->\n\n\n' >"$A/markdown/S1/empty.md"
printf 'caf\303\251 \342\202\254\n' >"$A/markdown/S1/utf.md"
cat >"$T/m.ndjson" <<'EOF'
{"site_id":"S1","url":"https://e.org/a.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/a.md"}
{"site_id":"S1","url":"https://e.org/empty.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/empty.md"}
{"site_id":"S1","url":"https://e.org/gone.md","condition":"B","fetch_status":"HTTP_ERROR","http_status":404,"archive_path":null}
{"site_id":"S1","url":"https://e.org/a","condition":"A","fetch_status":"SUCCESS","archive_path":"html/S1/a.html"}
{"site_id":"S1","url":"https://e.org/utf.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/utf.md"}
EOF
run "$B" -a "$A" "$T/m.ndjson"
expect_status 0 "record mode"
printf '%s\n' "$out" >"$T/m.out"
is "$(jq -r 'select(.url=="https://e.org/a.md") | .markdown' "$T/m.out")" "$(cat "$T/want.md")" \
	"markdown field holds the prepared text"
is "$(jq -r '"\(.url) \(.content_chars) \(.exclusion_reason)"' "$T/m.out")" \
"https://e.org/a.md $(wc -m <"$T/want.md" | tr -d ' ') null
https://e.org/empty.md 0 EMPTY_CONTENT
https://e.org/gone.md null null
https://e.org/a null null
https://e.org/utf.md 7 null" "content_chars in code points; empty content excluded; others untouched"
is "$(jq -c 'select(.url=="https://e.org/gone.md")' "$T/m.out")" "$(sed -n 3p "$T/m.ndjson")" \
	"failed fetch passes through byte for byte"
CTXBENCH_ARCHIVE=$A run "$B" "$T/m.ndjson"
expect_status 0 "archive from \$CTXBENCH_ARCHIVE"
run "$B" -r -a "$A" "$T/m.ndjson"
is "$(printf '%s\n' "$out" | jq -c 'select(.url=="https://e.org/empty.md") | [.markdown, .exclusion_reason]')" \
	'["\n","EMPTY_CONTENT"]' "reference mode: the filter drops the comment line only"
done_testing
