#!/bin/sh
# The results browser (bstats --html) as a researcher audits a study in it,
# in headless Chromium (html-e2e.js): search over questions, gold answers,
# responses and contexts; filters, sort and the open pair in the URL
# fragment and restored on load; the CSV export of the filtered rows with
# formula-like cells neutralised; the model x condition grid filtering the
# table; a pair's evidence (gold-answer terms marked, the terms the
# autoscore rule credits, changed facts side by side and located in both
# contexts) and its transcript (what binfer recorded, secrets masked); the
# compare view of two runs; hostile text in every field kept as text, no
# inline handler, no request, no CSP violation; then make demo's page.
# Screenshots: BSTATS_SHOTS=DIR.  The full-size study: html-large.t.
. "${0%/*}/../lib/tap.sh"
B=$(prog bstats)
GEN="python3 $TOP/tests/bstats/html-gen.py"

$GEN 16 3 1 hostile >"$T/study.ndjson"
run "$B" -o /dev/null --html "$T/page.html" "$T/study.ndjson"
expect_status 0 "bstats --html writes the browser of a hostile study"
H=$(cat "$T/page.html")
unlike "$H" 'SECRET123' "no secret of an endpoint, an error or a header reaches the page"
like "$H" 'https://\[MASKED\]@llm.example:8443/v1\?api_key=\[MASKED\]' "an endpoint's user information and key are masked"
unlike "$H" '<img src=x|<b>1</b>' "no markup from the data in the page source"
is "$(grep -c '</script>' "$T/page.html")" 2 "a </script> in the data does not end the data element"
unlike "$H" ' on[a-z]+="' "no inline event handler in the page source"

# The other run: two ratings changed, one left out.
python3 - "$T/study.ndjson" "$T/other<b>.ndjson" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
out = open(sys.argv[2], "w")
for i, r in enumerate(recs):
    if r["question_id"] == "S001-Q03" and r["model_id"] == "model-00":
        r["factual_accuracy"] = 3 - r["factual_accuracy"] if r["condition"] == "B" else r["factual_accuracy"]
        r["rater_id"] = "judge-x"
        r["rater_kind"] = "llm_judge"
    if i == len(recs) - 1:
        continue
    out.write(json.dumps(r) + "\n")
PY
run "$B" -o /dev/null --html "$T/compare.html" --compare "$T/other<b>.ndjson" "$T/study.ndjson"
expect_status 0 "bstats --html --compare writes the two runs side by side"
run "$B" -o /dev/null --compare "$T/other<b>.ndjson" "$T/study.ndjson"
expect_status 2 "--compare without --html is a usage error"
like "$err" '--compare needs --html' "... naming the option"
printf '{"site_id": 1}\n' >"$T/bad.ndjson"
run "$B" -o /dev/null --html "$T/x.html" --compare "$T/bad.ndjson" "$T/study.ndjson"
expect_status 1 "a bad record in the compared run is an error"
like "$err" 'bad.ndjson:1: ' "... naming its file and line"
ok test ! -e "$T/x.html"
: >"$T/empty.ndjson"
run "$B" -o /dev/null --html "$T/x.html" --compare "$T/empty.ndjson" "$T/study.ndjson"
expect_status 1 "a compared run without ratings is an error"
is "$err" "bstats: $T/empty.ndjson: no primary scored records to compare" "... saying so"
run "$B" -o /dev/null --html "$T/x.html" --compare "$T/missing.ndjson" "$T/study.ndjson"
expect_status 1 "a compared run that cannot be read is an error"
like "$err" "missing.ndjson: No such file" "... naming it"
ok test ! -e "$T/x.html"

. "$TOP/tests/lib/chromium.sh"
if why=$(no_browser); then
	skip "the browser tests: $why"
	done_testing
	exit 0
fi
mkdir -p "${BSTATS_SHOTS:=$T/shots}" "$T/dl"
start_chromium --headless=new
e2e() {
	obs=$(timeout 600 node --experimental-websocket "$TOP/tests/bstats/html-e2e.js" "$port" "$@" 2>"$T/e2e.err")
	erc=$?
	is "$erc" 0 "html-e2e.js $1 driven to the end"
	[ $erc -eq 0 ] || diag "$(cat "$T/e2e.err")"
}
q() { printf '%s\n' "$obs" | jq -r "$1"; }

