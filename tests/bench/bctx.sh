#!/bin/sh
# bctx's benchmark (make bench): plan and assemble over the real corpus
# (286 questions, 37 sites) with every planned page present as a synthetic
# record (about 6 KB of text or Markdown each), repeated R times.  The
# reference side is the join a researcher would otherwise script: jq
# joining Condition A pages to questions by (site_id, url) and joining the
# texts with "---" (no mapping, no Condition B, no checks), run in the same
# run on the same input.  Then bctx assemble --style reference --all-links
# against the llms.txt reference's create_ctx itself (tests/bench/
# llmstxt_ref.py, in process) on the conformance llms.txt files, when the
# reference's sources are in $CTXBENCH_SHARED/conformance/llmstxt/reference
# (no registry reachable here serves them; the bench says when they are
# absent).
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
BCTX=${CTXBENCH_BCTX:-$BUILD/bin/bctx}
SHARED=${CTXBENCH_SHARED:-$TOP/../shared}
CORPUS=$SHARED/corpus
if [ ! -f "$CORPUS/questions.json" ]; then
	echo "bctx bench: no shared corpus in $CORPUS (CTXBENCH_SHARED); skipped"
	exit 0
fi
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

# ---- create_ctx: the llms.txt reference against bctx assemble --style reference
CONF=$SHARED/conformance/llmstxt
REF=$CONF/reference
RR=${BCTX_REF_ROUNDS:-5}
BMDPREP=${CTXBENCH_BMDPREP:-$BUILD/bin/bmdprep}
if [ ! -f "$REF/llms_txt/core.py" ] || [ ! -f "$REF/fastcore/xml.py" ]; then
	echo "llms.txt reference: its sources are not in $REF; no create_ctx ratio in this run"
	exit 0
fi
mkdir -p "$W/ref"
$PY "$TOP/tests/bench/llmstxt_ref.py" "$REF" "$RR" "$W/ref" "$CONF"/corpus/*.txt \
    >"$W/ref.txt" 2>/dev/null
printf '%s\n' '[{"site_id":"S001","domain":"example.org","questions":[{"question_id":"S001-Q01","text":"What?","complexity":"single-fact","source_sections":["x"],"source_urls":["https://example.org/llms.txt"]}]}]' >"$W/q1.json"
while read -r rp rc nlinks bytes n f; do
	d=$W/ref/$n
	mkdir -p "$d"
	"$BMDPREP" --llms -r --site-id S001 -b https://example.org/llms.txt "$f" \
	    >"$d/links.ndjson" 2>/dev/null || continue
	# each linked document archived with the reference's body, prepared
	# by bmdprep -r as the pipeline does (tests/bctx/bmdprep.t)
	mkdir -p "$d/archive"
	jq -r --slurpfile docs "$W/ref/$n.docs.ndjson" -n '
	  ($docs | map({key: .url, value: .text}) | from_entries) as $b
	  | [inputs | select(.kind == "link")] | to_entries[]
	  | [(.key | tostring), .value.url, ($b[.value.href] // "")] | @json' \
	    "$d/links.ndjson" | while IFS= read -r row; do
		k=$(printf '%s' "$row" | jq -r '.[0]')
		printf '%s' "$row" | jq -j '.[2]' >"$d/archive/$k.md"
		printf '%s' "$row" | jq -c '{site_id: "S001", url: .[1], condition: "B",
		    fetch_status: "SUCCESS", archive_path: (.[0] + ".md")}'
	done >"$d/manifest.ndjson"
	"$BMDPREP" -r -a "$d/archive" "$d/manifest.ndjson" >"$d/pages.ndjson" || continue
	t0=$(now)
	i=0; while [ $i -lt "$RR" ]; do i=$((i + 1))
		"$BCTX" assemble -q "$W/q1.json" --condition B --style reference --all-links --optional \
		    "$d/links.ndjson" "$d/pages.ndjson" | jq -j .content >"$d/got"; done
	t1=$(now)
	same=1; cmp -s "$d/got" "$W/ref/$n.ctx.xml" || same=0
	echo "$rc $t0 $t1 $bytes $same ${f##*/}"
done <"$W/ref.txt" | sort -k4,4n >"$W/both.txt"
awk -v R="$RR" '{ rc[NR] = $1; cc[NR] = $3 - $2; by[NR] = $4; nm[NR] = $6; TR += $1; TC += $3 - $2; if (!$5) d++ }
END {
	printf "create_ctx(optional=True), %d rounds: the reference in process, bctx assemble --style reference a process per call\n", R
	printf "  %d files, output identical on %d; reference %.3f s, bctx %.3f s, ratio %.1f\n", NR, NR - d, TR, TC, TR / TC
	for (i = NR; i > NR - 3 && i > 0; i--)
		printf "  %-40s %7d bytes  ratio %6.1f\n", nm[i], by[i], rc[i] / cc[i]
}' "$W/both.txt"
