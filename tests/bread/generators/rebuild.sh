#!/bin/sh
# rebuild.sh - rebuild the generator corpus of bread's and bctx's tests.
#
# usage: tests/bread/generators/rebuild.sh [WORKDIR [GENERATOR ...]]
#
# Builds the documentation set in src/ with the real generators, installed
# from their registries into WORKDIR (default: a new temporary directory,
# so that node_modules never enters the tree):
#   vitepress   VitePress 1.6 with Shiki and @shikijs/vitepress-twoslash,
#               vitepress-plugin-llms 1.14 (npm)
#   docusaurus  Docusaurus 3.10 classic preset, Prism,
#               docusaurus-plugin-llms 0.6 (npm)
#   starlight   Astro 5 with Starlight 0.35, Expressive Code,
#               starlight-llms-txt 0.7 (npm)
#   sphinx      Debian python3-sphinx with python3-sphinx-tabs
#   mkdocs      Debian mkdocs with mkdocs-material, pymdownx.snippets
# and copies the built HTML pages (no scripts, styles or bundles) into
# pages/GENERATOR/PAGE.html.
#
# The Markdown twin of each page, built in the same run from the same
# source, goes to twins/GENERATOR/PAGE.md: the page's .md file of
# vitepress-plugin-llms and docusaurus-plugin-llms, the page's part of
# starlight-llms-txt's llms-full.txt, and for MkDocs (which writes no
# Markdown) the page's source as the site serves it.  Sphinx writes no
# Markdown either (its _sources are reStructuredText) and has no twin.
# Then each drift of drifts.tsv (one default, one table cell, one version,
# one code line) is applied to a copy of the sources, the site is built
# again, and the drifted page's twin goes to drift/NAME/GENERATOR/PAGE.md:
# the pairs (page, twin) and (page, drifted twin) that tests/bctx/
# facts-generators.t compares.  Then, for every page, it loads the built site
# in headless Chromium (oracle.py) and checks the expected text
# expected/GENERATOR/PAGE.txt against what a reader sees: every rendered
# code block, as selecting and copying it gives it, must be in the expected
# text as whole lines, and every heading too; it writes a screenshot of each
# page to WORKDIR/shots to look at, and shows how bread's text differs from
# the expected one.  The expected texts are written and checked by hand;
# this script never writes them.
#
# Needs node and npm, and the Debian packages python3-sphinx,
# python3-sphinx-tabs, mkdocs, mkdocs-material and chromium (not needed by
# make check, which only reads the committed pages).
set -eu
for p in node npm mkdocs chromium; do
	command -v "$p" >/dev/null 2>&1 || { echo "rebuild.sh: $p is missing" >&2; exit 1; }
done
/usr/bin/python3 -c 'import sphinx, sphinx_tabs' 2>/dev/null ||
	{ echo "rebuild.sh: python3-sphinx and python3-sphinx-tabs are missing" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
BREAD=${CTXBENCH_BREAD:-$TOP/build/bin/bread}
W=${1:-$(mktemp -d "${TMPDIR:-/tmp}/bread-generators.XXXXXX")}
[ $# -gt 0 ] && shift
GENS=${*:-vitepress docusaurus starlight sphinx mkdocs}
want() { case " $GENS " in *" $1 "*) return 0 ;; esac; return 1; }
PY=/usr/bin/python3
mkdir -p "$W/shots"
echo "rebuild.sh: working in $W"

npm_site() {	# npm_site NAME PACKAGE...
	name=$1
	shift
	rm -rf "$W/$name"
	mkdir -p "$W/$name"
	cp -R "$HERE/src/$name/." "$W/$name/"
	# Docusaurus's webpack wants no "type"; Astro and VitePress want modules
	if [ "$name" = docusaurus ]; then
		printf '{"private":true}\n' >"$W/$name/package.json"
	else
		printf '{"private":true,"type":"module"}\n' >"$W/$name/package.json"
	fi
	(cd "$W/$name" && npm install --no-audit --no-fund --silent "$@")
}

# name of a built page -> the name it has in pages/
take() {	# take GENERATOR BUILT_HTML PAGE
	mkdir -p "$HERE/pages/$1"
	cp "$2" "$HERE/pages/$1/$3.html"
}

# the Markdown twins of a built site (in DIR, default WORKDIR/GENERATOR)
# into OUT (default twins/GENERATOR)
twins() {	# twins GENERATOR [DIR OUT]
	d=${2:-$W/$1}
	o=${3:-$HERE/twins/$1}
	mkdir -p "$o"
	case $1 in
	vitepress)
		cp "$d/.vitepress/dist/guide.md" "$o/guide.md"
		cp "$d/.vitepress/dist/reference.md" "$o/reference.md" ;;
	docusaurus)
		cp "$d/build/guide.md" "$o/guide.md"
		cp "$d/build/reference.md" "$o/reference.md" ;;
	starlight)
		$PY "$HERE/split-llms-full.py" "$d/dist/llms-full.txt" "$o" \
		    "Getting started=guide" "Options=reference" ;;
	mkdocs)
		cp "$d/docs/guide.md" "$o/guide.md"
		cp "$d/docs/reference.md" "$o/reference.md" ;;
	esac
}

