# Inputs of bctx(1)'s examples: the full chain (example 2) starts from the
# llms.txt fetch, bfetch(1)'s first example, into a new archive; the drift
# example (whatever its number) compares the study's pages with a second snapshot in later/,
# here the same pages with one default changed on the configuration page
# and its Markdown twin (tests/e2e/drift.t archives the site's real later
# version).
set -eu
case $1 in
2)	rm -rf archive
	bfetch -c benchmark-config.json -a archive --sites site-list.csv >llms-manifest.ndjson ;;
esac
if [ -s pages-a.ndjson ] && [ ! -d later ]; then
	mkdir -p later
	for f in pages-a pages-b; do
		jq -c 'if (.url | test("/docs/reference/config")) and .fetch_status == "SUCCESS" then
		    (if has("text") then .text |= sub("fetch_timeout_seconds \\| 30"; "fetch_timeout_seconds | 60")
		     else .markdown |= sub("`fetch_timeout_seconds` \\| 30"; "`fetch_timeout_seconds` | 60") end)
		    | .content_sha256 = ("0" * 64) else . end' $f.ndjson >later/$f.ndjson
	done
fi
