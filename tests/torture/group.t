#!/bin/sh
# The outputs of one run committed all or none (common/atomic.h, groups),
# under the torture shim's I/O faults.  bstats with its four outputs (-o,
# -r, -f and --html): EIO at each of its last 25 output operations (the
# last files' writes, syncs and closes, the renames, the directory syncs)
# fails the run with no output or is absorbed with every output; its last
# rename failing leaves no output in an empty directory, and over a
# previous run's files leaves each as it was.  bscore-merge merge with its
# three: the second rename failing leaves neither of the first two, and
# over a previous run's files any rename failing leaves each as it was.
# bscore-merge blind: either of its two renames (the key, the sheets
# directory) failing leaves neither.  Every failed run says so in one
# "PROG: FILE: cannot write: ..." line (merge's warning of a primary rater
# that is not human comes only after its outputs are committed).
. "${0%/*}/../lib/tap.sh"
need_shim
W=$T
. "$TOP/tests/torture/cases.sh"
BIN=$CTXBENCH_BUILD/bin
pipe=$CTXBENCH_BUILD/torture/pipe
pipeline_once "$pipe" || { echo "Bail out! examples/pipeline.sh failed"; exit 1; }
mkdir -p "$T/o"
O=$(cd "$T/o" && pwd -P)

# shim ENV... -- CMD...: run CMD in $O under the shim, output operations
# counted beneath $O; status in $rc, stderr in $T/err.
shim() {
	rc=0
	(cd "$O" && env LD_PRELOAD="$SHIM" TORTURE_IO_DIR="$O" "$@") \
	    >/dev/null 2>"$T/err" || rc=$?
}
# The count of output operations (or, with only=rename, of renames).
count() {
	shim TORTURE_COUNT="$T/count" ${1:+TORTURE_IO_ONLY=$1} $CMD
	[ "$rc" -eq 0 ] || diag "the undisturbed run failed: $(cat "$T/err")"
	cut -d' ' -f2 "$T/count"
}
# Every file beneath $O with its checksum, temporaries included.
state() { (cd "$O" && find . -type f | sort | xargs -r sha256sum); }
# The old outputs: a previous run's files, each with its own text.
old_outputs() {
	rm -rf "$O" && mkdir -p "$O"
	for f in "$@"; do
		mkdir -p "$O/$(dirname "$f")"
		printf 'old %s\n' "$f" >"$O/$f"
	done
}
failed_once() {	# what
	is "$rc" 1 "$1: exit 1"
	like "$(cat "$T/err")" "^$2: [^ ]+: cannot write: (No space left on device|Input/output error); no output written$" \
	    "$1: one message naming the file"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "$1: no other line"
}

# ---------------------------------------------------------------- bstats
CMD="$BIN/bstats -b 200 -r report.md -f figures -o results.ndjson --html browser.html $pipe/scored.ndjson"
rm -rf "$O" && mkdir -p "$O"
nren=$(count rename)
is "$nren" 4 "bstats: four outputs (a staged figures directory), four renames"
rm -rf "$O" && mkdir -p "$O"
nio=$(count)
ls "$O" >"$T/ls"
is "$(tr '\n' ' ' <"$T/ls")" "browser.html figures report.md results.ndjson " "bstats: the undisturbed run's outputs"

# The last 25 output operations: the last files' writes, syncs and closes,
# the renames, the directory syncs after them.  Each either fails the run
# with nothing written or is absorbed with every output written.
failures=0
n=$((nio > 24 ? nio - 24 : 1))
while [ "$n" -le "$nio" ]; do
	rm -rf "$O" && mkdir -p "$O"
	shim TORTURE_IO="$n" TORTURE_IO_ERRNO=EIO $CMD
	if [ "$rc" -eq 0 ]; then
		is "$(ls "$O" | tr '\n' ' ')" "$(tr '\n' ' ' <"$T/ls")" "bstats, EIO at output operation $n of $nio: absorbed, every output written"
	else
		failures=$((failures + 1))
		failed_once "bstats, EIO at output operation $n of $nio" bstats
		is "$(ls -A "$O")" "" "bstats, EIO at output operation $n of $nio: no output, no temporary"
	fi
	n=$((n + 1))
