#!/bin/sh
# bstats: condition variants (issue 30).  The primary analysis is the same
# bytes with or without variant records; each comparison's tests agree
# with scipy and statsmodels, in a BH family of its own; the exploratory
# section's sentences say what gen-variants.py built in (a contrast each
# way, one null, one with too few pairs, one not run); --config declares
# the comparisons; every bad input is an error naming file, line and field.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
GENV="python3 $HERE/gen-variants.py"

$GENV primary >"$T/p.in"
$GENV variants >"$T/v.in"

# section FILE: the report without its exploratory section
section_out() {
	awk '/^## Exploratory: /{skip=1; next} /^## /{skip=0} !skip' "$1"
}
# says FILE LINE-PATTERN DESCRIPTION: a fixed string in the report
says() {
	if grep -Fq -- "$2" "$1"; then pass "$3"; return 0; fi
	fail "$3"
	diag "not in $1: '$2'"
	return 1
}

# --- the primary analysis, unchanged by variant records
run "$B" -b 1000 -o "$T/p.ndjson" -r "$T/p.md" -f "$T/pfig" "$T/p.in"
expect_status 0 "the primary study runs"
run "$B" -b 1000 -o "$T/v.ndjson" -r "$T/v.md" -f "$T/vfig" --html "$T/v.html" "$T/v.in"
expect_status 0 "the study with variant records runs"
like "$err" 'bstats: 94 ratings of variant conditions \(0 not used: not primary, or under another rubric\); 4 exploratory comparisons' \
	"the run's summary counts the variant ratings and comparisons"
DESC="the figures and their data are the same bytes" ok diff -r "$T/pfig" "$T/vfig"
n=$(wc -l <"$T/p.ndjson")
head -n "$n" "$T/v.ndjson" >"$T/v-primary.ndjson"
files_eq "$T/v-primary.ndjson" "$T/p.ndjson" \
	"the primary result records are the same bytes, the exploratory ones after them"
is "$(tail -n +"$((n + 1))" "$T/v.ndjson" | jq -r .group | sort -u)" exploratory \
	"every record after them is exploratory"
section_out "$T/v.md" >"$T/v-rest.md"
files_eq "$T/v-rest.md" "$T/p.md" "every other section of the report is the same bytes"
unlike "$(cat "$T/p.md")" 'Exploratory' "no exploratory section without variants"
is "$(jq -r 'select(.test=="comparison") | .comparison' "$T/v.ndjson" | tr '\n' ' ')" \
	"A-markdown:A A-whole:A B-neutral-prompt:B B-plain:B " \
	"without --config each variant is compared with its variant_of, by name"
is "$(jq -c 'select(.comparison=="B-plain:B" and .metric=="factual_accuracy") | [.family, .alternative, .delta, .effect.value]' "$T/v.ndjson")" \
	'["exploratory B-plain:B","two-sided","Δ = B-plain − B",-0.6666666666666666]' \
	"B-plain:B: its own family, two-sided, Δ = X − Y, Cliff's δ -2/3"
is "$(jq -c 'select(.comparison=="B-plain:B" and .metric=="input_token_count") | [.delta, .sign]' "$T/v.ndjson")" \
	'["Δ = B − B-plain","positive = B-plain better (higher score, fewer hallucinations, fewer tokens)"]' \
	"tokens: Δ = Y − X, positive = X better"
is "$(jq -c 'select(.test=="comparison" and .comparison=="B-plain:B") | [.x_ratings, .y_ratings, .pairs, .run, .x_variant_of, .y_base]' "$T/v.ndjson")" \
	'[30,30,30,true,"B","B"]' "the comparison record counts ratings and pairs"

# --- each comparison against scipy and statsmodels
if /usr/bin/python3 -c 'import scipy, statsmodels' 2>/dev/null; then
	/usr/bin/python3 "$HERE/variants-ref.py" "$T/v.in" "$T/v.ndjson" \
	    >"$T/ref.out" 2>/dev/null
	is "$(grep -c '^PASS' "$T/ref.out")" 61 "61 checks against scipy"
	while IFS= read -r line; do
		case $line in
		PASS\ *) pass "scipy: ${line#PASS }" ;;
		*) fail "scipy: ${line#FAIL }" ;;
		esac
	done <"$T/ref.out"
else
	skip "no scipy and statsmodels under /usr/bin/python3: the comparisons are not checked against them"
fi

# --- the words, true to what gen-variants.py built
says "$T/v.md" '## Exploratory: what explains the A→B difference (001 §7)' "the section's title"
says "$T/v.md" 'The shares are not additive' "the caveat on shares"
says "$T/v.md" 'BH family: exploratory B-plain:B (this comparison'"'"'s tests only); 30 pairs' \
	"each comparison states its family"
