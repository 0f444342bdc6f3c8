#!/usr/bin/env python3
"""binfer-slots.py - binfer's throughput against a real llama.cpp
llama-server (run by tests/bench/binfer.sh for `make bench`).

For each N of --slots, a fresh llama-server with --parallel N serves, in one
run and in turn (each side first in every third round):

  curl     the ideal client: N concurrent loops of curl (xargs -P N, each
           loop taking the next body as soon as it is free), sending the
           very bodies binfer sends (captured once through a recording
           proxy) with binfer's headers;
  curl -Z  one curl with N transfers in flight (--parallel), libcurl's
           multi interface alone, for reference;
  binfer   binfer -j N over the same context records.

Printed per N and side: requests completed per second (the median of the
rounds), the server's busy slots per decode during the run (from /metrics:
llama.cpp's n_busy_slots_per_decode times n_decode_total, before and after),
the share of the run's /slots samples (every 0.1 s, taken while the side
runs) in which every slot was processing a request,
prompt and output tokens per second as the server counted them, and
binfer's own tokens/s from the line it ends its run with; then binfer's
requests per second over each curl side's (the median of the rounds' ratios:
sides that ran one after the other are the least disturbed by what else
the machine does) and whether every side got the same answers (temperature
0, no prompt cache: the same body gets the same answer).  Standard library
only.
"""
import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get(url, path):
    host, port = url.split("//")[1].split(":")
    c = http.client.HTTPConnection(host, int(port), timeout=30)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


