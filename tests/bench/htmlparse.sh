#!/bin/sh
# htmlparse.sh - `make bench` for the parser under bread (issue 34): the CPU
# time each HTML parser written in C that Debian packages takes to parse the
# pages of tests/bench/bread.sh (tests/bread/page-list), decoded as bread
# decodes them, against libxml2 parsing them as bread does (bread's own
# bread_parse, linked from build/lib/libbread.a), all in one process,
# interleaved, ROUNDS times (tests/bench/htmlparse.c).
#
# The candidates: gumbo (libgumbo-dev), MyHTML (libmodest-dev, which ships
# it), HTML Tidy (libtidy-dev); hubbub (libhubbub-dev) and lexbor
# (liblexbor-dev) are looked up too.  A package that is not installed is
# installed with apt-get when this runs as root and Debian has it; one that
# cannot be installed, or that Debian does not package, is skipped, saying so.
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
ROUNDS=${HTMLPARSE_ROUNDS:-3}
OUT=$BUILD/bench/htmlparse

# package header define library, one a line; no define: no driver in htmlparse.c
CANDIDATES='libgumbo-dev gumbo.h GUMBO -lgumbo
libmodest-dev myhtml/api.h MYHTML -lmodest
libtidy-dev tidy/tidy.h TIDY -ltidy
libhubbub-dev hubbub/parser.h - -
liblexbor-dev lexbor/html/parser.h - -'

# 0 when Debian's package lists know package $1 and it has a candidate
packaged() {
	apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'
}

defs=
libs=
while read -r pkg hdr def lib; do
	if [ ! -f "/usr/include/$hdr" ]; then
		if ! packaged "$pkg"; then
			echo "skip: $pkg is not packaged by this system's Debian"
			continue
		fi
		if [ "$(id -u)" -ne 0 ] ||
		    ! apt-get install -y -q "$pkg" >/dev/null 2>&1 ||
		    [ ! -f "/usr/include/$hdr" ]; then
			echo "skip: $pkg could not be installed"
			continue
		fi
	fi
	if [ "$def" = - ]; then
		echo "skip: $pkg is installed, but htmlparse.c has no driver for it"
		continue
	fi
	defs="$defs -DHAVE_$def"
	libs="$libs $lib"
done <<EOF
$CANDIDATES
EOF

# the libxml2 side is bread's own parse: build/lib/libbread.a, as `make all`
# built it, with the libraries the Makefile names (PKGS)
PKGS=$(sed -n 's/^PKGS *= *//p' "$TOP/Makefile")
mkdir -p "$BUILD/bench"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $defs \
    -I"$TOP/common" -I"$TOP/tools/bread" -I"$TOP/tests/bench" \
    $(pkg-config --cflags $PKGS) -o "$OUT" "$TOP/tests/bench/htmlparse.c" \
    "$BUILD/lib/libbread.a" "$BUILD/lib/libctx.a" \
    $(pkg-config --libs $PKGS) $libs -lutf8proc -lm -lpthread

W=$(mktemp -d "${TMPDIR:-/tmp}/htmlparse-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
"$TOP/tests/bread/page-list" >"$W/list"
n=$(wc -l <"$W/list" | tr -d ' ')
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$W/list"
"$OUT" "$ROUNDS" "$@" >"$W/times"

echo "HTML parsers on $n pages x $ROUNDS rounds, one process, interleaved (CPU, user+sys)"
awk '
NR == 1 { base = $2 + $3 }
{ t = $2 + $3
  rows[NR] = sprintf("%-10s %9.3f %9.3f %9.3f %8.2fx %10d", $1, $2, $3, t,
      base / t, $4) }
END {
  printf "%-10s %9s %9s %9s %9s %10s\n", "parser", "parse s", "free s",
      "total s", "speed", "elements"
  for (i = 1; i <= NR; i++) print rows[i]
  print "(speed: libxml2 total / parser total; elements: one parse of each page)"
}' "$W/times"
