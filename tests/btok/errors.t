#!/bin/sh
# errors.t - bad input, bad tokenizer files, damaged compiled caches.
. "${0%/*}/../lib/tap.sh"
sh "$TOP/tools/btok/deps.sh" >&2
BTOK=$(prog btok)
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
printf 'Hello world' >"$T/h.txt"

# Usage errors: exit 2.
run "$BTOK" -t llama4 "$T/h.txt"
expect_status 2 "unknown tokenizer: usage error"
like "$err" "btok: -t: unknown tokenizer 'llama4'" "names the unknown tokenizer"
run "$BTOK" --bogus
expect_status 2 "unknown option: usage error"
like "$err" "btok: unknown option --bogus" "names the option"
run "$BTOK" -t llama3,llama3 "$T/h.txt"
expect_status 2 "a tokenizer given twice: usage error"
like "$err" "btok: -t: llama3 given twice" "names the tokenizer"
run "$BTOK" -T "=x.json" "$T/h.txt"
expect_status 2 "-T with an empty name: usage error"
like "$err" "btok: -T: empty tokenizer name in '=x.json'" "quotes the argument"

# Broken tokenizer files given with -T: exit 1 and a message naming the file.
# refused FILE DESCRIPTION PATTERN WHAT: btok -T FILE exits 1, its message
# matching PATTERN.
refused() {
	run "$BTOK" --no-cache -T "$1" "$T/h.txt"
	expect_status 1 "$2"
	like "$err" "$3" "$4"
}

printf '{"model": {"type": "BPE", "vocab": {"a": 0,' >"$T/trunc.json"
refused "$T/trunc.json" "truncated tokenizer.json" "trunc.json:1: not a valid tokenizer file" "truncated file: file, line, reason"
head -c 300000 "$tok/llama3.1/tokenizer.json" >"$T/cut.json"
refused "$T/cut.json" "a real tokenizer.json cut short" "cut.json:[0-9]+: not a valid tokenizer file" "cut file: reported with its line"
printf '{"a": 1}\n' >"$T/other.json"
refused "$T/other.json" "JSON that is no tokenizer" "neither a tokenizer.json" "says what it expected"
printf '{"model":{"type":"WordPiece","vocab":{}}}\n' >"$T/wp.json"
refused "$T/wp.json" "a model btok does not reproduce" "model: expected a BPE model" "names the model field"
printf '{"model":{"type":"BPE","vocab":{"a":0,"b":1},"merges":["a c"]},"pre_tokenizer":null,"normalizer":null}\n' >"$T/m.json"
refused "$T/m.json" "merge of a token not in the vocabulary" "model.merges\[0\]: token not in the vocabulary" "names the merge"
printf '{"model":{"type":"BPE","vocab":{"a":0,"b":0},"merges":[]}}\n' >"$T/d.json"
refused "$T/d.json" "two tokens with one id" "d.json: token id 0 given twice" "names the id"
# ids stop below 2^24 - 1: the vocabulary slots keep 8 bits of a hash above them
printf '{"model":{"type":"BPE","vocab":{"a":0,"b":16777215},"merges":[]}}\n' >"$T/big.json"
refused "$T/big.json" "a token id of 2^24 - 1" "model.vocab: b: expected a token id" "names the token"
printf '{"model":{"type":"BPE","vocab":{"a":0,"b":16777214},"merges":[]},"added_tokens":[{"id":16777215,"content":"<x>"}]}\n' >"$T/bigadd.json"
refused "$T/bigadd.json" "an added token id of 2^24 - 1" "added_tokens\[0\]: expected id and content" "names the added token"
printf '{"config":{"pattern":"x","default_vocab_size":10,"default_num_special_tokens":2},"vocab":[]}\n' >"$T/tk.json"
refused "$T/tk.json" "tekken.json with a pattern btok does not match" "config.pattern" "names config.pattern"

# A tiny tokenizer.json of the SentencePiece kind works end to end.
cat >"$T/tiny.json" <<'J'
{"added_tokens":[{"id":5,"content":"<x>","special":true,"normalized":false}],
 "normalizer":{"type":"Replace","pattern":{"String":" "},"content":"\u2581"},
 "pre_tokenizer":null,
 "model":{"type":"BPE","byte_fallback":true,"fuse_unk":true,"unk_token":"<unk>",
  "vocab":{"<unk>":0,"a":1,"b":2,"ab":3,"\u2581":4,"<0x21>":6,"\u2581ab":7},
  "merges":[["a","b"],["\u2581","ab"]]}}
J
printf 'ab ab!<x>c' >"$T/tiny.txt"
run "$BTOK" --no-cache -i -T "$T/tiny.json" "$T/tiny.txt"
is "$out" "3 7 6 5 0" "tiny SentencePiece-style BPE: merges, byte fallback, added token, unknown"

