#!/bin/sh
# lint.sh - the source checks of `make lint`: banned functions (STYLE.md),
# unfinished-work markers, mdoc pages, and clang's static analyzer when
# available.  Exits non-zero on any finding.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
rc=0
banned=$(grep -rnE '\b(sprintf|strcpy|strcat|strtok|atoi|gets)[[:space:]]*\(' \
    --include='*.c' --include='*.h' common tools 2>/dev/null)
if [ -n "$banned" ]; then
	echo "lint: banned functions (STYLE.md):"; echo "$banned"; rc=1
fi
marks=$(grep -rnE 'TODO|FIXME|\bXXX\b|not implemented' --include='*.c' --include='*.h' common tools 2>/dev/null)
if [ -n "$marks" ]; then
	echo "lint: unfinished-work markers:"; echo "$marks"; rc=1
fi
for m in man/*.[1-9]; do
	[ -f "$m" ] || continue
	out=$(mandoc -Tlint -W warning "$m" 2>&1) || { echo "$out"; rc=1; }
done
if command -v scan-build >/dev/null 2>&1; then
	scan-build --status-bugs -o build/scan make -B BUILD=build/scan-obj all >/dev/null 2>&1 \
	    || { echo "lint: scan-build found problems (see build/scan)"; rc=1; }
fi
[ $rc -eq 0 ] && echo "lint: clean"
exit $rc
