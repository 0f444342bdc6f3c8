#!/usr/bin/python3
"""llmstxt_ref.py REFDIR ROUNDS OUTDIR FILE... - the llms.txt reference
implementation timed in process, for tests/bench/bmdprep.sh and bctx.sh.

REFDIR holds the reference's sources: llms_txt/ (AnswerDotAI/llms-txt) and
fastcore/, put on sys.path as they are.  The only stand-in is the network:
httpx.get, with which create_ctx fetches every linked document, answers with
the synthetic body of shared/conformance/llmstxt/README.md, as when the
conformance data was made; create_ctx runs with n_workers=0 (no thread pool).

For each FILE the reference can parse: ROUNDS calls of parse_llms_file, then
ROUNDS calls of create_ctx(optional=True), timed with perf_counter; prints
one line "seconds_parse seconds_ctx links bytes FILE" and writes
OUTDIR/N.docs.ndjson (the bodies by link URL, for bmdprep --ctx --docs) and
OUTDIR/N.ctx.xml (the reference's context, to check the other side).
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


class Answer:
    def __init__(self, url):
        self.text = BODY.format(url=url)


def main():
    ref, rounds, out, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    lines = sys.stdout
    sys.stdout = open(os.devnull, 'w')
    httpx = types.ModuleType('httpx')
    httpx.get = lambda url, **kw: Answer(url)
    sys.modules['httpx'] = httpx
    sys.path.insert(0, ref)
    from llms_txt.core import parse_llms_file, create_ctx
    for n, path in enumerate(files):
        try:
            with open(path, encoding='utf-8') as f:
                txt = f.read()
            d = parse_llms_file(txt)
            ctx = create_ctx(txt, optional=True, n_workers=0)
        except Exception as e:  # the reference rejects the file
            print('reference rejects %s: %s' % (path, type(e).__name__),
                  file=sys.stderr)
            continue
        with open(os.path.join(out, '%d.docs.ndjson' % n), 'w') as f:
            for links in d.sections.values():
                for l in links:
                    f.write(json.dumps({'url': l['url'],
                                        'text': BODY.format(url=l['url'])}) + '\n')
        with open(os.path.join(out, '%d.ctx.xml' % n), 'w') as f:
            f.write(ctx)
        t0 = time.perf_counter()
        for _ in range(rounds):
            parse_llms_file(txt)
        t1 = time.perf_counter()
        for _ in range(rounds):
            create_ctx(txt, optional=True, n_workers=0)
        t2 = time.perf_counter()
        nlinks = sum(len(v) for v in d.sections.values())
        print('%.6f %.6f %d %d %d %s' % (t1 - t0, t2 - t1, nlinks,
                                         len(txt.encode('utf-8')), n, path),
              file=lines, flush=True)


main()