done
DESC="bstats: a fault in the last files or the renames fails the run" ok test "$failures" -ge 8
rm -rf "$O" && mkdir -p "$O"
shim TORTURE_IO="$nren" TORTURE_IO_ONLY=rename $CMD
failed_once "bstats, the last of $nren renames failing" bstats
is "$(ls -A "$O")" "" "bstats, the last rename failing: no output, no temporary"

old_outputs report.md results.ndjson browser.html figures/accuracy-by-condition.svg figures/mine.txt
state >"$T/before"
nren=$(old_outputs report.md results.ndjson browser.html figures/accuracy-by-condition.svg figures/mine.txt; count rename)
old_outputs report.md results.ndjson browser.html figures/accuracy-by-condition.svg figures/mine.txt
shim TORTURE_IO="$nren" TORTURE_IO_ONLY=rename $CMD
failed_once "bstats over a previous run, the last of $nren renames failing" bstats
state >"$T/after"
files_eq "$T/after" "$T/before" "bstats over a previous run: every output as it was, nothing else left"
old_outputs report.md results.ndjson browser.html figures/accuracy-by-condition.svg figures/mine.txt
shim TORTURE_IO="$((nio - 6))" $CMD
failed_once "bstats over a previous run, ENOSPC at output operation $((nio - 6)) of $nio" bstats
state >"$T/after"
files_eq "$T/after" "$T/before" "bstats over a previous run, an output's write failing: every output as it was"

# ---------------------------------------------------------------- merge
CMD="$BIN/bscore-merge merge -k $pipe/key.json -r $pipe/responses.ndjson -o scored.ndjson --raw-data raw-data.csv --details details.json $pipe/autoscore.ndjson"
rm -rf "$O" && mkdir -p "$O"
is "$(count rename)" 3 "merge: three outputs, three renames"
# autoscore is the primary rater: a run that succeeds warns that it is not
# human, one that fails says only why it failed (failed_once: one line)
like "$(cat "$T/err")" "warning: the primary rater is not human" "merge: the undisturbed run warns of a primary rater that is not human"
rm -rf "$O" && mkdir -p "$O"
shim TORTURE_IO=2 TORTURE_IO_ONLY=rename $CMD
failed_once "merge, the second rename failing" bscore-merge
is "$(ls -A "$O")" "" "merge, the second rename failing: neither output, no temporary"
old_outputs scored.ndjson raw-data.csv details.json
state >"$T/before"
for n in 2 4 6; do
	old_outputs scored.ndjson raw-data.csv details.json
	shim TORTURE_IO=$n TORTURE_IO_ONLY=rename $CMD
	failed_once "merge over a previous run, rename $n of 6 failing" bscore-merge
	state >"$T/after"
	files_eq "$T/after" "$T/before" "merge over a previous run, rename $n failing: every output as it was"
done


# ---------------------------------------------------------------- blind
# The key and the sheets directory (staged as one temporary directory with
# its sheets and sources in it): two renames, either failing leaves neither.
CMD="$BIN/bscore-merge blind -k key.json -d sheets --seed 42 --sources $pipe/responses.ndjson"
rm -rf "$O" && mkdir -p "$O"
is "$(count rename)" 2 "blind: the key and the sheets directory, two renames"
ok test -s "$O/key.json" -a -d "$O/sheets/sources"
for n in 1 2; do
	rm -rf "$O" && mkdir -p "$O"
	shim TORTURE_IO=$n TORTURE_IO_ONLY=rename $CMD
	failed_once "blind, rename $n of 2 failing" bscore-merge
	is "$(ls -A "$O")" "" "blind, rename $n of 2 failing: no key, no sheet, no temporary"
done
done_testing
