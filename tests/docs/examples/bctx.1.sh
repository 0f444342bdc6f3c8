# Inputs of bctx(1)'s examples (run as "sh bctx.1.sh N SCRIPT"), each made
# only for the example that reads it: the full chain starts from the
# llms.txt fetch, bfetch(1)'s first example, into a new archive; the drift
# example compares the study's pages with a second snapshot in later/,
# here the same pages with one default changed on the configuration page
# and its Markdown twin (tests/e2e/drift.t archives the site's real later
# version).
set -eu
if grep -q 'bfetch --resume' "$2"; then
	rm -rf archive
	bfetch -c benchmark-config.json -a archive --sites site-list.csv >llms-manifest.ndjson
fi
if grep -q 'later/' "$2"; then
	mkdir -p later
	for f in pages-a pages-b; do
		jq -c 'if (.url | test("/docs/reference/config")) and .fetch_status == "SUCCESS" then
		    (if has("text") then .text |= sub("fetch_timeout_seconds \\| 30"; "fetch_timeout_seconds | 60")
		     else .markdown |= sub("`fetch_timeout_seconds` \\| 30"; "`fetch_timeout_seconds` | 60") end)
		    | .content_sha256 = ("0" * 64) else . end' $f.ndjson >later/$f.ndjson
	done
fi