# Tokenizer files that do not match the manifest, or are missing.
mkdir -p "$T/tok/llama3.1" "$T/empty"
{ cat "$tok/llama3.1/tokenizer.json"; printf ' '; } >"$T/tok/llama3.1/tokenizer.json"
run env CTXBENCH_TOKENIZERS="$T/tok" "$BTOK" -t llama3 "$T/h.txt"
expect_status 1 "a tokenizer file whose SHA-256 differs from the manifest"
like "$err" "tokenizer.json: sha256 [0-9a-f]{64} does not match the manifest" "says so"
run env CTXBENCH_TOKENIZERS="$T/empty" "$BTOK" -t qwen3 "$T/h.txt"
expect_status 1 "a missing tokenizer file"
like "$err" "tokenizer file missing \(run 'make deps'" "tells how to get it"

# The compiled cache: built on first use, then damaged in several ways.
c=$T/cache
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
expect_status 0 "first run builds the cache"
img=$(ls "$c"/mistral-*.btc)
ok test -s "$img"
good=$out
size=$(wc -c <"$img")
cp "$img" "$T/img.orig"
# one byte flipped in the middle
/usr/bin/python3 - "$img" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 0x55
open(p, "wb").write(b)
PY
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
expect_status 0 "a tampered cache is rebuilt"
like "$err" "checksum mismatch; rebuilding" "the damage is reported"
is "$out" "$good" "same count after the rebuild"
ok cmp -s "$img" "$T/img.orig"
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
is "$err" "" "the rebuilt cache is used silently"
# truncated
head -c $((size / 3)) "$T/img.orig" >"$img"
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
like "$err" "truncated image" "a truncated cache is reported and rebuilt"
is "$out" "$good" "same count"
# another format version
/usr/bin/python3 - "$img" <<'PY'
import sys, struct
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[8:12] = struct.pack("<I", 1)
open(p, "wb").write(b)
PY
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
like "$err" "image format 1, this btok reads" "a cache of another version is rebuilt"
is "$out" "$good" "same count"
# the image of another tokenizer under this name
run "$BTOK" --cache-dir "$c" -t qwen3 "$T/h.txt"
cp "$(ls "$c"/qwen3-*.btc)" "$img"
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
like "$err" "built from another file" "an image built from another file is rebuilt"
is "$out" "$good" "same count"
# not an image at all
printf 'garbage' >"$img"
run "$BTOK" --cache-dir "$c" -t mistral "$T/h.txt"
like "$err" "not a btok image" "garbage in the cache is rebuilt"
# an unwritable cache directory: works without caching
run "$BTOK" --cache-dir /proc/btok-no-such-dir -t mistral "$T/h.txt"
expect_status 0 "unwritable cache directory: still counts"
is "$out" "$good" "same count"
like "$err" "cannot write the compiled cache" "and says the cache was not written"
run "$BTOK" --no-cache -t mistral "$T/h.txt"
is "$out" "$good" "--no-cache"

# The record of a whole check: an image unchanged since it passed is checked
# by its header alone; one changed in place after the record (the same
# inode, a new change time) is checked whole again, found damaged, rebuilt.
c2=$T/cache2
run "$BTOK" --cache-dir "$c2" -t mistral-v3 "$T/h.txt"
good3=$out
img3=$(ls "$c2"/mistral-v3-*.btc)
DESC="an image just written is not recorded (its change time is too recent)" \
    ok test ! -e "$img3.checked"
sleep 2
run "$BTOK" --cache-dir "$c2" -t mistral-v3 "$T/h.txt"
is "$err" "" "an image two seconds old is checked whole, silently"
DESC="and the whole check is recorded" ok test -s "$img3.checked"
rec=$(cat "$img3.checked")
like "$rec" "^btok-checked 1 [0-9]+ [0-9]+ $(wc -c <"$img3") [0-9]+\.[0-9]{9} [0-9a-f]{16}\$" \
    "the record: device, inode, size, change time, checksum"
run "$BTOK" --cache-dir "$c2" -t mistral-v3 "$T/h.txt"
is "$out:$err" "$good3:" "a recorded image: the same count, silently"
is "$(cat "$img3.checked")" "$rec" "the record stays as it was"
/usr/bin/python3 - "$img3" <<'PY'
import sys
p = sys.argv[1]
with open(p, "r+b") as f:
    f.seek(-4096, 2)
    b = bytearray(f.read(1)); b[0] ^= 0x55
    f.seek(-4096, 2)
    f.write(b)
PY
run "$BTOK" --cache-dir "$c2" -t mistral-v3 "$T/h.txt"
like "$err" "checksum mismatch; rebuilding" \
    "a recorded image damaged in place is checked whole and rebuilt"
is "$out" "$good3" "same count after the rebuild"

