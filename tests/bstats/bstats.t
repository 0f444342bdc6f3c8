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
is "$(jq -c 'select(.test=="mcnemar_exact") | [.statistic, .p]' "$T/out")" '[0,1]' "McNemar without discordant pairs: statistic 0, p = 1 (statsmodels)"
like "$(jq -c 'select(.test=="mcnemar_chi2")' "$T/out")" '"computable":false.*divides by zero' "... its chi-square version is not computable, with the reason"
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
like "$(jq -c 'select(.group=="agreement" and .test=="weighted_kappa_linear" and .metric=="factual_accuracy")' "$T/out")" 'both raters give one and the same value' "both raters constant: kappa not computable (sklearn: NaN)"
cp "$T/zero.ndjson" "$T/rater1.ndjson"
for q in 1 2 3; do
	rec S1 Q$q m A $q 1 1 2 100 | sed 's/"primary":true/"primary":false/;s/"r1"/"r2"/' >>"$T/rater1.ndjson"
done
run "$B" "$T/rater1.ndjson"
is "$(jq -c 'select(.group=="agreement" and .test=="weighted_kappa_linear" and .metric=="factual_accuracy") | .statistic' "$T/out")" 0 "one constant rater: kappa 0 (sklearn)"
is "$(jq -r 'select(.test=="kappa_decision") | .decision' "$T/out")" "refine and re-score" "000 §8.2: kappa below 0.6 asks to refine and re-score"

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
is "$(jq -r 'select((.metric // "")|startswith("pass_fail")) | .statistic' "$T/out")" 0.5 "002 PASS/FAIL kappa (sklearn: 0.5)"
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
is "$(jq -c 'select(.test=="token_summary") | .sites[0] | [.mean_a, .mean_b, .median_a, .median_b, .delta, (.delta_pct*1000|round)]' "$T/out")" '[300,100,300,100,200,66667]' "per-site tokens: means, medians, A - B and its percentage of A"

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
like "$(jq -c 'select(.group=="primary" and .hypothesis=="H1")' "$T/out")" '"method":"exact conditional"' "H1 with ties at n = 40: the exact conditional distribution"

