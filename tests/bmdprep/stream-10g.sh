#!/bin/sh
# stream-10g.sh - bmdprep on a 10 GB input, outside make check (it takes
# minutes): shows that bmdprep streams, with a peak memory that does not
# depend on the input's size, and how fast it goes.
#
#   sh tests/bmdprep/stream-10g.sh [GB [nolimits]]     (default: 10 GB)
#
# An archive of many files (400 Markdown pages of about 8 KB, 40 llms.txt
# files) is written to a temporary directory; a generator (awk) writes a
# stream of manifest records through a pipe into one bmdprep process, whose
# output is counted by wc.  Per group of three records: a condition A record
# carrying 16 KB of extracted text (passed through), a condition B record
# naming one of the pages (prepared), and every 20th group an llms_txt
# record naming one of the llms.txt files (parsed, with --llms).  The
# default mode and --llms each read GB gigabytes of records.  Then the
# limits, each through a pipe: a blank start of 1.5 GB before the records
# (counted, not held), a plain document over 1 GiB and a record line over
# 1 GiB with --records (both refused, naming the line); nolimits skips them.
#
# For each run it prints bmdprep's exit status, its peak resident memory
# (getrusage's ru_maxrss: the kernel's high-water mark), its CPU seconds and
# the wall time (tests/bmdprep/maxrss.py), and the input's size.  The
# program is $CTXBENCH_BMDPREP, else $CTXBENCH_BUILD/bin/bmdprep, so an
# older build can be measured on the same input (one that reads its whole
# input needs a GB below 1).
set -eu
TOP=${CTXBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${CTXBENCH_BUILD:-$TOP/build}
B=${CTXBENCH_BMDPREP:-$BUILD/bin/bmdprep}
PY=/usr/bin/python3
MAXRSS=$TOP/tests/bmdprep/maxrss.py
GB=${1:-10}
W=$(mktemp -d "${TMPDIR:-/tmp}/bmdprep-stream.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
A=$W/archive
mkdir -p "$A"

awk -v dir="$A" 'BEGIN {
	for (f = 0; f < 400; f++) {
		p = dir "/page" f ".md"
		printf "# Page %d\n\n", f >p
		for (i = 0; i < 80; i++) {
			printf "Paragraph %d of page %d, with `code` and a [link](https://e.org/%d).\n", i, f, i >p
			if (i % 10 == 0)
				printf "<!-- a comment -->\n![img](data:image/png;base64,iVBORw0KGgo=)\n\n\n\n" >p
		}
		close(p)
	}
	for (f = 0; f < 40; f++) {
		p = dir "/llms" f ".txt"
		printf "# Site %d\n\n> The docs of site %d.\n\nAbout it.\n\n## Docs\n\n", f, f >p
		for (i = 0; i < 30; i++)
			printf "- [Page %d](https://s%d.example.com/page%d.md): page %d\n", i, f, i, i >p
		printf "\n## Optional\n\n- [Extra](extra.md)\n" >p
		close(p)
	}
}'

# gen GB: the record stream, GB gigabytes of it (mawk's sprintf is short:
# the long text goes through printf)
gen() {
	awk -v gb="$1" 'BEGIN {
		text = "lorem ipsum "
		while (length(text) < 16000)
			text = text text
		text = substr(text, 1, 16000)
		limit = gb * 1e9
		for (i = 0; size < limit; i++) {
			a = sprintf("{\"site_id\":\"S%d\",\"url\":\"https://s%d.example.com/p%d.html\",\"condition\":\"A\",\"fetch_status\":\"SUCCESS\",\"text\":\"", i % 40, i % 40, i)
			b = sprintf("\"}\n{\"site_id\":\"S%d\",\"url\":\"https://s%d.example.com/p%d.md\",\"condition\":\"B\",\"fetch_status\":\"SUCCESS\",\"archive_path\":\"page%d.md\"}\n", i % 40, i % 40, i, i % 400)
			printf "%s%s%s", a, text, b
			size += length(a) + length(text) + length(b)
			if (i % 20 == 0) {
				c = sprintf("{\"site_id\":\"S%d\",\"url\":\"https://s%d.example.com/llms.txt\",\"condition\":\"llms_txt\",\"fetch_status\":\"SUCCESS\",\"archive_path\":\"llms%d.txt\"}\n", i % 40, i % 40, i % 40)
				printf "%s", c
				size += length(c)
			}
		}
	}'
}

# report WHAT NOTE: one line from maxrss.py's stats
report() {
	read -r rc kib cpu wall <"$W/stats"
	awk -v w="$1" -v rc="$rc" -v kib="$kib" -v cpu="$cpu" -v wall="$wall" \
	    -v note="$2" 'BEGIN { printf "%-40s exit %d  peak RSS %7.1f MiB  CPU %7.1f s  wall %7.1f s\n    %s\n", w, rc, kib / 1024, cpu, wall, note }'
}

echo "bmdprep: $B"
echo "archive: $(ls "$A" | wc -l | tr -d ' ') files, $(du -sh "$A" | cut -f1)"
echo "input: $GB GB of records for each mode"
for mode in "" --llms; do
	out=$(gen "$GB" | $PY "$MAXRSS" "$W/stats" "$B" -a "$A" $mode | wc -lc)
	report "${mode:-default} mode, $GB GB through a pipe" "output lines and bytes: $out"
done

[ "${2:-}" = nolimits ] && exit 0
# the limits
out=$({ head -c 1500000000 /dev/zero | tr '\0' '\n'; gen 0.01; } |
    $PY "$MAXRSS" "$W/stats" "$B" -a "$A" 2>"$W/err" | wc -l)
report "1.5 GB of blank lines, then records" "output: $out lines $(head -c 200 "$W/err")"
out=$(yes 'a line of Markdown text' | head -c 1200000000 |
    $PY "$MAXRSS" "$W/stats" "$B" --raw 2>"$W/err" | wc -c)
report "a 1.2 GB plain document (--raw)" "$(head -c 200 "$W/err")"
out=$({ printf '{"text":"'; head -c 1200000000 /dev/zero | tr '\0' x; printf '"}\n'; } |
    $PY "$MAXRSS" "$W/stats" "$B" --records 2>"$W/err" | wc -c)
report "a 1.2 GB record line (--records)" "$(head -c 200 "$W/err")"
