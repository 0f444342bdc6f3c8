#!/bin/sh
# Every example of every man page runs (as jq's tests/man.test runs the
# examples of jq's manual): each .Dl line and each .Bd -literal block of an
# EXAMPLES section (tests/docs/examples.awk) is run by bash with errexit and
# pipefail, from a fresh copy of a directory holding the example study run
# end to end by examples/pipeline.sh (the example site served again on its
# port, the study files under the names the pages use, a copy of examples/),
# and must exit 0.
# A page's examples that need inputs of their own get them from
# tests/docs/examples/PAGE.sh, run as "sh PAGE.sh N SCRIPT" in example N's
# directory before it (SCRIPT: the example's text as a file, so that a setup
# can key on what the example reads rather than on its number).
#
# An example that cannot run offline or as written (a model server, elided
# arguments) carries a marker on the line right before it, with the reason:
#     .\" example-skip: needs an Ollama server
# and is reported as a TAP skip with that reason; one that shows a failure
# says which exit status it expects:
#     .\" example-exit: 1
# A new example is picked up without touching this file.
. "${0%/*}/../lib/tap.sh"
W=$T/work
export PATH="$CTXBENCH_BUILD/bin:$PATH" CTXBENCH_TOP CTXBENCH_BUILD

rc=0
OUT=$W sh "$TOP/examples/pipeline.sh" >"$T/pipeline.log" 2>&1 || rc=$?
if ! is "$rc" 0 "the example study runs (the examples' inputs)"; then
	tail -n 20 "$T/pipeline.log" | sed 's/^/# /'
	done_testing
	exit
fi
# The example site again, on the port its records name.
port=$(cat "$W/port")
python3 "$TOP/examples/serve.py" --port "$port" >"$T/server.log" 2>&1 &
server=$!
stop_server() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; return 0; }
at_exit stop_server
i=0
until curl -sf -o /dev/null "http://127.0.0.1:$port/llms.txt"; do
	i=$((i + 1))
	[ $i -le 100 ] || { fail "the example site is served again on port $port"; done_testing; exit; }
	sleep 0.05
done
ORIGIN=http://127.0.0.1:$port
export ORIGIN
# The names the pages use for the study's files, and a copy of the source
# tree's examples/ for the examples that start from it.
cp "$W"/study/* "$W/"
mkdir "$W/examples"
(cd "$TOP/examples" && tar cf - --exclude=./out .) | (cd "$W/examples" && tar xf -)
ln -s pages-a.ndjson "$W/a.ndjson"
ln -s pages-b.ndjson "$W/b.ndjson"

for page in "$TOP"/man/*.[1-9]; do
	name=${page##*/}
	X=$T/ex/$name
	mkdir -p "$X"
	awk -v dir="$X" -f "$TOP/tests/docs/examples.awk" "$page" >"$X/list"
	setup=$TOP/tests/docs/examples/$name.sh
	while IFS="$(printf '\t')" read -r n want why; do
		desc="$name example $n: $(head -n 1 "$X/$n.sh" | cut -c1-60)"
		if [ -n "$why" ]; then
			skip "$desc: $why"
			continue
		fi
		R=$T/run
		rm -rf "$R"
		cp -a "$W" "$R"
		rc=0
		if [ -f "$setup" ]; then
			(cd "$R" && sh "$setup" "$n" "$X/$n.sh") >"$T/setup.log" 2>&1 || rc=$?
			if [ "$rc" -ne 0 ]; then
				fail "$desc (setup)"
				sed 's/^/# /' "$T/setup.log" | tail -n 10
				continue
			fi
		fi
		(cd "$R" && bash -e -o pipefail "$X/$n.sh") >"$T/ex.out" 2>"$T/ex.err" || rc=$?
		if ! is "$rc" "$want" "$desc"; then
			sed 's/^/# /' "$X/$n.sh"
			tail -n 10 "$T/ex.err" | sed 's/^/# /'
		fi
	done <"$X/list"
done
rm -rf "$T/run"
done_testing
