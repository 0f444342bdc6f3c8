#!/bin/sh
# bmdprep.sh - `make bench` for bmdprep (issues 5, 16): llms.txt parsing
# and create_ctx against the llms.txt reference implementation itself, and
# parsing and Markdown preparation against marked 18 (npm), the usual
# JavaScript Markdown lexer, on the same files in the same run.
#
# The reference (AnswerDotAI/llms-txt with fastcore) is plain Python run
# from its sources by tests/bench/llmstxt_ref.py under Debian's python3; no
# registry reachable here serves them, so they are read from the study's
# shared data, $CTXBENCH_SHARED/conformance/llmstxt/reference/{llms_txt,
# fastcore}, and the bench says so when they are absent.  Against the
# reference both sides run in process (see "the llms.txt reference itself"
# below): bmdprep's library code in a loop in one process (llmsbench.c),
# the reference's functions in one Python process, CPU time, with the
# outputs compared byte for byte in the same run.  For marked, the
# other side is what a researcher would otherwise script: marked's
# lexer, H2 sections and list-item links taken from its tokens, and for
# Markdown a regex pass removing comments and base64 images.  Each side runs
# in one process over ROUNDS rounds of: the conformance corpus llms.txt
# files, a generated 7,000-link llms.txt and a generated 1.5 MB Markdown page.
# Prints files per second of each side and the ratio, and how many links
# each side found (agreement check).  marked is installed into
# $CTXBENCH_BUILD/bench-node.
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
BMDPREP=${CTXBENCH_BMDPREP:-$BUILD/bin/bmdprep}
SHARED=${CTXBENCH_SHARED:-$TOP/../shared}
CONF=$SHARED/conformance/llmstxt
if [ ! -d "$CONF/corpus" ]; then
	echo "bmdprep bench: no llms.txt conformance data in $CONF (CTXBENCH_SHARED); skipped"
	exit 0
fi
ROUNDS=${BMDPREP_BENCH_ROUNDS:-20}
NODE_DIR=$BUILD/bench-node

. "$TOP/tests/bench/bench-lib"
bench_npm "$NODE_DIR" marked@18

