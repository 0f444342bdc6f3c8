#!/bin/sh
# Streaming: binfer writes each record as soon as it and those before it are
# done, and its memory is bounded by the records in flight, not the input.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

# 1,000,000 small records through the scheduler's window in under 100 MB
awk 'BEGIN { for (i = 0; i < 1000000; i++)
	printf "{\"question_id\":\"Q%d\",\"condition\":\"A\",\"question_text\":\"What is item %d?\",\"content\":\"Item %d is small.\",\"tokens\":{\"llama3\":4}}\n", i, i, i }' \
    >"$T/million.ndjson"
$PY - "$BINFER" "$T/million.ndjson" "$T/million.out" "$T/million.err" >"$T/rss" <<'PYEOF'
import resource, subprocess, sys
with open(sys.argv[3], "wb") as out, open(sys.argv[4], "wb") as err:
    rc = subprocess.call([sys.argv[1], "-e", "extractive", "--no-cache", sys.argv[2]], stdout=out,
                         stderr=err)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PYEOF
read -r rc mb <"$T/rss"
is "$rc" 0 "1,000,000 records: exit 0"
like "$(cat "$T/million.err")" "^binfer: 1000000 records in [0-9:]+: 1000000 answered, 0 excluded, 0 failed$" \
   "1,000,000 records: the summary line only"
is "$(wc -l <"$T/million.out" | tr -d ' ')" 1000000 "1,000,000 records written"
is "$(tail -n 1 "$T/million.out" | jq -r '[.question_id, .response_text] | join(" ")')" "Q999999 Item 999999 is small." \
   "the last one in its place"
if [ -n "${CTXBENCH_ASAN:-}" ]; then
	skip "resident memory is AddressSanitizer's quarantine and shadow under make asan"
else
	DESC="maximum resident memory $mb MB < 100 MB" ok test "$mb" -lt 100
fi
rm -f "$T/million.ndjson" "$T/million.out"

# with a server: the first record is written while the input is still open
start_server s
mkctx "$T/two.ndjson" <<EOF2
S001-Q01	A	First?	The first answer.
S001-Q01	B	Second?	The second answer.
EOF2
mkfifo "$T/fifo"
# the output exists before binfer's input opens (opening a FIFO waits for
# its writer, and the loop below reads the output at once)
: >"$T/streamed.out"
"$BINFER" -c "$HERE/config.json" -m qwen3-8b-q8_0 --endpoint "$url_s" --no-cache --warmup 0 \
    >"$T/streamed.out" 2>"$T/streamed.err" <"$T/fifo" &
bpid=$!
exec 7>"$T/fifo"
head -n 1 "$T/two.ndjson" >&7
i=0
while [ "$(wc -l <"$T/streamed.out")" -lt 1 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
is "$(wc -l <"$T/streamed.out" | tr -d ' ')" 1 "first record written before the input ends"
tail -n 1 "$T/two.ndjson" >&7
exec 7>&-
wait $bpid
is "$?" 0 "streamed run: exit 0"
is "$(jq -r .response_text "$T/streamed.out" | tr '\n' '|')" "Answer to: First?|Answer to: Second?|" "both answers, in order"

done_testing
