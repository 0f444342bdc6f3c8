#!/bin/sh
# Bad input and usage errors: malformed questions.json (wrong types,
# duplicate ids, ids not matching their site, binary), a site-list.csv with
# broken quoting, bad user mappings, broken records; each a clear error
# naming the file and line, exit status 1 (2 for usage errors).
. "${0%/*}/../lib/tap.sh"
run_cases "${0%/*}/cases" bctx
done_testing
