#!/usr/bin/env python3
"""layers.py BUILD TOP - the calls between the files of each program, from
the objects.

For every program (BUILD/tools/NAME/*.o) and for the library (BUILD/common),
a file calls another when it references a symbol the other defines (nm).
Prints TAP: per unit, one check that no circle of files exists (DESIGN.md,
"Layers inside a program": a file that calls its sibling files exports
nothing they call), with the circle's files and the symbols that close it
when one does; and one check that the program's header names each of its
source files in its map.
"""
import os
import subprocess
import sys

build, top = sys.argv[1], sys.argv[2]
n = 0
failed = 0


def result(ok, what, detail=()):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, what))
    if not ok:
        failed += 1
        for d in detail:
            print("# " + d)


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True,
                         check=True).stdout
    defs, refs = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            refs.add(name)
        elif kind in "TDBRVWGS":
            defs.add(name)
    return defs, refs


def graph(objdir):
    objs = sorted(o for o in os.listdir(objdir) if o.endswith(".o"))
    info = {o[:-2] + ".c": symbols(os.path.join(objdir, o)) for o in objs}
    owner = {}
    for f, (defs, _) in info.items():
        for s in defs:
            owner[s] = f
    edges = {f: {} for f in info}
    for f, (_, refs) in info.items():
        for s in refs:
            g = owner.get(s)
            if g and g != f:
                edges[f].setdefault(g, []).append(s)
    return edges


def circles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(unit, objdir, header):
    edges = graph(objdir)
    found = circles(edges)
    detail = []
    for comp in found:
        detail.append("circle: " + " ".join(comp))
        for f in comp:
            for g in sorted(edges[f]):
                if g in comp:
                    detail.append("  %s -> %s: %s" % (f, g, " ".join(sorted(edges[f][g])[:6])))
    result(not found, "%s: no circle of files" % unit, detail)
    if header is None:
        return
    if not os.path.exists(header):
        result(False, "%s: its header %s exists" % (unit, os.path.relpath(header, top)))
        return
    text = open(header, encoding="utf-8").read()
    missing = [f for f in sorted(edges) if f not in text]
    result(not missing, "%s: %s maps every file" % (unit, os.path.relpath(header, top)),
           ["not named: " + " ".join(missing)] if missing else [])


HEADERS = {"bscore-merge": "bsm.h"}
tools = sorted(os.listdir(os.path.join(build, "tools")))
for t in tools:
    hdr = os.path.join(top, "tools", t, HEADERS.get(t, t + ".h"))
    check(t, os.path.join(build, "tools", t), hdr)
check("common", os.path.join(build, "common"), None)
print("1..%d" % n)
sys.exit(1 if failed else 0)
