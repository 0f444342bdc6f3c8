#!/bin/sh
# filter.t - the pair filter of compiled images (unit-filter.c): it passes
# every pair of the merges; an image whose filter lacks one is refused; a
# filter that passes every pair gives the same ids; a header whose filter
# is not a power of two words, or lies outside the image, is refused.
. "${0%/*}/../lib/tap.sh"
unit=$CTXBENCH_BUILD/tests/btok/unit-filter
[ -x "$unit" ] || { fail "unit-filter is built"; done_testing; exit 1; }
"$unit"