says "$T/v.md" '- **Factual accuracy**: B scored higher on factual accuracy than B-plain in more pairs than the reverse (Cliff'"'"'s δ = -0.667 [' \
	"B-plain:B: the direction (towards Y)"
says "$T/v.md" 'In means, B − B-plain = 0.667 against B − A = 1.5: this accounts for 44 % of the primary A→B difference.' \
	"B-plain:B: the wrapping's share of the A→B difference"
says "$T/v.md" 'the structure the XML tags add (001 §7 L-IV-3)' "B-plain:B: what it isolates"
says "$T/v.md" '- **Factual accuracy**: A-markdown scored higher on factual accuracy than A in more pairs than the reverse (Cliff'"'"'s δ = 0.500 [' \
	"A-markdown:A: the direction (towards X)"
says "$T/v.md" 'In means, A-markdown − A = 0.5 against B − A = 1.5: this accounts for 33 % of the primary A→B difference.' \
	"A-markdown:A: the share the format recovers"
grep -A3 '^### A-markdown:A' "$T/v.md" | grep -q 'format against content' &&
	pass "A-markdown:A: format against content" || fail "A-markdown:A: format against content"
acc_whole=$(grep -A6 '^### A-whole:A' "$T/v.md" | grep 'Factual accuracy')
like "$acc_whole" 'neither condition did better in more pairs .*the interval includes zero, so the direction is not established; BH-adjusted p = 1\.0000, not significant' \
	"A-whole:A: no difference is not read as a direction"
like "$acc_whole" 'accounts for none of the primary A→B difference' "A-whole:A: no share"
says "$T/v.md" 'what the extractor contributes (001 §7 L-IV-2' "A-whole:A: what it isolates"
says "$T/v.md" 'In means, A − A-whole = -2304 against A − B = 544: this runs against the primary A→B difference, 424 % of its size in the other direction.' \
	"A-whole:A tokens: a contrast against the primary direction, Δ formed as for tokens"
grep -A6 '^### B-neutral-prompt:B' "$T/v.md" | grep -q '^- \*\*Factual accuracy\*\*: 4 pairs, too few to read .*no direction is claimed\.$' &&
	pass "B-neutral-prompt:B: four pairs, no direction claimed" ||
	fail "B-neutral-prompt:B: four pairs, no direction claimed"
says "$T/v.md" 'under a second prompt template: how much the prompt favours one format (001 §7 L-IV-4)' \
	"a prompt variant: what it isolates"
unlike "$(grep -A8 '^### B-neutral-prompt:B' "$T/v.md")" 'Cliff|accounts for' \
	"too few pairs: neither an effect nor a share"

# --- no share of a primary difference the primary test did not find: A's
# accuracy set to B's but one point lower in one tuple (B - A = 1/30, not
# significant), the other metrics as before
jq -c -s '(map(select(.condition == "B")) | map({key: (.site_id + "|" +
    .question_id + "|" + .model_id), value: .factual_accuracy}) |
    from_entries) as $b | .[] | if .condition == "A" then .factual_accuracy =
    $b[.site_id + "|" + .question_id + "|" + .model_id] - (if .question_id ==
    "S1-Q1" and .model_id == "model-0" then 1 else 0 end) else . end' \
    "$T/v.in" >"$T/flat.in"
run "$B" -b 1000 -o "$T/flat.ndjson" -r "$T/flat.md" "$T/flat.in"
expect_status 0 "a study whose primary accuracy difference is one tuple runs"
says "$T/flat.md" 'In means, A-markdown − A = -0.967 against B − A = 0.0333; the primary A→B difference is not significant (BH-adjusted p = 0.5000), so no share of it is given.' \
	"A-markdown:A: no share of a primary difference that is not significant"
unlike "$(grep 'Factual accuracy' "$T/flat.md" | grep 'In means')" \
	'accounts for|of its size' "no accuracy share against a difference of noise"
says "$T/flat.md" 'In means, B-plain − B = 0.267 against A − B = 1.17: this accounts for 23 % of the primary A→B difference.' \
	"a significant primary difference (hallucinations) still gets its share"

# --- --config: declared comparisons, in either orientation; one not run
cat >"$T/cfg.json" <<'EOF'
{"variants": ["B-plain", "A-markdown", "A-whole"],
 "comparisons": ["A:A-markdown", "A-whole:A"]}
