# Inputs of bstats(1)'s examples (run as "sh bstats.1.sh N" in example N's
# directory, which holds the example study's scored.ndjson): the second
# judge's run of the compare example, the same ratings with one score moved.
set -eu
if [ "$1" = 4 ]; then
	jq -c 'if .question_id == "S001-Q01" and .condition == "B" then .factual_accuracy = 0 else . end' \
	    scored.ndjson >scored-judge2.ndjson
fi
