#!/bin/sh
# The C unit tests of bmdprep's library (unit-bmdprep.c).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/bmdprep/unit-bmdprep"
