#!/usr/bin/python3
"""What a reader of a built page sees, from headless Chromium.

usage: oracle.py SITE_DIR PAGE [--screenshot PNG]

Serves SITE_DIR on a loopback port (the generators' pages load their
styles from absolute paths), loads PAGE in headless Chromium with a small
script added, and prints a JSON object: "pre", the text of every rendered
<pre> after the page's CSS and JavaScript ran, as the selection of its
whole content gives it (what a reader copying the code gets), and
"headings", the innerText of every rendered h1-h6 of the page's main
content (<main>, role="main" or <article>)
(anchor glyphs that the page's CSS hides are not in it).  With --screenshot,
also writes a full-page PNG to look at.  Used by rebuild.sh to check the
expected texts; never by make check.
"""
import functools
import html
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

PROBE = """<script>
window.addEventListener('load', function () {
  setTimeout(function () {
    var vis = function (e) { return e.getClientRects().length > 0; };
    var out = {
      pre: Array.from(document.querySelectorAll('pre')).filter(vis).map(function (e) {
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.selectAllChildren(e);
        var s = sel.toString();
        sel.removeAllRanges();
        return s;
      }),
      headings: Array.from(document.querySelectorAll(
        'main h1,main h2,main h3,main h4,main h5,main h6,' +
        '[role=main] h1,[role=main] h2,[role=main] h3,[role=main] h4,[role=main] h5,[role=main] h6,' +
        'article h1,article h2,article h3,article h4,article h5,article h6')).filter(vis).map(function (e) { return e.innerText; })
    };
    var t = document.createElement('textarea');
    t.id = '__oracle';
    t.hidden = true;
    t.textContent = JSON.stringify(out);
    document.body.appendChild(t);
  }, 500);
});
</script>"""

CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--no-first-run"]


def main():
    site, page = sys.argv[1], sys.argv[2]
    shot = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--screenshot" else None
    src = open(os.path.join(site, page), encoding="utf-8").read()
    probed = src.replace("</body>", PROBE + "</body>", 1).encode("utf-8")
    # the page is served at its own path with the probe added, so that
    # client-side routers (Docusaurus) still find it
    path = "/" + page.replace(os.sep, "/")
    paths = {path, path[:-len("index.html")] if path.endswith("/index.html") else path}

    class Probed(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.split("?")[0] in paths:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(probed)))
                self.end_headers()
                self.wfile.write(probed)
                return
            super().do_GET()
    handler = functools.partial(Probed, directory=site)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d%s" % (srv.server_address[1], path)
    try:
        with tempfile.TemporaryDirectory() as prof:
            args = CHROMIUM + ["--user-data-dir=" + prof, "--virtual-time-budget=5000"]
            dom = subprocess.run(args + ["--dump-dom", url], capture_output=True,
                                 timeout=120, check=True).stdout.decode("utf-8")
            if shot:
                subprocess.run(args + ["--window-size=1100,4200", "--screenshot=" + shot,
                                       "--hide-scrollbars", url],
                               capture_output=True, timeout=120, check=True)
    finally:
        srv.shutdown()
    if os.environ.get("ORACLE_DEBUG"):
        sys.stderr.write(dom[-3000:])
    m = re.search(r'<textarea id="__oracle"[^>]*>(.*?)</textarea>', dom, re.S)
    if not m:
        sys.exit("oracle.py: %s: the probe did not run" % page)
    print(html.unescape(m.group(1)))


if __name__ == "__main__":
    main()
