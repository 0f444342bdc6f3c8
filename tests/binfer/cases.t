#!/bin/sh
# Data-driven cases: the extractive baseline's exact output, usage errors
# (exit 2) and input errors (exit 1, FILE:LINE: field).
. "${0%/*}/../lib/tap.sh"
run_cases "${0%/*}/cases" binfer
done_testing