# --- a synthetic study: results, report, figures, determinism
$GEN 3 48 11 >"$T/study.ndjson"
run "$B" -o "$T/r1.ndjson" -r "$T/r1.md" -f "$T/fig" "$T/study.ndjson"
expect_status 0 "the synthetic study runs"
is "$(ls "$T/fig" | tr '\n' ' ')" "accuracy-by-condition.csv accuracy-by-condition.svg fig4-tokens-vs-accuracy.csv fig4-tokens-vs-accuracy.svg forest-tier-complexity.csv forest-tier-complexity.svg site-token-deltas.csv site-token-deltas.svg " "four figures, each with the CSV of its data"
is "$(sed 1d "$T/fig/fig4-tokens-vs-accuracy.csv" | wc -l)" "$(jq -r 'select(.test=="exclusion_accounting") | .pairs' "$T/r1.ndjson")" "the scatter's CSV has one row per pair"
is "$(awk -F, 'NR > 1 { print $1 }' "$T/fig/site-token-deltas.csv" | tr '\n' ' ')" "S001 S002 S004 S005 S006 " "the site CSV: one row per site with pairs"
for f in "$T"/fig/*.svg; do
	like "$(cat "$f")" 'positive = Condition B better' "$(basename "$f"): the caption states the sign convention"
done
unlike "$(cat "$T"/fig/*.svg)" '#d62728|#2ca02c|#ff7f0e|#1f77b4' "no red-green pair: the Okabe-Ito palette"
is "$(grep -o '>[^<]*</text>' "$T/fig/fig4-tokens-vs-accuracy.svg" | grep -E '^>-?[0-9.]+</text>$' | tr -d '></text' | awk '{ if ($1 != int($1 / 500) * 500 && ($1 < -3 || $1 > 3)) print "odd " $1 }')" "" "nice tick labels (multiples of a round step)"
like "$(cat "$T/fig/forest-tier-complexity.svg")" '>n = [0-9]+</text>' "forest rows carry n"
like "$(cat "$T/fig/forest-tier-complexity.svg")" '>-?[01]\.[0-9]{3} \[-?[01]\.[0-9]{3}, -?[01]\.[0-9]{3}\]</text>' "... and δ [95 % CI]"
is "$(grep -c '<line' "$T/fig/site-token-deltas.svg" | awk '{ print ($1 > 5) }')" 1 "site bars carry interval whiskers"
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
# The man page's EXAMPLES run as written (on a scored.ndjson of its own).
mkdir "$T/man" && cp "$T/study.ndjson" "$T/man/scored.ndjson"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE/s/^\.Dl //p' "$TOP/man/bstats.1" | sed 's/\\(dq/"/g; s/\\-/-/g' >"$T/man/examples.sh"
is "$(grep -c '^bstats' "$T/man/examples.sh")" 3 "three examples on the page"
erc=0
(cd "$T/man" && PATH=$(dirname "$B"):$PATH sh -e examples.sh >out 2>err) || erc=$?
is "$erc" 0 "the EXAMPLES pipelines run"
like "$(cat "$T/man/out")" '^\["H1",' "the jq example prints the primary results"
ok test -s "$T/man/report.md"
ok test -s "$T/man/figures/fig4-tokens-vs-accuracy.svg"
like "$(head -c 200 "$T/man/results.html")" '<!DOCTYPE html>' "the browser example writes the page"

# --- the sign convention: positive = Condition B better, everywhere
# B has more hallucinations and more tokens than A in every pair
: >"$T/worse.ndjson"
for q in 1 2 3 4 5 6 7 8 9 10; do
	rec S$q Q$q m A 2 0 1 null 1000 >>"$T/worse.ndjson"
	rec S$q Q$q m B 2 $((1 + q % 2)) 1 null 1470 >>"$T/worse.ndjson"
done
run "$B" -r "$T/worse.md" "$T/worse.ndjson"
expect_status 0 "B worse than A: runs"
h2=$(jq -c 'select(.group=="primary" and .hypothesis=="H2")' "$T/out")
is "$(printf '%s' "$h2" | jq -c '[.effect.value, .distribution.b_better_pct, .distribution.a_better_pct, .delta]')" '[-1,0,100,"Δ = A − B"]' \
	"H2: more hallucinations under B give a negative δ and 'A better' in every pair"
is "$(jq -c 'select(.group=="primary" and .hypothesis=="H3") | [.effect.value, .alternative]' "$T/out")" '[-1,"greater"]' \
	"H3: more tokens under B give δ = -1, tested one-tailed for B fewer"
is "$(jq -c 'select(.test=="token_summary") | .sites[0] | [.delta, .delta_pct]' "$T/out")" '[-470,-47]' "per-site Δ = A - B is negative when B uses more"
like "$(cat "$T/worse.md")" 'H3 not significant\*\*: Condition B did not use fewer tokens.*B used 47\.0 % more tokens than A \(Cliff.s δ = -1\.000' \
	"the interpretation states that B used 47 % more tokens (δ = -1)"
like "$(cat "$T/worse.md")" 'Condition B was better in 0\.0 % of pairs, Condition A in 100\.0 %' "the distribution line names who was better"
like "$(cat "$T/worse.md")" '\*\*Sign convention\*\*.*positive = Condition B better' "the report states the convention"
is "$(grep ', n = .*; Δ = ' "$T/worse.md" | grep -vc 'positive: B better')" 0 "every Δ in a result line carries its sign"
unlike "$(cat "$T/worse.md")" 'pairs;$' "no dangling ';' after the scale points"

# --- H4: Kruskal-Wallis per (site, question) within each tier; follow-ups
python3 - "$T/tiers.ndjson" <<'PY'
import json, sys
# 3 models per tier, 30 questions: small tier gains 2 points under B, large none
with open(sys.argv[1], "w") as f:
    for q in range(30):
        for t, tier in enumerate(("small", "medium", "large")):
            for m in range(3):
                gain = (2, 1, 0)[t] if (q + m) % 5 else 0
                for c, fa in (("A", 1), ("B", 1 + gain)):
                    f.write(json.dumps({"site_id": "S%d" % (q // 5 + 1), "question_id": "Q%d" % q,
                        "model_id": "%s-%d" % (tier, m), "condition": c, "tier": tier,
                        "complexity": "single-fact", "factual_accuracy": min(fa, 3),
                        "hallucination_count": 0, "completeness": 1, "citation_fidelity": None,
                        "input_token_count": 100}) + "\n")
PY
run "$B" -r "$T/tiers.md" "$T/tiers.ndjson"
expect_status 0 "a study with a tier interaction runs"
kw=$(jq -c 'select(.test=="kruskal_wallis" and .group=="tier")' "$T/out")
is "$(printf '%s' "$kw" | jq -c '[.n, .groups.small.n, .significant, .followups_run]')" '[90,30,true,true]' \
	"KW on 30 (site, question) means per tier (90 values), significant: follow-ups run"
is "$(jq -r 'select(.test=="mann_whitney_u" and .group=="tier") | "\(.subset) \(.alternative)"' "$T/out" | tr '\n' ';')" \
	"tier=small vs medium greater;tier=small vs large greater;tier=medium vs large greater;" \
	"follow-ups one-tailed in H4's direction (smaller tier first)"
like "$(cat "$T/tiers.md")" '\*\*H4 significant \(interaction\)\*\*' "the interpretation reads H4 as supported"
is "$(jq -c 'select(.test=="mann_whitney_u" and .group=="complexity")' "$T/out")" "" "one complexity level: no follow-ups for H5"
kw5=$(jq -c 'select(.test=="kruskal_wallis" and .group=="complexity")' "$T/out")
like "$kw5" '"computable":false' "H5 with one group: Kruskal-Wallis not computable"
# the study of the earlier tests: KW not significant, so no follow-ups
is "$(jq -c 'select(.test=="mann_whitney_u")' "$T/r1.ndjson")" "" "Kruskal-Wallis not significant: no Mann-Whitney follow-ups"
is "$(jq -c 'select(.test=="kruskal_wallis") | .followups_run' "$T/r1.ndjson" | sort -u)" false "... and the record says so"

# --- BH: significant at adjusted p <= alpha (statsmodels), not <
adj=$(jq -r 'select(.group=="primary" and .hypothesis=="H1") | .p_adjusted' "$T/r1.ndjson")
run "$B" -a "$adj" -b 100 "$T/study.ndjson"
is "$(jq -r 'select(.group=="primary" and .hypothesis=="H1") | .significant' "$T/out")" true "adjusted p equal to alpha is significant"
# the chi-square McNemar in the secondary table, at full precision
like "$(cat "$T/r1.md")" '\| H6 \| McNemar \(chi-square, continuity corrected\) \| completeness \|.*not in the family' "the chi-square McNemar is a row of the secondary table"
# pre-registered items in the report
like "$(cat "$T/r1.md")" '000 §8\.2 decision\*\* \(linear weighted kappa' "the 000 §8.2 decision is stated"
like "$(cat "$T/r1.md")" '\| site \| pairs \| mean A \| mean B \| median A \| median B \|' "000 §4: per-site medians"
like "$(cat "$T/r1.md")" 'Token variation across models \(001 §2\.6, level 2\)' "001 §2.6: cross-model token variation"
is "$(jq -r 'select(.test=="token_variation") | .models | length' "$T/r1.ndjson")" 3 "... one row per model"
run "$B" "$T/zero.ndjson" -r "$T/single.md"
like "$(cat "$T/single.md")" '000 §8\.2 decision\*\*: not applicable' "single rater: the decision is not applicable (000 §8.3)"

# --- A<->B parity (bctx's fields on the scored records) and the sensitivity analysis
$GEN 3 48 11 parity >"$T/parity.ndjson"
run "$B" -r "$T/parity.md" "$T/parity.ndjson"
expect_status 0 "records with parity fields"
ps=$(jq -c 'select(.test=="parity_summary")' "$T/out")
is "$(printf '%s' "$ps" | jq -c '[.computable, .pairs_with_parity == .n, (.sites | length)]')" '[true,true,5]' "parity per site"
drift=$(printf '%s' "$ps" | jq -r .pairs_drift)
isnt "$drift" 0 "some pairs are flagged as drifted"
is "$(jq -r 'select(.group=="sensitivity_parity") | "\(.hypothesis)=\(.n)"' "$T/out" | tr '\n' ' ')" \
	"H1=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) H2=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) H3=$(( $(printf '%s' "$ps" | jq -r .n) - drift )) " \
	"the primary tests again without the drifted pairs"
is "$(jq -c 'select(.group=="sensitivity_parity") | .family' "$T/out" | sort -u)" null "... outside the BH families"
like "$(cat "$T/parity.md")" '## 8\. A↔B content parity.*' "the report has the parity section"
like "$(cat "$T/parity.md")" '\| S001 \| 24 \| 24 \| [0-9]+ \| 0\.[0-9]{3} \| 0\.[0-9]{3} \|' "... with the per-site shares"
like "$(cat "$T/parity.md")" 'gold cov\. A \| gold cov\. B' "... beside the gold-coverage asymmetry"
like "$(cat "$T/r1.md")" 'Not reported: the scored records carry no parity fields' "older data without the fields: the report says so"
printf '{"site_id":"S1","question_id":"Q1","model_id":"m","condition":"A","factual_accuracy":1,"hallucination_count":0,"completeness":1,"input_token_count":5,"parity_b_in_a":1.5}\n' >"$T/badpar.ndjson"
run "$B" "$T/badpar.ndjson"
expect_status 1 "a parity share above 1 is a data error"
like "$err" 'badpar.ndjson:1: parity_b_in_a: expected a number from 0 to 1' "... named with file, line and field"

# --- corpus conformance (the findings of bctx check --json)
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

# --- natural order of site ids, one-site charts, CSV formula cells
: >"$T/nat.ndjson"
for site in S10 S9 S1 =cmd; do
	rec "$site" Q1 m A 2 1 1 null 300 >>"$T/nat.ndjson"
	rec "$site" Q1 m B 3 0 1 null 200 >>"$T/nat.ndjson"
done
run "$B" -f "$T/natfig" -r "$T/nat.md" "$T/nat.ndjson"
is "$(awk -F, 'NR > 1 { print $1 }' "$T/natfig/site-token-deltas.csv" | tr '\n' '|')" " =cmd|S1|S9|S10|" \
	"sites in natural order (S9 before S10); a formula-like cell starts with a space (as raw-data.csv)"
like "$(tr '\n' ' ' <"$T/nat.md")" '\| S1 \|.*\| S9 \|.*\| S10 \|' "the report's site tables in natural order too"
rec S1 Q1 m A 2 1 1 null 300 >"$T/one1.ndjson"
rec S1 Q1 m B 3 0 1 null 200 >>"$T/one1.ndjson"
run "$B" -f "$T/onefig" "$T/one1.ndjson"
is "$(grep -o 'height="[0-9.]*" fill="#009E73"><title>' "$T/onefig/site-token-deltas.svg" | cut -d'"' -f2)" 16.0 "a one-site chart is one bar of normal thickness, not a block"

# --- data strings are escaped in report.md (a site_id holding HTML and Markdown)
: >"$T/evil.ndjson"
for q in 1 2 3; do
	rec '<script>alert(1)</script>|*x*' Q$q m A 1 1 0 null 100 >>"$T/evil.ndjson"
	rec '<script>alert(1)</script>|*x*' Q$q m B 2 0 1 null 60 >>"$T/evil.ndjson"
done
run "$B" -r "$T/evil.md" "$T/evil.ndjson"
expect_status 0 "a hostile site_id runs"
unlike "$(cat "$T/evil.md")" '<script' "no HTML from the data reaches report.md"
like "$(cat "$T/evil.md")" '\| &lt;script&gt;alert\(1\)&lt;/script&gt;\\\|\\\*x\\\* \| 0/3' "the site_id is escaped (HTML and Markdown)"
done_testing
