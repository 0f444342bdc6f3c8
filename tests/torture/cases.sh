# cases.sh - the fixtures and the representative command of each program,
# sourced by run.sh.  The fixtures are the example study's files
# (examples/pipeline.sh over the example site, run once into
# $CTXBENCH_BUILD/torture/pipe), cut to a few records, in $FIX, which every
# command only reads.  A case sets:
#   CMD       the command, run by sh -c in $OUT (the output directory)
#   RESUME    the command that continues a killed run (default: CMD)
#   OUTPUTS   its output files, relative to $OUT
#   OUTDIRS   directories it makes, absent after a failed run
#   STORES    stores the program keeps across runs (bfetch's archive):
#             after any run, store_whole checks they are consistent
#   prepare   what $OUT holds before a run (default: nothing)
#   normalize FILE: FILE without the fields that differ between two
#             undisturbed runs (default: cat)

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# pipeline_once DIR: the example study's files in DIR, made once (under a
# lock: the tests that use them may run at the same time).
pipeline_once() {
	mkdir -p "${1%/*}"
	(
		flock 9
		[ -f "$1/results.ndjson" ] && exit 0
		rm -rf "$1"
		OUT=$1 sh "$CTXBENCH_TOP/examples/pipeline.sh" >/dev/null 2>"$1.log" || {
			echo "torture: examples/pipeline.sh failed, see $1.log" >&2
			exit 1
		}
	) 9>"$1.lock"
}

start_server() {
	"$PY" "$CTXBENCH_TOP/examples/serve.py" --root "$CTXBENCH_BUILD/site" \
	    --port-file "$W/port" >/dev/null 2>&1 &
	server_pid=$!
	i=0
	while [ ! -s "$W/port" ]; do
		i=$((i + 1))
		[ $i -le 100 ] || { echo "torture: the example server did not start" >&2; exit 1; }
		sleep 0.05
	done
	PORT=$(cat "$W/port")
}

prepare_fixtures() {
	pipe=$CTXBENCH_BUILD/torture/pipe
	pipeline_once "$pipe" || exit 1
	FIX=$W/fix
	mkdir -p "$FIX"
	cp -R "$pipe/study" "$pipe/archive" "$FIX/"
	old=$(jq -r .url "$pipe/jobs.ndjson" | head -n 1 | sed 's|^\(http://[^/]*\)/.*|\1|')
	sed "s|$old|http://127.0.0.1:$PORT|g" "$pipe/study/benchmark-config.json" \
	    >"$FIX/study/benchmark-config.json"
	sed "s|$old|http://127.0.0.1:$PORT|g" "$pipe/jobs.ndjson" | head -n 4 >"$FIX/jobs.ndjson"
	head -n 3 "$pipe/manifest-a.ndjson" >"$FIX/manifest-a.ndjson"
	head -n 3 "$pipe/manifest-b.ndjson" >"$FIX/manifest-b.ndjson"
	for f in links.ndjson pages-a.ndjson pages-b.ndjson key.json \
	    autoscore.ndjson responses.ndjson scored.ndjson; do
		cp "$pipe/$f" "$FIX/"
	done
	head -n 2 "$pipe/contexts.ndjson" >"$FIX/contexts.ndjson"
	head -n 2 "$pipe/counted.ndjson" >"$FIX/counted.ndjson"
	S=$FIX/study
	cfg=$S/benchmark-config.json
}

defaults() {
	RESUME=
	OUTDIRS=
	prepare() { :; }
	store_whole() { :; }
	normalize() { cat "$1"; }
}

case_bfetch() {
	defaults
	CMD="$BIN/bfetch -c $cfg -a archive -r 0 -o m.ndjson $FIX/jobs.ndjson"
	RESUME="$BIN/bfetch -c $cfg -a archive -r 0 --resume -o m.ndjson $FIX/jobs.ndjson"
	OUTPUTS=m.ndjson
	normalize() { jq -c 'del(.fetch_timestamp, .elapsed_ms)' "$1"; }
	# The archive: every manifest line whole, manifest.json (when there)
	# the same records, every archived page with its recorded SHA-256.
	store_whole() {
		a=$OUT/archive
		[ -f "$a/manifest.ndjson" ] || return 0
		jq -e . "$a/manifest.ndjson" >/dev/null 2>&1 ||
		    violation "archive: manifest.ndjson has a cut record"
		if [ -f "$a/manifest.json" ] && ! jq -c '.[]' "$a/manifest.json" 2>/dev/null |
		    cmp -s - "$a/manifest.ndjson"; then
			violation "archive: manifest.json is not manifest.ndjson"
		fi
		# (sha256sum -c fails on no line: a run stopped before its
		# first page has nothing to check)
		sums=$(jq -r 'select(.fetch_status == "SUCCESS" and .content_sha256 != null) |
		    .content_sha256 + "  " + .archive_path' "$a/manifest.ndjson" 2>/dev/null)
		[ -z "$sums" ] || printf '%s\n' "$sums" |
		    (cd "$a" && sha256sum -c --quiet >/dev/null 2>&1) ||
		    violation "archive: a page differs from its recorded SHA-256"
	}
}

case_bread() {
	defaults
	CMD="$BIN/bread -c $cfg -a $FIX/archive -o pages.ndjson $FIX/manifest-a.ndjson"
	OUTPUTS=pages.ndjson
}

case_bmdprep() {
	defaults
	CMD="$BIN/bmdprep -c $cfg -a $FIX/archive -o pages.ndjson $FIX/manifest-b.ndjson"
	OUTPUTS=pages.ndjson
}

case_bctx() {
	defaults
	CMD="$BIN/bctx assemble -q $S/questions.json -s $S/site-list.csv -g $S/gold-answers.json -c $cfg -l $FIX/links.ndjson -o contexts.ndjson $FIX/pages-a.ndjson $FIX/pages-b.ndjson"
	OUTPUTS=contexts.ndjson
}

case_btok() {
	defaults
	CMD="$BIN/btok -o counted.ndjson $FIX/contexts.ndjson"
	OUTPUTS=counted.ndjson
}

case_binfer() {
	defaults
	CMD="$BIN/binfer -c $cfg -m extractive-baseline -e extractive --cache cache -o responses.ndjson $FIX/counted.ndjson"
	OUTPUTS=responses.ndjson
	normalize() { jq -c 'del(.timings)' "$1"; }
}

case_bscore_merge() {
	defaults
	CMD="$BIN/bscore-merge merge -k $FIX/key.json -r $FIX/responses.ndjson -o scored.ndjson --raw-data raw-data.csv --details details.json $FIX/autoscore.ndjson"
	OUTPUTS="scored.ndjson raw-data.csv details.json"
}

case_bstats() {
	defaults
	CMD="$BIN/bstats -r report.md -f figures -o results.ndjson --html browser.html $FIX/scored.ndjson"
	OUTPUTS="report.md results.ndjson figures/accuracy-by-condition.csv figures/accuracy-by-condition.svg browser.html"
	OUTDIRS=figures
}
