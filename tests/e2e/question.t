#!/bin/sh
# One question, or the first few, end to end in one command: the demo's
# pipeline (QUESTION=, LIMIT=) and the full-study Makefile (make -C
# examples/study QUESTION=... / LIMIT=...), on the example site.
. "${0%/*}/../lib/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# ---- the demo's pipeline
rc=0
QUESTION=S001-Q04 OUT=$T/q sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "pipeline.sh QUESTION=S001-Q04 runs end to end" || tail -n 20 "$T/log" | sed 's/^/# /'
is "$(jq -r 'select(.primary == true) | .question_id + " " + .condition' "$T/q/scored.ndjson" | sort | tr '\n' ' ')" \
    "S001-Q04 A S001-Q04 B " "only that question reaches the scored records, both conditions"
is "$(jq -c '[.[].questions[].question_id]' "$T/q/study/questions.json")" '["S001-Q04"]' "the study's questions are cut down to it"
ok test -s "$T/q/report.md"
rc=0
LIMIT=2 OUT=$T/l sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "pipeline.sh LIMIT=2 runs end to end" || tail -n 20 "$T/log" | sed 's/^/# /'
is "$(jq -r 'select(.primary == true) | .question_id' "$T/l/scored.ndjson" | sort -u | tr '\n' ' ')" \
    "S001-Q01 S001-Q02 " "the first two questions only"
rc=0
QUESTION=S001-Q99 OUT=$T/x sh "$TOP/examples/pipeline.sh" >"$T/log" 2>&1 || rc=$?
isnt "$rc" 0 "a QUESTION the study does not have stops the pipeline"
like "$(cat "$T/log")" "no question S001-Q99" "naming it"

# ---- the full-study Makefile
pids=""
stop_all() { for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; return 0; }
at_exit stop_all
$PY "$TOP/examples/serve.py" --port-file "$T/site.port" >/dev/null 2>&1 &
pids="$pids $!"
i=0
while [ ! -s "$T/site.port" ]; do
	i=$((i + 1)); [ $i -le 200 ] || { echo "Bail out! the example site did not start"; exit 1; }
	sleep 0.05
done
C=$T/corpus
mkdir -p "$C"
for f in site-list.csv questions.json gold-answers.json benchmark-config.json; do
	sed "s|https://docs.ctxbench.example|http://127.0.0.1:$(cat "$T/site.port")|g" "$TOP/examples/$f" >"$C/$f"
done
rc=0
make -s -C "$TOP/examples/study" CORPUS="$C" OUT="$T/s" BIN="$CTXBENCH_BUILD/bin/" JOBS=2 \
    MODELS=extractive-baseline QUESTION=S001-Q04 first-pass >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make -C examples/study QUESTION=S001-Q04 first-pass" || tail -n 20 "$T/log" | sed 's/^/# /'
is "$(jq -r 'select(.primary == true) | .question_id' "$T/s/scored.ndjson" | sort -u)" S001-Q04 "one question in the scored records"
is "$(jq -r '.question_ids[]' "$T/s/jobs.ndjson" | sort -u)" S001-Q04 "the plan fetches that question's pages only"
rc=0
make -s -C "$TOP/examples/study" CORPUS="$C" OUT="$T/s2" BIN="$CTXBENCH_BUILD/bin/" \
    MODELS=extractive-baseline QUESTION=S001-Q99 first-pass >"$T/log" 2>&1 || rc=$?
isnt "$rc" 0 "make with a QUESTION the corpus does not have fails"
like "$(cat "$T/log")" "no question S001-Q99" "naming it"
done_testing
