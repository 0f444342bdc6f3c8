#!/bin/sh
# bstats(1): the man page's EXAMPLES run as written, on a scored.ndjson of
# their own (the synthetic study).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

$GEN 3 48 11 >"$T/study.ndjson"
mkdir "$T/man" && cp "$T/study.ndjson" "$T/man/scored.ndjson" && cp "$T/study.ndjson" "$T/man/scored-judge2.ndjson"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE/s/^\.Dl //p' "$TOP/man/bstats.1" | sed 's/\\(dq/"/g; s/\\-/-/g' >"$T/man/examples.sh"
is "$(grep -c '^bstats' "$T/man/examples.sh")" 4 "four examples on the page"
erc=0
(cd "$T/man" && PATH=$(dirname "$B"):$PATH sh -e examples.sh >out 2>err) || erc=$?
is "$erc" 0 "the EXAMPLES pipelines run"
like "$(cat "$T/man/out")" '^\["H1",' "the jq example prints the primary results"
ok test -s "$T/man/report.md"
ok test -s "$T/man/figures/fig4-tokens-vs-accuracy.svg"
like "$(head -c 200 "$T/man/results.html")" '<!DOCTYPE html>' "the browser example writes the page"
like "$(cat "$T/man/compare.html")" '"compare":\{"label":"scored-judge2.ndjson"' "the compare example writes the two runs"
done_testing
