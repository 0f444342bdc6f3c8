#!/bin/sh
# bstats: command line, input errors, undefined cases, determinism, outputs.
. "${0%/*}/../lib/tap.sh"

B=$(prog bstats)
GEN="python3 $TOP/tests/bstats/gen-study.py"

run "$B" --help
expect_status 0 "--help exits 0"
like "$out" '--report' "--help lists --report"
run "$B" --version
expect_status 0 "--version exits 0"
run "$B" --bootstrap 5
expect_status 2 "a bootstrap count below 100 is a usage error"
run "$B" --nonsense
expect_status 2 "an unknown option is a usage error"

rec() {	# site question model cond acc hall comp cite tokens
	printf '{"site_id":"%s","question_id":"%s","model_id":"%s","condition":"%s","complexity":"single-fact","tier":"small","sector":"SaaS","factual_accuracy":%s,"hallucination_count":%s,"completeness":%s,"citation_fidelity":%s,"input_token_count":%s,"exclusion_reason":null,"rater_id":"r1","primary":true}\n' "$@"
}

# --- input errors name the file and line
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m C 2 0 1 null 90; } >"$T/badcond.ndjson"
run "$B" "$T/badcond.ndjson"
expect_status 1 "condition C is a data error"
like "$err" 'badcond.ndjson:2: condition' "the message names file, line and field"
{ rec S1 Q1 m A 7 0 1 null 100; } >"$T/range.ndjson"
run "$B" "$T/range.ndjson"
expect_status 1 "factual_accuracy 7 is a data error"
like "$err" 'range.ndjson:1: factual_accuracy: expected an integer from 0 to 3' "range message"
printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","factual_accuracy":1}\n' >"$T/missing.ndjson"
run "$B" "$T/missing.ndjson"
expect_status 1 "a missing score field is a data error"
like "$err" 'missing.ndjson:1: hallucination_count' "it names the missing field"
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m A 1 0 1 null 100; } >"$T/dup.ndjson"
run "$B" "$T/dup.ndjson"
expect_status 1 "two primary ratings of one tuple are an error"
like "$err" 'dup.ndjson:2: a second primary rating' "duplicate message"
printf 'not json\n' >"$T/nojson.ndjson"
run "$B" "$T/nojson.ndjson"
expect_status 1 "a line that is not JSON is an error"
: >"$T/empty.ndjson"
run "$B" "$T/empty.ndjson"
expect_status 1 "empty input is an error"

# --- undefined cases: reported as not computable with the reason, never NaN
: >"$T/zero.ndjson"
for q in 1 2 3 4 5 6; do
	rec S1 Q$q m A 2 1 1 2 100 >>"$T/zero.ndjson"
	rec S1 Q$q m B 2 1 1 2 100 >>"$T/zero.ndjson"
done
run "$B" -r "$T/zero.md" "$T/zero.ndjson"
expect_status 0 "identical conditions still produce a report"
h1=$(jq -c 'select(.hypothesis=="H1" and .group=="primary")' "$T/out")
like "$h1" '"computable":false' "H1 with every difference zero is not computable"
like "$h1" '"reason":"every paired difference is zero"' "... with its reason"
like "$(jq -c 'select(.test=="mcnemar_exact")' "$T/out")" 'no discordant pairs' "McNemar without discordant pairs: reason"
like "$(jq -c 'select(.hypothesis=="H3" and .group=="primary")' "$T/out")" '"reason":' "tokens all equal: reason"
like "$(jq -c 'select(.metric=="delta_tokens~delta_accuracy")' "$T/out")" 'constant' "Spearman on constant data: reason"
unlike "$(cat "$T/zero.md" "$T/out")" '(^|[^a-zA-Z])([Nn]a[Nn]|-?inf)([^a-zA-Z]|$)' "no NaN or inf in the report or the records"
like "$(cat "$T/zero.md")" 'not computable \(every paired difference is zero\)' "the report states the reason"

# every tuple of one condition excluded: no pairs, every test says why
{ printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","exclusion_reason":"JS_ONLY"}\n'
  rec S1 Q1 m B 2 0 1 null 50; } >"$T/excl.ndjson"
run "$B" -r "$T/excl.md" -f "$T/exfig" "$T/excl.ndjson"
expect_status 0 "a study without pairs still reports"
is "$(jq -r 'select(.test=="exclusion_accounting") | [.tuples_attempted, .tuples_excluded, .pairs, .by_reason.JS_ONLY] | @tsv' "$T/out")" "$(printf '2\t1\t0\t1')" "exclusion accounting: attempted, excluded, pairs, by reason"
is "$(jq -c 'select(.computable==false and (.reason|type)!="string")' "$T/out")" "" "every not computable result has a reason"
unlike "$(cat "$T/excl.md" "$T/out" "$T"/exfig/*.svg)" '(^|[^a-zA-Z])([Nn]a[Nn]|-?inf)([^a-zA-Z]|$)' "no NaN or inf anywhere"

