#!/bin/sh
# The compact writer's strings (json_put_string, ndj_emit_string) against
# the escaping rule one byte at a time, and read back by jansson.
exec "${CTXBENCH_BUILD:-$(cd "${0%/*}/../.." && pwd)/build}/tests/common/unit-jsonstr"
