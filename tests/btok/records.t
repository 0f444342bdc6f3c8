#!/bin/sh
# records.t - btok's record mode (notes/records.md "btok adds") and raw mode.
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
BTOK=$(prog btok)

cat >"$T/in.ndjson" <<'J'
{"site_id":"s1","question_id":"q1","condition":"A","content":"Hello world","system_prompt":"You are helpful.","user_prompt":"Answer: hi","extra":{"k":[1,2]}}
{"site_id":"s1","question_id":"q2","condition":"B","content":"","excluded":true}
{"site_id":"s2","question_id":"q3","condition":"A","content":null,"exclusion_reason":"HTTP_404"}
{"site_id":"s2","question_id":"q4","condition":"B","content":"日本語 text","content_chars":999,"tokens":{"other":5}}
J
run "$BTOK" -t llama3,mistral "$T/in.ndjson"
expect_status 0 "records: exit 0"
is "$(jq -c '.tokens' "$T/out" | tr '\n' ' ')" \
	'{"llama3":2,"mistral":2} {"llama3":0,"mistral":0} null {"other":5,"llama3":3,"mistral":3} ' \
	"tokens{} per record; null content untouched; existing tokens kept"
is "$(jq -c '.ref_token_count' "$T/out" | tr '\n' ' ')" '2 0 null 3 ' "ref_token_count is the llama3 count"
is "$(jq -c '.content_chars' "$T/out" | tr '\n' ' ')" '11 0 null 999 ' "content_chars added when absent, kept when present"
is "$(jq -c '.prompt_tokens' "$T/out" | tr '\n' ' ')" '{"llama3":7,"mistral":7} null null null ' \
	"prompt_tokens: system_prompt + user_prompt counted separately and summed"
is "$(jq -c '[.site_id,.question_id,.extra]' "$T/out" | head -n 1)" '["s1","q1",{"k":[1,2]}]' "other fields pass through"
is "$(jq -r '.question_id' "$T/out" | tr '\n' ' ')" 'q1 q2 q3 q4 ' "output order is input order"

# Counts above: Hugging Face tokenizers gives llama3 [102433,102158,1495] for
# "日本語 text", 4 + 3 ids for the two prompts.
printf 'Hello world' >"$T/h.txt"
run "$BTOK" -t llama3 "$T/h.txt"
is "$out" "2" "raw mode prints the count"
run "$BTOK" -t llama3 -i "$T/h.txt"
is "$out" "9906 1917" "raw mode --ids prints the ids"
run --stdin "$T/h.txt" "$BTOK" -t llama3,qwen3
is "$out" "$(printf '2\tllama3\n2\tqwen3')" "raw mode from stdin with two tokenizers: count and name"
run "$BTOK" -t gemma3 "$T/h.txt" "$T/h.txt"
is "$out" "$(printf '2\t%s\n2\t%s' "$T/h.txt" "$T/h.txt")" "raw mode with two files: count and file"

# --ids in record mode; -f FIELD; no ref_token_count without llama3.
printf '{"text":"Hello world","content":"x y z"}\n' >"$T/f.ndjson"
run "$BTOK" -t qwen3 -f text --ids "$T/f.ndjson"
expect_status 0 "-f text --ids"
is "$(jq -c '[.tokens, .token_ids, .ref_token_count, .content_chars]' "$T/out")" \
	'[{"qwen3":2},{"qwen3":[9707,1879]},null,null]' "-f counts the named field, --ids adds token_ids"

# A '{' first byte means records; -r forces raw text.
printf '{"content":"a"}\n' >"$T/j.txt"
run "$BTOK" -r -t llama3 "$T/j.txt"
is "$out" "5" "-r reads JSON-looking input as raw text"

# Special tokens: matched by default, text with -S.
printf '{"content":"<|begin_of_text|>hi"}\n' >"$T/s.ndjson"
run "$BTOK" -t llama3 -i "$T/s.ndjson"
is "$(jq -c '.token_ids.llama3' "$T/out")" '[128000,6151]' "special token text is the special token by default"
run "$BTOK" -t llama3 -i -S "$T/s.ndjson"
is "$(jq -c '.token_ids.llama3' "$T/out")" '[27,91,7413,3659,4424,91,29,6151]' "-S encodes special-token text as text"

# -o writes the file atomically.
run "$BTOK" -t llama3 -o "$T/o.ndjson" "$T/in.ndjson"
expect_status 0 "-o FILE"
is "$(jq -c .tokens.llama3 "$T/o.ndjson" | tr '\n' ' ')" '2 0 null 3 ' "-o output holds the records"
is "$out" "" "-o: nothing on stdout"

# Several input files in order.
run "$BTOK" -t llama3 "$T/in.ndjson" "$T/f.ndjson"
is "$(wc -l <"$T/out" | tr -d ' ')" "5" "records of every input file"

# -T: any tokenizer.json or tekken.json, named after the file or NAME=.
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
run "$BTOK" -T "mine=$tok/llama3.1/tokenizer.json" -T "$tok/mistral/tekken.json" --cache-dir "$T/cache" "$T/in.ndjson"
expect_status 0 "-T NAME=FILE and -T FILE"
is "$(jq -c '.tokens' "$T/out" | head -n 1)" '{"mine":2,"tekken":2}' "-T tokenizers named mine and tekken"

# The EXAMPLES of btok(1).
printf 'Some llms-full.txt text.\n' >"$T/llms-full.txt"
run --stdin "$T/llms-full.txt" "$BTOK" -t gemma3
like "$out" '^[0-9]+$' "example: btok -t gemma3 < llms-full.txt"
printf '{"content":"Hello world"}\n' >"$T/contexts.ndjson"
run "$BTOK" "$T/contexts.ndjson"
is "$(jq -c .tokens "$T/out")" '{"llama3":2,"qwen3":2,"gemma3":2,"mistral":2,"mistral-v3":2}' "example: btok contexts.ndjson"
out=$(printf '<|eot_id|>' | "$BTOK" -r -i -S -t llama3)
is "$out" "27 91 68 354 851 91 29" "example: printf '<|eot_id|>' | btok -r -i -S -t llama3"

done_testing
