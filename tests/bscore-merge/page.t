#!/bin/sh
# bscore-merge blind --html: the scoring pages.  (1) They leak nothing of the
# key: no condition, model, seed, tuple or response digest (compared against
# the key's own values).  (2) End to end in headless Chromium over the
# DevTools protocol (page-e2e.js): four passes scored with the keyboard, a
# reload that must keep every score (local storage), spot-checks (spec 002),
# notes the rubric requires, a hallucination record from a text selection,
# export through the browser's download, and `bscore-merge merge` accepting
# the exports.
. "${0%/*}/../lib/tap.sh"
B=$(prog bscore-merge)
F=$TOP/tests/bscore-merge/fixtures
PY=/usr/bin/python3

head -n 8 "$F/responses.ndjson" >"$T/resp.ndjson"
run "$B" blind -k "$T/key.json" -d "$T/s" --seed 5 --html --spot-check 3 --rater alice \
	--second-rater 0.25 --self-check 0.15 "$F/responses.ndjson"
expect_status 0 "blind --html runs"
n=$(find "$T/s" -name '*.html' | wc -l)
is "$n" 12 "one page per pass for the sheet, the second-rater and the self-check sets"

# ---------------------------------------------------------------- leaks
leaks=$($PY - "$T/key.json" "$T/s" "$F/responses.ndjson" <<'PYEOF'
import glob, json, re, sys
key = json.load(open(sys.argv[1]))
pages = {p: open(p, encoding="utf-8").read() for p in glob.glob(sys.argv[2] + "/**/*.html", recursive=True)}
bad = []
def data_of(html):
    m = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))
recs = [json.loads(l) for l in open(sys.argv[3], encoding="utf-8")]
needles = set()
for e in key["responses"] + key["excluded"]:
    needles.add(e["model_id"])
    if e.get("response_sha256"):
        needles.add(e["response_sha256"])
for r in recs:
    for f in ("model_id", "model_family", "engine", "endpoint", "model_digest", "request_hash", "system_prompt", "user_prompt"):
        if isinstance(r.get(f), str) and len(r[f]) > 3:
            needles.add(r[f])
    if isinstance(r.get("content"), str) and len(r["content"]) > 40:
        needles.add(r["content"])	# source content only with --sources
words = re.compile(r'llama|qwen|q4_K_M|"condition"|condition[_ ]?[ab]\b|model_id|model_family|"tier"|input_token|ref_token|content_chars|token_count|seed|exclusion|response_sha256|"excluded"|llms_txt', re.I)
for p, html in pages.items():
    for n in needles:
        if n in html:
            bad.append("%s: contains %r" % (p, n[:40]))
    m = words.search(html)
    if m:
        bad.append("%s: contains %r" % (p, m.group(0)))
    d = data_of(html)
    allowed = {"row", "response_id", "question", "gold_answer", "response", "source_urls", "source_sections",
               "citation_hint", "completeness_hint", "prefill", "source"}
    for it in d["items"]:
        extra = set(it) - allowed
        if extra:
            bad.append("%s: item fields %s" % (p, sorted(extra)))
    if set(d) - {"ctxbench_page", "title", "rubric", "rater_id", "self_check", "set", "export_base",
                 "spot_check_every", "spot_check_items", "sources", "items", "page_id"}:
        bad.append("%s: page fields %s" % (p, sorted(d)))
    if str(key["seed"]) in json.dumps(d["items"]):
        pass
# The page order is the sheet order, and the items are exactly the key's ids.
order = key["order"]
main = data_of(pages[sys.argv[2] + "/sheet-1-factual_accuracy.html"])
if [i["response_id"] for i in main["items"]] != order:
    bad.append("page order differs from the key's presentation order")
excl = [e for e in recs if e.get("exclusion_reason")]
for e in excl:
    if e.get("response_text") and e["response_text"] in pages[sys.argv[2] + "/sheet-1-factual_accuracy.html"]:
        bad.append("an excluded response is on the page")
print("\n".join(bad) if bad else "none")
PYEOF
)
is "$leaks" none "the pages hold no model, condition, key value, token count or excluded response"
like "$(cat "$T/s/sheet-1-factual_accuracy.html")" '"rater_id":"alice"' "the rater id is on the page"
like "$(cat "$T/s/self-check/sheet-1-factual_accuracy.html")" '"rater_id":"alice","self_check":true' "the self-check pages are the primary rater's"
like "$(cat "$T/s/second-rater/sheet-1-factual_accuracy.html")" '"rater_id":"",' "the second rater enters their own id"
unlike "$(cat "$T/s/sheet-2-hallucinations.html")" 'Doc text Turso' "without --sources no source content is on the page"

