#!/bin/sh
# bstats --power: the power of the design by simulation, checked against
# closed forms (the exact McNemar test and the paired t-test over
# independent pairs; a null effect rejected at about alpha), against a
# brute-force simulation of the same model written apart in Python
# (power-ref.py), for determinism over threads, for its errors, and on the
# real corpus (skipped without it).  Few simulations: each check is one
# run of a few hundred small studies.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

PY=/usr/bin/python3
REF="$PY $HERE/power-ref.py"
$PY -c 'import numpy, scipy, statsmodels' 2>/dev/null ||
	skip_all "python3-numpy, python3-scipy or python3-statsmodels missing"

# 10 sites x 4 questions x 3 models: 120 pairs
$REF design "$T/d" 10 4 3
INDEP="--icc-site 0 --icc-model 0 --icc-question 0 --exclusion 0 --tier-interaction 0 --complexity-interaction 0"

# pw FILE TARGET SCENARIO FIELD: one field of one power record
pw() { jq -r --arg t "$2" --arg s "$3" "select(.target == \$t and .scenario == \$s) | .$4" "$1"; }
# within X LO HI: LO <= X <= HI
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

# --- closed forms: independent pairs, H1 and H2 certain so that BH leaves
# H3 and H6 at their own p (citation fidelity not applicable anywhere)
run "$B" --power "$T/d" --sims 400 --mde-steps 0 -s 3 $INDEP --cite-na 1 \
	--effect-accuracy 0.8 --effect-hallucinations 0.8 --effect-tokens 0.2 \
	--effect-completeness 0.15 -o "$T/cf.ndjson"
expect_status 0 "a power run over a small design"
is "$(pw "$T/cf.ndjson" H1 assumed power)" 1 "H1 at Cliff's delta 0.8: always rejected"
set -- $($REF closed 120 0.15 0.5 0.2 0.05)
exact=$1 tp=$2
lo=$(pw "$T/cf.ndjson" H6 assumed ci_low) hi=$(pw "$T/cf.ndjson" H6 assumed ci_high)
DESC="H6 (exact McNemar): the exact power $exact lies in the Monte-Carlo interval [$lo, $hi]" \
	ok within "$exact" "$lo" "$hi"
lo=$(pw "$T/cf.ndjson" H3 assumed ci_low) hi=$(pw "$T/cf.ndjson" H3 assumed ci_high)
DESC="H3 (paired t): the non-central t power $tp lies in the Monte-Carlo interval [$lo, $hi]" \
	ok within "$tp" "$lo" "$hi"

# --- a null effect is rejected at about alpha
run "$B" --power "$T/d" --sims 400 --mde-steps 0 -s 5 $INDEP \
	--effect-accuracy 0 --effect-hallucinations 0.8 --effect-tokens 1.5 -o "$T/null.ndjson"
expect_status 0 "a power run under the null of H1"
lo=$(pw "$T/null.ndjson" H1 assumed ci_low) hi=$(pw "$T/null.ndjson" H1 assumed ci_high)
DESC="no effect: alpha = 0.05 lies in H1's Monte-Carlo interval [$lo, $hi]" \
	ok within 0.05 "$lo" "$hi"
is "$(pw "$T/null.ndjson" H1 independent rejections)" "$(pw "$T/null.ndjson" H1 assumed rejections)" \
	"all ICCs 0: the scenario without clustering draws the same studies"

# --- the brute-force simulation of the same model, with clustering
run "$B" --power "$T/d" --sims 500 --mde-steps 0 -s 9 --icc-site 0.2 --icc-model 0.05 \
	--icc-question 0.05 --exclusion 0 --tier-interaction 0 --complexity-interaction 0 \
	--effect-accuracy 0.15 -o "$T/bf.ndjson"
expect_status 0 "a power run with site, model and question effects"
c=$(pw "$T/bf.ndjson" H1 assumed power)
py=$($REF brute "$T/d" 500 9 0.15 0.2 0.05 0.05)
# 3.5 standard errors of the difference of two independent estimates
DESC="H1 with clustering: bstats $c, brute force $py" ok awk -v a="$c" -v b="$py" \
	'BEGIN { se = sqrt((a * (1 - a) + b * (1 - b)) / 500); d = a - b; exit !(d <= 3.5 * se + 0.01 && -d <= 3.5 * se + 0.01) }'
i=$(pw "$T/bf.ndjson" H1 independent power)
DESC="site clustering costs power: $c with it, $i without" ok awk -v a="$c" -v b="$i" 'BEGIN { exit !(a < b) }'

