# tap.sh - the shell test harness: TAP output for prove, and data-driven cases.
#
# A test script starts with
#     . "${0%/*}/../lib/tap.sh"
# and then calls ok/is/like/run ... and finally done_testing.
#
# Programs under test: prog NAME prints the path of NAME, which is
# $CTXBENCH_<NAME> (upper case, '-' as '_') when set, else
# $CTXBENCH_BUILD/bin/NAME.  So a test can be pointed at another build.
#
# run [--stdin FILE] PROG ARGS...: runs PROG with stdin from FILE (default
# /dev/null), stdout in $T/out, stderr in $T/err and the exit status in $rc.
#
# run_cases DIR: every subdirectory of DIR is one case:
#     args     arguments, one per line (optional); @DIR@ in them is the case dir
#     cmd      the program name (optional; default: the first word of the
#              test script's name, e.g. bread for bread-cases.t); a name with
#              a '/' is a path under $CTXBENCH_BUILD (test drivers)
#     stdin    standard input (optional)
#     stdout   expected standard output, compared exactly (optional)
#     stderr   expected standard error, compared exactly (optional)
#     stderr.re  an extended regular expression stderr must match (optional)
#     status   expected exit status (default 0)
# Cases run in their own directory under LC_ALL=C.

set -u
: "${CTXBENCH_TOP:=$(cd "${0%/*}/../.." && pwd)}"
: "${CTXBENCH_BUILD:=$CTXBENCH_TOP/build}"
# The study's shared data (corpus, conformance files) is read only through
# CTXBENCH_SHARED; a clone without it skips those cases (need_shared).
: "${CTXBENCH_SHARED:=$CTXBENCH_TOP/../shared}"
export CTXBENCH_TOP CTXBENCH_BUILD CTXBENCH_SHARED LC_ALL=C CTXBENCH_PROGRESS=0
TOP=$CTXBENCH_TOP
SHARED=$CTXBENCH_SHARED
T=$(mktemp -d "${TMPDIR:-/tmp}/ctxbench-test.XXXXXX")
_tap_n=0
_tap_failed=0
_tap_cleanup_hooks=""
_tap_cleanup() {
	for h in $_tap_cleanup_hooks; do $h || :; done
	rm -rf "$T"
}
trap _tap_cleanup EXIT
trap 'exit 130' INT TERM

# at_exit FUNC: run FUNC when the script ends (servers to stop ...).
at_exit() { _tap_cleanup_hooks="$1 $_tap_cleanup_hooks"; }

prog() {
	_v=$(printf '%s' "$1" | tr 'a-z-' 'A-Z_')
	eval "_p=\${CTXBENCH_$_v:-}"
	if [ -n "$_p" ]; then printf '%s\n' "$_p"; else printf '%s\n' "$CTXBENCH_BUILD/bin/$1"; fi
}

_tap_result() {	# status description
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		printf 'ok %d - %s\n' "$_tap_n" "$2"
	else
		printf 'not ok %d - %s\n' "$_tap_n" "$2"
		_tap_failed=$((_tap_failed + 1))
	fi
	return "$1"
}

diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
pass() { _tap_result 0 "$1"; }
fail() { _tap_result 1 "$1"; }
skip_all() { printf '1..0 # SKIP %s\n' "$1"; exit 0; }
skip() { _tap_n=$((_tap_n + 1)); printf 'ok %d # skip %s\n' "$_tap_n" "$1"; }
# need_shared SUBPATH: true when $SHARED/SUBPATH exists; else false, and the
# caller skips (skip or skip_all) naming what is missing.
need_shared() { [ -e "$SHARED/$1" ]; }
# need_shim: sets SHIM to the torture shim (tests/torture/shim.c), or skips
# the whole file naming why it cannot run: the shim not built, jq missing,
# or an AddressSanitizer build (the shim is an LD_PRELOAD library that
# replaces malloc, as ASan's runtime does, so the torture runs use the
# ordinary build: make torture).
need_shim() {
	SHIM=$CTXBENCH_BUILD/torture/torture.so
	[ -f "$SHIM" ] || skip_all "$SHIM not built (make all builds it)"
	command -v jq >/dev/null || skip_all "jq not installed"
	[ -z "${CTXBENCH_ASAN:-}" ] ||
	    skip_all "the torture shim replaces malloc, as AddressSanitizer does: make torture runs the ordinary build"
}

# ok COMMAND... : passes when the command succeeds; description is $DESC or the command.
ok() {
	_d=${DESC:-$*}
	if "$@"; then _tap_result 0 "$_d"; else _tap_result 1 "$_d"; fi
}

# is GOT WANT DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then _tap_result 0 "$3"; return 0; fi
	_tap_result 1 "$3"
	diag "got:      '$1'" "expected: '$2'"
	return 1
}

# isnt GOT UNWANTED DESCRIPTION
isnt() {
	if [ "$1" != "$2" ]; then _tap_result 0 "$3"; return 0; fi
	_tap_result 1 "$3"; diag "got the unwanted value: '$1'"; return 1
}

# like TEXT ERE DESCRIPTION
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then _tap_result 0 "$3"; return 0; fi
	_tap_result 1 "$3"
	diag "text:    '$(printf '%s' "$1" | head -c 2000)'" "pattern: '$2'"
	return 1
}

# unlike TEXT ERE DESCRIPTION
unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		_tap_result 1 "$3"; diag "text matched '$2': '$(printf '%s' "$1" | head -c 2000)'"; return 1
	fi
	_tap_result 0 "$3"
}

# files_eq GOT_FILE WANT_FILE DESCRIPTION
files_eq() {
	if cmp -s "$1" "$2"; then _tap_result 0 "$3"; return 0; fi
	_tap_result 1 "$3"
	diff -u "$2" "$1" 2>&1 | head -n 40 | sed 's/^/# /'
	return 1
}

# run [--stdin FILE] PROG ARGS...
run() {
	_in=/dev/null
	if [ "$1" = "--stdin" ]; then _in=$2; shift 2; fi
	rc=0
	"$@" <"$_in" >"$T/out" 2>"$T/err" || rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}

# expect_status WANT DESCRIPTION: after run
expect_status() {
	if [ "$rc" -eq "$1" ]; then _tap_result 0 "$2"; return 0; fi
	_tap_result 1 "$2"
	diag "exit status $rc, expected $1" "stderr: $(head -c 1500 "$T/err")"
	return 1
}

# json_field FILE FIELD: the value of a top-level field of every record (one per line)
json_field() { jq -r --arg f "$2" '.[$f] | if type == "string" then . else tojson end' "$1"; }

run_cases() {
	_dir=$1
	_default=${2:-$(basename "$0" .t | sed 's/-.*//')}
	for _c in "$_dir"/*/; do
		_c=${_c%/}
		_name=$(basename "$_c")
		_cmd=$_default
		[ -f "$_c/cmd" ] && _cmd=$(cat "$_c/cmd")
		_want=0
		[ -f "$_c/status" ] && _want=$(cat "$_c/status")
		_in=/dev/null
		[ -f "$_c/stdin" ] && _in=$_c/stdin
		set --
		if [ -f "$_c/args" ]; then
			while IFS= read -r _a || [ -n "$_a" ]; do
				_a=$(printf "%s" "$_a" | sed "s|@DIR@|$(cd "$_c" && pwd)|g")
				set -- "$@" "$_a"
			done <"$_c/args"
		fi
		case $_cmd in
		*/*) _p=$CTXBENCH_BUILD/$_cmd ;;
		*) _p=$(prog "$_cmd") ;;
		esac
		rc=0
		(cd "$_c" && LC_ALL=C "$_p" "$@") <"$_in" >"$T/out" 2>"$T/err" || rc=$?
		_ok=0
		_why=""
		[ "$rc" -eq "$_want" ] || { _ok=1; _why="exit status $rc, expected $_want"; }
		if [ -f "$_c/stdout" ] && ! cmp -s "$T/out" "$_c/stdout"; then
			_ok=1; _why="$_why; stdout differs"
		fi
		if [ -f "$_c/stderr" ] && ! cmp -s "$T/err" "$_c/stderr"; then
			_ok=1; _why="$_why; stderr differs"
		fi
		if [ -f "$_c/stderr.re" ] && ! grep -Eq -f "$_c/stderr.re" "$T/err"; then
			_ok=1; _why="$_why; stderr does not match stderr.re"
		fi
		if ! _tap_result $_ok "case $_name"; then
			diag "$_why" "stderr: $(head -c 1000 "$T/err")"
			[ -f "$_c/stdout" ] && diff -u "$_c/stdout" "$T/out" | head -n 30 | sed 's/^/# /'
		fi
	done
}

done_testing() {
	printf '1..%d\n' "$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}
