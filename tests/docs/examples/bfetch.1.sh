# bfetch(1)'s examples each fetch into a new archive (archives are immutable).
set -eu
rm -rf archive
