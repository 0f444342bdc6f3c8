#!/bin/sh
# bscore-merge merge: unblinding filled sheets into scored records,
# raw-data.csv (spec 000 §11) and hallucination-details.json; validation of
# every problem at once with sheet and row; nothing written on a problem;
# sheets as spreadsheets leave them.
. "${0%/*}/../lib/tap.sh"
B=$(prog bscore-merge)
F=$TOP/tests/bscore-merge/fixtures
FILL="/usr/bin/python3 $TOP/tests/bscore-merge/fill.py"
R=$F/responses.ndjson

"$B" blind -k "$T/key.json" -d "$T/s" --seed 11 --second-rater 0.15 --self-check 0.05 "$R" 2>/dev/null
id1=$(jq -r '.order[0]' "$T/key.json")
id2=$(jq -r '.order[1]' "$T/key.json")
sub2=$(jq -r '.second_rater[0]' "$T/key.json")

# alice: every response; row 1 mostly correct, row 2 with one hallucination.
$FILL "$T/s/sheet.csv" "$T/alice.csv" --rater alice --date 2026-03-02 \
	--score factual_accuracy=3 --score hallucination_count=0 --score completeness=1 \
	--score citation_fidelity=N/A \
	--set "1:factual_accuracy=2" --set "1:scoring_notes=Minor omission." \
	--set "2:factual_accuracy=2" --set "2:hallucination_count=1" --set "2:scoring_notes=Invents a batch limit."
printf 'response_id,rater_id,category,model_text_span,claim,note\n%s,alice,H-FAB,"up to 100 items, per request","Batch limit of 100","Not in the source"\n' "$id2" >"$T/alice-h.csv"
$FILL "$T/s/second-rater/sheet.csv" "$T/bob.csv" --rater bob --date 2026-03-04 \
	--score factual_accuracy=3 --score hallucination_count=0 --score completeness=1 --score citation_fidelity=
$FILL "$T/s/self-check/sheet.csv" "$T/alice-self.csv" --rater alice --date 2026-03-06 \
	--score factual_accuracy=3 --score hallucination_count=0 --score completeness=1 --score citation_fidelity=

out() { printf '%s\n' -o "$T/scored.ndjson" --raw-data "$T/raw-data.csv" --details "$T/hd.json"; }
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
expect_status 0 "merge of a clean set of sheets"
is "$(head -n 1 "$T/raw-data.csv")" \
	"response_id,site_id,question_id,complexity,model_id,condition,factual_accuracy,hallucination_count,hallucination_categories,input_token_count,ref_token_count,output_token_count,content_chars,completeness,citation_fidelity,scoring_notes,scorer_id,scoring_date" \
	"raw-data.csv has exactly the columns of spec 000 §11, in order"
is "$(tail -n +2 "$T/raw-data.csv" | wc -l)" 18 "one raw-data row per response, excluded tuples included"
is "$(grep -c ',alice,2026-03-02$' "$T/raw-data.csv")" 16 "the primary rater's scores go to raw-data.csv"
is "$(grep -c 'excluded: JS_ONLY' "$T/raw-data.csv")" 2 "excluded tuples appear with their exclusion reason"
row2=$(grep "^$id2," "$T/raw-data.csv")
like "$row2" ",2,1,H-FAB," "accuracy, count and hallucination categories of a row"
cond2=$(jq -r --arg id "$id2" '.responses[] | select(.response_id == $id) | .condition' "$T/key.json")
like "$row2" ",$cond2,2,1," "the condition is filled at unblinding"
is "$(wc -l <"$T/scored.ndjson")" 21 "scored records: 16 primary + 2 second rater + 1 self-check + 2 excluded"
is "$(jq -c 'select(.primary) | .rater_id' "$T/scored.ndjson" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	' 16 "alice"; 2 null;' "alice is the primary rater of every scored response"
is "$(jq -c --arg id "$sub2" 'select(.response_id == $id) | [.rater_id, .primary, .second_rater_subset]' "$T/scored.ndjson" | tr '\n' ' ')" \
	'["alice",true,true] ["bob",false,true] ' "the second rater's record is kept, not primary"
is "$(jq -c 'select(.self_check) | [.rater_id, .primary, .scoring_date]' "$T/scored.ndjson")" \
	'["alice",false,"2026-03-06"]' "the self-check re-score is kept apart"
