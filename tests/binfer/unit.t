#!/bin/sh
# binfer's C unit tests (parsers, bodies, cache entries, extractive baseline).
. "${0%/*}/../lib/tap.sh"
u=$CTXBENCH_BUILD/tests/binfer/unit-engine
[ -x "$u" ] || { echo "Bail out! $u is not built (make all)"; exit 1; }
"$u"
