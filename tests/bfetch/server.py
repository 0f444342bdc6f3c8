#!/usr/bin/env python3
"""Test HTTP server for bfetch (Python standard library only).

Serves the directory given by --root on 127.0.0.1 at a free port (written to
--port-file once listening) and injects faults on the /fault/ paths, one per
failure mode bfetch must classify.  Every request is logged to --log as
"TIME HOST PATH USER-AGENT" so tests can check what was (not) requested;
a request in absolute form (the server used as a proxy) is served by its
path and logged with " (via proxy)", or " (via proxy as USER:PASSWORD)"
with the Basic credentials it carried.
The Host header selects robots.txt behaviour: hosts starting "robots500."
get a 500 for /robots.txt, "norobots." a 404.
"""
import argparse
import base64
import gzip
import http.server
import os
import socket
import socketserver
import struct
import sys
import threading
import time

CHALLENGE = b"""<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><div id="challenge-body">Checking your browser before accessing the site.</div>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>
</body></html>"""

APP_SHELL = b"""<!DOCTYPE html><html><head><title>Docs</title>
<script src="/static/js/main.4f2a.js" defer></script></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div></body></html>"""

HTML_AS_MD = b"""<!DOCTYPE html><html><head><title>Page</title></head><body>
<h1>Not Markdown</h1><p>This server answers Markdown URLs with its HTML page.</p>
</body></html>"""

FLAKY_PAGE = b"""<!DOCTYPE html><html><head><title>Flaky</title></head><body>
<main><h1>Flaky page</h1><p>This page failed once with a 503 and then answered
normally, which is what a retry is for.</p></main></body></html>"""

TYPES = {".html": "text/html; charset=utf-8", ".md": "text/markdown; charset=utf-8",
         ".txt": "text/plain; charset=utf-8"}

