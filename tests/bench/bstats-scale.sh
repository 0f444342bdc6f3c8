#!/bin/sh
# bench/bstats-scale.sh - bstats at 1, 10 and 100 times the study (2,860,
# 28,600 and 286,000 pairs of 10 models; tests/bstats/gen-study.py): CPU
# time (user + system) and peak RSS of one analysis each, and the result
# records and the report checked byte for byte, in the same run, against a
# reference bstats compiled from an earlier revision
# (CTXBENCH_BSTATS_REF_REV; by default 1e04c1e, before the ratings were
# held compactly: an older one, such as dedac2a before the sort keys,
# predates results added on purpose since and differs), so that the speed
# comes with the same results.
# CTXBENCH_BSTATS_REF names a reference binary to use instead;
# CTXBENCH_BSTATS_SCALES the scales (default "1 10 100").
set -eu
: "${CTXBENCH_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${CTXBENCH_BUILD:=$CTXBENCH_TOP/build}"
B=${CTXBENCH_BSTATS:-$CTXBENCH_BUILD/bin/bstats}
W=$CTXBENCH_BUILD/bench/bstats-scale
REV=${CTXBENCH_BSTATS_REF_REV:-1e04c1e}
mkdir -p "$W"
[ -x "$B" ] || { echo "bench: $B is missing (make all)" >&2; exit 1; }

# the reference: bstats of revision REV, compiled apart
REF=${CTXBENCH_BSTATS_REF:-}
if [ -z "$REF" ]; then
	REF=$W/bstats-ref
	if [ ! -x "$REF" ] || [ "$(cat "$W/ref-rev" 2>/dev/null)" != "$REV" ]; then
		rm -rf "$W/ref" && mkdir -p "$W/ref"
		git -C "$CTXBENCH_TOP" archive "$REV" common tools/bstats | tar -x -C "$W/ref"
		PK="libcurl libxml-2.0 jansson gsl zlib libcrypto"
		# shellcheck disable=SC2046
		(cd "$W/ref" && cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
		    -DCTX_VERSION='"ref"' -DCTX_SHAREDIR='"."' -Icommon $(pkg-config --cflags $PK) \
		    common/*.c tools/bstats/*.c -o "$REF" $(pkg-config --libs $PK) -lutf8proc -lm -lpthread)
		echo "$REV" >"$W/ref-rev"
	fi
fi

for x in ${CTXBENCH_BSTATS_SCALES:-1 10 100}; do
	[ -s "$W/study-$x.ndjson" ] ||
		python3 "$CTXBENCH_TOP/tests/bstats/gen-study.py" 10 $((286 * x)) 7 >"$W/study-$x.ndjson"
	/usr/bin/time -f '%U %S %M' -o "$W/time" "$B" -o "$W/new-$x.ndjson" -r "$W/new-$x.md" \
	    "$W/study-$x.ndjson" ||
		{ echo "bench: bstats failed at ${x}x" >&2; exit 1; }
	set -- $(cat "$W/time")
	cpu=$(echo "$1 + $2" | bc -l) rss=$(($3 / 1024))
	/usr/bin/time -f '%U %S %M' -o "$W/time" "$REF" -o "$W/ref-$x.ndjson" -r "$W/ref-$x.md" \
	    "$W/study-$x.ndjson" ||
		{ echo "bench: the reference failed at ${x}x" >&2; exit 1; }
	set -- $(cat "$W/time")
	rcpu=$(echo "$1 + $2" | bc -l) rrss=$(($3 / 1024))
	if cmp -s "$W/new-$x.ndjson" "$W/ref-$x.ndjson" && cmp -s "$W/new-$x.md" "$W/ref-$x.md"
	then same="results and report identical"; else
		echo "bench: ${x}x: the results differ from revision $REV" >&2; exit 1; fi
	printf 'bstats %3sx (%6d pairs): cpu %6.2f s, peak RSS %4d MB; revision %s: cpu %6.2f s, %4d MB; %s\n' \
	    "$x" $((2860 * x)) "$cpu" "$rss" "$REV" "$rcpu" "$rrss" "$same"
done
