#!/bin/sh
# The results browser of a full-size study: 286 questions x 20 models =
# 5,720 pairs (html-gen.py), in headless Chromium (html-e2e.js large).  It
# checks what must hold at that size: every pair counted, the table rendered
# lazily (200 rows, more on request), search over every context, a pair
# opened from the fragment; and prints what it measured (page size, load to
# interactive, JS heap, search and fragment times) without asserting them.
# BSTATS_HTML_WORDS=2000 gives contexts of the real study's size (default
# 320, to keep make check short); bstats(1) states the numbers at 2000.
. "${0%/*}/../lib/tap.sh"
B=$(prog bstats)
. "$TOP/tests/lib/chromium.sh"
if why=$(no_browser); then
	skip_all "$why"
fi

python3 "$TOP/tests/bstats/html-gen.py" 286 20 3 plain "${BSTATS_HTML_WORDS:-320}" >"$T/study.ndjson"
start=$(date +%s)
run "$B" -b 100 -o /dev/null --html "$T/page.html" "$T/study.ndjson"
expect_status 0 "bstats --html writes the page of 5,720 pairs"
diag "bstats -b 100 --html: $(($(date +%s) - start)) s; page $(($(wc -c <"$T/page.html") / 1024)) KiB; input $(($(wc -c <"$T/study.ndjson") / 1024)) KiB"

mkdir -p "${BSTATS_SHOTS:=$T/shots}"
start_chromium --headless=new
obs=$(timeout 300 node --experimental-websocket "$TOP/tests/bstats/html-e2e.js" "$port" large "$T/page.html" "$BSTATS_SHOTS" 2>"$T/e2e.err")
erc=$?
is "$erc" 0 "html-e2e.js large driven to the end"
[ $erc -eq 0 ] || diag "$(cat "$T/e2e.err")"
q() { printf '%s\n' "$obs" | jq -r "$1"; }
is "$(q '.exceptions | length') $(q '.csp | length') $(q '.requests | length')" "0 0 0" "no error, no CSP violation, no request"
is "$(q '.count')" "5720 of 5720 pairs" "every pair counted"
is "$(q '.rows')" 200 "the table is rendered lazily: 200 rows at first"
is "$(q '.search.count')" "20 of 5720 pairs" "search over every context finds the twenty models of one question"
is "$(q '.last_open | join(" ")')" "S036 S036-Q06 model-19" "a pair deep in the sorted table opens from the fragment"
diag "load to interactive $(q .load_ms) ms; JS heap $(q .heap_mb) MiB after load, $(q .heap_after_mb) MiB after opening a pair; DOM nodes $(q .nodes); search $(q .search_ms) ms; fragment open $(q .fragment_ms) ms"
done_testing
