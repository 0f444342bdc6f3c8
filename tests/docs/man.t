#!/bin/sh
# Documentation checks: every mdoc page passes mandoc's linter; every
# program has a page, a README entry and tests; every long option a program's
# --help lists is documented on its page.
. "${0%/*}/../lib/tap.sh"
cd "$TOP" || exit 1

for m in man/*.[1-9]; do
	o=$(mandoc -Tlint -W warning "$m" 2>&1)
	is "$o" "" "mandoc -Tlint clean: $m"
done
ok test -f man/ctxbench.7
ok test -f man/ctxbench-records.5

for d in tools/*/; do
	[ -f "$d/main.c" ] || continue
	t=$(basename "$d")
	DESC="$t has a man page" ok test -f "man/$t.1"
	DESC="$t has tests" ok test -d "tests/$t"
	DESC="$t is in the README" ok grep -q "\`$t\`" README.md
	DESC="$t is in ctxbench(7)" ok grep -q "Xr $t 1" man/ctxbench.7
	p=$(prog "$t")
	help=$("$p" --help 2>&1); hrc=$?
	is "$hrc" 0 "$t --help exits 0"
	v=$("$p" --version 2>&1)
	like "$v" "^$t \\(ctxbench\\) [0-9]" "$t --version"
	"$p" --no-such-option >/dev/null 2>&1; urc=$?
	is "$urc" 2 "$t: an unknown option is a usage error (exit 2)"
	missing=""
	# Options are the lines of --help that start with one (after "-x, ").
	for o in $(printf '%s\n' "$help" | grep -oE -- '^[[:space:]]+(-[A-Za-z0-9], )?--[a-z][a-z0-9-]+' |
	    grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
		n=${o#--}
		grep -qE "Fl \\\\?-$n\\b|Fl -?-$n\\b|Fl $n\\b" "man/$t.1" || missing="$missing $o"
	done
	is "$missing" "" "$t: every option of --help is on its man page"
done

# Every exclusion reason a program writes is documented in ctxbench-records(5).
reasons=$(grep -ohE '"(NO_[A-Z_]+_MAPPING|NOT_ARCHIVED|EMPTY_CONTENT|JS_ONLY|CONTEXT_[A-Z]+|INFERENCE_ERROR)"' tools/*/*.c |
    tr -d '"' | sort -u)
isnt "$reasons" "" "the programs' exclusion reasons are found"
undoc=""
for r in $reasons; do grep -q "$r" man/ctxbench-records.5 || undoc="$undoc $r"; done
is "$undoc" "" "every exclusion reason is documented in ctxbench-records(5)"
# The README says where the built programs are and how to put them on PATH.
like "$(cat README.md)" 'build/bin' "the README names build/bin"
like "$(cat README.md)" 'export PATH=.*build/bin' "and how to put it on PATH"
like "$(cat README.md)" 'QUESTION=S001-Q04' "and how to run one question"
done_testing