e2e hostile "$T/page.html" "$BSTATS_SHOTS" "$T/dl"
is "$(q '.requests | length')" 0 "the page requests nothing"
is "$(q '.exceptions | length')" 0 "no script error"
is "$(q '.csp | length')" 0 "no CSP violation"
is "$(q '.count')" "48 of 48 pairs" "every pair listed"
is "$(q '.grid[0] | join("|")')" "model|Condition A|Condition B|Δ (B − A)" "the grid: models by condition, and Δ"
like "$(q '.grid[] | select(.[0] == "model-00") | .[1]')" '^[0-9.]+ \(n = 15\)$' "a cell: the mean and its count (one A excluded)"
like "$(q '.grid[] | select(.[0] == "all models") | .[2]')" '\(n = 48\)$' "... and a row over all models"
like "$(q '.grid[] | .[0]' | tr '\n' ' ')" 'm<b>1</b>' "a hostile model id in the grid as text"
is "$(q '.grid_filtered | [.model, .count, (.models | join(","))] | join(" ")')" "model-00 16 of 48 pairs model-00" "a grid cell pressed with Enter filters the table by its model"
is "$(q '.search_context | [.count, (.rows | join(";"))] | join(" ")')" "3 of 48 pairs S001 | S001-Q02 | m<b>1</b>;S001 | S001-Q02 | model-00;S001 | S001-Q02 | model-02" "search finds words of a context (every model of its question)"
is "$(q '.search_response | [.count, (.rows | join(";"))] | join(" ")')" "1 of 48 pairs S001 | S001-Q05 | model-00" "... of one response, whatever the case"
is "$(q '.search_gold.count')" "3 of 48 pairs" "... of a gold answer"
is "$(q '.search_none.count')" "0 of 48 pairs" "... and nothing when nothing matches"
is "$(q '.hash_written')" "#site=S001&metric=tok&sort=desc" "filters and sort are written into the URL fragment"
is "$(q '.restored | [.site, .metric, .sort, .count] | join(" ")')" "S001 tok desc 24 of 48 pairs" "... and restored when the page is opened with it"
is "$(q '.restored_open | join(" ")')" "S001 S001-Q01 model-02" "the pair named in the fragment is open"
is "$(q '.restored.focused')" true "... and has the focus"
is "$(q '.hostile_open | join(" ")')" '<img src=x onerror="window.__pwned=1"> S002-Q01 m<b>1</b>' "a pair with hostile ids opens from its fragment"
like "$(q '.hostile_evidence.question')" 'How many pages' "... with its question"
like "$(q '.hostile_evidence.responses[0]')" '</script><script>window.__pwned=1</script>' "hostile response text shown as text"
like "$(q '.hostile_evidence.permalink')" '^#pair=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E/S002-Q01/m%3Cb%3E1%3C%2Fb%3E$' "its link: each id percent-encoded"
like "$(q '.hostile_evidence.notes[0]')" '<img src=x' "hostile rater's notes as text"

is "$(q '.q0.facts[0] | join("|")')" "number: warmup_prompt_count requests _ default|3|1" "changed facts side by side: key, A's value, B's"
is "$(q '.q0.facts[1] | join("|")')" "cell: rate_limit_ms | default|1000|500" "... a table cell"
is "$(q '.q0.facts[2] | join("|")')" 'quoted: <img src=x onerror="window.__pwned=1">|</script><script>window.__pwned=1</script>|=1+1' "... hostile facts as text"
is "$(q '.located | [.f0A.text, .f0B.text, .f1A.text, .f1B.text] | join(" ")')" "3 1 1000 500" "each changed value located in its context"
like "$(q '.located.f0A.cls + "/" + .located.f0B.cls')" '^fact fact-a( located)?/fact fact-b( located)?$' "... marked as A's and B's"
like "$(q '.q0.facts_kv | join("; ")')" 'facts of B found in A: 0.9; facts of A found in B: 0.85; pair drift: true; gold facts only in A: 3; gold facts only in B: none' "the fact shares, drift and gold facts"
like "$(q '.q0.gold_marks | join(" ")')" '^archive keeps 2 pages timeout default 30 seconds$' "gold-answer terms marked in the gold answer"
like "$(q '.q0.context_terms_a')" '^[1-9][0-9]*$' "... and in the contexts"
like "$(q '.q0.credit[0]')" '^The autoscore rule credits [0-9]+ of 8 gold-answer terms: ' "the terms the autoscore rule credits, counted"
like "$(q '.q0.credit[0]')" "\\(this rating is autoscore's\\)" "... and whose rating it is"
DESC="credited terms marked in the response" ok [ "$(q '.q0.credited_a | length')" -gt 0 ]

