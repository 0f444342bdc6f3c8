#!/bin/sh
# The condition variants end to end on the example site (VARIANTS=1 of
# examples/pipeline.sh, the variants of examples/variants.json): the
# variants' texts, their condition and variant_of through btok, binfer,
# blinding (the sheets show neither) and the merge into raw-data.csv; the
# two-condition run unchanged by them, byte for byte; and every error of a
# variants declaration.
. "${0%/*}/../lib/tap.sh"
BIN=$CTXBENCH_BUILD/bin
P=$T/plain
V=$T/var

rc=0
OUT=$P sh "$TOP/examples/pipeline.sh" >"$T/plain.log" 2>&1 || rc=$?
is "$rc" 0 "the demo without variants runs" || tail -n 20 "$T/plain.log" | sed 's/^/# /'
# the same port, so that both runs name the same URLs
rc=0
OUT=$V VARIANTS=1 SITE_PORT=$(cat "$P/port") sh "$TOP/examples/pipeline.sh" \
    >"$T/var.log" 2>&1 || rc=$?
is "$rc" 0 "the demo with VARIANTS=1 runs end to end" ||
    tail -n 20 "$T/var.log" | sed 's/^/# /'
ok test -s "$V/scored.ndjson"
C=$V/contexts.ndjson

# ---- the conditions and their variant_of
is "$(jq -r .condition "$C" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" \
    "A=19 A-markdown=19 A-whole=19 B=19 B-neutral-prompt=19 B-plain=19 " \
    "contexts: A, B and the four variants of every question"
is "$(jq -r 'select(.variant_of) | "\(.condition):\(.variant_of)"' "$C" | sort -u | tr '\n' ' ')" \
    "A-markdown:A A-whole:A B-neutral-prompt:B B-plain:B " "each variant's variant_of"
is "$(jq -r 'select(.condition == "A" or .condition == "B") | has("variant_of")' "$C" | sort -u)" \
    false "A and B records have no variant_of field"
is "$(jq -r 'select(.question_id == "S001-Q01") | .condition' "$C" | tr '\n' ' ')" \
    "A B B-plain A-markdown A-whole B-neutral-prompt " \
    "a question's records: A, B, then the variants in declaration order"

# ---- B-plain: exactly B's documents, without the tags
field() {	# QUESTION CONDITION FIELD
	jq -r --arg q "$1" --arg c "$2" \
	    'select(.question_id == $q and .condition == $c) | .'"$3" "$C"
}
docs_of_b() {	# the bodies of a B context's <doc> elements, a blank line between
	awk '/^<doc[ >]/ { if (n++) print ""; inside = 1; next }
	    /^<\/doc>$/ { inside = 0; next }
	    inside { print }'
}
bad=""
nb=0
for q in $(jq -r 'select(.condition == "B" and (.excluded | not)) | .question_id' "$C"); do
	nb=$((nb + 1))
	field "$q" B content | docs_of_b >"$T/want"
	field "$q" B-plain content >"$T/got"
	cmp -s "$T/got" "$T/want" || bad="$bad $q"
done
is "$bad" "" "B-plain is B's documents without the tags, for all $nb questions B answers"
unlike "$(jq -r 'select(.condition == "B-plain") | .content' "$C")" '^<(project|doc) |^</(project|doc)>$' \
    "no B-plain context holds a project or doc tag line"
like "$(field S001-Q01 B content)" '<doc title=' "(B itself has them)"
is "$(jq -r 'select(.condition == "B-plain" or .condition == "B") | [.question_id, .excluded, .exclusion_reason] | @tsv' "$C" |
    sort | uniq -c | awk '$1 != 2' | wc -l | tr -d ' ')" 0 "B-plain is excluded exactly where B is, for B's reason"
is "$(field S001-Q01 B-plain parity_b_in_a)" "$(field S001-Q01 B parity_b_in_a)" "B-plain's parity is B's"

