#!/bin/sh
# common/swar.h and jsonscan.h against their byte-at-a-time tests (wide path).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-swar"