# a constant second rater: kappa not computable
cp "$T/zero.ndjson" "$T/rater.ndjson"
for q in 1 2 3; do
	rec S1 Q$q m A 2 1 1 2 100 | sed 's/"primary":true/"primary":false/;s/"r1"/"r2"/' >>"$T/rater.ndjson"
done
run "$B" "$T/rater.ndjson"
expect_status 0 "second ratings are accepted"
like "$(jq -c 'select(.group=="agreement" and .test=="weighted_kappa_linear" and .metric=="factual_accuracy")' "$T/out")" 'constant rater' "a constant rater: kappa not computable"

# bscore-merge's flags: self_check, rater_kind autoscore, exclusion_reason ""
: >"$T/kinds.ndjson"
for q in 1 2 3 4; do
	rec S1 Q$q m A $((q % 4)) 0 $((q % 2)) null 100 | sed 's/"exclusion_reason":null/"exclusion_reason":""/' >>"$T/kinds.ndjson"
	rec S1 Q$q m B $(((q + 1) % 4)) 0 $(((q + 1) % 2)) null 90 >>"$T/kinds.ndjson"
	rec S1 Q$q m A $((q % 4)) 0 $((q % 2)) null 100 | sed 's/"primary":true/"primary":false,"self_check":true/;s/"r1"/"r1-later"/' >>"$T/kinds.ndjson"
	rec S1 Q$q m B $((q % 4)) 0 $((q % 2)) null 90 | sed 's/"primary":true/"primary":false,"rater_kind":"autoscore"/;s/"r1"/"auto"/' >>"$T/kinds.ndjson"
done
run "$B" "$T/kinds.ndjson"
expect_status 0 "ratings with bscore-merge's flags"
is "$(jq -r 'select(.test=="exclusion_accounting") | .tuples_excluded' "$T/out")" 0 'an exclusion_reason of "" is no exclusion'
is "$(jq -r 'select(.test=="percent_agreement") | "\(.subset)=\(.statistic)"' "$T/out" | tr '\n' ' ')" "self_check=100 human_vs_autoscore=0 " "self_check flag and autoscore ratings are told apart"

# spec 002: kappa on PASS/FAIL; spec 004: the tracks' correlation
aq() {	# question primary rater quality
	printf '{"site_id":"S1","question_id":"%s","model_id":"m","condition":"A","rubric":"answer-quality","primary":%s,"rater_id":"%s","quality_score":%s}\n' "$@"
}
{ aq Q1 true r1 0.9; aq Q1 false r2 0.8; aq Q2 true r1 0.75; aq Q2 false r2 0.5
  aq Q3 true r1 0.2; aq Q3 false r2 0.3; aq Q4 true r1 0.6; aq Q4 false r2 0.65; } >"$T/aq.ndjson"
run "$B" "$T/aq.ndjson"
expect_status 0 "answer-quality ratings alone are analysed"
is "$(jq -r 'select(.metric|startswith("pass_fail")) | .statistic' "$T/out")" 0.5 "002 PASS/FAIL kappa (sklearn: 0.5)"
dt() {	# question t1 t2
	printf '{"site_id":"S1","question_id":"%s","model_id":"m","condition":"B","rubric":"dual-track","rater_id":"r1","factual_accuracy_score":%s,"reasoning_quality":%s}\n' "$@"
}
{ dt Q1 100 90; dt Q2 80 70; dt Q3 60 75; dt Q4 40 30; } >"$T/dt.ndjson"
run "$B" "$T/dt.ndjson"
expect_status 0 "dual-track ratings are analysed"
is "$(jq -r 'select(.metric=="factual_accuracy_score~reasoning_quality") | .statistic' "$T/out")" 0.7999999999999999 "004 track correlation (scipy gives 0.7999999999999999 too)"
printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"B","rubric":"answer-quality","quality_score":3}\n' >"$T/aqbad.ndjson"
run "$B" "$T/aqbad.ndjson"
expect_status 1 "a quality score above 1 is a data error"
like "$err" 'aqbad.ndjson:1: quality_score' "... named with file and line"

# one pair only: n too small for the t-test, Wilcoxon exact with n = 1
{ rec S1 Q1 m A 1 2 0 null 300; rec S1 Q1 m B 3 0 1 null 100; } >"$T/one.ndjson"
run "$B" "$T/one.ndjson"
expect_status 0 "a single pair runs"
like "$(jq -c 'select(.hypothesis=="H1" and .group=="primary")' "$T/out")" '"p":0.5' "H1 on one positive pair: exact p = 0.5"
like "$(jq -c 'select(.test=="shapiro_wilk" or .shapiro_wilk)' "$T/out" | head -1)" 'fewer than 3' "Shapiro-Wilk with n < 3: reason"
is "$(jq -c 'select(.test=="token_summary") | .sites[0] | [.mean_a, .mean_b, .delta, (.delta_pct*1000|round)]' "$T/out")" '[300,100,-200,-66667]' "per-site tokens: B - A and its percentage of A"

