# Input of btok(1)'s first example: the example site's Markdown as one file.
set -eu
cat archive/markdown/S001/* >llms-full.txt
