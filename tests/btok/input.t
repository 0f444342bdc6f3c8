#!/bin/sh
# input.t - how btok reads its inputs: a pipe given as a file argument loses
# nothing (each input is read once), the UTF-8 BOM rule, records without the
# field, -f with a field no record has, and the progress line on a terminal.
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
BTOK=$(prog btok)

# 3,000 words in one record, and the same as raw text.
/usr/bin/python3 - "$T" <<'PY'
import json, sys
words = " ".join("word%d alpha beta" % i for i in range(1000))
open(sys.argv[1] + "/words.ndjson", "w").write(json.dumps({"content": words}) + "\n")
open(sys.argv[1] + "/words.txt", "w").write(words)
PY
run "$BTOK" -t llama3 "$T/words.ndjson"
want=$(jq .tokens.llama3 "$T/out")
like "$want" '^[0-9]{4,}$' "records from a regular file"
out=$(cat "$T/words.ndjson" | "$BTOK" -t llama3 /dev/stdin | jq .tokens.llama3)
is "$out" "$want" "records from a pipe given as a file argument (/dev/stdin): same count"
mkfifo "$T/fifo"
cat "$T/words.ndjson" >"$T/fifo" &
out=$("$BTOK" -t llama3 "$T/fifo" | jq .tokens.llama3)
wait
is "$out" "$want" "records from a FIFO: same count"
mkfifo "$T/fifo2"
printf '{"content":"hello"}\n' >"$T/fifo2" &
out=$("$BTOK" -t llama3 "$T/fifo2")
wait
is "$out" '{"content":"hello","tokens":{"llama3":1},"ref_token_count":1,"content_chars":5}' \
	"one short record from a FIFO is not lost"
wantraw=$("$BTOK" -t llama3 "$T/words.txt")
out=$(cat "$T/words.txt" | "$BTOK" -t llama3 /dev/stdin)
is "$out" "$wantraw" "raw text from a pipe given as a file argument: same count"
out=$(cat "$T/words.txt" | "$BTOK" -t llama3 "$T/words.txt" /dev/stdin | cut -f1 | tr '\n' ' ')
is "$out" "$wantraw $wantraw " "raw text: a file, then a pipe"

# The BOM: before '{' an error at line 1; before text, text like any other.
printf '\357\273\277{"content":"hello"}\n' >"$T/bom.ndjson"
run "$BTOK" -t llama3 "$T/bom.ndjson"
expect_status 1 "BOM before the first record: exit 1"
like "$err" "bom\\.ndjson:1: UTF-8 byte order mark before the first record" "BOM: the message names file and line"
is "$out" "" "BOM: nothing written"
run --stdin "$T/bom.ndjson" "$BTOK" -t llama3
expect_status 1 "BOM on stdin: exit 1"
run "$BTOK" -t llama3 "$T/words.ndjson" "$T/bom.ndjson"
expect_status 1 "BOM in a later record file: exit 1"
like "$err" 'bom\.ndjson:1: UTF-8 byte order mark' "BOM in a later file: named"
run "$BTOK" -r -t llama3 -i "$T/bom.ndjson"
expect_status 0 "-r: a BOM is text"
like "$out" '^[0-9]+ ' "-r: counted as text"
printf '\357\273\277Hello world' >"$T/bom.txt"
run "$BTOK" -t llama3 -i "$T/bom.txt"
is "$out" "$(printf '\357\273\277Hello world' | "$BTOK" -r -t llama3 -i)" "BOM before text: raw text, every byte counted"
printf '\357\273' >"$T/half.txt"
run "$BTOK" -t llama3 -i "$T/half.txt"
is "$out" "$(printf '\357\273' | "$BTOK" -r -t llama3 -i)" "two bytes of a BOM: raw text, nothing lost"
printf '[1]\n' >"$T/arr.txt"
run "$BTOK" -t llama3 "$T/words.ndjson" "$T/arr.txt"
expect_status 1 "record mode: a later file that is not NDJSON"
like "$err" 'arr\.txt:1: expected a JSON object' "the NDJSON reader names it"