# Writing an image removes the images of other formats built from the same
# file, and their records; the images of another file of the same name, or
# of another tokenizer, stay.
c3=$T/cache3
run "$BTOK" --cache-dir "$c3" -t mistral-v3 "$T/h.txt"
img4=$(ls "$c3"/mistral-v3-*.btc 2>/dev/null)
DESC="the first run writes one image" ok test -f "$img4"
# (no image: stand-in names inside the cache, so that nothing is written
# elsewhere and the checks below fail)
[ -f "$img4" ] || img4=$c3/mistral-v3-0000000000000000.v2.btc
v=${img4##*.v}; v=${v%.btc}; base=${img4%.v*.btc}
for f in "$base.v$((v - 1)).btc" "$base.v$((v - 1)).btc.checked" \
    "$base.v$((v + 1)).btc" "$base.v1.btc"; do
	printf 'another format\n' >"$f"
done
keep1=$c3/mistral-v3-0123456789abcdef.v$((v - 1)).btc
keep2=$c3/qwen3-0123456789abcdef.v$((v - 1)).btc
keep3=$base.v$((v - 1)).btc.orig
printf 'another file\n' | tee "$keep1" "$keep2" >"$keep3"
rm -f "$img4"
run "$BTOK" --cache-dir "$c3" -t mistral-v3 "$T/h.txt"
expect_status 0 "a missing image is compiled again"
is "$out:$err" "$good3:" "the same count, silently"
DESC="the image is written" ok test -s "$img4"
left=$(cd "$c3" && ls | sort | tr '\n' ' ')
is "$left" "$(cd "$c3" && ls "${img4##*/}" "${keep1##*/}" "${keep2##*/}" \
    "${keep3##*/}" | sort | tr '\n' ' ')" \
    "the other formats of the file are removed, what is not theirs stays"

# Bad records: file and line.
printf '{"content":"a"}\n{"content":7}\n' >"$T/bad.ndjson"
run "$BTOK" -t llama3 "$T/bad.ndjson"
expect_status 1 "a content that is not a string"
like "$err" "bad.ndjson:2: content: expected a string" "file, line and field"
printf '{"content":"a","tokens":[1]}\n' >"$T/bad2.ndjson"
run "$BTOK" -t llama3 "$T/bad2.ndjson"
expect_status 1 "tokens that is not an object"
like "$err" "bad2.ndjson:1: tokens: expected an object" "names tokens"
printf '{"content":"a"}\n{"content": oops}\n' >"$T/bad3.ndjson"
run "$BTOK" -t llama3 "$T/bad3.ndjson"
expect_status 1 "a line that is not JSON"
like "$err" "bad3.ndjson:2:" "file and line"
run "$BTOK" -t llama3 "$T/no-such-file"
expect_status 1 "a missing input file"
like "$err" "no-such-file: No such file or directory" "names the file and the reason"

# Raw bytes: NUL and invalid UTF-8 count (conformance.t checks the ids).
printf 'a\000b\377c' >"$T/nul.bin"
run "$BTOK" -t llama3,qwen3,gemma3,mistral "$T/nul.bin"
expect_status 0 "NUL bytes and invalid UTF-8 in raw mode"

# Long runs the pre-tokeniser does not split: a 16 MB word is counted in
# bounded memory; over 32 MiB (here " b...": the space joins the run) is an
# error naming the file, line and field.
/usr/bin/python3 -c 'import json, sys
d = sys.argv[1]
open(d + "/w16", "w").write("".join(chr(97 + (i * 11) % 26) for i in range(16 << 20)))
open(d + "/w40.ndjson", "w").write(json.dumps({"content": "x " + "b" * (40 << 20)}) + "\n")' "$T"
/usr/bin/time -f %M -o "$T/rss" "$BTOK" -r -t llama3,mistral-v3 "$T/w16" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "$rc" 0 "a 16 MB word: exit 0"
like "$(tr '\n' ' ' <"$T/out")" '^[0-9]+	llama3 [0-9]+	mistral-v3 $' "a 16 MB word: counted"
DESC="a 16 MB word: under 1.2 GB of memory" ok test "$(tail -n 1 "$T/rss")" -lt 1200000
/usr/bin/time -f %M -o "$T/rss" "$BTOK" -t llama3 "$T/w40.ndjson" >"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "$rc" 1 "a 40 MB word: exit 1"
like "$(cat "$T/err")" "w40\\.ndjson:1: content: a run of 41943041 bytes that llama3 does not split .* limit of 32 MiB" \
	"a 40 MB word: the message names file, line, field, size and limit"
DESC="a 40 MB word: under 600 MB of memory" ok test "$(tail -n 1 "$T/rss")" -lt 600000
is "$(cat "$T/out")" "" "a 40 MB word: nothing written"

done_testing
