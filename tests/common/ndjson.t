#!/bin/sh
# The C unit test of the record loop's reader (common/ndjson.c): every line
# gives the record or the message jansson's json_loadb gives.
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-ndjson"
