#!/bin/sh
# btok.sh - make bench for btok, against Hugging Face tokenizers (npm
# "tokenizers" 0.23.2, Rust core, installed under $CTXBENCH_BUILD/btok-ref),
# both sides in this run on the same text:
#  - throughput per tokenizer and per kind of text, on a varied corpus
#    (tests/bench/btok-corpus.py: one file each of prose, code, Markdown,
#    HTML, manual pages, 200 languages, numbers; never one block repeated),
#    in CPU time (user + system), with identical ids checked on every file.
#    Each file is text neither side has seen: each side first encodes a
#    warm-up text unlike every kind (this repository's own C sources and
#    manual pages, 1 MB), so that start-up, loading and the first touch of
#    memory are not counted, then the file once.  Both sides are timed in
#    process, in one process per run: the CPU time of each side's first
#    encoding of the file, after the warm-up text and the kinds before it
#    (btok: tests/bench/btok-time.c, btok's library called as btok -r calls
#    it, linked as btok is; the difference of two whole processes' times
#    was too coarse for a file of a few milliseconds).  Each side's best of
#    BTOK_BENCH_REPEAT runs (5), the two sides alternating; the ratio of
#    the medians is printed beside it, to show how much the machine moved
#    the runs.  The token counts of both sides compared too.  Passes over
#    text already seen are not timed:
#    btok's caches keep whole pieces, so a second pass over the same file
#    measures those caches, not the tokenizer;
#  - start-up: btok's whole process from the compiled cache, and the
#    reference's loading of the tokenizer (in process, after node's own
#    start); peak memory of both;
#  - linearity: 10 MB and 20 MB without a space, of one repeated character,
#    of digits (2x input should take at most 2.1x user time, the least of
#    BTOK_BENCH_LIN_REPEAT runs (3); system time, which varies several-fold
#    between identical runs here, shown apart);
#  - bad input: a 100 MB field, a 16 MB word, a 40 MB word (a clear error).
# The ratios are printed, never asserted.  CPU time, not wall time, because
# the machine may be shared.  A shared machine still makes the numbers
# noisy: on a virtual machine whose host is busy, whole processes run 30 to
# 50 % slower for seconds to minutes at a time, most of all those whose
# memory is read at random across megabytes of 4 KiB pages (the reference's
# now; btok's caches are in huge pages, encode.c huge_zalloc), so each
# side's time is the best of several runs, which is the run the host
# disturbed least, and the medians are shown beside it.
# BTOK_BENCH_RATIOS_ONLY=1 stops after the ratios.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
btok=${CTXBENCH_BTOK:-$build/bin/btok}
btime=$build/bench/btok-time
ref=$build/btok-ref
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
names="llama3 qwen3 gemma3 mistral mistral-v3"
rep=${BTOK_BENCH_REPEAT:-5}
lrep=${BTOK_BENCH_LIN_REPEAT:-3}
sh "$top/tools/btok/deps.sh"
sh "$top/tests/btok/ref-install.sh" "$ref"
w=$(mktemp -d "${TMPDIR:-/tmp}/btok-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT
export TOKENIZERS_PARALLELISM=false

. "$top/tests/bench/bench-lib"
cpu() {	# command...: CPU ms (user + system, to the microsecond) and peak RSS
	# in kB of the command, whose output goes to $w/cpu.out
	bench_rusage "$w/cpu.out" "$@" >"$w/rusage"
	awk '{ printf "%.3f %d\n", ($2 + $3) * 1000, $4 }' "$w/rusage"
}
best() {	# command...: the least CPU ms of $rep runs, and the peak RSS
	b=; m=0
	for k in $(seq "$rep"); do
		set -- $(cpu "$@") "$@"
		b=$(echo "${b:-$1} $1" | awk '{ print $2 < $1 ? $2 : $1 }')
		[ "$2" -gt "$m" ] && m=$2
		shift 2
	done
	echo "$b $m"
}
refjs() { NODE_PATH=$ref/node_modules node "$top/tests/btok/ref.js" "$@"; }
make -s -C "$top" BUILD="$build" "$btime"
# runs FILE...: the same lines of several runs, one file a run; per line,
# the least and the median (the mean of the middle two for an even count)
# of their first fields, then the second field of the first file if its
# lines have two
runs() {
	paste -d ' ' "$@" | awk -v r="$#" '{ s = NF / r; n = 0
		for (i = 1; i <= NF; i += s) v[++n] = $i
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		printf "%s %s", v[1], n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		if (s > 1) printf " %s", $2
		printf "\n" }'
}

