#!/bin/sh
# bstats: the report's words say what the data say, in every ordinary
# outcome.  Each study comes from gen-outcome.py, whose truth is known (B
# better, A better, no difference, all ties, a negative and a positive
# token-quality correlation, a model without B, pairs without a tier,
# significance carried by 3 of 12 sites, one pair, four pairs, autoscore
# only, a second rater who disagrees, p below 1e-300); the test asserts
# the sentences of report.md, the results browser's copy of them, and the
# "reading" of the NDJSON results that carries the interpretation.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
OUTCOME="python3 $HERE/gen-outcome.py"

# study NAME: $T/NAME.md and $T/NAME.ndjson from outcome NAME
study() {
	$OUTCOME "$1" >"$T/$1.in"
	run "$B" -b 1000 -o "$T/$1.ndjson" -r "$T/$1.md" "$T/$1.in"
	expect_status 0 "$1: bstats runs"
}

# says NAME LINE DESCRIPTION: LINE is a whole line of $T/NAME.md
says() {
	if grep -Fxq -- "$2" "$T/$1.md"; then pass "$3"; return 0; fi
	fail "$3"
	diag "no such line in $1.md: '$2'"
	return 1
}

# reading NAME HYP: the reading of HYP's result over all pairs
reading() {
	jq -c "select((.group==\"primary\" or .group==\"secondary\") and .hypothesis==\"$2\" and .test!=\"mcnemar_chi2\") | .reading | [.conclusion, .direction]" "$T/$1.ndjson"
}

# --- B better: the guide's strongest row, confirmed at the site level
study b-better
says b-better '- **H1 significant, medium+ effect**: "llms.txt Markdown produces meaningfully better factual responses" — "Strong practical case for llms.txt adoption" (Cliff'"'"'s δ = 0.604 [0.528, 0.681]; B better in 60.4 % of pairs, A better in 0.0 %, n = 144).' \
	"B better: H1's row with direction and size"
says b-better '  The site-level check of §6.5 confirms it (p = 3.81e-06 on 18 per-(site, model) means).' \
	"B better: the clustering check confirms it"
says b-better '- **H6 (completeness, two-tailed) significant: B is more complete than A**, consistent with H6'"'"'s "B equal or higher" (B complete where A was not in 96 pairs, A where B was not in 0, n = 144).' \
	"B better: H6 read with its direction"
is "$(reading b-better H1)" '["B better","B better"]' "B better: H1's reading"
says b-better '| H6 | McNemar (chi-square, continuity corrected) | completeness | all pairs | two-sided | 144 | 3.14e-22 | – (not in the family) | – |' \
	"a test outside the BH family has no 'no' under significant"

# --- A better: not "no difference", and H6 contradicted
study a-better
says a-better '- **H1 not significant**: the pre-registered row reads "No detectable accuracy difference between conditions" — "Modern LLMs handle HTML-derived content effectively; llms.txt does not measurably improve factual accuracy" (Cliff'"'"'s δ = -0.694 [-0.764, -0.625]; B better in 0.0 % of pairs, A better in 69.4 %, n = 144).' \
	"A better: the pre-registered row is quoted with the observed direction"
says a-better '  **The effect runs the other way**: these data show higher factual accuracy from the HTML extraction (A) than from the llms.txt Markdown (B), not "no difference"; the opposite one-sided test (A better), not pre-registered, gives p = 7.62e-24; the Cliff'"'"'s δ interval lies below 0.' \
	"A better: the report says the effect runs the other way"
says a-better '- **H6 (completeness, two-tailed) significant: B is less complete than A**: H6'"'"'s "B equal or higher" is contradicted; the llms.txt Markdown may omit content the HTML carries (§6.1) (B complete where A was not in 0 pairs, A where B was not in 72, n = 144).' \
	"A better: H6 is part of the interpretation"
is "$(reading a-better H1)" '["A better (opposite test, not pre-registered)","A better"]' "A better: H1's reading"
run "$B" -b 1000 --html "$T/a-better.html" -o /dev/null "$T/a-better.in"
like "$(cat "$T/a-better.html")" '\*\*The effect runs the other way\*\*: these data show higher factual accuracy from the HTML extraction \(A\)' \
	"A better: the browser carries the same statement"