is "$(q '.transcript.tab')" "Transcript" "the transcript tab is reached with the arrow key"
rec0() { jq -r "select(.question_id == \"S001-Q01\" and .model_id == \"model-00\" and .condition == \"$1\") | $2" "$T/study.ndjson"; }
is "$(q '.transcript.a.note')" "The body binfer sent to https://[MASKED]@llm.example:8443/v1/chat/completions, parsed and indented. SHA-256 of the bytes sent: $(rec0 A .request.body_sha256)." \
   "the transcript: the body binfer sent, where to, its SHA-256"
is "$(q '.transcript.a.body' | head -n 3)" "$(printf '{\n  "model": "model-00",\n  "messages": [')" "the request body pretty-printed"
is "$(q '.transcript.a.body_system')" "$(rec0 A .system_prompt)" "the body's system prompt, </script> and markup in it kept as text"
like "$(q '.transcript.a.body_system')" '</script><script>window.__pwned=1</script>$' "... the </script> included"
is "$(q '.transcript.a.body_user')" "$(rec0 A .user_prompt)" "the body's user prompt with its content, exactly as sent"
like "$(q '.transcript.a.body_user')" 'warmup_prompt_count sends 3 warm-up' "... with its content"
like "$(q '.transcript.a.body_user')" 'Question: How many pages does archive 0 keep' "... and its question"
is "$(q '.transcript.a.body' | jq -c '[.temperature, .seed, .stream]')" "[0,42,false]" "... and its locked parameters"
is "$(q '.transcript.a.record | [.["request sent"], .["request URL"], .["server that answered"], .["warm-up requests before"]] | join("|")')" \
   'true|https://[MASKED]@llm.example:8443/v1/chat/completions|llamacpp b4567<img src=x onerror="window.__pwned=1">|3' "the request's URL (masked), server and warm-ups"
is "$(q '.transcript.a.record["cache provenance"]')" "fresh request, key $(rec0 A .request_hash), first obtained 2026-03-01T10:00:00Z" "cache provenance: a fresh request"
like "$(q '.transcript_hit.a.record["cache provenance"]')" '^cache hit, key [0-9a-f]{64}, first obtained 2026-03-01T10:00:00Z$' "cache provenance: a cache hit, and when it was first obtained"
like "$(q '.transcript_hit.a.body_user')" 'Question: ' "... with the body that obtained it"
like "$(q '.transcript_nobody.b.request_missing')" '^The request body is not in the scored records \(merge with bscore-merge merge --keep-texts\); SHA-256 of the bytes sent: [0-9a-f]{64}\.$' \
   "records merged without --keep-texts: no body, said so, with its SHA-256"
