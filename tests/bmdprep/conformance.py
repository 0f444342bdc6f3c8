#!/usr/bin/python3
"""Reference-mode conformance of bmdprep against the llms.txt reference data.

For every file of ../shared/conformance/llmstxt/corpus and every synthetic
case of edge-cases.json (AnswerDotAI/llms-txt at 7dd05c5b, fastcore 2.2.14):
  - `bmdprep --llms -r --dump` must print the reference parse result, equal
    as JSON and in key order, or fail with status 1 naming the line where the
    reference raises (and, for corpus files, the section and line text);
  - `bmdprep --ctx [--optional]` with every linked URL answered by the
    synthetic body of the README must print create_ctx()'s string byte for
    byte, or fail where create_ctx raises.
Prints TAP.  Usage: conformance.py BMDPREP CONFORMANCE_DIR TMPDIR
"""
import json
import os
import subprocess
import sys

BODY = ('# Doc for {url}\n<!-- stripped comment -->\n'
        'Body line with <b>html</b> & ampersand.\n'
        '<img alt="x" src="data:image/png;base64,AAAA"> whole line dropped\n'
        '  <!-- indented comment kept -->\nlast line\n')

prog, conf, tmp = sys.argv[1:4]
n = 0
failed = 0


def tap(ok, desc, diag=None):
    global n, failed
    n += 1
    print(('ok %d - %s' if ok else 'not ok %d - %s') % (n, desc))
    if not ok:
        failed += 1
        for line in (diag or '').splitlines()[:30]:
            print('# ' + line)


