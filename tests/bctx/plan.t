#!/bin/sh
# bctx plan on the real corpus (shared/corpus): every URL class present in
# its 286 questions, from the URLs alone (no llms.txt available) and with
# llms.txt link records that list each HTML page's Markdown in every form
# the html-source rule accepts.
. "${0%/*}/../lib/tap.sh"
CORPUS=$SHARED/corpus
need_shared corpus/questions.json && need_shared corpus/site-list.csv ||
    skip_all "no shared corpus ($CORPUS): questions.json and site-list.csv"
Q=$CORPUS/questions.json S=$CORPUS/site-list.csv
BCTX=$(prog bctx)
PY=/usr/bin/python3

# ---- from the URLs alone
run "$BCTX" plan -q "$Q" -s "$S"
expect_status 0 "plan runs on the real corpus without llms.txt links"
cp "$T/out" "$T/jobs"
is "$(jq -r '[.site_id,.url,.condition]|@tsv' "$T/jobs" | sort | uniq -d | wc -l)" 0 \
    "jobs are unique by (site, url, condition)"
is "$(wc -l <"$T/jobs" | tr -d ' ')" 554 "554 jobs for the corpus (one per page: fragments do not count)"
is "$(jq -r .condition "$T/jobs" | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
    " 364 A, 181 B, 9 llms_txt," "jobs per condition"
is "$(jq -c 'select(.site_id=="S006" and .condition=="A" and .url=="https://ai-sdk.dev/docs/guides/rag")|.question_ids' "$T/jobs")" \
    '["S006-Q01","S006-Q02","S006-Q04","S006-Q05","S006-Q06"]' "a page cited by several questions is one job listing them all"

# class: .md source -> B is the URL, A its HTML page
jq -r '.[]|.site_id as $s|.questions[]|.source_urls[]|[$s,.]|@tsv' "$Q" | sort -u >"$T/src"
grep -E '\.md(#.*)?$' "$T/src" >"$T/md"
is "$(wc -l <"$T/md" | tr -d ' ')" 182 "182 distinct .md source URLs"
# expected jobs: B the URL; A the URL without .md, index.md -> directory
awk -F'\t' '{ u = $2; i = index(u, "#"); if (i) u = substr(u, 1, i - 1)
	h = u; if (h ~ /\/index\.md$/) sub(/index\.md$/, "", h); else sub(/\.md$/, "", h)
	print $1 "\tB\t" u; print $1 "\tA\t" h }' "$T/md" | sort -u >"$T/mdwant"
jq -r '[.site_id,.condition,.url]|@tsv' "$T/jobs" | sort -u >"$T/jobtsv"
bad=$(comm -23 "$T/mdwant" "$T/jobtsv" | wc -l | tr -d ' ')
is "$bad" 0 "every .md source: B job is the URL, A job its HTML page (index.md: the directory)"
like "$(grep '"url":"https://developers.cloudflare.com/ai-gateway/"' "$T/jobs")" '"condition":"A"' \
    "/ai-gateway/index.md -> A is /ai-gateway/"

# class: fragment -> one job per page, without the fragment
is "$(jq -r 'select(.url|startswith("https://vite.dev/guide/features"))|[.condition,.url,(.fetch_url // "-")]|@tsv' "$T/jobs" | tr '\n' ' ')" \
    "$(printf 'A\thttps://vite.dev/guide/features\t- B\thttps://vite.dev/guide/features.md\t- ')" \
    "a page cited with and without a fragment: one job per condition, url without fragment"

# class: the llms.txt itself -> B llms_txt job, A the site's html_docs_url
is "$(jq -r 'select(.condition=="llms_txt")|.site_id' "$T/jobs" | tr '\n' ' ')" \
    "S001 S015 S016 S017 S018 S019 S020 S021 S022 " "9 questions cite an llms.txt: llms_txt jobs"
is "$(jq -r 'select(.site_id=="S019" and .condition=="A")|.url' "$T/jobs")" \
    "https://developer.chrome.com/docs" "llms-txt-source: A is html_docs_url"

# classes: HTML pages (plain path, trailing slash, .html, bare host) -> A only
for u in https://clerk.com/billing https://www.postman.com/partner-program/ \
    https://www.manageengine.com/products/active-directory-audit/features.html \
    https://docs.zapier.com https://help.edx.org; do
	is "$(jq -r --arg u "$u" 'select(.url==$u)|.condition' "$T/jobs" | tr '\n' ' ')" \
	    "A " "html source $u: A job only without llms.txt"
done

run "$BCTX" plan -q "$Q" -s "$S" --report
expect_status 0 "--report runs from the URLs alone"
like "$out" "$(printf '^total\t286\t147\t139\t0\t0\t6\t483\t241$')" \
    "overall: 147 questions with both conditions, 139 with A only"
like "$out" "$(printf '^S004\t8\t0\t8\t0\t0\t0\t13\t13$')" "per site: S004 has no Markdown mapping"
like "$out" "$(printf '^S001\t8\t8\t0')" "per site: S001 complete"
like "$out" "$(printf 'S004\tS004-Q04\thttps://clerk.com/billing\tno llms.txt links for the site')" \
    "says which URL could not be mapped and why"