is "$(q '.transcript_nobody.b.body')" "null" "... and no body shown"
is "$(q '.transcript_q4.a.note')" "This record's binfer did not record the request body it sent; it records the request's hash (the cache key) and the fields below. The prompt is shown as the record holds it." "a record without a request says what is not recorded"
like "$(q '.transcript_q4.a.system')" '^You are a factual question-answering system' "... and shows the system prompt as recorded"
like "$(q '.transcript_q4.a.user')" '^Content:$' "... and the user prompt as recorded"
like "$(q '.transcript_q4.a.user_summary')" '^user prompt \([0-9]+ characters\)$' "... collapsible"
like "$(q '.transcript_q4.b.record["cache provenance"]')" "^binfer's cache entry ([0-9a-f]{2})/\\1[0-9a-f]{62}\\.json \\(whether this answer was read from the cache is not recorded\\)$" "... and the cache entry its hash names"
is "$(q '.transcript.b.record | [.server, .["model identity"], .["model digest"], .num_ctx, .finish_reason, .["output truncated"]] | join("|")')" "llama.cpp|model-00.gguf 4920733696 8030261248|fp_00|8192|length|true" "server, model identity, digest, num_ctx, finish_reason"
is "$(q '.transcript.b.record["timings (ms)"]')" "total 812.5, load 1.5, prompt 400.25, eval 410.75" "the timings"
is "$(q '.transcript.b.record | [.["input tokens"], .["expected prompt tokens"], .["prompt tokens evaluated"], .["output tokens"]] | join(" ")')" "$(jq -r 'select(.question_id == "S001-Q01" and .model_id == "model-00" and .condition == "B") | "\(.input_token_count) 1500 1500 40"' "$T/study.ndjson")" "the tokens"
is "$(q '.transcript.b.record.endpoint')" "https://[MASKED]@llm.example:8443/v1?api_key=[MASKED]&x=1" "the endpoint, its secrets masked"
is "$(q '.transcript.a.raw')" "the same as the response text" "a raw answer equal to the text is said so"
like "$(q '.transcript_q4.a.raw')" '^<think>planning</think>From the content' "a raw answer with its thinking"
is "$(q '.transcript_q6.b.record.error')" "retry: Bearer [MASKED] refused" "an error's bearer token masked"

is "$(q '.key_open | [.expanded, .hash] | join(" ")')" "true #pair=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E/S002-Q01/m%3Cb%3E1%3C%2Fb%3E" "Enter opens the first pair and its link goes into the fragment"
is "$(q '.key_close | [.expanded, .hash] | join(" ")')" "false " "Enter closes it again"
is "$(q '.injected | [.imgs, .scripts, .pwned] | map(tostring) | join(" ")')" "0 2 false" "no element and no script came from the data"
is "$(q '.handlers')" 0 "no element carries an inline handler"

CSV=$T/dl/ctxbench-pairs.csv
is "$(q '.csv_file')" true "the CSV export downloads ctxbench-pairs.csv"
python3 - "$CSV" "$T/study.ndjson" >"$T/csv.txt" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(len(rows))
print(",".join(sorted(set(r["site_id"] for r in rows))))
print(rows[0]["question_text"] if rows else "")
g = [r["gold_answer"] for r in rows if r["question_id"] == "S001-Q03"]
print(g[0] if g else "")
print(sum(1 for r in rows if r["A_excluded"] == "JS_ONLY"))
print(rows[0]["delta_tokens"], [json.loads(l) for l in open(sys.argv[2])][0]["input_token_count"])
PY
is "$(sed -n 1p "$T/csv.txt")" 24 "the CSV holds the filtered rows (24 of 48)"
is "$(sed -n 2p "$T/csv.txt")" S001 "... of the filtered site only"
is "$(sed -n 4p "$T/csv.txt")" ' =HYPERLINK("http://evil.example","click") sets the archive timeout' "a formula-like cell gets a leading space (as raw-data.csv's)"
is "$(sed -n 5p "$T/csv.txt")" 3 "exclusions are in the export"
like "$(sed -n 6p "$T/csv.txt")" '^-?[0-9]+ [0-9]+$' "a negative Δ stays a number"

