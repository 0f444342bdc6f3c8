#!/bin/sh
# The C unit tests of common/atomic.c's groups: several outputs committed
# all or none (a rename that fails undoes the others), staged directories,
# temporaries removed on abort and at exit.
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-atomic"