like "$out" "$(printf '^llms-txt-source\t57$')" "mapping rules counted"
like "$out" "^# no llms.txt records given" "the report says it ran from the URLs alone"

# ---- with llms.txt links listing every HTML page's Markdown
$PY "${0%/*}/corpus-links.py" "$Q" "$T"
run "$BCTX" plan -q "$Q" -s "$S" -l "$T/links.ndjson" --report
like "$out" "$(printf '^total\t286\t286\t0\t0\t0\t0\t483\t0$')" \
    "with links in every accepted form, all 286 questions get both conditions"
run "$BCTX" plan -q "$Q" -s "$S" -l "$T/links.ndjson"
jq -r 'select(.condition=="B")|[.site_id,.url]|@tsv' "$T/out" | sort -u >"$T/gotb"
cut -f1,3 "$T/expected.tsv" | sort -u >"$T/wantb"
is "$(comm -13 "$T/gotb" "$T/wantb" | wc -l | tr -d ' ')/$(wc -l <"$T/wantb" | tr -d ' ')" 0/175 \
    "html sources: each of the 175 gets a B job for exactly the llms.txt link found"
awk 'NR % 5 == 0 || $4 == "html-ext.md"' "$T/expected.tsv" >"$T/sample.tsv"
is "$(cut -f4 "$T/sample.tsv" | sort -u | tr '\n' ' ')" \
    "html-ext.md same-url url.md url/index.html.md url/index.md " "the sample covers every rule"
bad=0
while IFS="$(printf '\t')" read -r site src burl rule; do
	got=$("$BCTX" plan -s "$S" -l "$T/links.ndjson" --site "$site" --url "$src" | jq -r .b_rule)
	[ "$got" = "$rule" ] || { bad=$((bad + 1)); diag "$src: $got, expected $rule"; }
done <"$T/sample.tsv"
is "$bad" 0 "each html source (a sample of every rule) maps by its rule (same-url, url.md, url/index.md, url/index.html.md, html-ext.md; host case, trailing slash)"

# a .md source that the site's llms.txt does not list is reported (001 §3.5)
printf '%s\n' '{"kind":"link","site_id":"S001","llms_txt_url":"https://docs.stripe.com/llms.txt","section":"Treasury","optional":false,"title":"Treasury","url":"https://docs.stripe.com/treasury.md","description":null,"line":3}' >"$T/one.ndjson"
run "$BCTX" plan -q "$Q" -s "$S" -l "$T/one.ndjson" --site S001 --report
like "$out" "$(printf '^S001\tS001-Q02\thttps://docs.stripe.com/connect/charges.md$')" \
    "report lists .md sources the llms.txt does not link"
unlike "$out" "treasury.md" "a listed .md source is not reported"

# ---- user mapping CSV overrides every rule
cat >"$T/map.csv" <<'CSV'
site_id,html_url,md_url
S004,https://clerk.com/billing,https://clerk.com/docs/billing/overview.md
S004,https://clerk.com/organizations,
CSV
run "$BCTX" plan -s "$S" -m "$T/map.csv" --site S004 --url https://clerk.com/billing/
is "$(jq -r '[.mapping,.a_url,.b_url]|@tsv' "$T/out")" \
    "$(printf 'user\thttps://clerk.com/billing\thttps://clerk.com/docs/billing/overview.md')" \
    "user mapping gives A and B"
run "$BCTX" plan -s "$S" -l "$T/links.ndjson" --site S004 --url https://clerk.com/organizations
is "$(jq -r '[.mapping,.b_url]|@tsv' "$T/out")" \
    "$(printf 'html-source\thttps://clerk.com/organizations.md')" "without the user mapping: the llms.txt link"
run "$BCTX" plan -s "$S" -l "$T/links.ndjson" -m "$T/map.csv" --site S004 --url https://clerk.com/organizations
is "$(jq -r '[.mapping,.a_url,.exclusion_reason]|@tsv' "$T/out")" \
    "$(printf 'user\thttps://clerk.com/organizations\tNO_MARKDOWN_MAPPING')" \
    "a user mapping with an empty md_url overrides the llms.txt link: NO_MARKDOWN_MAPPING"
run "$BCTX" plan -q "$Q" -s "$S" -m "$T/map.csv" --question S004-Q04
is "$(jq -r '[.url,.condition]|@tsv' "$T/out" | tr '\n' ' ')" \
    "$(printf 'https://clerk.com/billing\tA https://clerk.com/docs/billing/overview.md\tB https://clerk.com/blog/add-subscriptions-to-your-saas-with-clerk-billing\tA ')" \
    "--question plans one question by hand"
run "$BCTX" plan -q "$Q" -s "$S" --condition B --site S002
is "$(jq -r .condition "$T/out" | sort -u)" B "--condition B --site S002 filters"
done_testing
