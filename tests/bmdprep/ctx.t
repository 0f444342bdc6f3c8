#!/bin/sh
# bmdprep --ctx: the reference create_ctx() context from an llms.txt and its
# documents given as files (--doc) or records (--docs, inline text or
# archived files of condition B manifest records).
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)

cat >"$T/llms.txt" <<'EOF2'
# Proj & Co

> It's "quoted"

Info text.

## Docs
- [One](https://p.example.com/one.md): first <one>
- [Two](two.md)

## Optional
- [Three](https://p.example.com/three.md): extra
EOF2
printf '# One\n<!-- gone -->\nbody one\n' >"$T/one.md"
printf 'two\r\n<img src="data:image/png;base64,AA"> x\r\nend\r\n' >"$T/two.md"
printf 'three\n' >"$T/three.md"
run "$B" --ctx --doc "https://p.example.com/one.md=$T/one.md" --doc "two.md=$T/two.md" "$T/llms.txt"
expect_status 0 "--ctx with --doc files"
printf '%s' "<project title=\"Proj &amp; Co\" summary='It&#39;s \"quoted\"'>Info text.<docs><doc title=\"One\" desc=\"first &lt;one&gt;\"># One
body one</doc><doc title=\"Two\">two
end</doc></docs></project>" >"$T/want"
files_eq "$T/out" "$T/want" "create_ctx(optional=False) byte for byte"
run "$B" --ctx --optional --doc "https://p.example.com/one.md=$T/one.md" --doc "two.md=$T/two.md" "$T/llms.txt"
expect_status 1 "a link without a document is an error"
like "$err" "llms.txt:12: no document given for the link URL \"https://p.example.com/three.md\"" \
	"missing document named with its line"

# records: inline text, and archived files found through archive_path;
# a relative link is found by its resolved URL with --base
mkdir -p "$T/archive/markdown/S1"
cp "$T/two.md" "$T/archive/markdown/S1/t.md"
cp "$T/three.md" "$T/archive/markdown/S1/3.md"
cat >"$T/docs.ndjson" <<EOF2
{"url":"https://p.example.com/one.md","markdown":"# One\n<!-- gone -->\nbody one\n"}
{"site_id":"S1","url":"https://p.example.com/two.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/t.md"}
{"site_id":"S1","url":"https://p.example.com/three.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/3.md"}
EOF2
run "$B" --ctx --optional -a "$T/archive" -b https://p.example.com/llms.txt --docs "$T/docs.ndjson" "$T/llms.txt"
expect_status 0 "--ctx with --docs records"
like "$out" '</docs><optional><doc title="Three" desc="extra">three</doc></optional></project>$' \
	"Optional section included with --optional"
like "$out" '<doc title="Two">two' "relative link found through --base"
printf '{"url":"https://p.example.com/x.md","condition":"B","fetch_status":"TIMEOUT","archive_path":null}\n' >"$T/bad.ndjson"
run "$B" --ctx --docs "$T/bad.ndjson" "$T/llms.txt"
expect_status 1 "a failed document record is an error"
like "$err" "bad.ndjson:1: no text, markdown, content or archive_path" "record line named"
run "$B" --ctx "$T/llms.txt" "$T/llms.txt"
expect_status 2 "--ctx takes one file"
run "$B" --llms --doc "x=y" "$T/llms.txt"
expect_status 2 "--doc without --ctx is a usage error"
run "$B" --ctx --doc "=y" "$T/llms.txt"
expect_status 2 "--doc needs URL=FILE"
done_testing
