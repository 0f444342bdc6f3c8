#!/usr/bin/python3
"""Check an expected Condition A text against what a reader sees.

usage: check-expected.py ORACLE_JSON EXPECTED_TXT

ORACLE_JSON is oracle.py's output for the page.  Every code block a reader
copies, less newlines at its ends (Chromium's selection adds one before a
code block inside a tab of MkDocs Material), must be in the expected text
as whole lines, byte for byte; every heading, with white space trimmed and
zero-width spaces and trailing anchor glyphs (the pilcrow MkDocs Material
shows on hover) removed, must be a line of its own (headings Readability.js drops because they repeat the
title are reported, not failed).  Exits 1 naming what is missing.
"""
import json
import sys


def main():
    oracle = json.load(open(sys.argv[1], encoding="utf-8"))
    exp = open(sys.argv[2], encoding="utf-8").read()
    lines = exp.split("\n")
    wrapped = "\n" + exp + "\n"
    bad = 0
    for i, code in enumerate(oracle["pre"]):
        code = code.strip("\n")
        if "\n" + code + "\n" not in wrapped:
            print("%s: code block %d is not in the expected text as whole lines:\n%s"
                  % (sys.argv[2], i + 1, code))
            bad = 1
    for i, h in enumerate(oracle["headings"]):
        h = h.replace("\u200b", "").strip().rstrip("\u00b6\u00a7#").strip()
        if h and h not in lines:
            print("%s: heading %r is not a line of the expected text%s"
                  % (sys.argv[2], h, " (the title: Readability.js removes it)" if i == 0 else ""))
            bad |= i != 0
    return bad


if __name__ == "__main__":
    sys.exit(main())
