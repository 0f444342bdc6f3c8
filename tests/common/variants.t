#!/bin/sh
# The C unit tests of common/variants.c: the condition variants and
# comparisons a study declares, and every message a bad declaration gets.
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-variants"
