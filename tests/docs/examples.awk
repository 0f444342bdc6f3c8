# examples.awk - the EXAMPLES of an mdoc page, one shell script per example.
#
# An example is a .Dl line or a .Bd -literal ... .Ed block of the EXAMPLES
# section.  Each is written to DIR/N.sh (N from 1, in page order) with the
# roff escapes undone (\e \- \(dq \(aq \& and a leading "$ " prompt), and
# listed on standard output as "N<TAB>STATUS<TAB>SKIP".  Marker comments on
# the lines right before an example say how it runs:
#     .\" example-skip: needs an Ollama server
# skips it with that reason (SKIP, empty when the example is to run), and
#     .\" example-exit: 1
# makes 1 its expected exit status (STATUS, default 0), for an example that
# shows a failure.  Usage: awk -v dir=DIR -f examples.awk PAGE
function unescape(s) {
	gsub(/\\e/, "\\", s)
	gsub(/\\-/, "-", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\&/, "", s)
	sub(/^\$ /, "", s)
	return s
}
function start() {
	n++; file = dir "/" n ".sh"; printf "" >file
	printf "%d\t%d\t%s\n", n, status, skip; skip = ""; status = 0
}
BEGIN { n = 0; in_ex = 0; in_bd = 0; skip = ""; status = 0 }
/^\.Sh / { in_ex = ($0 ~ /^\.Sh EXAMPLES/); next }
!in_ex { next }
/^\.\\" *example-skip:/ { skip = $0; sub(/^\.\\" *example-skip: */, "", skip); next }
/^\.\\" *example-exit:/ { status = $0; sub(/^\.\\" *example-exit: */, "", status); status += 0; next }
in_bd && /^\.Ed/ { in_bd = 0; close(file); next }
in_bd { print unescape($0) >>file; next }
/^\.Bd -literal/ { start(); in_bd = 1; next }
/^\.Dl / { start(); line = $0; sub(/^\.Dl /, "", line); print unescape(line) >>file; close(file); next }
