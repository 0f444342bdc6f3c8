#!/usr/bin/env python3
"""Build the example documentation site from src/*.md into a directory.

    build.py [--version 2] OUTDIR


The site is what a documentation site that adopted llms.txt publishes: an
HTML page per document (navigation, sidebar, breadcrumbs, cookie banner,
footer, scripts and styles around the content), a Markdown twin per page,
and /llms.txt.  It also carries the traps the study meets in the wild:

  /docs/explorer           renders only with JavaScript (an application shell)
  /docs/reference/troubleshooting   has no Markdown twin and is not in llms.txt
  /docs/reference/config.md         drifted: an older version than the HTML
  /docs/reference/api      answers 403 with a bot-protection page (serve.py)

`make` builds it into build/site (make demo and make check serve it from
there with serve.py); the built site is not committed beside its sources.
OUTDIR is replaced whole: the site is written beside it, then renamed over it.

--version 2 writes the same site some months later, for the re-archive drift
follow-up (spec 001 §7 L-SL-2, bctx drift): most pages as they were, some
changed (a default value, a version number, a reworded paragraph; one
Markdown twin updated before its HTML page, one HTML page updated before its
twin), /docs/faq gone (page, twin and llms.txt entry), and
/docs/reference/troubleshooting with a new Markdown twin listed in llms.txt.
V2_EDITS, V2_GONE and V2_NEW_TWIN say exactly what changed, and the tests
read them.
Standard library only.
"""
import html
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
ORIGIN = "https://docs.ctxbench.example"

ORDER = [
    "index", "install", "quickstart",
    "guide/archive", "guide/extraction", "guide/llms-txt", "guide/contexts",
    "guide/tokens", "guide/inference", "guide/scoring", "guide/statistics",
    "reference/config", "reference/records", "reference/api",
    "reference/troubleshooting", "explorer", "faq", "changelog",
]
NO_TWIN = {"reference/troubleshooting"}
JS_ONLY = {"explorer"}
DESCRIPTIONS = {
    "index": "What ctxbench measures and the eight stages of a study",
    "install": "Build from source, run the tests, install system-wide",
    "quickstart": "Run the whole benchmark on the example site",
    "guide/archive": "The immutable page archive, fetch statuses, politeness and resume",
    "guide/extraction": "Readability extraction of HTML pages for Condition A",
    "guide/llms-txt": "Parsing llms.txt and preparing Markdown for Condition B",
    "guide/contexts": "HTML-to-Markdown mapping, context layout and the prompt",
    "guide/tokens": "Exact token counts with each model family's tokenizer",
    "guide/inference": "Deterministic inference, truncation detection and engines",
    "guide/scoring": "Blinding, the rubric and merging scored sheets",
    "guide/statistics": "Primary tests, effect sizes and multiple comparisons",
    "reference/config": "Every section and key of benchmark-config.json",
    "reference/records": "The NDJSON records the stages exchange",
    "reference/api": "The libctx C library",
    "reference/troubleshooting": "Common problems and their fixes",
    "explorer": "Interactive browser for a finished study's results",
    "faq": "Frequently asked questions",
    "changelog": "Release notes",
}
# The drifted twin: what the Markdown said before the HTML page was updated.
DRIFT = [
    ("| `rate_limit_ms` | 1000 |", "| `rate_limit_ms` | 500 |"),
    ("`warmup_prompt_count` requests, **3** by default,",
     "`warmup_prompt_count` requests, **1** by default,"),
]

