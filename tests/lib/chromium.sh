# chromium.sh - headless Debian chromium for the browser tests, driven over
# its DevTools port (tests/bscore-merge/page.t, tests/bstats/*browser.t,
# html-large.t, variants.t).
#
# start_chromium HEADLESS_FLAG: starts "$CHROME" in its own process group
# (setsid, so every child goes with it) with a fresh profile in $T/profile,
# no network of its own, and DevTools on 127.0.0.1; sets CPID and port, and
# stops it when the test ends.  Fails the test (and ends it) when no
# DevTools port appears within 15 s, with chromium's log as diagnostics.

# no_browser: prints why the browser tests cannot run here (no chromium, or
# a node without WebSocket) and succeeds; prints nothing and fails when they
# can.  CHROME is the chromium found, or empty.
CHROME=$(command -v chromium || command -v chromium-browser || :)
no_browser() {
	if [ -z "$CHROME" ]; then
		echo "no chromium (Debian package chromium: make deps installs it)"
		return 0
	fi
	node --experimental-websocket \
	    -e 'if (typeof WebSocket !== "function") process.exit(1)' 2>/dev/null &&
	    return 1
	echo "node has no WebSocket (node 20.10 or later needed)"
}

CPID=""
stop_chromium() {
	[ -n "$CPID" ] || return 0
	kill -TERM -- "-$CPID" 2>/dev/null || kill -TERM "$CPID" 2>/dev/null || :
	i=0
	while kill -0 "$CPID" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	kill -KILL -- "-$CPID" 2>/dev/null || :
	CPID=""
}

start_chromium() {
	mkdir -p "$T/profile"
	at_exit stop_chromium
	setsid "$CHROME" "$1" --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--no-default-browser-check --disable-extensions --disable-sync --mute-audio \
		--remote-debugging-address=127.0.0.1 --remote-debugging-port=0 \
		--user-data-dir="$T/profile" about:blank >"$T/chromium.log" 2>&1 &
	CPID=$!
	port=""
	i=0
	while [ $i -lt 150 ]; do
		if [ -s "$T/profile/DevToolsActivePort" ]; then port=$(head -n 1 "$T/profile/DevToolsActivePort"); break; fi
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$port" ]; then
		fail "chromium started with a DevTools port"
		diag "$(tail -n 20 "$T/chromium.log")"
		done_testing
		exit 1
	fi
}