is "$(jq -r 'select(.primary and .response_id != null) | [has("content"), has("response_text"), .rater_kind, .rubric] | @tsv' "$T/scored.ndjson" | sort -u)" \
	"$(printf 'false\ttrue\thuman\tcontext-collapse')" "bulky content is dropped, the response and rater kind kept"
is "$(jq -r --arg id "$id2" '.[$id].hallucinations[0].model_text_span' "$T/hd.json")" "up to 100 items, per request" \
	"hallucination-details.json is keyed by response_id with the full records"
is "$(jq 'length' "$T/hd.json")" 16 "one details entry per scored response"
for f in site_id question_id model_id condition complexity tier sector factual_accuracy hallucination_count completeness citation_fidelity input_token_count ref_token_count last_modified exclusion_reason rater_id primary; do
	jq -e --arg f "$f" 'has($f)' "$T/scored.ndjson" >/dev/null || { diag "missing $f"; fail "scored records carry what bstats reads"; break; }
done
[ "$f" = primary ] && pass "scored records carry every field bstats reads"
cp "$T/raw-data.csv" "$T/raw-clean.csv"

# binfer's request and cache provenance: in the scored records; the request's
# body (the prompt and content again) only with --keep-texts.
jq -c 'if .exclusion_reason then . else . + {request: {sent: true, url: "http://127.0.0.1:8080/v1/chat/completions",
	server: "llamacpp", server_version: "b1", warmup_requests: 3, body_sha256: "ab12", body_masked: false,
	body: "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"</script><b>x</b>\"}]}"},
	cache: {hit: true, key: .request_hash, first_obtained: "2026-03-01T10:00:00Z", request_rebuilt: false}} end' "$R" >"$T/resp-req.ndjson"
run "$B" merge -k "$T/key.json" -r "$T/resp-req.ndjson" -o "$T/sc-req.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 0 "responses with binfer's request: merged"
is "$(jq -c 'select(.primary and .response_id != null) | [(.request | has("body")), .request.body_sha256, .request.warmup_requests, .cache.hit, .cache.first_obtained]' "$T/sc-req.ndjson" | sort -u)" \
	'[false,"ab12",3,true,"2026-03-01T10:00:00Z"]' "without --keep-texts: the request without its body, the cache provenance"
run "$B" merge -k "$T/key.json" -r "$T/resp-req.ndjson" -o "$T/sc-req.ndjson" --keep-texts "$T/alice.csv" "$T/alice-h.csv"
expect_status 0 "responses with binfer's request: merged with --keep-texts"
is "$(jq -c 'select(.primary and .response_id != null) | [.request.body, .request.url, .cache.key == .request_hash]' "$T/sc-req.ndjson" | sort -u)" \
	"$(jq -c 'select(.exclusion_reason | not) | [.request.body, .request.url, true]' "$T/resp-req.ndjson" | sort -u)" \
	"--keep-texts: the request's body exactly as binfer recorded it"

# The same scores, as a spreadsheet leaves them: reordered, deleted and extra
# columns, CRLF, BOM, quotes, "2.0", empty rows, rater id in other case of header.
$FILL "$T/alice.csv" "$T/alice-ss.csv" --reorder --drop citation_hint --drop completeness_hint \
	--drop question --extra --bom --crlf --blank-rows --set "1:factual_accuracy=2.0" --set "3:completeness= 1 "
sed -i '1s/scoring_notes/Scoring Notes/; 1s/rater_id/Scorer ID/' "$T/alice-ss.csv"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice-ss.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
expect_status 0 "a spreadsheet-edited sheet is read"
files_eq "$T/raw-data.csv" "$T/raw-clean.csv" "and gives the same raw data"
# An id cell with white space around it, a line break included, is the id.
awk 'NR > 1 { sub(/,alice,/, ",\"\nalice \",") } 1' "$T/alice.csv" >"$T/alice-nl.csv"
rm -f "$T/raw-data.csv"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice-nl.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
expect_status 0 "ids are read without the white space and line breaks around them"
files_eq "$T/raw-data.csv" "$T/raw-clean.csv" "... and give the same raw data"

