#!/bin/sh
# The inference time calculator of ctxbench-scale(7) ("Inference time"),
# run as written on counted contexts and measured rates whose answer is
# worked out by hand: each model's hours, the wall time on 1, 2, 4 and 8
# endpoints (shards handed out in the Makefile's order, each to the endpoint
# free first), and how many endpoints halve it.
. "${0%/*}/../lib/tap.sh"

cd "$T" || exit 1
# the first literal block of the section, as the page shows it (\e is \)
sed -n '/^\.Ss Inference time/,/^\.S[sh] /p' "$TOP/man/ctxbench-scale.7" | awk '
    /^\.Bd -literal/ && !done { on = 1; next }
    /^\.Ed/ && on { on = 0; done = 1 }
    on { gsub(/\\e/, "\\"); print }' >calc.sh
like "$(cat calc.sh)" "rates.txt" "the calculator is in ctxbench-scale(7)"

# counted contexts: S001 3,600,000 prompt tokens, S002 1,800,000, and an
# excluded context that asks nothing
ctx() { jq -cn --arg s "$1" --argjson n "$2" --argjson x "$3" \
    '{site_id: $s, excluded: $x, prompt_tokens: (if $x then null else {llama3: $n, qwen3: $n} end)}'; }
{ ctx S001 1800000 false; ctx S001 1800000 false; ctx S002 900000 false; ctx S002 900000 false
  ctx S002 0 true; } >counted.ndjson
printf 'm-one llama3 1000\nm-two qwen3 500\n' >rates.txt
rc=0; bash -e -o pipefail calc.sh >out 2>err || rc=$?
is "$rc" 0 "the calculator runs" || sed 's/^/# /' err
# m-one: S001 1 h, S002 0.5 h; m-two: 2 h and 1 h.  Two endpoints: 1 | 0.5
# then 2 on the second (free at 0.5) and 1 on the first: 2.5 h.  Three: the
# last shard joins the one free at 0.5: 2 h, half of 4.5 or less.
cat >want <<'EOF'
m-one                             5400000 prompt tokens     1.50 h
m-two                             5400000 prompt tokens     3.00 h
1 endpoint(s): 4.50 h
2 endpoint(s): 2.50 h
4 endpoint(s): 2.00 h
8 endpoint(s): 2.00 h
3 endpoints halve the time of one
EOF
files_eq out want "hours per model, wall time per number of endpoints, and the endpoints that halve it"

# one shard longer than half the study: no number of endpoints halves it
printf 'm-one llama3 100\n' >rates.txt
{ ctx S001 3600000 false; ctx S002 360000 false; } >counted.ndjson
rc=0; bash -e -o pipefail calc.sh >out 2>err || rc=$?
is "$rc" 0 "the calculator runs on one model"
is "$(tail -n 1 out)" "no number of endpoints halves it: the longest shards set it" \
   "a shard of 10 h in 11: said, not looped over forever"

done_testing
