#!/bin/sh
# bstats' statistics against scipy / statsmodels / scikit-learn vectors.
. "${0%/*}/../lib/tap.sh"

U=$CTXBENCH_BUILD/tests/bstats/unit-vectors
V=$TOP/tests/bstats/vectors.ndjson
run "$U" "$V"
expect_status 0 "every committed vector agrees (rel. error <= 1e-9; Shapiro-Wilk: see stats.h)"
like "$(grep -c '^ok' "$T/out")" '^[3-9][0-9][0-9]$' "more than 300 checks (vectors and brute-force enumeration)"
unlike "$out" '^not ok' "no vector disagrees"

# A vector that is wrong must fail: the comparison is not vacuous.
sed -n '1p' "$V" | sed 's/"p":[0-9.e-]*/"p":0.123456/' >"$T/bad.ndjson"
run "$U" "$T/bad.ndjson"
expect_status 1 "a tampered reference value is caught"

# When Debian's scipy is installed, regenerated vectors equal the committed ones.
if /usr/bin/python3 -c 'import scipy, statsmodels, sklearn' 2>/dev/null; then
	/usr/bin/python3 "$TOP/tests/bstats/gen-vectors.py" >"$T/regen.ndjson"
	run "$U" "$T/regen.ndjson"
	expect_status 0 "freshly generated vectors agree too"
else
	fail "Debian's python3-scipy, python3-statsmodels, python3-sklearn are missing (make deps)"
fi
done_testing
