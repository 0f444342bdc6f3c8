#!/bin/sh
# The re-archive drift follow-up (spec 001 §7 L-SL-2) on the example site's
# two versions: the demo pipeline with VARIANTS=1 archives build/site, then
# build/site-v2 (examples/site/build.py --version 2) at the same address,
# and bctx drift must classify each page exactly as build.py's later
# version changed it (V2_EDITS, V2_GONE, V2_NEW_TWIN, read from build.py);
# the rates and the report's words follow.  Without VARIANTS, nothing of it.
. "${0%/*}/../lib/tap.sh"
[ -s "$CTXBENCH_BUILD/site-v2/llms.txt" ] || skip_all "no site-v2 in the build directory (make builds it)"
O=$T/demo
rc=0
OUT=$O VARIANTS=1 sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "the demo pipeline runs with VARIANTS=1" || sed 's/^/# /' "$T/log" | tail -n 20
D=$O/drift.ndjson
ok test -s "$D"

# What build.py --version 2 changed, page by page: (path, condition, status).
# An HTML page of the later version carries the later navigation (the gone
# page left the sidebar), so one whose content did not change is
# same_content; a Markdown twin not edited is byte for byte the same.
python3 - "$TOP/examples/site/build.py" "$O/pages-a.ndjson" "$O/pages-b.ndjson" \
    "$O/drift/pages-b.ndjson" >"$T/expected" <<'PY'
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("build", sys.argv[1])
b = importlib.util.module_from_spec(spec)
spec.loader.exec_module(b)
def name(url):
    p = url.split("/docs/", 1)[1]
    p = p[:-3] if p.endswith(".md") else p
    return p or "index"
edits = {}
for page, _, _, where in b.V2_EDITS:
    edits.setdefault(page, set()).update(["html", "md"] if where == "both" else [where])
seen = set()
rows = []
for f in sys.argv[2:]:
    for line in open(f):
        r = json.loads(line)
        n, c = name(r["url"]), r["condition"]
        if (n, c) in seen:
            continue
        seen.add((n, c))
        side = "html" if c == "A" else "md"
        if n in b.V2_GONE:
            st = "gone"
        elif c == "B" and n in b.V2_NEW_TWIN:
            st = "new"
        elif c == "A" and (n in b.JS_ONLY or r["fetch_status"] != "SUCCESS"):
            st = "excluded"
        elif side in edits.get(n, ()):
            st = "changed"
        else:
            st = "same_content" if c == "A" else "unchanged"
        rows.append("%s %s %s" % (n, c, st))
print("\n".join(sorted(rows)))
PY
jq -r 'select(.kind == "drift_page") | "\(.url | split("/docs/")[1] | sub("\\.md$"; "") | if . == "" then "index" else . end) \(.condition) \(.status)"' "$D" |
    sort >"$T/got"
is "$(cat "$T/got")" "$(cat "$T/expected")" "each page classified as build.py --version 2 changed it"
is "$(grep -c . "$T/expected")" 34 "... all 34 pages of both snapshots (17 A, 16 B, the new twin)"
is "$(jq -c 'select(.kind == "drift_page" and (.url | endswith("/docs/reference/config"))) | .facts_changed' "$D")" \
    '[{"kind":"cell","key":"fetch_timeout_seconds | default","old":"30","new":"60"}]' \
    "the changed default found on the HTML page: fetch_timeout_seconds 30 -> 60"
like "$(jq -c 'select(.kind == "drift_page" and (.url | endswith("/docs/reference/config.md"))) | .facts_changed' "$D")" \
    '"key":"fetch_timeout_seconds \| default","old":"30","new":"60"' "... and in its Markdown twin"
like "$(jq -c 'select(.kind == "drift_page" and (.url | endswith("/docs/guide/tokens"))) | .facts_changed' "$D")" \
    '"old":"mistral small 3.1","new":"mistral small 3.2"' "the changed version number, on the HTML page only"
like "$(jq -c 'select(.kind == "drift_page" and (.url | endswith("/docs/guide/archive.md"))) | .facts_changed' "$D")" \
    '"old":"1000 ms","new":"2000 ms"' "the default changed in the Markdown twin only"
is "$(jq -c 'select(.kind == "drift_page" and (.url | endswith("/docs/quickstart.md"))) | [.facts_changed_count, .words_removed > 0, .words_added > 0]' "$D")" \
    '[0,true,true]' "the reworded paragraph: no fact changed, words removed and added"
is "$(jq -r 'select(.kind == "drift_page" and (.url | endswith("/docs/faq.md"))) | .reason' "$D")" \
    "not in the new snapshot" "the gone twin left llms.txt, so the new plan does not fetch it"
is "$(jq -r 'select(.kind == "drift_page" and (.url | endswith("/docs/faq"))) | .reason' "$D")" \
    "HTTP_ERROR 404" "the gone HTML page answers 404"
