#!/bin/sh
# run.sh - torture tests: every program, on a representative command over
# small fixtures, under faults of its environment (ctxbench(7), FAULTS).
#
#   sh tests/torture/run.sh [alloc] [io] [kill] [lock]   (default: all four)
#
# alloc  the Nth allocation fails (shim.c, TORTURE_ALLOC)
# io     the Nth output operation fails with ENOSPC, then with EIO
#        (TORTURE_IO)
#        Both try every N from 1 to BOUND, then SAMPLES values spread
#        evenly up to the command's count (of allocations: a thousand to
#        thirty thousand; of output operations: a few).  Each N costs a run
#        of the program; the sample keeps the whole make torture to minutes
#        while the first allocations (start-up, option and input parsing,
#        where most error paths branch) are each tried.
# kill   SIGKILL after each of KILLS evenly spread delays within the
#        command's run time, then the command again (with its resume)
# lock   four bfetch processes on one archive (tests/bfetch/lock.t's case)
#
# A fault may make a run fail or be absorbed: a failed run exits 1..125
# with a "PROG: " message, leaves no output under its final name and no
# temporary, and changes no input; an absorbed one (exit 0) writes what an
# undisturbed run writes.  Every violation is printed; the script ends with
# one line of counts per program and mode, with its wall and CPU time, and
# exits 1 if any was seen.
#
# Every run's stderr is searched for a sanitizer report ("runtime error:",
# from make torture's UBSan build) and a failed assertion: either is a
# violation.
#
# Environment: TORTURE_BOUND (default 100), TORTURE_SAMPLES (default 100),
# TORTURE_KILLS (default 10), TORTURE_LIMIT (seconds a run may take before
# it counts as hung, default 30), TORTURE_PROGS (default all eight),
# CTXBENCH_TOP, CTXBENCH_BUILD.
set -u
: "${CTXBENCH_TOP:=$(cd "${0%/*}/../.." && pwd)}"
: "${CTXBENCH_BUILD:=$CTXBENCH_TOP/build}"
export CTXBENCH_TOP CTXBENCH_BUILD LC_ALL=C CTXBENCH_PROGRESS=0
BOUND=${TORTURE_BOUND:-100}
SAMPLES=${TORTURE_SAMPLES:-100}
KILLS=${TORTURE_KILLS:-10}
LIMIT=${TORTURE_LIMIT:-30}
PROGS=${TORTURE_PROGS:-"bfetch bread bmdprep bctx btok binfer bscore-merge bstats"}
MODES=${*:-"alloc io kill lock"}
SHIM=$CTXBENCH_BUILD/torture/torture.so
BIN=$CTXBENCH_BUILD/bin
HERE=$CTXBENCH_TOP/tests/torture
[ -f "$SHIM" ] || { echo "torture: $SHIM missing (make torture builds it)" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/ctxbench-torture.XXXXXX")
W=$(cd "$W" && pwd -P)
OUT=$W/out
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
. "$HERE/cases.sh"
bad_total=0

# ---------------------------------------------------------------- checks

# The inputs have not changed since the stamp (mtime), nor since the start
# (contents, checked at the end of each program's runs).
inputs_hash() { (cd "$FIX" && find . -type f | sort | xargs sha256sum) | sha256sum; }

violation() {	# what
	bad=$((bad + 1))
	printf '  %s %s N=%s: %s\n' "$prog" "$mode" "$n" "$1"
	sed 's/^/    | /' "$W/err" | head -n 5
}

# Every output of the case is absent (after a failure).
outputs_absent() {
	for o in $OUTPUTS $OUTDIRS; do
		[ -e "$OUT/$o" ] && violation "output $o exists after a failure"
	done
	# a temporary file or staged directory, or a file moved aside
	left=$(find "$OUT" \( -name '.*.??????' -o -name '.*.??????.old' \
	    -o -name '.bfetch-*.tmp' \) 2>/dev/null | head -n 1)
	[ -n "$left" ] && violation "temporary left: ${left#$OUT/}"
	return 0
}

# The outputs equal the undisturbed run's (after a success).
outputs_equal() {
	for o in $OUTPUTS; do
		if [ ! -e "$OUT/$o" ]; then
			violation "exit 0 without output $o"
		elif ! normalize "$OUT/$o" | cmp -s - "$W/ref/$o"; then
			violation "exit 0 but $o differs from an undisturbed run"
		fi
	done
}

# A sanitizer report (make torture's programs are built with UBSan, whose
# reports say "runtime error:") or a failed assertion in the run's stderr.
sanitizer_check() {
	if grep -Eq 'Sanitizer|runtime error:|Assertion|core dumped' "$W/err"; then
		violation "sanitizer or assertion report"
	fi
}

# Judge one run that ended with status rc.
judge() {
	sanitizer_check
	if [ "$rc" -eq 137 ] && [ -z "$(cat "$W/err")" ]; then
		violation "still running after $LIMIT s (hung)"
	elif [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
		violation "the program could not be started (status $rc)"
	elif [ "$rc" -gt 128 ]; then
		violation "killed by a signal (status $rc)"
	elif [ "$rc" -eq 0 ]; then
		absorbed=$((absorbed + 1))
		outputs_equal
	else
		failed=$((failed + 1))
		grep -q "^$prog: " "$W/err" || violation "exit $rc without a '$prog: ' message"
		[ "$(wc -l <"$W/err")" -gt 1 ] && multi=$((multi + 1))
		outputs_absent
	fi
	store_whole
	changed=$(find "$FIX" -newer "$W/stamp" | head -n 1)
	[ -n "$changed" ] && violation "input changed: $changed"
	return 0
}

# One run of the case under the fault given in the environment.
run_case() {
	rm -rf "$OUT" && mkdir -p "$OUT"
	prepare
	: >"$W/stamp"
	(cd "$OUT" && sh -c "exec timeout -s KILL $LIMIT env $* LD_PRELOAD=$SHIM $CMD" \
	    >/dev/null 2>"$W/err")
	rc=$?
}

# The N to try for a count c: all up to BOUND, then SAMPLES spread evenly.
plan_n() {
	awk -v c="$1" -v b="$BOUND" -v s="$SAMPLES" 'BEGIN {
		for (i = 1; i <= c && i <= b; i++) print i
		if (c > b) for (k = 1; k <= s; k++) {
			v = b + int((c - b) * k / s); if (v > b) print v }
	}' | uniq
}

# Milliseconds since the epoch.  CPU time: times(1) in this shell (not in a
# subshell, which would count its own) gives the user and system time of
# the shell and of the runs it waited for, at the start (times0) and end.
now_ms() { date +%s%3N; }
cpu_secs() {	# FILE: the seconds times(1) wrote to FILE, summed
	awk '{ for (i = 1; i <= NF; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
	    END { printf "%.1f", s }' "$1"
}

summary() {	# mode count
	times >"$W/times"
	printf '%-12s %-5s %s: runs %d, failed %d (%d with more than one line), absorbed %d, violations %d (%.1f s wall, %.1f s CPU)\n' \
	    "$prog" "$mode" "$1" "$runs" "$failed" "$multi" "$absorbed" "$bad" \
	    "$(awk -v a="$wall0" -v b="$(now_ms)" 'BEGIN { print (b - a) / 1000 }')" \
	    "$(awk -v a="$(cpu_secs "$W/times0")" -v b="$(cpu_secs "$W/times")" 'BEGIN { print b - a }')"
	bad_total=$((bad_total + bad))
}

reset_counts() {
	runs=0; failed=0; absorbed=0; multi=0; bad=0; n=-
	wall0=$(now_ms)
	times >"$W/times0"
}

# ---------------------------------------------------------------- modes

# The undisturbed run: reference outputs and the counts of allocations and
# output operations.
reference() {
	n=0
	run_case TORTURE_COUNT="$W/count" TORTURE_IO_DIR="$OUT"
	if [ "$rc" -ne 0 ] || grep -q 'runtime error:' "$W/err"; then
		echo "torture: $prog: the undisturbed run failed ($rc):" >&2
		cat "$W/err" >&2
		exit 1
	fi
	rm -rf "$W/ref" && mkdir -p "$W/ref"
	for o in $OUTPUTS; do
		mkdir -p "$(dirname "$W/ref/$o")"
		normalize "$OUT/$o" >"$W/ref/$o"
	done
	read -r nalloc nio <"$W/count"
	store_whole
}

mode_alloc() {
	reset_counts
	for n in $(plan_n "$nalloc"); do
		run_case TORTURE_ALLOC="$n"
		runs=$((runs + 1))
		judge
	done
	summary "of $nalloc allocations"
}

mode_io() {
	for e in ENOSPC EIO; do
		reset_counts
		for n in $(plan_n "$nio"); do
			run_case TORTURE_IO="$n" TORTURE_IO_ERRNO=$e TORTURE_IO_DIR="$OUT"
			runs=$((runs + 1))
			judge
		done
		summary "$e at each of $nio output operations"
	done
}

. "$HERE/kill.sh"

start_server
prepare_fixtures
for prog in $PROGS; do
	case_$(printf '%s' "$prog" | tr - _)
	h0=$(inputs_hash)
	mode=ref
	reference
	for mode in $MODES; do
		case $mode in
		alloc) mode_alloc ;;
		io) mode_io ;;
		kill) mode_kill ;;
		lock) [ "$prog" = bfetch ] && mode_lock ;;
		*) echo "torture: unknown mode $mode" >&2; exit 2 ;;
		esac
	done
	if [ "$(inputs_hash)" != "$h0" ]; then
		echo "  $prog: INPUTS CHANGED"
		bad_total=$((bad_total + 1))
	fi
done
echo "torture: $bad_total violations"
[ "$bad_total" -eq 0 ]