# --- the minimum detectable effect, determinism over threads, the report
run "$B" --power "$T/d" --sims 60 --mde-steps 3 --threads 1 -o "$T/m1.ndjson" -r "$T/m1.md"
expect_status 0 "a power run with the minimum detectable effect"
mde=$(jq -r 'select(.test == "power_mde") | .mde' "$T/m1.ndjson")
DESC="H1's minimum detectable effect $mde lies in (0, 0.5]" ok within "$mde" 0.001 0.5
DESC="the MDE reaches the target power" ok within \
	"$(jq -r 'select(.test == "power_mde") | .power_at_mde' "$T/m1.ndjson")" 0.8 1
run "$B" --power "$T/d" --sims 60 --mde-steps 3 --threads 2 -o "$T/m2.ndjson" -r "$T/m2.md"
files_eq "$T/m2.ndjson" "$T/m1.ndjson" "one thread or two: the same records, byte for byte"
files_eq "$T/m2.md" "$T/m1.md" "one thread or two: the same report"
rep=$(cat "$T/m1.md")
like "$rep" '^## Power of the design' "the report has the power section"
like "$rep" "H1's power is [0-9.]+ \[[0-9.]+, [0-9.]+\] with the site" "the report states H1's power with clustering"
like "$rep" 'Minimum detectable effect \(H1, 80 % power\):\*\* Cliff' "the report states the MDE"
like "$rep" '^### The model' "the report explains the model"
run "$B" --power "$T/d" --sims 60 --mde-steps 0 -s 4 -o "$T/s4.ndjson"
isnt "$(cksum <"$T/s4.ndjson")" "$(cksum <"$T/m1.ndjson")" "another seed, other studies"
unlike "$(cat "$T/m1.ndjson" "$T/m1.md")" "$NANINF" "no NaN or inf in the outputs"

# --- the study Makefile's check target prints it (the example corpus)
run make -s -C "$TOP/examples/study" check CORPUS="$TOP/examples" OUT="$T/study" \
	BIN="$CTXBENCH_BUILD/bin/" SIMS=10 POWER_OPTS="--mde-steps 0"
expect_status 0 "make check in examples/study"
like "$out" '^corpus conformance: ' "make check prints the corpus's conformance"
like "$out" '^## Power of the design' "make check prints the power of the design"
ok test -s "$T/study/power.ndjson"

# --- errors
run "$B" --power "$T/nowhere"
expect_status 1 "a missing design is an error"
like "$err" 'nowhere/questions.json' "the error names the file"
printf '{"models": []}\n' >"$T/d/benchmark-config.json"
run "$B" --power "$T/d" --sims 10
expect_status 1 "a model matrix without models is an error"
like "$err" 'benchmark-config.json: models: expected a non-empty array' "the error names file and field"
run "$B" --power "$T/d" --ties 1.5
expect_status 2 "--ties above 0.99 is a usage error"
run "$B" --power "$T/d" --icc-site 0.6 --icc-model 0.6
expect_status 2 "random effects above the whole variance are a usage error"
run "$B" --power "$T/d" "$T/cf.ndjson"
expect_status 2 "--power with records is a usage error"

# --- the real corpus: H1 at a small effect, with and without clustering
if need_shared corpus/questions.json && need_shared corpus/benchmark-config.json; then
	run "$B" --power "$SHARED/corpus" --sims 40 --mde-steps 0 --effect-accuracy 0.05 \
		-o "$T/corpus.ndjson" -r "$T/corpus.md"
	expect_status 0 "the power of the real corpus's design"
	is "$(jq -r 'select(.test == "power_design") | "\(.sites) \(.pairs)"' "$T/corpus.ndjson")" \
		"37 2860" "the design: 37 sites, 286 questions x 10 models"
	like "$(cat "$T/corpus.md")" "At a factual accuracy effect of Cliff's δ = 0.05, H1's power is [0-9.]+ .* and [0-9.]+ \[[0-9.]+, [0-9.]+\] without site clustering" \
		"the report states H1's power at a small effect with and without site clustering"
	diag "$(grep -F "H1's power" "$T/corpus.md")"
else
	skip "no corpus in \$CTXBENCH_SHARED: the real design's power"
	skip "no corpus in \$CTXBENCH_SHARED: the design's size"
	skip "no corpus in \$CTXBENCH_SHARED: H1 with and without clustering"
fi
done_testing
