#!/bin/sh
# The unit tests of common/http.c against a loopback server.
. "${0%/*}/../lib/tap.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" "$TOP/tests/http/server.py" --port-file "$T/port" &
pid=$!
stop() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
at_exit stop
i=0
while [ ! -s "$T/port" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || { echo "Bail out! test server did not start"; exit 1; }
	sleep 0.05
done
"$CTXBENCH_BUILD/tests/http/unit-http" "$(cat "$T/port")"
exit $?
