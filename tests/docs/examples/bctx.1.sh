# Inputs of bctx(1)'s examples: the full chain (example 2) starts from the
# llms.txt fetch, bfetch(1)'s first example, into a new archive.
set -eu
case $1 in
2)	rm -rf archive
	bfetch -c benchmark-config.json -a archive --sites site-list.csv >llms-manifest.ndjson ;;
esac
