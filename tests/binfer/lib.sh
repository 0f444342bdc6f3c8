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

# llama.cpp's llama-server and the tiny test model (make deps-servers)
LLAMA_DIR=${CTXBENCH_LLAMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/llama.cpp}
LLAMA_SERVER=$LLAMA_DIR/bin/llama-server
LLAMA_MODEL=$LLAMA_DIR/models/tiny-llama3.gguf
have_llama() { [ -x "$LLAMA_SERVER" ] && [ -f "$LLAMA_MODEL" ]; }

# start_llama NAME [ARGS...]: llama-server on a free loopback port, verbose
# log in $T/NAME.log; sets url_NAME and pid_NAME
start_llama() {
	_n=$1; shift
	_p=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$LLAMA_SERVER" --host 127.0.0.1 --port "$_p" -v -t 1 --no-webui "$@" \
	    >"$T/$_n.log" 2>&1 &
	eval "pid_$_n=$!"
	eval "url_$_n=http://127.0.0.1:$_p"
	_i=0
	until curl -fs "http://127.0.0.1:$_p/health" >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -gt 600 ] || ! kill -0 "$(eval echo \$pid_$_n)" 2>/dev/null; then
			echo "Bail out! llama-server did not start:"; tail -n 5 "$T/$_n.log"; exit 1
		fi
		sleep 0.1
	done
}
