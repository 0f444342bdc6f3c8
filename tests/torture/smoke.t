#!/bin/sh
# The torture tests' small case (make torture runs the whole set): bmdprep
# on three records under a sample of failed allocations (the first three,
# then five spread up to the last), ENOSPC and EIO at each output operation,
# and SIGKILL at two points followed by a second run.  Every run that fails must
# say so and leave no output, every run that absorbs the fault must write
# what an undisturbed run writes, and no input may change.  (Four bfetch
# processes on one archive: tests/bfetch/lock.t.)
. "${0%/*}/../lib/tap.sh"
[ -f "$CTXBENCH_BUILD/torture/torture.so" ] ||
    skip_all "$CTXBENCH_BUILD/torture/torture.so not built (make all builds it)"
command -v jq >/dev/null || skip_all "jq not installed"
# The shim is an LD_PRELOAD library that replaces malloc; AddressSanitizer's
# runtime must come first and replaces it too, so the torture runs use the
# ordinary build (make torture), never make asan's.
[ -z "${CTXBENCH_ASAN:-}" ] ||
    skip_all "the torture shim replaces malloc, as AddressSanitizer does: make torture runs the ordinary build"

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
