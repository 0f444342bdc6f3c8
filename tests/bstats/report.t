#!/bin/sh
# bstats -r: the Markdown report's text: the interpretation guide, the
# statements per scale point, flagged sites, the BH tables, site tables in
# natural order, and data strings escaped (HTML and Markdown stay text).
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

synthetic_study
expect_status 0 "the synthetic study runs"
like "$(cat "$T/r1.md")" 'Interpretation \(001 §6.10\)' "the report applies the interpretation guide"
like "$(cat "$T/r1.md")" 'B scored [0-9] where A scored [0-9] in' "plain statements per scale point"
like "$(cat "$T/r1.md")" '\| S003 \| [0-9]+/[0-9]+ \| [0-9]+/[0-9]+ \| \*\*yes' "S003 (JS-only A) is flagged"
# the chi-square McNemar in the secondary table, at full precision
like "$(cat "$T/r1.md")" '\| H6 \| McNemar \(chi-square, continuity corrected\) \| completeness \|.*not in the family' "the chi-square McNemar is a row of the secondary table"

# --- natural order of site ids
natural_sites "$T/nat.ndjson"
run "$B" -f "$T/natfig" -r "$T/nat.md" "$T/nat.ndjson"
like "$(tr '\n' ' ' <"$T/nat.md")" '\| S1 \|.*\| S9 \|.*\| S10 \|' "the report's site tables in natural order too"

# --- data strings are escaped in report.md (a site_id holding HTML and Markdown)
: >"$T/evil.ndjson"
for q in 1 2 3; do
	rec '<script>alert(1)</script>|*x*' Q$q m A 1 1 0 null 100 >>"$T/evil.ndjson"
	rec '<script>alert(1)</script>|*x*' Q$q m B 2 0 1 null 60 >>"$T/evil.ndjson"
done
run "$B" -r "$T/evil.md" "$T/evil.ndjson"
expect_status 0 "a hostile site_id runs"
unlike "$(cat "$T/evil.md")" '<script' "no HTML from the data reaches report.md"
like "$(cat "$T/evil.md")" '\| &lt;script&gt;alert\(1\)&lt;/script&gt;\\\|\\\*x\\\* \| 0/3' "the site_id is escaped (HTML and Markdown)"
done_testing