# ---- A-whole: the whole visible page; A-markdown: the structure
aw=$(field S001-Q01 A-whole content)
a=$(field S001-Q01 A content)
like "$aw" 'Skip to content' "A-whole keeps the skip link"
like "$aw" 'Copyright 2026 The ctxbench authors' "A-whole keeps the footer"
like "$aw" 'Counting tokens with btok' "A-whole keeps the sidebar navigation"
like "$aw" 'On this page' "A-whole keeps the table of contents aside"
unlike "$a" 'Skip to content|Copyright 2026|Counting tokens with btok|On this page' "condition A drops the skip link, footer, sidebar and aside"
like "$aw" 'Pages are stored under a name derived' "A-whole holds the article too"
unlike "$aw" 'dataLayer|gtag' "A-whole has no script text"
am=$(field S001-Q01 A-markdown content)
like "$am" '^## Archive layout$' "A-markdown keeps the headings (## )"
like "$am" '^```' "A-markdown keeps the code fences"
unlike "$a" '^## |^```' "condition A has neither"
is "$(jq -r 'select(.condition == "A-whole") | .pages[].archive_path' "$C" | sort -u)" \
    "$(jq -r 'select(.condition == "A") | .pages[].archive_path' "$C" | sort -u)" \
    "the variants of A come from A's archived pages"
is "$(field S001-Q08 A-whole exclusion_reason)" "$(field S001-Q08 A exclusion_reason)" \
    "the JavaScript-only page: excluded in A-whole as in A ($(field S001-Q08 A exclusion_reason))"
# hidden elements never count as visible text
printf '<html><body><p>seen</p><div hidden>unseen</div><p style="display: none">gone</p><nav aria-hidden="true">aria</nav><template>tpl</template><style>p{}</style></body></html>' >"$T/hidden.html"
run "$BIN/bread" --whole "$T/hidden.html"
is "$out" seen "--whole: hidden, display:none, aria-hidden, template and style elements dropped"

# ---- the prompt variant
is "$(field S001-Q01 B-neutral-prompt content)" "$(field S001-Q01 B content)" \
    "the prompt variant's content is its of's"
like "$(field S001-Q01 B-neutral-prompt user_prompt)" '^Documentation:' "with its own user prompt"
isnt "$(field S001-Q01 B-neutral-prompt system_prompt)" "$(field S001-Q01 B system_prompt)" \
    "and its own system prompt"

# ---- btok and binfer carry condition and variant_of
tuples() { jq -c '[.question_id, .condition, .variant_of]' "$1"; }
tuples "$C" >"$T/t-ctx"
tuples "$V/counted.ndjson" >"$T/t-counted"
tuples "$V/responses.ndjson" >"$T/t-resp"
files_eq "$T/t-counted" "$T/t-ctx" "btok passes condition and variant_of through"
files_eq "$T/t-resp" "$T/t-ctx" "binfer passes condition and variant_of through"

# ---- blinding hides them; the key and the merge keep them
unlike "$(cat "$V"/sheets/*.csv)" 'B-plain|A-markdown|A-whole|B-neutral-prompt|variant' \
    "the sheets name no variant"
unlike "$(head -n 1 "$V/sheets/sheet.csv")" 'condition|variant' "no condition or variant column"
unlike "$(ls -R "$V/sheets")" 'plain|markdown|whole|prompt|variant' "no file name tells a variant"
is "$(jq '[.responses[], .excluded[] | select(.variant_of)] | length' "$V/key.json")" 76 \
    "the key keeps variant_of for the 76 variant tuples"
is "$(jq -r 'select(.primary) | "\(.condition):\(.variant_of // "-")"' "$V/scored.ndjson" | sort | uniq -c |
    awk '{print $2 "=" $1}' | tr '\n' ' ')" \
    "A-markdown:A=19 A-whole:A=19 A:-=19 B-neutral-prompt:B=19 B-plain:B=19 B:-=19 " \
    "the merge restores condition and variant_of on every tuple"
h=$(head -n 1 "$V/raw-data.csv")
like "$h" '(^|,)condition,variant_of,' "raw-data.csv: a variant_of column after condition"
is "$(awk -F, 'NR > 1 { print $6 ":" $7 }' "$V/raw-data.csv" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" \
    "A-markdown:A=19 A-whole:A=19 A:=19 B-neutral-prompt:B=19 B-plain:B=19 B:=19 " \
    "raw-data.csv: each row's condition and variant_of (empty for A and B)"
