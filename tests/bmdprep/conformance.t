#!/bin/sh
# Reference mode against the llms.txt conformance data (corpus, edge cases,
# golden create_ctx outputs): see conformance.py.
. "${0%/*}/../lib/tap.sh"
CONF=$SHARED/conformance/llmstxt
need_shared conformance/llmstxt/corpus ||
    skip_all "no shared llms.txt conformance data ($CONF)"
/usr/bin/python3 "$TOP/tests/bmdprep/conformance.py" "$(prog bmdprep)" "$CONF" "$T" || exit 1
