#!/bin/sh
# select-questions.sh - a study's questions.json cut down to some questions,
# to run one question (or a few) end to end:
#
#   sh select-questions.sh questions.json QUESTION LIMIT > selected.json
#
# QUESTION is a question_id or a comma-separated list of them, LIMIT keeps
# the first N questions (after QUESTION, when both are given); either may be
# empty.  The sites keep their order and fields; a site left with no
# question is dropped.  A QUESTION that names no question of the file is an
# error (exit 1), naming it.
set -eu
[ $# -eq 3 ] || { echo "usage: select-questions.sh QUESTIONS.json QUESTION LIMIT" >&2; exit 2; }
file=$1 question=$2 limit=$3
case $limit in
''|*[!0-9]*) [ -z "$limit" ] || { echo "select-questions: LIMIT=$limit: expected a number" >&2; exit 2; } ;;
esac
if [ -n "$question" ]; then
	missing=$(jq -r --arg q "$question" '[.[].questions[].question_id] as $have |
	    $q | split(",") | map(select(. != "" and (. as $x | $have | index($x) | not))) | join(",")' "$file")
	[ -z "$missing" ] || { echo "select-questions: $file: no question $missing" >&2; exit 1; }
fi
jq --arg q "$question" --arg n "$limit" '
	. as $all
	| [$all[].questions[].question_id
	   | select($q == "" or (. as $x | $q | split(",") | index($x)))] as $ids
	| (if $n == "" then $ids else $ids[:($n | tonumber)] end) as $keep
	| [$all[] | .questions |= map(select(.question_id as $x | $keep | index($x)))
	   | select(.questions | length > 0)]' "$file"
