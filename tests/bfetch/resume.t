#!/bin/sh
# Kill-and-resume: a run killed with SIGKILL at several instants and resumed
# ends with the same archive and manifest as an uninterrupted run: no lost
# record, no duplicate, no partial file.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
start_server

N=24
{
	i=1
	while [ $i -le $N ]; do
		job S1 A "$BASE/docs/index.html?p=$i"
		[ $((i % 4)) -eq 0 ] && job S1 B "$BASE/missing/page$i.md"
		[ $((i % 6)) -eq 0 ] && job S2 B "$BASE/docs/index.md?p=$i"
		i=$((i + 1))
	done
	job S1 A "$BASE/private/secret.html"
} >"$T/jobs"
NJOBS=$(wc -l <"$T/jobs" | tr -d ' ')
OPTS="-r 40 -j 4 -t 5"

# The reference: one uninterrupted run.
run --stdin "$T/jobs" "$BFETCH" -a "$T/ref" $OPTS
expect_status 0 "uninterrupted run"
cp "$T/out" "$T/ref.out"

# The same jobs, killed three times at different instants, then resumed.
# The instants are points of progress, not times (a slow machine or a
# sanitizer build starts later): once the server has seen the run's first
# request, then after 4 and after 2 more manifest records.
lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }
for at in access.log:1 arch/manifest.ndjson:4 arch/manifest.ndjson:2; do
	f=$T/${at%:*}
	n=$(($(lines "$f") + ${at##*:}))
	"$BFETCH" -a "$T/arch" $OPTS --resume <"$T/jobs" >"$T/partial.out" 2>/dev/null &
	pid=$!
	i=0
	while [ "$(lines "$f")" -lt $n ] && kill -0 $pid 2>/dev/null && [ $i -lt 1500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
done
got=$(wc -l <"$T/arch/manifest.ndjson" | tr -d ' ')
ok test "$got" -lt "$NJOBS"
diag "manifest after the kills: $got of $NJOBS records"
# What a kill during a write could leave: a cut last line, a temporary file.
printf '{"site_id":"S1","url":"http://cut' >>"$T/arch/manifest.ndjson"
mkdir -p "$T/arch/html/S1"
printf 'partial' >"$T/arch/html/S1/.bfetch-999999999-x.html.tmp"
: >"$T/access.log"
run --stdin "$T/jobs" "$BFETCH" -a "$T/arch" $OPTS --resume
expect_status 0 "resumed run"
is "$(jq -r .url "$T/out")" "$(jq -r .url "$T/jobs")" "resumed run: one record per job, input order"
ok test ! -e "$T/arch/html/S1/.bfetch-999999999-x.html.tmp"
is "$(find "$T/arch" -name '.bfetch-*' | wc -l | tr -d ' ')" 0 "no temporary left"
archived=$(jq -r 'select(.fetch_status == "SUCCESS") | .url' "$T/ref.out" | wc -l)
requested=$(grep -c ' /docs/index' "$T/access.log")
ok test "$requested" -lt "$archived"
diag "resume requested $requested of $archived archivable pages"

# Same archive: the same files with the same bytes.
(cd "$T/ref" && find html markdown -type f | sort | xargs sha256sum) >"$T/ref.files"
(cd "$T/arch" && find html markdown -type f | sort | xargs sha256sum) >"$T/arch.files"
files_eq "$T/arch.files" "$T/ref.files" "same archive files and contents"
# Same manifest: one record per job, equal but for the timings.
strip='del(.fetch_timestamp, .elapsed_ms) | tojson'
jq -r "$strip" "$T/ref/manifest.ndjson" | sort >"$T/ref.man"
jq -r "$strip" "$T/arch/manifest.ndjson" | sort >"$T/arch.man"
files_eq "$T/arch.man" "$T/ref.man" "same manifest records"
is "$(jq -r '[.site_id,.condition,.url]|tojson' "$T/arch/manifest.ndjson" | sort | uniq -d | wc -l | tr -d ' ')" 0 "no duplicate record"
jq -r "$strip" "$T/ref.out" | sort >"$T/ref.o"
jq -r "$strip" "$T/out" | sort >"$T/arch.o"
files_eq "$T/arch.o" "$T/ref.o" "same output records"
# Earlier attempts of re-fetched jobs are kept for the audit, not lost.
if [ -s "$T/arch/manifest-superseded.ndjson" ]; then
	is "$(jq -r .fetch_status "$T/arch/manifest-superseded.ndjson" | sort -u | grep -c SUCCESS)" 0 "superseded records are failed attempts"
else
	pass "no superseded record"
fi

# SIGTERM: the run stops with 143, says how to continue, leaves no -o file.
"$BFETCH" -a "$T/term" -r 200 -j 2 -o "$T/term.out" <"$T/jobs" 2>"$T/term.err" &
pid=$!
i=0	# wait for the first record: the run is fetching
while [ ! -s "$T/term/manifest.ndjson" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $pid
rc=0
wait $pid || rc=$?
is "$rc" 143 "SIGTERM: exit 143"
like "$(cat "$T/term.err")" 'interrupted: [0-9]+ of [0-9]+ jobs not done; run again with --resume' "SIGTERM: message"
ok test ! -e "$T/term.out"
ok test -s "$T/term/manifest.ndjson"
done_testing
