#!/bin/sh
# The record contract with bmdprep, end to end: every conformance llms.txt
# parsed by `bmdprep --llms -r`, every linked document (the synthetic body of
# shared/conformance/llmstxt/README.md, as raw files in an archive) prepared
# by `bmdprep -r` in record mode, then `bctx assemble --style reference
# --all-links` must give the reference create_ctx output byte for byte; and
# bctx plan must accept the link records.
. "${0%/*}/../lib/tap.sh"
CONF=$SHARED/conformance/llmstxt
need_shared conformance/llmstxt/corpus ||
    skip_all "no shared llms.txt conformance data ($CONF)"
BCTX=$(prog bctx)
BMDPREP=$(prog bmdprep)
TAB=$(printf '\t')
printf '%s\n' '[{"site_id":"S001","domain":"example.org","questions":[{"question_id":"S001-Q01","text":"What?","complexity":"single-fact","source_sections":["x"],"source_urls":["https://example.org/llms.txt"]}]}]' >"$T/q.json"

for want in "$CONF"/corpus/*.expected-ctx.xml; do
	base=${want%.expected-ctx.xml}
	name=${base##*/}
	d=$T/$name
	mkdir -p "$d/archive/markdown/S001"
	"$BMDPREP" --llms -r --site-id S001 -b https://example.org/llms.txt "$base.txt" >"$d/links.ndjson" ||
	    { fail "$name: bmdprep --llms"; continue; }
	i=0
	jq -r 'select(.kind=="link")|[.url,.href]|@tsv' "$d/links.ndjson" | sort -u |
	while IFS="$TAB" read -r url href; do
		i=$((i + 1))
		printf '# Doc for %s\n<!-- stripped comment -->\nBody line with <b>html</b> & ampersand.\n<img alt="x" src="data:image/png;base64,AAAA"> whole line dropped\n  <!-- indented comment kept -->\nlast line\n' \
		    "$href" >"$d/archive/markdown/S001/$i.md"
		u=$(printf '%s' "$url" | sed 's/[\\"]/\\&/g')
		printf '{"site_id":"S001","url":"%s","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S001/%d.md"}\n' "$u" "$i"
	done >"$d/manifest.ndjson"
	"$BMDPREP" -r -a "$d/archive" "$d/manifest.ndjson" >"$d/b.ndjson" ||
	    { fail "$name: bmdprep -r"; continue; }
	"$BCTX" assemble -q "$T/q.json" --condition B --style reference --all-links \
	    "$d/links.ndjson" "$d/b.ndjson" | jq -j .content >"$d/got"
	files_eq "$d/got" "$want" "bmdprep -> bctx: $name create_ctx(optional=False)"
	"$BCTX" assemble -q "$T/q.json" --condition B --style reference --all-links --optional \
	    "$d/links.ndjson" "$d/b.ndjson" | jq -j .content >"$d/got"
	files_eq "$d/got" "$base.expected-ctx-full.xml" "bmdprep -> bctx: $name create_ctx(optional=True)"
done
# plan reads bmdprep's link records: an HTML URL listed as URL.md maps to it
"$BMDPREP" --llms --site-id S001 -b https://claudette.answer.ai/llms.txt \
    "$CONF/corpus/04-answerdotai-claudette.txt" >"$T/cl.ndjson"
printf '%s\n' '"site_id","domain","llms_txt_url","html_docs_url","sector","llms_txt_page_count","has_llms_full","verification_date","verification_status","exclusion_reason","notes"' \
    '"S001","claudette.answer.ai","https://claudette.answer.ai/llms.txt","https://claudette.answer.ai/","Developer Tools & APIs",5,"FALSE","2026-02-22","PASS","",""' >"$T/s.csv"
run "$BCTX" plan -s "$T/s.csv" -l "$T/cl.ndjson" --site S001 --url https://claudette.answer.ai/toolloop.html
is "$(jq -r '[.b_url,.b_rule,(.sections|join(","))]|@tsv' "$T/out")" \
    "$(printf 'https://claudette.answer.ai/toolloop.html.md\turl.md\tOptional')" \
    "plan maps an HTML page to its llms.txt link from bmdprep's records"
done_testing