# a response whose variant_of was changed after blinding does not merge
jq -c 'if .condition == "B-plain" then .variant_of = "A" else . end' "$V/responses.ndjson" >"$T/forged.ndjson"
run "$BIN/bscore-merge" merge -k "$V/key.json" -r "$T/forged.ndjson" -o "$T/forged-scored.ndjson" \
    "$V/autoscore.ndjson"
expect_status 1 "merge: a variant_of that differs from the key's is an error"
like "$err" 'B-plain: variant_of differs from the key' "  naming the response"
ok test ! -e "$T/forged-scored.ndjson"

# ---- without variants: the two-condition study, byte for byte
is "$(jq -r .condition "$P/contexts.ndjson" | sort -u | tr '\n' ' ')" "A B " \
    "without variants: conditions A and B only"
grep -v '"variant_of":"' "$C" >"$T/ab-of-var"
files_eq "$P/contexts.ndjson" "$T/ab-of-var" \
    "without variants the contexts are the variants run's A and B records, byte for byte"
grep -v '"variant_of":"' "$V/counted.ndjson" >"$T/ab-counted"
files_eq "$P/counted.ndjson" "$T/ab-counted" "  and so are the counted contexts"
rubric_cols=$(jq -r '[.raw_data[].column] | join(",")' "$TOP/share/rubrics/$(jq -r .rubric "$P/key.json").json")
is "$(head -n 1 "$P/raw-data.csv" | tr -d '\r')" "$rubric_cols" \
    "without variants raw-data.csv has exactly the rubric's columns"
is "$(cat "$P"/scored.ndjson "$P"/key.json | grep -c variant_of)" 0 "no variant_of anywhere in the run"
ok test ! -e "$P/pages-A-whole.ndjson"
# A-whole's pages given to a two-condition assemble stand in for nothing
(cd "$V" && "$BIN/bctx" assemble -q study/questions.json -s study/site-list.csv \
    -g study/gold-answers.json -c study/benchmark-config.json -l links.ndjson \
    pages-a.ndjson pages-b.ndjson pages-A-whole.ndjson pages-A-markdown.ndjson) \
    >"$T/ab.ndjson" 2>/dev/null
files_eq "$T/ab.ndjson" "$P/contexts.ndjson" \
    "variant page records among the input leave A and B untouched"

# ---- errors of the declaration, each naming the file and the field
S=$V/study
cfg_with() {	# NAME JQ-EXPRESSION: the study's config changed by the expression
	jq "$2" "$S/benchmark-config.json" >"$T/$1.json"
}
assemble() {	# CONFIG [PAGES...]
	c=$1
	shift
	run "$BIN/bctx" assemble -q "$S/questions.json" -c "$c" -l "$V/links.ndjson" \
	    -o "$T/bad-out.ndjson" "$V/pages-a.ndjson" "$V/pages-b.ndjson" "$@"
}
bad_config() {	# NAME JQ-EXPRESSION MESSAGE-ERE DESCRIPTION
	cfg_with "$1" "$2"
	assemble "$T/$1.json" "$V/pages-A-whole.ndjson" "$V/pages-A-markdown.ndjson"
	expect_status 1 "$4: exit 1"
	like "$err" "^bctx: $T/$1.json: $3" "$4: the message names the file and the field"
}
bad_config unknown '.variants = ["B-fancy"]' \
    "variants\\[0\\]: unknown built-in variant 'B-fancy'" "an unknown built-in"
bad_config badname '.variants = [{"name": "my variant", "of": "B", "prompt_template": {"system_prompt": "s", "user_prompt": "{assembled_content} {question_text}"}}]' \
    "variants\\[0\\]\\.name: 'my variant' is not a valid name" "a bad name"
bad_config primary '.variants = [{"name": "A", "of": "B", "prompt_template": {"system_prompt": "s", "user_prompt": "{assembled_content} {question_text}"}}]' \
    "variants\\[0\\]\\.name: 'A' is a primary condition" "a variant named A"
