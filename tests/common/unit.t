#!/bin/sh
# The C unit tests of common/ (SHA-256 vectors, UTF-8, CSV, JSON writer,
# atomic files, progress, diagnostics).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-common"
