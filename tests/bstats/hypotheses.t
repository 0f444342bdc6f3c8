#!/bin/sh
# bstats: the primary and secondary tests (001 §6.2-§6.4): undefined cases
# reported as not computable with the reason, never NaN; one pair; the
# paired t-test when the token differences are normal; THE SIGN CONVENTION
# (positive = Condition B better) in the records and the report; BH within
# the primary family, significant at adjusted p <= alpha.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# --- undefined cases: reported as not computable with the reason, never NaN
identical_pairs "$T/zero.ndjson"
run "$B" -r "$T/zero.md" "$T/zero.ndjson"
expect_status 0 "identical conditions still produce a report"
h1=$(jq -c 'select(.hypothesis=="H1" and .group=="primary")' "$T/out")
like "$h1" '"computable":false' "H1 with every difference zero is not computable"
like "$h1" '"reason":"every paired difference is zero"' "... with its reason"
is "$(jq -c 'select(.test=="mcnemar_exact") | [.statistic, .p]' "$T/out")" '[0,1]' "McNemar without discordant pairs: statistic 0, p = 1 (statsmodels)"
like "$(jq -c 'select(.test=="mcnemar_chi2")' "$T/out")" '"computable":false.*divides by zero' "... its chi-square version is not computable, with the reason"
like "$(jq -c 'select(.hypothesis=="H3" and .group=="primary")' "$T/out")" '"reason":' "tokens all equal: reason"
like "$(jq -c 'select(.metric=="delta_tokens~delta_accuracy")' "$T/out")" 'constant' "Spearman on constant data: reason"
unlike "$(cat "$T/zero.md" "$T/out")" "$NANINF" "no NaN or inf in the report or the records"
like "$(cat "$T/zero.md")" 'not computable \(every paired difference is zero\)' "the report states the reason"

# --- one pair only: n too small for the t-test, Wilcoxon exact with n = 1
{ rec S1 Q1 m A 1 2 0 null 300; rec S1 Q1 m B 3 0 1 null 100; } >"$T/one.ndjson"
run "$B" "$T/one.ndjson"
expect_status 0 "a single pair runs"
like "$(jq -c 'select(.hypothesis=="H1" and .group=="primary")' "$T/out")" '"p":0.5' "H1 on one positive pair: exact p = 0.5"
like "$(jq -c 'select(.test=="shapiro_wilk" or .shapiro_wilk)' "$T/out" | head -1)" 'fewer than 3' "Shapiro-Wilk with n < 3: reason"

# --- H3 with normal token differences: the paired t-test and Cohen's d
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

# --- BH within the primary family: significant at adjusted p <= alpha
# (statsmodels), not <
synthetic_study
expect_status 0 "the synthetic study runs"
for h in H1 H2 H3; do
	like "$(jq -r "select(.group==\"primary\" and .hypothesis==\"$h\") | .p_adjusted" "$T/r1.ndjson")" '^[0-9]' "$h has a BH-adjusted p"
done
is "$(jq -r 'select(.family=="primary") | .family_size' "$T/r1.ndjson" | sort -u)" 3 "the primary family has 3 tests"
adj=$(jq -r 'select(.group=="primary" and .hypothesis=="H1") | .p_adjusted' "$T/r1.ndjson")
run "$B" -a "$adj" -b 100 "$T/study.ndjson"
is "$(jq -r 'select(.group=="primary" and .hypothesis=="H1") | .significant' "$T/out")" true "adjusted p equal to alpha is significant"
done_testing