EOF
grep -v '"A-whole"\|"B-neutral-prompt"' "$T/v.in" >"$T/nowhole.in"
run "$B" -b 1000 --config "$T/cfg.json" -o "$T/c.ndjson" -r "$T/c.md" "$T/nowhole.in"
expect_status 0 "--config: a declared variant the study did not run is no error"
like "$err" 'comparison A-whole:A not run: no primary rating of condition A-whole' "... but a warning"
says "$T/c.md" '**Not run**: no primary rating of condition A-whole: the study did not run it.' \
	"... and the report says the comparison was not run"
is "$(jq -c 'select(.test=="comparison") | [.comparison, .run]' "$T/c.ndjson" | tr '\n' ' ')" \
	'["A:A-markdown",true] ["A-whole:A",false] ' "only the declared comparisons, in their order"
says "$T/c.md" '- **Factual accuracy**: A-markdown scored higher on factual accuracy than A in more pairs than the reverse (Cliff'"'"'s δ = -0.500 [' \
	"A:A-markdown: the same direction, said of the conditions, with δ of X − Y"
says "$T/c.md" 'In means, A-markdown − A = 0.5 against B − A = 1.5: this accounts for 33 % of the primary A→B difference.' \
	"A:A-markdown: the same share as A-markdown:A"
head -n "$n" "$T/c.ndjson" >"$T/c-primary.ndjson"
files_eq "$T/c-primary.ndjson" "$T/p.ndjson" "--config leaves the primary records as they are"
is "$(jq -r 'select(.comparison=="A:A-markdown" and .metric=="completeness" and .test=="mcnemar_exact") | .family_size' "$T/c.ndjson")" \
	"$(jq -r 'select(.family=="exploratory A:A-markdown" and .p!=null) | .test' "$T/c.ndjson" | wc -l)" \
	"BH family size: the comparison's computable tests only"

# --- the results browser: a grid column per variant, the pairs A with B
is "$(sed -n 's/.*"conditions":\(\[[^]]*\]\).*/\1/p' "$T/v.html")" \
	'["A","B","B-plain","A-markdown","A-whole","B-neutral-prompt"]' \
	"the page's data list the variant conditions"
run "$B" -o /dev/null --html "$T/p.html" "$T/p.in"
unlike "$(cat "$T/p.html")" '"conditions"|"variants"' "a study without variants: no variant data in the page"
. "$TOP/tests/lib/chromium.sh"
if why=$(no_browser); then
	skip "the browser's grid: $why"
else
	start_chromium --headless=new
	mkdir -p "$T/dl"
	obs=$(timeout 300 node --experimental-websocket "$HERE/variants-e2e.js" "$port" "$T/v.html" "$T/dl" 2>"$T/e2e.err")
	is "$?" 0 "variants-e2e.js driven to the end"
	is "$(printf '%s\n' "$obs" | jq -r '.grid[0] | join("|")')" \
		"model|Condition A|Condition B|A-markdown|A-whole|B-neutral-prompt|B-plain|Δ (B − A)" \
		"the grid: a column per variant beside A and B, by name"
	is "$(printf '%s\n' "$obs" | jq -r '.grid[] | select(.[0] == "all models") | join("|")')" \
		"all models|1 (n = 30)|2.5 (n = 30)|1.5 (n = 30)|1 (n = 30)|2.5 (n = 4)|1.833 (n = 30)|1.5 (n = 30)" \
		"... with each condition's mean accuracy and count"
	is "$(printf '%s\n' "$obs" | jq -r '[.count, .rows, (.exceptions | length)] | join(" ")')" \
		"30 of 30 pairs 30 0" "the table still pairs A with B, and no script error"
	CSV=$T/dl/ctxbench-pairs.csv
	is "$(head -n 1 "$CSV" | tr -d '\r' | tr ',' '\n' | grep -c '^B-plain_\|^A-markdown_\|^A-whole_\|^B-neutral-prompt_')" 20 \
		"the CSV export: five columns per variant"
	is "$(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1], newline=""))); print(sum(x["B-plain_factual_accuracy"] != "" for x in r), sum(x["B-neutral-prompt_excluded"] == "missing" for x in r), r[1]["B-plain_factual_accuracy"])' "$CSV")" \
		"30 26 2" "... a variant's scores on its tuples, missing where it has no rating"
	stop_chromium
fi

# --- a variant whose ratings meet no B rating: run, with no pair to read
{ cat "$T/p.in"
  rec S9 Q1 m B-plain 2 0 1 null 80 | sed 's/}$/,"variant_of":"B"}/'
  rec S9 Q2 m B-plain 2 0 1 null 80 | sed 's/"exclusion_reason":null/"exclusion_reason":"TIMEOUT"/; s/}$/,"variant_of":"B"}/'
} >"$T/nopair.in"
run "$B" -b 1000 -o "$T/np.ndjson" -r "$T/np.md" "$T/nopair.in"
expect_status 0 "a variant without a pair is no error"
is "$(jq -c 'select(.test=="comparison") | [.x_ratings, .y_ratings, .pairs, .run]' "$T/np.ndjson")" \
	'[2,30,0,true]' "... its comparison runs over no pair"
