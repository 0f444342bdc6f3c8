# kill.sh - crash consistency and concurrent writers, sourced by run.sh.
#
# mode_kill: the case's command is killed with SIGKILL after each of KILLS
# delays spread evenly over an undisturbed run's duration; after each kill
# every output is absent or whole (equal to the undisturbed run's), and the
# resumed command (RESUME, else CMD again, on the same output directory)
# exits 0 with outputs equal to the undisturbed run's.
#
# mode_lock: four bfetch processes on one archive with the same jobs:
# exactly one succeeds, the others exit 1 saying why, and manifest.json
# holds each job once.

# Every output is absent or whole.
outputs_whole() {
	for o in $OUTPUTS; do
		[ -e "$OUT/$o" ] || continue
		normalize "$OUT/$o" 2>/dev/null | cmp -s - "$W/ref/$o" ||
		    violation "killed: $o is present but not whole"
	done
	return 0
}

mode_kill() {
	reset_counts
	rm -rf "$OUT" && mkdir -p "$OUT"
	t0=$(now_ms)
	(cd "$OUT" && sh -c "exec $CMD" >/dev/null 2>"$W/err")
	dur=$(($(now_ms) - t0))
	k=1
	while [ $k -le "$KILLS" ]; do
		n=$k
		rm -rf "$OUT" && mkdir -p "$OUT"
		: >"$W/stamp"
		delay=$(awk -v d="$dur" -v k="$k" -v n="$KILLS" 'BEGIN { printf "%.3f", d * k / (n + 1) / 1000 }')
		(cd "$OUT" && exec sh -c "exec $CMD" >/dev/null 2>"$W/err") &
		pid=$!
		sleep "$delay"
		kill -9 $pid 2>/dev/null && failed=$((failed + 1)) || absorbed=$((absorbed + 1))
		wait $pid 2>/dev/null
		runs=$((runs + 1))
		outputs_whole
		(cd "$OUT" && sh -c "${RESUME:-$CMD}" >/dev/null 2>"$W/err")
		rc=$?
		sanitizer_check
		[ $rc -eq 0 ] || violation "the run after the kill exits $rc"
		outputs_equal
		changed=$(find "$FIX" -newer "$W/stamp" | head -n 1)
		[ -n "$changed" ] && violation "input changed: $changed"
		k=$((k + 1))
	done
	summary "kills in a ${dur} ms run ($failed killed, $absorbed had ended), each resumed"
}

mode_lock() {
	reset_counts
	rm -rf "$OUT" && mkdir -p "$OUT"
	for i in 1 2 3 4; do
		(cd "$OUT" && exec $BIN/bfetch -c "$cfg" -a archive -r 200 -o m$i.ndjson \
		    "$FIX/jobs.ndjson" >/dev/null 2>"$W/err$i") &
		eval "p$i=\$!"
	done
	won=0
	for i in 1 2 3 4; do
		eval "wait \$p$i"
		rc=$?
		runs=$((runs + 1))
		n=$i
		if [ $rc -eq 0 ]; then
			won=$((won + 1))
			absorbed=$((absorbed + 1))
		else
			failed=$((failed + 1))
			cp "$W/err$i" "$W/err"
			[ $rc -eq 1 ] || violation "refused with status $rc"
			grep -Eq 'being fetched by another bfetch|already records' "$W/err" ||
			    violation "refused without saying why"
		fi
	done
	[ $won -eq 1 ] || violation "$won of 4 processes succeeded"
	jobs=$(wc -l <"$FIX/jobs.ndjson")
	[ "$(jq length "$OUT/archive/manifest.json")" -eq "$jobs" ] ||
	    violation "manifest.json does not hold each job once"
	summary "processes on one archive ($won succeeded)"
}
