#!/bin/sh
# bmdprep --llms: lenient parsing with diagnostics, relative URL resolution,
# record mode over an archive of bfetch manifest records, --check verdicts,
# and reference mode errors with file and line.
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
# Own fixtures in tests/bmdprep/llms; the llms.txt conformance corpus of the
# shared study data is read too when present.
F=$TOP/tests/bmdprep/llms
C=$SHARED/conformance/llmstxt/corpus

# ---------------------------------------------------------------- lenient
cat >"$T/site.txt" <<'EOF'
Stray text before the title

# Example Docs ##

> Example is a toolkit for examples.
> A second quote line.

Some info with a [link](https://example.com/x).

### Not a section

## Docs
- [Intro](intro.md): Start here
* [Guide](/guide/index.md) - The guide
+ [API](https://api.example.com/ref.md "API title")
- [Bare](https://example.com/bare.md)
  continued description line
- **[Bold](https://example.com/bold.md)**: bold link
- just a bullet
Some prose in the section.
More prose, same paragraph.

```
- [InFence](https://example.com/fence.md): not a link
```

### Sub heading
- [Sub](../sub.md): under H3 belongs to Docs

## Empty

## Docs
- [Again](https://example.com/again.md): repeated section

## optional
- [Extra](https://example.com/extra.md): optional stuff
- [Bad](http://exa mple.com/x.md): space in URL
- [Ftp](ftp://example.com/f.md): not http

# Second Title
EOF
run "$B" --llms --site-id S9 --base https://docs.example.com/en/llms.txt "$T/site.txt"
expect_status 0 "lenient parse succeeds"
printf '%s\n' "$out" >"$T/out.ndjson"
is "$(jq -r 'select(.kind=="llms") | [.site_id, .title, .summary, .link_count] | @tsv' "$T/out.ndjson")" \
	"S9	Example Docs	Example is a toolkit for examples.	10" "title (closing hashes dropped), summary, link count"
is "$(jq -c 'select(.kind=="llms") | .sections' "$T/out.ndjson")" \
	'["Docs","Empty","Docs","optional"]' "sections in file order, repeats kept"
like "$(jq -r 'select(.kind=="llms") | .info' "$T/out.ndjson")" \
	'^> A second quote line\.' "second blockquote line stays in info"
is "$(jq -r 'select(.kind=="link") | [.title, .url, (.description // "null"), .line, .optional] | @tsv' "$T/out.ndjson")" \
"Intro	https://docs.example.com/en/intro.md	Start here	13	false
Guide	https://docs.example.com/guide/index.md	The guide	14	false
API	https://api.example.com/ref.md	null	15	false
Bare	https://example.com/bare.md	continued description line	16	false
Bold	https://example.com/bold.md	bold link	18	false
Sub	https://docs.example.com/sub.md	under H3 belongs to Docs	28	false
Again	https://example.com/again.md	repeated section	33	false
Extra	https://example.com/extra.md	optional stuff	36	true
Bad	http://exa mple.com/x.md	space in URL	37	true
Ftp	ftp://example.com/f.md	not http	38	true" \
	"links: bullets, resolution, titles dropped, continuation, H3 scope, Optional"
is "$(jq -r 'select(.kind=="link" and .title=="Intro") | .href' "$T/out.ndjson")" \
	"intro.md" "href keeps the URL as written"
is "$(jq -r 'select(.kind=="diagnostic") | "\(.line) \(.code)"' "$T/out.ndjson")" \
"1 content_before_h1
6 multiline_summary
10 heading_in_info
13 relative_url
14 relative_url
15 link_without_description
19 content_outside_structure
20 content_outside_structure
23 content_outside_structure
28 relative_url
30 empty_section
32 repeated_section
37 invalid_url
38 invalid_url
40 repeated_h1" "diagnostics with lines, sorted"
# the API link's "description" comes from nothing: the title in quotes is dropped
is "$(jq -r 'select(.kind=="link" and .title=="API") | .description' "$T/out.ndjson")" "null" \
	"link title attribute is not a description"

# no base: relative URLs are kept as written and reported
run "$B" --llms "$T/site.txt"
like "$out" '"code":"relative_url","line":13,"message":"relative URL \\"intro.md\\" left unresolved' \
	"relative URL without a base is reported unresolved"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link" and .title=="Intro") | .url')" "intro.md" \
	"unresolved URL stays as written"

# missing H1 and CRLF
printf '## Docs\r\n- [A](https://e.org/a.md): a\r\n' >"$T/noh1.txt"
run "$B" --llms "$T/noh1.txt"
expect_status 0 "file without H1 still parses"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic") | .code')" "missing_h1" "missing H1 reported"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link") | .description')" "a" "CRLF: no CR in the description"

# real files: the lenient parser reads every corpus file, the reference ones too
if need_shared conformance/llmstxt/corpus; then
	for f in "$C"/*.txt; do
		run "$B" --llms "$f"
		[ "$rc" -eq 0 ] || break
	done
	expect_status 0 "lenient parse of every conformance corpus file"
else
	skip "no shared llms.txt conformance corpus ($C)"
fi
run "$B" --llms "$F/prose.txt"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="llms") | .link_count')" \
	"$(grep -c '^- \[' "$F/prose.txt")" "prose.txt: every link list item is a link"
like "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic") | .code' | sort -u | tr '\n' ' ')" \
	"content_outside_structure .*repeated_h1" "prose.txt: prose and second H1 reported"

# ---------------------------------------------------------------- reference
run "$B" --llms -r "$F/broken.txt"
expect_status 1 "reference mode fails where the reference raises"
like "$err" "^bmdprep: $F/broken.txt:7: reference parser raises AttributeError" \
	"error names file and line"
run "$B" --llms -r --site-id S1 "$F/sample.txt"
expect_status 0 "reference mode records"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link") | .optional' | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 4 false; 1 true;" "reference Optional section flagged"
printf '# T\n\n## A\n- [a](u)\n' >"$T/t2.txt"
run --stdin "$T/t2.txt" "$B" --llms -r --raw -
expect_status 1 "reference raises on a title directly followed by H2"
like "$err" "^bmdprep: <stdin>:1: reference parser raises AttributeError" "stdin named <stdin>, line 1"

# ---------------------------------------------------------------- records
A=$T/archive
mkdir -p "$A/llms/S1" "$A/llms/S2"
cp "$F/quarry.txt" "$A/llms/S1/aa.txt"
printf '# Tiny\n\n> t\n\n## Docs\n- [a](a.md)\n- [b](b.md)\n' >"$A/llms/S2/bb.txt"
cat >"$T/manifest.ndjson" <<EOF
{"site_id":"S1","url":"https://quarry.example.com/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","http_status":200,"archive_path":"llms/S1/aa.txt"}
{"site_id":"S2","url":"https://tiny.example.org/docs/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","http_status":200,"archive_path":"llms/S2/bb.txt"}
{"site_id":"S3","url":"https://gone.example.org/llms.txt","condition":"llms_txt","fetch_status":"HTTP_ERROR","http_status":404,"archive_path":null,"failure_reason":"HTTP 404"}
{"site_id":"S1","url":"https://quarry.example.com/docs","condition":"A","fetch_status":"SUCCESS","archive_path":"html/S1/x.html"}
EOF
run "$B" --llms -a "$A" "$T/manifest.ndjson"
expect_status 0 "record mode"
printf '%s\n' "$out" >"$T/rec.ndjson"
is "$(jq -r 'select(.kind=="llms") | "\(.site_id) \(.link_count) \(.http_status)"' "$T/rec.ndjson")" \
"S1 20 200
S2 2 200
S3 0 404" "one llms record per site, manifest fields passed through"
is "$(jq -r 'select(.kind=="link" and .site_id=="S2") | .url' "$T/rec.ndjson")" \
"https://tiny.example.org/docs/a.md
https://tiny.example.org/docs/b.md" "relative links resolved against the record's url"
is "$(jq -r 'select(.kind=="diagnostic" and .site_id=="S3") | .code' "$T/rec.ndjson")" "fetch_failed" \
	"failed fetch reported as a diagnostic"
is "$(jq -r 'select(.condition=="A") | .site_id' "$T/rec.ndjson")" "S1" "other records pass through"
is "$(jq -r 'select(.kind=="llms" and .site_id=="S2") | .content' "$T/rec.ndjson" | head -1)" "# Tiny" \
	"llms record carries the prepared text"

printf '{"site_id":"S1","url":"https://e.org/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"../etc/passwd"}\n' >"$T/evil.ndjson"
run "$B" --llms -a "$A" "$T/evil.ndjson"
expect_status 1 "archive_path leaving the archive is refused"
like "$err" "evil.ndjson:1: archive_path" "error names record line and field"
printf '{"site_id":"S1","url":"https://e.org/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"llms/none.txt"}\n' >"$T/missing.ndjson"
run "$B" --llms -a "$A" "$T/missing.ndjson"
expect_status 1 "missing archived file is an error"
like "$err" "missing.ndjson:1: archive_path: .*/none.txt: No such file" "missing file named"
printf '{"site_id":"S1","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"llms/S2/bb.txt"}\n' >"$T/nourl.ndjson"
run "$B" --llms -a "$A" "$T/nourl.ndjson"
expect_status 1 "record without url fails"
like "$err" "nourl.ndjson:1: url" "missing field named"
printf '{"site_id":"S1"}\n{not json\n' >"$T/bad.ndjson"
run "$B" --llms --records "$T/bad.ndjson"
expect_status 1 "invalid JSON line fails"
like "$err" "bad.ndjson:2:" "bad line named"

cp "$F/broken.txt" "$A/llms/S2/bad.txt"
printf '{"site_id":"S2","url":"https://e.org/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"llms/S2/bad.txt"}\n' >"$T/refbad.ndjson"
run "$B" --llms -r -a "$A" "$T/refbad.ndjson"
expect_status 0 "reference mode in records: a raising file does not stop the run"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic") | "\(.code) \(.line)"')" "reference_error 7" \
	"reference failure reported as a diagnostic with its line"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="llms") | "\(.title) \(.archive_path)"')" "null llms/S2/bad.txt" \
	"empty llms record keeps the manifest fields"

# ---------------------------------------------------------------- --check
cat >"$T/sitemap.txt" <<'EOF'
# Sitemap

## Pages
- [a](https://s.example.com/a.md)
- [b](https://s.example.com/b.md)
- [c](https://s.example.com/c.md)
- [d](https://s.example.com/d.md)
- [e](https://s.example.com/e.md)
EOF
run "$B" --check --site-id X "$T/sitemap.txt"
is "$(printf '%s\n' "$out" | jq -r '"\(.verdict) \(.ic1) \(.ic2) \(.ec1) \(.distinct_markdown_links)"')" \
	"FAIL true true true 5" "bare sitemap: EC-1 excludes"
run "$B" --check -a "$A" "$T/manifest.ndjson"
is "$(printf '%s\n' "$out" | jq -r '"\(.site_id) \(.verdict) \(.ic1) \(.ic2) \(.ec1) \(.reference_parses)"')" \
"S1 PASS true true false true
S2 FAIL true false true true
S3 FAIL false false false false" "verdict per site: pass, too few links, fetch failed"
run "$B" --check --min-links 2 -a "$A" "$T/manifest.ndjson"
is "$(printf '%s\n' "$out" | jq -r 'select(.site_id=="S2") | .reasons[]')" \
	"EC-1: bare link list, no link has a description" "--min-links lowers IC-2; reasons listed"
run "$B" --check "$F/broken.txt"
is "$(printf '%s\n' "$out" | jq -r '"\(.ic1) \(.reference_parses) \(.link_count)"')" "true false 3" \
	"reference failure reported, lenient verdict kept"

# ---------------------------------------------------------------- usage
run "$B" --dump "$T/site.txt"
expect_status 2 "--dump without --llms -r is a usage error"
run "$B" --llms --base notaurl "$T/site.txt"
expect_status 2 "bad --base is a usage error"
run "$B" --check --min-links x "$T/site.txt"
expect_status 2 "bad --min-links is a usage error"
run "$B" --llms "$T/nonexistent.txt"
expect_status 1 "missing input file"
like "$err" "nonexistent.txt" "missing file named"
done_testing