# NDJSON sheets (binfer --judge, autoscore) merge too; the human stays primary.
"$B" autoscore --date 2026-03-01 "$T/s/sheet.csv" >"$T/auto.ndjson"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/auto.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 0 "autoscore rows merge alongside a human rater"
is "$(jq -r 'select(.primary and .rater_id) | .rater_id' "$T/scored.ndjson" | sort -u)" alice "the human rater is primary by default"
is "$(jq -r 'select(.rater_kind == "autoscore") | .primary' "$T/scored.ndjson" | sort -u)" false "autoscore is recorded as a non-human rater"
run "$B" merge -k "$T/key.json" -r "$R" $(out) --primary autoscore "$T/auto.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 0 "--primary chooses the primary rater"
like "$err" 'primary rater is not human' "with a warning when it is not human"
is "$(grep -c ',autoscore,2026-03-01$' "$T/raw-data.csv")" 16 "raw-data.csv then holds the primary's scores"

# Per-pass sheets (000 §7.2) of one rater assemble into one record; notes
# written in several passes are joined.
"$B" blind -k "$T/kp.json" -d "$T/p" --seed 4 --passes "$R" 2>/dev/null
$FILL "$T/p/sheet-1-factual_accuracy.csv" "$T/p1.csv" --rater alice --date 2026-03-02 --score factual_accuracy=2 --score "scoring_notes=acc note"
$FILL "$T/p/sheet-2-hallucinations.csv" "$T/p2.csv" --rater alice --date 2026-03-03 --score hallucination_count=0
$FILL "$T/p/sheet-3-completeness.csv" "$T/p3.csv" --rater alice --date 2026-03-04 --score completeness=0 --score "scoring_notes=comp note"
$FILL "$T/p/sheet-4-citation_fidelity.csv" "$T/p4.csv" --rater alice --date 2026-03-05 --score citation_fidelity=
run "$B" merge -k "$T/kp.json" -r "$R" -o "$T/sp.ndjson" "$T/p3.csv" "$T/p1.csv" "$T/p4.csv" "$T/p2.csv" "$T/p/records-hallucinations.csv"
expect_status 0 "four pass sheets of one rater merge"
is "$(jq -r 'select(.rater_id) | [.factual_accuracy, .completeness, .scoring_notes, .scoring_date] | @tsv' "$T/sp.ndjson" | sort -u)" \
	"$(printf '2\t0\tcomp note | acc note\t2026-03-05')" "into one record per response, notes joined, the last pass's date"
run "$B" merge -k "$T/kp.json" -r "$R" -o "$T/sp.ndjson" "$T/p1.csv" "$T/p2.csv" "$T/p3.csv"
expect_status 1 "a pass missing for a rater"
is "$(printf '%s\n' "$err" | grep -c 'citation_fidelity: missing')" 16 "names the missing metric of every response"

# binfer --judge output: response records scored in place (no response_id,
# found by their tuple), citation fidelity and hallucination records absent,
# excluded responses passed through unscored.
jq -c 'if .exclusion_reason then . else . + {rater_id: "llm_judge:qwen2.5:72b", rater_kind: "llm_judge", primary: false,
	rubric: "context-collapse", factual_accuracy: 2, completeness: 1, hallucination_count: 1,
	scoring_notes: "judge: one unsupported claim", scoring_date: "2026-03-01"} end' "$R" >"$T/judged.ndjson"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/judged.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 0 "binfer --judge records merge by their tuple"
is "$(jq -c 'select(.rater_kind == "llm_judge") | [.primary, .factual_accuracy, .citation_fidelity]' "$T/scored.ndjson" | sort -u)" \
	'[false,2,null]' "the judge is a non-primary rater"
is "$(jq -r 'select(.rater_kind == "llm_judge") | .response_id' "$T/scored.ndjson" | sort | tr '\n' ' ')" \
	"$(jq -r '.responses[].response_id' "$T/key.json" | sort | tr '\n' ' ')" "each judged record found its blinded response"
jq -c 'if .exclusion_reason then . else .rubric = "answer-quality" end' "$T/judged.ndjson" >"$T/judged-aq.ndjson"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/judged-aq.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "records scored with another rubric"
like "$err" 'judged-aq.ndjson:1: scored with rubric answer-quality, not context-collapse' "are refused"
jq -c '.rater_kind = "human"' "$T/judged.ndjson" | grep -v JS_ONLY >"$T/judged-h.ndjson"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/judged-h.ndjson" "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "a human rater omitting citation fidelity and hallucination records"
is "$(printf '%s\n' "$err" | grep -c 'citation_fidelity: missing')" 16 "must give citation fidelity"

