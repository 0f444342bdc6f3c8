#!/bin/sh
# The C unit tests of bmdprep's text normalisation and front matter rule
# (unit-text.c).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/bmdprep/unit-text"
