#!/usr/bin/env python3
"""Turn a reference parse result (shared/conformance/llmstxt *.expected.json
or an edge-cases.json entry) into the inputs of `bctx assemble --all-links`:
bmdprep --llms records (kind llms / link), one condition B page record per
linked URL whose markdown is the synthetic body after the reference line
filter, and a questions.json with one question.  Usage:
    conform.py PARSE.json OUTDIR          (a file holding {"ok":..,"result":..})
    conform.py EDGE.json NAME OUTDIR      (an edge-cases.json entry)
    conform.py PARSE.json OUTDIR GOLDEN   (document bodies taken, in link
                                           order, from a real llms-ctx file)
Writes OUTDIR/{records.ndjson,questions.json}."""
import json
import sys

BODY = ("# Doc for {url}\nBody line with <b>html</b> & ampersand.\n"
        "  <!-- indented comment kept -->\nlast line")


def golden_bodies(path, parse):
    """The text of each <doc> of a create_ctx output, in order, by URL."""
    text = open(path, encoding="utf-8").read()
    bodies, pos = {}, 0
    for name, links in parse["sections"].items():
        for l in links:
            start = text.find("<doc ", pos)
            if start < 0:
                return bodies
            gt = text.index(">", start)
            end = text.index("</doc>", gt)
            bodies.setdefault(l["url"], text[gt + 1:end])
            pos = end
    return bodies


def main():
    golden = None
    if len(sys.argv) == 4 and sys.argv[1].endswith(".expected.json"):
        parse = json.load(open(sys.argv[1]))["result"]
        out = sys.argv[2]
        golden = golden_bodies(sys.argv[3], parse)
    elif len(sys.argv) == 3:
        parse = json.load(open(sys.argv[1]))["result"]
        out = sys.argv[2]
    else:
        parse = json.load(open(sys.argv[1]))[sys.argv[2]]["parse"]
        out = sys.argv[3]
    site, llms_url = "S001", "https://example.org/llms.txt"
    recs = [{"kind": "llms", "site_id": site, "llms_txt_url": llms_url,
             "title": parse["title"], "summary": parse["summary"],
             "info": parse["info"], "sections": list(parse["sections"]),
             "content": "", "link_count": 0}]
    pages = {}
    line = 0
    for name, links in parse["sections"].items():
        for l in links:
            line += 1
            recs.append({"kind": "link", "site_id": site,
                         "llms_txt_url": llms_url, "section": name,
                         "optional": name == "Optional", "title": l["title"],
                         "url": l["url"], "description": l["desc"],
                         "line": line})
            if golden is not None and l["url"] not in golden:
                continue        # not in that output (an Optional link)
            pages.setdefault(l["url"], {
                "site_id": site, "url": l["url"], "condition": "B",
                "fetch_status": "SUCCESS",
                "markdown": golden[l["url"]] if golden is not None
                else BODY.format(url=l["url"])})
    recs[0]["link_count"] = line
    with open(out + "/records.ndjson", "w") as f:
        for r in recs + list(pages.values()):
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    q = [{"site_id": site, "domain": "example.org", "questions": [{
        "question_id": site + "-Q01", "text": "What?",
        "complexity": "single-fact", "source_sections": ["x"],
        "source_urls": [llms_url]}]}]
    json.dump(q, open(out + "/questions.json", "w"))


main()
