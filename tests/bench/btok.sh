#!/bin/sh
# btok.sh - make bench for btok, against Hugging Face tokenizers (npm
# "tokenizers" 0.23.2, Rust core, installed under $CTXBENCH_BUILD/btok-ref),
# both sides in this run on the same text:
#  - throughput per tokenizer on a varied corpus (tests/bench/btok-corpus.py:
#    prose, code, Markdown, HTML, 200 languages, numbers; never one block
#    repeated), in CPU time (user + system), with identical ids checked;
#  - cold start (compiled cache) and peak memory of both;
#  - linearity: 10 MB and 20 MB without a space, of one repeated character,
#    of digits (2x input should take at most 2.1x time);
#  - bad input: a 100 MB field, a 16 MB word, a 40 MB word (a clear error).
# The ratios are printed, never asserted.  CPU time, not wall time, because
# the machine may be shared; a loaded machine still makes the numbers noisy.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
btok=${CTXBENCH_BTOK:-$build/bin/btok}
ref=$build/btok-ref
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
names="llama3 qwen3 gemma3 mistral mistral-v3"
sh "$top/tools/btok/deps.sh"
sh "$top/tests/btok/ref-install.sh" "$ref"
w=$(mktemp -d "${TMPDIR:-/tmp}/btok-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT
export TOKENIZERS_PARALLELISM=false

cpu() {	# command...: CPU seconds (user + system) and peak RSS in kB
	/usr/bin/time -f '%U %S %M' -o "$w/time" "$@" >"$w/cpu.out"
	awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$w/time"
}
refjs() { NODE_PATH=$ref/node_modules node "$top/tests/btok/ref.js" "$@"; }

/usr/bin/python3 "$top/tests/bench/btok-corpus.py" "$w/text" 6
bytes=$(wc -c <"$w/text")
mb=$(echo "$bytes" | awk '{ printf "%.2f", $1 / 1048576 }')
echo "text: $mb MB of varied text (prose, code, Markdown, HTML, 200 languages, numbers)"
printf 'x' >"$w/tiny"

printf '%-10s %9s %9s %7s %10s %9s %9s %9s  %s\n' tokenizer btok_MB/s ref_MB/s ratio btok_start \
    ref_load btok_RSS ref_RSS ids
for t in $names; do
	"$btok" -t "$t" "$w/tiny" >/dev/null	# build the compiled cache
	set -- $(cpu "$btok" -r -t "$t" "$w/text"); bs=$1 brss=$2
	"$btok" -r -i -t "$t" "$w/text" >"$w/btok.ids"
	set -- $(cpu "$btok" -r -t "$t" "$w/tiny"); b0=$1
	bt=$(echo "$bytes $bs $b0" | awk '{ e = $2 - $3; if (e < 0.001) e = 0.001; printf "%.1f", $1 / 1048576 / e }')
	best=999999
	for k in 1 2 3 4 5; do
		t0=$(date +%s%N); "$btok" -t "$t" "$w/tiny" >/dev/null; t1=$(date +%s%N)
		best=$(echo "$best $t0 $t1" | awk '{ d = ($3 - $2) / 1e6; printf "%.1f", d < $1 ? d : $1 }')
	done
	set -- $(refjs bench "$tok" "$top/share/btok" "$t" "$w/text" 1); rload=$1 renc=$2
	rt=$(echo "$bytes $renc" | awk '{ printf "%.1f", $1 / 1048576 / ($2 / 1000) }')
	set -- $(cpu env NODE_PATH="$ref/node_modules" node "$top/tests/btok/ref.js" ids "$tok" \
	    "$top/share/btok" "$t" "$w/text"); rrss=$2
	same=identical
	cmp -s "$w/btok.ids" "$w/cpu.out" || same=DIFFER
	ratio=$(echo "$bt $rt" | awk '{ printf "%.1fx", $1 / $2 }')
	printf '%-10s %9s %9s %7s %8sms %7.0fms %7sMB %7sMB  %s\n' "$t" "$bt" "$rt" "$ratio" "$best" \
	    "$rload" "$((brss / 1024))" "$((rrss / 1024))" "$same"
done

# Linearity: CPU time for N and 2N bytes.
/usr/bin/python3 - "$w" <<'PY'
import sys
w = sys.argv[1]
for n in (1, 2):
    size = 10485760 * n
    open(f"{w}/nospace{n}", "w").write("".join(chr(97 + (i * 7) % 26) for i in range(size)))
    open(f"{w}/run{n}", "w").write("a" * size)
    open(f"{w}/digits{n}", "w").write("7" * size)
PY
echo "linearity, CPU seconds for 10 MB and 20 MB (ratio at most 2.1 is linear):"
for t in $names; do
	for kind in nospace run digits; do
		set -- $(cpu "$btok" -r -t "$t" "$w/${kind}1"); a=$1 ma=$2
		set -- $(cpu "$btok" -r -t "$t" "$w/${kind}2"); b=$1 mb2=$2
		echo "$t $kind $a $b $ma $mb2" | awk '{ printf "  %-10s %-8s %7.2f s %7.2f s  ratio %.2f  RSS %d/%d MB\n",
		    $1, $2, $3, $4, $4 / $3, $5 / 1024, $6 / 1024 }'
	done
done

# Bad input: a 100 MB field, a 16 MB word, a 40 MB word.
/usr/bin/python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
text = open(f"{w}/text", encoding="utf-8").read()
big = (text * (104857600 // len(text.encode()) + 1))[:104857600]
with open(f"{w}/field.ndjson", "w") as f:
    f.write(json.dumps({"content": big}, ensure_ascii=False) + "\n")
open(f"{w}/word16", "w").write("".join(chr(97 + (i * 11) % 26) for i in range(16 << 20)))
open(f"{w}/word40", "w").write("b" * (40 << 20))
PY
echo "bad input (llama3):"
set -- $(cpu "$btok" -t llama3 -o "$w/field.out" "$w/field.ndjson")
echo "  100 MB field: $1 s CPU, RSS $(($2 / 1024)) MB, $(jq .tokens.llama3 "$w/field.out") tokens"
set -- $(cpu "$btok" -r -t llama3 "$w/word16")
echo "  16 MB word: $1 s CPU, RSS $(($2 / 1024)) MB, $(cat "$w/cpu.out") tokens"
if "$btok" -r -t llama3 "$w/word40" >/dev/null 2>"$w/err"; then
	echo "  40 MB word: counted"
else
	echo "  40 MB word: $(cat "$w/err")"
fi
