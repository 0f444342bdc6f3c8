#!/bin/sh
# bscore-merge blind: the key, the sheets, and the blinding properties of
# spec 000 §7.1 (random ids, random interleaved order, no leak of condition
# or model), §7.2 (per-metric passes), §8 (second-rater and self-check
# subsets), §10 (hint columns).
. "${0%/*}/../lib/tap.sh"
B=$(prog bscore-merge)
F=$TOP/tests/bscore-merge/fixtures
PY=/usr/bin/python3
ids_of() { $PY -c 'import csv,sys; print(" ".join(r["response_id"] for r in csv.DictReader(open(sys.argv[1], encoding="utf-8-sig"))))' "$1"; }

run "$B" blind -k "$T/key.json" -d "$T/s" --seed 7 --second-rater 0.15 --self-check 0.05 "$F/responses.ndjson"
expect_status 0 "blind runs"
is "$(stat -c %a "$T/key.json")" 600 "the key is written owner-only (0600)"
is "$(jq '.responses | length' "$T/key.json")" 16 "the key maps every blinded response"
is "$(jq '.excluded | length' "$T/key.json")" 2 "excluded tuples are kept in the key, not in the sheets"
is "$(jq -r '.excluded[0].exclusion_reason' "$T/key.json")" JS_ONLY "with their exclusion reason"
is "$(jq '.seed' "$T/key.json")" 7 "the seed is recorded in the key"
is "$(jq '.second_rater | length' "$T/key.json")" 2 "--second-rater 0.15 of 16 draws 2"
is "$(jq '.self_check | length' "$T/key.json")" 1 "--self-check 0.05 of 16 draws 1"
is "$(jq -r '.rubric' "$T/key.json")" context-collapse "the rubric is recorded in the key"

hdr=$(head -n 1 "$T/s/sheet.csv")
is "$hdr" "row,response_id,rater_id,scoring_date,question,gold_answer,response,source_urls,source_sections,citation_hint,completeness_hint,factual_accuracy,refusal,hallucination_count,completeness,citation_fidelity,scoring_notes" \
	"the sheet holds only what the rater needs"
is "$(head -n 1 "$T/s/records-hallucinations.csv")" "response_id,rater_id,category,model_text_span,claim,note" \
	"a companion sheet takes one hallucination record per row"

# No condition, model, tier, token count or content size anywhere in any sheet.
leak=$(cat "$T"/s/*.csv "$T"/s/*/*.csv | grep -Eic 'llama|qwen|q4_K_M|condition|model_id|tier|input_token|ref_token|content_chars|small' || :)
is "$leak" 0 "no model or condition information in any sheet"
# The response ids encode nothing: no question, site, model or condition in them.
ids=$(jq -r '.responses[].response_id' "$T/key.json")
unlike "$ids" 'S0|Q0|-A|-B|llama|qwen' "response ids carry no question, site, model or condition"
is "$(printf '%s\n' "$ids" | sort -u | wc -l)" 16 "response ids are unique"
like "$(printf '%s\n' "$ids" | head -n 1)" '^R[0-9A-F]{8}$' "response ids are random hex"

# Presentation order: never two responses to one question adjacent; conditions interleaved.
order_check() {	# key sheet -> prints "adjacent maxrun"
	$PY - "$1" "$2" <<'PYEOF'
import csv, json, sys
key = json.load(open(sys.argv[1]))
by = {e["response_id"]: e for e in key["responses"]}
rows = list(csv.DictReader(open(sys.argv[2], encoding="utf-8-sig")))
seq = [by[r["response_id"]] for r in rows]
adj = sum(1 for a, b in zip(seq, seq[1:]) if a["question_id"] == b["question_id"])
run = best = 1
for a, b in zip(seq, seq[1:]):
    run = run + 1 if a["condition"] == b["condition"] else 1
    best = max(best, run)
print(adj, best)
PYEOF
}
bad=0
for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
	"$B" blind -k "$T/k$seed.json" -d "$T/o$seed" --seed $seed "$F/responses.ndjson" 2>/dev/null || bad=1
	set -- $(order_check "$T/k$seed.json" "$T/o$seed/sheet.csv")
	[ "$1" -eq 0 ] || { diag "seed $seed: $1 adjacent pairs"; bad=1; }
	[ "$2" -le 2 ] || { diag "seed $seed: condition run of $2"; bad=1; }
done
is "$bad" 0 "over 12 seeds: no two responses to one question adjacent, no condition run above 2"
isnt "$(ids_of "$T/o1/sheet.csv")" "$(ids_of "$T/o2/sheet.csv")" "different seeds give different orders"
"$B" blind -k "$T/k1b.json" -d "$T/o1b" --seed 1 "$F/responses.ndjson" 2>/dev/null
files_eq "$T/o1b/sheet.csv" "$T/o1/sheet.csv" "the same seed reproduces the sheets byte for byte"