_counts = {}
_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bfetch-test/1.0"
    # TCP_NODELAY, as production servers set it: headers and body go out in
    # two writes, and with Nagle the body would wait for the client's
    # delayed ACK (40 ms) on a busy keep-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def _log(self):
        host = self.headers.get("Host", "")
        ua = self.headers.get("User-Agent", "")
        with _lock:
            self.server.logf.write("%.3f %s %s %s%s\n" % (
                time.time(), host, self.path, ua, self._via()))
            self.server.logf.flush()

    def _via(self):
        """" (via proxy)", or " (via proxy as USER:PASSWORD)" when the
        request carried Basic proxy credentials (RFC 9110, 11.7.2)."""
        if not self.headers.get("X-Proxied"):
            return ""
        auth = self.headers.get("Proxy-Authorization", "")
        if auth.startswith("Basic "):
            cred = base64.b64decode(auth[6:]).decode("utf-8", "replace")
            return " (via proxy as %s)" % cred
        return " (via proxy)"

    def _send(self, status, body, ctype="text/html; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("http://"):
            # a request in absolute form: this server is acting as a proxy
            self.path = "/" + self.path.split("/", 3)[3]
            self.headers["X-Proxied"] = "1"
        self._log()
        host = self.headers.get("Host", "")
        path = self.path.split("?", 1)[0]
        if path == "/robots.txt" and host.startswith("robots500."):
            return self._send(500, b"server error\n", "text/plain")
        if path == "/robots.txt" and host.startswith("norobots."):
            return self._send(404, b"not found\n", "text/plain")
        port = self.server.server_address[1]
        if path == "/robots.txt" and host.startswith("robotsredir."):
            # robots.txt that redirects to another host's robots.txt
            return self._send(301, b"", headers=[
                ("Location", "http://other.test:%d/robots.txt" % port)])
        if path == "/robots.txt" and host.startswith("other."):
            return self._send(200, b"User-agent: *\nDisallow: /docs/guide.html\n",
                              "text/plain")
        if path == "/robots.txt" and host.startswith("robotsloop."):
            return self._send(302, b"", headers=[("Location", "/robots.txt")])
        if path == "/robots.txt" and host.startswith("crawl."):
            return self._send(200, b"User-agent: *\nCrawl-delay: 0.6\n", "text/plain")
        if path.startswith("/fault/"):
            return self.fault(path[len("/fault/"):])
        return self.static(path)

    def static(self, path):
        rel = os.path.normpath(path.lstrip("/"))
        if rel.startswith("..") or os.path.isabs(rel):
            return self._send(400, b"bad path\n", "text/plain")
        full = os.path.join(self.server.root, rel)
        if os.path.isdir(full):
            full = os.path.join(full, "index.html")
        if not os.path.isfile(full):
            return self._send(404, b"<html><body><h1>404 Not Found</h1></body></html>")
        with open(full, "rb") as f:
            body = f.read()
        st = os.stat(full)
        ext = os.path.splitext(full)[1]
        self._send(200, body, TYPES.get(ext, "application/octet-stream"), [
            ("Last-Modified", self.date_time_string(int(st.st_mtime))),
            ("ETag", '"%x-%x"' % (int(st.st_mtime), st.st_size))])

    def fault(self, name):
        if name == "slow-headers":
            time.sleep(5)
            return self._send(200, b"<html><body>late</body></html>")
        if name == "stall-body":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"<html><body>" + b"x" * 500)
            self.wfile.flush()
            time.sleep(5)
            self.close_connection = True
            return
        if name == "reset":
            # SO_LINGER 0: close() sends a TCP RST instead of a FIN
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        if name == "cf-challenge":
            return self._send(403, CHALLENGE, headers=[
                ("Server", "cloudflare"), ("CF-RAY", "8a1b2c3d4e5f6a7b-AMS"),
                ("cf-mitigated", "challenge")])
        if name == "akamai":
            return self._send(403, b"<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>"
                              b"You don't have permission. Reference #18.1</BODY></HTML>",
                              headers=[("Server", "AkamaiGHost")])
        if name == "429":
            return self._send(429, b"slow down\n", "text/plain", [("Retry-After", "120")])
        if name == "500":
            return self._send(500, b"<html><body>oops</body></html>")
        if name == "loop":
            return self._send(302, b"", headers=[("Location", "/fault/loop")])
        if name == "ftp":
            return self._send(302, b"", headers=[("Location", "ftp://127.0.0.1/file.html")])
        port = self.server.server_address[1]
        host = self.headers.get("Host", "")
        if name == "to-private":
            return self._send(302, b"", headers=[("Location", "/private/secret.html")])
        if name == "cross-ok":
            return self._send(302, b"", headers=[
                ("Location", "http://b.test:%d/docs/index.html" % port)])
        if name == "cross-private":
            # via a second host to a disallowed path on a third
            return self._send(302, b"", headers=[
                ("Location", "http://b.test:%d/fault/to-c-private" % port)])
        if name == "to-c-private":
            return self._send(302, b"", headers=[
                ("Location", "http://c.test:%d/private/secret.html" % port)])
        if name == "cross-loop":
            other = "127.0.0.1" if host.startswith("b.test") else "b.test"
            return self._send(302, b"", headers=[
                ("Location", "http://%s:%d/fault/cross-loop" % (other, port))])
        if name == "md-as-html.md":
            return self._send(200, b"# Install\n\nRun the installer:\n\n- download\n"
                              b"- run `setup`\n\nSee [the guide](guide.md).\n")
        if name == "503-date":
            with _lock:
                n = _counts.get(self.path, 0)
                _counts[self.path] = n + 1
            if n == 0:
                return self._send(503, b"<html><body>busy</body></html>", headers=[
                    ("Retry-After", self.date_time_string(int(time.time()) + 2))])
            return self._send(200, FLAKY_PAGE)
        if name == "redirect":
            return self._send(301, b"", headers=[("Location", "/docs/index.html")])
        if name == "gzip-bomb":
            body = gzip.compress(b"\0" * (8 << 20), 9)
            return self._send(200, body, headers=[("Content-Encoding", "gzip")])
        if name == "gzip-page.html":
            # a normal compressed response: stored decoded
            with open(os.path.join(self.server.root, "docs", "guide.html"), "rb") as f:
                body = gzip.compress(f.read())
            return self._send(200, body, headers=[("Content-Encoding", "gzip")])
        if name == "huge":
            return self._send(200, b"<html><body>" + b"y" * (3 << 20))
        if name == "wrong-length":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b"<html><body>short</body></html>")
            self.close_connection = True
            return
        if name == "app-shell.html":
            return self._send(200, APP_SHELL)
        if name == "html.md":
            return self._send(200, HTML_AS_MD)
        if name == "empty":
            return self._send(200, b"")
        if name == "flaky":
            with _lock:
                n = _counts.get(self.path, 0)
                _counts[self.path] = n + 1
            if n == 0:
                return self._send(503, b"<html><body>busy</body></html>")
            return self._send(200, FLAKY_PAGE)
        return self._send(404, b"<html><body>no such fault</body></html>")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

    def handle_error(self, request, client_address):
        # clients that stop reading (body caps, timeouts) are expected here
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class ForkingServer(socketserver.ForkingMixIn, http.server.HTTPServer):
    """One process per connection (for the benchmark: no GIL between clients)."""
    request_queue_size = 1024
    max_children = 1024

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", default=os.devnull)
    ap.add_argument("--fork", action="store_true",
                    help="a process per connection instead of a thread")
    a = ap.parse_args()
    srv = (ForkingServer if a.fork else Server)(("127.0.0.1", 0), Handler)
    srv.root = os.path.abspath(a.root)
    srv.logf = open(a.log, "a")
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, a.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
