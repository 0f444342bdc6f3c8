#!/bin/sh
# bread against Mozilla Readability's own test pages (issue 4, "Measuring it"):
# 4-gram shingle precision/recall/F1 over \w+ tokens of bread's text vs the
# text of expected.html, and titles vs expected-metadata.json.  The floors
# are set just under what bread reaches (mean F1 1.0000; 130/130 titles,
# bylines and excerpts) so
# that any regression in the algorithm shows.
. "${0%/*}/../lib/tap.sh"

PAGES=$SHARED/conformance/readability/test-pages
need_shared conformance/readability/test-pages ||
    skip_all "no shared Readability test pages ($PAGES)"
BREAD=$(prog bread)
export PYTHONDONTWRITEBYTECODE=1
F1_FLOOR=0.9990
TITLE_FLOOR=130
PAGE_FLOOR=0.95

ok test -d "$PAGES"
run /usr/bin/python3 "$TOP/tests/bread/conform.py" "$BREAD" "$PAGES" "$T/report"
expect_status 0 "conformance run over every page"
last=$(printf '%s\n' "$out" | tail -n 1)
diag "$last"
f1=$(printf '%s\n' "$last" | sed -n 's/.* f1=\([0-9.]*\).*/\1/p')
titles=$(printf '%s\n' "$last" | sed -n 's/.* titles=\([0-9]*\).*/\1/p')
pages=$(printf '%s\n' "$last" | sed -n 's/^pages=\([0-9]*\).*/\1/p')
is "$pages" 130 "all 130 pages scored"
DESC="mean F1 ($f1) at least $F1_FLOOR" ok awk -v f="$f1" -v m="$F1_FLOOR" 'BEGIN { exit !(f != "" && f + 0 >= m) }'
DESC="title matches ($titles) at least $TITLE_FLOOR" ok test "${titles:-0}" -ge "$TITLE_FLOOR"
bylines=$(printf '%s\n' "$last" | sed -n 's/.* bylines=\([0-9]*\).*/\1/p')
excerpts=$(printf '%s\n' "$last" | sed -n 's/.* excerpts=\([0-9]*\).*/\1/p')
DESC="byline matches ($bylines) at least $TITLE_FLOOR" ok test "${bylines:-0}" -ge "$TITLE_FLOOR"
DESC="excerpt matches ($excerpts) at least $TITLE_FLOOR" ok test "${excerpts:-0}" -ge "$TITLE_FLOOR"
# no single page far off: the worst page's precision and recall
worst=$(head -n 1 "$T/report")
diag "worst page: $worst"
DESC="worst page P and R at least $PAGE_FLOOR" ok awk -v m="$PAGE_FLOOR" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^[PR]=/) { v = substr($i, 3); if (v + 0 < m) bad = 1 } }
	END { exit bad }' "$T/report"
# the metric itself: identical text scores 1, disjoint text 0
printf 'alpha beta gamma delta epsilon\n' >"$T/a"
cat >"$T/m.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import conform
p, r = conform.pr("alpha beta gamma delta epsilon", "alpha beta gamma delta epsilon")
q, s = conform.pr("alpha beta gamma delta epsilon", "one two three four five")
print("%.1f %.1f %.1f %.1f" % (p, r, q, s))
PY
run /usr/bin/python3 "$T/m.py" "$TOP/tests/bread"
is "$out" "1.0 1.0 0.0 0.0" "shingle metric: identical 1, disjoint 0"
done_testing
