#!/usr/bin/python3
"""fill.py - play a rater (or a spreadsheet) on a blinded sheet, for the tests.

fill.py IN.csv OUT.csv [options]
  --rater ID --date D         fill rater_id / scoring_date of every row
  --score COL=VAL             fill COL of every row
  --set N:COL=VAL             set COL of data row N (1-based)
  --drop COL                  delete a column
  --reorder                   reverse the column order
  --extra                     add an extra column with text
  --blank-rows                insert rows of empty cells
  --bom --crlf                spreadsheet encodings
  --delete-row N              remove data row N
  --dup-row N                 append a copy of data row N
"""
import csv, io, sys

def main(a):
    src, dst = a[0], a[1]
    opts = a[2:]
    with open(src, newline='', encoding='utf-8-sig') as f:
        rows = list(csv.reader(f))
    hdr, data = rows[0], rows[1:]
    recs = [dict(zip(hdr, r)) for r in data]
    i = 0
    bom = crlf = reorder = extra = blank = False
    while i < len(opts):
        o = opts[i]
        if o in ('--rater', '--date'):
            col = 'rater_id' if o == '--rater' else 'scoring_date'
            for r in recs: r[col] = opts[i + 1]
            i += 2
        elif o == '--score':
            c, v = opts[i + 1].split('=', 1)
            for r in recs: r[c] = v
            if c not in hdr: hdr.append(c)
            i += 2
        elif o == '--set':
            n, rest = opts[i + 1].split(':', 1)
            c, v = rest.split('=', 1)
            recs[int(n) - 1][c] = v
            if c not in hdr: hdr.append(c)
            i += 2
        elif o == '--drop':
            hdr.remove(opts[i + 1]); i += 2
        elif o == '--delete-row':
            del recs[int(opts[i + 1]) - 1]; i += 2
        elif o == '--dup-row':
            recs.append(dict(recs[int(opts[i + 1]) - 1])); i += 2
        elif o == '--reorder': reorder = True; i += 1
        elif o == '--extra': extra = True; i += 1
        elif o == '--blank-rows': blank = True; i += 1
        elif o == '--bom': bom = True; i += 1
        elif o == '--crlf': crlf = True; i += 1
        else: sys.exit('fill.py: unknown option ' + o)
    if reorder: hdr = hdr[::-1]
    if extra:
        hdr.append('My Comments')
        for r in recs: r['My Comments'] = 'checked, "ok", fine'
    out = io.StringIO()
    w = csv.writer(out, lineterminator='\r\n' if crlf else '\n', quoting=csv.QUOTE_MINIMAL)
    w.writerow(hdr)
    for k, r in enumerate(recs):
        w.writerow([r.get(c, '') for c in hdr])
        if blank and k % 3 == 0:
            w.writerow([''] * len(hdr))
    with open(dst, 'w', encoding='utf-8', newline='') as f:
        if bom: f.write('\ufeff')
        f.write(out.getvalue())

main(sys.argv[1:])
