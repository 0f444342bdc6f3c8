#!/bin/sh
# demo.sh - `make demo`: the benchmark on the built-in example site.
# Runs the stages whose programs exist and says which do not yet.
set -eu
top=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${CTXBENCH_BUILD:-$top/build}/bin
missing=""
for t in bfetch bread bmdprep bctx btok binfer bscore-merge bstats; do
	[ -x "$bin/$t" ] || missing="$missing $t"
done
if [ -n "$missing" ]; then
	echo "demo: these stages are not built yet:$missing" >&2
	echo "demo: the example pipeline needs all eight programs" >&2
	exit 1
fi
exec sh "$top/examples/pipeline.sh"
