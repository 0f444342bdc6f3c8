#!/bin/sh
# Fact drift on the demo (`make demo`, examples/pipeline.sh): the example
# site's drifted twin (examples/site/build.py: reference/config.md keeps an
# older warmup_prompt_count default, 1 where the page says 3, and an older
# rate_limit_ms cell, 500 where the page says 1000) is flagged on every
# pair that uses it, with both changes named; the only other pair flagged
# is the llms.txt file paired with the home page; every other pair's
# Markdown is built from the page's own source and is not flagged.
. "${0%/*}/../lib/tap.sh"
O=$T/out
rc=0
OUT=$O sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "the demo pipeline runs" || sed 's/^/# /' "$T/log" | tail -n 20
C=$O/contexts.ndjson
Q=$TOP/examples/questions.json

# the pairs, read from the questions: those citing the drifted page, and
# the one citing llms.txt (its A side is the home page)
config=$(jq -r '.[].questions[] | select(any(.source_urls[]; test("/reference/config(\\.md)?$")))
    | .question_id' "$Q" | sort | tr '\n' ' ' | sed 's/ $//')
home=$(jq -r '.[].questions[] | select(any(.source_urls[]; test("/llms\\.txt$")))
    | .question_id' "$Q" | sort | tr '\n' ' ' | sed 's/ $//')
isnt "$config" "" "the demo asks about the drifted page ($config)"
isnt "$home" "" "the demo asks about llms.txt ($home)"
paired=$(jq -r 'select(.pair_drift != null) | .question_id' "$C" | sort -u | wc -l | tr -d ' ')
DESC="the demo has $paired pairs of contexts" ok test "$paired" -ge 10
is "$(jq -r 'select(.pair_drift == true) | .question_id' "$C" | sort -u | tr '\n' ' ')" \
    "$(printf '%s\n' $config $home | sort | tr '\n' ' ')" \
    "of $paired pairs, only the drifted twin's and llms.txt's are flagged"
is "$(jq -r 'select(.pair_drift == false) | .facts_changed_count' "$C" | sort -u)" 0 \
    "no pair from one source has a changed fact"

for q in $config; do
	for c in A B; do
		get() { jq -r --arg q "$q" --arg c "$c" \
		    "select(.question_id == \$q and .condition == \$c) | $1" "$C"; }
		is "$(get '[.facts_changed[] | select(.key | startswith("warmup_prompt_count"))
		    | {kind, a, b}] | tojson')" '[{"kind":"number","a":"3","b":"1"}]' \
		    "$q $c: warmup_prompt_count changed, {a: \"3\", b: \"1\"} ($(get \
		    '.facts_changed[] | select(.key | startswith("warmup")) | .key'))"
		is "$(get '[.facts_changed[] | select(.key | startswith("rate_limit_ms"))
		    | {kind, a, b}] | tojson')" '[{"kind":"cell","a":"1000","b":"500"}]' \
		    "$q $c: the rate_limit_ms cell changed, {a: \"1000\", b: \"500\"}"
		is "$(get '[.facts_changed_count, (.facts_changed | length)] | @tsv')" \
		    "$(printf '2\t2')" "$q $c: nothing else changed"
	done
done
for q in $home; do
	is "$(jq -r --arg q "$q" 'select(.question_id == $q) | [.pair_drift,
	    (.facts_b_in_a < 0.7 and .facts_a_in_b < 0.7)] | @tsv' "$C" | sort -u)" \
	    "$(printf 'true\ttrue')" "$q: llms.txt against the home page, flagged by its fact shares"
done
done_testing