# Relabelled conditions and models give byte-identical sheets: the order and
# every column are independent of them.
jq -c '.condition |= (if . == "A" then "B" else "A" end) | .model_id |= ("m-" + (. | length | tostring) + "x") | .model_family = "other"' \
	"$F/responses.ndjson" >"$T/relabelled.ndjson"
"$B" blind -k "$T/kr.json" -d "$T/or" --seed 1 "$T/relabelled.ndjson" 2>/dev/null
files_eq "$T/or/sheet.csv" "$T/o1/sheet.csv" "swapping conditions and renaming models changes nothing in the sheets"
is "$(jq -r '.responses[0].condition' "$T/kr.json")" "$(jq -r '.responses[0].condition' "$T/k1.json" | tr AB BA)" \
	"while the key holds the true labels"

# Subset sheets hold exactly the subsets recorded in the key.
is "$(ids_of "$T/s/second-rater/sheet.csv" | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(jq -r '.second_rater[]' "$T/key.json" | sort | tr '\n' ' ')" "the second-rater sheet holds the key's subset"
is "$(ids_of "$T/s/self-check/sheet.csv")" \
	"$(jq -r '.self_check[]' "$T/key.json" | tr '\n' ' ' | sed 's/ $//')" "the self-check sheet holds the key's subset"
like "$(head -n 2 "$T/s/self-check/sheet.csv" | tail -n 1)" '^1,R[0-9A-F]+,,,yes,' "self-check rows are marked"

# Per-metric passes in the order of 000 §7.2.
run "$B" blind -k "$T/kp.json" -d "$T/p" --seed 3 --passes "$F/responses.ndjson"
expect_status 0 "blind --passes"
is "$(cd "$T/p" && ls sheet-*.csv | tr '\n' ' ')" \
	"sheet-1-factual_accuracy.csv sheet-2-hallucinations.csv sheet-3-completeness.csv sheet-4-citation_fidelity.csv " \
	"one sheet per pass: accuracy, hallucinations, completeness, citation fidelity"
like "$(head -n 1 "$T/p/sheet-1-factual_accuracy.csv")" 'completeness_hint$|,factual_accuracy,refusal,scoring_notes$' "pass 1 asks accuracy only"
unlike "$(head -n 1 "$T/p/sheet-1-factual_accuracy.csv")" 'hallucination_count|citation|completeness' "pass 1 shows no other metric"
like "$(head -n 1 "$T/p/sheet-3-completeness.csv")" 'completeness_hint,completeness,scoring_notes$' "pass 3 has the completeness hint"
like "$(head -n 1 "$T/p/sheet-4-citation_fidelity.csv")" 'citation_hint,citation_fidelity,scoring_notes$' "pass 4 has the citation hint"
is "$(ids_of "$T/p/sheet-1-factual_accuracy.csv")" "$(ids_of "$T/p/sheet-4-citation_fidelity.csv")" \
	"every pass presents the same randomised order"

# Hints (000 §10): citation patterns and question parts.
grep -F 'As noted in the Quick Start' "$T/s/sheet.csv" | grep -q 'names section ""Quick Start""'
ok_rc=$?
is "$ok_rc" 0 "a response naming a source section is flagged in the citation hint"
grep -F 'I don'"'"'t have enough information' "$T/s/sheet.csv" | grep -q '(check)'
is "$?" 0 "a refusal gets a completeness hint to check"
grep -F 'Use an API key' "$T/s/sheet.csv" | grep -q '," - Use an API key'
is "$?" 0 "cells starting with '-' are kept as text (no spreadsheet formula)"

# Spreadsheet encodings.
"$B" blind -k "$T/kb.json" -d "$T/b" --seed 3 --bom --crlf "$F/responses.ndjson" 2>/dev/null
is "$(head -c 3 "$T/b/sheet.csv" | od -An -tx1 | tr -d ' ')" efbbbf "--bom starts the sheet with a UTF-8 BOM"
is "$(head -n 1 "$T/b/sheet.csv" | tail -c 2 | od -An -tx1 | tr -d ' ')" 0d0a "--crlf ends records with CRLF"
"$B" blind -k "$T/ks.json" -d "$T/src" --seed 3 --passes --sources "$F/responses.ndjson" 2>/dev/null
is "$(ls "$T/src/sources" | wc -l)" 16 "--sources writes one source file per response"
like "$(head -n 1 "$T/src/sheet-2-hallucinations.csv")" 'source_file' "the hallucination pass references the source file"
unlike "$(ls "$T/src/sources")" 'R[0-9A-F]{8}' "source files are not named after response ids"

