#!/bin/sh
# make bench: bscore-merge on a synthetic study of 6000 responses (300
# questions x 10 models x 2 conditions): blind, autoscore and merge timed,
# and merge against a reference written with Python's csv and json modules
# doing the same join (key + responses + one filled sheet -> raw-data.csv
# with range checks).  There is no published tool doing this stage; the
# Python reference is the baseline a study would otherwise write.
set -eu
: "${CTXBENCH_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${CTXBENCH_BUILD:=$CTXBENCH_TOP/build}"
B=${CTXBENCH_BSCORE_MERGE:-$CTXBENCH_BUILD/bin/bscore-merge}
W=$CTXBENCH_BUILD/bench/bscore-merge
PY=/usr/bin/python3
rm -rf "$W"; mkdir -p "$W"

$PY - "$CTXBENCH_TOP/tests/bscore-merge/fixtures/responses.ndjson" "$W/responses.ndjson" <<'PYEOF'
import json, sys
base = [json.loads(l) for l in open(sys.argv[1])]
with open(sys.argv[2], "w") as f:
    for m in range(10):
        for c in "AB":
            for q in range(300):
                r = dict(base[q % 8])
                r.update(site_id="S%03d" % (q // 8), question_id="S%03d-Q%02d" % (q // 8, q % 8),
                         model_id="model-%d" % m, condition=c, exclusion_reason=None, excluded=False,
                         response_text="Answer %d for %s by model %d: libSQL fork of SQLite, replication." % (q, c, m))
                f.write(json.dumps(r) + "\n")
PYEOF

# CPU seconds (user + system) of one command: wall time on a shared machine
# measures the neighbours.
cpu() {	# file command...
	_f=$1; shift
	/usr/bin/time -f '%U %S' -o "$_f" "$@"
}
now() { date +%s.%N; }
t0=$(now); cpu "$W/t.blind" "$B" blind -k "$W/key.json" -d "$W/s" --seed 1 --second-rater 0.15 "$W/responses.ndjson" 2>/dev/null; t1=$(now)
cpu "$W/t.auto" "$B" autoscore --date 2026-03-01 "$W/s/sheet.csv" >"$W/auto.ndjson"; t2=$(now)
$PY - "$W/s/sheet.csv" "$W/auto.ndjson" "$W/filled.csv" <<'PYEOF'
import csv, json, sys
auto = {r["response_id"]: r for r in map(json.loads, open(sys.argv[2]))}
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8-sig")))
with open(sys.argv[3], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    for r in rows:
        a = auto[r["response_id"]]
        r.update(rater_id="alice", scoring_date="2026-03-02", factual_accuracy=a["factual_accuracy"],
                 hallucination_count=0, completeness=a["completeness"], refusal="",
                 citation_fidelity="" if a["citation_fidelity"] is None else a["citation_fidelity"],
                 scoring_notes=a["scoring_notes"])
        w.writerow(r)
PYEOF
t3=$(now); cpu "$W/t.merge" "$B" merge -k "$W/key.json" -r "$W/responses.ndjson" -o "$W/scored.ndjson" --raw-data "$W/raw-data.csv" "$W/filled.csv"; t4=$(now)
cpu "$W/t.ref" $PY - "$W/key.json" "$W/responses.ndjson" "$W/filled.csv" "$W/raw-ref.csv" <<'PYEOF'
import csv, json, sys
key = json.load(open(sys.argv[1]))
byt = {(e["site_id"], e["question_id"], e["model_id"], e["condition"]): e for e in key["responses"]}
resp = {}
for l in open(sys.argv[2]):
    r = json.loads(l)
    e = byt[(r["site_id"], r["question_id"], r["model_id"], r["condition"])]
    resp[e["response_id"]] = r
cols = ["response_id","site_id","question_id","complexity","model_id","condition","factual_accuracy","hallucination_count","hallucination_categories","input_token_count","ref_token_count","output_token_count","content_chars","completeness","citation_fidelity","scoring_notes","scorer_id","scoring_date"]
with open(sys.argv[4], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(cols)
    for s in csv.DictReader(open(sys.argv[3], encoding="utf-8-sig")):
        acc = int(float(s["factual_accuracy"])); assert 0 <= acc <= 3
        comp = int(s["completeness"]); assert comp in (0, 1)
        r = resp[s["response_id"]]
        w.writerow([s["response_id"], r["site_id"], r["question_id"], r["complexity"], r["model_id"], r["condition"],
                    acc, s["hallucination_count"], "", r["input_token_count"], r["ref_token_count"], r["output_token_count"],
                    r["content_chars"], comp, s["citation_fidelity"], s["scoring_notes"], s["rater_id"], s["scoring_date"]])
PYEOF
t5=$(now)
rows=$(($(wc -l <"$W/raw-data.csv") - 1))
c() { awk '{ printf "%.3f", $1 + $2 }' "$1"; }
echo "bscore-merge blind (6000 responses):   $(c "$W/t.blind") s CPU"
echo "bscore-merge autoscore:                $(c "$W/t.auto") s CPU"
echo "bscore-merge merge ($rows rows):         $(c "$W/t.merge") s CPU (also writes scored.ndjson)"
echo "python csv/json reference merge:       $(c "$W/t.ref") s CPU (raw-data.csv only)"
awk -v a="$(c "$W/t.merge")" -v b="$(c "$W/t.ref")" 'BEGIN { printf "ratio merge / reference:               %.2f\n", a / b }'
