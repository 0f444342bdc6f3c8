#!/bin/sh
# pipeline.sh - the whole benchmark on the example site, stage by stage.
#
# Serves the example site (examples/site, built by make into build/site) on
# 127.0.0.1, then runs bfetch, bmdprep, bctx, bread, btok, binfer,
# bscore-merge and bstats, leaving every intermediate file in OUT (default
# examples/out) so each stage can be inspected or re-run by hand.  ENDPOINT
# and MODEL point binfer at a real Ollama server instead of the built-in
# extractive engine.  QUESTION (a question_id, or several separated by
# commas) and LIMIT (the first N questions) run only those questions, end to
# end.  VARIANTS=1 adds the condition variants of examples/variants.json
# (B-plain, A-markdown, A-whole and a prompt variant) beside A and B; without
# it every output is what the two-condition study writes.  SITE_PORT serves
# the site on that port (default: a free one), so that two runs name the
# same URLs.  Nothing is left running afterwards.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
build=${CTXBENCH_BUILD:-$top/build}
bin=$build/bin
ex=$top/examples
OUT=${OUT:-$ex/out}
ENDPOINT=${ENDPOINT:-}
MODEL=${MODEL:-}
QUESTION=${QUESTION:-}
LIMIT=${LIMIT:-}
VARIANTS=${VARIANTS:-}
SITE_PORT=${SITE_PORT:-0}
PATH=$bin:$PATH
export PATH

step() { printf '%s\n' "== $*" >&2; }

rm -rf "$OUT"
mkdir -p "$OUT/study"

# The example site on a free loopback port.
server_pid=""
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
python3 "$ex/serve.py" --root "$build/site" --port "$SITE_PORT" --port-file "$OUT/port" &
server_pid=$!
i=0
while [ ! -s "$OUT/port" ]; do
	i=$((i + 1))
	[ $i -le 400 ] || { echo "demo: the example server did not start" >&2; exit 1; }
	kill -0 "$server_pid" 2>/dev/null || { echo "demo: the example server failed" >&2; exit 1; }
	sleep 0.05
done
port=$(cat "$OUT/port")
origin="http://127.0.0.1:$port"
step "example site served at $origin"

# The study's files, pointed at the local server.
for f in site-list.csv questions.json gold-answers.json benchmark-config.json; do
	sed "s|https://docs.ctxbench.example|$origin|g" "$ex/$f" >"$OUT/study/$f"
done
S=$OUT/study
if [ -n "$QUESTION$LIMIT" ]; then
	sh "$ex/select-questions.sh" "$S/questions.json" "$QUESTION" "$LIMIT" >"$S/questions.json.tmp"
	mv "$S/questions.json.tmp" "$S/questions.json"
	step "only ${QUESTION:+question $QUESTION}${QUESTION:+${LIMIT:+, }}${LIMIT:+the first $LIMIT questions}"
fi
cfg=$S/benchmark-config.json
A=$OUT/archive

# ---- condition variants (VARIANTS=1), part 1: the config declaring them is
# the study's with examples/variants.json's "variants" and "comparisons".
vcfg=""
vpages=""
if [ -n "$VARIANTS" ] && [ "$VARIANTS" != 0 ]; then
	vcfg=$S/benchmark-config-variants.json
	jq -s '.[0] * (.[1] | del(._comment))' "$cfg" "$ex/variants.json" >"$vcfg"
	step "condition variants: $(jq -r '[.variants[] | if type == "string" then . else .name end] | join(", ")' "$vcfg")"
fi
# ---- end of condition variants, part 1
cd "$OUT"

step "bfetch: the site's llms.txt"
bfetch -c "$cfg" -a "$A" -r 0 --sites "$S/site-list.csv" -o llms-manifest.ndjson
step "bmdprep --llms: parse llms.txt"
bmdprep --llms -a "$A" -o links.ndjson llms-manifest.ndjson
step "bctx plan: map source URLs, plan the fetches"
bctx plan -q "$S/questions.json" -s "$S/site-list.csv" -l links.ndjson -o jobs.ndjson
bctx plan -q "$S/questions.json" -s "$S/site-list.csv" -l links.ndjson --report >mapping-report.txt
step "bfetch: $(wc -l <jobs.ndjson) pages"
bfetch -c "$cfg" -a "$A" -r 0 --resume -o manifest.ndjson jobs.ndjson
step "bread: condition A"
jq -c 'select(.condition == "A")' manifest.ndjson >manifest-a.ndjson
bread -c "$cfg" -a "$A" -o pages-a.ndjson manifest-a.ndjson
# ---- condition variants, part 2: each declared variant of A extracted by
# its own bread run, its page records stamped with the variant's name.
if [ -n "$vcfg" ]; then
	for v in $(jq -r '.variants[] | strings | select(. == "A-markdown" or . == "A-whole")' "$vcfg"); do
		step "bread --variant $v"
		bread -c "$cfg" -a "$A" --variant "$v" -o "pages-$v.ndjson" manifest-a.ndjson
		vpages="$vpages pages-$v.ndjson"
	done