# build GENERATOR's site again from a copy of the sources in which the
# page's text OLD is NEW (once), and take its twins into drift/NAME
drift() {	# drift GENERATOR NAME PAGE OLD NEW
	d=$W/drift-$2/$1
	rm -rf "$d"
	mkdir -p "$d"
	cp -R "$HERE/src/$1/." "$d/"
	[ -f "$W/$1/package.json" ] && cp "$W/$1/package.json" "$d/"
	# hard links: a symbolic link makes Docusaurus load React twice
	[ -d "$W/$1/node_modules" ] && cp -al "$W/$1/node_modules" "$d/node_modules"
	f=$(find "$d" -path "$d/node_modules" -prune -o -type f \( -name "$3.md" -o \
	    -name "$3.mdx" \) -print | head -n 1)
	$PY - "$f" "$4" "$5" <<'PYEOF'
import sys
p, old, new = sys.argv[1:4]
s = open(p, encoding="utf-8").read()
if s.count(old) != 1:
    sys.exit("rebuild.sh: %s: %r found %d times, not once" % (p, old, s.count(old)))
open(p, "w", encoding="utf-8").write(s.replace(old, new))
PYEOF
	case $1 in
	vitepress) (cd "$d" && npx vitepress build . >/dev/null) ;;
	docusaurus) (cd "$d" && npx docusaurus build >/dev/null) ;;
	starlight) (cd "$d" && npx astro build >/dev/null) ;;
	esac
	twins "$1" "$d" "$d/twins"
	mkdir -p "$HERE/drift/$2/$1"
	cp "$d/twins/$3.md" "$HERE/drift/$2/$1/$3.md"
}

VP=$W/vitepress/.vitepress/dist
if want vitepress; then
	npm_site vitepress vitepress@1.6.4 @shikijs/vitepress-twoslash@4.6.0 \
	    vitepress-plugin-llms@1.14.0
	(cd "$W/vitepress" && npx vitepress build . >/dev/null)
	take vitepress "$VP/guide.html" guide
	take vitepress "$VP/reference.html" reference
	twins vitepress
fi

DS=$W/docusaurus/build
if want docusaurus; then
	npm_site docusaurus @docusaurus/core@3.10.2 @docusaurus/preset-classic@3.10.2 \
	    react@18.3.1 react-dom@18.3.1 docusaurus-plugin-llms@0.6.1
	(cd "$W/docusaurus" && npx docusaurus build >/dev/null)
	take docusaurus "$DS/guide/index.html" guide
	take docusaurus "$DS/reference/index.html" reference
	twins docusaurus
fi

SL=$W/starlight/dist
if want starlight; then
	npm_site starlight astro@5.18.2 @astrojs/starlight@0.35.3 starlight-llms-txt@0.7.0
	(cd "$W/starlight" && npx astro build >/dev/null)
	take starlight "$SL/guide/index.html" guide
	take starlight "$SL/reference/index.html" reference
	twins starlight
fi

SP=$W/sphinx/_build
if want sphinx; then
	rm -rf "$W/sphinx"
	cp -R "$HERE/src/sphinx" "$W/sphinx"
	$PY -m sphinx -q -b html "$W/sphinx" "$W/sphinx/_build"
	take sphinx "$SP/guide.html" guide
	take sphinx "$SP/reference.html" reference
fi

MK=$W/mkdocs/site
if want mkdocs; then
	rm -rf "$W/mkdocs"
	cp -R "$HERE/src/mkdocs" "$W/mkdocs"
	(cd "$W/mkdocs" && mkdocs build -q -d site)
	take mkdocs "$MK/guide.html" guide
	take mkdocs "$MK/reference.html" reference
	twins mkdocs
fi

# the drifted twins: each drift of drifts.tsv on a copy of the sources,
# built with the packages installed above
for gen in vitepress docusaurus starlight mkdocs; do
	want "$gen" || continue
	tail -n +2 "$HERE/drifts.tsv" | while IFS='	' read -r name page old new rest; do
		drift "$gen" "$name" "$page" "$old" "$new"
	done
done

# what a reader sees, against the expected texts
status=0
for spec in "vitepress $VP guide.html reference.html" \
    "docusaurus $DS guide/index.html reference/index.html" \
    "starlight $SL guide/index.html reference/index.html" \
    "sphinx $SP guide.html reference.html" \
    "mkdocs $MK guide.html reference.html"; do
	set -- $spec
	gen=$1 site=$2
	shift 2
	want "$gen" || continue
	for built in "$@"; do
		page=${built%%/*}
		page=${page%.html}
		exp=$HERE/expected/$gen/$page.txt
		$PY "$HERE/oracle.py" "$site" "$built" --screenshot "$W/shots/$gen-$page.png" \
		    >"$W/$gen-$page.json"
		if ! $PY "$HERE/check-expected.py" "$W/$gen-$page.json" "$exp"; then
			status=1
		fi
		if [ -x "$BREAD" ] && ! "$BREAD" "$HERE/pages/$gen/$page.html" |
		    diff -u "$exp" - >"$W/$gen-$page.diff"; then
			echo "rebuild.sh: bread differs from $exp (see $W/$gen-$page.diff)"
			status=1
		fi
	done
done
echo "rebuild.sh: screenshots in $W/shots"
exit $status
