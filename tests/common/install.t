#!/bin/sh
# make install under another PREFIX and a DESTDIR, after the ordinary build
# (compiled with the default SHAREDIR): each installed program, run from
# another directory, finds its data beside it (PREFIX/share/ctxbench, through
# /proc/self/exe; common/ctx.c, ctx_share_path) and not in the source tree.
. "${0%/*}/../lib/tap.sh"
I=$T/inst
BIN=$I/usr/bin
unset CTXBENCH_SHARE
# -o all: install what the suite built, never rebuild it here.
rc=0
make -s -C "$TOP" -o all install PREFIX=/usr DESTDIR="$I" BUILD="$CTXBENCH_BUILD" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make install PREFIX=/usr DESTDIR=... after the build" || sed 's/^/# /' "$T/log"
for d in rubrics bscore-merge btok binfer; do
	DESC="data installed: share/ctxbench/$d" ok test -d "$I/usr/share/ctxbench/$d"
done
mkdir -p "$T/elsewhere"
cd "$T/elsewhere" || exit 1

for p in $(cd "$TOP/tools" && ls); do
	[ -f "$TOP/tools/$p/main.c" ] || continue
	run "$BIN/$p" --version
	like "$out" "^$p \\(ctxbench\\) " "installed $p runs from another directory"
done

# bscore-merge: a rubric by name, and the scoring page's template.
run "$BIN/bscore-merge" rubric -R dual-track
expect_status 0 "installed bscore-merge finds its rubrics"
is "$(printf '%s' "$out" | jq -r .rubric)" dual-track "... the one asked for"
cat >resp.ndjson <<'J'
{"site_id":"S001","question_id":"S001-Q01","condition":"A","model_id":"m","question_text":"What?","gold_answer":"This.","response_text":"That.","source_urls":[],"source_sections":[]}
{"site_id":"S001","question_id":"S001-Q01","condition":"B","model_id":"m","question_text":"What?","gold_answer":"This.","response_text":"This.","source_urls":[],"source_sections":[]}
J
run "$BIN/bscore-merge" blind -k key.json -d sheets --seed 1 --html resp.ndjson
expect_status 0 "installed bscore-merge writes the HTML scoring pages (page template found)"

# btok: the manifest is read (a missing tokenizer is then the error, not the manifest).
printf 'hello world\n' >h.txt
run env CTXBENCH_TOKENIZERS="$T/none" "$BIN/btok" -t qwen3 h.txt
expect_status 1 "installed btok without tokenizers fails"
like "$err" "tokenizer file missing" "... after reading its manifest"
unlike "$err" "manifest" "the manifest itself is found"

# binfer: the judge prompt of share/binfer is found (the run then fails at the server).
run "$BIN/binfer" --judge -e ollama -c "$TOP/examples/benchmark-config.json" -m judge-x \
    --model-tag j:1 --endpoint http://127.0.0.1:9 --warmup 0 --no-cache --retries 0
unlike "$err" "judge-000.txt" "installed binfer finds its judge prompt"

# Without the installed data, the programs say where they looked.
mv "$I/usr/share/ctxbench" "$I/usr/share/aside"
run "$BIN/bscore-merge" rubric -R dual-track
expect_status 1 "with the data removed, bscore-merge fails"
like "$err" "no such rubric" "... naming the missing rubric"
done_testing