# Records without the field: a note each; none at all: exit 1.
printf '{"content":"a b"}\n{"id":2}\n{"content":null}\n{"content":"c"}\n' >"$T/some.ndjson"
run "$BTOK" -t llama3 "$T/some.ndjson"
expect_status 0 "some records without the field: exit 0"
is "$(head -n 1 "$T/err")" "btok: $T/some.ndjson:2: content: missing, record not counted" "a note for the record without it"
is "$(sed -n 2p "$T/err")" "btok: records: 4  counted 2  without 'content' 1  (0.0 MB of text)" "then the summary line"
is "$(jq -c .tokens "$T/out" | tr '\n' ' ')" '{"llama3":2} null null {"llama3":1} ' "the others are counted"
run "$BTOK" -t llama3 -f nosuchfield -o "$T/o.ndjson" "$T/some.ndjson"
expect_status 1 "-f nosuchfield: exit 1"
like "$err" "no record had the field 'nosuchfield' to count \\(4 records read" "-f nosuchfield: the message"
DESC="-f nosuchfield: no output file" ok test ! -e "$T/o.ndjson"
/usr/bin/python3 -c 'import json
for i in range(30): print(json.dumps({"content": "x"} if i == 0 else {"text": "y"}))' >"$T/many.ndjson"
run "$BTOK" -t llama3 "$T/many.ndjson"
expect_status 0 "29 of 30 records without the field: exit 0"
is "$(printf '%s\n' "$err" | grep -c 'missing, record not counted')" "10" "ten notes"
like "$err" "29 of 30 records had no field 'content' \\(notes for the first 10\\)" "then the total"
printf '{"content":null}\n' >"$T/null.ndjson"
run "$BTOK" -t llama3 "$T/null.ndjson"
expect_status 0 "a null field is no content, not a missing field"

# The progress line on a terminal: count, MB/s, ETA.
/usr/bin/python3 -c 'import json
for i in range(2000): print(json.dumps({"content": "Some words of record %d. " % i * 20}))' >"$T/prog.ndjson"
script -qec "CTXBENCH_PROGRESS=1 $BTOK -t llama3 -o $T/p.ndjson $T/prog.ndjson" /dev/null >"$T/tty" 2>&1
like "$(tr '\r' '\n' <"$T/tty")" 'btok: [0-9]+  [0-9.]+ rec/s  [0-9.]+/[0-9.]+ MB  [0-9.]+ MB/s  ETA [0-9]+:[0-9]{2}' \
	"progress line: records, MB done of total, MB/s, ETA"
is "$(wc -l <"$T/p.ndjson" | tr -d ' ')" "2000" "with the progress line, every record written"
run "$BTOK" -t llama3 -o "$T/p2.ndjson" "$T/prog.ndjson"
is "$err" "btok: records: 2000  counted 2000  without 'content' 0  (1.1 MB of text)" \
	"no progress line when stderr is not a terminal: only the summary line"
like "$(tr '\r' '\n' <"$T/tty" | grep -v '^$' | tail -n 1)" "btok: records: 2000  counted 2000" "on a terminal too, the summary comes last"

# -o writes records whatever the input: an empty input is no record, an
# error unless --allow-empty, and never a raw count.
: >"$T/empty"
run "$BTOK" -t llama3 -o "$T/e.ndjson" "$T/empty"
expect_status 1 "-o over an empty file: exit 1"
is "$err" "btok: $T/empty: no record to count (--allow-empty when that is expected)" "saying so in one line"
[ ! -e "$T/e.ndjson" ]
is "$?" 0 "and no output file"
run "$BTOK" -t llama3 --allow-empty -o "$T/e.ndjson" "$T/empty"
expect_status 0 "--allow-empty accepts it"
is "$(wc -c <"$T/e.ndjson" | tr -d ' ')" 0 "writing an empty NDJSON file, not '0<TAB>llama3'"
printf 'some text\n' >"$T/text.txt"
run "$BTOK" -t llama3 -o "$T/t.ndjson" "$T/text.txt"
expect_status 1 "-o over raw text: exit 1"
like "$err" 'text.txt:1: expected NDJSON records: -o writes records' "naming the file and the line"
run "$BTOK" -t llama3 -r -o "$T/t.ndjson" "$T/text.txt"
expect_status 2 "-r with -o: usage error"
run "$BTOK" -t llama3 "$T/empty"
is "$out" "0" "without -o an empty file is still counted as text"

done_testing