bad_config dup '.variants = ["A-whole", "B-plain", "A-whole"]' \
    "variants\\[2\\]: 'A-whole' is declared twice" "a variant declared twice"
bad_config of '.variants = ["B-plain", "A-whole", "A-markdown", {"name": "p", "of": "C", "prompt_template": {"system_prompt": "s", "user_prompt": "{assembled_content} {question_text}"}}]' \
    "variants\\[3\\]\\.of: 'C' is not declared" "an of that is not declared"
bad_config slot '.variants = [{"name": "p", "of": "B", "prompt_template": {"system_prompt": "s", "user_prompt": "{question_text}"}}]' \
    "variants\\[0\\]\\.prompt_template\\.user_prompt: lacks the placeholder \\{assembled_content\\}" \
    "a template without the content"
bad_config notarray '.variants = "B-plain"' "variants: expected an array, got a string" \
    "variants not an array"
bad_config comp '.variants = ["B-plain"] | .comparisons = ["B-plain:A-whole"]' \
    "comparisons\\[0\\]: 'A-whole' is not a declared condition" "a comparison naming an undeclared condition"
bad_config form '.variants = ["B-plain"] | .comparisons = ["B-plain"]' \
    "comparisons\\[0\\]: 'B-plain' is not of the form X:Y" "a comparison that is not X:Y"
bad_config primcomp '.variants = ["B-plain"] | .comparisons = ["A:B"]' \
    "comparisons\\[0\\]: 'A:B' is the primary analysis" "the primary analysis as a comparison"
ok test ! -e "$T/bad-out.ndjson"

# a declared variant of A without its bread run
assemble "$S/benchmark-config-variants.json" "$V/pages-A-markdown.ndjson"
expect_status 1 "A-whole declared, its pages not given: exit 1"
like "$err" "variants: A-whole is declared but no page record carries \"variant\": \"A-whole\": run bread --variant A-whole" \
    "  the message names the bread run that is missing"
assemble "$S/benchmark-config-variants.json" "$V/pages-A-markdown.ndjson" "$V/pages-A-whole.ndjson"
expect_status 0 "(with both variants' pages it assembles)"
# --condition B: B and its variants, no A pages needed for them
run "$BIN/bctx" assemble -q "$S/questions.json" -c "$S/benchmark-config-variants.json" \
    -l "$V/links.ndjson" --condition B "$V/pages-b.ndjson"
expect_status 0 "--condition B needs no bread --variant run"
is "$(printf '%s\n' "$out" | jq -r .condition | sort -u | tr '\n' ' ')" "B B-neutral-prompt B-plain " \
    "--condition B: B and the variants of B"
# a variant's page record must be of condition A
jq -c '.condition = "B"' "$V/pages-A-whole.ndjson" | head -n 1 >"$T/bvariant.ndjson"
assemble "$S/benchmark-config-variants.json" "$V/pages-A-markdown.ndjson" "$T/bvariant.ndjson"
expect_status 1 "a variant page record of condition B: exit 1"
like "$err" "bvariant.ndjson:1: variant: a variant's page is a condition A record" "  named by file and line"

# bread --variant's usage errors
run "$BIN/bread" --variant B-plain -a "$V/archive" "$V/manifest-a.ndjson"
expect_status 2 "bread --variant B-plain: a usage error"
like "$err" "expected A-markdown or A-whole, got 'B-plain'" "  saying which variants bread extracts"
run "$BIN/bread" --variant A-whole -m -a "$V/archive" "$V/manifest-a.ndjson"
expect_status 2 "bread --variant with -m: a usage error"
# bread without --variant gives condition A again
run "$BIN/bread" -a "$V/archive" -o "$T/again.ndjson" "$V/pages-A-whole.ndjson"
is "$(jq -r 'select(.condition == "A") | has("variant")' "$T/again.ndjson" | sort -u)" false \
    "bread without --variant removes a stale variant field"

