#!/bin/sh
# The three rubrics as data (share/rubrics): the worked examples of spec 000
# (§2 examples, §3 recording format, EC-05), 002 (Appendix B and the CSV
# template) and 004 (Track 1 deduction examples, Track 2 bands) reproduce
# their scores and totals through `bscore-merge check`; every rule is enforced.
. "${0%/*}/../lib/tap.sh"
B=$(prog bscore-merge)
E=$TOP/tests/bscore-merge/examples

# ---- 000
run "$B" check "$E/ex000.csv" "$E/ex000-hallucinations.ndjson"
expect_status 0 "the 000 worked examples validate"
is "$(printf '%s\n' "$out" | jq -r '[.response_id, .factual_accuracy] | @tsv' | grep '^E2' | cut -f2 | tr -d '\n')" \
	"012301230123" "examples 2.1-2.3 keep their scores 0-3"
is "$(printf '%s\n' "$out" | jq -c 'select(.response_id == "E2.1-0") | .citation_fidelity')" null "N/A is recorded as null"
is "$(printf '%s\n' "$out" | jq -c 'select(.response_id == "R001-A-Q03") | [.hallucination_count, [.hallucinations[].category]]')" \
	'[2,["H-FAB","H-SRC"]]' "the §3 recording example: two hallucinations, H-FAB and H-SRC"
is "$(printf '%s\n' "$out" | jq -c 'select(.response_id == "EC-05-refusal") | [.refusal, .factual_accuracy, .completeness, .hallucination_count]')" \
	'[true,0,0,0]' "EC-05: a refusal scored 0/0 with no hallucinations"

# Each 000 rule, broken once.
rule() {	# description, pattern, json row
	printf '%s\n' "$3" >"$T/r.ndjson"
	run "$B" check "$T/r.ndjson"
	expect_status 1 "$1"
	like "$err" "$2" "$1: reported"
}
base='"response_id":"X","rater_id":"r","scoring_date":"2026-03-01","completeness":1,"citation_fidelity":null'
rule "accuracy 3 with a hallucination" 'rule accuracy-cap' \
	"{$base,\"factual_accuracy\":3,\"hallucination_count\":1,\"hallucinations\":[{\"category\":\"H-EXT\",\"model_text_span\":\"s\",\"claim\":\"c\"}],\"scoring_notes\":\"n\"}"
rule "count not matching the records" 'rule hallucination-records' \
	"{$base,\"factual_accuracy\":2,\"hallucination_count\":2,\"hallucinations\":[{\"category\":\"H-TMP\",\"model_text_span\":\"s\",\"claim\":\"c\"}],\"scoring_notes\":\"n\"}"
rule "records without a count" 'rule hallucination-records' \
	"{$base,\"factual_accuracy\":2,\"hallucination_count\":0,\"hallucinations\":[{\"category\":\"H-TMP\",\"model_text_span\":\"s\",\"claim\":\"c\"}],\"scoring_notes\":\"n\"}"
printf '%s\n' "{$base,\"rater_kind\":\"llm_judge\",\"factual_accuracy\":2,\"hallucination_count\":1,\"scoring_notes\":\"n\"}" >"$T/j.ndjson"
run "$B" check "$T/j.ndjson"
expect_status 0 "an LLM judge may give a hallucination count without records"
rule "no notes for accuracy 2" 'rule notes-required' "{$base,\"factual_accuracy\":2,\"hallucination_count\":0}"
rule "no notes for citation fidelity 1" 'rule notes-required' \
	"{\"response_id\":\"X\",\"rater_id\":\"r\",\"scoring_date\":\"2026-03-01\",\"completeness\":1,\"citation_fidelity\":1,\"factual_accuracy\":3,\"hallucination_count\":0}"
rule "a refusal scored 1" 'rule refusal' "{$base,\"factual_accuracy\":1,\"refusal\":true,\"hallucination_count\":0,\"scoring_notes\":\"n\"}"
rule "a missing metric" 'X by rater "r": completeness: missing' \
	'{"response_id":"X","rater_id":"r","scoring_date":"2026-03-01","factual_accuracy":3,"hallucination_count":0,"citation_fidelity":null}'
rule "a missing scoring date" 'scoring_date: missing' \
	'{"response_id":"X","rater_id":"r","factual_accuracy":3,"hallucination_count":0,"completeness":1,"citation_fidelity":null}'