# Data that would close the <script> element is escaped.
printf '%s\n' '{"site_id":"S1","question_id":"Q1","condition":"A","model_id":"m","question_text":"q</script><script>alert(1)</script>","gold_answer":"g <!-- &","response_text":"r","source_urls":[],"source_sections":[]}' \
	'{"site_id":"S2","question_id":"Q2","condition":"B","model_id":"m","question_text":"q2","gold_answer":"g","response_text":"r2","source_urls":[],"source_sections":[]}' >"$T/evil.ndjson"
"$B" blind -k "$T/ek.json" -d "$T/e" --seed 1 --html "$T/evil.ndjson" 2>/dev/null
is "$(grep -c '</script>' "$T/e/sheet-1-factual_accuracy.html")" 2 "a </script> in the data does not end the data element"
like "$(cat "$T/e/sheet-1-factual_accuracy.html")" 'q\\u003c/script\\u003e' "it is written as \\u003c/script\\u003e"

run "$B" blind -k "$T/k2.json" -d "$T/x" --spot-check 5 "$T/resp.ndjson"
expect_status 2 "--spot-check without --html is a usage error"
run "$B" blind -k "$T/k2.json" -d "$T/x" --html --spot-check -1 "$T/resp.ndjson"
expect_status 2 "--spot-check takes a count"
# A copy of the binary whose share/ (../../share) holds the rubrics only.
mkdir -p "$T/inst/share" "$T/inst/a/bin" && cp -R "$TOP/share/rubrics" "$T/inst/share/" && cp "$B" "$T/inst/a/bin/"
CTXBENCH_SHARE= run "$T/inst/a/bin/bscore-merge" blind -k "$T/k3.json" -d "$T/y" --html "$T/resp.ndjson"
expect_status 1 "a missing page template is a data error"
like "$err" 'bscore-merge/page.html: not found' "naming the template"

run "$B" blind -k "$T/ks.json" -d "$T/src" --seed 5 --html --sources "$T/resp.ndjson"
like "$(cat "$T/src/sheet-2-hallucinations.html")" 'Doc text Turso' "with --sources the hallucination pass shows the source content"
unlike "$(cat "$T/src/sheet-1-factual_accuracy.html")" 'Doc text Turso' "and no other pass does"

# ---------------------------------------------------------------- browser
. "$TOP/tests/lib/chromium.sh"
if why=$(no_browser); then
	skip "end-to-end browser test: $why"
	done_testing
	exit 0
fi

"$B" blind -k "$T/pk.json" -d "$T/p" --seed 11 --html --spot-check 3 --rater alice "$T/resp.ndjson" 2>/dev/null
"$B" blind -R answer-quality -k "$T/aq.json" -d "$T/p/aq" --seed 1 --html "$T/resp.ndjson" 2>/dev/null
"$B" blind -R dual-track -k "$T/dt.json" -d "$T/p/dt" --seed 1 --html "$T/resp.ndjson" 2>/dev/null
BSM_SMOKE="aq/sheet-1-quality.html dt/sheet-1-factual_accuracy.html dt/sheet-2-reasoning_quality.html"
export BSM_SMOKE
mkdir -p "$T/dl" "$T/csv" "$T/profile"
start_chromium --headless=new
pass "chromium started with a DevTools port ($port)"

obs=$(timeout 50 node --experimental-websocket "$TOP/tests/bscore-merge/page-e2e.js" "$port" "$T/p" "$T/dl" "$T/csv" \
	"${BSM_SCREENSHOT:-}" 2>"$T/e2e.err")
erc=$?
is "$erc" 0 "the pages were driven to the end with the keyboard"
[ $erc -eq 0 ] || diag "$(cat "$T/e2e.err")"
stop_chromium
q() { printf '%s\n' "$obs" | jq -r "$1"; }
P1=sheet-1-factual_accuracy P2=sheet-2-hallucinations P3=sheet-3-completeness P4=sheet-4-citation_fidelity
is "$(q ".passes[\"$P1\"].reload.same_state")" true "a reload keeps every score (local storage)"
is "$(q ".passes[\"$P1\"].reload.progress")" "3 of 8 scored" "and the progress"
is "$(q ".passes[\"$P1\"].rater_prefilled")" alice "the rater id from --rater is filled in"
like "$(q ".passes[\"$P1\"].problems[0]")" 'scoring_notes are required' "accuracy below 3 without notes is refused (000 §7.3 rule)"
is "$(q ".passes[\"$P1\"].focus_after_problem")" i-scoring_notes "the focus goes to the notes the rule asks for"
like "$(q ".passes[\"$P2\"].problems[0]")" 'scoring_notes are required' "a hallucination without notes is refused"
is "$(q ".passes[\"$P1\"].unlabelled | length")" 0 "every input has a label"
is "$(q ".passes[\"$P1\"].spots")" 4 "spot-checks after 3 and 6 scored, two earlier responses each (spec 002)"
like "$(q ".passes[\"$P3\"].compare")" 'discrepancy' "a differing spot-check score is shown side by side"
is "$(q ".passes[\"$P3\"].compare_mode")" compare "and waits for keep or use"
is "$(q ".passes[\"$P3\"].spot_log")" 4 "every spot-check is logged"
is "$(q ".passes[\"$P3\"].state.spot.log | map(.resolution) | sort | join(\" \")")" "agree agree agree kept" \
	"the rater kept the earlier score"
