# Inputs of bscore-merge(1)'s examples (run as "sh bscore-merge.1.sh N" in
# example N's directory, which holds the example study's responses.ndjson):
# sheets blinded with a fixed seed and filled by tests/bscore-merge/fill.py
# playing the raters.
set -eu
fill() { /usr/bin/python3 "$CTXBENCH_TOP/tests/bscore-merge/fill.py" "$@"; }
# fill_passes DIR RATER: the per-pass sheets of DIR, scored by RATER into RATER/
fill_passes() {
	mkdir -p "$2"
	for s in "$1"/sheet-*.csv; do
		case ${s##*/} in
		sheet-1-*) sc=factual_accuracy=3 ;;
		sheet-2-*) sc=hallucination_count=0 ;;
		sheet-3-*) sc=completeness=1 ;;
		sheet-4-*) sc=citation_fidelity= ;;
		esac
		fill "$s" "$2/${s##*/}" --rater "$2" --date 2026-03-02 --score "$sc"
	done
	cp "$1/records-hallucinations.csv" "$2/"
}
# The demo's own key and sheets are the study's: blind never replaces them,
# so each example blinds afresh as a new study would.
rm -rf key.json sheets
case $1 in
3)	# what the scoring pages of alice download
	bscore-merge blind -k key.json -d sheets --seed 7 --html --rater alice responses.ndjson
	bscore-merge autoscore --rater alice -o sheet-1-all-alice-2026-03-02.ndjson sheets/sheet.csv ;;
4)	bscore-merge blind -k key.json -d sheets --seed 7 --passes responses.ndjson ;;
5)	bscore-merge blind -k key.json -d sheets --seed 7 --passes --second-rater 0.15 responses.ndjson
	fill_passes sheets alice
	fill_passes sheets/second-rater bob
	bscore-merge autoscore -o autoscore.ndjson sheets/sheet-1-factual_accuracy.csv ;;
6)	# spec 002's worked example as a filled sheet
	cp "$CTXBENCH_TOP/tests/bscore-merge/examples/ex002.csv" evaluation.csv ;;
esac