class Server:
    """llama-server with --parallel n on a free loopback port."""

    def __init__(self, args, n, log):
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        cmd = [args.llama_server, "--host", "127.0.0.1", "--port", str(self.port),
               "-m", args.model, "-c", str(args.ctx * n), "-np", str(n), "-t", "1",
               "--metrics", "--no-webui"]
        self.log = open(log, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                if get(self.url, "/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        sys.exit("llama-server did not start: see %s" % log)

    def metrics(self):
        m = {}
        for line in get(self.url, "/metrics")[1].decode().splitlines():
            f = line.split()
            if len(f) == 2 and f[0].startswith("llamacpp:"):
                m[f[0][9:]] = float(f[1])
        return m

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.log.close()


class Recorder(BaseHTTPRequestHandler):
    """A proxy that forwards to the server and keeps each chat body as sent."""
    protocol_version = "HTTP/1.1"
    upstream = None
    bodies = []

    def log_message(self, *a):
        pass

    def forward(self, body):
        host, port = self.upstream.split("//")[1].split(":")
        c = http.client.HTTPConnection(host, int(port), timeout=600)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        c.request(self.command, self.path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        self.send_response(r.status)
        self.send_header("Content-Type", r.getheader("Content-Type", "application/json"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.forward(None)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/v1/chat/completions":
            Recorder.bodies.append(body)
        self.forward(body)


def capture(args, server, work):
    """The bodies binfer sends, in input order (-j 1), as files."""
    Recorder.upstream = server.url
    Recorder.bodies = []
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    t = threading.Thread(target=proxy.serve_forever, daemon=True)
    t.start()
    url = "http://127.0.0.1:%d" % proxy.server_address[1]
    subprocess.run(binfer_cmd(args, url, 1), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    proxy.shutdown()
    files = []
    for k, b in enumerate(Recorder.bodies):
        f = os.path.join(work, "body-%03d.json" % k)
        with open(f, "wb") as out:
            out.write(b)
        files.append(f)
    return files


def binfer_cmd(args, url, jobs):
    return [args.binfer, "-c", args.config, "-e", "openai", "-m", args.model_id,
            "--endpoint", url, "-j", str(jobs), "--no-cache", "--warmup", "0",
            "--num-predict", str(args.num_predict), args.contexts]


def answers_of(outs):
    """The answers of the curl sides, in the order of the bodies."""
    answers = []
    for o in outs:
        with open(o) as f:
            answers.append(json.load(f)["choices"][0]["message"]["content"])
    return answers, ""


def run_curl(url, files, n, work):
    """N loops of curl, each taking the next body when it is free."""
    outs = [os.path.join(work, "answer-%03d.json" % k) for k in range(len(files))]
    lines = "".join("%s %s\n" % (f, o) for f, o in zip(files, outs))
    subprocess.run(["xargs", "-P", str(n), "-L", "1", "sh", "-c",
                    'exec curl -sf -o "$1" -H "Content-Type: application/json" '
                    '-H "Expect:" --data-binary "@$0" ' + url + "/v1/chat/completions"],
                   input=lines.encode(), check=True)
    return answers_of(outs)


def run_curl_parallel(url, files, n, work):
    """One curl with N transfers in flight (curl --parallel)."""
    outs = [os.path.join(work, "answer-%03d.json" % k) for k in range(len(files))]
    cfg = os.path.join(work, "curl.cfg")
    with open(cfg, "w") as c:
        for k, (f, o) in enumerate(zip(files, outs)):
            c.write("next\n" if k else "")
            c.write('url = "%s/v1/chat/completions"\ndata-binary = "@%s"\n'
                    'header = "Content-Type: application/json"\nheader = "Expect:"\n'
                    'output = "%s"\n' % (url, f, o))
    subprocess.run(["curl", "-sf", "--no-progress-meter", "--parallel", "--parallel-immediate",
                    "--parallel-max", str(n), "-K", cfg], check=True)
    return answers_of(outs)


def run_binfer(args, url, n, work):
    out = os.path.join(work, "responses.ndjson")
    p = subprocess.run(binfer_cmd(args, url, n) + ["-o", out], stderr=subprocess.PIPE)
    err = p.stderr.decode()
    if p.returncode != 0:
        sys.exit("binfer failed (%d): %s" % (p.returncode, err))
    answers = []
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            if not r.get("excluded"):
                answers.append(r["response_raw"])
    return answers, err


class Sampler(threading.Thread):
    """The server's /slots every interval seconds while a side runs: how
    many slots were processing a request at each sample."""

    def __init__(self, url, interval=0.1):
        super().__init__(daemon=True)
        self.url, self.interval = url, interval
        self.busy = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.wait(self.interval):
            try:
                slots = json.loads(get(self.url, "/slots")[1])
            except (OSError, ValueError):
                continue
            self.busy.append(sum(1 for s in slots if s.get("is_processing")))

    def stop(self):
        self.halt.set()
        self.join()
        return self.busy


def measure(server, n, fn):
    m0 = server.metrics()
    sampler = Sampler(server.url)
    sampler.start()
    t = time.monotonic()
    answers, err = fn()
    wall = time.monotonic() - t
    samples = sampler.stop()
    m1 = server.metrics()
    busy = (m1["n_busy_slots_per_decode"] * m1["n_decode_total"]
            - m0["n_busy_slots_per_decode"] * m0["n_decode_total"])
    decodes = m1["n_decode_total"] - m0["n_decode_total"]
    return {"wall": wall, "answers": answers, "err": err,
            "busy": busy / decodes if decodes else 0.0,
            "full": sum(1 for b in samples if b == n) / len(samples) if samples else 0.0,
            "ptok": m1["prompt_tokens_total"] - m0["prompt_tokens_total"],
            "otok": m1["tokens_predicted_total"] - m0["tokens_predicted_total"]}


def summary_rate(err):
    """binfer's tokens/s from its end-of-run summary line."""
    m = re.search(r"([0-9.]+) tok/s", err)
    return float(m.group(1)) if m else float("nan")


SIDES = ("curl", "curl -Z", "binfer")


def bench_slots(args, n, work):
    server = Server(args, n, os.path.join(work, "server-%d.log" % n))
    run = {"curl": lambda: run_curl(server.url, files, n, work),
           "curl -Z": lambda: run_curl_parallel(server.url, files, n, work),
           "binfer": lambda: run_binfer(args, server.url, n, work)}
    try:
        files = capture(args, server, work)
        res = {side: [] for side in SIDES}
        for r in range(args.rounds):
            # each side first in turn, so that no side always runs on a warmer server
            for k in range(len(SIDES)):
                side = SIDES[(r + k) % len(SIDES)]
                res[side].append(measure(server, n, run[side]))
    finally:
        server.stop()
    return len(files), res


def report(n, nreq, res):
    med = {}
    for side in SIDES:
        rs = res[side]
        med[side] = statistics.median(nreq / x["wall"] for x in rs)
        busy = statistics.median(x["busy"] for x in rs)
        full = statistics.median(x["full"] for x in rs)
        ptok = statistics.median(x["ptok"] / x["wall"] for x in rs)
        otok = statistics.median(x["otok"] / x["wall"] for x in rs)
        own = "%.0f" % statistics.median(summary_rate(x["err"]) for x in rs) \
            if side == "binfer" else "-"
        print("%5d  %-8s %8.3f %7.2f/%d %8.0f %% %12.0f %12.0f %12s" % (
            n, side, med[side], busy, n, 100 * full, ptok, otok, own))
    same = all(x["answers"] == y["answers"] for x in res["binfer"]
               for side in SIDES for y in res[side])
    # each round's sides ran one after the other: their ratio is the least
    # disturbed by what else the machine does
    rounds = {side: [a["wall"] / b["wall"] for a, b in zip(res[side], res["binfer"])]
              for side in ("curl", "curl -Z")}
    ratio = {side: statistics.median(r) for side, r in rounds.items()}
    print("%5d  binfer/curl loops %.3f (%s 0.95), binfer/curl -Z %.3f; answers identical: %s" % (
        n, ratio["curl"], ">=" if ratio["curl"] >= 0.95 else "BELOW", ratio["curl -Z"],
        "yes" if same else "NO"))
    print("%5d  rounds: binfer/curl loops %s; binfer/curl -Z %s" % (
        n, " ".join("%.3f" % x for x in rounds["curl"]),
        " ".join("%.3f" % x for x in rounds["curl -Z"])))
    return ratio["curl"], same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binfer", required=True)
    ap.add_argument("--llama-server", required=True)
    ap.add_argument("--model", required=True, help="the GGUF file")
    ap.add_argument("--config", required=True)
    ap.add_argument("--model-id", required=True, help="a model_id of the config")
    ap.add_argument("--contexts", required=True, help="counted context records")
    ap.add_argument("--work", required=True)
    ap.add_argument("--slots", default="1,2,4")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--ctx", type=int, default=2048, help="context per slot")
    ap.add_argument("--num-predict", type=int, default=32)
    args = ap.parse_args()
    with open(args.contexts) as f:
        counts = [json.loads(line)["prompt_tokens"]["llama3"] for line in f
                  if not json.loads(line).get("excluded")]
    print("%d varied prompts (%d to %d prompt tokens), --num-predict %d, %d rounds; "
          "req/s: requests completed per second (median of the rounds); busy/decode: "
          "the server's busy slots per decode (/metrics); all busy: the share of the "
          "run's /slots samples (every 0.1 s) with every slot processing, the "
          "last requests' tail included" % (
              len(counts), min(counts), max(counts), args.num_predict, args.rounds))
    print("%5s  %-8s %8s %11s %10s %12s %12s %12s" % (
        "slots", "client", "req/s", "busy/decode", "all busy", "prompt tok/s",
        "output tok/s", "binfer tok/s"))
    for n in (int(s) for s in args.slots.split(",")):
        nreq, res = bench_slots(args, n, args.work)
        report(n, nreq, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
