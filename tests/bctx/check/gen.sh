#!/bin/sh
# gen.sh DIR [NSITES] - write a small study corpus that keeps every rule of
# bctx check (spec 001 §1.1-1.3, §1.6, §3.2-3.6): NSITES sites (default 30)
# spread over the eight sectors of §1.3, five questions per site (two
# single-fact, two multi-section-synthesis, one conceptual-relationship),
# their gold answers, a config frozen on 2026-02-26 and one llms.txt per site
# in DIR/llms/ linking six described Markdown pages.  The tests derive each
# breaking corpus from this one by a single change.
set -eu
dir=$1
n=${2:-30}
mkdir -p "$dir/llms"
awk -v n="$n" -v dir="$dir" '
function q(s) { return "\"" s "\"" }
function url(i, p) { return sprintf("https://s%03d.example/docs/p%d.md", i, p) }
BEGIN {
	split("Developer Tools & APIs|AI & ML Platforms|Cloud Infrastructure|" \
	    "SaaS Product Documentation|Open Source Projects|Enterprise Software|" \
	    "Education & Learning|Other", sector, "|")
	sl = dir "/site-list.csv"; qf = dir "/questions.json"; gf = dir "/gold-answers.json"
	print "\"site_id\",\"domain\",\"llms_txt_url\",\"html_docs_url\",\"sector\"," \
	    "\"llms_txt_page_count\",\"has_llms_full\",\"verification_date\"," \
	    "\"verification_status\",\"exclusion_reason\",\"notes\"" > sl
	split("single-fact|single-fact|multi-section-synthesis|multi-section-synthesis|" \
	    "conceptual-relationship", cx, "|")
	print "[" > qf; print "[" > gf
	for (i = 1; i <= n; i++) {
		id = sprintf("S%03d", i); dom = sprintf("s%03d.example", i)
		printf "%s,%s,%s,%s,%s,6,\"FALSE\",\"2026-02-20\",\"PASS\",\"\",\"\"\n",
		    q(id), q(dom), q("https://" dom "/llms.txt"), q("https://" dom "/docs"),
		    q(sector[(i - 1) % 8 + 1]) > sl
		lf = dir "/llms/" id ".txt"
		printf "# Site %d\n\n> The documentation of site %d.\n\n## Docs\n\n", i, i > lf
		for (p = 1; p <= 6; p++)
			printf "- [Page %d](%s): what page %d covers\n", p, url(i, p), p > lf
		close(lf)
		printf "  {\n    \"site_id\": %s,\n    \"domain\": %s,\n    \"questions\": [\n", q(id), q(dom) > qf
		printf "  {\n    \"site_id\": %s,\n    \"domain\": %s,\n    \"answers\": [\n", q(id), q(dom) > gf
		for (k = 1; k <= 5; k++) {
			qid = sprintf("%s-Q%02d", id, k)
			if (k <= 2) { secs = q("Section " k); urls = q(url(i, k)) }
			else { secs = q("Section " k) ", " q("Section " k + 1)
				urls = q(url(i, k)) ", " q(url(i, k + 1)) }
			printf "      {\n        \"question_id\": %s,\n", q(qid) > qf
			printf "        \"text\": \"What does page %d of site %d say?\",\n", k, i > qf
			printf "        \"complexity\": %s,\n", q(cx[k]) > qf
			printf "        \"source_sections\": [%s],\n", secs > qf
			printf "        \"source_urls\": [%s]\n      }%s\n", urls, k < 5 ? "," : "" > qf
			printf "      {\n        \"question_id\": %s,\n", q(qid) > gf
			printf "        \"gold_answer\": \"Page %d of site %d says one thing. It also says another.\",\n", k, i > gf
			printf "        \"source_urls\": [%s],\n", urls > gf
			printf "        \"verified_date\": \"2026-02-21\"\n      }%s\n", k < 5 ? "," : "" > gf
		}
		printf "    ]\n  }%s\n", i < n ? "," : "" > qf
		printf "    ]\n  }%s\n", i < n ? "," : "" > gf
	}
	print "]" > qf; print "]" > gf
}'
printf '{\n  "created": "2026-02-26",\n  "models": []\n}\n' >"$dir/benchmark-config.json"
