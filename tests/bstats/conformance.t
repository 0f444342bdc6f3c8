#!/bin/sh
# bstats -c: the findings of bctx check --json counted per level and rule,
# and the report's corpus conformance section; on written findings and on
# what bctx check writes for the example corpus.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

$GEN 3 48 11 >"$T/study.ndjson"
cf() {	# rule section level question message
	printf '{"file":"questions.json","line":%s,"rule":"%s","section":"%s","level":"%s","site_id":"S1","question_id":%s,"message":"%s"}\n' "$@"
}
{ cf 4 Q-TEXT "001 §3.5" MUST '"S1-Q04"' "does not end with ?"
  cf 9 Q-TEXT "001 §3.5" MUST '"S1-Q07"' "does not end with ?"
  cf 12 Q-SECTIONS "001 §3.3" MUST '"S1-Q06"' "two source sections"
  cf null G-SENTENCES "001 §3.4" SHOULD null "four sentences"
  cf null SPEC-CR "001 §3.2" NOTE null "the spec counts differ"
  printf '{"rule":null,"summary":{"MUST":3}}\n'; } >"$T/conf.ndjson"
run "$B" -c "$T/conf.ndjson" -r "$T/conf.md" "$T/study.ndjson"
expect_status 0 "--conformance reads bctx check --json findings"
is "$(jq -c 'select(.test=="corpus_conformance") | [.by_level.MUST, .by_level.SHOULD, .by_level.NOTE, .rules["Q-TEXT"].findings]' "$T/out")" '[3,1,1,2]' \
	"counts per level and per rule (the summary record with rule null is skipped)"
like "$(cat "$T/conf.md")" '## Corpus conformance \(001 §1, §3' "the report has the conformance section"
like "$(cat "$T/conf.md")" 'design of the corpus: 3 MUST, 1 SHOULD and 1 NOTE findings' "... with the counts per level"
like "$(cat "$T/conf.md")" '\| Q-TEXT \| 001 §3\.5 \| MUST \| 2 \| S1-Q04, S1-Q07 \|' "... one row per rule with examples"
# the real thing: bctx check --json on the example corpus
BCTX=$(prog bctx)
E=$TOP/examples
"$BCTX" check -s "$E/site-list.csv" -q "$E/questions.json" -g "$E/gold-answers.json" --json \
	--today 2026-03-01 -o "$T/bctx-check.ndjson" 2>/dev/null || :
run "$B" -c "$T/bctx-check.ndjson" -r "$T/conf2.md" -b 100 "$T/study.ndjson"
expect_status 0 "bstats reads the findings bctx check --json writes"
is "$(jq -r 'select(.test=="corpus_conformance") | .by_level | .MUST + .SHOULD + .NOTE' "$T/out")" \
	"$(jq -s 'map(select(.rule != null)) | length' "$T/bctx-check.ndjson")" "every finding counted"
like "$(cat "$T/conf2.md")" '\| SECTOR-CAP \| 001 §1\.3 \| MUST \| 1 \| site-list\.csv \|' "a corpus-wide finding is named by its file"
cf 3 Q-ID "001 §3.5" MAYBE null x >"$T/badconf.ndjson"
run "$B" -c "$T/badconf.ndjson" "$T/study.ndjson"
expect_status 1 "an unknown level is a data error"
like "$err" 'badconf.ndjson:1: level: expected "MUST", "SHOULD" or "NOTE"' "... named with file, line and field"
done_testing
