#!/bin/sh
# The study Makefile's GNU parallel path across machines, on loopback: an
# sshd of the test's own (host key, config, port, authorized key made here;
# nothing of the machine's ssh setup is read or changed) listens on
# 127.0.0.1, 127.0.0.2 and 127.0.0.3, and each address is a "machine" with
# its own working directory (sshd's ForceCommand starts every session there).
# Three copies of the example site, each on its own server, make a
# three-site corpus with two models.  The study run over the three logins
# must give the same raw-data.csv, scored records and report as the run on
# one machine, and so must a run in which one machine's shard is killed and
# `make` is run again.
. "${0%/*}/../lib/tap.sh"
SSHD=/usr/sbin/sshd
for p in "$SSHD" ssh ssh-keygen parallel rsync; do
	command -v "$p" >/dev/null 2>&1 || skip_all "$p is not installed (tests/lib/ssh.apt)"
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
BIN=$CTXBENCH_BUILD/bin
S=$T/ssh
mkdir -p "$S" "$T/m1" "$T/m2" "$T/m3"

# ---- the example site three times, one server each
pids=""
stop_all() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	return 0
}
at_exit stop_all
for i in 1 2 3; do
	$PY "$TOP/examples/serve.py" --port-file "$T/site$i.port" >/dev/null 2>&1 &
	pids="$pids $!"
done
for i in 1 2 3; do
	n=0
	while [ ! -s "$T/site$i.port" ]; do
		n=$((n + 1)); [ $n -le 200 ] || { echo "Bail out! example server $i did not start"; exit 1; }
		sleep 0.05
	done
done

# ---- the corpus: sites S001-S003, the example's questions under each
C=$T/corpus
mkdir -p "$C"
head -n 1 "$TOP/examples/site-list.csv" >"$C/site-list.csv"
for i in 1 2 3; do
	o=http://127.0.0.1:$(cat "$T/site$i.port")
	sed -n 2p "$TOP/examples/site-list.csv" |
	    sed "s|https://docs.ctxbench.example|$o|g; s|^\"S001\"|\"S00$i\"|" >>"$C/site-list.csv"
	for f in questions gold-answers; do
		sed "s|https://docs.ctxbench.example|$o|g; s|S001|S00$i|g" "$TOP/examples/$f.json" >"$T/$f-$i.json"
	done
done
jq -s 'add' "$T"/questions-[123].json >"$C/questions.json"
jq -s 'add' "$T"/gold-answers-[123].json >"$C/gold-answers.json"
# two extractive models; a little politeness so a shard lasts long enough to be killed
jq '.archive_protocol.rate_limit_ms = 250
    | .models = [.models[0], (.models[0] | .model_id = "extractive-two" | .notes = "a second model")]' \
    "$TOP/examples/benchmark-config.json" >"$C/benchmark-config.json"

# study OUT [make args...]: the study Makefile's first pass into OUT
study() {
	_o=$1; shift
	make -s -C "$TOP/examples/study" CORPUS="$C" OUT="$_o" BIN="$BIN/" JOBS=2 \
	    MODELS="extractive-baseline extractive-two" "$@" first-pass
}
# same A B WHAT: raw-data.csv, scored records and report of runs A and B identical
same() {
	files_eq "$2/raw-data.csv" "$1/raw-data.csv" "$3: raw-data.csv identical"
	files_eq "$2/scored.ndjson" "$1/scored.ndjson" "$3: scored records identical"
	files_eq "$2/report.md" "$1/report.md" "$3: report identical"
	files_eq "$2/results.ndjson" "$1/results.ndjson" "$3: results identical"
}

# ---- sshd on loopback, as the test's own
# sshd run as root needs its (empty) privilege separation directory: made when
# missing and left in place, since another sshd (another run of this test, in
# another clone) may be using it; removing it would break that one mid-run
[ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ] && mkdir -m 0755 /run/sshd
port=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -C fanout-host -f "$S/host_key"
ssh-keygen -q -t ed25519 -N '' -C fanout-client -f "$S/client_key"
cp "$S/client_key.pub" "$S/authorized_keys"
{
	echo "Port $port"
	for a in 1 2 3; do echo "ListenAddress 127.0.0.$a"; done
	echo "HostKey $S/host_key"
	echo "PidFile $S/sshd.pid"
	echo "AuthorizedKeysFile $S/authorized_keys"
	echo "PasswordAuthentication no"
	echo "KbdInteractiveAuthentication no"
	echo "UsePAM no"
	echo "PermitRootLogin prohibit-password"
	echo "StrictModes no"
	echo "LogLevel VERBOSE"
	# parallel opens several connections at once per shard (command, rsync
	# out and back); on a loaded machine the default MaxStartups (10:30:100)
	# drops some of them before they authenticate
	echo "MaxStartups 200"
	echo "LoginGraceTime 120"
	for a in 1 2 3; do
		printf 'Match LocalAddress 127.0.0.%s\n\tForceCommand cd %s && eval "$SSH_ORIGINAL_COMMAND"\n' "$a" "$T/m$a"
	done
} >"$S/sshd_config"
{
	echo "Host *"
	echo "	Port $port"
	echo "	IdentityFile $S/client_key"
	echo "	IdentitiesOnly yes"
	echo "	UserKnownHostsFile $S/known_hosts"
	echo "	GlobalKnownHostsFile /dev/null"
	echo "	StrictHostKeyChecking accept-new"
	echo "	BatchMode yes"
	echo "	LogLevel ERROR"
} >"$S/ssh_config"
"$SSHD" -D -e -f "$S/sshd_config" 2>"$S/sshd.log" &
pids="$pids $!"
n=0
until ssh -F "$S/ssh_config" 127.0.0.3 true 2>/dev/null; do
	n=$((n + 1))
	if [ $n -gt 60 ]; then
		printf '1..0 # SKIP sshd cannot start on loopback: %s\n' "$(tail -n 1 "$S/sshd.log")"
		exit 0
	fi
	sleep 0.1