is "$(reading a-better H6)" '["A better","A better"]' "A better: H6's reading"
is "$(jq -r 'select(.hypothesis=="H1" and .group=="primary") | .reading.opposite_p < 1e-20' "$T/a-better.ndjson")" true \
	"A better: the opposite one-sided p is in the record"

# --- no difference: the row, and no claim the other way
study no-diff
says no-diff '- **H1 not significant**: the pre-registered row reads "No detectable accuracy difference between conditions" — "Modern LLMs handle HTML-derived content effectively; llms.txt does not measurably improve factual accuracy" (Cliff'"'"'s δ = 0.000 [-0.125, 0.118]; B better in 25.0 % of pairs, A better in 25.0 %, n = 144).' \
	"no difference: H1 not significant, δ = 0 beside it"
unlike "$(cat "$T/no-diff.md")" 'runs the other way' "no difference: no effect the other way is claimed"
is "$(reading no-diff H1)" '["no detectable difference","none"]' "no difference: H1's reading"

# --- all ties: the clearest no-difference result, not "could not be computed"
study ties
says ties '- **H1: no difference on any pair**: all 24 pairs scored the same under A and B, the clearest no-difference result: §6.10'"'"'s row "H1 not significant" applies — "No detectable accuracy difference between conditions".' \
	"all ties: H1 concludes no difference on any pair"
says ties '- H4: no interaction: the accuracy Δ is the same in every (site, question) of every tier (all values are identical).' \
	"all ties: H4 concludes no interaction"
says ties '_No difference on any pair: all 24 pairs scored the same under A and B._' \
	"all ties: section 2 says so beside 'not computable'"
unlike "$(cat "$T/ties.md")" 'H1 could not be computed' "all ties: no 'could not be computed' for H1"
is "$(reading ties H1)" '["no difference on any pair","none"]' "all ties: H1's reading"

# --- the token-quality correlation, read by its sign
study neg-corr
says neg-corr '- **Δ_tokens correlates negatively with Δ_accuracy** (ρ = -0.944, p = 4.95e-70, n = 144): larger token savings go with *worse* accuracy under B, the surprising case of §6.7 ("aggressive content pruning in llms.txt actually removes useful context").  Neither of §6.10'"'"'s rows applies: "Token reduction predicts quality gain" reads a positive correlation.' \
	"negative ρ: read as worse accuracy with larger savings"
unlike "$(sed -n '/## Interpretation/,$p' "$T/neg-corr.md")" 'Token reduction predicts quality gain" — "The mechanism is noise removal' \
	"negative ρ: never the positive row's words"
study pos-corr
says pos-corr '- **Δ_tokens correlates positively with Δ_accuracy** (ρ = 0.944, p = 4.95e-70, n = 144): larger token savings go with larger accuracy gains under B — "Token reduction predicts quality gain" — "The mechanism is noise removal; sites with more HTML bloat benefit most".' \
	"positive ρ: the guide's row"

# --- a model without B: its tuples counted, and the model-level count says so
study no-b
says no-b '- where the 312 tuples went: 288 in the 144 pairs, 0 excluded, 0 whose other condition was excluded, 24 unpaired (the other condition is absent from the input)' \
	"no B: section 1 adds up, unpaired tuples included"
says no-b '- model model-9: 0 pairs; 24 tuples under A without a B response — **no pair: this model is absent from every paired analysis**' \
	"no B: the model and its condition are named"
says no-b '- model level, factual_accuracy: 3 of 3 models favour B, 0 favour A, 0 show no difference (not counted: 1 model without a pair: model-9, see section 1)' \
	"no B: the model-level count names the model it leaves out"
is "$(jq -c 'select(.test=="exclusion_accounting") | [.unpaired, .models_without_pairs, .by_model["model-9"]]' "$T/no-b.ndjson")" \
	'[24,["model-9"],{"A_only":24}]' "no B: the accounting record"

# --- pairs without a tier: counted where they drop out
study no-tier
says no-tier '- pairs without a `tier`: 48, left out of H4 and the per-tier tests' "no tier: section 1 counts them"
says no-tier '  48 pairs without a `tier` are left out of H4.' "no tier: the H4 reading says what it left out"