fi
# ---- end of condition variants, part 2
step "bmdprep: condition B"
jq -c 'select(.condition == "B")' manifest.ndjson >manifest-b.ndjson
bmdprep -c "$cfg" -a "$A" -o pages-b.ndjson manifest-b.ndjson
step "bctx assemble: contexts and prompts"
# (with VARIANTS: the config declaring the variants, and their pages)
# shellcheck disable=SC2086
bctx assemble -q "$S/questions.json" -s "$S/site-list.csv" -g "$S/gold-answers.json" \
    -c "${vcfg:-$cfg}" -l links.ndjson -o contexts.ndjson pages-a.ndjson pages-b.ndjson $vpages
step "btok: token counts"
btok -o counted.ndjson contexts.ndjson
if [ -n "$ENDPOINT" ] && [ -n "$MODEL" ]; then
	step "binfer: $MODEL at $ENDPOINT"
	binfer -c "$cfg" -m "$MODEL" -e ollama --endpoint "$ENDPOINT" --cache cache \
	    -o responses.ndjson counted.ndjson
else
	step "binfer: the extractive engine"
	binfer -c "$cfg" -m extractive-baseline -e extractive --cache cache \
	    -o responses.ndjson counted.ndjson
fi
step "bscore-merge: blind, autoscore, merge"
bscore-merge blind -k key.json -d sheets --seed 42 --sources responses.ndjson
bscore-merge autoscore --rater autoscore -o autoscore.ndjson sheets/sheet.csv
# --keep-texts: the scored records keep contents, prompts and raw answers,
# which the results browser shows (a small study; see bstats(1) for a large one)
bscore-merge merge -k key.json -r responses.ndjson -o scored.ndjson --keep-texts \
    --raw-data raw-data.csv --details hallucination-details.json autoscore.ndjson

# ---- re-archive drift (VARIANTS=1; spec 001 §7 L-SL-2): the example site
# some months later (build/site-v2, examples/site/build.py --version 2)
# served at the same address in place of the first, archived again the same
# way for the same questions (its llms.txt fetched and mapped again, so that
# pages it lists since, or no longer, count as new or gone), then compared
# page by page with the first snapshot by bctx drift; bstats --drift adds
# the report's "Content drift between snapshots".
drift_opt=""
if [ -n "$VARIANTS" ] && [ "$VARIANTS" != 0 ]; then
	kill "$server_pid" 2>/dev/null || :
	wait "$server_pid" 2>/dev/null || :
	rm -f "$OUT/port"
	python3 "$ex/serve.py" --root "$build/site-v2" --port "$port" --port-file "$OUT/port" &
	server_pid=$!
	i=0
	until [ -s "$OUT/port" ] || [ $i -gt 400 ] || ! kill -0 "$server_pid" 2>/dev/null; do
		i=$((i + 1)); sleep 0.05
	done
	[ -s "$OUT/port" ] || { echo "demo: the later example site could not be served on port $port" >&2; exit 1; }
	step "drift: the example site some months later, archived again at $origin"
	mkdir -p drift
	bfetch -c "$cfg" -a drift/archive -r 0 --sites "$S/site-list.csv" -o drift/llms-manifest.ndjson
	bmdprep --llms -a drift/archive -o drift/links.ndjson drift/llms-manifest.ndjson
	bctx plan -q "$S/questions.json" -s "$S/site-list.csv" -l drift/links.ndjson -o drift/jobs.ndjson
	bfetch -c "$cfg" -a drift/archive -r 0 --resume -o drift/manifest.ndjson drift/jobs.ndjson
	jq -c 'select(.condition == "A")' drift/manifest.ndjson |
	    bread -c "$cfg" -a drift/archive -o drift/pages-a.ndjson
	jq -c 'select(.condition == "B")' drift/manifest.ndjson |
	    bmdprep -c "$cfg" -a drift/archive -o drift/pages-b.ndjson
	step "bctx drift: the two snapshots page by page"
	bctx drift --old pages-a.ndjson --old pages-b.ndjson \
	    --new drift/pages-a.ndjson --new drift/pages-b.ndjson -o drift.ndjson
	drift_opt="--drift drift.ndjson"
fi

step "bstats: the analysis and the results browser"
# (with VARIANTS: the declared comparisons, from the config, and the drift)
# shellcheck disable=SC2086
bstats ${vcfg:+--config "$vcfg"} -r report.md -f figures -o results.ndjson \
    --html results.html $drift_opt scored.ndjson

kill "$server_pid" 2>/dev/null || :
wait "$server_pid" 2>/dev/null || :
server_pid=""
cat <<EOM
The example study ran end to end. Its results:
  report          $OUT/report.md
  results browser $OUT/results.html (open it in a browser: every pair, its
                  evidence and transcript)
  figures         $OUT/figures/
  raw data        $OUT/raw-data.csv
  scored records  $OUT/scored.ndjson
  test results    $OUT/results.ndjson
  mapping report  $OUT/mapping-report.txt
Every stage's input and output is kept in $OUT.
EOM
exit 0
