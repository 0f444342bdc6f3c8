# lib.sh - what the bstats tests share (sourced after tap.sh): the program,
# the generator of synthetic studies, scored records written in one line,
# and the studies several files read.
B=$(prog bstats)
HERE=$(cd "${0%/*}" && pwd)
GEN="python3 $HERE/gen-study.py"
# NaN or inf standing as a word of its own: never in an output of bstats
NANINF='(^|[^a-zA-Z])([Nn]a[Nn]|-?inf)([^a-zA-Z]|$)'

rec() {	# site question model cond acc hall comp cite tokens
	printf '{"site_id":"%s","question_id":"%s","model_id":"%s","condition":"%s","complexity":"single-fact","tier":"small","sector":"SaaS","factual_accuracy":%s,"hallucination_count":%s,"completeness":%s,"citation_fidelity":%s,"input_token_count":%s,"exclusion_reason":null,"rater_id":"r1","primary":true}\n' "$@"
}

# identical_pairs FILE: six pairs whose conditions score alike (rater r1).
identical_pairs() {
	: >"$1"
	for _q in 1 2 3 4 5 6; do
		rec S1 Q$_q m A 2 1 1 2 100 >>"$1"
		rec S1 Q$_q m B 2 1 1 2 100 >>"$1"
	done
}

# synthetic_study: $T/study.ndjson (3 models, 48 questions, seed 11: five
# sites, S003 with JS-only A pages, second ratings) analysed with the
# defaults into $T/r1.ndjson, $T/r1.md and the figures in $T/fig; the
# caller checks $rc.
synthetic_study() {
	$GEN 3 48 11 >"$T/study.ndjson"
	run "$B" -o "$T/r1.ndjson" -r "$T/r1.md" -f "$T/fig" "$T/study.ndjson"
}

# natural_sites FILE: one pair each at sites S10, S9, S1 and "=cmd" (a
# formula-like cell for a spreadsheet), in that order.
natural_sites() {
	: >"$1"
	for _site in S10 S9 S1 =cmd; do
		rec "$_site" Q1 m A 2 1 1 null 300 >>"$1"
		rec "$_site" Q1 m B 3 0 1 null 200 >>"$1"
	done
}