/usr/bin/python3 "$top/tests/bench/btok-corpus.py" "$w/corpus"
kinds=$(cd "$w/corpus" && ls | sed 's/\.txt$//')
files=$(for k in $kinds; do printf '%s ' "$w/corpus/$k.txt"; done)
cat $files >"$w/text"
bytes=$(wc -c <"$w/text")
echo "text: $(echo "$bytes" | awk '{ printf "%.2f", $1 / 1048576 }') MB of varied text, one file per kind:"
for k in $kinds; do
	printf '  %-10s %5.2f MB\n' "$k" "$(wc -c <"$w/corpus/$k.txt" | awk '{ print $1 / 1048576 }')"
done
printf 'x' >"$w/tiny"
LC_ALL=C awk '{ n += length($0) + 1; if (n > 1048576) exit; print }' \
    "$top"/tools/*/*.c "$top"/man/*.[1-9] >"$w/warm"

# Per tokenizer: btok's start-up, then each file, unseen, after the
# warm-up text, both sides in process; one line per file into $w/rows:
# tokenizer kind bytes btok_ms ref_ms same btok_median_ms ref_median_ms.
: >"$w/rows"
: >"$w/start"
# Build the compiled caches, then run once more when they are old enough
# for the record of their whole check (btok(1): two seconds), as every later
# run finds them.
for t in $names; do "$btok" -t "$t" "$w/tiny" >/dev/null; done
sleep 2
for t in $names; do "$btok" -t "$t" "$w/tiny" >/dev/null; done
for t in $names; do
	set -- $(best "$btok" -r -t "$t" "$w/tiny"); b0=$1 brss=$2
	# the reference: per line (loading, the warm-up text, each file),
	# the least of $rep runs, each in its own process
	# btok and the reference alternate, so that a busy moment of the
	# machine falls on both sides
	for k in $(seq "$rep"); do
		refjs bench "$tok" "$top/share/btok" "$t" 1 "$w/warm" $files >"$w/ref.$k"
		CTXBENCH_SHARE=$top/share CTXBENCH_TOKENIZERS=$tok \
		    "$btime" "$t" "$w/warm" $files >"$w/bt.$k"
	done
	runs $(for k in $(seq "$rep"); do echo "$w/ref.$k"; done) >"$w/ref.out"
	runs $(for k in $(seq "$rep"); do echo "$w/bt.$k"; done) >"$w/bt.out"
	set -- $(cpu env NODE_PATH="$ref/node_modules" node "$top/tests/btok/ref.js" ids "$tok" \
	    "$top/share/btok" "$t" $files); rrss=$2
	mv "$w/cpu.out" "$w/ref.ids"
	set -- $(cpu "$btok" -r -t "$t" "$w/warm" $files)
	[ "$2" -gt "$brss" ] && brss=$2
	n=0
	for k in $kinds; do
		n=$((n + 1))
		f=$w/corpus/$k.txt
		"$btok" -r -i -t "$t" "$f" >"$w/btok.ids"
		# btok's least, median and count, then the reference's
		set -- $(sed -n "${n}p" "$w/bt.out") $(sed -n "$((n + 2))p" "$w/ref.out")
		same=identical
		sed -n "${n}p" "$w/ref.ids" | cmp -s "$w/btok.ids" - || same=DIFFER
		[ "$3" = "$6" ] || same=DIFFER
		echo "$t $k $(wc -c <"$f") $1 $4 $same $2 $5" >>"$w/rows"
	done
	echo "$t $b0 $(awk 'NR == 1 { print $1 }' "$w/ref.out") $((brss / 1024)) $((rrss / 1024))" >>"$w/start"
done

echo "throughput, MB/s of CPU time, on each file unseen, after a warm-up text (each side:"
echo "its first encoding of the file, in process; the best of $rep runs, and in brackets"
echo "the ratio of the medians):"
awk '{ e = $4 < 0.001 ? 0.001 : $4; em = $7 < 0.001 ? 0.001 : $7
	printf "  %-10s %-10s btok %7.1f MB/s  HF %6.2f MB/s  %5.1fx (%5.1fx)  %s\n", $1, $2,
	    $3 / 1048576 / (e / 1000), $3 / 1048576 / ($5 / 1000), $5 / e, $8 / em, $6 }' "$w/rows"
echo "ratio btok / HF per tokenizer and kind, each side's best of $rep runs (all: the whole"
echo "corpus, from the same runs):"
{
	printf '%-10s' tokenizer
	for k in $kinds; do printf ' %9s' "$k"; done
	printf ' %7s %10s %9s %8s %8s  %s\n' all btok_start HF_load btok_RSS HF_RSS ids
	for t in $names; do
		printf '%-10s' "$t"
		awk -v t="$t" '$1 == t { e = $4 < 0.001 ? 0.001 : $4
			printf " %8.1fx", $5 / e }' "$w/rows"
		awk -v t="$t" '$1 == t { e = $4 < 0.001 ? 0.001 : $4; b += e; r += $5 }
		    END { printf " %6.1fx", r / b }' "$w/rows"
		same=identical
		! awk -v t="$t" '$1 == t && $6 != "identical"' "$w/rows" | grep -q . || same=DIFFER
		awk -v t="$t" '$1 == t { printf " %8.1fms %7.1fms %6dMB %6dMB", $2, $3, $4, $5 }' "$w/start"
		printf '  %s\n' "$same"
	done
}

[ -z "${BTOK_BENCH_RATIOS_ONLY:-}" ] || exit 0

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
# least COMMAND...: the least user and the least system seconds of $lrep
# runs of the command, and its peak RSS in kB
least() {
	for k in $(seq "$lrep"); do
		bench_rusage /dev/null "$@"
	done | awk 'NR == 1 || $2 < u { u = $2 } NR == 1 || $3 < s { s = $3 }
	    $4 > m { m = $4 } END { print u, s, m }'
}
echo "linearity, CPU seconds for 10 MB and 20 MB, the least of $lrep runs each: user time"
echo "(btok's own work; a ratio of at most 2.1 is linear) and system time (mostly the"
echo "kernel giving the pages of the symbols; it varies several-fold between identical"
echo "runs on a shared machine, so it is shown, not taken into the ratio):"
for t in $names; do
	for kind in nospace run digits; do
		set -- $(least "$btok" -r -t "$t" "$w/${kind}1") \
		    $(least "$btok" -r -t "$t" "$w/${kind}2")
		echo "$t $kind $*" | awk '{ printf "  %-10s %-8s user %6.2f s %6.2f s  ratio %.2f  system %5.2f s %5.2f s  RSS %d/%d MB\n",
		    $1, $2, $3, $6, $6 / ($3 > 0.001 ? $3 : 0.001), $4, $7, $5 / 1024, $8 / 1024 }'
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
echo "  100 MB field: $(echo "$1" | awk '{ printf "%.2f", $1 / 1000 }') s CPU, RSS $(($2 / 1024)) MB, $(jq .tokens.llama3 "$w/field.out") tokens"
set -- $(cpu "$btok" -r -t llama3 "$w/word16")
echo "  16 MB word: $(echo "$1" | awk '{ printf "%.2f", $1 / 1000 }') s CPU, RSS $(($2 / 1024)) MB, $(cat "$w/cpu.out") tokens"
if "$btok" -r -t llama3 "$w/word40" >/dev/null 2>"$w/err"; then
	echo "  40 MB word: counted"
else
	echo "  40 MB word: $(cat "$w/err")"
fi