# ---- the schema of the configuration says what common/variants.c checks
SC=$TOP/examples/benchmark-config-schema.json
is "$(jq -c '.properties.variants.items.oneOf[0].enum' "$SC")" '["B-plain","A-markdown","A-whole"]' \
    "schema: the three built-in variants"
is "$(jq -r --slurpfile s "$SC" '.variants[] | if type == "string" then
    (. as $v | $s[0].properties.variants.items.oneOf[0].enum | index($v) != null)
    else (.name | test($s[0].properties.variants.items.oneOf[1].properties.name.pattern)) end' \
    "$TOP/examples/variants.json" | sort -u)" true "schema: examples/variants.json's declarations fit it"
is "$(jq -r '.comparisons[]' "$TOP/examples/variants.json" |
    grep -Ec "$(jq -r .properties.comparisons.items.pattern "$SC")")" 4 "schema: its comparisons fit the X:Y pattern"

# ---- the study Makefile: make variants
python3 "$TOP/examples/serve.py" --port-file "$T/site.port" >/dev/null 2>&1 &
site=$!
stop_site() { kill "$site" 2>/dev/null; wait "$site" 2>/dev/null; return 0; }
at_exit stop_site
i=0
while [ ! -s "$T/site.port" ] && [ $i -le 200 ]; do i=$((i + 1)); sleep 0.05; done
K=$T/corpus
mkdir -p "$K"
for f in site-list.csv questions.json gold-answers.json benchmark-config.json; do
	sed "s|https://docs.ctxbench.example|http://127.0.0.1:$(cat "$T/site.port")|g" "$TOP/examples/$f" >"$K/$f"
done
study() {
	make -s -C "$TOP/examples/study" CORPUS="$K" BIN="$BIN/" JOBS=2 MODELS=extractive-baseline "$@"
}
rc=0
study OUT="$T/s0" variants >"$T/s0.log" 2>&1 || rc=$?
is "$rc" 2 "make variants without declared variants stops"
like "$(cat "$T/s0.log")" "declares no variants" "  saying so"
jq -s '.[0] * (.[1] | del(._comment))' "$K/benchmark-config.json" "$TOP/examples/variants.json" >"$K/v.json"
mv "$K/v.json" "$K/benchmark-config.json"
rc=0
study OUT="$T/s1" variants >"$T/s1.log" 2>&1 || rc=$?
is "$rc" 0 "make variants with the example's variants" || tail -n 10 "$T/s1.log" | sed 's/^/# /'
is "$(jq -r .condition "$T/s1/counted.ndjson" | sort -u | tr '\n' ' ')" \
    "A A-markdown A-whole B B-neutral-prompt B-plain " "  counted contexts of A, B and every variant"
ok test -s "$T/s1/pages-A-whole.ndjson"
# ---- the report: the ablation and drift sections with VARIANTS=1 only, and
# the primary analysis the same with or without the variants
R=$V/report.md
like "$(cat "$R")" '## Exploratory: what explains the A→B difference' \
    "VARIANTS=1: the report has the ablation section"
for c in B-plain:B A:A-markdown A-whole:A B-neutral-prompt:B; do
	like "$(cat "$R")" "### $c: " "the ablation section has the comparison $c"
done
like "$(cat "$R")" '## Content drift between snapshots' "VARIANTS=1: the report has the drift section"
unlike "$(cat "$P/report.md")" 'Exploratory: what explains|Content drift between' \
    "without VARIANTS the report has neither section"
primary() { jq -c 'select(.group != "exploratory" and .test != "comparison")' "$1"; }
is "$(primary "$V/results.ndjson" | md5sum)" "$(primary "$P/results.ndjson" | md5sum)" \
    "the primary results are the same with the variants present"
is "$(jq -c 'select(.group == "exploratory")' "$P/results.ndjson" | wc -l)" 0 \
    "without VARIANTS no exploratory result"
sec() { awk '/^## Exploratory|^## Content drift/{skip=1} /^## /&&!/^## Exploratory|^## Content drift/{skip=0} !skip' "$1"; }
is "$(sec "$V/report.md" | md5sum)" "$(sec "$P/report.md" | md5sum)" \
    "the report's other sections are the same with the variants present"

done_testing
