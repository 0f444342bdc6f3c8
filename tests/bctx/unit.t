#!/bin/sh
# Runs the C unit tests of bctx (URL rules, rendering helpers, coverage).
. "${0%/*}/../lib/tap.sh"
for u in "$CTXBENCH_BUILD"/tests/bctx/unit-*; do
	[ -x "$u" ] || continue
	run "$u"
	expect_status 0 "$(basename "$u")"
	[ "$rc" -eq 0 ] || diag "$(grep -v '^ok' "$T/out")"
done
[ -x "$CTXBENCH_BUILD/tests/bctx/unit-url" ] || fail "unit-url is built"
done_testing
