# examples.awk - the EXAMPLES of an mdoc page, one shell script per example.
#
# An example is a .Dl line or a .Bd -literal ... .Ed block of the EXAMPLES
# section.  Each is written to DIR/N.sh (N from 1, in page order) with the
# roff escapes undone (\e \- \(dq \(aq \& and a leading "$ " prompt), and
# listed on standard output as "N<TAB>SKIP", where SKIP is the reason given
# by a marker comment on the line right before the example:
#     .\" example-skip: needs an Ollama server
# (empty when the example is to run).  Usage: awk -v dir=DIR -f examples.awk PAGE
function unescape(s) {
	gsub(/\\e/, "\\", s)
	gsub(/\\-/, "-", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\&/, "", s)
	sub(/^\$ /, "", s)
	return s
}
function start() { n++; file = dir "/" n ".sh"; printf "" >file; printf "%d\t%s\n", n, skip; skip = "" }
BEGIN { n = 0; in_ex = 0; in_bd = 0; skip = "" }
/^\.Sh / { in_ex = ($0 ~ /^\.Sh EXAMPLES/); next }
!in_ex { next }
/^\.\\" *example-skip:/ { skip = $0; sub(/^\.\\" *example-skip: */, "", skip); next }
in_bd && /^\.Ed/ { in_bd = 0; close(file); next }
in_bd { print unescape($0) >>file; next }
/^\.Bd -literal/ { start(); in_bd = 1; next }
/^\.Dl / { start(); line = $0; sub(/^\.Dl /, "", line); print unescape(line) >>file; close(file); next }