W=$(mktemp -d "${TMPDIR:-/tmp}/bmdprep-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
sh "$TOP/tests/bench/llms-inputs" "$W"
ls "$CONF"/corpus/*.txt "$CONF"/golden/*-llms.txt "$W/links.txt" >"$W/llms.list"
nl=$(wc -l <"$W/llms.list" | tr -d ' ')

now() { date +%s.%N; }

# bmdprep: all llms.txt files ROUNDS times in one process, then the page
bench_repeat "$W/llms.list" "$ROUNDS" >"$W/llms.all"
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$W/llms.all"
t0=$(now)
"$BMDPREP" --llms "$@" >"$W/c.ndjson"
t1=$(now)
echo "$W/page.md" >"$W/page.list"
bench_repeat "$W/page.list" "$ROUNDS" >"$W/page.all"
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$W/page.all"
t2=$(now)
"$BMDPREP" --raw "$@" >/dev/null
t3=$(now)
clinks=$(grep -c '"kind":"link"' "$W/c.ndjson" || :)

cat >"$W/ref.mjs" <<'JSEOF'
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(process.argv[2] + '/');
const { marked } = require('marked');
const [, , , listFile, page, roundsS] = process.argv;
const files = readFileSync(listFile, 'utf8').trim().split('\n');
const rounds = Number(roundsS);
let links = 0;
const linkRe = /\[([^\]]+)\]\(([^)\s]+)[^)]*\)(?:\s*:\s*(.*))?/;
const t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++)
	for (const f of files) {
		const toks = marked.lexer(readFileSync(f, 'utf8'));
		let inSection = false;
		for (const t of toks) {
			if (t.type === 'heading') inSection = t.depth === 2;
			else if (inSection && t.type === 'list')
				for (const it of t.items) if (linkRe.test(it.text)) links++;
		}
	}
const t1 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) {
	let s = readFileSync(page, 'utf8').replace(/\r\n?/g, '\n');
	s = s.replace(/<!--[\s\S]*?-->/g, '');
	s = s.replace(/!\[[^\]]*\]\(data:image\/[^)]*\)/g, '');
	s = s.replace(/<img[^>]*src=["']data:image\/[^>]*>/gi, '');
	s = s.replace(/\n{4,}/g, '\n\n\n');
	marked.lexer(s);
}
const t2 = process.hrtime.bigint();
console.log(`${Number(t1 - t0) / 1e9} ${Number(t2 - t1) / 1e9} ${links / rounds}`);
JSEOF
set -- $(node "$W/ref.mjs" "$NODE_DIR/node_modules" "$W/llms.list" "$W/page.md" "$ROUNDS")
rl=$1 rm=$2 rlinks=$3

mb=$(wc -c <"$W/page.md" | awk '{ printf "%.2f", $1 / 1048576 }')
awk -v n="$nl" -v R="$ROUNDS" -v mb="$mb" -v a0="$t0" -v a1="$t1" -v a2="$t2" -v a3="$t3" \
    -v rl="$rl" -v rm="$rm" -v clinks="$clinks" -v rlinks="$rlinks" 'BEGIN {
	cl = a1 - a0; cm = a3 - a2
	printf "llms.txt parsing: %d files x %d rounds\n", n, R
	printf "  bmdprep --llms   %10.1f files/s (%d links per round)\n", n * R / cl, clinks / R
	printf "  marked lexer     %10.1f files/s (%d links per round)\n", n * R / rl, rlinks
	printf "  speed ratio bmdprep/marked: %.2f\n", rl / cl
	printf "Markdown preparation: %.2f MB page x %d rounds\n", mb, R
	printf "  bmdprep          %10.1f MB/s\n", mb * R / cm
	printf "  regex + marked   %10.1f MB/s\n", mb * R / rm
	printf "  speed ratio bmdprep/reference: %.2f\n", rm / cm
}'

# ---- the llms.txt reference itself, in process on both sides.
# The reference is timed inside one Python process over RR rounds
# (llmstxt_ref.py: CPU time, no interpreter start-up).  bmdprep's side is
# likewise timed inside one process: llmsbench (tests/bench/llmsbench.c,
# built by tests/bench/llmsbench-build) links bmdprep's own library code
# and runs the same functions as bmdprep --llms -r and --ctx in a loop of
# RR rounds, CPU time (user + system), no process start-up.  Per input kind (the corpus
# files the reference accepts, the 7,000-link file, the 1.5 MB page): the
# time of each side, the ratio, and whether the outputs are byte-identical
# in this run: parse as bmdprep --llms -r --dump prints it against the
# reference's result as JSON, create_ctx(optional=True) against bmdprep's
# context, _doc()'s line filter of the page against bmdprep -r's.  The page
# runs PR rounds (100) on both sides: a round takes about a millisecond in
# C, and the first rounds' page faults on the 1.5 MB output would
# otherwise weigh more than the filter.
REF=$CONF/reference
RR=${BMDPREP_REF_ROUNDS:-20}
if [ ! -f "$REF/llms_txt/core.py" ] || [ ! -f "$REF/fastcore/xml.py" ]; then
	echo "llms.txt reference: its sources are not in $REF"
	echo "  (llms_txt/ and fastcore/ of the versions the conformance data names);"
	echo "  no ratio against the reference in this run"
	exit 0
fi
LB=$(sh "$TOP/tests/bench/llmsbench-build")
PR=${BMDPREP_PAGE_ROUNDS:-100}
/usr/bin/python3 "$TOP/tests/bench/llmstxt_ref.py" "$REF" "$RR" "$W" \
    $(cat "$W/llms.list") >"$W/ref.txt" 2>"$W/ref.err"
/usr/bin/python3 "$TOP/tests/bench/llmstxt_ref.py" "$REF" "$PR" "$W" \
    --page "$W/page.md" >>"$W/ref.txt"
grep -v '^page ' "$W/ref.txt" | while read -r rp rc nlinks bytes n f; do
	kind=corpus
	[ "$f" = "$W/links.txt" ] && kind=links
	cp=$("$LB" parse "$RR" "$W/$n.count" "$f")
	cc=$("$LB" ctx "$RR" "$W/$n.got" "$W/$n.docs.ndjson" "$f")
	"$BMDPREP" --llms -r --dump "$f" >"$W/$n.dump"
	same=1
	cmp -s "$W/$n.dump" "$W/$n.parse.json" || same=0
	cmp -s "$W/$n.got" "$W/$n.ctx.xml" || same=0
	echo "$kind $rp $cp $rc $cc $same"
done >"$W/both.txt"
grep '^page ' "$W/ref.txt" | {
	read -r _ rpage pbytes _
	cpage=$("$LB" page "$PR" "$W/page.got" "$W/page.md")
	same=1; cmp -s "$W/page.got" "$W/page.out" || same=0
	echo "page $rpage $cpage $pbytes $same"
} >>"$W/both.txt"
uptime | sed 's/^ */machine: /'
awk -v R="$RR" -v PR="$PR" -v rej="$(wc -l <"$W/ref.err" | tr -d ' ')" '
function ratio(a, b) { return b > 0 ? a / b : 0 }
$1 == "page" { pr = $2; pc = $3; pb = $4; ps = $5; next }
{
	k = $1; n[k]++; rp[k] += $2; cp[k] += $3; rc[k] += $4; cc[k] += $5
	if (!$6) diff[k]++
}
END {
	printf "llms.txt reference against bmdprep, both in process, %d rounds, CPU seconds:\n", R
	printf "  (%d corpus files the reference rejects are left out)\n", rej
	split("corpus links", kinds, " ")
	for (j = 1; j <= 2; j++) {
		k = kinds[j]
		printf "  %-6s %2d file(s), outputs %s\n", k == "links" ? "7,000-link" : "corpus",
		    n[k], diff[k] ? "DIFFER on " diff[k] : "byte-identical"
		printf "      parse       reference %8.4f s  bmdprep %8.4f s  ratio %6.1f\n", rp[k], cp[k], ratio(rp[k], cp[k])
		printf "      create_ctx  reference %8.4f s  bmdprep %8.4f s  ratio %6.1f\n", rc[k], cc[k], ratio(rc[k], cc[k])
	}
	printf "  page %.2f MB, %d rounds, output %s\n", pb / 1048576, PR, ps ? "byte-identical" : "DIFFERS"
	printf "      _doc filter reference %8.4f s  bmdprep %8.4f s  ratio %6.1f\n", pr, pc, ratio(pr, pc)
}' "$W/both.txt"
