#!/usr/bin/env python3
"""serve.py - serve the example documentation site on 127.0.0.1 for the demo.

    serve.py [--port N] [--port-file FILE] [--root DIR]

The site is the one make builds from examples/site (build.py) into
$CTXBENCH_BUILD/site, else build/site of this tree, unless --root names
another.  Port 0 (the default) picks a free port and writes it to
--port-file.  The
site's canonical origin in served text is replaced with this server's, so
llms.txt links point back here.  Like a real documentation host it answers
with Last-Modified and ETag headers, keeps connections alive, serves
robots.txt, and has the traps of a real site: the HTML page
/docs/reference/api answers 403 with a bot-protection challenge, as a web
application firewall does for automated clients.
Standard library only.
"""
import argparse
import hashlib
import http.server
import os
import socketserver
import sys

ORIGIN = b"https://docs.ctxbench.example"
BOT_WALL = {"/docs/reference/api"}
# Last-Modified dates: HTML pages were updated after their Markdown twins;
# the drifted twin is much older.
DATES = {
    "html": "Thu, 20 Nov 2026 10:00:00 GMT",
    "md": "Mon, 10 Nov 2026 09:30:00 GMT",
    "/docs/reference/config.md": "Wed, 01 Oct 2026 08:00:00 GMT",
}
CHALLENGE = b"""<!DOCTYPE html><html lang="en"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"><meta name="robots" content="noindex,nofollow">
</head><body><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">docs.ctxbench.example</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
<div id="challenge-body-text" class="core-msg spacer">docs.ctxbench.example needs to review the security of your connection before proceeding.</div>
</div></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8f2a"></script></body></html>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ctxbench-example/1.0"

    server_name_override = None

    def version_string(self):
        return self.server_name_override or super().version_string()

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("serve: " + (fmt % args) + "\n")

    def resolve(self, path):
        root = self.server.root
        path = path.split("?", 1)[0].split("#", 1)[0]
        if ".." in path.split("/"):
            return None, None
        if path in ("/", "/docs"):
            path = "/docs/"
        if path.endswith("/"):
            cand, kind = path + "index.html", "html"
        elif path.endswith(".md"):
            cand, kind = path, "md"
        elif path.endswith(".txt"):
            cand, kind = path, "txt"
        elif path.startswith("/assets/"):
            cand, kind = path, "asset"
        else:
            cand, kind = path + ".html", "html"
        full = os.path.join(root, cand.lstrip("/"))
        if not os.path.isfile(full):
            return None, None
        return full, kind

    def send_body(self, status, body, ctype, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in BOT_WALL:
            self.server_name_override = "cloudflare"
            self.send_body(403, CHALLENGE, "text/html; charset=UTF-8", [
                ("cf-ray", "8f2a61d3be7c4a1e-FRA"),
                ("cf-mitigated", "challenge"), ("Cache-Control", "private, max-age=0, no-store")])
            return
        full, kind = self.resolve(path)
        if full is None:
            self.send_body(404, b"<!DOCTYPE html><title>404 Not Found</title><h1>Page not found</h1>\n",
                           "text/html; charset=utf-8")
            return
        with open(full, "rb") as f:
            body = f.read().replace(ORIGIN, self.server.origin)
        ctype = {"html": "text/html; charset=utf-8", "md": "text/markdown; charset=utf-8",
                 "txt": "text/plain; charset=utf-8"}.get(kind)
        if ctype is None:
            ctype = "text/css" if full.endswith(".css") else "application/javascript"
        date = DATES.get(path, DATES["md"] if kind in ("md", "txt") else DATES["html"])
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_body(200, body, ctype, [("Last-Modified", date), ("ETag", etag)])


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def default_root():
    """The site make builds: $CTXBENCH_BUILD/site, else build/site of the tree."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(os.environ.get("CTXBENCH_BUILD") or os.path.join(top, "build"), "site")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--root", default=default_root())
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.root, "llms.txt")):
        sys.exit("serve.py: %s: no example site there (make builds it, or "
                 "examples/site/build.py DIR)" % a.root)
    srv = Server(("127.0.0.1", a.port), Handler)
    port = srv.server_address[1]
    srv.root = a.root
    srv.origin = ("http://127.0.0.1:%d" % port).encode()
    srv.verbose = a.verbose
    if a.port_file:
        tmp = a.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, a.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
