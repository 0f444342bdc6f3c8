#!/bin/sh
# DESIGN.md, "Layers inside a program": no circle of files in any program or
# in common/, and each program's header maps every one of its source files.
# The calls are read from the object files of the build (nm -P), so the
# check sees what the linker sees, not what the comments say.  First the
# checker itself, on a made-up program whose two files call each other and
# whose header forgets one of them; then the tree.
. "${0%/*}/../lib/tap.sh"
command -v nm >/dev/null || skip_all "nm (binutils) is not installed"
CHECK="python3 $TOP/tests/common/layers.py"

mkdir -p "$T/b/tools/demo" "$T/b/common" "$T/src/tools/demo"
printf 'int b(void);\nint a(void) { return b(); }\nint main(void) { return a(); }\n' >"$T/a.c"
printf 'int a(void);\nint b(void) { return 0; }\nint c(void) { return a(); }\n' >"$T/b.c"
printf 'int lib(void) { return 1; }\n' >"$T/l.c"
cc -c -o "$T/b/tools/demo/main.o" "$T/a.c" &&
cc -c -o "$T/b/tools/demo/two.o" "$T/b.c" &&
cc -c -o "$T/b/common/lib.o" "$T/l.c" || { fail "cc builds the made-up program"; done_testing; }
printf '/* main.c: the program */\n' >"$T/src/tools/demo/demo.h"
run $CHECK "$T/b" "$T/src"
expect_status 1 "a circle of files fails the check"
like "$out" "not ok 1 - demo: no circle of files" "the circle is named by program"
like "$out" "#   main.c -> two.c: b" "with the symbols that close it"
like "$out" "#   two.c -> main.c: a" "in both directions"
like "$out" "not ok 2 - demo: tools/demo/demo.h maps every file" "the header's map is checked"
like "$out" "# not named: two.c" "and the missing file named"
like "$out" "ok 3 - common: no circle of files" "common/ is checked as one unit"

# The same program with the call back removed and the map complete.
printf 'int b(void) { return 0; }\n' >"$T/b.c"
cc -c -o "$T/b/tools/demo/two.o" "$T/b.c"
printf '/* main.c calls two.c */\n' >"$T/src/tools/demo/demo.h"
run $CHECK "$T/b" "$T/src"
expect_status 0 "a program whose files call down only passes"

[ -d "$CTXBENCH_BUILD/tools" ] || { skip "no object files under the build"; done_testing; }
run $CHECK "$CTXBENCH_BUILD" "$TOP"
expect_status 0 "no program has a circle of files, and every header maps its files"
[ "$rc" = 0 ] || diag "$out"
done_testing
