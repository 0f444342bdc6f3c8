# Input of bread(1)'s example that reads page.html: a saved page of the
# example site.
set -eu
cp "$CTXBENCH_BUILD/site/docs/install.html" page.html
