#!/usr/bin/python3
"""Split starlight-llms-txt's llms-full.txt into one Markdown file per page.

usage: split-llms-full.py LLMS_FULL OUTDIR "TITLE=NAME" ...

llms-full.txt holds every page as "# TITLE" followed by its Markdown; the
part of each TITLE up to the next page's "# " line (outside code fences)
is written to OUTDIR/NAME.md.  Used by rebuild.sh; never by make check.
"""
import sys


def main():
    text = open(sys.argv[1], encoding="utf-8").read().split("\n")
    want = dict(a.split("=", 1) for a in sys.argv[3:])
    starts, fence = [], None
    for i, l in enumerate(text):
        mark = l.lstrip()[:3]
        if mark in ("```", "~~~"):
            fence = None if fence == mark else (fence or mark)
        elif fence is None and l.startswith("# "):
            starts.append(i)
    for k, i in enumerate(starts):
        title = text[i][2:].strip()
        if title not in want:
            continue
        end = starts[k + 1] if k + 1 < len(starts) else len(text)
        body = "\n".join(text[i:end]).rstrip("\n") + "\n"
        open("%s/%s.md" % (sys.argv[2], want.pop(title)), "w", encoding="utf-8").write(body)
    if want:
        sys.exit("split-llms-full.py: no page titled %s" % ", ".join(want))


if __name__ == "__main__":
    main()
