#!/bin/sh
# bmdprep.sh - `make bench` for bmdprep (issue 5): llms.txt parsing and
# Markdown preparation against marked 18 (npm), the usual JavaScript
# Markdown lexer, on the same files in the same run.
#
# The llms.txt reference implementation itself is a Python package and
# cannot be installed here (only Debian and npm are reachable), so the
# reference side is what a researcher would otherwise script: marked's
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
CONF=${CTXBENCH_CONFORMANCE:-$TOP/../shared/conformance/llmstxt}
[ -d "$CONF" ] || CONF=/work/shared/conformance/llmstxt
ROUNDS=${BMDPREP_BENCH_ROUNDS:-20}
NODE_DIR=$BUILD/bench-node

if [ ! -f "$NODE_DIR/node_modules/marked/package.json" ]; then
	echo "bench: installing marked@18 into $NODE_DIR"
	mkdir -p "$NODE_DIR"
	(cd "$NODE_DIR" && [ -f package.json ] || printf '{"private":true}\n' >package.json)
	(cd "$NODE_DIR" && npm install --no-audit --no-fund --silent marked@18)
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/bmdprep-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
awk 'BEGIN {
	print "# Big Site\n\n> Many links.\n"
	for (s = 0; s < 70; s++) {
		printf "## Section %d\n\n", s
		for (i = 0; i < 100; i++)
			printf "- [Page %d.%d](https://big.example.com/s%d/p%d.md): page %d\n", s, i, s, i, i
		print ""
	}
}' >"$W/links.txt"
awk 'BEGIN {
	for (i = 0; i < 20000; i++) {
		printf "Paragraph %d with `code` and a [link](https://e.org/%d).\n", i, i
		if (i % 50 == 0) print "<!-- a comment -->\n![img](data:image/png;base64,iVBORw0KGgo=)\n\n\n\n"
	}
}' >"$W/page.md"
ls "$CONF"/corpus/*.txt "$CONF"/golden/*-llms.txt "$W/links.txt" >"$W/llms.list"
nl=$(wc -l <"$W/llms.list" | tr -d ' ')

now() { date +%s.%N; }

# bmdprep: all llms.txt files ROUNDS times in one process, then the page
set --
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	while IFS= read -r f; do set -- "$@" "$f"; done <"$W/llms.list"
	r=$((r + 1))
done
t0=$(now)
"$BMDPREP" --llms "$@" >"$W/c.ndjson"
t1=$(now)
set --
r=0
while [ "$r" -lt "$ROUNDS" ]; do set -- "$@" "$W/page.md"; r=$((r + 1)); done
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
