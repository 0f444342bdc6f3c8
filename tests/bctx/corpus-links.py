#!/usr/bin/env python3
"""For every HTML-class source URL of the real corpus (no .md, no llms.txt),
write a bmdprep --llms link record that lists its Markdown under one of the
forms the html-source rule accepts, rotating through them and through the
spellings the key must absorb (host case, trailing slash), and the mapping
bctx plan must then find.  Usage: corpus-links.py questions.json OUTDIR
Writes OUTDIR/links.ndjson and OUTDIR/expected.tsv (site, source, b_url, rule)."""
import json
import re
import sys
from urllib.parse import urlsplit, urlunsplit

qs = json.load(open(sys.argv[1]))
out = sys.argv[2]
seen = set()
links, expected = [], []
n = 0
for site in qs:
    for q in site["questions"]:
        for u in q["source_urls"]:
            base = u.split("#")[0]
            path = urlsplit(base).path
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if last.lower().endswith(".md") or last in ("llms.txt", "llms-full.txt"):
                continue
            if (site["site_id"], base) in seen:
                continue
            seen.add((site["site_id"], base))
            p = urlsplit(base)
            stem = p.path.rstrip("/")
            forms = [("same-url", stem + "/" if n % 2 else stem),
                     ("url.md", stem + ".md"),
                     ("url/index.md", stem + "/index.md"),
                     ("url/index.html.md", stem + "/index.html.md")]
            if stem == "":
                forms = [f for f in forms if f[0] != "url.md"]
            if re.search(r"\.html?$", stem):
                forms = [("html-ext.md", re.sub(r"\.html?$", ".md", stem))]
            rule, lpath = forms[n % len(forms)]
            host = p.netloc.upper() if n % 3 == 0 else p.netloc
            link = urlunsplit((p.scheme, host, lpath, p.query, ""))
            n += 1
            links.append({"kind": "link", "site_id": site["site_id"],
                          "llms_txt_url": "https://%s/llms.txt" % p.netloc,
                          "section": "Docs", "optional": False,
                          "title": last or p.netloc, "url": link,
                          "description": None, "line": n})
            expected.append((site["site_id"], u, link + (u[len(base):]), rule))
with open(out + "/links.ndjson", "w") as f:
    for l in links:
        f.write(json.dumps(l) + "\n")
with open(out + "/expected.tsv", "w") as f:
    for e in expected:
        f.write("\t".join(e) + "\n")
