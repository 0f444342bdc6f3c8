#!/usr/bin/python3
"""llmstxt_ref.py REFDIR ROUNDS OUTDIR [--page PAGE] FILE... - the llms.txt
reference implementation timed in process, for tests/bench/bmdprep.sh and
bctx.sh.

REFDIR holds the reference's sources: llms_txt/ (AnswerDotAI/llms-txt) and
fastcore/, put on sys.path as they are.  The only stand-in is the network:
httpx.get, with which create_ctx fetches every linked document, answers with
the synthetic body of shared/conformance/llmstxt/README.md, as when the
conformance data was made; create_ctx runs with n_workers=0 (no thread pool).
Times are CPU time of this process (time.process_time: user + system), the
interpreter's start-up and the module imports not counted.

For each FILE the reference can parse: ROUNDS calls of parse_llms_file, then
ROUNDS calls of create_ctx(optional=True); prints one line
"seconds_parse seconds_ctx links bytes N FILE" and writes OUTDIR/N.parse.json
(the parse result as bmdprep --llms -r --dump prints it: compact JSON, keys
in the reference's order), OUTDIR/N.docs.ndjson (the bodies by link URL, for
bmdprep --ctx --docs) and OUTDIR/N.ctx.xml (the reference's context).
With --page: ROUNDS calls of the reference's _doc() on PAGE (the page
fetched, its lines filtered: what create_ctx does to each document); prints
"page seconds bytes PAGE" and writes OUTDIR/page.out (the document's text);
a FILE linking PAGE_URL (https://example.org/page.md) gets PAGE as that
document's body.
Files the reference rejects are reported on standard error and skipped.
The reference prints every link it turns into a document (core.py, _doc:
print(dict(kw))); that output goes to /dev/null, so standard output holds
only the timing lines, and the reference still pays for its printing.
"""
import json
import os
import sys
import time
import types

BODY = ('# Doc for {url}\n<!-- stripped comment -->\n'
        'Body line with <b>html</b> & ampersand.\n'
        '<img alt="x" src="data:image/png;base64,AAAA"> whole line dropped\n'
        '  <!-- indented comment kept -->\nlast line\n')
PAGE_URL = 'https://example.org/page.md'


class Answer:
    pages = {}

    def __init__(self, url):
        self.text = body(url)


def body(url):
    "What the stand-in for the network answers for url."
    return Answer.pages.get(url) or BODY.format(url=url)


def one_file(core, rounds, out, n, path, lines):
    with open(path, encoding='utf-8') as f:
        txt = f.read()
    try:
        d = core.parse_llms_file(txt)
        ctx = core.create_ctx(txt, optional=True, n_workers=0)
    except Exception as e:  # the reference rejects the file
        print('reference rejects %s: %s' % (path, type(e).__name__),
              file=sys.stderr)
        return
    res = {k: d[k] for k in ('title', 'summary', 'info')}
    res['sections'] = {k: [dict(l) for l in v] for k, v in d.sections.items()}
    with open(os.path.join(out, '%d.parse.json' % n), 'w') as f:
        f.write(json.dumps(res, ensure_ascii=False,
                           separators=(',', ':')) + '\n')
    with open(os.path.join(out, '%d.docs.ndjson' % n), 'w') as f:
        for links in d.sections.values():
            for l in links:
                f.write(json.dumps({'url': l['url'],
                                    'text': body(l['url'])}) + '\n')
    with open(os.path.join(out, '%d.ctx.xml' % n), 'w') as f:
        f.write(ctx)
    t0 = time.process_time()
    for _ in range(rounds):
        core.parse_llms_file(txt)
    t1 = time.process_time()
    for _ in range(rounds):
        core.create_ctx(txt, optional=True, n_workers=0)
    t2 = time.process_time()
    nlinks = sum(len(v) for v in d.sections.values())
    print('%.6f %.6f %d %d %d %s' % (t1 - t0, t2 - t1, nlinks,
                                     len(txt.encode('utf-8')), n, path),
          file=lines, flush=True)


def one_page(core, rounds, out, path, lines):
    t0 = time.process_time()
    for _ in range(rounds):
        doc = core._doc({'url': PAGE_URL, 'title': 'page'})
    t1 = time.process_time()
    with open(os.path.join(out, 'page.out'), 'w') as f:
        f.write(doc.children[0])
    print('page %.6f %d %s' % (t1 - t0, os.path.getsize(path), path),
          file=lines, flush=True)


def main():
    ref, rounds, out, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    page = None
    if files[:1] == ['--page']:
        page, files = files[1], files[2:]
    lines = sys.stdout
    sys.stdout = open(os.devnull, 'w')
    httpx = types.ModuleType('httpx')
    httpx.get = lambda url, **kw: Answer(url)
    sys.modules['httpx'] = httpx
    sys.path.insert(0, ref)
    from llms_txt import core
    if page:
        with open(page, encoding='utf-8') as f:
            Answer.pages[PAGE_URL] = f.read()
    for n, path in enumerate(files):
        one_file(core, rounds, out, n, path, lines)
    if page:
        one_page(core, rounds, out, page, lines)


main()
