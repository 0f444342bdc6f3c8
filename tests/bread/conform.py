#!/usr/bin/env python3
"""Score bread against Mozilla Readability's test pages.

usage: conform.py BREAD PAGES_DIR [REPORT]

For each page: bread --json on source.html (text, title) and bread --whole
on expected.html (the text of Readability.js's article, with a newline at
every block boundary, by the same renderer).  Text agreement is the
article-extraction-benchmark metric (scrapinghub): tokens are \\w+ runs,
each side a multiset of 4-token shingles, per-page precision and recall
from the overlap, mean precision and mean recall over pages, F1 their
harmonic mean.  Titles, bylines and excerpts are compared exactly with
expected-metadata.json.
Prints "pages=N precision=P recall=R f1=F titles=T bylines=B excerpts=E" on the last line and
per-page lines before it (worst first).
"""
import collections
import json
import os
import re
import subprocess
import sys

WORD = re.compile(r"\w+")


def shingles(text, n=4):
    toks = WORD.findall(text.lower())
    if len(toks) < n:
        return collections.Counter([tuple(toks)]) if toks else collections.Counter()
    return collections.Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def pr(got, exp):
    g, e = shingles(got), shingles(exp)
    if not g and not e:
        return 1.0, 1.0
    inter = sum((g & e).values())
    p = inter / sum(g.values()) if g else 0.0
    r = inter / sum(e.values()) if e else 0.0
    return p, r


def run(args):
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if out.returncode != 0:
        sys.stderr.write("%s: exit %d: %s\n" % (" ".join(args), out.returncode,
                                                out.stderr.decode("utf-8", "replace")))
        sys.exit(1)
    return out.stdout.decode("utf-8")


def main():
    bread, pages = sys.argv[1], sys.argv[2]
    report = sys.argv[3] if len(sys.argv) > 3 else None
    rows = []
    titles = bylines = excerpts = 0
    for name in sorted(os.listdir(pages)):
        d = os.path.join(pages, name)
        if not os.path.isfile(os.path.join(d, "source.html")):
            continue
        got = json.loads(run([bread, "--json", os.path.join(d, "source.html")]))
        exp = run([bread, "--whole", os.path.join(d, "expected.html")])
        with open(os.path.join(d, "expected-metadata.json"), encoding="utf-8") as f:
            meta = json.load(f)
        p, r = pr(got["text"], exp)
        ok_title = (meta.get("title") or "") == got["title"]
        titles += ok_title
        bylines += meta.get("byline") == got["byline"]
        excerpts += meta.get("excerpt") == got["excerpt"]
        rows.append((name, p, r, ok_title, got["title"], meta.get("title")))
    n = len(rows)
    mp = sum(x[1] for x in rows) / n
    mr = sum(x[2] for x in rows) / n
    f1 = 2 * mp * mr / (mp + mr) if mp + mr else 0.0
    lines = []
    for name, p, r, okt, gt, et in sorted(rows, key=lambda x: min(x[1], x[2])):
        line = "%-45s P=%.3f R=%.3f" % (name, p, r)
        if not okt:
            line += " title: got %r want %r" % (gt, et)
        lines.append(line)
    if report:
        with open(report, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))
    print("pages=%d precision=%.4f recall=%.4f f1=%.4f titles=%d bylines=%d excerpts=%d"
          % (n, mp, mr, f1, titles, bylines, excerpts))


if __name__ == "__main__":
    main()
