# Inputs of bstats(1)'s examples (run as "sh bstats.1.sh N" in example N's
# directory, which holds the example study's scored.ndjson): the second
# judge's run of the compare example, the same ratings with one score moved.
set -eu
if [ "$1" = 4 ]; then
	jq -c 'if .question_id == "S001-Q01" and .condition == "B" then .factual_accuracy = 0 else . end' \
	    scored.ndjson >scored-judge2.ndjson
fi
# The drift example's records (whatever its number): bctx drift of the
# study's pages against themselves, every page unchanged.
[ -e drift.ndjson ] || bctx drift --old pages-a.ndjson --old pages-b.ndjson \
    --new pages-a.ndjson --new pages-b.ndjson -o drift.ndjson