def run(args):
    p = subprocess.run([prog] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode('utf-8', 'replace')


def line_of(text, needle):
    """1-based line of the first line equal to needle (after the split)."""
    for i, l in enumerate(text.split('\n')):
        if l == needle or l.strip() == needle.strip():
            return i + 1
    return None


def docs_file(name, parse):
    path = os.path.join(tmp, name + '.docs.ndjson')
    with open(path, 'w', encoding='utf-8') as f:
        for links in parse['sections'].values():
            for l in links:
                f.write(json.dumps({'url': l['url'],
                                    'text': BODY.format(url=l['url'])}) + '\n')
    return path


def check(name, path, text, parse, perr, ctx, ctx_full, where=None):
    rc, out, err = run(['--llms', '-r', '--dump', path])
    if parse is not None:
        got = None
        if rc == 0:
            try:
                got = json.loads(out.decode('utf-8'))
            except ValueError:
                pass
        same = got is not None and json.dumps(got) == json.dumps(parse)
        tap(rc == 0 and same, '%s: reference parse result' % name,
            'status %d\n%s\ngot %s\nwant %s' % (rc, err, out[:2000],
                                                json.dumps(parse)[:2000]))
    else:
        ok = rc == 1 and perr.split(':')[0] in err and err.startswith('bmdprep: ')
        if where is not None:
            want_line = line_of(text, where['line'])
            ok = ok and (':%d:' % want_line) in err and \
                ('"%s"' % where['section']) in err
        tap(ok, '%s: reference raises %s' % (name, perr.split(':')[0]),
            'status %d, stderr %s' % (rc, err))
    for opt, want in (('', ctx), ('--optional', ctx_full)):
        label = 'create_ctx(optional=%s)' % ('True' if opt else 'False')
        if want is None:
            continue
        if parse is None:
            rc, out, err = run(['--ctx', path])
            tap(rc == 1 and want.split(':')[0] in err,
                '%s: %s raises %s' % (name, label, want.split(':')[0]),
                'status %d, stderr %s' % (rc, err))
            continue
        docs = docs_file(name, parse)
        rc, out, err = run(['--ctx'] + ([opt] if opt else []) +
                           ['--docs', docs, path])
        tap(rc == 0 and out == want.encode('utf-8'),
            '%s: %s byte for byte' % (name, label),
            'status %d %s\ngot  %r\nwant %r' % (rc, err, out[:1500],
                                               want.encode('utf-8')[:1500]))


corpus = os.path.join(conf, 'corpus')
for fn in sorted(os.listdir(corpus)):
    if not fn.endswith('.txt'):
        continue
    base = os.path.join(corpus, fn[:-4])
    path = os.path.join(corpus, fn)
    with open(path, encoding='utf-8', newline='') as f:
        text = f.read()
    with open(base + '.expected.json', encoding='utf-8') as f:
        exp = json.load(f)
    ctx = ctx_full = None
    if os.path.exists(base + '.expected-ctx.xml'):
        with open(base + '.expected-ctx.xml', encoding='utf-8', newline='') as f:
            ctx = f.read()
        with open(base + '.expected-ctx-full.xml', encoding='utf-8',
                  newline='') as f:
            ctx_full = f.read()
    if exp['ok']:
        check(fn[:-4], path, text, exp['result'], None, ctx, ctx_full)
    else:
        check(fn[:-4], path, text, None, exp['error'], None, None,
              exp['where'])

with open(os.path.join(conf, 'edge-cases.json'), encoding='utf-8') as f:
    edges = json.load(f)
for name, case in edges.items():
    path = os.path.join(tmp, 'edge-' + name + '.txt')
    with open(path, 'w', encoding='utf-8', newline='') as f:
        f.write(case['input'])
    if 'parse' in case:
        check('edge ' + name, path, case['input'], case['parse'], None,
              case.get('ctx'), case.get('ctx_full'))
    else:
        check('edge ' + name, path, case['input'], None, case['parse_error'],
              None, None)
        for key, opt in (('ctx_error', []), ('ctx_full_error', ['--optional'])):
            rc, out, err = run(['--ctx'] + opt + [path])
            want = case[key].split(':')[0]
            tap(rc == 1 and want in err,
                'edge %s: create_ctx%s raises %s' % (name, opt, want),
                'status %d, stderr %s' % (rc, err))

# golden/: real llms.txt files with the llms-ctx(-full).txt their projects
# committed, made with the reference CLI (the string plus one newline).  The
# fetched documents are not kept, so each <doc> body is taken from the golden
# file itself: this checks everything around the bodies (sections, Optional,
# attributes, order) on real files.
import re
golden = os.path.join(conf, 'golden')
DOC = re.compile(r'<doc(?: [a-z]+=(?:"[^"]*"|\'[^\']*\'))*>(.*?)</doc>', re.S)
for fn in sorted(os.listdir(golden)):
    if not fn.endswith('-llms.txt'):
        continue
    proj = fn[:-len('-llms.txt')]
    path = os.path.join(golden, fn)
    rc, out, err = run(['--llms', '-r', '--dump', path])
    tap(rc == 0, 'golden %s: reference parse' % proj, err)
    if rc != 0:
        continue
    parse = json.loads(out.decode('utf-8'))
    for suffix, opt in (('ctx', []), ('ctx-full', ['--optional'])):
        with open(os.path.join(golden, '%s-llms-%s.txt' % (proj, suffix)),
                  encoding='utf-8', newline='') as f:
            want = f.read()
        links = [l for k, v in parse['sections'].items()
                 if k != 'Optional' or opt for l in v]
        bodies = DOC.findall(want)
        docs = os.path.join(tmp, 'golden-%s-%s.ndjson' % (proj, suffix))
        with open(docs, 'w', encoding='utf-8') as f:
            for l, b in zip(links, bodies):
                f.write(json.dumps({'url': l['url'], 'text': b}) + '\n')
        rc, out, err = run(['--ctx'] + opt + ['--docs', docs, path])
        tap(len(links) == len(bodies) and rc == 0 and
            out + b'\n' == want.encode('utf-8'),
            'golden %s: llms-%s.txt byte for byte' % (proj, suffix),
            'status %d %s links %d docs %d' % (rc, err, len(links),
                                                len(bodies)))

print('1..%d' % n)
sys.exit(1 if failed else 0)
