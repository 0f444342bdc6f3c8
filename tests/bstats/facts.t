#!/bin/sh
# bstats: fact drift per site (bctx's facts_b_in_a, facts_a_in_b,
# facts_changed, facts_changed_count on the scored records, all optional)
# and the words of the sensitivity analysis that reruns H1-H3 without the
# pairs flagged pair_drift.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# facts SITE Q DRIFT CHANGED SHARE: the fact fields of one pair
facts() {
	sed "s/\"primary\":true/\"primary\":true,\"pair_drift\":$3,\"facts_changed\":$4,\"facts_b_in_a\":$5,\"facts_a_in_b\":$5/"
}

: >"$T/f.ndjson"
for q in 1 2 3 4 5 6; do
	if [ $q = 1 ]; then
		ch='[{"kind":"number","key":"warmup_prompt_count","a":"3","b":"1"}]' d=true sh=0.9
	else
		ch='[]' d=false sh=1
	fi
	rec S1 Q$q m A 1 1 1 null 300 | facts S1 Q$q $d "$ch" $sh >>"$T/f.ndjson"
	rec S1 Q$q m B 2 0 1 null 200 | facts S1 Q$q $d "$ch" $sh >>"$T/f.ndjson"
	rec S2 Q$q m A 1 1 1 null 300 >>"$T/f.ndjson"
	rec S2 Q$q m B 2 0 1 null 200 >>"$T/f.ndjson"
done
run "$B" -b 200 -o "$T/f.out" -r "$T/f.md" "$T/f.ndjson"
expect_status 0 "scored records with fact parity"
is "$(jq -c 'select(.test=="parity_summary") | [.pairs_with_facts, .pairs_drift, (.sites[] | [.site_id, .with_facts, .facts_changed_pairs, .facts_changed, .facts_changed_examples])]' "$T/f.out")" \
	'[6,1,["S1",6,1,1,["warmup_prompt_count: 3 → 1"]],["S2",0,0,0,[]]]' "fact drift per site in the record"
like "$(cat "$T/f.md")" '^\| S1 \| 6 \| 6 \| 1 \| 1 \| 1\.000 \| 1\.000 \| warmup\\_prompt\\_count: 3 → 1 \|$' \
	"the report's fact table names the changed fact"
like "$(cat "$T/f.md")" '^\| S2 \| 6 \| 0 \| 0 \| 0 \| – \| – \| – \|$' "a site without fact parity"
like "$(cat "$T/f.md")" '^\*\*Sensitivity analysis\*\*: H1–H3 again without the 1 pair bctx flagged `pair_drift` \(a fact stated with another value in A and B' \
	"the sensitivity analysis says which pairs it drops and why"
is "$(jq -r 'select(.group=="sensitivity_parity" and .hypothesis=="H1") | .n' "$T/f.out")" 11 "the sensitivity analysis runs on the 11 pairs without drift"

# a count beyond the capped list
sed 's/"facts_changed":\[{/"facts_changed_count":25,"facts_changed":[{/' "$T/f.ndjson" >"$T/c.ndjson"
run "$B" -b 200 -o "$T/c.out" "$T/c.ndjson"
is "$(jq -c 'select(.test=="parity_summary") | .sites[0].facts_changed' "$T/c.out")" 25 "facts_changed_count counts beyond the list"

# records without any fact field: no fact table
identical_pairs "$T/none.ndjson"
run "$B" -b 200 -r "$T/none.md" "$T/none.ndjson"
unlike "$(cat "$T/none.md")" 'Fact drift per site' "no fact table without fact fields"

# bad input: named with file, line and field
rec S1 Q1 m A 1 1 1 null 300 | sed 's/"primary":true/"primary":true,"facts_changed":"many"/' >"$T/bad.ndjson"
run "$B" "$T/bad.ndjson"
expect_status 1 "facts_changed that is not a list"
like "$err" 'bad.ndjson:1: facts_changed: expected an array or null' "... named with file, line and field"
rec S1 Q1 m A 1 1 1 null 300 | sed 's/"primary":true/"primary":true,"facts_changed":[3]/' >"$T/bad2.ndjson"
run "$B" "$T/bad2.ndjson"
like "$err" 'bad2.ndjson:1: facts_changed\[0\]: expected an object with a key' "a changed fact without a key"
rec S1 Q1 m A 1 1 1 null 300 | sed 's/"primary":true/"primary":true,"facts_b_in_a":2/' >"$T/bad3.ndjson"
run "$B" "$T/bad3.ndjson"
like "$err" 'bad3.ndjson:1: facts_b_in_a: expected a number from 0 to 1 or null' "a share out of range"
done_testing
