#!/bin/sh
# The torture tests' small case (make torture runs the whole set): bmdprep
# on three records under a sample of failed allocations (the first three,
# then five spread up to the last), ENOSPC and EIO at each output operation,
# and SIGKILL at two points followed by a second run.  Every run that fails must
# say so and leave no output, every run that absorbs the fault must write
# what an undisturbed run writes, and no input may change.  (Four bfetch
# processes on one archive: tests/bfetch/lock.t.)
. "${0%/*}/../lib/tap.sh"
need_shim

TMPDIR=$T TORTURE_PROGS=bmdprep TORTURE_BOUND=3 TORTURE_SAMPLES=5 \
    TORTURE_KILLS=2 sh "$TOP/tests/torture/run.sh" alloc io kill >"$T/log" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	*": runs "*)
		case $line in
		*", violations 0 ("*) pass "$line" ;;
		*) fail "$line" ;;
		esac ;;
	esac
done <"$T/log"
is "$(grep -c ': runs ' "$T/log")" 4 "allocation, ENOSPC, EIO and SIGKILL runs"
is "$rc" 0 "run.sh exits 0"
[ "$rc" -eq 0 ] || diag "$(cat "$T/log")"
done_testing
