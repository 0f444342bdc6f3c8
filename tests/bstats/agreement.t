#!/bin/sh
# bstats: inter-rater reliability (000 §8): kappa of a constant rater, the
# 000 §8.2 decision (stated, or not applicable with a single rater), and
# the agreement under the rubrics of specs 002 (PASS/FAIL kappa) and 004
# (the tracks' correlation).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# a constant second rater: kappa not computable
identical_pairs "$T/zero.ndjson"
cp "$T/zero.ndjson" "$T/rater.ndjson"
for q in 1 2 3; do
	rec S1 Q$q m A 2 1 1 2 100 | sed 's/"primary":true/"primary":false/;s/"r1"/"r2"/' >>"$T/rater.ndjson"
done
run "$B" "$T/rater.ndjson"
expect_status 0 "second ratings are accepted"
like "$(jq -c 'select(.group=="agreement" and .test=="weighted_kappa_linear" and .metric=="factual_accuracy")' "$T/out")" 'both raters give one and the same value' "both raters constant: kappa not computable (sklearn: NaN)"
cp "$T/zero.ndjson" "$T/rater1.ndjson"
for q in 1 2 3; do
	rec S1 Q$q m A $q 1 1 2 100 | sed 's/"primary":true/"primary":false/;s/"r1"/"r2"/' >>"$T/rater1.ndjson"
done
run "$B" "$T/rater1.ndjson"
is "$(jq -c 'select(.group=="agreement" and .test=="weighted_kappa_linear" and .metric=="factual_accuracy") | .statistic' "$T/out")" 0 "one constant rater: kappa 0 (sklearn)"
is "$(jq -r 'select(.test=="kappa_decision") | .decision' "$T/out")" "refine and re-score" "000 §8.2: kappa below 0.6 asks to refine and re-score"
run "$B" "$T/zero.ndjson" -r "$T/single.md"
like "$(cat "$T/single.md")" '000 §8\.2 decision\*\*: not applicable' "single rater: the decision is not applicable (000 §8.3)"
synthetic_study
expect_status 0 "the synthetic study runs"
like "$(cat "$T/r1.md")" '000 §8\.2 decision\*\* \(linear weighted kappa' "the 000 §8.2 decision is stated"

# spec 002: kappa on PASS/FAIL; spec 004: the tracks' correlation
aq() {	# question primary rater quality
	printf '{"site_id":"S1","question_id":"%s","model_id":"m","condition":"A","rubric":"answer-quality","primary":%s,"rater_id":"%s","quality_score":%s}\n' "$@"
}
{ aq Q1 true r1 0.9; aq Q1 false r2 0.8; aq Q2 true r1 0.75; aq Q2 false r2 0.5
  aq Q3 true r1 0.2; aq Q3 false r2 0.3; aq Q4 true r1 0.6; aq Q4 false r2 0.65; } >"$T/aq.ndjson"
run "$B" "$T/aq.ndjson"
expect_status 0 "answer-quality ratings alone are analysed"
is "$(jq -r 'select((.metric // "")|startswith("pass_fail")) | .statistic' "$T/out")" 0.5 "002 PASS/FAIL kappa (sklearn: 0.5)"
dt() {	# question t1 t2
	printf '{"site_id":"S1","question_id":"%s","model_id":"m","condition":"B","rubric":"dual-track","rater_id":"r1","factual_accuracy_score":%s,"reasoning_quality":%s}\n' "$@"
}
{ dt Q1 100 90; dt Q2 80 70; dt Q3 60 75; dt Q4 40 30; } >"$T/dt.ndjson"
run "$B" "$T/dt.ndjson"
expect_status 0 "dual-track ratings are analysed"
is "$(jq -r 'select(.metric=="factual_accuracy_score~reasoning_quality") | .statistic' "$T/out")" 0.7999999999999999 "004 track correlation (scipy gives 0.7999999999999999 too)"
# every primary rating of a response against every other one: three and
# three give nine pairs (more than there are ratings)
{ for r in 1 2 3; do aq Q1 true p$r 0.9; aq Q1 false o$r 0.$r; done; } >"$T/aq3.ndjson"
run "$B" "$T/aq3.ndjson"
expect_status 0 "three primary and three other ratings of one response are analysed"
is "$(jq -r 'select((.metric // "")|startswith("pass_fail")) | "\(.n) \(.computable)"' "$T/out")" "9 true" "... as nine rating pairs"
done_testing
