#!/usr/bin/env python3
"""make-fixture.py OUTDIR - the pages of tests/bctx/parity.t.

One documentation page of an imaginary queue server, written for this test,
in the two shapes the pipeline gives it: Condition A as bread(1) prints an
HTML page (one line per block, table rows as "a | b", <pre> text verbatim)
and Condition B as Markdown.  Variants: the same version on both sides; a
newer Markdown twin with one more table column; a newer twin with one more
column and a section the HTML lacks; a twin whose code example changed.
"""
import json, os, sys

INTRO = ("Quay keeps messages on disk until a consumer acknowledges them. "
         "Each queue is a directory of segment files that are appended to "
         "and never rewritten, so a crash loses at most the last unsynced write.")
LIMITS = ("A message body may hold up to sixteen megabytes. Larger payloads "
          "belong in object storage, with the message carrying their address.")
RETRY = ("Unacknowledged messages return to the queue after the visibility "
         "timeout expires. Consumers should treat delivery as at least once "
         "and make handlers idempotent, keyed by the message identifier.")
EXTRA = ("Dead letter queues collect messages that failed delivery more than "
         "max_attempts times, with the last error recorded beside each message "
         "for later inspection by operators.")
ROWS = [("segment_bytes", "64 MiB", "1.2", "QUAY_SEGMENT"),
        ("fsync_ms", "200", "1.0", "QUAY_FSYNC"),
        ("visibility_s", "30", "1.4", "QUAY_VISIBILITY"),
        ("max_attempts", "5", "2.0", "QUAY_ATTEMPTS")]
CODE = ["quay serve --data /var/lib/quay", "quay push orders '{\"id\": 7}'"]
CODE2 = ["quay server start --data-dir /var/lib/quay", "quay publish orders '{\"id\": 7}'"]


def page_a(cols=2, code=CODE):
    out = ["Queues", INTRO, "Settings", " | ".join(["Key", "Default", "Since", "Env"][:cols])]
    out += [" | ".join(r[:cols]) for r in ROWS]
    out += ["Limits", LIMITS, "Retries", RETRY, "Example"] + code
    out += ["Was this page helpful?", "Edit this page"]
    return "\n".join(out)


def page_b(cols=2, extra=False, code=CODE):
    hdr = ["Key", "Default", "Since", "Env"][:cols]
    out = ["# Queues", "", INTRO, "", "## Settings", "",
           "| " + " | ".join(hdr) + " |", "|" + "---|" * cols]
    out += ["| " + " | ".join("`%s`" % c if i == 0 else c for i, c in enumerate(r[:cols])) + " |"
            for r in ROWS]
    out += ["", "## Limits", "", LIMITS, "", "## Retries", "", RETRY, ""]
    if extra:
        out += ["## Dead letters", "", EXTRA, ""]
    out += ["## Example", "", "```sh"] + code + ["```", ""]
    return "\n".join(out)


def main():
    d = sys.argv[1]
    base = "https://docs.quay.example"
    cases = [("P001-Q1", "same", page_a(), page_b()),
             ("P001-Q2", "column", page_a(), page_b(cols=3)),
             ("P001-Q3", "version", page_a(), page_b(cols=4, extra=True)),
             ("P001-Q4", "code", page_a(), page_b(code=CODE2)),
             ("P001-Q5", "only-a", page_a(), None)]
    qs, recs = [], []
    for qid, slug, a, b in cases:
        url = "%s/docs/%s" % (base, slug)
        qs.append({"question_id": qid, "text": "How does Quay store %s?" % slug,
                   "complexity": "single-fact", "source_sections": ["Queues"],
                   "source_urls": [url + ".md"]})
        recs.append({"site_id": "P001", "url": url, "condition": "A",
                     "fetch_status": "SUCCESS", "text": a})
        if b is not None:
            recs.append({"site_id": "P001", "url": url + ".md", "condition": "B",
                         "fetch_status": "SUCCESS", "markdown": b})
    with open(os.path.join(d, "questions.json"), "w") as f:
        json.dump([{"site_id": "P001", "domain": "docs.quay.example", "questions": qs}], f)
    with open(os.path.join(d, "pages.ndjson"), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


main()
