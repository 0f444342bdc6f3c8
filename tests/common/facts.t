#!/bin/sh
# The C unit tests of common/facts.c: the facts a documentation page
# states, markup and generator directives normalised away, and the
# comparison of two texts' facts (bctx's pair drift, snapshot drift).
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-facts"
