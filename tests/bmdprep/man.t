#!/bin/sh
# bmdprep's interface: --help, --version, -o written atomically, and the man
# page documents every long option --help lists and passes mandoc's lint.
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
MAN=$TOP/man/bmdprep.1

run "$B" --help
expect_status 0 "--help exits 0"
like "$out" "^usage: bmdprep" "--help prints the usage"
run "$B" --version
expect_status 0 "--version exits 0"
like "$out" "^bmdprep " "--version names the program"
run "$B" --no-such-option
expect_status 2 "unknown option is a usage error"
"$B" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
missing=
while IFS= read -r o; do
	grep -q "Fl \\\\-${o#--}\\b" "$MAN" || missing="$missing $o"
done <"$T/opts"
is "$missing" "" "every long option of --help is on the man page"
ok test "$(wc -l <"$T/opts")" -ge 20
run mandoc -Tlint -W warning "$MAN"
is "$out$err" "" "mandoc -Tlint -W warning is clean"

printf '# T\n\n> S\n\n## A\n- [a](https://e.org/a.md): d\n' >"$T/l.txt"
run "$B" --llms -o "$T/o.ndjson" "$T/l.txt"
expect_status 0 "-o writes the output file"
is "$(grep -c . "$T/o.ndjson")" "2" "-o file holds the records"
is "$out" "" "nothing on stdout with -o"
run "$B" --llms -o "$T/o2.ndjson" "$T/missing.txt"
expect_status 1 "failed run"
ok test ! -e "$T/o2.ndjson"
is "$(ls "$T" | grep -c 'o2.ndjson')" "0" "no half file left behind"

# the EXAMPLES of the page, on local files
cd "$T" || exit 1
mkdir -p archive/llms/S1 archive/markdown/S1
printf '# Ex\n\n> e\n\n## Docs\n- [A](a.md): a\n- [B](https://e.org/b.md): b\n' >llms.txt
cp llms.txt archive/llms/S1/l.txt
printf '# A\n<!-- x -->\ntext\n' >a.md
printf '# B\n' >b.md
cp a.md archive/markdown/S1/a.md
printf '{"site_id":"S1","url":"https://docs.example.com/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"llms/S1/l.txt"}\n{"site_id":"S1","url":"https://docs.example.com/a.md","condition":"B","fetch_status":"SUCCESS","archive_path":"markdown/S1/a.md"}\n' >manifest.ndjson
cp "$TOP/examples/benchmark-config.json" .
run "$B" --llms -b https://docs.example.com/llms.txt llms.txt
like "$out" '"url":"https://docs.example.com/a.md"' "example: parse by hand"
run sh -c "'$B' --check -a archive manifest.ndjson | jq -r 'select(.verdict==\"FAIL\") | .site_id'"
is "$out" "S1" "example: --check pipeline"
run "$B" -c benchmark-config.json -a archive manifest.ndjson
like "$out" '"markdown":"# A\\ntext\\n"' "example: Condition B preparation"
run "$B" --ctx --doc https://e.org/a.md=a.md --doc https://e.org/b.md=b.md llms.txt
expect_status 1 "example: --ctx needs every linked document"
run "$B" --ctx --doc a.md=a.md --doc https://e.org/b.md=b.md llms.txt
# (the reference's quirk: a blockquote right before the first H2 is info)
is "$out" '<project title="Ex">> e<docs><doc title="A" desc="a"># A
text</doc><doc title="B" desc="b"># B</doc></docs></project>' "example: --ctx, reference quirks included"
done_testing