says "$T/np.md" '- **Factual accuracy**: 0 pairs, too few to read' "... and the report reads nothing into it"
head -n "$n" "$T/np.ndjson" >"$T/np-primary.ndjson"
files_eq "$T/np-primary.ndjson" "$T/p.ndjson" "... nor does the primary analysis change"

# --- errors: each names file, line or config field, exit 1
errcase() {	# NAME PATTERN DESCRIPTION [OPTIONS...]: $T/NAME.in
	_name=$1 _pat=$2 _desc=$3
	shift 3
	run "$B" -o /dev/null "$@" "$T/$_name.in"
	expect_status 1 "$_desc: status 1"
	like "$err" "$_pat" "$_desc: the message"
}
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m B 2 0 1 null 90
  rec S1 Q1 m B-plain 2 0 1 null 80; } >"$T/noof.in"
errcase noof 'noof\.in:3: condition: "B-plain" is neither A nor B, and a variant.s record needs variant_of' \
	"a variant without variant_of"
{ rec S1 Q1 m A 2 0 1 null 100 | sed 's/}$/,"variant_of":"B"}/'; } >"$T/abof.in"
errcase abof 'abof\.in:1: variant_of: condition A is primary' "variant_of on a primary record"
{ rec S1 Q1 m 'B plain' 2 0 1 null 100 | sed 's/}$/,"variant_of":"B"}/'; } >"$T/badname.in"
errcase badname 'badname\.in:1: condition: expected "A", "B" or a variant.s name' "a variant name with a space"
{ rec S1 Q1 m B-plain 2 0 1 null 100 | sed 's/}$/,"variant_of":"B"}/'
  rec S1 Q2 m B-plain 2 0 1 null 100 | sed 's/}$/,"variant_of":"A"}/'; } >"$T/twoof.in"
errcase twoof 'twoof\.in:2: variant_of: "A", but B-plain varies "B" \(an earlier record\)' \
	"two variant_of values for one variant"
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m B 2 0 1 null 90
  rec S1 Q1 m A-bold 2 0 1 null 100 | sed 's/}$/,"variant_of":"A"}/'; } >"$T/undeclared.in"
errcase undeclared 'undeclared\.in:3: condition: "A-bold" is not a variant the config' \
	"with --config, an undeclared condition" --config "$T/cfg.json"
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m B 2 0 1 null 90
  rec S1 Q1 m A-whole 2 0 1 null 100 | sed 's/}$/,"variant_of":"B"}/'; } >"$T/wrongof.in"
errcase wrongof 'wrongof\.in:3: variant_of: "B", but A-whole varies "A" \(the config\)' \
	"with --config, a variant_of the config contradicts" --config "$T/cfg.json"
{ rec S1 Q1 m A 2 0 1 null 100; rec S1 Q1 m B 2 0 1 null 90
  rec S1 Q1 m B-plain 2 0 1 null 80 | sed 's/}$/,"variant_of":"B"}/'
  rec S1 Q1 m B-plain 1 0 1 null 80 | sed 's/}$/,"variant_of":"B"}/'; } >"$T/dupv.in"
errcase dupv 'dupv\.in:4: a second primary rating of \(S1, Q1, m, B-plain\) \(first at line 3\)' \
	"a second primary rating of a variant's tuple"
cp "$T/p.in" "$T/cfgerr.in"
printf '{"variants": ["B-plain"], "comparisons": ["B-plain"]}\n' >"$T/nocolon.json"
errcase cfgerr 'nocolon\.json: comparisons\[0\]' "a comparison without X:Y" --config "$T/nocolon.json"
printf '{"variants": ["B-plain"], "comparisons": ["B-plain:A-whole"]}\n' >"$T/undecl.json"
errcase cfgerr 'undecl\.json: comparisons\[0\]' "a comparison naming an undeclared condition" \
	--config "$T/undecl.json"
printf '{"variants": ["B-bold"]}\n' >"$T/unknown.json"
errcase cfgerr 'unknown\.json: variants\[0\]' "an unknown built-in variant" --config "$T/unknown.json"
run "$B" --config "$T/nofile.json" -o /dev/null "$T/p.in"
expect_status 1 "a config that is not there"
like "$err" 'nofile\.json' "... named"
run "$B" --power "$T" --config "$T/cfg.json"
expect_status 2 "--config with --power is a usage error"
done_testing
