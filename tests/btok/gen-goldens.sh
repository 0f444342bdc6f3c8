#!/bin/sh
# gen-goldens.sh - regenerate tests/btok/golden/ from the reference tokenizers.
#
#   sh tests/btok/gen-goldens.sh            (after make deps)
#
# Installs the references (ref-install.sh) under $CTXBENCH_BUILD/btok-ref
# (default build/btok-ref) and runs ref.js over tests/btok/corpus.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ref=${CTXBENCH_BUILD:-$top/build}/btok-ref
sh "$here/ref-install.sh" "$ref"
tok=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
mkdir -p "$here/golden"
NODE_PATH=$ref/node_modules node "$here/ref.js" goldens "$tok" "$top/share/btok" \
	"$here/corpus" "$here/golden"
