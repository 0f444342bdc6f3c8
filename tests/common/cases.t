#!/bin/sh
# Data-driven cases (tests/common/cases/*): the harness's run_cases over the
# common/ driver, one folder per case.
. "${0%/*}/../lib/tap.sh"
run_cases "${0%/*}/cases"
done_testing
