#!/bin/sh
# bctx assemble's fact drift on pages built by real documentation
# generators (tests/bread/generators, rebuilt by its rebuild.sh): each page
# against its Markdown twin built from the same source in the same run
# (VitePress with vitepress-plugin-llms, Docusaurus with
# docusaurus-plugin-llms, Starlight with starlight-llms-txt, MkDocs's own
# source) must not be flagged, although the twins keep twoslash cuts and
# queries, Docusaurus magic comments, MkDocs snippet lines, code groups,
# tabs, admonitions and tables the pages render differently; each drifted
# twin (drifts.tsv: one default, one table cell, one version, one code line
# changed in the source) must be flagged, with the changed fact named and
# both its values.  Condition A is bread's text of the page, Condition B
# bmdprep's preparation of the twin, as the pipeline makes them.
. "${0%/*}/../lib/tap.sh"
BCTX=$(prog bctx)
BREAD=$(prog bread)
BMDPREP=$(prog bmdprep)
G=$TOP/tests/bread/generators
GENS="vitepress docusaurus starlight mkdocs"

# records: one question per (generator, page, twin), A and B pages
# pair ID GEN PAGE TWIN: add question ID comparing pages/GEN/PAGE.html with TWIN
: >"$T/pages.ndjson"
: >"$T/qs"
pair() {
	"$BREAD" "$G/pages/$2/$3.html" >"$T/a.txt" || fail "bread $2/$3"
	"$BMDPREP" --raw "$4" >"$T/b.md" || fail "bmdprep $4"
	jq -cn --arg id "$1" --rawfile a "$T/a.txt" --rawfile b "$T/b.md" '
	  {site_id: "S001", url: ("https://g.example/" + $id), condition: "A",
	   fetch_status: "SUCCESS", text: $a},
	  {site_id: "S001", url: ("https://g.example/" + $id + ".md"), condition: "B",
	   fetch_status: "SUCCESS", markdown: $b}' >>"$T/pages.ndjson"
	printf '%s\n' "$1" >>"$T/qs"
}
tail -n +2 "$G/drifts.tsv" >"$T/drifts"
for gen in $GENS; do
	for page in guide reference; do
		pair "S001-$gen-$page" "$gen" "$page" "$G/twins/$gen/$page.md"
	done
	while IFS='	' read -r name page rest; do
		pair "S001-$gen-$name" "$gen" "$page" "$G/drift/$name/$gen/$page.md"
	done <"$T/drifts"
done
jq -R '{question_id: ., text: "Which default?", complexity: "single-fact",
  source_sections: ["x"], source_urls: ["https://g.example/" + . + ".md"]}' "$T/qs" |
    jq -s '[{site_id: "S001", domain: "g.example", questions: .}]' >"$T/q.json"
run "$BCTX" assemble -q "$T/q.json" --condition A "$T/pages.ndjson"
expect_status 0 "bctx assemble on $(wc -l <"$T/qs" | tr -d ' ') pairs of generator pages"
printf '%s\n' "$out" >"$T/ctx"
get() { jq -r --arg q "$1" "select(.question_id==\$q)|$2" "$T/ctx"; }

# the facts of each same-source twin: not flagged, nothing changed
for gen in $GENS; do
	for page in guide reference; do
		q=S001-$gen-$page
		is "$(get "$q" '[.pair_drift, .facts_changed_count]|map(tostring)|join(" ")')" "false 0" \
		    "$gen/$page: its same-source twin is not flagged (facts $(get "$q" \
		    '"B in A \(.facts_b_in_a), A in B \(.facts_a_in_b)"'))"
		[ "$(get "$q" .facts_changed_count)" = 0 ] ||
			diag "$(get "$q" '.facts_changed[]|tojson')"
	done
done

# each drifted twin: flagged, and its change named with both values
for gen in $GENS; do
	while IFS='	' read -r name page old new kind key a b; do
		q=S001-$gen-$name
		is "$(get "$q" .pair_drift)" true "$gen/$name: the drifted twin is flagged"
		is "$(K=$kind KEY=$key VA=$a VB=$b get "$q" '[.facts_changed[]|select(.kind==env.K and
		    .key==env.KEY and .a==env.VA and .b==env.VB)]|length')" 1 \
		    "$gen/$name: the change is named: $kind [$key] $a -> $b"
	done <"$T/drifts"
done
# the measurements ctxbench-records(5) cites for the threshold
diag "question	facts_b_in_a	facts_a_in_b	facts_changed_count" \
    "$(jq -r '[.question_id, .facts_b_in_a, .facts_a_in_b, .facts_changed_count] | @tsv' "$T/ctx")"
done_testing
