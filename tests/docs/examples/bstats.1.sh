# Inputs of bstats(1)'s examples (run as "sh bstats.1.sh N SCRIPT" in example
# N's directory, which holds the example study's scored.ndjson), each made
# only for the example that reads it: the second judge's run of the compare
# example, the same ratings with one score moved; the drift example's
# records; the variants example's B-plain ratings (B's, one point lower
# where B scored 3) and its config.
set -eu
reads() { grep -q -- "$1" "$2"; }
if reads scored-judge2 "$2"; then
	jq -c 'if .question_id == "S001-Q01" and .condition == "B" then .factual_accuracy = 0 else . end' \
	    scored.ndjson >scored-judge2.ndjson
fi
# bctx drift of the study's pages against themselves, every page unchanged
if reads drift.ndjson "$2"; then
	bctx drift --old pages-a.ndjson --old pages-b.ndjson \
	    --new pages-a.ndjson --new pages-b.ndjson -o drift.ndjson
fi
if reads scored-variants "$2"; then
	jq -c '., (select(.condition == "B") | .condition = "B-plain" |
	    .variant_of = "B" |
	    if .factual_accuracy == 3 then .factual_accuracy = 2 else . end)' \
	    scored.ndjson >scored-variants.ndjson
	printf '{"variants": ["B-plain"], "comparisons": ["B-plain:B"]}\n' \
	    >variants.json
fi
