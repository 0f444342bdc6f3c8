#!/bin/sh
# bctx assemble on a small fixture site: joins by (site, url, condition),
# Condition A joining, Condition B context in both styles, the §2.5
# exclusions with dropped URLs, prompt filling, gold_coverage.
. "${0%/*}/../lib/tap.sh"
F=${0%/*}/fixture
# The example study's configuration: the same prompts and budgets as the real one.
CONFIG=$TOP/examples/benchmark-config.json
BCTX=$(prog bctx)

run "$BCTX" assemble -q "$F/questions.json" -s "$F/sites.csv" -g "$F/gold.json" \
    -c "$CONFIG" "$F/records.ndjson"
expect_status 0 "assemble runs"
R=$T/ctx
cp "$T/out" "$R"
get() { jq -r --arg q "$1" --arg c "$2" "select(.question_id==\$q and .condition==\$c)|$3" "$R"; }

is "$(jq -r '[.question_id,.condition]|join(":")' "$R" | tr '\n' ' ')" \
    "S001-Q01:A S001-Q01:B S001-Q02:A S001-Q02:B S001-Q03:A S001-Q03:B S001-Q04:A S001-Q04:B S001-Q05:A S001-Q05:B S002-Q01:A S002-Q01:B " \
    "one context per question and condition, in question order, A then B"
is "$(get S001-Q02 A .content)" "$(printf 'Webhooks are signed.\n\n---\n\nKeys can be rotated.')" \
    "condition A: pages in source_urls order joined by blank line, ---, blank line"
is "$(get S001-Q02 A .last_modified)" "Mon, 01 Dec 2025 10:00:00 GMT" "last_modified: the latest among pages"
get S001-Q02 B .content >"$T/q2b"
printf '%s\n' '<project title="Example Docs" summary="Docs for &quot;Example&quot; &amp; friends.">' \
    'Read the guides first.' '<guides>' \
    '<doc title="API keys" url="https://docs.example.com/guide/keys.md">' '# API keys' '' \
    'Rotating keys invalidates old signatures.' '</doc>' '</guides>' '<optional>' \
    '<doc title="Webhooks" url="https://docs.example.com/extra/webhooks.md">' '# Webhooks' '' \
    'Webhooks are signed with your API key.' '</doc>' '</optional>' '</project>' >"$T/q2b.want"
files_eq "$T/q2b" "$T/q2b.want" \
    "condition B: only the cited docs, sections in llms.txt order, the cited Optional doc included"
is "$(get S001-Q02 B '.pages[1].url')" "https://docs.example.com/guide/keys.md#rotation" \
    "html source with fragment and host case: B page found through URL/.md, fragment kept"
is "$(get S001-Q01 B '.pages[0].fetch_status')" SUCCESS \
    "a later failed re-fetch does not replace a usable page"
is "$(get S001-Q03 B .mapping)/$(get S001-Q03 A '.pages[0].url')" "llms-txt-source/https://docs.example.com/" \
    "llms.txt as source: B is its content, A the html_docs_url page"
like "$(get S001-Q03 B .content)" '^<doc title="Example Docs" url="https://docs.example.com/llms.txt">$' \
    "llms.txt as source: the llms.txt content is the document"
is "$(get S001-Q04 A '[.excluded,.exclusion_reason,.dropped_urls[0].reason]|@tsv')" \
    "$(printf 'true\tHTTP_404\tHTTP_404')" "HTTP error: excluded with HTTP_{status}"
is "$(get S001-Q04 B '[.excluded,.exclusion_reason]|@tsv')" "$(printf 'true\tNO_MARKDOWN_MAPPING')" \
    "no llms.txt link: NO_MARKDOWN_MAPPING"
is "$(get S001-Q05 A '[.excluded,.content,.dropped_urls[0].url,.dropped_urls[0].reason]|@tsv')" \
    "$(printf 'false\tRetries back off exponentially.\thttps://docs.example.com/guide/limits\tTIMEOUT')" \
    "partial context: the failed page is dropped and listed"
is "$(get S001-Q05 B '[.exclusion_reason,(.dropped_urls|map(.reason)|join(","))]|@tsv')" \
    "$(printf 'EMPTY_CONTENT\tEMPTY_CONTENT,WAF_BLOCKED')" "all B pages failed: excluded, each reason listed"
is "$(get S002-Q01 A .exclusion_reason)" NOT_ARCHIVED \
    "a page archived for another site is not used: the join is by site, url and condition"
is "$(get S001-Q01 A .user_prompt)" \
    "$(printf 'Content:\nInstall the server. It listens on port 8080 by default.\n\nQuestion: What port does the server use?')" \
    "user prompt filled from the config template"
like "$(get S001-Q01 A .system_prompt)" '^You are a factual question-answering system' "system prompt from the config"
is "$(get S001-Q04 A .user_prompt)" null "no prompt for an excluded context"
is "$(get S001-Q01 A .content_chars)" 55 "content_chars"
is "$(get S001-Q01 B .sector)" "Developer Tools & APIs" "sector from the site list"
is "$(get S001-Q02 A .gold_coverage)" 0.375 "gold_coverage: share of the gold answer's content words in A"
is "$(get S001-Q02 B .gold_coverage)" 1 "gold_coverage of B"
is "$(get S001-Q03 A .gold_coverage)" null "gold_coverage null without a gold answer"

# one record by hand
run "$BCTX" assemble -q "$F/questions.json" --question S001-Q02 --condition B \
    --style reference "$F/records.ndjson"
expect_status 0 "--question --condition: one context by hand"
is "$(wc -l <"$T/out" | tr -d ' ')" 1 "exactly one record"
is "$(jq -r .content "$T/out")" "$(printf '%s' '<project title="Example Docs" summary='"'"'Docs for "Example" &amp; friends.'"'"'>Read the guides first.<guides><doc title="API keys"># API keys

Rotating keys invalidates old signatures.
</doc></guides><optional><doc title="Webhooks" desc="Signing"># Webhooks

Webhooks are signed with your API key.
</doc></optional></project>')" "--style reference: create_ctx layout, quoting and desc attributes"
run --stdin "$F/records.ndjson" "$BCTX" assemble -q "$F/questions.json" --question S001-Q01 --condition A
is "$(jq -r .content "$T/out")" "Install the server. It listens on port 8080 by default." "pages read from stdin"
run "$BCTX" assemble -q "$F/questions.json" --question S009-Q01 "$F/records.ndjson"
expect_status 1 "unknown --question is an error"
like "$err" "no question 'S009-Q01'" "and says which"
run "$BCTX" assemble -q "$F/questions.json" -o "$T/o.ndjson" "$F/records.ndjson"
is "$rc:$(wc -l <"$T/o.ndjson" | tr -d ' ')" "0:12" "-o writes the file"

# llms.txt as source without a parsed llms.txt: a prepared copy, else NOT_ARCHIVED
grep -v '"kind": "llms"' "$F/records.ndjson" >"$T/nollms.ndjson"
run "$BCTX" assemble -q "$F/questions.json" --question S001-Q03 --condition B "$T/nollms.ndjson"
is "$(jq -r '[.exclusion_reason,.dropped_urls[0].url]|@tsv' "$T/out")" \
    "$(printf 'NOT_ARCHIVED\thttps://docs.example.com/llms.txt')" "llms.txt source with no llms.txt record: NOT_ARCHIVED"
cp "$T/nollms.ndjson" "$T/prep.ndjson"
printf '%s\n' '{"site_id":"S001","url":"https://docs.example.com/llms.txt","condition":"llms_txt","fetch_status":"SUCCESS","archive_path":"llms/S001/y.txt","markdown":"# Example\n"}' >>"$T/prep.ndjson"
run "$BCTX" assemble -q "$F/questions.json" --question S001-Q03 --condition B "$T/prep.ndjson"
is "$(jq -r .content "$T/out")" "$(printf '<project title="docs.example.com">\n<doc title="llms.txt" url="https://docs.example.com/llms.txt">\n# Example\n</doc>\n</project>')" \
    "llms.txt source from a prepared llms_txt record, project titled by the domain"
# --all-links: the whole llms.txt, Optional only with --optional
run "$BCTX" assemble -q "$F/questions.json" --question S001-Q01 --condition B --all-links --style reference "$F/records.ndjson"
is "$(jq -r '.content|[scan("<doc title=\"[^\"]*\"")]|join(",")' "$T/out")" \
    '<doc title="Install"' "--all-links: every link with a usable page (keys.md was archived only with a fragment), Optional left out"
like "$(jq -r '.dropped_urls|map(.reason)|join(",")' "$T/out")" '^NOT_ARCHIVED,EMPTY_CONTENT,WAF_BLOCKED$' \
    "--all-links: links without a usable page are dropped and listed"
run "$BCTX" assemble -q "$F/questions.json" --question S001-Q01 --condition B --all-links --optional --style reference "$F/records.ndjson"
like "$(jq -r .content "$T/out")" '<optional><doc title="Webhooks" desc="Signing">' "--all-links --optional: the Optional section too"
# A run whose every context is excluded assembles nothing: exit 1 saying so
# (with -o nothing is written), unless --allow-empty; a usable run ends with
# a one-line summary.
run "$BCTX" assemble -q "$F/questions.json" -o "$T/none.ndjson"
expect_status 1 "no page records: every context excluded, exit 1"
like "$err" '^bctx: <stdin>: all [0-9]+ contexts are excluded \(NOT_ARCHIVED [0-9]+.*\), nothing assembled.*--allow-empty' "saying so, with the reasons"
is "$(printf '%s\n' "$err" | wc -l)" 1 "in one line"
[ ! -e "$T/none.ndjson" ]
is "$?" 0 "and nothing written"
run "$BCTX" assemble -q "$F/questions.json" --allow-empty -o "$T/none.ndjson"
expect_status 0 "--allow-empty accepts it"
is "$(jq -r .excluded "$T/none.ndjson" | sort -u)" true "writing the excluded contexts"
run "$BCTX" assemble -q "$F/questions.json" "$F/records.ndjson"
like "$err" '^bctx: contexts: [0-9]+  usable [0-9]+  excluded [0-9]+' "a run ends with its summary"
run "$BCTX" plan -q "$F/questions.json" -s "$F/sites.csv" --allow-empty
expect_status 2 "--allow-empty is an assemble option"
done_testing
