#!/bin/sh
# bmdprep on the inputs of issue 16: a section without a name under
# --optional, a NUL byte in an H2 name, 100,000 sections and 40,000
# one-link sections, comments and blank lines inside indented, block-quoted
# and fenced code.
. "${0%/*}/../lib/tap.sh"
B=$(prog bmdprep)
BCTX=$(prog bctx)

# ---- an empty-name section (a final bare "##"): create_ctx(optional=True)
# skips the section named '' (mk_ctx: skip = '' if optional else 'Optional')
printf '# P\n\n> s\n\nInfo.\n\n## Docs\n\n- [One](https://p.example/one.md): first\n\n## Optional\n\n- [Two](https://p.example/two.md)\n\n##\n' >"$T/empty.txt"
printf 'one\n' >"$T/one.md"; printf 'two\n' >"$T/two.md"
D="--doc https://p.example/one.md=$T/one.md --doc https://p.example/two.md=$T/two.md"
run "$B" --ctx --optional $D "$T/empty.txt"
expect_status 0 "--ctx --optional on an empty-name section"
is "$out" '<project title="P" summary="s">Info.<docs><doc title="One" desc="first">one</doc></docs><optional><doc title="Two">two</doc></optional></project>' \
    "--ctx --optional: the empty-name section is dropped, as the reference does"
run "$B" --ctx $D "$T/empty.txt"
is "$out" '<project title="P" summary="s">Info.<docs><doc title="One" desc="first">one</doc></docs></></project>' \
    "--ctx without --optional: Optional skipped, the empty-name section kept, as the reference does"
run "$B" --llms -r -b https://p.example/llms.txt "$T/empty.txt"
printf '%s\n' "$out" | sed 's/"site_id":null/"site_id":"S001"/' >"$T/links.ndjson"
printf '%s\n' '[{"site_id":"S001","domain":"p.example","questions":[{"question_id":"S001-Q01","text":"q","complexity":"single-fact","source_sections":["x"],"source_urls":["https://p.example/llms.txt"]}]}]' >"$T/q.json"
for d in one two; do
	printf '{"site_id":"S001","url":"https://p.example/%s.md","condition":"B","fetch_status":"SUCCESS","markdown":"%s"}\n' $d $d
done >"$T/pages.ndjson"
run "$BCTX" assemble -q "$T/q.json" -l "$T/links.ndjson" --style reference --all-links --optional \
    --condition B "$T/pages.ndjson"
is "$(printf '%s\n' "$out" | jq -r .content)" \
    "$(cd "$T" && "$B" --ctx --optional $D "$T/empty.txt")" \
    "bctx assemble --style reference --all-links --optional: the same as bmdprep --ctx --optional"

# ---- a NUL byte in an H2 name
printf '# T\n\n> s\n\n## A\0B\n\n- [x](https://x.example/a.md): d\n' >"$T/nul.txt"
run "$B" --llms -b https://x.example/llms.txt "$T/nul.txt"
expect_status 0 "lenient parse of a NUL in a section name"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="link")|.section')" "A�B" \
    "lenient: the NUL becomes U+FFFD, the name is not cut"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic")|[.code,.line]|@tsv')" "$(printf 'nul_byte\t5')" \
    "lenient: nul_byte diagnostic at the line of the first NUL"
run "$B" --llms -r --dump "$T/nul.txt"
is "$(printf '%s\n' "$out" | jq -c '.sections|keys')" '["A\u0000B"]' \
    "reference --dump: the name keeps its NUL, as the reference's dict key"

# ---- many sections and links: linear (the quadratic versions took 42 s and
# 10 s of CPU; the cap is generous for sanitizer builds)
/usr/bin/python3 -c '
print("# T\n\n> s\n")
for i in range(100000): print("## S%d" % i)' >"$T/secs.txt"
/usr/bin/python3 -c '
print("# T\n\n> s\n")
for i in range(40000): print("## S%d\n\n- [a](https://x.example/%d.md): d\n" % (i, i))' >"$T/links.txt"
for m in "" -r; do
	run sh -c "ulimit -t 20; '$B' --llms $m -b https://x.example/llms.txt '$T/secs.txt' | jq -r .kind | sort | uniq -c | tr -s ' '"
	case $m in
	-r) is "$out" " 1 llms" "100,000 sections, reference: within 20 s of CPU" ;;
	*) is "$out" "$(printf ' 100000 diagnostic\n 1 llms')" "100,000 sections: each reported empty, within 20 s of CPU" ;;
	esac
	run sh -c "ulimit -t 20; '$B' --llms $m -b https://x.example/llms.txt '$T/links.txt' | jq -r .kind | sort | uniq -c | tr -s ' '"
	like "$out" " 40000 link" "40,000 one-link sections${m:+ (reference)}: within 20 s of CPU"
done
printf '# T\n\n## S\n' >"$T/rep.txt"
i=0; while [ $i -lt 3 ]; do printf '## S\n- [a](https://x.example/a.md): d\n'; i=$((i + 1)); done >>"$T/rep.txt"
run "$B" --llms -b https://x.example/llms.txt "$T/rep.txt"
is "$(printf '%s\n' "$out" | jq -r 'select(.code=="repeated_section")|.message' | sort -u)" \
    'section "S" appears again (first at line 3)' "a repeated section names its first occurrence"
is "$(printf '%s\n' "$out" | jq -r 'select(.kind=="diagnostic")|.line' | tr '\n' ' ')" "3 4 6 8 " \
    "diagnostics sorted by line, stable"

# ---- code is left alone: comments and blank lines inside code
printf 'Text <!-- gone -->\n\n    indented <!-- kept -->\n\n\n\n    after three blanks\n\n> ```\n> <!-- kept in quoted fence -->\n>\n> ```\n\n```\na\n\n\n\n\nb\n```\n\n\n\n\nend <!-- gone -->\n' >"$T/code.md"
run "$B" --raw --max-blank 1 "$T/code.md"
printf 'Text \n\n    indented <!-- kept -->\n\n\n\n    after three blanks\n\n> ```\n> <!-- kept in quoted fence -->\n>\n> ```\n\n```\na\n\n\n\n\nb\n```\n\nend \n' >"$T/code.want"
files_eq "$T/out" "$T/code.want" \
    "comments and blank runs kept in indented, block-quoted and fenced code; collapsed outside"
done_testing