# --- significance carried by a few sites: 001 §7.4 L-SC-2
study clustered
says clustered '  **Possibly inflated by non-independence**: the site-level check of §6.5 (the one-sided Wilcoxon test on 12 per-(site, model) mean Δ) gives p = 0.3242 and does not confirm it: by 001 §7.4 L-SC-2 the primary result is reported as potentially inflated by within-site correlation.' \
	"clustered: the primary result is flagged as possibly inflated"
is "$(jq -c 'select(.group=="primary" and .hypothesis=="H1") | [.significant, .reading.site_level_confirms, .reading.possibly_inflated]' "$T/clustered.ndjson")" \
	'[true,false,true]' "clustered: the reading records the disagreement"

# --- too few pairs: n = 1 and n = 4 cannot reach alpha one-sided
study n1
says n1 '- **H1: too few pairs to conclude**: with 1 non-zero difference the pre-registered Wilcoxon signed-rank test cannot reach p ≤ 0.05 at all (its smallest attainable p is 0.5000), so the result is not a finding either way (Cliff'"'"'s δ = 1.000 [1.000, 1.000]; B better in 100.0 % of pairs, A better in 0.0 %, n = 1).' \
	"n = 1: too few pairs to conclude"
says n1 '  The effect-size interval rests on 1 pair, fewer than the 10 bstats(1) requires to read one: too few pairs to conclude on the size of the effect.' \
	"n = 1: the interval is not read as a finding"
study n4
says n4 '- **H1: too few pairs to conclude**: with 4 non-zero differences the pre-registered Wilcoxon signed-rank test cannot reach p ≤ 0.05 at all (its smallest attainable p is 0.0625), so the result is not a finding either way (Cliff'"'"'s δ = 1.000 [1.000, 1.000]; B better in 100.0 % of pairs, A better in 0.0 %, n = 4).' \
	"n = 4: the one-sided Wilcoxon cannot reach alpha"
says n4 '_Too few pairs to conclude: the smallest p this test can reach on these pairs is 0.0625._' \
	"n = 4: section 2 says so beside the result"
says n4 '- site level, factual_accuracy: Wilcoxon signed-rank: W+ = 1, p = 0.5000, n = 1 pair (1 non-zero difference), greater, exact — too few pairs to conclude (the smallest p this test can reach here is 0.5000)' \
	"n = 4: the site-level check says it cannot conclude"
like "$(cat "$T/n4.md")" '^- tier=small, factual_accuracy: .* — too few pairs to conclude \(the smallest p this test can reach here is 0\.0625\)$' \
	"n = 4: so does every subgroup test"
is "$(jq -c 'select(.group=="primary" and .hypothesis=="H1") | .reading | [.conclusion, .min_attainable_p]' "$T/n4.ndjson")" \
	'["too few pairs to conclude",0.0625]' "n = 4: the reading"

# --- autoscore only: the banner, the raters, H2 not assessed
study autoscore
says autoscore "> **First-pass scores, not the study's result.**  No primary rating is by a human rater (rater_kind: autoscore 288).  Spec 000 §10 makes automatic and LLM-judge scores a first pass that human raters confirm: read every result below as a check of the pipeline, not as evidence about llms.txt." \
	"autoscore: the first-pass banner"
is "$(grep -n '^> \*\*First-pass' "$T/autoscore.md" | cut -d: -f1)" 7 "autoscore: the banner stands before section 1"
says autoscore '- primary ratings by rater_kind: autoscore 288' "autoscore: ratings counted by rater_kind"
says autoscore '- hallucinations assessed on 0 of 144 pairs (bscore-merge autoscore does not assess them: its counts of 0 are not observations)' \
	"autoscore: hallucinations not assessed, counted"
says autoscore '- **H2 not assessed**: no pair'"'"'s hallucinations were assessed (every pair has a rating by bscore-merge autoscore, which does not assess them, 000 §10); the counts of 0 are not observations and H2 is not tested on them.' \
	"autoscore: H2 is 'not assessed', not a computed zero"
is "$(reading autoscore H2)" '["not assessed","none"]' "autoscore: H2's reading"
run "$B" -b 1000 --html "$T/autoscore.html" "$T/autoscore.in"
like "$(cat "$T/autoscore.html")" "First-pass scores, not the study's result" "autoscore: the browser carries the banner"
unlike "$(cat "$T/b-better.md")" 'First-pass' "human ratings: no banner"