# H3 with normal token differences: the paired t-test and Cohen's d
python3 - "$T/normal.ndjson" <<'PY'
import json, random, sys
rng = random.Random(3)
with open(sys.argv[1], "w") as f:
    for q in range(40):
        a = round(rng.gauss(3000, 400))
        b = a - round(rng.gauss(900, 150))
        for c, t in (("A", a), ("B", b)):
            f.write(json.dumps({"site_id": "S%d" % (q // 8), "question_id": "Q%d" % q,
                "model_id": "m", "condition": c, "factual_accuracy": rng.randint(0, 3),
                "hallucination_count": rng.randint(0, 2), "completeness": rng.randint(0, 1),
                "citation_fidelity": None, "input_token_count": t}) + "\n")
PY
run "$B" "$T/normal.ndjson"
expect_status 0 "a study with normal token differences runs"
h3=$(jq -c 'select(.group=="primary" and .hypothesis=="H3")' "$T/out")
like "$h3" '"test":"paired_t"' "Shapiro-Wilk does not reject: paired t-test"
like "$h3" '"measure":"cohens_d"' "... with paired Cohen's d"
like "$h3" '"normality_rejected":false' "... and the Shapiro-Wilk result recorded"
like "$(jq -c 'select(.group=="primary" and .hypothesis=="H1")' "$T/out")" '"method":"approx"' "H1 with ties uses the normal approximation"

# --- a synthetic study: results, report, figures, determinism
$GEN 3 48 11 >"$T/study.ndjson"
run "$B" -o "$T/r1.ndjson" -r "$T/r1.md" -f "$T/fig" "$T/study.ndjson"
expect_status 0 "the synthetic study runs"
is "$(ls "$T/fig" | tr '\n' ' ')" "accuracy-by-condition.svg fig4-tokens-vs-accuracy.svg forest-tier-complexity.svg site-token-deltas.svg " "four figures"
ok grep -q 'Spearman ρ = ' "$T/fig/fig4-tokens-vs-accuracy.svg"
ok python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' "$T"/fig/*.svg
is "$(jq -r 'select(.metric=="staleness_days~delta_accuracy") | .n' "$T/r1.ndjson")" \
	"$(jq -r 'select(.test=="exclusion_accounting") | .pairs' "$T/r1.ndjson")" "freshness: every pair has Last-Modified dates"
for h in H1 H2 H3; do
	like "$(jq -r "select(.group==\"primary\" and .hypothesis==\"$h\") | .p_adjusted" "$T/r1.ndjson")" '^[0-9]' "$h has a BH-adjusted p"
done
is "$(jq -r 'select(.family=="primary") | .family_size' "$T/r1.ndjson" | sort -u)" 3 "the primary family has 3 tests"
is "$(jq -r 'select(.family=="tier") | .family_size' "$T/r1.ndjson" | sort -u)" 10 "the tier family: H4 + 3 tiers x 3 metrics"
like "$(cat "$T/r1.md")" 'Interpretation \(001 §6.10\)' "the report applies the interpretation guide"
like "$(cat "$T/r1.md")" 'B scored [0-9] where A scored [0-9] in' "plain statements per scale point"
like "$(cat "$T/r1.md")" '\| S003 \| [0-9]+/[0-9]+ \| [0-9]+/[0-9]+ \| \*\*yes' "S003 (JS-only A) is flagged"
run "$B" -o "$T/r2.ndjson" -r "$T/r2.md" -f "$T/fig2" "$T/study.ndjson"
files_eq "$T/r2.ndjson" "$T/r1.ndjson" "same seed: same results, byte for byte"
files_eq "$T/r2.md" "$T/r1.md" "same seed: same report"
files_eq "$T/fig2/fig4-tokens-vs-accuracy.svg" "$T/fig/fig4-tokens-vs-accuracy.svg" "same seed: same figure"
run "$B" -s 7 -o "$T/r3.ndjson" "$T/study.ndjson"
isnt "$(jq -c 'select(.effect.ci_low) | .effect' "$T/r3.ndjson" | cksum)" \
	"$(jq -c 'select(.effect.ci_low) | .effect' "$T/r1.ndjson" | cksum)" "another seed moves the bootstrap intervals"
run --stdin "$T/study.ndjson" "$B"
files_eq "$T/out" "$T/r1.ndjson" "stdin works like a file argument"
# The man page's EXAMPLES run with every other page's: tests/docs/examples.t.
done_testing
