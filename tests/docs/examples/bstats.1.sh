# Inputs of bstats(1)'s examples (run as "sh bstats.1.sh N" in example N's
# directory, which holds the example study's scored.ndjson): the second
# judge's run of the compare example, the same ratings with one score moved;
# the variants example's B-plain ratings (B's, one point lower where B
# scored 3) and its config.
set -eu
if [ "$1" = 4 ]; then
	jq -c 'if .question_id == "S001-Q01" and .condition == "B" then .factual_accuracy = 0 else . end' \
	    scored.ndjson >scored-judge2.ndjson
fi
if [ "$1" = 6 ]; then
	jq -c '., (select(.condition == "B") | .condition = "B-plain" |
	    .variant_of = "B" |
	    if .factual_accuracy == 3 then .factual_accuracy = 2 else . end)' \
	    scored.ndjson >scored-variants.ndjson
	printf '{"variants": ["B-plain"], "comparisons": ["B-plain:B"]}\n' \
	    >variants.json
fi
