#!/bin/sh
# The full-study Makefile.  On the example site: the path without raters
# (make first-pass with autoscore and an LLM judge, binfer's test double
# standing in for the judge's server).  On the real corpus, when present: the
# dry run without the network, its corpus conformance line, the planned
# fetches and the mapping report.
. "${0%/*}/../lib/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
pids=""
stop_all() { for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; return 0; }
at_exit stop_all
# serve NAME SCRIPT ARGS...: start a server that writes its port to $T/NAME.port
serve() {
	_n=$1; shift
	$PY "$@" --port-file "$T/$_n.port" >/dev/null 2>&1 &
	pids="$pids $!"
	_i=0
	while [ ! -s "$T/$_n.port" ]; do
		_i=$((_i + 1)); [ $_i -le 200 ] || { echo "Bail out! $_n server did not start"; exit 1; }
		sleep 0.05
	done
}
serve site "$TOP/examples/serve.py"
serve judge "$TOP/tests/binfer/server.py" --log "$T/judge.log"
C=$T/corpus
mkdir -p "$C"
for f in site-list.csv questions.json gold-answers.json benchmark-config.json; do
	sed "s|https://docs.ctxbench.example|http://127.0.0.1:$(cat "$T/site.port")|g" "$TOP/examples/$f" >"$C/$f"
done
study() {
	make -s -C "$TOP/examples/study" CORPUS="$C" OUT="$T/out" BIN="$CTXBENCH_BUILD/bin/" JOBS=2 \
	    MODELS=extractive-baseline "$@"
}
rc=0; study report >"$T/log" 2>&1 || rc=$?
isnt "$rc" 0 "without ratings the report is not made"
like "$(cat "$T/log")" "no ratings in .*/ratings yet: .*make first-pass" "... and make says how to go on"
rc=0
study JUDGE=judge-70b JUDGE_TAG=judge:latest JUDGE_ENGINE=ollama \
    JUDGE_ENDPOINT="http://127.0.0.1:$(cat "$T/judge.port")" first-pass >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make first-pass with an LLM judge" || tail -n 20 "$T/log" | sed 's/^/# /'
is "$(jq -r .rater_kind "$T/out/ratings/autoscore.ndjson" | sort -u)" autoscore "autoscore rated the sheets"
is "$(jq -r 'select(.rater_kind) | [.rater_id, .rater_kind, .primary, .rubric] | @tsv' "$T/out/ratings/judge.ndjson" | sort -u)" \
    "$(printf 'llm_judge:judge-70b\tllm_judge\tfalse\tcontext-collapse')" "the judge's records: its id and kind, not primary"
is "$(jq -r 'select(.primary == true and .rater_kind != null) | .rater_kind' "$T/out/scored.ndjson" | sort | uniq -c | tr -s ' ')" \
    " 35 llm_judge" "the judge is preferred to autoscore as primary rater"
is "$(jq -r 'select(.primary == false) | .rater_kind' "$T/out/scored.ndjson" | sort -u)" autoscore "autoscore is kept as a second rating"
like "$(cat "$T/log")" "the primary rater is not human; spec 000 §10 requires human verification" "the merge warns that a human must verify"
like "$(cat "$T/out/report.md")" "human_vs_judge" "the report computes the agreement with the judge"
like "$(cat "$T/out/report.md")" "Corpus conformance" "the report carries the corpus conformance section"
like "$(sed -n '/Corpus conformance/,$p' "$T/out/report.md")" "Q-LLMS" "... with the check's counts per rule"
ok test -s "$T/out/raw-data.csv"
rc=0; study browser >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make browser writes the results browser" || tail -n 20 "$T/log" | sed 's/^/# /'
like "$(cat "$T/out/results.html")" '"content":"S001\\tS001-Q01\\tA"' "... with the contexts (merged again with --keep-texts)"
is "$(jq -r 'has("content")' "$T/out/scored.ndjson" | sort -u)" false "scored.ndjson stays without the texts"

# ---- the EXAMPLES of ctxbench-scale(7) and bctx(1)'s check example, as written,
# from a copy of examples/ under bash -e -o pipefail
# blocks PAGE: the literal blocks of PAGE's EXAMPLES, one per line (\e -> \)
blocks() {
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$1" | awk '
	    /^\.Bd -literal/ { b = ""; on = 1; next }
	    /^\.Ed/ { if (on) { gsub(/\n/, "\036", b); print b }; on = 0; next }
	    on { gsub(/\\e/, "\\"); b = b $0 "\n" }'
}
n=0
blocks "$TOP/man/ctxbench-scale.7" >"$T/blocks"
grep 'bctx check' "$TOP/man/bctx.1" >/dev/null && blocks "$TOP/man/bctx.1" | grep 'bctx check' >>"$T/blocks"
while IFS= read -r b; do
	n=$((n + 1))
	printf '%s' "$b" | tr '\036' '\n' >"$T/example-$n.sh"
	rc=0
	rm -rf "$T/work"; mkdir -p "$T/work/examples"
	(cd "$TOP/examples" && tar cf - --exclude=./out .) | (cd "$T/work/examples" && tar xf -)
	(cd "$T/work" && PATH=$CTXBENCH_BUILD/bin:$PATH TMPDIR=$T bash -e -o pipefail "$T/example-$n.sh") \
	    >"$T/example.out" 2>&1 || rc=$?
	is "$rc" 0 "man page example $n runs: $(head -n 1 "$T/example-$n.sh")" || sed 's/^/# /' "$T/example.out" | tail -n 5
	ok test -s "$T/example.out"
done <"$T/blocks"
is "$n" 3 "the three examples were found"

# ---- the real corpus
if need_shared corpus/site-list.csv; then
	C=$SHARED/corpus
	rc=0
	make -s -C "$TOP/examples/study" dry-run CORPUS="$C" OUT="$T/study" BIN="$CTXBENCH_BUILD/bin/" >"$T/log" 2>&1 || rc=$?
	is "$rc" 0 "make dry-run on the real corpus" || tail -n 20 "$T/log" | sed 's/^/# /'
	like "$(cat "$T/log")" "^corpus conformance: +37 sites, 286 questions, 286 gold answers: 133 MUST, 99 SHOULD, 3 NOTE findings" \
	    "the dry run checks the corpus against its design first"
	like "$(cat "$T/study/dry-run-conformance.txt")" "^Q-TEXT +001 §3\.5 +MUST +64 " "its table counts the departures per rule"
	is "$(wc -l <"$T/study/dry-run-llms.ndjson" | tr -d ' ')" 50 "llms.txt and llms-full.txt fetches of 37 sites planned"
	is "$(jq -r .action "$T/study/dry-run-fetches.ndjson" | sort -u)" fetch "every page job is a planned fetch"
	like "$(cat "$T/log")" "planned page fetches: +[0-9]+" "the number of page fetches is printed"
	like "$(cat "$T/study/dry-run-mapping.txt")" "^S037" "the mapping report covers the last site"
	rc=0
	make -s -C "$TOP/examples/study" dry-run CORPUS="$C" OUT="$T/study" BIN="$T/nowhere/" >"$T/log" 2>&1 || rc=$?
	isnt "$rc" 0 "a check that cannot run stops the dry run"
else
	skip "no shared corpus ($SHARED/corpus): the dry run on the real corpus"
fi
done_testing
