#!/bin/sh
# The C unit tests of bfetch (robots.txt matching, classification).
. "${0%/*}/../lib/tap.sh"
for u in unit-robots unit-classify; do
	run "$CTXBENCH_BUILD/tests/bfetch/$u"
	expect_status 0 "$u passes"
	if [ "$rc" -ne 0 ]; then grep -v '^ok' "$T/out" | sed 's/^/# /'; fi
done
done_testing
