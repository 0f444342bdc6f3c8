#!/bin/sh
# bread's parse (tools/bread/parse.c) gives libxml2's own tree: the C test
# unit-parse on made-up script and style text, pseudo-random pages, the
# generator pages and, when the shared data is there, Readability's pages.
TOP=${CTXBENCH_TOP:-$(cd "${0%/*}/../.." && pwd)}
exec "${CTXBENCH_BUILD:-$TOP/build}/tests/bread/unit-parse" "$TOP" \
    "${CTXBENCH_SHARED:-$TOP/../shared}"
