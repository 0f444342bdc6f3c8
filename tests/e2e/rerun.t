#!/bin/sh
# The demo pipeline killed at a random moment (SIGKILL to its whole process
# group, the example server included) and run again gives the same final
# data as an uninterrupted run.
. "${0%/*}/../lib/tap.sh"
command -v setsid >/dev/null || skip_all "setsid is not available"
OUT=$T/first sh "$TOP/examples/pipeline.sh" >/dev/null 2>&1
ok test -s "$T/first/raw-data.csv"
for delay in 0.3 0.8 $(awk 'BEGIN { srand(); printf "%.2f", 0.1 + rand() * 1.5 }'); do
	OUT=$T/second setsid sh "$TOP/examples/pipeline.sh" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=0
	OUT=$T/second sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
	is "$rc" 0 "re-run after a kill at ${delay}s succeeds"
	files_eq "$T/second/raw-data.csv" "$T/first/raw-data.csv" "re-run after a kill at ${delay}s: same raw-data.csv"
	is "$(jq -c '[.question_id, .condition, .exclusion_reason, .factual_accuracy]' "$T/second/scored.ndjson")" \
	    "$(jq -c '[.question_id, .condition, .exclusion_reason, .factual_accuracy]' "$T/first/scored.ndjson")" \
	    "re-run after a kill at ${delay}s: same scored records"
done
done_testing
