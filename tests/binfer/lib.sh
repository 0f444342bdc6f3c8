# lib.sh - start and stop binfer's test server (sourced after tap.sh).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
BINFER=$(prog binfer)
HERE=$(cd "${0%/*}" && pwd)

# start_server NAME [ARGS...]: runs server.py; sets URL_NAME... via $url and $log
start_server() {
	_n=$1; shift
	rm -f "$T/$_n.port"
	$PY "$HERE/server.py" --port-file "$T/$_n.port" --log "$T/$_n.log" "$@" &
	eval "pid_$_n=$!"
	_i=0
	while [ ! -s "$T/$_n.port" ]; do
		_i=$((_i + 1))
		[ $_i -gt 200 ] && { echo "Bail out! test server did not start"; exit 1; }
		sleep 0.05
	done
	: >>"$T/$_n.log"
	eval "url_$_n=http://127.0.0.1:$(cat "$T/$_n.port")"
}
stop_servers() {
	for _v in $(set | sed -n 's/^\(pid_[a-z0-9_]*\)=.*/\1/p'); do
		eval "kill \$$_v 2>/dev/null; wait \$$_v 2>/dev/null"
	done
	return 0
}
at_exit stop_servers

# mkctx FILE: context records from the case lines on stdin
mkctx() { $PY "$HERE/mkctx.py" >"$1"; }

# chat_count LOG: chat requests in a server log (warm-ups included)
chat_count() { grep -c '"path": "/\(api/chat\|v1/chat/completions\)"' "$1" || true; }
# asked LOG TEXT: how many requests carried TEXT in their messages
asked() { grep -F -c -- "$2" "$1" || true; }