done
is "$(ssh -F "$S/ssh_config" 127.0.0.2 pwd)" "$T/m2" "a login to 127.0.0.2 works in machine 2's directory"
for a in 1 2 3; do echo "1/ssh -F $S/ssh_config 127.0.0.$a"; done >"$T/logins"

# ---- one machine
t0=$(date +%s)
rc=0; study "$T/one" >"$T/one.log" 2>&1 || rc=$?
t1=$(date +%s)
is "$rc" 0 "the study on one machine" || tail -n 20 "$T/one.log" | sed 's/^/# /'
is "$(jq -r .model_id "$T/one/responses.ndjson" | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
    " 114 extractive-baseline, 114 extractive-two," "3 sites x 19 questions x 2 conditions per model"

like "$(cat "$T/one/conformance.txt")" "^Q-LLMS +001 §3\.5 +MUST +39 " \
    "the study checked the corpus first (bctx check with the llms.txt records)"
is "$(jq -r .level "$T/one/conformance.ndjson" | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
    " 44 MUST, 3 NOTE, 1 SHOULD," "its findings are kept as JSON records"
rc=0; study "$T/strict" CHECK=strict >"$T/strict.log" 2>&1 || rc=$?
isnt "$rc" 0 "CHECK=strict: a failed MUST rule stops the study"
ok test ! -e "$T/strict/jobs.ndjson"
like "$(cat "$T/strict.log")" "MUST rules failed: SECTOR-COUNT 1, SECTOR-CAP 1, Q-COUNT 3, Q-LLMS 39" "... before any page is fetched, naming the rules"


# ---- three machines
rc=0; study "$T/two" SSHLOGINFILE="$T/logins" >"$T/two.log" 2>&1 || rc=$?
t2=$(date +%s)
is "$rc" 0 "the study over three ssh logins" || tail -n 20 "$T/two.log" | sed 's/^/# /'
same "$T/one" "$T/two" "three machines"
for a in 1 2 3; do
	ls "$T/m$a/ctxbench-study/shards"/pages-b-*.ndjson "$T/m$a/ctxbench-study/responses"/*.ndjson \
	    >"$T/ran-$a" 2>/dev/null
done
is "$(cat "$T"/ran-[123] | wc -l | tr -d ' ')" 9 "3 site shards and 6 inference shards ran remotely"
DESC="each shard ran once" ok test "$(cat "$T"/ran-[123] | sed 's|.*/||' | sort -u | wc -l)" -eq 9
is "$(for a in 1 2 3; do [ -s "$T/ran-$a" ] && echo y; done | wc -l | tr -d ' ')" 3 "every machine ran shards"
is "$(find "$T/two/archive" -type f | wc -l | tr -d ' ')" "$(find "$T/one/archive" -type f | wc -l | tr -d ' ')" \
    "the machines' archived pages came back"

# ---- one machine's shard killed mid-run, then make again
study "$T/three" SSHLOGINFILE="$T/logins" RWORKDIR=again RETRIES=1 >"$T/three.log" 2>&1 &
mk=$!
# a site or inference shard running on one of the machines, machine 2 preferred
victim="" vm="" n=0
while [ -z "$victim" ] && [ $n -lt 1200 ] && kill -0 "$mk" 2>/dev/null; do
	for m in 2 1 3; do
		for p in $(for c in bfetch bread bmdprep binfer; do pgrep -x "$c"; done); do
			case $(readlink "/proc/$p/cwd" 2>/dev/null) in
			"$T/m$m/again"*) victim=$p vm=$m; break 2 ;;
			esac
		done
	done
	n=$((n + 1))
	[ -z "$victim" ] && sleep 0.05
done
vname=$(cat "/proc/$victim/comm" 2>/dev/null)
[ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null
rc=0; wait "$mk" || rc=$?
DESC="a shard was found running on a machine and killed" ok test -n "$victim" ||
    tail -n 20 "$T/three.log" | sed 's/^/# /'
isnt "$rc" 0 "killing machine $vm's $vname mid-shard fails the run (RETRIES=1: no second try)" ||
    tail -n 20 "$T/three.log" | sed 's/^/# /'
rc=0; study "$T/three" SSHLOGINFILE="$T/logins" RWORKDIR=again >"$T/three-again.log" 2>&1 || rc=$?
is "$rc" 0 "make again completes the study" || tail -n 20 "$T/three-again.log" | sed 's/^/# /'
same "$T/one" "$T/three" "after the kill and a re-run"

# Measured on this run (ctxbench-scale(7) quotes such figures).
diag "one machine: $((t1 - t0)) s; three ssh logins: $((t2 - t1)) s" \
    "archive: $(du -sk "$T/one/archive" | cut -f1) KiB, study output: $(du -sk "$T/one" | cut -f1) KiB"
done_testing