rule "a hallucination record without its span" 'record 1: model_text_span: missing' \
	"{$base,\"factual_accuracy\":2,\"hallucination_count\":1,\"hallucinations\":[{\"category\":\"H-FAB\",\"claim\":\"c\"}],\"scoring_notes\":\"n\"}"
rule "completeness 2" 'completeness: 2 is out of range 0-1' \
	'{"response_id":"X","rater_id":"r","scoring_date":"2026-03-01","completeness":2,"factual_accuracy":3,"hallucination_count":0,"citation_fidelity":null}'
rule "a negative count" 'hallucination_count: -1 is out of range >= 0' "{$base,\"factual_accuracy\":3,\"hallucination_count\":-1}"

# ---- 002
run "$B" check -R answer-quality "$E/ex002.csv"
expect_status 0 "the 002 examples validate (typed derived values agree)"
q() { printf '%s\n' "$out" | jq -c --arg id "$1" 'select(.response_id == $id) | [.total_points, .quality_score, .quality_status, .route_score, .route_status, .overall_score, .final_status]'; }
is "$(q AppB-H08)" '[19,0.95,"EXCELLENT",0.7,"ACCEPTABLE",0.88,"ACCEPTABLE"]' "Appendix B: 19/20 = 0.95 EXCELLENT, route 0.7, overall 0.88, ACCEPTABLE"
is "$(q T-H08)" '[17,0.85,"EXCELLENT",0.7,"ACCEPTABLE",0.81,"ACCEPTABLE"]' "template row H08: 0.85, 0.81 ACCEPTABLE"
is "$(q T-S01)" '[18,0.9,"EXCELLENT",1,"PERFECT",0.93,"PERFECT"]' "template row S01: 0.90, 0.93 PERFECT"
is "$(q SC2)" '[10,0.5,"MARGINAL",1,"PERFECT",0.65,"FAILED"]' "scenario 2: perfect route, poor answer FAILED"
is "$(q WRONG)" '[15,0.75,"ACCEPTABLE",0,"WRONG",0.53,"FAILED"]' "quality below 0.80 on a wrong route FAILED"
sed 's/,0.93,PERFECT,/,0.95,PERFECT,/' "$E/ex002.csv" >"$T/typed.csv"
run "$B" check -R answer-quality "$T/typed.csv"
expect_status 1 "a typed derived score that disagrees with the rubric"
like "$err" 'typed.csv:4: T-S01 by rater "Evaluator1": overall_score: typed as 0.95 but the rubric gives 0.93' "is reported"
sed 's/^AppB-H08,H08,staff with more than 5 years,rag_docs,hr_kpi,"hr_kpi,rag_docs",5,5,5,4/AppB-H08,H08,q,rag_docs,hr_kpi,,5,6,5,4/' "$E/ex002.csv" >"$T/six.csv"
run "$B" check -R answer-quality "$T/six.csv"
expect_status 1 "a dimension above 5"
like "$err" 'six.csv:2: completeness_score: 6 is out of range 0-5' "is reported"

# ---- 004
run "$B" check -R dual-track "$E/ex004.ndjson"
expect_status 0 "the 004 examples validate"
d() { printf '%s\n' "$out" | jq -c --arg id "$1" 'select(.response_id == $id) | [.factual_accuracy_score, .total_deductions, .reasoning_quality, .reasoning_band]'; }
is "$(d T1-EX1)" '[95,5,90,"Excellent"]' "Track 1 example 1: hedging -5 = 95; Track 2 90 Excellent"
is "$(d T1-EX2)" '[70,30,75,"Good"]' "Track 1 example 2: -5 -5 -5 -15 = 70; Track 2 75 Good"
is "$(d T1-EX3)" '[40,60,60,"Fair"]' "Track 1 example 3: -15 -15 -30 = 40; Track 2 60 Fair"
is "$(d PERVASIVE)" '[0,120,10,"Very Poor"]' "pervasive distortion with its own penalty; floor at 0"
is "$(d CLEAN)" '[100,0,45,"Poor"]' "no violation is 100"
printf '%s\n' '{"response_id":"X","rater_id":"a","scoring_date":"2025-11-02","violations":[{"code":"HEDGING","penalty":10}],"reasoning_quality":50,"justification":"j"}' >"$T/v.ndjson"
run "$B" check -R dual-track "$T/v.ndjson"
expect_status 1 "a fixed penalty typed differently"
like "$err" 'violations record 1: rule fixed-penalty' "is reported"
printf '%s\n' '{"response_id":"X","rater_id":"a","scoring_date":"2025-11-02","violations":[{"code":"PERVASIVE_DISTORTION"}],"reasoning_quality":50,"justification":"j"}' >"$T/v.ndjson"
run "$B" check -R dual-track "$T/v.ndjson"
expect_status 1 "pervasive distortion without its penalty"
like "$err" 'rule critical-penalty: PERVASIVE_DISTORTION needs a penalty of at least 50' "is reported"
printf '%s\n' '{"response_id":"X","rater_id":"a","scoring_date":"2025-11-02","violations":[{"code":"SPIN"}],"reasoning_quality":101}' >"$T/v.ndjson"
run "$B" check -R dual-track "$T/v.ndjson"
expect_status 1 "an unknown violation, a score above 100 and no justification"
like "$err" 'code: "SPIN" is not one of IMPRECISION' "the unknown code"
like "$err" 'reasoning_quality: 101 is out of range 0-100' "the score out of range"