# The later version (--version 2).  Each edit: (page, text before, text after,
# where): "both" the page and its twin, "html" the HTML page only (the twin
# is now the staler of the two), "md" the Markdown twin only (the HTML page
# is).  A page whose HTML changed shows a later "Last updated" date.
V2_EDITS = [
    ("reference/config", "| `fetch_timeout_seconds` | 30 |",
     "| `fetch_timeout_seconds` | 60 |", "both"),
    ("quickstart",
     "It finishes in well under a minute and prints the paths of three files:",
     "When it is done, usually within a minute, it tells you where to find the three files worth reading first:",
     "both"),
    ("guide/tokens", "| `mistral` | Mistral Small 3.1 |",
     "| `mistral` | Mistral Small 3.2 |", "html"),
    ("guide/archive", "the default is **1000 ms**", "the default is **2000 ms**", "md"),
    ("guide/scoring",
     "Scoring is where a study is most easily biased.",
     "Bias enters a study most easily at the scoring stage.", "md"),
]
V2_GONE = {"faq"}
V2_NEW_TWIN = {"reference/troubleshooting"}
UPDATED = {1: "November 20, 2026", 2: "May 18, 2027"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def front_matter(text):
    meta = {}
    if text.startswith("---\n"):
        end = text.index("\n---\n", 4)
        for line in text[4:end].splitlines():
            k, v = line.split(":", 1)
            meta[k.strip()] = v.strip()
        text = text[end + 5:]
    return meta, text.lstrip("\n")


def inline(s):
    s = html.escape(s, quote=False)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', s)
    return s


def md_to_html(md):
    out, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            lang = line[3:].strip()
            j = i + 1
            body = []
            while not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            cls = f' class="language-{lang}"' if lang else ""
            out.append(f'<div class="highlight"><button class="copy" aria-label="Copy">Copy</button>'
                       f'<pre><code{cls}>{html.escape(chr(10).join(body), quote=False)}</code></pre></div>')
            i = j + 1
            continue
        m = re.match(r"(#{1,6}) (.*)", line)
        if m:
            n, text = len(m.group(1)), m.group(2)
            slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            if n == 1:
                out.append(f"<h1>{inline(text)}</h1>")
            else:
                out.append(f'<h{n} id="{slug}">{inline(text)}<a class="anchor" href="#{slug}" aria-hidden="true">#</a></h{n}>')
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            head, body = rows[0], rows[2:]
            t = ['<div class="table-wrapper"><table>', "<thead><tr>"]
            t += [f"<th>{inline(c)}</th>" for c in head]
            t.append("</tr></thead><tbody>")
            for r in body:
                t.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>")
            t.append("</tbody></table></div>")
            out.append("".join(t))
            continue
        if line.startswith("> "):
            text = line[2:]
            m = re.match(r"\*\*(Note|Warning|Tip):\*\* (.*)", text)
            kind, body = (m.group(1), m.group(2)) if m else ("Note", text)
            out.append(f'<div class="admonition admonition-{kind.lower()}" role="note">'
                       f'<p class="admonition-title">{kind}</p><p>{inline(body)}</p></div>')
            i += 1
            continue
        m = re.match(r"(- |\d+\. )", line)
        if m:
            tag = "ul" if line.startswith("- ") else "ol"
            items = []
            while i < len(lines) and re.match(r"(- |\d+\. )", lines[i]):
                items.append(re.sub(r"^(- |\d+\. )", "", lines[i]))
                i += 1
            out.append(f"<{tag}>" + "".join(f"<li>{inline(x)}</li>" for x in items) + f"</{tag}>")
            continue
        para = []
        while i < len(lines) and lines[i].strip() and not re.match(r"(#|```|\||> |- |\d+\. )", lines[i]):
            para.append(lines[i])
            i += 1
        out.append(f"<p>{inline(' '.join(para))}</p>")
    return "\n".join(out)


def url_of(name):
    if name == "index":
        return "/docs/"
    return "/docs/" + name


def sidebar(pages, current):
    groups = {}
    for name in [n for n in ORDER if n in pages]:
        groups.setdefault(pages[name]["section"], []).append(name)
    out = ['<nav class="sidebar" aria-label="Documentation"><div class="sidebar-inner">']
    for sect, names in groups.items():
        out.append(f'<div class="sidebar-group"><p class="sidebar-title">{html.escape(sect)}</p><ul>')
        for n in names:
            cls = ' class="active" aria-current="page"' if n == current else ""
            out.append(f'<li><a href="{url_of(n)}"{cls}>{html.escape(pages[n]["title"])}</a></li>')
        out.append("</ul></div>")
    out.append("</div></nav>")
    return "\n".join(out)


HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} | ctxbench docs</title>
<meta name="description" content="{desc}">
<meta property="og:title" content="{title}">
<meta property="og:site_name" content="ctxbench docs">
<link rel="canonical" href="{origin}{url}">
<link rel="alternate" type="text/markdown" href="{origin}{mdurl}">
<link rel="stylesheet" href="/assets/site.css">
<style>.cookie-banner{{position:fixed;bottom:0;left:0;right:0;background:#1b1f24;color:#fff;padding:1rem}}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments)}}gtag('js',new Date());</script>
<script defer src="/assets/site.js"></script>
</head>
<body class="docs">
<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
<a class="logo" href="/docs/"><img src="/assets/logo.svg" alt="" width="24" height="24"> ctxbench</a>
<nav class="topnav" aria-label="Main"><ul>
<li><a href="/docs/">Docs</a></li><li><a href="/docs/guide/archive">Guides</a></li>
<li><a href="/docs/reference/config">Reference</a></li><li><a href="/blog/">Blog</a></li>
<li><a href="https://example.org/ctxbench">Source</a></li></ul></nav>
<form class="search" role="search" action="/search"><input type="search" name="q" placeholder="Search docs" aria-label="Search docs"></form>
<button class="theme-toggle" aria-label="Toggle dark mode">&#9680;</button>
</header>
<div class="layout">
"""

FOOT = """</div>
<footer class="site-footer">
<div class="footer-columns">
<div><p class="footer-title">Docs</p><ul><li><a href="/docs/install">Installation</a></li><li><a href="/docs/quickstart">Quickstart</a></li><li><a href="/docs/faq">FAQ</a></li></ul></div>
<div><p class="footer-title">Project</p><ul><li><a href="/docs/changelog">Changelog</a></li><li><a href="https://example.org/ctxbench/issues">Issues</a></li><li><a href="/llms.txt">llms.txt</a></li></ul></div>
<div><p class="footer-title">Legal</p><ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul></div>
</div>
<p class="copyright">Copyright 2026 The ctxbench authors. Documentation licensed under CC BY 4.0.</p>
</footer>
<div class="cookie-banner" id="cookie-banner" role="dialog" aria-label="Cookie consent">
<p>We use cookies to understand how the documentation is used. You can accept or reject analytics cookies at any time.</p>
<button id="cookie-accept">Accept all</button> <button id="cookie-reject">Reject</button> <a href="/privacy">Learn more</a>
</div>
<script>document.getElementById('cookie-accept').onclick=function(){document.getElementById('cookie-banner').remove()};</script>
</body>
</html>
"""


def page_html(pages, name, version):
    p = pages[name]
    order = [n for n in ORDER if n in pages]
    crumbs = ['<li><a href="/docs/">Docs</a></li>']
    if name != "index":
        crumbs.append(f'<li>{html.escape(p["section"])}</li>')
        crumbs.append(f'<li aria-current="page">{html.escape(p["title"])}</li>')
    mdurl = "/docs/index.md" if name == "index" else f"/docs/{name}.md"
    head = HEAD.format(title=html.escape(p["title"]), desc=html.escape(DESCRIPTIONS[name]),
                       origin=ORIGIN, url=url_of(name), mdurl=mdurl)
    idx = order.index(name)
    prev_link = next_link = ""
    if idx > 0:
        q = order[idx - 1]
        prev_link = f'<a class="pager-prev" href="{url_of(q)}">&larr; {html.escape(pages[q]["title"])}</a>'
    if idx + 1 < len(order):
        q = order[idx + 1]
        next_link = f'<a class="pager-next" href="{url_of(q)}">{html.escape(pages[q]["title"])} &rarr;</a>'
    toc = "".join(f'<li><a href="#{re.sub(r"[^a-z0-9]+", "-", h.lower()).strip("-")}">{inline(h)}</a></li>'
                  for h in re.findall(r"^## (.*)$", p["body"], re.M))
    return (head + sidebar(pages, name) + "\n<main id=\"main\" class=\"content\">\n"
            + f'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>{"".join(crumbs)}</ol></nav>\n'
            + '<article class="doc">\n' + md_to_html(p["body"]) + "\n</article>\n"
            + '<div class="feedback"><p>Was this page helpful?</p><button>Yes</button><button>No</button></div>\n'
            + f'<nav class="pager">{prev_link}{next_link}</nav>\n'
            + f'<p class="edit-link"><a href="https://example.org/ctxbench/edit/main/docs/{name}.md">Edit this page</a> &middot; Last updated on {p["updated"]}</p>\n'
            + "</main>\n"
            + f'<aside class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>{toc}</ul></aside>\n'
            + FOOT)


JS_SHELL = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Results explorer | ctxbench docs</title>
<link rel="stylesheet" href="/assets/explorer.css">
<script>window.__INITIAL_STATE__={"route":"/docs/explorer","locale":"en","build":"8c41f2e"};</script>
<script type="module" src="/assets/explorer.4f9c2a.js"></script>
</head>
<body>
<noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div>
<script>
  (function () {
    var s = document.createElement('script');
    s.src = '/assets/vendor.91ab3.js';
    document.body.appendChild(s);
  })();
</script>
</body>
</html>
"""


def load(version):
    """The pages of a version: title, section, HTML body, Markdown twin."""
    pages = {}
    for name in ORDER:
        if version == 2 and name in V2_GONE:
            continue
        meta, body = front_matter(read(os.path.join(SRC, name + ".md")))
        pages[name] = {"title": meta["title"], "section": meta["section"],
                       "body": body, "md": body, "updated": UPDATED[1]}
    if version == 2:
        for name, old, new, where in V2_EDITS:
            p = pages[name]
            for k in (["body", "md"] if where == "both" else ["body" if where == "html" else "md"]):
                assert old in p[k], old
                p[k] = p[k].replace(old, new)
            if where != "md":
                p["updated"] = UPDATED[2]
    return pages


def has_twin(name, version):
    return name not in NO_TWIN or (version == 2 and name in V2_NEW_TWIN)


def build(out, version):
    pages = load(version)
    os.makedirs(os.path.join(out, "docs"))
    for name in pages:
        base = os.path.join(out, "docs", name)
        os.makedirs(os.path.dirname(base), exist_ok=True)
        with open(base + ".html", "w", encoding="utf-8") as f:
            f.write(JS_SHELL if name in JS_ONLY else page_html(pages, name, version))
        if not has_twin(name, version):
            continue
        md = pages[name]["md"]
        if name == "reference/config":
            for new, old in DRIFT:
                assert new in md, new
                md = md.replace(new, old)
        md = md.replace("](/docs/", f"]({ORIGIN}/docs/")
        with open(base + ".md", "w", encoding="utf-8") as f:
            f.write(md)
    # llms.txt: H1, summary, info, H2 sections; Optional last.
    sections = {}
    for name in pages:
        if not has_twin(name, version):
            continue
        sect = pages[name]["section"]
        sections.setdefault(sect, []).append(name)
    lines = ["# ctxbench", "",
             "> ctxbench runs paired benchmarks of language models on website documentation: "
             "llms.txt Markdown against readability-extracted HTML.", "",
             "The pages below are the Markdown versions of the documentation at "
             f"{ORIGIN}/docs/. Each guide covers one stage of a study.", ""]
    for sect in ["Getting started", "Guides", "Reference", "Optional"]:
        lines += [f"## {sect}", ""]
        for name in sections[sect]:
            lines.append(f"- [{pages[name]['title']}]({ORIGIN}/docs/{name}.md): {DESCRIPTIONS[name]}")
        lines.append("")
    with open(os.path.join(out, "llms.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    with open(os.path.join(out, "robots.txt"), "w", encoding="utf-8") as f:
        f.write("User-agent: *\nDisallow: /search\nAllow: /\n")
    os.makedirs(os.path.join(out, "assets"))
    with open(os.path.join(out, "assets", "site.css"), "w", encoding="utf-8") as f:
        f.write("body{font-family:system-ui,sans-serif;margin:0}.layout{display:grid;"
                "grid-template-columns:16rem 1fr 14rem}.sidebar{border-right:1px solid #ddd}"
                ".content{max-width:48rem;padding:2rem}pre{background:#f6f8fa;padding:1rem;overflow:auto}"
                ".admonition{border-left:4px solid #0969da;padding:.5rem 1rem;background:#f0f6ff}\n")
    with open(os.path.join(out, "assets", "site.js"), "w", encoding="utf-8") as f:
        f.write("document.querySelectorAll('button.copy').forEach(function(b){b.onclick=function(){"
                "navigator.clipboard.writeText(b.nextElementSibling.innerText)}});\n")


def main():
    args, version = sys.argv[1:], 1
    if len(args) == 3 and args[0] == "--version" and args[1] in ("1", "2"):
        args, version = args[2:], int(args[1])
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit("usage: build.py [--version 1|2] OUTDIR")
    out = os.path.abspath(args[0])
    tmp = "%s.tmp-%d" % (out, os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    build(tmp, version)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.rename(tmp, out)


if __name__ == "__main__":
    main()
