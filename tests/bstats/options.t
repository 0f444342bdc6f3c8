#!/bin/sh
# bstats: the command line (help, version, usage errors), standard input,
# and determinism: the same seed gives the same outputs byte for byte.
. "${0%/*}/../lib/tap.sh"
. "${0%/*}/lib.sh"

run "$B" --help
expect_status 0 "--help exits 0"
like "$out" '--report' "--help lists --report"
run "$B" --version
expect_status 0 "--version exits 0"
run "$B" --bootstrap 5
expect_status 2 "a bootstrap count below 100 is a usage error"
run "$B" --nonsense
expect_status 2 "an unknown option is a usage error"

synthetic_study
expect_status 0 "the synthetic study runs"
run "$B" -o "$T/r2.ndjson" -r "$T/r2.md" -f "$T/fig2" "$T/study.ndjson"
files_eq "$T/r2.ndjson" "$T/r1.ndjson" "same seed: same results, byte for byte"
files_eq "$T/r2.md" "$T/r1.md" "same seed: same report"
files_eq "$T/fig2/fig4-tokens-vs-accuracy.svg" "$T/fig/fig4-tokens-vs-accuracy.svg" "same seed: same figure"
run "$B" -s 7 -o "$T/r3.ndjson" "$T/study.ndjson"
isnt "$(jq -c 'select(.effect.ci_low) | .effect' "$T/r3.ndjson" | cksum)" \
	"$(jq -c 'select(.effect.ci_low) | .effect' "$T/r1.ndjson" | cksum)" "another seed moves the bootstrap intervals"
run --stdin "$T/study.ndjson" "$B"
files_eq "$T/out" "$T/r1.ndjson" "stdin works like a file argument"
done_testing
