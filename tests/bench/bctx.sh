#!/bin/sh
# bctx's benchmark (make bench): plan and assemble over the real corpus
# (286 questions, 37 sites) with every planned page present as a synthetic
# record (about 6 KB of text or Markdown each), repeated R times, with the
# time of the join a researcher might script for scale: jq joining
# Condition A pages to questions by (site_id, url) and joining the texts
# with "---", on the same input in the same run.  It does far less than
# bctx assemble (no mapping, no Condition B, no checks), so no ratio is
# printed for it.  Then bctx assemble --style reference --all-links
# against the llms.txt reference's create_ctx itself (tests/bench/
# llmstxt_ref.py), both in process, on the conformance llms.txt files, a
# 7,000-link file and a 1.5 MB page (see below), when the
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
	printf "jq join of condition A alone, for scale only: %.1f ms\n", jq * 1000
	printf "  (not like with like, so no ratio: jq does no mapping, no condition B, no checks)\n"
}'

# ---- create_ctx: the llms.txt reference against bctx assemble --style
# reference, both in process, CPU time (user + system), no process or
# interpreter start-up on either side.  What each side does, per context:
#
#   reference, a round (tests/bench/llmstxt_ref.py): create_ctx(txt,
#     optional=True, n_workers=0) on the llms.txt text held in memory:
#     parse_llms_file; for every link the print of its dict (to
#     /dev/null), get_doc_content (find_file_parents('pyproject.toml'),
#     then the httpx.get stand-in answering from memory), _doc's line
#     filter (comment lines, base64 images) and a Doc; mk_ctx and to_xml
#     into one Python str, which stays in memory.  Not timed: reading the
#     llms.txt file, writing the context anywhere.
#   bctx, a call a round (tests/bench/llmsbench.c, bctx's own library
#     code, its page and link records read by flat.c): one bctx_assemble of `bctx assemble -q Q1 --condition B
#     --style reference --all-links --optional -l LINKS PAGES` for one
#     question: the question file, the link records (bmdprep --llms -r)
#     and the page records (each document archived with the reference's
#     body and prepared by bmdprep -r) read from their files and checked
#     as bctx assemble checks them, the mapping, the context rendered and
#     its whole record (the content escaped as JSON, content_chars, the
#     provenance of every page, the summary line) written to /dev/null.
#     Not timed: the llms.txt parse and the line filter, which are
#     bmdprep's, timed against the reference's own in tests/bench/
#     bmdprep.sh.
#   Each side runs once untimed before its rounds (the reference makes
#   the context it is compared with; bctx writes the record compared).
#
# So a call a round is the like-with-like ratio: each side goes from its
# inputs as the pipeline hands them to the context its user gets, once;
# bctx starts after bmdprep's work and ends with more (a JSON record
# written, not a string in memory).  The second ratio, bctx's one call
# over RR questions citing the llms.txt, reads the inputs once and writes
# RR contexts while the reference does all of its work RR times: a
# study's throughput, which flatters bctx (a researcher would call
# create_ctx once per llms.txt and reuse its string), printed apart.
# Per input kind: the conformance corpus llms.txt files the reference
# accepts, a 7,000-link llms.txt, and a one-link llms.txt whose document is
# a 1.5 MB page; the time of each side, the ratio, and whether bctx's
# context is byte-identical to the reference's, in this run.
CONF=$SHARED/conformance/llmstxt
REF=$CONF/reference
RR=${BCTX_REF_ROUNDS:-20}
BMDPREP=${CTXBENCH_BMDPREP:-$BUILD/bin/bmdprep}
if [ ! -f "$REF/llms_txt/core.py" ] || [ ! -f "$REF/fastcore/xml.py" ]; then
	echo "llms.txt reference: its sources are not in $REF; no create_ctx ratio in this run"
	exit 0
