#!/bin/sh
# bread on the pages documentation generators emit (issue 15): the corpus in
# tests/bread/generators (own pages built by VitePress with Shiki and
# twoslash, Docusaurus with Prism, Starlight with Expressive Code, Sphinx and
# MkDocs Material; rebuild.sh rebuilds them and checks the expected texts in
# headless Chromium) gives exactly the expected Condition A text; the text
# rules of bread(1) one at a time; and the issue's bad input.
. "${0%/*}/../lib/tap.sh"

BREAD=$(prog bread)
G=$TOP/tests/bread/generators
PY=/usr/bin/python3

# 1. the corpus: every built page against its expected text
n=0
for html in "$G"/pages/*/*.html; do
	gen=${html%/*}
	gen=${gen##*/}
	page=${html##*/}
	page=${page%.html}
	"$BREAD" "$html" >"$T/got" 2>"$T/err"
	is "$?" 0 "$gen/$page: exit 0"
	files_eq "$T/got" "$G/expected/$gen/$page.txt" "$gen/$page: the expected Condition A text"
	n=$((n + 1))
done
is "$n" 10 "ten pages of five generators"

# 2. the rules one at a time (the renderer alone, --whole)
# rule NAME HTML WANT: bread --whole on <body>HTML</body> prints WANT
rule() {
	printf '<html><body>%b</body></html>' "$2" >"$T/r.html"
	"$BREAD" --whole "$T/r.html" >"$T/r.got"
	printf '%b\n' "$3" >"$T/r.want"
	files_eq "$T/r.got" "$T/r.want" "$1"
}
rule "newline right after <pre> dropped" '<pre>\nfirst\nsecond\n</pre>' 'first\nsecond'
rule "newline after <pre><code> kept" '<pre><code>\nfirst</code></pre>' '\nfirst'
rule "CR LF in code made LF" '<p>x</p><pre>a\r\nb\rc</pre>' 'x\na\nb\nc'
rule "Shiki: empty <div> line is a blank line" \
	'<pre><code><div class="line">a</div><div class="line"></div><div class="line">b</div></code></pre>' 'a\n\nb'
rule "Prism: a line <div> ending in <br> is one line" \
	'<pre><code><div class="token-line">a<br></div><div class="token-line"><span></span><br></div><div class="token-line">b<br></div></code></pre>' 'a\n\nb'
rule "twoslash: <div> inside a token <span> is inline" \
	'<pre><code><span class="line"><span>const </span><span><div class="twoslash-hover"><span>url</span><div class="v-popper__popper vp-copy-ignore"><div>string</div></div></div></span><span> = 1</span></span></code></pre>' \
	'const url = 1'
rule "Shiki twoslash popup text is not code" \
	'<pre><code><span class="line"><span class="twoslash-hover"><span class="twoslash-popup-container"><code>const x: number</code></span>x</span> = 1</span></code></pre>' \
	'x = 1'
rule "role=tooltip inside code is not code" '<pre>a<span role="tooltip">hint</span>b</pre>' 'ab'
rule "indentation and tabs kept" '<pre>if x:\n\tgo()\n    stay()</pre>' 'if x:\n\tgo()\n    stay()'
rule "data table: cell paragraphs joined by a space" \
	'<table><thead><tr><th>k</th><th>v</th></tr></thead><tr><td><p>a</p></td><td><p>b</p><p>c</p></td></tr><tr><td>d</td><td>e</td></tr></table>' 'k | v\na | b c\nd | e'
rule "data table: <pre> inside a cell keeps its lines" \
	'<table><tr><th>k</th><th>v</th></tr><tr><td>k</td><td><pre>x\ny</pre></td></tr></table>' 'k | v\nk | x\ny'
rule "data table in a data table cell: rows of its own" \
	'<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td><table><tr><th>c</th><th>d</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>' 'a | b\nx\nc | d\n1 | 2'
rule "layout table: the paragraphs of a cell keep their lines" \
	'<table><tr><td><p>first paragraph</p><p>second paragraph</p></td></tr></table>' 'first paragraph\nsecond paragraph'
rule "heading anchor inside: pilcrow dropped" '<h2 id="a">Install<a class="headerlink" href="#a">\302\266</a></h2><p>t</p>' 'Install\nt'
rule "heading anchor inside: zero-width space dropped" '<h2 id="a">Install <a href="#a">\342\200\213</a></h2>' 'Install'
rule "heading anchor beside: screen-reader text dropped" \
	'<div><h2 id="a">Install</h2><a href="#a"><span class="sr-only">Section titled Install</span></a></div>' 'Install'
rule "heading that is a link keeps it" '<h2><a href="#a">Install</a></h2>' 'Install'
rule "heading link beside a pilcrow link: text kept, pilcrow dropped" \
	'<h2><a href="#a">Install</a><a class="headerlink" href="#a">\302\266</a></h2>' 'Install'
rule "a fragment link in prose is kept" '<p>see <a href="#a">below</a></p>' 'see below'
rule "adjacent labels are separate words" '<div><label>npm</label><label>pip</label></div>' 'npm pip'

# 3. extraction departures: hidden tab panels and callout asides kept
ART='<p>This paragraph is the article, long enough to be scored, with commas, commas, and more commas in it.</p>'
printf '<html><body><div class="content">%s%s<div role="tabpanel">npm install x</div><div role="tabpanel" hidden>pip install x</div><aside class="starlight-aside starlight-aside--tip"><p>Tip text of the callout.</p></aside><aside class="related">Related links</aside>%s</div></body></html>' \
	"$ART" "$ART" "$ART" >"$T/dep.html"
"$BREAD" "$T/dep.html" >"$T/dep.got"
like "$(cat "$T/dep.got")" "pip install x" "a tab panel hidden by its tab is kept"
like "$(cat "$T/dep.got")" "Tip text of the callout" "a callout <aside> is kept"
unlike "$(cat "$T/dep.got")" "Related links" "another <aside> is dropped (Readability.js)"
printf '<html><body><div class="content">%s%s<aside aria-label="Caution" class="starlight-aside starlight-aside--caution"><p aria-hidden="true">Caution</p><p>Callout body text.</p></aside><p aria-hidden="true">Decorative duplicate</p>%s</div></body></html>' \
	"$ART" "$ART" "$ART" >"$T/lab.html"
"$BREAD" "$T/lab.html" >"$T/lab.got"
like "$(cat "$T/lab.got")" "^Caution$" "an aria-hidden title that its parent's aria-label repeats is kept"
unlike "$(cat "$T/lab.got")" "Decorative duplicate" "other aria-hidden elements are dropped (Readability.js)"
printf '<html><body><div class="content">%s%s<div hidden>secret hidden text</div>%s</div></body></html>' \
	"$ART" "$ART" "$ART" >"$T/hid.html"
unlike "$("$BREAD" "$T/hid.html")" "secret hidden" "other hidden elements are dropped (Readability.js)"

# 4. bad input: 5,000 code lines, a 2 MB line, deep hover nesting,
# thousands of empty heading links
$PY - "$T" <<'PY'
import sys
d = sys.argv[1]
head = '<html><head><title>Big code</title></head><body><main><h1>Big code</h1><p>%s</p>' % (
    "A page with a long code block, as generators emit it, and prose around it, " * 4)
line = '<span class="line"><span style="--shiki-light:#D73A49">const</span><span> v%d = compute(%d, "a long enough argument")</span></span>'
with open(d + "/lines.html", "w") as f:
    f.write(head + '<pre class="shiki"><code>' + "\n".join(line % (i, i) for i in range(5000)) +
            "</code></pre></main></body></html>")
with open(d + "/minified.html", "w") as f:
    f.write(head + "<pre><code>" + "var a=1;" * (2 * 1024 * 1024 // 8) + "</code></pre></main></body></html>")
with open(d + "/nested.html", "w") as f:
    f.write(head + "<pre><code>" + '<span><div class="twoslash-hover">' * 20000 + "deep" +
            "</div></span>" * 20000 + "</code></pre></main></body></html>")
with open(d + "/anchors.html", "w") as f:
    f.write(head + '<h2 id="x">' + '<a href="#x"></a>' * 50000 + "</h2><p>after</p></main></body></html>")
with open(d + "/tablepre.html", "w") as f:
    f.write(head + "<table><tr><th>Key</th><th>Example</th></tr><tr><td><p>port</p></td><td><pre>port = 8080\n\nhost = \"x\"</pre></td></tr></table></main></body></html>")
PY
"$BREAD" "$T/lines.html" >"$T/lines.out"
is "$?" 0 "5,000 code lines: exit 0"
is "$(grep -c '^const v[0-9]* = compute' "$T/lines.out")" 5000 "5,000 code lines: one line each"
"$BREAD" "$T/minified.html" >"$T/min.out"
is "$?" 0 "2 MB single-line code: exit 0"
is "$(awk 'length($0) == 2097152' "$T/min.out" | wc -l | tr -d ' ')" 1 "2 MB single-line code: one line of 2 MB"
"$BREAD" "$T/nested.html" >"$T/nested.out"
is "$?" 0 "20,000 nested hover elements: exit 0"
like "$(cat "$T/nested.out")" "A page with a long code block" "nested hover markup: the prose is kept"
"$BREAD" "$T/anchors.html" >"$T/anchors.out"
is "$?" 0 "50,000 empty anchor links in a heading: exit 0"
like "$(cat "$T/anchors.out")" "after" "50,000 empty anchors: the text after them"
"$BREAD" "$T/tablepre.html" >"$T/tablepre.out"
like "$(cat "$T/tablepre.out")" "^Key \\| Example$" "<pre> in a table: header row"
is "$(sed -n '/^port | port = 8080$/,/^host/p' "$T/tablepre.out" | wc -l | tr -d ' ')" 3 "<pre> in a table: code lines and the blank line kept"
done_testing
