#!/bin/sh
# bctx assemble's fact drift in bounded memory: each pair's facts are built,
# compared and released before the next pair, so 20,000 pairs run in the
# address space one pair needs, and a pair of 1.6 MB pages dense with facts
# (numbers, table rows, code lines) fits in it too.  Not under
# AddressSanitizer, whose shadow memory a ulimit -v cannot hold.
# Measured once by hand with these pages (three rows each), too long for
# make check: 100,000 contexts in 47 s and 241 MB at most, 1,000,000 in
# 374 s and 2.45 GB; bctx without the fact model holds the same 241 MB at
# 100,000.  What grows is the questions and the pages they cite, which
# assemble keeps until the end of its input; the facts of a pair never
# outlive it.
. "${0%/*}/../lib/tap.sh"
[ -n "${CTXBENCH_ASAN:-}" ] && skip_all "address-space limit under AddressSanitizer"
BCTX=$(prog bctx)
/usr/bin/python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
def page(i, n, md):
    rows = "".join("| `key_%d_%d` | %d ms | %d |\n" % (i, k, k, k * 7) if md else
                   "key_%d_%d | %d ms | %d\n" % (i, k, k, k * 7) for k in range(n))
    code = "".join("port_%d = %d\n" % (k, 8000 + k) for k in range(n))
    text = ("Timeouts of page %d: `timeout_%d` is %d s by default.\n\n" % (i, i, i % 60)
            if md else "Timeouts of page %d: timeout_%d is %d s by default.\n" % (i, i, i % 60))
    if md:
        return text + "\n| Key | Default | Max |\n|---|---|---|\n" + rows + "\n```toml\n" + code + "```\n"
    return text + "Key | Default | Max\n" + rows + code
def write(name, pairs, n):
    qs = []
    with open("%s/%s.ndjson" % (d, name), "w") as f:
        for i in range(pairs):
            url = "https://big.example/%s/p%d" % (name, i)
            f.write(json.dumps({"site_id": "S001", "condition": "A", "fetch_status": "SUCCESS",
                                "url": url, "text": page(i, n, False)}) + "\n")
            f.write(json.dumps({"site_id": "S001", "condition": "B", "fetch_status": "SUCCESS",
                                "url": url + ".md", "markdown": page(i, n, True)}) + "\n")
            qs.append({"question_id": "S001-Q%d" % i, "text": "What is page %d?" % i,
                       "complexity": "single-fact", "source_sections": ["x"],
                       "source_urls": [url + ".md"]})
    json.dump([{"site_id": "S001", "domain": "big.example", "questions": qs}],
              open("%s/%s-q.json" % (d, name), "w"))
write("many", 20000, 3)
write("big", 1, 30000)
PY
run sh -c "ulimit -v 250000; '$BCTX' assemble -q '$T/many-q.json' '$T/many.ndjson' |
    jq -r 'select(.condition == \"A\") | [.pair_drift, .facts_changed_count] | @tsv' | sort | uniq -c"
expect_status 0 "20,000 pairs within 250 MB"
is "$(printf '%s\n' "$out" | tr -s ' ' | sed 's/^ //')" "$(printf '20000 false\t0')" \
    "20,000 same-fact pairs: none flagged"
run sh -c "ulimit -v 250000; '$BCTX' assemble -q '$T/big-q.json' '$T/big.ndjson' |
    jq -r 'select(.condition == \"A\") | [.facts_b_in_a, .facts_a_in_b, .pair_drift] | @tsv'"
expect_status 0 "a pair of 1.6 MB pages with 150,000 facts each within 250 MB"
is "$out" "$(printf '1\t1\tfalse')" "the 1.6 MB pair: every fact found on both sides"
done_testing
