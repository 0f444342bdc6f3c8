#!/bin/bash
# Every file-consuming option of every program reads a pipe without losing a
# byte: each case runs a program with a regular file, then with the same
# bytes through a pipe given as the file (bash's <(...), a /dev/fd path) and
# as /dev/stdin (cat FILE | PROG ... /dev/stdin), and the outputs must be
# the same (after dropping fields that name the time).  The inputs are the
# example study run end to end (examples/pipeline.sh) and a few of our own.
. "${0%/*}/../lib/tap.sh"
W=$T/work
export PATH="$CTXBENCH_BUILD/bin:$PATH"
rc=0
OUT=$W sh "$TOP/examples/pipeline.sh" >"$T/pipeline.log" 2>&1 || rc=$?
if ! is "$rc" 0 "the example study runs (the inputs)"; then
	tail -n 20 "$T/pipeline.log" | sed 's/^/# /'
	done_testing
	exit
fi
cd "$W" || exit 1
cp study/* .
cp "$CTXBENCH_BUILD/site/docs/install.html" page.html
printf '# Ex\n\n> e\n\n## Docs\n- [A](a.md): a\n- [B](https://e.org/b.md): b\n' >llms.txt
printf '# A\n<!-- x -->\ntext\n' >a.md
printf '# B\n' >b.md
printf '{"url":"https://e.org/b.md","markdown":"# B\\n"}\n{"url":"a.md","markdown":"# A\\n"}\n' >docs.ndjson
printf 'site_id,html_url,md_url\n' >usermap.csv
mkdir -p rub && cp "$TOP/share/rubrics/dual-track.json" rub/

# Fields that differ between two runs of the same input.
norm() { sed -E 's/"(fetched_at|started_at|finished_at|created|created_at|generated_at|elapsed_ms|duration_ms|latency_ms|wall_ms|total_ms)":("[^"]*"|[0-9.]+)/"\1":0/g'; }

# variant N COMMAND: run it by bash (pipefail); output normalised in $T/oN.
variant() {
	r=0
	bash -o pipefail -c "$2" >"$T/raw$1" 2>"$T/e$1" || r=$?
	norm <"$T/raw$1" >"$T/o$1"
	return $r
}

# pipe_case [--broken WHY] FILE COMMAND: COMMAND has @F@ where FILE goes.
# --broken: a defect found by this test and reported to the program's
# maintainers; the pipe variants are skipped naming it (the plain run is
# still checked) until the program is fixed and the flag removed.
pipe_case() {
	broken=
	if [ "$1" = --broken ]; then broken=$2; shift 2; fi
	f=$1 cmd=$2
	plain=${cmd//@F@/$f}
	ps="<(cat $f)"	# kept literal: bash would expand it inside ${//}
	sub=${cmd//@F@/$ps}
	std="cat $f | ${cmd//@F@//dev/stdin}"
	r1=0; variant 1 "$plain" || r1=$?
	if [ "$r1" -ne 0 ] || [ ! -s "$T/o1" ]; then
		fail "$plain: runs on the regular file"
		diag "exit $r1: $(head -c 400 "$T/e1")"
		return
	fi
	for v in 2 3; do
		[ $v = 2 ] && c=$sub || c=$std
		if [ -n "$broken" ]; then
			skip "$c: $broken"
			continue
		fi
		r=0; variant $v "$c" || r=$?
		if [ "$r" -eq 0 ] && cmp -s "$T/o1" "$T/o$v"; then
			pass "$c"
		else
			fail "$c"
			diag "exit $r: $(head -c 400 "$T/e$v")"
			diff "$T/o1" "$T/o$v" | head -n 6 | sed 's/^/# /'
		fi
	done
}

# bfetch: jobs, the config, the site list (planned, not fetched).
pipe_case jobs.ndjson 'bfetch --dry-run -a fresh @F@'
pipe_case benchmark-config.json 'bfetch --dry-run -c @F@ -a fresh jobs.ndjson'
pipe_case site-list.csv 'bfetch --dry-run -a fresh --sites @F@'
# bread: manifest records, an HTML page, the config.
pipe_case manifest-a.ndjson 'bread -a archive @F@'
pipe_case page.html 'bread --raw @F@'
pipe_case benchmark-config.json 'bread -c @F@ -a archive manifest-a.ndjson'
# bmdprep: records, the config, llms.txt in each mode, --doc, --docs.
pipe_case manifest-b.ndjson 'bmdprep -a archive @F@'
pipe_case benchmark-config.json 'bmdprep -c @F@ -a archive manifest-b.ndjson'
pipe_case llms.txt 'bmdprep --llms -b https://e.org/llms.txt @F@'
pipe_case llms.txt 'bmdprep --check @F@'
pipe_case llms.txt 'bmdprep --ctx --doc a.md=a.md --doc https://e.org/b.md=b.md @F@'
pipe_case a.md 'bmdprep --ctx --doc a.md=@F@ --doc https://e.org/b.md=b.md llms.txt'
pipe_case docs.ndjson 'bmdprep --ctx --docs @F@ llms.txt'
# bctx: every input of plan and assemble.
pipe_case questions.json 'bctx plan -q @F@ -s site-list.csv -l links.ndjson'
pipe_case site-list.csv 'bctx plan -q questions.json -s @F@ -l links.ndjson'
pipe_case links.ndjson 'bctx plan -q questions.json -s site-list.csv -l @F@'
pipe_case usermap.csv 'bctx plan -q questions.json -s site-list.csv -l links.ndjson -m @F@'
A='-q questions.json -s site-list.csv -g gold-answers.json -c benchmark-config.json -l links.ndjson'
pipe_case questions.json "bctx assemble ${A/-q questions.json/-q @F@} pages-a.ndjson pages-b.ndjson"
pipe_case gold-answers.json "bctx assemble ${A/-g gold-answers.json/-g @F@} pages-a.ndjson pages-b.ndjson"
pipe_case benchmark-config.json "bctx assemble ${A/-c benchmark-config.json/-c @F@} pages-a.ndjson pages-b.ndjson"
pipe_case pages-b.ndjson "bctx assemble $A pages-a.ndjson @F@"
# btok: records, the config, a plain document.
pipe_case contexts.ndjson 'btok @F@'
pipe_case benchmark-config.json 'btok -c @F@ contexts.ndjson'
pipe_case a.md 'btok -t llama3 @F@'
# binfer: records and the config (the extractive engine, no cache).
pipe_case counted.ndjson 'binfer -e extractive --no-cache @F@'
pipe_case benchmark-config.json 'binfer -c @F@ -m extractive-baseline -e extractive --no-cache counted.ndjson'
# bscore-merge: responses, the key, sheets, a rubric file.
pipe_case responses.ndjson 'bscore-merge blind --force -k k.json -d s --seed 1 @F@ 2>/dev/null && cat s/sheet.csv'
pipe_case sheets/sheet.csv 'bscore-merge autoscore --date 2026-03-01 @F@'
pipe_case autoscore.ndjson 'bscore-merge check @F@'
pipe_case key.json 'bscore-merge merge -k @F@ -r responses.ndjson autoscore.ndjson 2>/dev/null'
pipe_case responses.ndjson 'bscore-merge merge -k key.json -r @F@ autoscore.ndjson 2>/dev/null'
pipe_case autoscore.ndjson 'bscore-merge merge -k key.json -r responses.ndjson @F@ 2>/dev/null'
pipe_case rub/dual-track.json 'bscore-merge rubric -R @F@'
# bstats: scored records.
pipe_case scored.ndjson 'bstats -s 1 @F@'
done_testing
