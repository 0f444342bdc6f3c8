#!/bin/sh
# One getopt error style for every program (common/opt.c, opt_getopt): a
# missing argument is "PROGRAM[: SUB]: -X: missing argument" (a long option
# as --name), an unknown option "PROGRAM[: SUB]: unknown option -X", then the
# usage hint; exit 2, and no message of getopt's own (which names argv[0]
# with its full path).
. "${0%/*}/../lib/tap.sh"
cd "$T" || exit 1

# check PROGRAM SUBCOMMAND-OR-- : the four error cases of one program.
check() {
	p=$1 sub=$2 pre=$1
	set --
	if [ "$sub" != - ]; then set -- "$sub"; pre="$p: $sub"; fi
	hint="try '$p --help' for more information"
	run "$(prog "$p")" "$@" -Q
	expect_status 2 "$pre -Q: exit 2"
	is "$err" "$pre: unknown option -Q
$hint" "$pre -Q: unknown option -Q, then the hint"
	run "$(prog "$p")" "$@" -o
	expect_status 2 "$pre -o (no argument): exit 2"
	is "$err" "$pre: -o: missing argument
$hint" "$pre -o: missing argument, then the hint"
	run "$(prog "$p")" "$@" --output
	is "$err" "$pre: --output: missing argument
$hint" "$pre --output: missing argument, then the hint"
	run "$(prog "$p")" "$@" --no-such-option
	expect_status 2 "$pre --no-such-option: exit 2"
	is "$err" "$pre: unknown option --no-such-option
$hint" "$pre --no-such-option: unknown option, then the hint"
	run "$(prog "$p")" "$@" --help=yes
	is "$err" "$pre: --help: takes no argument
$hint" "$pre --help=yes: takes no argument"
}

check bctx plan
check bctx assemble
check bmdprep -
check bread -
check bscore-merge merge
check bscore-merge rubric
check bstats -
check btok -
check bfetch -
check binfer -

# An abbreviation that fits two long options.
run "$(prog bctx)" plan --s x
is "$err" "bctx: plan: ambiguous option --s
try 'bctx --help' for more information" "an ambiguous abbreviation is named as such"
# An unknown option in the middle of a cluster after a long option.
run "$(prog btok)" --field content -iQ
is "$err" "btok: unknown option -Q
try 'btok --help' for more information" "an unknown option inside a cluster names the short option"
# An abbreviated long option is named in full when its argument is missing.
run "$(prog bstats)" --out
is "$err" "bstats: --output: missing argument
try 'bstats --help' for more information" "an abbreviation is named by its full name"

done_testing
