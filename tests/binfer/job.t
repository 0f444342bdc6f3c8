#!/bin/sh
# A job's life cycle (unit-job.c): what preparing finds, and that only the
# scheduler finishes a job.
. "${0%/*}/../lib/tap.sh"
u=$CTXBENCH_BUILD/tests/binfer/unit-job
[ -x "$u" ] || { echo "Bail out! $u is not built (make all)"; exit 1; }
mkdir "$T/cache"
"$u" "$T/cache"
