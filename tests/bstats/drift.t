#!/bin/sh
# bstats --drift: the records of bctx drift read, and the report's section
# "Content drift between snapshots" on written records whose words are
# known: B drifted more, A drifted more, neither, only one condition; the
# changed facts listed (the first 20); each bad record named.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
identical_pairs "$T/scored.ndjson"

sm() {	# kind site condition unchanged same changed gone new excluded
	_old=$(($4 + $5 + $6 + $7))
	jq -nc --arg k "$1" --arg s "$2" --arg c "$3" --argjson u "$4" --argjson sa "$5" \
	    --argjson ch "$6" --argjson g "$7" --argjson n "$8" --argjson x "$9" --argjson o "$_old" \
	    '{kind:$k} + (if $k == "drift_site" then {site_id:$s} else {} end) +
	     {condition:$c, old_pages:$o, new_pages:($u + $sa + $ch + $n), unchanged:$u,
	      same_content:$sa, changed:$ch, gone:$g, new:$n, excluded:$x, facts_changed:0,
	      drift_rate:(if $o > 0 then ($ch + $g) / $o else null end)}'
}
chg() {	# site condition url nfacts
	jq -nc --arg s "$1" --arg c "$2" --arg u "$3" --argjson n "$4" \
	    '{kind:"drift_page", site_id:$s, url:$u, condition:$c, status:"changed",
	      facts_changed:[range($n) | {kind:"cell", key:"opt\(.) | default", old:"\(.)", new:"\(. + 1)"}][:20],
	      facts_changed_count:$n, facts_added_count:0, facts_removed_count:0,
	      words_removed:1, words_added:2, word_similarity:0.95}'
}
report() {	# drift-file: the section in $T/sec
	run "$B" -b 100 -o /dev/null -r "$T/r.md" --drift "$1" "$T/scored.ndjson"
	sed -n '/^## Content drift between snapshots/,/^## Methods/p' "$T/r.md" >"$T/sec"
}

{ chg S1 A https://x.org/a 1; chg S1 B https://x.org/a.md 1; chg S1 B https://x.org/b.md 0
  sm drift_site S1 A 3 0 1 0 0 0; sm drift_site S1 B 2 0 2 0 0 0
  sm drift_condition '' A 3 0 1 0 0 0; sm drift_condition '' B 2 0 2 0 0 0; } >"$T/bmore.ndjson"
report "$T/bmore.ndjson"
expect_status 0 "--drift reads bctx drift's records"
like "$(cat "$T/sec")" "^## Content drift between snapshots" "the report has the section"
like "$(cat "$T/sec")" "Condition B \(the llms.txt Markdown\) drifted more than Condition A \(the HTML pages\): 2 of 4 pages changed or gone \(50\.0 %\) against 1 of 4 \(25\.0 %\)\." \
    "B 2 of 4, A 1 of 4: B drifted more, with the counts"
like "$(cat "$T/sec")" "\| A \| 4 \| 3 \| 0 \| 1 \| 0 \| 0 \| 0 \| 25\.0 % \|" "the condition table: A's counts and rate"
like "$(cat "$T/sec")" "\| S1 \| B \| 4 \| 2 \| 0 \| 2 \| 0 \| 0 \| 0 \| 50\.0 % \|" "the site table: S1's B row"
like "$(cat "$T/sec")" "\| S1 \| A \| https://x\.org/a \| opt0 \\\\\| default \| 0 \| 1 \|" "the changed facts listed"
like "$(cat "$T/sec")" "\| S1 \| B \| https://x\.org/b\.md \| 0 \| 0 \| 0 \| 1 \| 2 \| 0\.950 \|" \
    "a page changed in words only is among the changed pages"