for p in $P1 $P2 $P3 $P4; do
	like "$(q ".passes[\"$p\"].download[0]")" "^$p-alice-[0-9]{4}-[0-9]{2}-[0-9]{2}\\.ndjson\$" "$p: exported through a download"
done
is "$(q '[.smoke[].errors | length] | add')" 0 "the answer-quality and dual-track pages run without a script error"
is "$(q '.smoke["sheet-1-quality.html"].fields')" 8 "answer-quality: its one pass shows its eight fields"
like "$(q '.smoke["sheet-1-quality.html"].refused')" 'Semantic relevance is required' "and refuses a response without scores"
like "$(q '.smoke["sheet-1-quality.html"].after_digit')" '"semantic_score":5' "a digit scores the first dimension"
like "$(q '.smoke["sheet-2-reasoning_quality.html"].refused')" 'Justification is required' "dual-track: the justification is required"
like "$(q '.smoke["sheet-2-reasoning_quality.html"].after_digit')" '"reasoning_quality":5' "a digit types into the 0-100 score"
span=$(q ".passes[\"$P2\"].span")
isnt "$span" "" "a text span was selected in the response"

run "$B" merge -k "$T/pk.json" -r "$T/resp.ndjson" -o "$T/scored.ndjson" --raw-data "$T/raw.csv" \
	--details "$T/details.json" "$T"/dl/*.ndjson
expect_status 0 "bscore-merge merge accepts the NDJSON exports"
[ "$rc" -eq 0 ] || diag "$err"
first=$(jq -r '.order[0]' "$T/pk.json")
second=$(jq -r '.order[1]' "$T/pk.json")
sel() { jq -c --arg id "$1" "select(.response_id == \$id) | $2" "$T/scored.ndjson"; }
is "$(jq -s 'length' "$T/scored.ndjson")" 8 "one scored record per response"
is "$(sel "$first" '[.factual_accuracy, .hallucination_count, .completeness, .citation_fidelity, .rater_id, .rater_kind]')" \
	'[2,1,1,2,"alice","human"]' "the first response's scores from four passes"
is "$(sel "$first" '.hallucinations[0].model_text_span')" "$(printf '%s' "$span" | jq -R .)" \
	"the hallucination record carries the selected text as model_text_span"
is "$(sel "$first" '.hallucinations[0].category')" '"H-FAB"' "with the category chosen by key"
is "$(sel "$first" '.scoring_notes')" '"Names the fork but not libSQL. | The source does not say this."' "notes of both passes are joined"
is "$(sel "$second" '[.citation_fidelity, .scoring_notes]')" '[null,"No attribution asked for."]' \
	"N/A (-) is a null citation fidelity; n opens the notes without typing an n"
is "$(jq -s '[.[] | .completeness] | unique' -c "$T/scored.ndjson")" '[1]' "the kept spot-check score is the one exported"
like "$(jq -r '.scoring_date' "$T/scored.ndjson" | sort -u)" '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' "with the scoring date"

ls "$T/csv" >"$T/csvlist"
is "$(wc -l <"$T/csvlist" | tr -d ' ')" 2 "the CSV export of the hallucination pass: a sheet and its records"
run "$B" merge -k "$T/pk.json" -r "$T/resp.ndjson" -o "$T/scored2.ndjson" \
	"$T/dl/$P1"-*.ndjson "$T/dl/$P3"-*.ndjson "$T/dl/$P4"-*.ndjson "$T"/csv/*.csv
expect_status 0 "merge accepts the CSV export too"
[ "$rc" -eq 0 ] || diag "$err"
proj='map({response_id, factual_accuracy, refusal, hallucination_count, h: [.hallucinations[] | [.category, .model_text_span, .claim]], completeness, citation_fidelity, scoring_notes})'
is "$(jq -s -c "$proj" "$T/scored2.ndjson")" "$(jq -s -c "$proj" "$T/scored.ndjson")" \
	"with the same scores"
done_testing
