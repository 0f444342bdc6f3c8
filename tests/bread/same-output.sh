#!/bin/sh
# same-output.sh OLD NEW - a change to bread made for speed must not change
# what it writes: runs two bread binaries (say, one built from main and one
# from the change) over every page bread is checked on (tests/bread/page-list
# --seeds: Readability's test pages when the shared data is there, the
# documentation-generator pages, the fuzz seeds of bread_extract) under
# each option that changes the extraction (plain text, -m, -w, -w -m, a
# declared charset with -t; --json, so that title, byline and excerpt are
# compared too, and once without it) and compares the outputs byte for
# byte.  Prints one line per option set; exits 1 when any differs.
set -eu
[ $# -eq 2 ] || { echo "usage: same-output.sh OLD-BREAD NEW-BREAD" >&2; exit 2; }
OLD=$1
NEW=$2
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

W=$(mktemp -d "${TMPDIR:-/tmp}/bread-same.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
"$TOP/tests/bread/page-list" --seeds >"$W/list"
n=$(wc -l <"$W/list" | tr -d ' ')
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$W/list"

bad=0
k=0
for opts in "-j" "-j -m" "-j -w" "-j -w -m" "-j -t text/html;charset=windows-1252" "-r"; do
	k=$((k + 1))
	# shellcheck disable=SC2086
	"$OLD" -r $opts "$@" >"$W/old.$k" 2>"$W/olderr.$k" || echo "old exit $?" >>"$W/olderr.$k"
	# shellcheck disable=SC2086
	"$NEW" -r $opts "$@" >"$W/new.$k" 2>"$W/newerr.$k" || echo "new exit $?" >>"$W/newerr.$k"
	sed 's/^new exit/old exit/' "$W/newerr.$k" >"$W/newerr2.$k"
	if cmp -s "$W/old.$k" "$W/new.$k" && cmp -s "$W/olderr.$k" "$W/newerr2.$k"; then
		echo "same: bread $opts on $n pages ($(wc -c <"$W/new.$k" | tr -d ' ') bytes)"
	else
		echo "DIFFERENT: bread $opts on $n pages"
		cmp "$W/old.$k" "$W/new.$k" || true
		bad=1
	fi
done
exit "$bad"