# ---- validation: every problem at once, nothing written
rm -f "$T/scored.ndjson" "$T/raw-data.csv" "$T/hd.json"
bad() {	# description, then fill options: runs merge on the broken alice sheet
	_d=$1; shift
	$FILL "$T/alice.csv" "$T/bad.csv" "$@"
	run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/bad.csv" "$T/alice-h.csv"
	expect_status 1 "$_d: exit status 1"
	[ ! -e "$T/scored.ndjson" ] && [ ! -e "$T/raw-data.csv" ] && [ ! -e "$T/hd.json" ] \
		&& [ -z "$(ls -A "$T" | grep '^\.')" ]
	is "$?" 0 "$_d: nothing written, no temporary left"
}
bad "score out of range" --set "3:factual_accuracy=4"
like "$err" 'bad.csv:4: factual_accuracy: 4 is out of range 0-3' "names sheet, row, field and range"
bad "a fractional score" --set "3:completeness=0.5"
like "$err" 'bad.csv:4: completeness: 0.5 is not a whole number' "a fraction is not a score"
bad "text for a number" --set "3:citation_fidelity=two"
like "$err" 'bad.csv:4: citation_fidelity: "two" is not a number' "text is not a score"
bad "missing required note" --set "3:factual_accuracy=1"
like "$err" 'bad.csv:4: R[0-9A-F]+ by rater "alice": rule notes-required' "a score below 3 needs notes"
bad "unknown response id" --set "3:response_id=RDEADBEEF"
like "$err" 'bad.csv:4: response_id "RDEADBEEF" is not in the key' "an id the key does not hold"
bad "duplicate response id" --dup-row 3
like "$err" 'bad.csv:[0-9]+: duplicate response_id R[0-9A-F]+ for rater "alice" \(first at line 4\)' "the same id twice in a sheet"
bad "hallucination count without records" --set "3:hallucination_count=2" --set "3:factual_accuracy=2" --set "3:scoring_notes=x"
like "$err" 'rule hallucination-records' "the count must match the records"
bad "accuracy cap" --set "2:factual_accuracy=3"
like "$err" 'bad.csv:3: R[0-9A-F]+ by rater "alice": rule accuracy-cap' "accuracy is capped at 2 with a hallucination"
bad "refusal rule (EC-05)" --set "4:refusal=yes"
like "$err" 'rule refusal: a refusal is scored 0' "a refusal must be scored 0/0"
bad "bad date" --set "5:scoring_date=3/2/2026"
like "$err" 'bad.csv:6: scoring_date: "3/2/2026" is not an ISO 8601 date' "spreadsheet-reformatted dates are caught"
bad "missing score" --set "6:completeness="
like "$err" 'bad.csv:7: completeness: missing value' "an empty required score"
bad "unscored response" --delete-row 7
like "$err" 'response R[0-9A-F]+ has not been scored by any rater' "every blinded response must be scored"
bad "no rater column" --drop rater_id
like "$err" 'bad.csv:1: no rater_id column' "a sheet must say who scored it"
bad "several problems" --set "3:factual_accuracy=9" --set "5:completeness=7" --set "8:citation_fidelity=-1"
is "$(printf '%s\n' "$err" | grep -c 'out of range')" 3 "every problem is reported at once"
like "$err" '3 problems; nothing written' "with their count"

# A bad record in the hallucination sheet.
printf 'response_id,rater_id,category,model_text_span,claim,note\n%s,alice,H-XXX,span,claim,\n' "$id2" >"$T/bad-h.csv"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/bad-h.csv"
expect_status 1 "an unknown hallucination category"
like "$err" 'bad-h.csv:2: hallucinations record: category: "H-XXX" is not one of H-FAB, H-SRC, H-EXT, H-TMP' "names the category"

# Two raters with the same id.
$FILL "$T/s/second-rater/sheet.csv" "$T/bob-as-alice.csv" --rater alice --date 2026-03-04 \
	--score factual_accuracy=3 --score hallucination_count=0 --score completeness=1 --score citation_fidelity=
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/bob-as-alice.csv"
expect_status 1 "two raters sharing one id"
like "$err" 'bob-as-alice.csv:2: factual_accuracy of R[0-9A-F]+ by rater "alice" was already given at .*alice.csv:[0-9]+' "is caught with both places"
jq -c '.rater_id = "alice"' "$T/auto.ndjson" >"$T/auto-alice.ndjson"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/auto-alice.ndjson"
expect_status 1 "a human and an automatic rater sharing one id"
like "$err" 'rater_id "alice" is autoscore here but human at' "is caught"