{ sm drift_condition '' A 1 1 1 1 0 0; sm drift_condition '' B 3 0 1 0 1 0; } >"$T/amore.ndjson"
report "$T/amore.ndjson"
like "$(cat "$T/sec")" "Condition A \(the HTML pages\) drifted more than Condition B \(the llms.txt Markdown\): 2 of 4 pages changed or gone \(50\.0 %\) against 1 of 4 \(25\.0 %\)\." \
    "A 2 of 4 (one changed, one gone), B 1 of 4: A drifted more; a new page does not count"

{ sm drift_condition '' A 1 0 1 0 0 0; sm drift_condition '' B 2 0 1 1 0 0; } >"$T/same.ndjson"
report "$T/same.ndjson"
like "$(cat "$T/sec")" "Neither condition drifted more: Condition A 1 of 2 pages changed or gone \(50\.0 %\), Condition B 2 of 4 \(50\.0 %\)\." \
    "1 of 2 against 2 of 4: neither, the rates compared exactly"

{ sm drift_condition '' A 0 0 0 0 2 1; sm drift_condition '' B 2 0 1 1 0 0; } >"$T/onlyb.ndjson"
report "$T/onlyb.ndjson"
like "$(cat "$T/sec")" "No comparison of the two conditions" "A with no page usable in the first snapshot: no comparison"
like "$(cat "$T/sec")" "\| A \| 0 \| 0 \| 0 \| 0 \| 0 \| 2 \| 1 \| – \|" "... and its rate is shown as –"

{ chg S1 A https://x.org/a 25; sm drift_condition '' A 0 0 1 0 0 0; } >"$T/many.ndjson"
report "$T/many.ndjson"
is "$(grep -c '^| S1 | A | https://x.org/a | opt' "$T/sec")" 20 "25 changed facts: the first 20 listed"
like "$(cat "$T/sec")" "5 more changed facts are in the drift records\." "... and how many more there are"

report "$T/bmore.ndjson"
cp "$T/r.md" "$T/with.md"
run "$B" -b 100 -o /dev/null -r "$T/without.md" "$T/scored.ndjson"
is "$(diff "$T/without.md" "$T/with.md" | grep '^<' | wc -l | tr -d ' ')" 0 "the section only adds: the rest of the report is unchanged"

# bad records: file, line and field
bad() {	# description pattern
	run "$B" -b 100 -o /dev/null -r "$T/x.md" --drift "$T/bad.ndjson" "$T/scored.ndjson"
	expect_status 1 "$1: exit 1"
	like "$err" "$2" "... $1 named"
}
{ sm drift_condition '' A 1 0 0 0 0 0; printf '{"kind":"drift_pair"}\n'; } >"$T/bad.ndjson"
bad "an unknown kind" "bad.ndjson:2: kind: expected drift_page, drift_site or drift_condition"
sm drift_condition '' A 1 0 0 0 0 0 | jq -c '.old_pages = 3' >"$T/bad.ndjson"
bad "old_pages that its counts do not give" "bad.ndjson:1: old_pages: 3, but unchanged \+ same_content \+ changed \+ gone is 1"
sm drift_condition '' A 1 0 0 0 0 0 | jq -c 'del(.gone)' >"$T/bad.ndjson"
bad "a missing count" "bad.ndjson:1: gone"
{ sm drift_condition '' A 1 0 0 0 0 0; chg S1 A u 1 | jq -c '.status = "moved"'; } >"$T/bad.ndjson"
bad "an unknown status" 'bad.ndjson:2: status: expected unchanged, same_content, changed, gone, new or excluded, got "moved"'
{ sm drift_condition '' A 1 0 0 0 0 0; chg S1 A u 1 | jq -c '.facts_changed[0].old = 3'; } >"$T/bad.ndjson"
bad "a changed fact of the wrong shape" 'bad.ndjson:2: facts_changed\[0\]'
chg S1 A u 1 >"$T/bad.ndjson"
bad "no summary" "bad.ndjson: no drift_condition record"
run "$B" --power "$T" --drift "$T/bmore.ndjson"
expect_status 2 "--drift with --power: usage error"
done_testing