# ---- the definitions themselves
for r in context-collapse answer-quality dual-track; do
	run "$B" rubric -R "$r"
	expect_status 0 "rubric $r loads"
	is "$(printf '%s\n' "$out" | jq -r '[.fields[] | select(.type == "integer" and .scale == null and .name != "hallucination_count" and .name != "penalty")] | length')" 0 \
		"every scored integer of $r has a scale for the scoring page"
done
is "$(printf '%s\n' "$out" | jq -r '[.fields[0].items[0].values[] | "\(.value)=\(.penalty // .penalty_min)"] | join(" ")')" \
	"IMPRECISION=5 VAGUENESS=5 HEDGING=5 SELECTIVE_EMPHASIS=15 UNSUPPORTED_CAVEAT=15 REFRAMING=15 FACT_DENIAL=30 FACT_INVENTION=30 SYSTEMATIC_OMISSION=30 PERVASIVE_DISTORTION=50" \
	"the 004 violation codes and their penalties"
sed 's/"require": "factual_accuracy <= 2"/"require": "factual_accuracy <= (2"/' "$TOP/share/rubrics/context-collapse.json" >"$T/broken.json"
run "$B" rubric -R "$T/broken.json"
expect_status 1 "a rubric with a broken rule"
like "$err" 'broken.json: rules\[0\]: require: expected .\). at offset' "is rejected with where"
# A rule nested 50,000 deep is refused with a clear error, not a crash.
deep=$(awk 'BEGIN { for (i = 0; i < 50000; i++) printf "("; printf "factual_accuracy <= 2"; for (i = 0; i < 50000; i++) printf ")" }')
jq --arg d "$deep" '.rules[0].require = $d' "$TOP/share/rubrics/context-collapse.json" >"$T/deep.json"
run "$B" rubric -R "$T/deep.json"
expect_status 1 "a rule with 50,000 nested parentheses: exit 1"
like "$err" 'deep.json: rules\[0\]: require: expression nested deeper than 200 levels' "names file, rule and the depth bound"
# A pass name goes into sheet file names: only letters, digits, _ and -.
jq '.passes[1].name = "../../evil"' "$TOP/share/rubrics/context-collapse.json" >"$T/evilpass.json"
run "$B" rubric -R "$T/evilpass.json"
expect_status 1 "a pass name with a path in it: exit 1"
like "$err" "evilpass.json: passes\\[1\\]: name: expected letters, digits" "names file, pass and field"
run "$B" blind -R "$T/evilpass.json" -k "$T/ek.json" -d "$T/ev" --passes "$TOP/tests/bscore-merge/fixtures/responses.ndjson"
expect_status 1 "blind --passes refuses it before writing a sheet"
ok test ! -e "$T/evil.csv"
mkdir -p "$T/share/rubrics"
jq '.rubric = "study-x" | .rules += [{"id":"no-perfect","when":"true","require":"factual_accuracy < 3","message":"this study caps accuracy at 2"}]' \
	"$TOP/share/rubrics/context-collapse.json" >"$T/share/rubrics/study-x.json"
printf '%s\n' '{"response_id":"X","rater_id":"r","scoring_date":"2026-03-01","factual_accuracy":3,"hallucination_count":0,"completeness":1,"citation_fidelity":null}' >"$T/x.ndjson"
rc=0; CTXBENCH_SHARE=$T/share "$B" check -R study-x "$T/x.ndjson" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 1 "a study's own rubric is found through CTXBENCH_SHARE and its rules applied"
like "$(cat "$T/err")" 'rule no-perfect: this study caps accuracy at 2' "with its own message"

done_testing