# A key that does not match the responses.
jq -c 'if .question_id == "S001-Q01" and .condition == "B" then .response_text += " (rerun)" else . end' "$R" >"$T/changed.ndjson"
run "$B" merge -k "$T/key.json" -r "$T/changed.ndjson" $(out) "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "responses changed since blinding"
is "$(printf '%s\n' "$err" | grep -c 'response_text differs from the one blinded')" 2 "each changed response is named"
head -n 5 "$R" >"$T/part.ndjson"
run "$B" merge -k "$T/key.json" -r "$T/part.ndjson" $(out) "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "responses missing from the input"
like "$err" 'has no response record in the input' "are named"
{ cat "$R"; jq -c '.model_id = "mistral:7b"' "$F/responses.ndjson" | head -n 1; } >"$T/extra.ndjson"
run "$B" merge -k "$T/key.json" -r "$T/extra.ndjson" $(out) "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "a response the key does not hold"
like "$err" 'extra.ndjson:19: response S009 S009-Q01 mistral:7b A is not in the key' "is named with its line"
"$B" blind -k "$T/other.json" -d "$T/o" --seed 12 "$R" 2>/dev/null
run "$B" merge -k "$T/other.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "sheets blinded with another key"
like "$err" 'is not in the key' "are rejected"
printf '{"x":1}\n' >"$T/notkey.json"
run "$B" merge -k "$T/notkey.json" -r "$R" "$T/alice.csv"
expect_status 1 "a file that is not a key"
like "$err" 'not a bscore-merge key' "is rejected"

# Self-check rows outside the key's subset; a --primary that scored nothing.
$FILL "$T/alice.csv" "$T/self-bad.csv" --score self_check=yes --delete-row 1
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/self-bad.csv"
expect_status 1 "self-check scores outside the self-check subset"
like "$err" 'which the key.s self-check subset does not hold' "are rejected"
run "$B" merge -k "$T/key.json" -r "$R" $(out) --primary carol "$T/alice.csv" "$T/alice-h.csv"
expect_status 1 "a primary rater who scored nothing"
like "$err" 'no sheet was scored by rater "carol"' "is named"

# Formula-like text cells of raw-data.csv are neutralised as in the sheets
# (a leading space); --raw-csv keeps them; numbers are never touched.
$FILL "$T/alice.csv" "$T/alice-f.csv" --set '1:scoring_notes==HYPERLINK("http://x")'
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice-f.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
expect_status 0 "merge with a formula in scoring_notes"
like "$(cat "$T/raw-data.csv")" '," =HYPERLINK\(""http://x""\)",' "raw-data.csv: the formula cell starts with a space"
is "$(jq -r 'select(.primary and .response_id == "'"$id1"'") | .scoring_notes' "$T/scored.ndjson")" '=HYPERLINK("http://x")' \
	"the scored record keeps the text as the rater wrote it"
run "$B" merge -k "$T/key.json" -r "$R" $(out) --raw-csv "$T/alice-f.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
like "$(cat "$T/raw-data.csv")" ',"=HYPERLINK\(""http://x""\)",' "--raw-csv: the cell is written untouched"

# A full disk: every output or none, and the message names the file.  A
# small tmpfs in a private mount namespace (needs root or user namespaces).
D=$T/full
mkdir -p "$D"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
pages() { echo $(( ($(wc -c <"$1") + 4095) / 4096 )); }
fit=$(( $(pages "$T/scored.ndjson") + $(pages "$T/raw-data.csv") ))
if unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs '$D'" 2>/dev/null; then
	unshare -m sh -c '
		D=$1; shift; fit=$1; shift
		mount -t tmpfs -o size=1m tmpfs "$D" || exit 99
		# Leave room for scored.ndjson and raw-data.csv, none for the details.
		head -c $(( (256 - fit) * 4096 )) /dev/zero >"$D/filler" 2>/dev/null
		rc=0
		"$@" -o "$D/scored.ndjson" --raw-data "$D/raw-data.csv" --details "$D/hd.json" \
		    2>"$D/../full.err" || rc=$?
		echo "$rc" >"$D/../full.rc"
		ls "$D" >"$D/../full.ls"
	' sh "$D" "$fit" "$B" merge -k "$T/key.json" -r "$R" \
	    "$T/alice.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
	is "$(cat "$T/full.rc")" 1 "a full disk: exit 1"
	is "$(cat "$T/full.ls")" filler "a full disk: no output committed, no temporary left"
	like "$(cat "$T/full.err")" "hd.json: cannot write: No space left on device; no output written" \
		"a full disk: the message names the file"
