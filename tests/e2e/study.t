#!/bin/sh
# The full-study Makefile's dry run on the real corpus: no network, the
# planned fetches and the mapping report.
. "${0%/*}/../lib/tap.sh"
C=$SHARED/corpus
need_shared corpus/site-list.csv || skip_all "no shared corpus ($C)"
rc=0
make -s -C "$TOP/examples/study" dry-run CORPUS="$C" OUT="$T/study" BIN="$CTXBENCH_BUILD/bin/" >"$T/log" 2>&1 || rc=$?
is "$rc" 0 "make dry-run on the real corpus" || tail -n 20 "$T/log" | sed 's/^/# /'
is "$(wc -l <"$T/study/dry-run-llms.ndjson" | tr -d ' ')" 50 "llms.txt and llms-full.txt fetches of 37 sites planned"
is "$(jq -r .action "$T/study/dry-run-fetches.ndjson" | sort -u)" fetch "every page job is a planned fetch"
like "$(cat "$T/log")" "planned page fetches: +[0-9]+" "the number of page fetches is printed"
like "$(cat "$T/study/dry-run-mapping.txt")" "^S037" "the mapping report covers the last site"
done_testing