# Bad input and usage.
run "$B" blind -k "$T/x.json" -d "$T/x" "$F/missing.ndjson"
expect_status 1 "a missing input file is an error"
head -n 2 "$F/responses.ndjson" >"$T/dup.ndjson"; head -n 1 "$F/responses.ndjson" >>"$T/dup.ndjson"
run "$B" blind -k "$T/x.json" -d "$T/x" "$T/dup.ndjson"
expect_status 1 "a duplicate response is an error"
like "$err" 'dup.ndjson:3: duplicate response for S009 S009-Q01' "naming the file and line"
[ ! -e "$T/x.json" ] && [ ! -e "$T/x/sheet.csv" ]
is "$?" 0 "and nothing is written"
head -n 1 "$F/responses.ndjson" | jq -c 'del(.gold_answer)' >"$T/nogold.ndjson"
run "$B" blind -k "$T/x.json" -d "$T/x" "$T/nogold.ndjson"
expect_status 1 "a response without its gold answer is an error"
like "$err" 'nogold.ndjson:1: gold_answer' "naming the field"
head -n 1 "$F/responses.ndjson" | jq -c 'del(.model_id)' >"$T/nomodel.ndjson"
run "$B" blind -k "$T/x.json" -d "$T/x" "$T/nomodel.ndjson"
expect_status 1 "a response without model_id is an error"
run "$B" blind -d "$T/x" "$F/responses.ndjson"
expect_status 2 "blind without --key is a usage error"
run "$B" blind -k "$T/x.json" -d "$T/x" --second-rater 1.5 "$F/responses.ndjson"
expect_status 2 "a fraction above 1 is a usage error"
run "$B" blind -k "$T/x.json" -d "$T/x" --primary a "$F/responses.ndjson"
expect_status 2 "an option of another command is a usage error"
run "$B" blind -k "$T/x.json" -d "$T/x" -R no-such-rubric "$F/responses.ndjson"
expect_status 1 "an unknown rubric is an error"
like "$err" 'no-such-rubric: no such rubric' "naming the rubric"

# The key is the one file of a study that cannot be made again: a second
# blind never replaces it, nor its sheets, without --force; a sheet a rater
# has filled is never replaced at all.
"$B" blind -k "$T/once.json" -d "$T/once" --seed 3 --second-rater 0.15 "$F/responses.ndjson" 2>/dev/null
sums() { (cd "$T" && find once.json once -type f | sort | xargs sha256sum); }
before=$(sums)
run "$B" blind -k "$T/once.json" -d "$T/once" --seed 4 "$F/responses.ndjson"
expect_status 1 "a second blind over an existing key is refused"
like "$err" 'once.json: an unblinding key is already there.*--force' "saying the key is there and how to replace it"
is "$(printf '%s\n' "$err" | wc -l)" 1 "in one line"
is "$(sums)" "$before" "the key and every sheet are byte for byte as they were"
run "$B" blind -k "$T/other-key.json" -d "$T/once" --seed 4 "$F/responses.ndjson"
expect_status 1 "a new key over existing sheets is refused too"
like "$err" 'once/sheet.csv: a scoring sheet is already there' "naming the sheet"
[ ! -e "$T/other-key.json" ]
is "$?" 0 "and no key is written"
is "$(sums)" "$before" "the sheets are untouched"
run "$B" blind -k "$T/once.json" -d "$T/once" --seed 4 --force "$F/responses.ndjson"
expect_status 0 "--force replaces a key and sheets nobody has filled"
is "$(jq .seed "$T/once.json")" 4 "with the new draw"
id=$(sed -n 2p "$T/once/sheet.csv" | cut -d, -f2)
cp "$T/once/sheet.csv" "$T/blank-sheet.csv"
/usr/bin/python3 - "$T/once/sheet.csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
h = rows[0]
rows[1][h.index("factual_accuracy")] = "2"
csv.writer(open(sys.argv[1], "w", encoding="utf-8", newline=""), lineterminator="\n").writerows(rows)
PYEOF
before=$(sums)
run "$B" blind -k "$T/once.json" -d "$T/once" --seed 5 --force "$F/responses.ndjson"
expect_status 1 "a sheet a rater has filled is never replaced, even with --force"
like "$err" 'once/sheet.csv:2: a rater has filled this sheet' "naming the sheet and the row"
is "$(sums)" "$before" "and nothing is replaced"
printf '%s,alice,fabricated_fact,x,y,\n' "$id" >>"$T/once/records-hallucinations.csv"
cp "$T/blank-sheet.csv" "$T/once/sheet.csv"
run "$B" blind -k "$T/once.json" -d "$T/once" --seed 5 --force "$F/responses.ndjson"
expect_status 1 "a filled records sheet is never replaced either"
like "$err" 'records-hallucinations.csv:2: a rater has filled' "naming it"

done_testing
