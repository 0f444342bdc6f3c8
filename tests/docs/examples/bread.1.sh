# Input of bread(1)'s second example: a saved page of the example site.
set -eu
cp "$CTXBENCH_TOP/examples/site/public/docs/install.html" page.html
