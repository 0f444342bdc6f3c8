#!/bin/sh
# Runs the C unit tests of bscore-merge.
. "${0%/*}/../lib/tap.sh"
for u in "$CTXBENCH_BUILD"/tests/bscore-merge/unit-*; do
	[ -x "$u" ] || continue
	out=$("$u" 2>&1); rc=$?
	printf '%s\n' "$out" | grep '^not ok' | sed 's/^/# /'
	is "$rc" 0 "$(basename "$u"): $(printf '%s\n' "$out" | tail -n 1)"
done
[ -x "$CTXBENCH_BUILD/tests/bscore-merge/unit-expr" ]
is "$?" 0 "the unit tests are built"
done_testing
