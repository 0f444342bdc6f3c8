#!/usr/bin/env python3
"""Loopback HTTP server for the unit tests of common/http.c (standard
library only).  Listens on 127.0.0.1 at a free port, written to --port-file.

  /hello          200 "hello\\n", X-Test: a
  /echo           POST: the body back; X-Auth: the Authorization header
  /redirect       302 to the relative /hello
  /retry-date     503, Retry-After as an HTTP date 3 s ahead
  /big            10000 bytes with their Content-Length
  /gzip-bomb      1 MB of zeros gzip-encoded, no Content-Length
  /sse            three server-sent events 150 ms apart, chunked
  /slow           headers after 3 s
  /sleep          200 ms, then 200; counts requests in flight per Host
  /stats          {"max": N, "max_by_host": {...}, "starts": {host: [t...]}}
Requests in absolute form (through a proxy) are served by their path and
counted in "proxied".
"""
import argparse
import gzip
import http.server
import json
import socketserver
import threading
import time
from email.utils import formatdate

lock = threading.Lock()
state = {"cur": 0, "max": 0, "by_host": {}, "max_by_host": {}, "starts": {},
         "proxied": 0}
BOMB = gzip.compress(b"\0" * (1 << 20))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def send(self, status, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def route(self):
        path = self.path
        if path.startswith("http://"):
            with lock:
                state["proxied"] += 1
            path = "/" + path.split("/", 3)[3]
        return path.split("?", 1)[0]

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        self.send(200, body, [("X-Auth", self.headers.get("Authorization", "")),
                              ("Content-Type", "application/json")])

    def do_GET(self):
        path = self.route()
        host = self.headers.get("Host", "")
        if path == "/hello":
            return self.send(200, b"hello\n", [("X-Test", "a"),
                                               ("Content-Type", "text/plain")])
        if path == "/redirect":
            return self.send(302, b"", [("Location", "/hello")])
        if path == "/retry-date":
            return self.send(503, b"busy\n", [("Retry-After",
                                               formatdate(time.time() + 3, usegmt=True))])
        if path == "/big":
            return self.send(200, b"x" * 10000)
        if path == "/gzip-bomb":
            self.send_response(200)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(BOMB)
            self.close_connection = True
            return
        if path == "/sse":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(3):
                ev = b"data: %d\n\n" % i
                self.wfile.write(b"%x\r\n%s\r\n" % (len(ev), ev))
                self.wfile.flush()
                time.sleep(0.15)
            self.wfile.write(b"0\r\n\r\n")
            return
        if path == "/slow":
            time.sleep(3)
            return self.send(200, b"late\n")
        if path == "/sleep":
            with lock:
                state["cur"] += 1
                state["max"] = max(state["max"], state["cur"])
                c = state["by_host"].get(host, 0) + 1
                state["by_host"][host] = c
                state["max_by_host"][host] = max(state["max_by_host"].get(host, 0), c)
                state["starts"].setdefault(host, []).append(time.monotonic())
            time.sleep(0.2)
            with lock:
                state["cur"] -= 1
                state["by_host"][host] -= 1
            return self.send(200, b"slept\n")
        if path == "/stats":
            with lock:
                body = json.dumps(state).encode()
            return self.send(200, body)
        return self.send(404, b"not found\n")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass    # clients that stop reading (the abort test) are expected


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    a = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(a.port_file + ".tmp", a.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
