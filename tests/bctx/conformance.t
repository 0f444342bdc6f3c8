#!/bin/sh
# bctx assemble --style reference --all-links against the reference
# create_ctx output of shared/conformance/llmstxt (corpus files with their
# expected-ctx.xml / expected-ctx-full.xml, and every edge case that the
# reference renders).  Inputs are built from the reference's own parse
# result, so this tests bctx's rendering alone, byte for byte.
. "${0%/*}/../lib/tap.sh"
CONF=$SHARED/conformance/llmstxt
need_shared conformance/llmstxt/corpus ||
    skip_all "no shared llms.txt conformance data ($CONF)"
PY=/usr/bin/python3
BCTX=$(prog bctx)

check() {	# DIR WANT_FILE [--optional] DESCRIPTION
	_d=$1 _want=$2 _opt=$3 _desc=$4
	"$BCTX" assemble -q "$_d/questions.json" --condition B --style reference \
	    --all-links $_opt "$_d/records.ndjson" >"$_d/out" 2>"$_d/err" || {
		fail "$_desc"; diag "$(cat "$_d/err")"; return; }
	jq -j .content "$_d/out" >"$_d/got"
	files_eq "$_d/got" "$_want" "$_desc"
}

for want in "$CONF"/corpus/*.expected-ctx.xml; do
	base=${want%.expected-ctx.xml}
	name=${base##*/}
	d=$T/$name
	mkdir -p "$d"
	$PY "${0%/*}/conform.py" "$base.expected.json" "$d"
	check "$d" "$want" "" "corpus $name create_ctx(optional=False)"
	check "$d" "$base.expected-ctx-full.xml" --optional "corpus $name create_ctx(optional=True)"
done

for name in $($PY -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join(k for k,v in d.items() if "ctx" in v))' "$CONF/edge-cases.json"); do
	d=$T/edge-$name
	mkdir -p "$d"
	$PY "${0%/*}/conform.py" "$CONF/edge-cases.json" "$name" "$d"
	$PY -c 'import json,sys
d=json.load(open(sys.argv[1]))[sys.argv[2]]
open(sys.argv[3]+"/ctx","w").write(d["ctx"]); open(sys.argv[3]+"/ctx_full","w").write(d["ctx_full"])' \
	    "$CONF/edge-cases.json" "$name" "$d"
	check "$d" "$d/ctx" "" "edge case $name ctx"
	check "$d" "$d/ctx_full" --optional "edge case $name ctx_full"
done
# golden/: llms-ctx.txt files that real projects generated with the
# reference tools (documents taken from them in link order; the file ends
# with the newline the projects' writer added)
for pair in llms-txt:02-answerdotai-llms-txt claudette:04-answerdotai-claudette; do
	g=${pair%%:*} c=${pair#*:}
	for kind in ctx ctx-full; do
		d=$T/golden-$g-$kind
		mkdir -p "$d"
		$PY "${0%/*}/conform.py" "$CONF/corpus/$c.expected.json" "$d" "$CONF/golden/$g-llms-$kind.txt"
		printf '\n' >>"$d/nl"
		opt=; [ $kind = ctx-full ] && opt=--optional
		"$BCTX" assemble -q "$d/questions.json" --condition B --style reference \
		    --all-links $opt "$d/records.ndjson" | jq -j .content >"$d/got"
		cat "$d/nl" >>"$d/got"
		files_eq "$d/got" "$CONF/golden/$g-llms-$kind.txt" "golden $g-llms-$kind.txt"
	done
done
done_testing
