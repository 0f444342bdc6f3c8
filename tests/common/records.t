#!/bin/sh
# The record loop and the study loaders on good and hostile input: every bad
# input stops with exit status 1 and a message naming file and line.
. "${0%/*}/../lib/tap.sh"
D=$CTXBENCH_BUILD/tests/common/unit-driver
# The project's example study (examples/) is always there; the real study's
# corpus ($SHARED/corpus) is checked when present.
E=$TOP/examples
C=$SHARED/corpus

printf '{"a":1}\n\n  \n{"b":"\\u00e9","c":[1,2.5]}\r\n{"d":null}' >"$T/good.ndjson"
run "$D" ndjson "$T/good.ndjson"
expect_status 0 "good input copies through"
is "$out" '{"a":1}
{"b":"é","c":[1,2.5]}
{"d":null}' "blank lines skipped, CRLF tolerated, last line without newline kept"

printf '{"a":1}\n{"a":2,"b":\n' >"$T/trunc.ndjson"
run "$D" ndjson "$T/trunc.ndjson"
expect_status 1 "truncated JSON line fails"
like "$err" "^unit-driver: $T/trunc.ndjson:2: invalid JSON" "truncated line: file and line named"

printf '{"a":1}\n{"a":"x' >"$T/cut.ndjson"
run "$D" ndjson "$T/cut.ndjson"
expect_status 1 "record cut at end of input fails"
like "$err" "cut.ndjson:2: truncated record at end of input" "cut record named as truncated"

printf '{"a":1}\n{"a":"x\0y"}\n' >"$T/nul.ndjson"
run "$D" ndjson "$T/nul.ndjson"
expect_status 1 "NUL byte fails"
like "$err" "nul.ndjson:2: NUL byte at column 8" "NUL byte position reported"

printf '{"a":1}\n{"a":1}\n{"a":"caf\351"}\n' >"$T/latin1.ndjson"
run "$D" ndjson "$T/latin1.ndjson"
expect_status 1 "invalid UTF-8 fails"
like "$err" "latin1.ndjson:3: invalid UTF-8 at byte 10" "invalid UTF-8 position reported"

printf '{"a":1}\n[1,2]\n' >"$T/array.ndjson"
run "$D" ndjson "$T/array.ndjson"
expect_status 1 "a JSON array is not a record"
like "$err" "array.ndjson:2: expected a JSON object, got an array" "non-object named"

printf '"text"\n' >"$T/str.ndjson"
run "$D" ndjson "$T/str.ndjson"
like "$err" "str.ndjson:1: expected a JSON object, got a string" "a string is not a record"

printf '{"a":1,"a":2}\n' >"$T/dup.ndjson"
run "$D" ndjson "$T/dup.ndjson"
expect_status 1 "duplicate keys rejected"
like "$err" "dup.ndjson:1: invalid JSON.*duplicate" "duplicate key reported"

printf 'not json\n' >"$T/text.ndjson"
run --stdin "$T/text.ndjson" "$D" ndjson
like "$err" "^unit-driver: <stdin>:1: invalid JSON" "stdin is named <stdin>"

# A 100 MB line is read whole.
{ printf '{"big":"'; head -c 104857600 /dev/zero | tr '\0' 'a'; printf '"}\n{"after":1}\n'; } >"$T/big.ndjson"
run "$D" ndjson "$T/big.ndjson"
expect_status 0 "a 100 MB line is read"
is "$(tail -n 1 "$T/out")" '{"after":1}' "the record after a 100 MB line is read"
is "$(head -n 1 "$T/out" | wc -c)" 104857611 "the 100 MB record is written back whole"
rm -f "$T/big.ndjson"

# -o is atomic: a failure leaves the old file and no temporary.
printf 'old\n' >"$T/out.ndjson"
run "$D" ndjson -o "$T/out.ndjson" "$T/trunc.ndjson"
expect_status 1 "failure with -o"
is "$(cat "$T/out.ndjson")" "old" "failed run leaves the output file untouched"
is "$(ls -a "$T" | grep -c '^\.out\.ndjson\.')" 0 "no temporary file left behind"
run "$D" ndjson -o "$T/out.ndjson" "$T/good.ndjson"
is "$(wc -l <"$T/out.ndjson")" 3 "successful run replaces the output"

# A device given as -o is written in place, never replaced.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
run "$D" ndjson -o "$T/fifo" "$T/good.ndjson"
wait
expect_status 0 "a FIFO as output"
is "$(wc -l <"$T/fifo.out")" 3 "records written through the FIFO"
ok test -p "$T/fifo"

# A closed pipe ends quietly.
yes '{"a":1}' | head -n 200000 >"$T/many.ndjson"
rc=0
"$D" ndjson "$T/many.ndjson" 2>"$T/err" | head -n 1 >/dev/null || rc=$?
is "$(cat "$T/err")" "" "a closed pipe gives no message"

# Writing to a full device is an error.
if [ -w /dev/full ]; then
	rc=0; "$D" ndjson "$T/good.ndjson" >/dev/full 2>"$T/err" || rc=$?
	is "$rc" 1 "write error exits 1"
	like "$(cat "$T/err")" "write error" "write error is reported"
fi