else
	for i in 1 2 3; do skip "cannot mount a small tmpfs here (needs root or user namespaces)"; done
fi

# A sheet with another header is refused even without rows (file:line).
printf 'response_id,rater_id,scoring_date,factul_accuracy\n' >"$T/typo.csv"
run "$B" check "$T/typo.csv"
expect_status 1 "check: a header-only sheet without any rubric column"
like "$err" "typo.csv:1: no column of rubric context-collapse" "names file and line"
printf 'a,b\n' >"$T/other.csv"
run "$B" check "$T/other.csv"
expect_status 1 "check: a CSV that is not a sheet"
like "$err" "other.csv:1: no response_id column" "names file and line"
run "$B" merge -k "$T/key.json" -r "$R" $(out) "$T/alice.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv" "$T/other.csv"
expect_status 1 "merge: a CSV that is not a sheet among good ones"
like "$err" "other.csv:1: no response_id column" "names it"
run "$B" autoscore "$T/other.csv"
expect_status 1 "autoscore: a CSV that is not a blind sheet"
like "$err" "other.csv:1: no response_id column" "names file and line"
run "$B" autoscore "$T/typo.csv"
expect_status 1 "autoscore: a header without the sheet's columns"
like "$err" "typo.csv:1: no question column" "names the missing column"

# Usage.
run "$B" merge -k "$T/key.json" "$T/alice.csv"
expect_status 2 "merge without responses is a usage error"
run "$B" merge -k "$T/key.json" -r "$R" --seed 3 "$T/alice.csv"
expect_status 2 "an option of another command is a usage error"
run "$B" frobnicate
expect_status 2 "an unknown command is a usage error"
# One cause, one message: a sheet file that is not there is one line, not a
# problem for every response it held; input from the wrong stage names the
# stage to run first.
run "$B" merge -k "$T/key.json" -r "$R" -o "$T/m1.ndjson" "$T/alice.csv" "$T/no-such-sheet.csv"
expect_status 1 "a missing sheet file: exit 1"
is "$err" "bscore-merge: $T/no-such-sheet.csv: cannot open: No such file or directory; nothing written" "in one line"
[ ! -e "$T/m1.ndjson" ]
is "$?" 0 "nothing written"
run "$B" merge -k "$T/key.json" -r "$R" "$T/nosheet1.csv" "$T/nosheet2.csv"
is "$(printf '%s\n' "$err" | wc -l)" 2 "two missing sheet files: one line each"
like "$err" 'nosheet2.csv: cannot open: .*2 sheet files cannot be read' "the last one counting them"
run "$B" check "$T/no-such-sheet.csv"
is "$(printf '%s\n' "$err" | wc -l)" 1 "check: a missing sheet file is one line too"
jq -c 'del(.model_id, .response_text)' "$R" >"$T/contexts-like.ndjson"
run "$B" merge -k "$T/key.json" -r "$T/contexts-like.ndjson" "$T/alice.csv"
expect_status 1 "merge over records binfer did not write: exit 1"
is "$(head -n 1 "$T/err")" "bscore-merge: $T/contexts-like.ndjson:1: no model_id or response_text: merge reads binfer's responses (run binfer first)" \
	"one problem naming the stage to run first"
is "$(sed -n 2p "$T/err")" "bscore-merge: 1 problem; nothing written" "and only that one"
run "$B" blind -k "$T/kc.json" -d "$T/kc" "$T/contexts-like.ndjson"
expect_status 1 "blind over records binfer did not write: exit 1"
like "$err" 'contexts-like.ndjson:1: no model_id or response_text: blind reads binfer.s responses \(run binfer first\)$' "naming the stage"
run "$B" merge -k "$T/key.json" -r "$R" -o "$T/m2.ndjson" "$T/alice.csv" "$T/alice-h.csv" "$T/bob.csv" "$T/alice-self.csv"
like "$(printf '%s\n' "$err" | tail -n 1)" '^bscore-merge: [0-9]+ responses: [0-9]+ scored, [0-9]+ excluded; 2 raters, 4 sheets$' "a merge ends with its summary"
run "$B" check "$T/bob.csv"
like "$err" '^bscore-merge: [0-9]+ rows valid in 1 sheet$' "check ends with its summary"

run "$B" --help
expect_status 0 "--help"
like "$out" '^usage: bscore-merge blind' "prints the usage"

done_testing
