#!/bin/sh
# bctx drift on small written snapshots whose answer is known: each status
# (unchanged, same_content, changed with its facts and words, gone, new,
# excluded), the rates per site and condition, variants kept apart, and
# every bad input named by file, line and field.
. "${0%/*}/../lib/tap.sh"
BCTX=$(prog bctx)
U=https://docs.example.org

pg() {	# site path condition fetch_status sha content-field content [question_ids]
	jq -nc --arg s "$1" --arg u "$U$2" --arg c "$3" --arg f "$4" --arg h "$5" \
	    --arg k "$6" --arg t "$7" --argjson q "${8:-[\"Q1\"]}" \
	    '{site_id:$s, url:$u, condition:$c, question_ids:$q, fetch_status:$f,
	      http_status:(if $f == "HTTP_ERROR" then 404 else 200 end),
	      content_sha256:(if $h == "" then null else $h end)}
	     + (if $k == "" then {} else {($k):$t} end)'
}
{ pg S1 /a A SUCCESS 1111 text 'Alpha page. The port is 8080 by default.'
  pg S1 /b A SUCCESS 2222 text 'Beta page, the same words.'
  pg S1 /c A SUCCESS 3333 text 'Key | Default
port | 8080
retries | 3
The cache lives in the build directory.'
  pg S1 /d A SUCCESS 4444 text 'Delta page.'
  pg S1 /e A SUCCESS 5555 text 'Epsilon page.'
  pg S1 /f A JS_ONLY 6666 '' ''
  pg S1 /h A HTTP_ERROR 7777 '' ''
  pg S1 /a.md B SUCCESS aaaa markdown '# Alpha

The port is `8080` by default.'
  pg S2 /x A SUCCESS 9999 text 'A page of the second site.'; } >"$T/old.ndjson"
{ pg S1 /a A SUCCESS 1111 text 'Alpha page. The port is 8080 by default.'
  pg S1 /b/ A SUCCESS 2223 text 'Beta page, the same words.'
  pg S1 /c A SUCCESS 3334 text 'Key | Default
port | 9090
retries | 3
The cache is kept in the build directory.'
  pg S1 /d A HTTP_ERROR 4445 '' ''
  pg S1 /f A JS_ONLY 6667 '' ''
  pg S1 /g A SUCCESS 8888 text 'Gamma, a new page.'
  pg S1 /h A SUCCESS 7778 text 'Eta is back.'
  pg S1 /a.md B SUCCESS aaaa markdown '# Alpha

The port is `8080` by default.'
  pg S2 /x A SUCCESS 9999 text 'A page of the second site.'; } >"$T/new.ndjson"

run "$BCTX" drift --old "$T/old.ndjson" --new "$T/new.ndjson"
expect_status 0 "drift runs on two snapshots"
cp "$T/out" "$T/d.ndjson"
st() { jq -r --arg u "$U$1" --arg c "${2:-A}" 'select(.kind == "drift_page" and .url == $u and .condition == $c) | [.status, .reason // "-"] | join(" ")' "$T/d.ndjson"; }
is "$(st /a)" "unchanged -" "the same content_sha256: unchanged"
is "$(st /b)" "same_content -" "other bytes, the same text (the URL's trailing slash is the same page): same_content"
is "$(st /c)" "changed -" "another text: changed"
is "$(st /d)" "gone HTTP_ERROR 404" "a page that fails now: gone, with its fetch status"
is "$(st /e)" "gone not in the new snapshot" "a page the new snapshot does not hold: gone"
is "$(st /f)" "excluded JS_ONLY 200" "unusable in both: excluded"
is "$(st /g)" "new not in the old snapshot" "a page only the new snapshot holds: new"
is "$(st /h)" "new HTTP_ERROR 404" "a page that failed before and is usable now: new"
is "$(st /a.md B)" "unchanged -" "condition B paired apart from A"
is "$(jq -c --arg u "$U/c" 'select(.url == $u) | [.facts_changed, .facts_changed_count]' "$T/d.ndjson")" \
    '[[{"kind":"cell","key":"port | default","old":"8080","new":"9090"}],1]' \
    "the changed table cell is the changed fact, old and new value"
is "$(jq -c --arg u "$U/c" 'select(.url == $u) | [.words_removed, .words_added, .word_similarity]' "$T/d.ndjson")" \
    '[2,2,0.8]' "words: 8080 and lives removed, 9090 and kept added, of ten content words a side: Dice 16/20"
is "$(jq -c 'select(.kind == "drift_site") | [.site_id, .condition, .old_pages, .new_pages, .unchanged, .same_content, .changed, .gone, .new, .excluded, .drift_rate]' "$T/d.ndjson")" \
    '["S1","A",5,5,1,1,1,2,2,1,0.6]
