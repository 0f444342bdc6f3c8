#!/bin/sh
# bread's parse (tools/bread/parse.c) gives libxml2's own tree: the C test
# unit-parse on made-up script and style text, pseudo-random pages, and the
# pages of tests/bread/page-list --seeds (Readability's test pages skipped,
# saying so, when the shared data is absent).
TOP=${CTXBENCH_TOP:-$(cd "${0%/*}/../.." && pwd)}
W=$(mktemp -d "${TMPDIR:-/tmp}/bread-parse.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
"$TOP/tests/bread/page-list" --seeds >"$W/list" 2>"$W/note" || exit 1
"${CTXBENCH_BUILD:-$TOP/build}/tests/bread/unit-parse" "$W/list" "$(cat "$W/note")"
