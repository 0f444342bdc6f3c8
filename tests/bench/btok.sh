#!/bin/sh
# btok.sh - make bench for btok: single-thread throughput per family against
# Hugging Face tokenizers (npm "tokenizers" 0.23.2, Rust core, installed under
# $CTXBENCH_BUILD/btok-ref), cold start with a compiled cache, memory, and
# linearity on pathological lines.  Both sides run here, in this run, on the
# same text; the ratios are printed, never asserted.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
btok=${CTXBENCH_BTOK:-$build/bin/btok}
ref=$build/btok-ref
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
sh "$top/tools/btok/deps.sh"
sh "$top/tests/btok/ref-install.sh" "$ref"
w=$(mktemp -d "${TMPDIR:-/tmp}/btok-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT

now() { date +%s%N; }
ms() { echo "$1 $2" | awk '{ printf "%.1f", ($2 - $1) / 1e6 }'; }

# Mixed documentation-like text: prose, Markdown, code, CJK, emoji, HTML-derived.
c=$top/tests/btok/corpus
: >"$w/one"
for f in prose.txt markdown.md html-derived.txt cjk.txt emoji.txt combining.txt code.c \
    numbers.txt scripts.txt special.txt mixed-case.txt crlf.txt; do cat "$c/$f" >>"$w/one"; done
cat "$top"/man/*.[1-9] >>"$w/one"
i=0
: >"$w/text"
while [ "$(wc -c <"$w/text")" -lt 4000000 ]; do cat "$w/one" >>"$w/text"; i=$((i + 1)); done
bytes=$(wc -c <"$w/text")
mb=$(echo "$bytes" | awk '{ printf "%.2f", $1 / 1048576 }')
echo "text: $mb MB of mixed documentation text"
printf 'x' >"$w/tiny"

printf '%-8s %10s %10s %8s %10s %10s %9s %9s\n' family btok_MB/s ref_MB/s ratio btok_start ref_load btok_RSS ref_RSS
for fam in llama3 qwen3 gemma3 mistral; do
	"$btok" -t "$fam" "$w/tiny" >/dev/null	# build the compiled cache
	# btok: whole run on the text minus a run on one byte = encoding time.
	t0=$(now); n=$("$btok" -r -t "$fam" "$w/text"); t1=$(now)
	"$btok" -r -t "$fam" "$w/tiny" >/dev/null; t2=$(now)
	enc=$(echo "$t0 $t1 $t2" | awk '{ e = ($2 - $1) - ($3 - $2); if (e < 1e5) e = 1e5; print e / 1e6 }')
	bt=$(echo "$bytes $enc" | awk '{ printf "%.1f", $1 / 1048576 / ($2 / 1000) }')
	# cold start with the compiled cache: best of 5 runs on one byte
	best=999999
	for k in 1 2 3 4 5; do
		t0=$(now); "$btok" -t "$fam" "$w/tiny" >/dev/null; t1=$(now)
		d=$(ms "$t0" "$t1"); best=$(echo "$best $d" | awk '{ print ($2 < $1) ? $2 : $1 }')
	done
	brss=$(/usr/bin/time -f %M "$btok" -t "$fam" "$w/tiny" 2>&1 >/dev/null | tail -n 1)
	# reference: load time, encode time, count
	set -- $(NODE_PATH=$ref/node_modules node "$top/tests/btok/ref.js" bench "$tok" "$top/share/btok" "$fam" "$w/text" 1)
	rload=$1 renc=$2 rn=$3
	rt=$(echo "$bytes $renc" | awk '{ printf "%.1f", $1 / 1048576 / ($2 / 1000) }')
	rrss=$(NODE_PATH=$ref/node_modules /usr/bin/time -f %M node "$top/tests/btok/ref.js" bench "$tok" "$top/share/btok" "$fam" "$w/tiny" 1 2>&1 >/dev/null | tail -n 1)
	ratio=$(echo "$bt $rt" | awk '{ printf "%.1fx", $1 / $2 }')
	printf '%-8s %10s %10s %8s %8sms %8sms %7sMB %7sMB\n' "$fam" "$bt" "$rt" "$ratio" "$best" "$rload" \
	    "$((brss / 1024))" "$((rrss / 1024))"
	[ "$n" = "$rn" ] || echo "  COUNT DIFFERS on the bench text: btok $n, reference $rn"
done

# Linearity: time doubles when the input doubles.
python3 - "$w" <<'PY'
import sys
w = sys.argv[1]
for n in (1, 2):
    open(f"{w}/nospace{n}", "w").write("".join(chr(97 + (i * 7) % 26) for i in range(1048576 * n)))
    open(f"{w}/run{n}", "w").write("a" * (102400 * n))
    open(f"{w}/digits{n}", "w").write("7" * (102400 * n))
PY
echo "linearity (seconds for N and 2N; a ratio near 2 is linear):"
for fam in llama3 qwen3 gemma3 mistral; do
	for kind in nospace run digits; do
		t0=$(now); "$btok" -r -t "$fam" "$w/${kind}1" >/dev/null; t1=$(now)
		"$btok" -r -t "$fam" "$w/${kind}2" >/dev/null; t2=$(now)
		echo "$fam $kind $t0 $t1 $t2" | awk '{ a = ($4 - $3) / 1e9; b = ($5 - $4) / 1e9;
		    printf "  %-8s %-8s %7.3f s %7.3f s  ratio %.2f\n", $1, $2, a, b, b / a }'
	done
done
