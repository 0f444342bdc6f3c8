#!/bin/sh
# The C unit tests of common/words.c: one definition of a word for gold
# coverage, A<->B parity, the extractive engine and the scoring hints.
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-words"
