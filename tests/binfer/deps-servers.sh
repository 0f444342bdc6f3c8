#!/bin/sh
# deps-servers.sh - build llama.cpp's llama-server and a tiny deterministic
# GGUF model for binfer's protocol tests (make deps-servers).
#
# Nothing here reaches beyond the package registries: the npm package
# node-llama-cpp ships llama.cpp's source as a git bundle
# (llama/gitRelease.bundle); it is fetched with `npm pack` (the registry's
# tarball, no install scripts run), cloned, and only the llama-server target
# is built with cmake (CPU only, no libcurl download features, Release).
# The model is written by tests/binfer/mkmodel.py with llama.cpp's own
# gguf-py from that source, Debian's numpy (/usr/bin/python3) and the Llama 3
# tokenizer that tools/btok/deps.sh obtains.
#
# Everything lands in $CTXBENCH_LLAMA_DIR, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/llama.cpp, so it is built once per
# machine; a second run returns at once.  Layout:
#   src/                    llama.cpp source at the bundled release
#   build/                  cmake build tree
#   bin/llama-server        the server
#   models/tiny-llama3.gguf the test model
#   STAMP                   what was built, checked on every run
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
PKG=node-llama-cpp@3.14.2	# llama.cpp release b6845
REV=ae3a413435dd5f142c9c0ddf0265d60a667f1ee5
MODEL_VERSION=1			# bump when mkmodel.py changes its output
dir=${CTXBENCH_LLAMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/llama.cpp}
tokdir=${CTXBENCH_TOKENIZERS:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxbench/tokenizers}
stamp="$PKG $REV model-$MODEL_VERSION"

if [ -x "$dir/bin/llama-server" ] && [ -f "$dir/models/tiny-llama3.gguf" ] &&
    [ "$(cat "$dir/STAMP" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
say() { echo "deps-servers: $*"; }
for t in npm git cmake c++ /usr/bin/python3; do
	command -v "$t" >/dev/null 2>&1 || { say "$t is needed (make deps installs it)" >&2; exit 1; }
done
mkdir -p "$dir"

# 1. The source, from the npm package's git bundle.
if [ "$(git -C "$dir/src" rev-parse HEAD 2>/dev/null)" != "$REV" ]; then
	say "fetching llama.cpp source from $PKG"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/deps-servers.XXXXXX")
	(cd "$tmp" && npm pack --silent --loglevel=error "$PKG" >/dev/null &&
	    tar xzf ./*.tgz package/llama/gitRelease.bundle)
	rm -rf "$dir/src" "$dir/build"
	git -c advice.detachedHead=false clone -q "$tmp/package/llama/gitRelease.bundle" "$dir/src"
	rm -rf "$tmp"
	git -C "$dir/src" -c advice.detachedHead=false checkout -q "$REV"
fi

# 2. llama-server alone.
if [ ! -x "$dir/bin/llama-server" ] || [ "$(cat "$dir/bin/REV" 2>/dev/null)" != "$REV" ]; then
	say "building llama-server (takes a while on a small machine)"
	nice cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release \
	    -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DGGML_NATIVE=ON \
	    -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF -DGGML_OPENMP=OFF \
	    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
	    -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON >"$dir/cmake.log" 2>&1 ||
	    { tail -20 "$dir/cmake.log" >&2; exit 1; }
	nice cmake --build "$dir/build" --target llama-server -j 2 >"$dir/build.log" 2>&1 ||
	    { tail -30 "$dir/build.log" >&2; exit 1; }
	mkdir -p "$dir/bin"
	cp "$dir/build/bin/llama-server" "$dir/bin/llama-server.tmp"
	mv "$dir/bin/llama-server.tmp" "$dir/bin/llama-server"
	echo "$REV" >"$dir/bin/REV"
fi

# 3. The model.
[ -f "$tokdir/llama3.1/tokenizer.json" ] || sh "$top/tools/btok/deps.sh"
say "writing the tiny test model"
mkdir -p "$dir/models"
PYTHONPATH="$dir/src/gguf-py" /usr/bin/python3 "$top/tests/binfer/mkmodel.py" \
    "$tokdir/llama3.1/tokenizer.json" "$dir/models/tiny-llama3.gguf.tmp"
mv "$dir/models/tiny-llama3.gguf.tmp" "$dir/models/tiny-llama3.gguf"
echo "$stamp" >"$dir/STAMP"
say "ready: $dir/bin/llama-server, $dir/models/tiny-llama3.gguf"
