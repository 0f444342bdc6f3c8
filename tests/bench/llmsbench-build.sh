#!/bin/sh
# llmsbench-build.sh - builds $CTXBENCH_BUILD/bench/llmsbench, the in-process
# side of tests/bench/bmdprep.sh and bctx.sh (llmsbench.c), against the
# libraries `make all` built (build/lib/libbmdprep.a, libbctx.a, libctx.a),
# with the Makefile's flags; prints its path.
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
OUT=$BUILD/bench/llmsbench
mkdir -p "$BUILD/bench"
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
    -I"$TOP/common" -I"$TOP/tools/bmdprep" -I"$TOP/tools/bctx" \
    $(pkg-config --cflags jansson) -o "$OUT" "$TOP/tests/bench/llmsbench.c" \
    "$BUILD/lib/libbmdprep.a" "$BUILD/lib/libbctx.a" "$BUILD/lib/libctx.a" \
    $(pkg-config --libs libcurl libxml-2.0 jansson gsl zlib libcrypto) \
    -lutf8proc -lm -lpthread
echo "$OUT"
