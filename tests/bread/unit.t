#!/bin/sh
# The C unit tests of bread (charset, JavaScript measures, extraction cases).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/bread/unit-bread"
