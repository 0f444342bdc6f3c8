#!/bin/sh
# bctx's benchmark (make bench): plan and assemble over the real corpus
# (286 questions, 37 sites) with every planned page present as a synthetic
# record (about 6 KB of text or Markdown each), repeated R times.  The
# reference side is the join a researcher would otherwise script: jq
# joining Condition A pages to questions by (site_id, url) and joining the
# texts with "---" (no mapping, no Condition B, no checks), run in the same
# run on the same input.  No reference implementation of create_ctx can be
# installed here (it is a Python package; only Debian and npm are reachable).
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
BCTX=${CTXBENCH_BCTX:-$BUILD/bin/bctx}
CORPUS=${CTXBENCH_CORPUS:-$TOP/../shared/corpus}
[ -d "$CORPUS" ] || CORPUS=/work/shared/corpus
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
R=${BCTX_BENCH_R:-5}
W=$(mktemp -d "${TMPDIR:-/tmp}/bctx-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
Q=$CORPUS/questions.json S=$CORPUS/site-list.csv

$PY "$TOP/tests/bctx/corpus-links.py" "$Q" "$W"
"$BCTX" plan -q "$Q" -s "$S" -l "$W/links.ndjson" >"$W/jobs.ndjson"
$PY - "$W/jobs.ndjson" >"$W/pages.ndjson" <<'PYEOF'
import json, sys
para = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "
        "eiusmod tempor incididunt ut labore et dolore magna aliqua. ") * 50
for line in open(sys.argv[1]):
    j = json.loads(line)
    r = {"site_id": j["site_id"], "url": j["url"], "condition": j["condition"],
         "fetch_status": "SUCCESS", "http_status": 200,
         "archive_path": "x/" + j["site_id"], "last_modified": None}
    if j["condition"] == "A":
        r["text"] = para
    elif j["condition"] == "B":
        r["markdown"] = "# Page\n\n" + para + "\n"
    else:
        continue
    print(json.dumps(r))
PYEOF
npages=$(wc -l <"$W/pages.ndjson" | tr -d ' ')

now() { date +%s.%N; }
t0=$(now)
i=0; while [ $i -lt "$R" ]; do i=$((i + 1))
	"$BCTX" plan -q "$Q" -s "$S" -l "$W/links.ndjson" >/dev/null; done
t1=$(now)
i=0; while [ $i -lt "$R" ]; do i=$((i + 1))
	"$BCTX" assemble -q "$Q" -s "$S" -l "$W/links.ndjson" \
	    -c "$CORPUS/benchmark-config.json" "$W/pages.ndjson" >"$W/ctx.ndjson"; done
t2=$(now)
i=0; while [ $i -lt "$R" ]; do i=$((i + 1))
	jq -c -n --slurpfile q "$Q" --slurpfile p "$W/pages.ndjson" '
	  ($p | map(select(.condition=="A")) | map({key: (.site_id + " " + .url), value: .text}) | from_entries) as $idx
	  | $q[0][] | .site_id as $s | .questions[]
	  | {question_id, condition: "A",
	     content: ([.source_urls[] | $idx[$s + " " + .] // empty] | join("\n\n---\n\n"))}' >/dev/null; done
t3=$(now)
nctx=$(wc -l <"$W/ctx.ndjson" | tr -d ' ')
awk -v r="$R" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$nctx" -v p="$npages" 'BEGIN {
	plan = (b - a) / r; asm = (c - b) / r; jq = (d - c) / r
	printf "bctx plan (286 questions, 483 source URLs): %.1f ms\n", plan * 1000
	printf "bctx assemble (%d pages -> %d contexts, A and B): %.1f ms, %.0f contexts/s\n", p, n, asm * 1000, n / asm
	printf "jq join of condition A only (reference script): %.1f ms\n", jq * 1000
	printf "ratio jq / bctx assemble: %.2f\n", jq / asm
}'
