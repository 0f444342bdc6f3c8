#!/bin/sh
# bctx check: every rule on a corpus of our own that keeps it (gen.sh) and
# on one derived from it that breaks it once; the JSON record shape bstats
# --conformance reads; exit status per level; the issue's bad inputs.
. "${0%/*}/../lib/tap.sh"
BCTX=$(prog bctx)
BMDPREP=$(prog bmdprep)
GEN=$TOP/tests/bctx/check/gen.sh
TODAY=2026-11-23
G=$T/good
sh "$GEN" "$G"

# The llms.txt records through bmdprep, as the study Makefile makes them.
for f in "$G"/llms/*.txt; do
	id=$(basename "$f" .txt)
	base=https://$(echo "$id" | tr 'S' 's').example/llms.txt
	"$BMDPREP" --llms -b "$base" --site-id "$id" "$f"
done | grep '"kind":"link"' >"$G/links.ndjson"
for f in "$G"/llms/*.txt; do
	id=$(basename "$f" .txt)
	"$BMDPREP" --check -b "https://$(echo "$id" | tr 'S' 's').example/llms.txt" --site-id "$id" "$f"
done >"$G/verdicts.ndjson"

# check DIR [ARGS...]: bctx check --json on corpus DIR into $T/out
check() {
	_d=$1; shift
	rc=0
	(cd "$_d" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json \
	    -c benchmark-config.json -l links.ndjson -l verdicts.ndjson --today $TODAY --json "$@") \
	    >"$T/out" 2>"$T/err" || rc=$?
}
# rules: the rules that found something other than NOTEs, sorted, unique
rules() { jq -r 'select(.level != "NOTE") | .rule' "$T/out" | sort -u | tr '\n' ' ' | sed 's/ $//'; }
count() { jq -r --arg r "$1" 'select(.rule == $r) | .rule' "$T/out" | wc -l | tr -d ' '; }

check "$G"
is "$rc" 0 "the generated corpus keeps every rule: exit 0"
is "$(rules)" "" "no MUST or SHOULD finding on it"
is "$(jq -r .rule "$T/out" | tr '\n' ' ')" "SPEC-SECTOR SPEC-CR SPEC-URLS " "the spec's notes only"
is "$(jq -c 'keys_unsorted' "$T/out" | sort -u)" \
    '["file","line","rule","section","level","site_id","question_id","message"]' \
    "each JSON record has exactly the eight fields, in order"
is "$(jq -r '.line' "$T/out" | sort -u)" null "corpus-wide notes have line null"
(cd "$G" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json \
    -c benchmark-config.json -l links.ndjson -l verdicts.ndjson --today $TODAY) >"$T/text" 2>&1
unlike "$(cat "$T/text")" '^[A-Z0-9-]+ +001 §[0-9.]+ +[A-Z]+ +-  ' "with link and check records every rule is checked"
like "$(cat "$T/text")" '^Q-LLMS +001 §3\.5 +MUST +0  source URLs appear' "the table lists Q-LLMS with its section"

# mutate NAME: copy the good corpus to $T/c/NAME and cd there (in a subshell)
mutate() { rm -rf "$T/c/$1"; mkdir -p "$T/c"; cp -r "$G" "$T/c/$1"; }
# jqi FILE FILTER: rewrite FILE with a jq filter
jqi() { jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"; }
# expect NAME STATUS RULES [COUNT RULE]: after check
expect() {
	is "$rc" "$2" "$1: exit status $2" || diag "$(cat "$T/err")"
	is "$(rules)" "$3" "$1: found $3" || diag "$(head -c 1500 "$T/out")"
	[ $# -ge 5 ] && is "$(count "$5")" "$4" "$1: $4 finding(s) of $5"
	return 0
}

# ---- site-list.csv (001 §1.6, §1.3)
C=$T/c/required; mutate required
sed -i 's/^"S003","s003.example"/"S003",""/' "$C/site-list.csv"
check "$C"; expect SL-REQUIRED 1 SL-REQUIRED 1 SL-REQUIRED
is "$(jq -r 'select(.rule=="SL-REQUIRED") | "\(.file):\(.line) \(.site_id) \(.message)"' "$T/out")" \
    "site-list.csv:4 S003 domain: must not be empty" "SL-REQUIRED names file, line, site and field"
C=$T/c/column; mutate column
cut -d, -f1-7,9- "$C/site-list.csv" >"$C/x" && mv "$C/x" "$C/site-list.csv"
check "$C"; expect "missing column" 1 SL-REQUIRED 1 SL-REQUIRED
like "$(jq -r .message "$T/out")" "missing column 'verification_date'" "a missing column is one finding, at the header"
C=$T/c/type; mutate type
sed -i '/^"S004"/s/",6,"/",six,"/' "$C/site-list.csv"
check "$C"; expect SL-TYPE 1 SL-TYPE 1 SL-TYPE
C=$T/c/status; mutate status
sed -i '/^"S005"/s/"PASS"/"OK"/' "$C/site-list.csv"
check "$C"; expect SL-STATUS 1 "CORPUS-SIZE SL-STATUS" 1 SL-STATUS
C=$T/c/siteid; mutate siteid
sed -i 's/^"S030"/"s030"/' "$C/site-list.csv"
check "$C"; expect "site id in the wrong case" 1 "IC-1 Q-COUNT Q-MIX SITE-MATCH SL-ID" 1 SL-ID
is "$(jq -r 'select(.rule=="SITE-MATCH") | .message' "$T/out")" "site 'S030' is not in site-list.csv" \
    "its questions belong to no site of the list"
C=$T/c/dupsite; mutate dupsite
grep '^"S030"' "$G/site-list.csv" >>"$C/site-list.csv"
check "$C"; expect "duplicate site_id" 1 SL-ID 1 SL-ID
C=$T/c/date; mutate date
sed -i '/^"S008"/s/2026-02-20/2026-02-30/' "$C/site-list.csv"
check "$C"; expect "2026-02-30" 1 SL-DATE 1 SL-DATE
C=$T/c/freeze; mutate freeze
sed -i '/^"S009"/s/2026-02-20/2026-03-01/' "$C/site-list.csv"
jqi "$C/gold-answers.json" '(.[9].answers[0].verified_date) = "2026-12-01"'
check "$C"; expect DATE-FREEZE 1 DATE-FREEZE 2 DATE-FREEZE
like "$(jq -r .message "$T/out")" "after the corpus freeze of 2026-02-26" "the freeze date comes from the config's created"
like "$(jq -r .message "$T/out")" "2026-12-01 is in the future" "a date after today is in the future"
check "$C" --freeze 2026-03-02
is "$(count DATE-FREEZE)" 1 "--freeze overrides the config's date"
C=$T/c/url; mutate url
sed -i '/^"S011"/s|"https://s011.example/llms.txt"|"ftp://s011.example/llms.txt"|' "$C/site-list.csv"
check "$C"; expect SL-URL 1 SL-URL 1 SL-URL
C=$T/c/sector; mutate sector
sed -i '/^"S012"/s/"SaaS Product Documentation"/"Fintech"/' "$C/site-list.csv"
check "$C"; expect "sector outside the taxonomy" 1 SL-SECTOR 1 SL-SECTOR
C=$T/c/exclusion; mutate exclusion
sed -i '/^"S013"/s/"PASS","",""/"PASS","EC-2",""/' "$C/site-list.csv"
check "$C"; expect "SL-EXCLUSION (SHOULD)" 0 SL-EXCLUSION 1 SL-EXCLUSION
check "$C" --strict; is "$rc" 1 "SL-EXCLUSION: --strict makes a SHOULD rule fail"
C=$T/c/order; mutate order
awk 'NR == 2 { keep = $0; next } NR == 3 { print; print keep; next } 1' "$G/site-list.csv" >"$C/site-list.csv"
check "$C"; expect "SL-ORDER (SHOULD)" 0 SL-ORDER 1 SL-ORDER
C=$T/c/size; rm -rf "$C"; sh "$GEN" "$C" 25
cp "$G/links.ndjson" "$G/verdicts.ndjson" "$C/"
jq -c 'select((.site_id | ltrimstr("S") | tonumber) <= 25)' "$G/verdicts.ndjson" >"$C/verdicts.ndjson"
check "$C"; expect "CORPUS-SIZE (SHOULD)" 0 CORPUS-SIZE 1 CORPUS-SIZE
C=$T/c/sectors; mutate sectors
awk -F, 'NR > 1 { $5 = "\"" (NR % 3 ? (NR % 3 == 1 ? "Other" : "Open Source Projects") : "Enterprise Software") "\"" } 1' OFS=, \
    "$G/site-list.csv" >"$C/site-list.csv"
check "$C"; expect SECTOR-COUNT 1 SECTOR-COUNT 1 SECTOR-COUNT
C=$T/c/cap; mutate cap
awk -F, 'NR > 1 && NR <= 14 { $5 = "\"Developer Tools & APIs\"" } 1' OFS=, "$G/site-list.csv" >"$C/site-list.csv"
check "$C"; expect SECTOR-CAP 1 SECTOR-CAP 1 SECTOR-CAP
like "$(jq -r 'select(.rule=="SECTOR-CAP") | .message' "$T/out")" "holds 15 of 30 included sites \(50\.0 %\)" "the cap names the share"

# ---- questions.json (001 §3.2, §3.3, §3.5)
C=$T/c/domain; mutate domain
jqi "$C/questions.json" '(.[14].domain) = "elsewhere.example"'
check "$C"; expect SITE-MATCH 1 SITE-MATCH 1 SITE-MATCH
C=$T/c/qcase; mutate qcase
sed -i 's/"S007-Q01"/"s007-q01"/' "$C/questions.json" "$C/gold-answers.json"
check "$C"; expect "question id in the wrong case" 1 "G-ORPHAN Q-ID" 1 Q-ID
C=$T/c/qform; mutate qform
sed -i 's/"S016-Q03"/"S016-Q3"/' "$C/questions.json" "$C/gold-answers.json"
check "$C"; expect Q-ID 1 Q-ID 1 Q-ID
C=$T/c/twosites; mutate twosites
jqi "$C/questions.json" '.[17].questions += [.[16].questions[0]]'
check "$C"; expect "a question under two sites" 1 "Q-DUP Q-ID Q-LLMS" 1 Q-DUP
is "$(jq -r 'select(.rule=="Q-DUP") | "\(.site_id) \(.question_id)"' "$T/out")" "S018 S017-Q01" "the second listing is the duplicate"
C=$T/c/count; mutate count
jqi "$C/questions.json" '.[18].questions += [range(6; 12) as $k | .[18].questions[0] | .question_id = ("S019-Q" + ($k | tostring | if length < 2 then "0" + . else . end))]'
jqi "$C/gold-answers.json" '.[18].answers += [range(6; 12) as $k | .[18].answers[0] | .question_id = ("S019-Q" + ($k | tostring | if length < 2 then "0" + . else . end))]'
check "$C"; expect "Q-COUNT (11 questions)" 1 Q-COUNT 1 Q-COUNT
C=$T/c/mix; mutate mix
jqi "$C/questions.json" '(.[19].questions[4].complexity) = "multi-section-synthesis"'
check "$C"; expect Q-MIX 1 Q-MIX 1 Q-MIX
C=$T/c/text; mutate text
sed -i 's/What does page 1 of site 21 say?/What does page 1 of site 21 say/' "$C/questions.json"
check "$C"; expect Q-TEXT 1 Q-TEXT 1 Q-TEXT
is "$(jq -r 'select(.rule=="Q-TEXT") | "\(.file):\(.line)"' "$T/out")" \
    "questions.json:$(grep -n 'page 1 of site 21 say"' "$C/questions.json" | cut -d: -f1)" "Q-TEXT points at the text's line"
C=$T/c/sections; mutate sections
jqi "$C/questions.json" '(.[21].questions[0].source_sections) += ["Section 9"]'
check "$C"; expect Q-SECTIONS 1 Q-SECTIONS 1 Q-SECTIONS
C=$T/c/dupurl; mutate dupurl
jqi "$C/questions.json" '(.[22].questions[2].source_urls) += [.[22].questions[2].source_urls[0]]'
check "$C"; expect "Q-URL (a URL twice)" 1 Q-URL 1 Q-URL
C=$T/c/llms; mutate llms
sed -i 's|"https://s024.example/docs/p1.md"|"https://s024.example/docs/p1"|' "$C/questions.json" "$C/gold-answers.json"
check "$C"; expect Q-LLMS 1 Q-LLMS 1 Q-LLMS
(cd "$C" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json --today $TODAY) >"$T/text" 2>&1
like "$(cat "$T/text")" '^Q-LLMS +001 §3\.5 +MUST +-  ' "without link records Q-LLMS is not checked: '-'"

# ---- gold-answers.json (001 §3.4, §3.6)
C=$T/c/missing; mutate missing
jqi "$C/gold-answers.json" 'del(.[24].answers[0])'
check "$C"; expect G-MISSING 1 G-MISSING 1 G-MISSING
C=$T/c/orphan; mutate orphan
jqi "$C/gold-answers.json" '.[24].answers += [.[24].answers[0] | .question_id = "S025-Q09"]'
check "$C"; expect G-ORPHAN 1 G-ORPHAN 1 G-ORPHAN
C=$T/c/gdup; mutate gdup
jqi "$C/gold-answers.json" '.[25].answers += [.[25].answers[0]]'
check "$C"; expect G-DUP 1 G-DUP 1 G-DUP
C=$T/c/sentences; mutate sentences
jqi "$C/gold-answers.json" '(.[26].answers[0].gold_answer) = "One. Two. Three. Four."'
check "$C"; expect "G-SENTENCES (SHOULD)" 0 G-SENTENCES 1 G-SENTENCES
jqi "$C/gold-answers.json" '(.[26].answers[0].gold_answer) = "A fragment, e.g. this one without an end"'
check "$C"; expect "G-SENTENCES: no full stop" 0 G-SENTENCES 1 G-SENTENCES
C=$T/c/gurls; mutate gurls
jqi "$C/gold-answers.json" '(.[27].answers[0].source_urls) = ["https://s028.example/docs/p6.md"]'
check "$C"; expect "G-URLS (SHOULD)" 0 G-URLS 1 G-URLS
C=$T/c/gdate; mutate gdate
jqi "$C/gold-answers.json" '(.[28].answers[0].verified_date) = "2026-02-30" | del(.[28].answers[1].verified_date)'
check "$C"; expect G-DATE 1 G-DATE 2 G-DATE

# ---- llms.txt verdicts of bmdprep --check (001 §1.1, §1.2)
C=$T/c/ic2; mutate ic2
head -n 8 "$G/llms/S030.txt" >"$C/short.txt"
grep -v '"S030"' "$G/verdicts.ndjson" >"$C/verdicts.ndjson"
"$BMDPREP" --check -b https://s030.example/llms.txt --site-id S030 "$C/short.txt" >>"$C/verdicts.ndjson"
check "$C"; expect IC-2 1 IC-2 1 IC-2
like "$(jq -r 'select(.rule=="IC-2") | "\(.file):\(.line) \(.message)"' "$T/out")" \
    "^verdicts.ndjson:30 IC-2: 2 distinct Markdown links, fewer than 5" "IC-2 gives bmdprep's reason and the record's line"
C=$T/c/ec1; mutate ec1
sed 's/: what page [0-9] covers//' "$G/llms/S030.txt" >"$C/bare.txt"
grep -v '"S030"' "$G/verdicts.ndjson" >"$C/verdicts.ndjson"
"$BMDPREP" --check -b https://s030.example/llms.txt --site-id S030 "$C/bare.txt" >>"$C/verdicts.ndjson"
check "$C"; expect EC-1 1 EC-1 1 EC-1
C=$T/c/ic1; mutate ic1
grep -v '"S029"' "$G/verdicts.ndjson" >"$C/verdicts.ndjson"
printf 'no title here\n' >"$C/notitle.txt"
"$BMDPREP" --check -b https://s030.example/llms.txt --site-id S030 "$C/notitle.txt" >"$C/v30"
grep -v '"S030"' "$C/verdicts.ndjson" >"$C/x"; cat "$C/x" "$C/v30" >"$C/verdicts.ndjson"
check "$C"; expect IC-1 1 "IC-1 IC-2" 2 IC-1
like "$(jq -r 'select(.rule=="IC-1") | .message' "$T/out")" "no bmdprep --check record" "a PASS site without a verdict is IC-1"

# ---- the issue's bad inputs, each a finding and never a crash
C=$T/c/big; rm -rf "$C"; sh "$GEN" "$C" 10000
rc=0
(cd "$C" && "$BCTX" check -s site-list.csv -q questions.json -g gold-answers.json --today $TODAY --json) >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "10,000 sites: exit 0 (CORPUS-SIZE is a SHOULD)"
is "$(rules)" "CORPUS-SIZE" "10,000 sites: one CORPUS-SIZE finding"
like "$(jq -r 'select(.rule=="CORPUS-SIZE") | .message' "$T/out")" "^10000 included sites" "the finding counts them"

# ---- malformed input and usage
C=$T/c/bad; mutate bad
jqi "$C/questions.json" '(.[0].questions[0].text) = 5'
check "$C"
is "$rc" 1 "a malformed questions.json: exit 1"
is "$(cat "$T/err")" "bctx: questions.json:8: text: expected a string, got an integer" "the loader's positioned message"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "nothing on stdout"
rc=0; "$BCTX" check -s x -q y >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "check without -g is a usage error"
rc=0; "$BCTX" check -s x -q y -g z --today 2026-02-30 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "--today 2026-02-30 is a usage error"
C=$T/c/out; mutate out
sed -i 's/What does page 1 of site 21 say?/What does page 1 of site 21 say/' "$C/questions.json"
check "$C" -o result.ndjson
is "$rc" 1 "-o: findings still exit 1"
is "$(jq -r .rule "$C/result.ndjson" | grep -c Q-TEXT)" 1 "-o: the file is written when rules fail"
is "$(cat "$T/err")" "bctx: check: MUST rules failed: Q-TEXT 1" "stderr counts the failed rules"
done_testing
