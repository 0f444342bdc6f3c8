#!/bin/sh
# Streaming: bmdprep reads its records one at a time as they come through a
# pipe, holding one record and the document it reads, so its peak memory
# does not grow with the input.  The same command runs on N and 10N record
# groups from a generator; the peak resident memory of bmdprep alone (the
# kernel's high-water mark, through tests/bmdprep/maxrss.py) may differ by
# at most 4 MiB, where holding the input would add the 10N input's 27 MB.
# (tests/bmdprep/stream-10g.sh does the same on 10 GB, outside make check.)
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
PY=/usr/bin/python3
MAXRSS=$TOP/tests/bmdprep/maxrss.py
A=$T/archive
mkdir -p "$A"
awk 'BEGIN {
	print "# Site\n\n> A site.\n\n## Docs"
	for (i = 0; i < 5; i++)
		printf "- [Page %d](https://s.example.com/p%d.md): page %d\n", i, i, i
}' >"$A/llms.txt"
awk 'BEGIN {
	for (i = 0; i < 100; i++)
		printf "Paragraph %d with `code`.\n<!-- a comment -->\n\n\n\n", i
}' >"$A/page.md"

# gen N: N groups of a condition A record with 1 KB of text (passed
# through), a condition B record (prepared from the archive) and an
# llms_txt record (parsed): about 1.3 KB of input per group
gen() {
	awk -v n="$1" 'BEGIN {
		pad = sprintf("%1000s", ""); gsub(/ /, "x", pad)
		for (i = 0; i < n; i++) {
			printf "{\"site_id\":\"S%d\",\"url\":\"https://s.example.com/p%d.html\",\"condition\":\"A\",\"text\":\"%s\"}\n", i, i, pad
			printf "{\"site_id\":\"S%d\",\"url\":\"https://s.example.com/p%d.md\",\"condition\":\"B\",\"fetch_status\":\"SUCCESS\",\"archive_path\":\"page.md\"}\n", i, i
			printf "{\"site_id\":\"S%d\",\"url\":\"https://s.example.com/llms.txt\",\"condition\":\"llms_txt\",\"fetch_status\":\"SUCCESS\",\"archive_path\":\"llms.txt\"}\n", i
		}
	}'
}

# measure N ARGS...: gen N | bmdprep -a A ARGS; sets lines (of output),
# last (the last output line), brc and kib (bmdprep's status and peak
# resident memory in KiB)
measure() {
	_n=$1
	shift
	gen "$_n" | $PY "$MAXRSS" "$T/stats" "$B" -a "$A" "$@" >"$T/m.out"
	lines=$(wc -l <"$T/m.out" | tr -d ' ')
	last=$(tail -n 1 "$T/m.out")
	read -r brc kib _cpu _wall <"$T/stats"
}

N=2000
gen $((N * 10)) | wc -c >"$T/size"
diag "input of N groups: $(gen $N | wc -c | tr -d ' ') bytes; of 10N: $(tr -d ' ' <"$T/size") bytes"
for mode in "" --llms --check; do
	case $mode in
	"") per=3 ;;		# each record once
	--llms) per=8 ;;	# A, B, llms and 5 link records
	--check) per=1 ;;	# one verdict per llms.txt
	esac
	name=${mode:-default}
	measure $N $mode
	k1=$kib
	is "$brc $lines" "0 $((N * per))" "$name, N: exit 0, $((N * per)) records"
	measure $((N * 10)) $mode
	k10=$kib
	is "$brc $lines" "0 $((N * 10 * per))" "$name, 10N: exit 0, $((N * 10 * per)) records"
	like "$last" "\"site_id\":\"S$((N * 10 - 1))\"" "$name, 10N: the last group's record comes last"
	diag "$name: peak resident memory $k1 KiB for N, $k10 KiB for 10N"
	if [ -n "${CTXBENCH_ASAN:-}" ]; then
		skip "$name: resident memory is AddressSanitizer's quarantine and shadow under make asan"
	else
		DESC="$name: peak memory for 10N ($k10 KiB) within 4 MiB of N's ($k1 KiB)" \
		    ok test "$k10" -le $((k1 + 4096))
	fi
done

# the records are taken as they arrive: the first one is handled (here it
# fails: its file is not in the archive) while the input is still open
mkfifo "$T/fifo"
"$B" -a "$A" <"$T/fifo" >"$T/fifo.out" 2>"$T/fifo.err" &
bpid=$!
exec 7>"$T/fifo"
printf '{"site_id":"S1","url":"https://s.example.com/x.md","condition":"B","fetch_status":"SUCCESS","archive_path":"missing.md"}\n' >&7
i=0
while kill -0 $bpid 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -0 $bpid 2>/dev/null
alive=$?
exec 7>&-
wait $bpid
is "$alive $?" "1 1" "the first record is handled (and fails) before the input ends"
like "$(cat "$T/fifo.err")" "<stdin>:1: archive_path: " "its error names the line"

# a record stream guessed as such refuses a line over 1 MiB as it comes:
# the records before it are written, and with -o nothing is committed
{ gen 3; $PY -c 'import sys; sys.stdout.write("{\"text\":\"" + "x" * (2 << 20) + "\"}\n")'; gen 1; } >"$T/long.ndjson"
run "$B" -a "$A" "$T/long.ndjson"
expect_status 1 "a record line over 1 MiB: exit 1"
like "$err" "long.ndjson:10: a line of 2097163 bytes: not a Markdown or llms.txt file" \
    "its line and whole length named"
is "$(printf '%s\n' "$out" | grep -c .)" 9 "the nine records before it written"
run "$B" -a "$A" -o "$T/long.out" "$T/long.ndjson"
expect_status 1 "with -o: exit 1"
ok test ! -e "$T/long.out"
run "$B" -a "$A" --records "$T/long.ndjson"
expect_status 0 "with --records the long record is read (limit: 1 GiB)"
is "$(printf '%s\n' "$out" | grep -c .)" 13 "all thirteen records"

# blank lines before the records count in their line numbers
{ printf '\n \n\t\r\n'; gen 1; printf '{"bad"\n'; } >"$T/blank.ndjson"
run "$B" -a "$A" "$T/blank.ndjson"
like "$err" "blank.ndjson:7: invalid JSON" "line numbers count the blank start"

# a document over the 1 GiB limit is refused with the line it reached; a
# regular file's size says so before it is held (a sparse file: no disk)
printf 'one\ntwo\nthree\n' >"$T/big.md"
truncate -s $(((1 << 30) + 1)) "$T/big.md"
run "$B" --raw "$T/big.md"
expect_status 1 "a document over 1 GiB: exit 1"
like "$err" "big.md:4: larger than 1073741824 bytes, the limit for one document" \
    "the limit and the line named"
rm -f "$T/big.md"
done_testing
