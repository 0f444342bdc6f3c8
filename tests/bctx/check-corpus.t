#!/bin/sh
# bctx check on the real study corpus: the departures it finds, counted per
# rule (tests/bctx/check/corpus.expected), and the examples the issue names.
# The sites' llms.txt files were never published, so Q-LLMS, IC-1, IC-2 and
# EC-1 are reported as not checked here.
. "${0%/*}/../lib/tap.sh"
need_shared corpus/questions.json || skip_all "no shared corpus ($SHARED/corpus)"
BCTX=$(prog bctx)
C=$SHARED/corpus
rc=0
(cd "$C" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json \
    -c benchmark-config.json --today 2026-11-23) >"$T/text" 2>"$T/err" || rc=$?
is "$rc" 1 "the real corpus fails MUST rules: exit 1"
is "$(cat "$T/err")" "bctx: check: MUST rules failed: SL-SECTOR 7, Q-TEXT 64, Q-SECTIONS 62" \
    "stderr counts the failed rules"
sed -n '/^rule  /,$p' "$T/text" >"$T/summary"
files_eq "$T/summary" "$TOP/tests/bctx/check/corpus.expected" "the summary table per rule"
rc=0
(cd "$C" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json \
    -c benchmark-config.json --today 2026-11-23 --json) >"$T/json" 2>/dev/null || rc=$?
is "$rc" 1 "--json: the same exit status"
is "$(grep -c '^[a-z-]*\.[a-z]*:[0-9]*: \|^[a-z-]*\.[a-z]*: ' "$T/text")" "$(wc -l <"$T/json" | tr -d ' ')" \
    "one JSON record per finding line"
is "$(jq -r 'select(.question_id == "S001-Q04" or .question_id == "S002-Q02") | select(.rule == "Q-TEXT") | .question_id' "$T/json" | tr '\n' ' ')" \
    "S001-Q04 S002-Q02 " "questions that do not end with '?' (S001-Q04, S002-Q02)"
is "$(jq -r 'select(.rule == "Q-SECTIONS") | .question_id | select(test("S001-Q06|S002-Q01|S003-Q01"))' "$T/json" | tr '\n' ' ')" \
    "S001-Q06 S002-Q01 S003-Q01 " "single-fact questions with two source sections (S001-Q06, S002-Q01, S003-Q01)"
is "$(jq -r 'select(.rule == "Q-TEXT" or .rule == "Q-SECTIONS") | .rule' "$T/json" | wc -l | tr -d ' ')" 126 \
    "126 question departures, as counted when the issue was filed"
like "$(jq -r 'select(.rule == "SPEC-URLS") | .message' "$T/json")" "241 of 483 source URLs are HTML pages" \
    "the 241 HTML source URLs the mapping report counts"
is "$(jq -r 'select(.rule == "SL-SECTOR") | .message' "$T/json" | sort -u)" \
    "sector 'SaaS Product Docs' is not in the taxonomy of 001 §1.3" "the abbreviated sector name of seven sites"
done_testing
