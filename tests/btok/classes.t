#!/bin/sh
# classes.t - the Unicode classes and split patterns (unit-classes.c) against
# the classes Oniguruma gives in Hugging Face tokenizers (golden/classes.txt).
. "${0%/*}/../lib/tap.sh"
unit=$CTXBENCH_BUILD/tests/btok/unit-classes
[ -x "$unit" ] || { fail "unit-classes is built"; done_testing; exit 1; }
"$unit" "$TOP/tests/btok/golden/classes.txt"
