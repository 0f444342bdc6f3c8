#!/usr/bin/python3
"""btok-corpus.py OUTDIR [MB] - a varied text corpus for btok's bench (make bench).

Real text from this Debian machine, never one block repeated, one file per
kind in OUTDIR (KIND.txt): prose (licences, copyright files, changelogs),
code (Python standard library, C headers), markdown (npm's documentation),
html (package documentation), man (manual pages, roff source), languages
(the translations of the message catalogues of /usr/share/locale, an equal
share for each of its 200 or so languages: de fr es ru ja zh ko ar hi el he
tr ...), and numbers (tables drawn from a seeded generator).  Each kind gets
an equal share of MB megabytes (default 7).  Standard library only;
deterministic for one machine.
"""
import glob
import gettext
import gzip
import os
import random
import sys

out = sys.argv[1]
NKINDS = 7
budget = int(float(sys.argv[2] if len(sys.argv) > 2 else NKINDS) * 1048576 / NKINDS)


def read(path):
    try:
        op = gzip.open if path.endswith(".gz") else open
        with op(path, "rb") as f:
            return f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError):
        return None


def take(paths):
    docs, n = [], 0
    for p in sorted(set(paths)):
        t = read(p)
        if not t or len(t) < 200:
            continue
        docs.append(t)
        n += len(t.encode())
        if n >= budget:
            break
    return docs


def catalogues():
    """An equal share for each language: every script, not the first few."""
    bylang = {}
    for p in sorted(glob.glob("/usr/share/locale/*/LC_MESSAGES/*.mo")):
        bylang.setdefault(p.split("/")[4], []).append(p)
    share = budget // max(1, len(bylang)) + 1
    docs = []
    for lang in sorted(bylang):
        n = 0
        for p in bylang[lang]:
            try:
                with open(p, "rb") as f:
                    cat = gettext.GNUTranslations(f)._catalog
            except Exception:
                continue
            t = "\n".join(v for k, v in cat.items() if k and isinstance(v, str))
            if len(t) < 200:
                continue
            t = t.encode()[:share - n].decode("utf-8", "ignore")
            docs.append(t + "\n")
            n += len(t.encode())
            if n >= share:
                break
    return docs


def numbers():
    rng = random.Random(20261123)
    docs, n = [], 0
    while n < budget:
        rows = ["id,date,price,qty,ratio,hex"]
        for i in range(rng.randint(20, 200)):
            rows.append("%d,2026-%02d-%02d,%.2f,%d,%.6f,0x%08x" % (
                rng.randint(1, 10 ** 7), rng.randint(1, 12), rng.randint(1, 28),
                rng.uniform(0, 1e5), rng.randint(0, 10 ** 6), rng.random(), rng.getrandbits(32)))
        t = "\n".join(rows) + "\n"
        docs.append(t)
        n += len(t)
    return docs


kinds = {
    "prose": take(glob.glob("/usr/share/common-licenses/*") + glob.glob("/usr/share/doc/*/copyright")
                  + glob.glob("/usr/share/doc/*/changelog*.gz")),
    "code": take(glob.glob("/usr/lib/python3*/*.py") + glob.glob("/usr/include/*.h")),
    "markdown": take(glob.glob("/usr/lib/node_modules/npm/docs/**/*.md", recursive=True)
                     + glob.glob("/usr/share/doc/**/*.md", recursive=True)),
    "html": take(glob.glob("/usr/share/doc/**/*.html", recursive=True)),
    "man": take(glob.glob("/usr/share/man/man[1-8]/*.gz")),
    "languages": catalogues(),
    "numbers": numbers(),
}
assert len(kinds) == NKINDS
os.makedirs(out, exist_ok=True)
for name, docs in kinds.items():
    with open(os.path.join(out, name + ".txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(docs))