# A: 15 usable pages (17 planned, the JS-only and the bot-walled excluded),
# 3 changed and 1 gone; B: 16 twins, 4 changed and 1 gone, 1 new
is "$(jq -c 'select(.kind == "drift_condition") | [.condition, .old_pages, .changed, .gone, .new, .excluded, .drift_rate]' "$D")" \
    '["A",15,3,1,0,2,0.2667]
["B",16,4,1,1,0,0.3125]' "the rates per condition: A 4/15, B 5/16"
is "$(jq -c 'select(.kind == "drift_site") | [.site_id, .condition, .drift_rate]' "$D" | tr '\n' ' ')" \
    '["S001","A",0.2667] ["S001","B",0.3125] ' "the rates of the one site"
R=$O/report.md
like "$(cat "$R")" "## Content drift between snapshots" "the report has the drift section"
like "$(cat "$R")" "Condition B \(the llms.txt Markdown\) drifted more than Condition A \(the HTML pages\): 5 of 16 pages changed or gone \(31\.2 %\) against 4 of 15 \(26\.7 %\)\." \
    "... saying which condition drifted more, with the counts"
like "$(cat "$R")" "\| fetch\\\\_timeout\\\\_seconds \\\\\| default \| 30 \| 60 \|" "... listing the changed default"

# two snapshots of different plans: named, exit 1
B=$(prog bctx)
jq -c '.site_id = "S002"' "$O/drift/pages-a.ndjson" >"$T/other-site.ndjson"
run "$B" drift --old "$O/pages-a.ndjson" --new "$T/other-site.ndjson"
expect_status 1 "a second snapshot of another site: exit 1"
like "$err" "pages-a.ndjson:1: site_id: site S001 has no page in the new snapshot: the snapshots are of different plans" \
    "... the first file, line and field named"
jq -c 'if .url | endswith("/docs/guide/tokens") then .question_ids = ["S001-Q99"] else . end' \
    "$O/drift/pages-a.ndjson" >"$T/other-questions.ndjson"
run "$B" drift --old "$O/pages-a.ndjson" --new "$T/other-questions.ndjson"
expect_status 1 "a second snapshot planned for other questions: exit 1"
like "$err" "other-questions.ndjson:3: question_ids: \[\"S001-Q99\"\], where the old snapshot has \[\"S001-Q03\"\]" \
    "... the page's line and field named"

# the study Makefile: make extract on the site, then, the site replaced by
# its later version at the same address, make drift and make first-pass
pid=""
stop() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; pid=""; return 0; }
at_exit stop
serve() {	# ROOT PORT
	rm -f "$T/port"
	python3 "$TOP/examples/serve.py" --root "$1" --port "$2" --port-file "$T/port" >/dev/null 2>&1 &
	pid=$!
	_i=0
	while [ ! -s "$T/port" ]; do
		_i=$((_i + 1)); [ $_i -le 200 ] || { echo "Bail out! the example server did not start"; exit 1; }
		sleep 0.05
	done
}
serve "$CTXBENCH_BUILD/site" 0
port=$(cat "$T/port")
C=$T/corpus
mkdir -p "$C"
for f in site-list.csv questions.json gold-answers.json benchmark-config.json; do
	sed "s|https://docs.ctxbench.example|http://127.0.0.1:$port|g" "$TOP/examples/$f" >"$C/$f"
done
study() {
	make -s -C "$TOP/examples/study" CORPUS="$C" OUT="$T/study" BIN="$CTXBENCH_BUILD/bin/" JOBS=2 \
	    MODELS=extractive-baseline "$@"
}
rc=0; study extract >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make extract: the first snapshot" || tail -n 20 "$T/log" | sed 's/^/# /'
stop
serve "$CTXBENCH_BUILD/site-v2" "$port"
rc=0; study drift >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make drift: the second snapshot into ARCHIVE2, then bctx drift" || tail -n 20 "$T/log" | sed 's/^/# /'
ok test -s "$T/study/archive2/manifest.ndjson"
is "$(jq -c 'select(.kind == "drift_condition") | [.condition, .drift_rate]' "$T/study/drift.ndjson" | tr '\n' ' ')" \
    '["A",0.2667] ["B",0.3125] ' "... the same rates as the demo's"
rc=0; study first-pass >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make first-pass after make drift" || tail -n 20 "$T/log" | sed 's/^/# /'
like "$(cat "$T/study/report.md")" "## Content drift between snapshots" "... its report has the drift section"
stop

# without VARIANTS the demo has no second snapshot and no drift section
rc=0
OUT=$T/plain sh "$TOP/examples/pipeline.sh" >"$T/log2" 2>&1 || rc=$?
is "$rc" 0 "the demo pipeline runs without VARIANTS"
ok test ! -e "$T/plain/drift.ndjson"
unlike "$(cat "$T/plain/report.md")" "Content drift" "... and its report has no drift section"
done_testing