fi
LB=$(sh "$TOP/tests/bench/llmsbench-build")
mkdir -p "$W/ref"
sh "$TOP/tests/bench/llms-inputs" "$W"
printf '# Page\n\n> One long page.\n\n## Docs\n\n- [The page](https://example.org/page.md): all of it\n' >"$W/page-llms.txt"
$PY "$TOP/tests/bench/llmstxt_ref.py" "$REF" "$RR" "$W/ref" --page "$W/page.md" \
    "$CONF"/corpus/*.txt "$W/links.txt" "$W/page-llms.txt" >"$W/ref.txt" 2>/dev/null
# q1.json: one question citing the llms.txt; qR.json: RR such questions
$PY - "$RR" "$W" <<'PYEOF'
import json, sys
rounds, w = int(sys.argv[1]), sys.argv[2]
def qs(n):
    return [{'site_id': 'S001', 'domain': 'example.org', 'questions': [
        {'question_id': 'S001-Q%02d' % (i + 1), 'text': 'What?',
         'complexity': 'single-fact', 'source_sections': ['x'],
         'source_urls': ['https://example.org/llms.txt']} for i in range(n)]}]
json.dump(qs(1), open(w + '/q1.json', 'w'))
json.dump(qs(rounds), open(w + '/qR.json', 'w'))
PYEOF
grep -v '^page ' "$W/ref.txt" | while read -r rp rc nlinks bytes n f; do
	case $f in
	"$W/links.txt") kind=links ;;
	"$W/page-llms.txt") kind=page ;;
	*) kind=corpus ;;
	esac
	d=$W/ref/$n
	mkdir -p "$d/archive"
	"$BMDPREP" --llms -r --site-id S001 -b https://example.org/llms.txt "$f" \
	    >"$d/links.ndjson" 2>/dev/null || continue
	# each linked document archived with the reference's body, prepared
	# by bmdprep -r as the pipeline does (tests/bctx/bmdprep.t)
	$PY - "$d/links.ndjson" "$W/ref/$n.docs.ndjson" "$d" >"$d/manifest.ndjson" <<'PYEOF'
import json, os, sys
links, docs, d = sys.argv[1:]
body = {}
for line in open(docs):
    r = json.loads(line)
    body.setdefault(r['url'], r['text'])
k = 0
for line in open(links):
    r = json.loads(line)
    if r.get('kind') != 'link':
        continue
    with open(os.path.join(d, 'archive', '%d.md' % k), 'w') as f:
        f.write(body.get(r['href'], ''))
    print(json.dumps({'site_id': 'S001', 'url': r['url'], 'condition': 'B',
                      'fetch_status': 'SUCCESS', 'archive_path': '%d.md' % k}))
    k += 1
PYEOF
	"$BMDPREP" -r -a "$d/archive" "$d/manifest.ndjson" >"$d/pages.ndjson" 2>/dev/null || continue
	set -- --condition B --style reference --all-links --optional \
	    -l "$d/links.ndjson" "$d/pages.ndjson"
	cq=$("$LB" assemble 1 "$d/got.ndjson" -q "$W/qR.json" "$@" 2>/dev/null)
	cc=$("$LB" assemble "$RR" "$d/got1.ndjson" -q "$W/q1.json" "$@" 2>/dev/null)
	same=1
	jq -j .content "$d/got1.ndjson" >"$d/got"
	cmp -s "$d/got" "$W/ref/$n.ctx.xml" || same=0
	# every question of the one call got the same context
	[ "$(jq -s 'map(.content) | unique | length' "$d/got.ndjson")" = 1 ] || same=0
	jq -j 'select(.question_id == "S001-Q01") | .content' "$d/got.ndjson" >"$d/got"
	cmp -s "$d/got" "$W/ref/$n.ctx.xml" || same=0
	echo "$kind $rc $cq $cc $bytes $same"
done >"$W/both.txt"
uptime | sed 's/^ */machine: /'
awk -v R="$RR" '
function ratio(a, b) { return b > 0 ? a / b : 0 }
{ k = $1; n[k]++; rc[k] += $2; cq[k] += $3; cc[k] += $4; if (!$6) diff[k]++ }
END {
	printf "create_ctx(optional=True) against bctx assemble --style reference, both in process, %d rounds, CPU seconds:\n", R
	printf "  (a call a round, like with like: %d bctx_assemble calls of one question, each reading its inputs\n", R
	printf "   and writing its record, against %d create_ctx calls, each side after one untimed call;\n", R
	printf "   one call, throughput: one bctx_assemble over %d questions citing the llms.txt, its inputs read once)\n", R
	split("corpus links page", kinds, " ")
	split("corpus files|7,000-link file|1.5 MB page", names, "|")
	for (j = 1; j <= 3; j++) {
		k = kinds[j]
		printf "  %-16s %2d file(s), context %s\n", names[j], n[k],
		    diff[k] ? "DIFFERS on " diff[k] : "byte-identical"
		printf "      reference %8.4f s  bctx, a call a round %8.4f s  ratio %6.1f\n", rc[k], cc[k], ratio(rc[k], cc[k])
		printf "      reference %8.4f s  bctx, one call       %8.4f s  ratio %6.1f (throughput)\n", rc[k], cq[k], ratio(rc[k], cq[k])
	}
}' "$W/both.txt"
