#!/bin/sh
# Reference mode against the llms.txt conformance data (corpus, edge cases,
# golden create_ctx outputs): see conformance.py.
. "${0%/*}/../lib/tap.sh"
CONF=${CTXBENCH_CONFORMANCE:-$TOP/../shared/conformance/llmstxt}
[ -d "$CONF/corpus" ] || { echo "conformance data missing: $CONF" >&2; exit 1; }
/usr/bin/python3 "$TOP/tests/bmdprep/conformance.py" "$(prog bmdprep)" "$CONF" "$T" || exit 1
