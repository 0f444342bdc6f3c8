#!/bin/sh
# bctx assemble keeps only the pages its questions may use: 200,000 page
# records for one question fit in 100 MB of address space (keeping them
# all took 390 MB; 1,000,000 took 1.9 GB).  Not under AddressSanitizer,
# whose shadow memory a ulimit -v cannot hold.
. "${0%/*}/../lib/tap.sh"
[ -n "${CTXBENCH_ASAN:-}" ] && skip_all "address-space limit under AddressSanitizer"
BCTX=$(prog bctx)
/usr/bin/python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
with open(d + "/pages.ndjson", "w") as f:
    for i in range(200000):
        c = "A" if i % 2 == 0 else "B"
        r = {"site_id": "S001", "condition": c, "fetch_status": "SUCCESS",
             "url": "https://big.example/p%d%s" % (i // 2, "" if c == "A" else ".md"),
             "archive_path": "x/%d" % i, "content_sha256": "0" * 64,
             "last_modified": "Mon, 10 Nov 2026 09:30:00 GMT"}
        if c == "A":
            r["text"] = "Page %d text about things." % (i // 2)
        else:
            r["markdown"] = "# Page %d\n\nText about things.\n" % (i // 2)
        f.write(json.dumps(r) + "\n")
json.dump([{"site_id": "S001", "domain": "big.example", "questions": [
    {"question_id": "S001-Q01", "text": "What is page 7?", "complexity": "single-fact",
     "source_sections": ["x"], "source_urls": ["https://big.example/p7.md"]}]}],
    open(d + "/q.json", "w"))
PY
run sh -c "ulimit -v 100000; '$BCTX' assemble -q '$T/q.json' '$T/pages.ndjson'"
expect_status 0 "200,000 page records within 100 MB"
is "$(printf '%s\n' "$out" | jq -r '[.condition,.excluded,(.pages|length)]|@tsv' | tr '\n' ' ')" \
    "$(printf 'A\tfalse\t1 B\tfalse\t1 ')" "both contexts built from the two pages they use"
like "$(printf '%s\n' "$out" | jq -r 'select(.condition=="A")|.content')" '^Page 7 text' \
    "the page cited, among 200,000"
run sh -c "printf '%s\n' '{\"site_id\":\"S001\",\"condition\":\"A\"}' | '$BCTX' assemble -q '$T/q.json'"
expect_status 1 "a page record not kept is still checked"
like "$err" "<stdin>:1: url: missing" "its error named"
done_testing
