#!/bin/sh
# threads.t - btok's encoder from two threads at once (unit-threads.c): one
# encoder per thread over a shared tokenizer, the same or another, gives the
# counts and ids of one thread alone, for every tokenizer of the manifest;
# and an encoder whose cache of long pieces filled and started again gives
# the ids of a new one.
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
unit=$CTXBENCH_BUILD/tests/btok/unit-threads
[ -x "$unit" ] || { fail "unit-threads is built"; done_testing; exit 1; }
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
"$unit" "$TOP/share/btok" "$tok" "$tok/compiled" "$TOP/tests/btok/corpus"