# --- a second rater who disagrees: the subset's size and the decision
study rater2
says rater2 '- other ratings (second rater, self-check, judge): human 12' "second rater: other ratings counted"
says rater2 'The second rater (inter_rater) scored 12 of the 96 scored responses (12.5 %); 000 §8.1 asks for a random 10–15 % subset: within it.' \
	"second rater: the subset's size against 000 §8.1"
says rater2 '**000 §8.2 decision** (linear weighted kappa for the ordinal metrics, kappa for the binary ones, threshold 0.6, 12 items rated twice): kappa is below 0.6 on factual_accuracy: the raters discuss the disagreements, refine the rubric and re-score the subset before these results are final.' \
	"second rater: the 000 §8.2 verdict"
says rater2 '  - pooled over the four categories: each (response, category) is one item, present or absent.  The seeds differ here: 000 §8.1 measures hallucination agreement by Spearman'"'"'s ρ of the counts and kappa on the categories, 001 §7.3 L-CV-2 by a weighted kappa on the counts; this list gives both, and the 000 §8.2 decision reads 000 §8.1'"'"'s.' \
	"second rater: the pooled category kappa and the seeds' conflict named"
says rater2 '- inter_rater, hallucination_count, weighted_kappa_linear: kappa = 1.000, n = 12' \
	"second rater: L-CV-2's weighted kappa on the counts is reported too"

# --- spec 002 raters below its threshold: the verdict beside the kappa
aq() {	# question primary rater quality
	printf '{"site_id":"S1","question_id":"%s","model_id":"m","condition":"A","rubric":"answer-quality","primary":%s,"rater_id":"%s","quality_score":%s}\n' "$@"
}
{ aq Q1 true r1 0.9; aq Q1 false r2 0.8; aq Q2 true r1 0.75; aq Q2 false r2 0.5
  aq Q3 true r1 0.2; aq Q3 false r2 0.3; aq Q4 true r1 0.6; aq Q4 false r2 0.65; } >"$T/aq.in"
run "$B" -r "$T/aq.md" "$T/aq.in"
expect_status 0 "spec 002 ratings alone"
says aq '  - spec 002 Phase 3: κ < 0.60, **poor agreement: revise the rubric**, conduct a training session, re-pilot' \
	"spec 002: a kappa of 0.5 is read as 'revise the rubric'"

# --- p below the smallest double
study huge
like "$(cat "$T/huge.md")" 'W\+ = 4501500, p < 1e-300 \(BH-adjusted < 1e-300\)' "p < 1e-300 reads as such"
unlike "$(cat "$T/huge.md")" 'p = <' "never 'p = < 1e-300'"
# Figure 4 says what its x axis holds, and its trend line follows the bulk
# of the pairs, not one pair far out: B never uses fewer tokens here, and
# one pair at 20,000 more tokens gained 3 points while the others lost 0 or 1.
$OUTCOME tok-up >"$T/tok-up.in"
run "$B" -b 100 -o /dev/null -f "$T/tok-up-fig" "$T/tok-up.in"
expect_status 0 "tok-up: bstats draws the figures"
F4=$T/tok-up-fig/fig4-tokens-vs-accuracy.svg
like "$(cat "$F4")" "Token increase under B and accuracy change \(001 §6.7, Figure 4; B never uses fewer tokens\)" \
	"Figure 4 titled as an increase when B never uses fewer tokens"
unlike "$(cat "$F4")" "least-squares" "no least-squares line"
pts=$(sed -n 's/.*<polyline[^>]*points="\([^"]*\)".*/\1/p' "$F4")
is "$(printf '%s\n' "$pts" | tr ' ' '\n' | grep -c ,)" 10 "the median line: one point per tenth of the pairs"
is "$(printf '%s\n' "$pts" | tr ' ' '\n' | awk -F, '$2 < 235 || $2 > 295' | wc -l | tr -d ' ')" 0 \
	"every point of the line lies between Δaccuracy -1 and 0, where the pairs are; none follows the outlier"
$OUTCOME b-better >"$T/b-fig.in"
run "$B" -b 100 -o /dev/null -f "$T/b-fig" "$T/b-fig.in"
like "$(cat "$T/b-fig/fig4-tokens-vs-accuracy.svg")" "Token reduction and accuracy change \(001 §6.7, Figure 4\)" \
	"Figure 4 titled as a reduction when B uses fewer tokens"

done_testing
