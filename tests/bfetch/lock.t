#!/bin/sh
# Several bfetch processes on one archive (bfetch(1), "Processes sharing an
# archive"): four runs of the same jobs started together, exactly one
# fetches them and the others are refused (the site is in use, or the
# manifest already records the jobs); four site shards started together all
# succeed, and manifest.json holds every record once.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"
start_server

OPTS="-r 60 -t 5"
for s in S1 S2 S3 S4; do
	i=1
	while [ $i -le 6 ]; do
		job $s A "$BASE/docs/index.html?s=$s&p=$i"
		i=$((i + 1))
	done
done >"$T/jobs"
grep '"S1"' "$T/jobs" >"$T/jobs1"

# Same jobs, four processes at once.
for k in 1 2 3 4; do
	"$BFETCH" -a "$T/same" $OPTS -o "$T/same$k.out" "$T/jobs1" 2>"$T/same$k.err" &
	eval "pid$k=\$!"
done
won=0
for k in 1 2 3 4; do
	eval "wait \$pid$k"
	st=$?
	if [ $st -eq 0 ]; then
		won=$((won + 1))
	else
		DESC="same jobs: refused run $k says why" \
		ok grep -Eq 'being fetched by another bfetch|already records' "$T/same$k.err"
		DESC="same jobs: refused run $k exits 1" ok test $st -eq 1
		DESC="same jobs: refused run $k writes no -o file" ok test ! -e "$T/same$k.out"
	fi
done
is "$won" 1 "same jobs: exactly one of four runs succeeds"
is "$(wc -l <"$T/same/manifest.ndjson" | tr -d ' ')" 6 "same jobs: each job recorded once"
is "$(jq length "$T/same/manifest.json")" 6 "same jobs: manifest.json holds the six records"

# Disjoint site shards, four processes at once.
for s in S1 S2 S3 S4; do
	"$BFETCH" -a "$T/shards" $OPTS --site $s -o "$T/shard-$s.out" "$T/jobs" 2>"$T/shard-$s.err" &
	eval "pid$s=\$!"
done
for s in S1 S2 S3 S4; do
	eval "wait \$pid$s"
	DESC="shard $s succeeds" ok test $? -eq 0
done
is "$(jq -r '.site_id + " " + .url' "$T/shards/manifest.ndjson" | sort)" \
    "$(jq -r '.site_id + " " + .url' "$T/jobs" | sort)" \
    "shards: manifest.ndjson holds every job once"
is "$(jq -c '.[]' "$T/shards/manifest.json")" "$(jq -c . "$T/shards/manifest.ndjson")" \
    "shards: manifest.json is manifest.ndjson, rebuilt by the last shard"

# A site held by a live run is refused without waiting.
mkdir -p "$T/held/.locks"
(exec 9>"$T/held/.locks/S1"; flock 9; : >"$T/ready"; exec sleep 30) >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -e "$T/ready" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
run "$BFETCH" -a "$T/held" $OPTS "$T/jobs1"
expect_status 1 "a held site: exit 1"
like "$(cat "$T/err")" "site S1 is being fetched by another bfetch process" "a held site: the message names it"
ok test ! -e "$T/held/manifest.ndjson"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
done_testing
