# lib.sh - shared by the bfetch tests: the test server and job helpers.
# Source after tap.sh.  start_server starts server.py on 127.0.0.1 at a free
# port (PORT, BASE) with its request log in $T/access.log, stopped at exit.
HERE=$TOP/tests/bfetch
BFETCH=$(prog bfetch)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

_stop_server() {
	[ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null
	[ -n "${SERVER_PID:-}" ] && wait "$SERVER_PID" 2>/dev/null
	SERVER_PID=
}

start_server() {
	rm -f "$T/port"
	"$PY" "$HERE/server.py" --root "$HERE/site" --port-file "$T/port" \
	    --log "$T/access.log" &
	SERVER_PID=$!
	at_exit _stop_server
	_i=0
	while [ ! -s "$T/port" ]; do
		_i=$((_i + 1))
		if [ "$_i" -gt 100 ]; then
			echo "Bail out! test server did not start"
			exit 1
		fi
		sleep 0.05
	done
	PORT=$(cat "$T/port")
	BASE="http://127.0.0.1:$PORT"
}

# job SITE CONDITION URL: one fetch job line
job() { printf '{"site_id":"%s","url":"%s","condition":"%s"}\n' "$1" "$3" "$2"; }

# rec FILE URL FIELD: FIELD of the record for URL
rec() { jq -r --arg u "$2" --arg f "$3" 'select(.url == $u) | .[$f] | if type == "string" then . else tojson end' "$1"; }