e2e compare "$T/compare.html" "$BSTATS_SHOTS"
is "$(q '.exceptions | length') $(q '.csp | length') $(q '.requests | length')" "0 0 0" "the compare page: no error, no CSP violation, no request"
is "$(q '.compare | [.hidden, .nav] | map(tostring) | join(" ")')" "false true" "the compare view is shown and in the navigation"
is "$(q '.compare.title')" "This run against other<b>.ndjson" "it names the other run, as text"
like "$(q '.compare.summary')" '^1 ratings differ, 94 agree; [0-9]+ pair outcomes turned; [0-9]+ test verdicts changed \(α = 0.05\); 1 ratings only in this run, 0 only in other<b>.ndjson\.$' "a summary of the differences"
is "$(q '.compare.tables[0].title')" "Test results, verdict changes first" "test results first"
is "$(q '[.compare.tables[0].rows[] | .cls] | (index("") // length) as $i | .[:$i] | map(select(. == "")) | length')" 0 "... changed ones before unchanged"
is "$(q '.compare.tables[1].rows | map(.cells | join("|")) | join(";")')" "$(jq -r 'select(.question_id == "S001-Q03" and .model_id == "model-00" and .condition == "B") | "S001 / S001-Q03 / model-00|B|factual_accuracy|acc \(.factual_accuracy), hall –, comp \(.completeness) by autoscore|acc \(3 - .factual_accuracy), hall \(.hallucination_count), comp \(.completeness) by judge-x"' "$T/study.ndjson")" "the differing rating, both runs' scores"
is "$(q '.compare.tables[3].rows | length') $(q '.compare.tables[4].rows | length')" "1 0" "the rating only this run has; none only the other has"
is "$(q '.opened | join(" ")')" "S001 S001-Q03 model-00" "a differing rating's link opens its pair"
like "$(q '.evidence.other | join(" ")')" 'judge-x' "... with the other run's ratings beside this run's"
is "$(q '(.injected | [.imgs, .scripts, .pwned] | map(tostring) | join(" ")) + " " + (.handlers | tostring)')" "0 2 false 0" "hostile text stays text in the compare view"

# make demo's own page (examples/pipeline.sh into a directory of the test).
if [ ! -d "$CTXBENCH_BUILD/site" ]; then
	skip "make demo's page: the example site is not built (make)"
	done_testing
	exit 0
fi
OUT=$T/demo CTXBENCH_TOP=$TOP CTXBENCH_BUILD=$CTXBENCH_BUILD sh "$TOP/examples/pipeline.sh" >"$T/demo.log" 2>&1
is "$?" 0 "make demo's pipeline runs"
ok test -s "$T/demo/results.html"
like "$(tail -n 9 "$T/demo.log")" "results browser $T/demo/results.html" "... and names the results browser"
e2e demo "$T/demo/results.html" "$BSTATS_SHOTS"
is "$(q '.exceptions | length') $(q '.csp | length') $(q '.requests | length')" "0 0 0" "the demo's page: no error, no CSP violation, no request"
is "$(q '.count')" "$(jq -r '[.site_id, .question_id, .model_id] | join(" ")' "$T/demo/scored.ndjson" | sort -u | wc -l) of $(jq -r '[.site_id, .question_id, .model_id] | join(" ")' "$T/demo/scored.ndjson" | sort -u | wc -l) pairs" "every pair of the demo"
is "$(q '[.pairs[] | .contents[] | select(test("not in the scored records"))] | length')" 0 "the demo keeps its texts: every context is in the page"
# The autoscore rule's count on the page equals autoscore's own notes.
is "$(q '[.pairs[] | [.credit, .notes] | transpose[] | select(.[0] != null and .[1] != null) |
	select((.[0] | capture("credits (?<h>[0-9]+) of (?<n>[0-9]+)") | "\(.h)/\(.n)") != (.[1] | capture("\\((?<r>[0-9]+/[0-9]+)\\)").r))] | length')" 0 \
	"on every response, the terms the page credits are the count autoscore's notes give"
DESC="... checked on the demo's responses" ok [ "$(q '[.pairs[] | .credit[]] | length')" -gt 10 ]
is "$(q '.transcript.a.note')" "No request was sent: the extractive engine answers from the content itself." "the extractive engine's transcript says no request was sent"
like "$(q '.transcript.a.system')" 'question-answering' "the demo's system prompt, kept by merge --keep-texts"
if [ "$(q '[.pairs[] | select(.facts | length > 0)] | length')" -gt 0 ]; then
	like "$(q '[.pairs[] | .facts[] | join("|")] | unique | join(";")')" 'warmup_prompt_count[^|]*\|3\|1' "the drifted twin's changed default, side by side"
	like "$(q '.fact_marks | join(" ")')" 'fact fact-a:3.*fact fact-b:1|fact fact-b:1.*fact fact-a:3' "... located in both contexts"
else
	skip "the demo's changed facts: its records carry no facts_changed (bctx before fact drift)"
	skip "the demo's changed facts located: no facts_changed in its records"
fi
done_testing