# CSV reader.
printf '\357\273\277id,text\r\n1,"a\r\nb"\r\n2,"x ""y"""\r\n' >"$T/ok.csv"
run "$D" csv "$T/ok.csv"
expect_status 0 "CSV with BOM, CRLF and quoted newlines"
is "$out" '{"id":"1","text":"a\r\nb","_line":2}
{"id":"2","text":"x \"y\"","_line":4}' "CSV fields and record lines"
printf 'id,text\n1,"open\n2,x\n' >"$T/bad.csv"
run "$D" csv "$T/bad.csv"
expect_status 1 "CSV with an unterminated quote fails"
like "$err" "bad.csv:2: unterminated quoted field" "unterminated quote: file and line"
printf 'id,text\n1,a\n2\n' >"$T/short.csv"
run "$D" csv "$T/short.csv"
like "$err" "short.csv:3: expected 2 fields as in the header, got 1" "short record named"
printf 'id,text\n1,caf\351\n' >"$T/latin.csv"
run "$D" csv "$T/latin.csv"
like "$err" "latin.csv:2: invalid UTF-8 in field 2" "invalid UTF-8 in CSV named"

# The example study's files load.
run "$D" sites "$E/site-list.csv"
expect_status 0 "example site-list.csv loads"
is "$(wc -l <"$T/out")" 1 "1 example site"
like "$(head -n 1 "$T/out")" '"llms_txt_page_count":17,"has_llms_full":false' "typed columns"
run "$D" questions "$E/questions.json"
is "$(wc -l <"$T/out")" 19 "19 example questions"
run "$D" gold "$E/gold-answers.json"
is "$(wc -l <"$T/out")" 19 "19 example gold answers"
run "$D" config "$E/benchmark-config.json"
expect_status 0 "example benchmark-config.json loads"

# The study's real files load.
if need_shared corpus/site-list.csv && need_shared corpus/questions.json &&
    need_shared corpus/gold-answers.json && need_shared corpus/benchmark-config.json; then
	run "$D" sites "$C/site-list.csv"
	expect_status 0 "real site-list.csv loads"
	is "$(wc -l <"$T/out")" 37 "37 sites"
	like "$(head -n 1 "$T/out")" '"llms_txt_page_count":175,"has_llms_full":false' "typed columns"
	run "$D" questions "$C/questions.json"
	is "$(wc -l <"$T/out")" 286 "286 questions"
	run "$D" gold "$C/gold-answers.json"
	is "$(wc -l <"$T/out")" 286 "286 gold answers"
	run "$D" config "$C/benchmark-config.json"
	expect_status 0 "real benchmark-config.json loads"
else
	for i in 1 2 3 4 5 6; do skip "no shared corpus ($C): the real study files"; done
fi

# Schema errors name the line.
cat >"$T/q.json" <<'J'
[
  {"site_id": "S001", "domain": "d",
   "questions": [
     {"question_id": "S001-Q01", "text": "t?", "complexity": "single-fact",
      "source_sections": [], "source_urls": ["https://x/"]},
     {"question_id": "S001-Q02", "text": "t?", "complexity": "single-fact",
      "source_sections": [],
      "source_urls": "https://x/"}
   ]}
]
J
run "$D" questions "$T/q.json"
expect_status 1 "wrong type in questions.json fails"
is "$err" "unit-driver: $T/q.json:8: source_urls: expected an array, got a string" "wrong type: file and line"
sed 's/S001-Q02/S001-Q01/' "$T/q.json" >"$T/q2.json"
run "$D" questions "$T/q2.json"
like "$err" "q2.json:6: question_id 'S001-Q01' appears twice" "duplicate question id named"
sed 's/S001-Q02/S002-Q02/' "$T/q.json" >"$T/q3.json"
run "$D" questions "$T/q3.json"
like "$err" "q3.json:6: question_id 'S002-Q02' does not belong to site 'S001'" "question of another site named"
sed 's/"single-fact", *$/"trivia",/' "$T/q.json" >"$T/q4.json"
run "$D" questions "$T/q4.json"
like "$err" "q4.json:[0-9]+: complexity: expected single-fact" "unknown complexity named"
printf '[{"site_id":"S001","domain":"d","questions":[]}\n' >"$T/q5.json"
run "$D" questions "$T/q5.json"
like "$err" "q5.json:2: invalid JSON" "truncated questions.json named"

# Two sites made from the example's one (S002 has llms-full.txt).
{ sed -n 1,2p "$E/site-list.csv"
  sed -n 2p "$E/site-list.csv" | sed 's/"S001"/"S002"/; s/"FALSE"/"TRUE"/'; } >"$T/two.csv"
cp "$T/two.csv" "$T/sites.csv"
sed -n 2p "$E/site-list.csv" >>"$T/sites.csv"
run "$D" sites "$T/sites.csv"
like "$err" "sites.csv:4: site_id 'S001' appears twice" "duplicate site named"
sed '3s/"TRUE"/"perhaps"/' "$T/two.csv" >"$T/sites2.csv"
run "$D" sites "$T/sites2.csv"
like "$err" "sites2.csv:3: has_llms_full: expected TRUE or FALSE" "bad boolean named"

printf '{"models": [{"model_id": "m", "family": "f"},\n {"model_id": "m", "family": "g"}]}\n' >"$T/cfg.json"
run "$D" config "$T/cfg.json"
like "$err" "cfg.json:2: models\\[1\\]: model_id 'm' appears twice" "duplicate model named"
printf '{"inference_parameters": {\n "temperature": "0"}}\n' >"$T/cfg2.json"
run "$D" config "$T/cfg2.json"
like "$err" "cfg2.json:2: inference_parameters.temperature: expected a number, got a string" "config type error named"

done_testing