["S1","B",1,1,1,0,0,0,0,0,0]
["S2","A",1,1,1,0,0,0,0,0,0]' "per site and condition: the counts and (changed + gone) / old pages"
is "$(jq -c 'select(.kind == "drift_condition") | [.condition, .old_pages, .changed, .gone, .drift_rate, .facts_changed]' "$T/d.ndjson")" \
    '["A",6,1,2,0.5,1]
["B",1,0,0,0,0]' "per condition over the sites"
is "$(jq -r .kind "$T/d.ndjson" | uniq -c | awk '{print $1, $2}' | tr '\n' ' ')" \
    "10 drift_page 3 drift_site 2 drift_condition " "pages first (old order, then the new ones), then the summaries"

# a variant's pages are their own condition
pg S1 /a A SUCCESS 1111 text 'Alpha' | jq -c '.variant = "A-markdown"' >"$T/var.ndjson"
run "$BCTX" drift --old "$T/old.ndjson" --old "$T/var.ndjson" --new "$T/new.ndjson" --new "$T/var.ndjson"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind == "drift_condition") | .condition' | tr '\n' ' ')" \
    "A B A-markdown " "a variant (\"variant\": A-markdown) is a condition of its own, no duplicate"

# bad input: file, line and field
pg S1 /a A SUCCESS 1111 text 'x' | jq -c 'del(.url)' >"$T/nourl.ndjson"
run "$BCTX" drift --old "$T/nourl.ndjson" --new "$T/new.ndjson"
expect_status 1 "a page without url: exit 1"
like "$err" "nourl.ndjson:1: url" "... naming file, line and field"
pg S1 /a A SUCCESS 1111 '' '' >"$T/notext.ndjson"
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/notext.ndjson"
expect_status 1 "a usable page without its text: exit 1"
like "$err" "notext.ndjson:1: text: missing" "... naming file, line and field"
pg S1 /a A SUCCESS '' text 'x' >"$T/nosha.ndjson"
run "$BCTX" drift --old "$T/nosha.ndjson" --new "$T/new.ndjson"
expect_status 1 "a usable page without content_sha256: exit 1"
like "$err" "nosha.ndjson:1: content_sha256" "... naming file, line and field"
{ pg S1 /a A SUCCESS 1111 text 'x'; pg S1 '/a#top' A SUCCESS 1111 text 'x'; } >"$T/dup.ndjson"
run "$BCTX" drift --old "$T/dup.ndjson" --new "$T/new.ndjson"
expect_status 1 "a page twice in one snapshot: exit 1"
like "$err" "dup.ndjson:2: url: page .* already read at .*dup.ndjson:1" "... naming both lines"
grep -v '"S2"' "$T/new.ndjson" >"$T/nos2.ndjson"
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/nos2.ndjson"
expect_status 1 "a site in one snapshot only: exit 1"
like "$err" "old.ndjson:9: site_id: site S2 has no page in the new snapshot: the snapshots are of different plans" \
    "... two snapshots of different plans, named"
pg S1 /a A SUCCESS 1111 text 'x' '["Q7"]' >"$T/q.ndjson"
pg S2 /x A SUCCESS 9999 text 'x' >>"$T/q.ndjson"
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/q.ndjson"
expect_status 1 "a page answering other questions: exit 1"
like "$err" 'q.ndjson:1: question_ids: \["Q7"\], where the old snapshot has \["Q1"\] \(.*old.ndjson:1\): the snapshots are of different plans' \
    "... naming both files' lines"
{ pg S1 /a A SUCCESS 1111 text 'x'; pg S1 /b A SUCCESS 2222 text 'x' | jq -c '.question_ids = "Q1"'; } >"$T/qtype.ndjson"
run "$BCTX" drift --old "$T/qtype.ndjson" --new "$T/new.ndjson"
expect_status 1 "question_ids that is not an array: exit 1"
like "$err" "qtype.ndjson:2: question_ids" "... named at its own line"
printf 'not json\n' >"$T/bad.ndjson"
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/bad.ndjson"
expect_status 1 "a line that is not JSON: exit 1"
like "$err" "bad.ndjson:1:" "... naming file and line"
run "$BCTX" drift --old "$T/old.ndjson"
expect_status 2 "no --new: usage error"
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/new.ndjson" "$T/new.ndjson"
expect_status 2 "a file operand: usage error"
# -o is written atomically: a failed run leaves no file
run "$BCTX" drift --old "$T/old.ndjson" --new "$T/bad.ndjson" -o "$T/never.ndjson"
ok test ! -e "$T/never.ndjson"
done_testing
