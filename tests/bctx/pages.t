#!/bin/sh
# One document per page (tests/bctx/pages): a page listed three times in
# llms.txt (twice under one section, once with a fragment, once under
# another section) and a question citing one page as three URLs that differ
# by fragment and trailing slash.
. "${0%/*}/../lib/tap.sh"
P=${0%/*}/pages
BCTX=$(prog bctx)
Q=$P/questions.json S=$P/sites.csv L=$P/records.ndjson

run "$BCTX" plan -q "$Q" -s "$S" -l "$L"
expect_status 0 "plan runs"
is "$(printf '%s\n' "$out" | jq -r '[.condition,.url,(.question_ids|join(","))]|@tsv' | tr '\n' ' ')" \
    "$(printf 'A\thttps://docs.twice.example/config/\tD001-Q01 B\thttps://docs.twice.example/config.md\tD001-Q01 A\thttps://docs.twice.example/guide/features\tD001-Q02 B\thttps://docs.twice.example/guide/features.md\tD001-Q02 ')" \
    "URLs differing by fragment or trailing slash: one job per page, no fragment, no fetch_url"

run "$BCTX" plan -s "$S" -l "$L" --site D001 --url https://docs.twice.example/config/
is "$(printf '%s\n' "$out" | jq -c '[.sections,.also_listed_under]')" \
    '[["Table of Contents"],["Table of Contents","Reference"]]' \
    "--url: the page's first section once, the other listings named"

run "$BCTX" assemble -q "$Q" -s "$S" -l "$L" --condition B "$L"
expect_status 0 "assemble runs"
cp "$T/out" "$T/ctx"
get() { jq -r --arg q "$1" "select(.question_id==\$q)|$2" "$T/ctx"; }
is "$(get D001-Q01 '.content' | grep -c '<doc ')" 1 "a page listed three times: one document"
like "$(get D001-Q01 '.content')" '<table of contents>
<doc title="Config" url="https://docs.twice.example/config.md">' "under its first listing's section and title"
is "$(get D001-Q02 '.content' | grep -c '<doc ')/$(get D001-Q02 '.pages|length')" 1/1 \
    "three source URLs of one page: one document, one page entry"

for style in methodology reference; do
	run "$BCTX" assemble -q "$Q" -s "$S" --all-links --style $style --condition B \
	    --question D001-Q01 "$L"
	n=$(printf '%s\n' "$out" | jq -r .content | grep -c '<doc')
	case $style in
	methodology) is "$n" 2 "--all-links: each page once in the methodology style" ;;
	reference) is "$n" 4 "--all-links --style reference: every listing, as create_ctx" ;;
	esac
done
done_testing
