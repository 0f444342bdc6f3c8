#!/bin/sh
# bstats --html and the figures in headless Chromium (browser-e2e.js over the
# DevTools protocol): the page loads nothing, runs under its strict CSP
# without an error, renders the report and figures, filters, sorts and opens
# a pair with the keyboard, and shows hostile data as text; every figure
# keeps its labels inside the figure and apart.  Screenshots: BSTATS_SHOTS=DIR.
. "${0%/*}/../lib/tap.sh"
B=$(prog bstats)

# A study whose records carry what merge --keep-texts keeps, with hostile text.
python3 - "$T/study.ndjson" <<'PY'
import json, random, sys
rng = random.Random(5)
evil = '<img src=x onerror="window.__pwned=1">'
with open(sys.argv[1], "w") as f:
    for q in range(24):
        site = "S%d" % (q // 2 + 1) if q < 20 else evil
        for m in ("llama-8b", "qwen-14b"):
            for c in "AB":
                fa = rng.randint(0, 3)
                f.write(json.dumps({"site_id": site, "question_id": "Q%02d" % q, "model_id": m,
                    "condition": c, "complexity": ("single-fact", "conceptual-relationship")[q % 2],
                    "tier": "small" if m == "llama-8b" else "medium", "sector": "SaaS",
                    "question_text": "What does option %d do? </script><script>window.__pwned=1</script>" % q,
                    "gold_answer": "It sets <b>%d</b> & more." % q,
                    "content": ("Condition %s text of Q%d. " % (c, q)) * 20,
                    "response_text": "Answer %s%d <script>window.__pwned=1</script>" % (c, q),
                    "response_id": "R%d%s%s" % (q, m, c),
                    "factual_accuracy": fa, "hallucination_count": rng.randint(0, 2),
                    "completeness": rng.randint(0, 1), "citation_fidelity": None,
                    "input_token_count": rng.randint(900, 2000) if c == "A" else rng.randint(300, 1100),
                    "gold_coverage": round(rng.random(), 3),
                    "exclusion_reason": "JS_ONLY" if (q == 3 and c == "A") else None}) + "\n")
PY
run "$B" --html "$T/page.html" -f "$T/fig" -r "$T/report.md" "$T/study.ndjson"
expect_status 0 "bstats --html writes the results browser"
H=$(cat "$T/page.html")
like "$H" "script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-" "a strict CSP: the inline script and style by digest only"
unlike "$H" "unsafe-inline|unsafe-eval" "no unsafe-inline, no unsafe-eval"
is "$(grep -c '</script>' "$T/page.html")" 2 "a </script> in the data does not end the data element"
unlike "$H" '<img src=x' "no markup from the data in the page source"
is "$(grep -o 'https\?://[^" ]*' "$T/page.html" | sort -u | grep -v '^http://www.w3.org/2000/svg$')" "" "no network address in the page but the SVG namespace: it opens from disk"
sed 's/@CSS@/x/' "$TOP/share/bstats/browser.html" >/dev/null
mkdir -p "$T/share/bstats" && cp "$TOP"/share/bstats/* "$T/share/bstats/" && printf 'var a = "</b>";\n' >>"$T/share/bstats/browser.js"
CTXBENCH_SHARE=$T/share run "$B" --html "$T/bad.html" "$T/study.ndjson"
expect_status 1 "a page script holding </ is refused"
like "$err" 'browser.js or browser.css contains' "... with a message"
run "$B" --html - "$T/study.ndjson"
like "$out" '<!DOCTYPE html>' "--html - writes to standard output"

. "$TOP/tests/lib/chromium.sh"
if why=$(no_browser); then
	skip "the browser tests: $why"
	done_testing
	exit 0
fi

mkdir -p "$T/profile" "${BSTATS_SHOTS:=$T/shots}"
start_chromium --headless
pass "chromium started with a DevTools port"
obs=$(timeout 300 node --experimental-websocket "$TOP/tests/bstats/browser-e2e.js" "$port" "$T/page.html" "$T/fig" \
	"$BSTATS_SHOTS" 2>"$T/e2e.err")
erc=$?
is "$erc" 0 "the figures and the page were driven to the end"
[ $erc -eq 0 ] || diag "$(cat "$T/e2e.err")"
stop_chromium
q() { printf '%s\n' "$obs" | jq -r "$1"; }

for f in accuracy-by-condition fig4-tokens-vs-accuracy forest-tier-complexity site-token-deltas; do
	is "$(q ".figures[\"$f.svg\"].outside | join(\"; \")")" "" "$f: every label inside the figure"
	is "$(q ".figures[\"$f.svg\"].overlaps | join(\"; \")")" "" "$f: no two labels overlap"
	ok test -s "$BSTATS_SHOTS/$f.png"
done

is "$(q '.page.requests | length')" 0 "the page requests nothing from the network"
is "$(q '.page.exceptions | length')" 0 "no script error"
is "$(q '[.page.console[] | select(test("Content Security Policy|Refused"))] | length')" 0 "no CSP violation"
like "$(q '.page.report_headings')" '^[1-9][0-9]+$' "the report is rendered from its Markdown"
like "$(q '.page.report_tables')" '^[1-9][0-9]*$' "... with its tables"
like "$(q '.page.sign')" 'positive = Condition B better' "the page states the sign convention"
is "$(q '.page.figures')" 4 "the four figures inline"
is "$(q '.page.count')" "48 of 48 pairs" "every (site, question, model) of the study, excluded ones too"
is "$(q '.page.site_options | join(" ")')" '<img src=x onerror="window.__pwned=1"> S1 S2 S3 S4 S5 S6 S7 S8 S9 S10' "sites in natural order in the filter"
is "$(q '.page.count_site')" "4 of 48 pairs" "a site filter"
is "$(q '.page.sites_shown | join(" ")')" "S1" "... shows that site only"
is "$(q '.page.outcomes_b | join(" ")')" "B better" "the outcome filter shows only pairs where B is better"
is "$(q '.page.deltas_desc as $d | [range(1; $d | length) | select($d[.] > $d[. - 1])] | length')" 0 "sorted by Δ tokens, B better first"
is "$(q '.page.opened.expanded')" true "a pair opens with the keyboard"
like "$(q '.page.opened.question')" '</script><script>window.__pwned=1</script>' "hostile question text is shown as text"
is "$(q '.page.opened.site_cell')" '<img src=x onerror="window.__pwned=1">' "a hostile site_id is shown as text"
is "$(q '.page.opened.responses | length')" 2 "both responses"
like "$(q '.page.opened.contents[0]')" '^Condition A content \([0-9]+ characters\)$' "the content of each condition, collapsible"
like "$(q '.page.open_content')" '^[1-9][0-9]+$' "... which opens"
is "$(q '.page.injected | [.imgs, .scripts, .pwned] | map(tostring) | join(" ")')" "0 2 false" "no element and no script came from the data"
done_testing
