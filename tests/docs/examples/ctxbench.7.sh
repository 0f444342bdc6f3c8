# Inputs of ctxbench(7)'s examples: the pipeline by hand (example 2) starts
# a study of its own in the demo's directory, so the demo's archive (which
# is immutable) and its key and sheets (which blind never replaces) go first.
set -eu
case $1 in
2)	rm -rf archive key.json sheets ;;
esac
