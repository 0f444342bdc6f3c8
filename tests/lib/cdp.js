// cdp.js - a small client of Chromium's DevTools protocol for the browser
// tests (https://chromedevtools.github.io/devtools-protocol/), over node's
// own WebSocket (node --experimental-websocket); tests/lib/chromium.sh starts
// the browser and gives the port.
//
//   const { tab } = require(".../tests/lib/cdp.js");
//   const t = await tab(port, { downloads: DIR });
//   await t.open("file:///.../page.html", 1280, 900);
//   const v = await t.evaluate("document.title");
//   await t.key("Enter");  await t.shot(FILE);  t.events.exceptions ...
//
// tab() opens one page target with Page, Runtime, Network and Log enabled
// and collects the page's requests, console messages, exceptions and loads
// in t.events; evaluate() returns a value (promises awaited) and throws on
// an exception in the page; close() ends the connection.  connect(port)
// alone gives { ws, send, listeners } for a test that drives targets itself;
// until(f, ms, what) waits for a condition of the test's own side.
"use strict";
const fs = require("fs");

async function connect(port) {
  const v = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const ws = new WebSocket(v.webSocketDebuggerUrl);
  await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error("cannot connect to " + v.webSocketDebuggerUrl)); });
  let id = 0;
  const pending = new Map(), listeners = [];
  ws.onmessage = (m) => {
    const msg = JSON.parse(typeof m.data === "string" ? m.data : m.data.toString());
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.rej(new Error(p.method + ": " + JSON.stringify(msg.error)));
      else p.res(msg.result);
    } else if (msg.method) {
      listeners.forEach((l) => l(msg));
    }
  };
  const send = (method, params = {}, sessionId) => new Promise((res, rej) => {
    const m = { id: ++id, method, params };
    if (sessionId) m.sessionId = sessionId;
    pending.set(m.id, { res, rej, method });
    ws.send(JSON.stringify(m));
  });
  return { ws, send, listeners };
}

const KEYS = { Enter: 13, Tab: 9, Escape: 27, ArrowLeft: 37, ArrowRight: 39, " ": 32 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The first truthy value of await f(), tried every 50 ms for up to ms
// milliseconds; else an error naming what was waited for.
async function until(f, ms, what) {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v)
      return v;
    if (Date.now() - t0 > ms)
      throw new Error("timeout waiting for " + what);
    await sleep(50);
  }
}

async function tab(port, opts = {}) {
  const c = await connect(port);
  if (opts.downloads)
    await c.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: opts.downloads });
  const { targetId } = await c.send("Target.createTarget", { url: "about:blank" });
  const { sessionId: s } = await c.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (m, p) => c.send(m, p, s);
  const events = { requests: [], console: [], exceptions: [], loaded: 0 };
  c.listeners.push((msg) => {
    if (msg.sessionId !== s) return;
    if (msg.method === "Network.requestWillBeSent") events.requests.push(msg.params.request.url);
    if (msg.method === "Log.entryAdded") events.console.push(msg.params.entry.text);
    if (msg.method === "Runtime.consoleAPICalled") events.console.push(JSON.stringify(msg.params.args.map((a) => a.value)));
    if (msg.method === "Runtime.exceptionThrown") events.exceptions.push(JSON.stringify(msg.params.exceptionDetails).slice(0, 400));
    if (msg.method === "Page.loadEventFired") events.loaded++;
  });
  for (const d of ["Page", "Runtime", "Network", "Log", "Performance"]) await send(d + ".enable");
  const t = {
    send, events, sleep,
    async evaluate(expr) {
      const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
      if (r.exceptionDetails) throw new Error("page: " + JSON.stringify(r.exceptionDetails).slice(0, 600));
      return r.result.value;
    },
    // Navigate and wait for the load event (up to 60 s).
    async open(url, w = 1280, h = 900) {
      await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: false });
      const before = events.loaded;
      await send("Page.navigate", { url });
      for (let i = 0; i < 1200 && events.loaded === before; i++) await sleep(50);
      if (events.loaded === before) throw new Error("no load event for " + url);
    },
    // A key pressed and released on whatever has the focus.
    async key(k) {
      const code = KEYS[k] || k.toUpperCase().charCodeAt(0);
      const base = { key: k, code: k === " " ? "Space" : k, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code };
      await send("Input.dispatchKeyEvent", Object.assign({ type: "keyDown" }, base, k.length === 1 ? { text: k } : k === "Enter" ? { text: "\r" } : {}));
      await send("Input.dispatchKeyEvent", Object.assign({ type: "keyUp" }, base));
    },
    // Wait until expr is truthy in the page (up to ms, 60 s by default: a
    // loaded machine is slow); returns its value.
    until(expr, ms = 60000) {
      return until(() => t.evaluate(expr), ms, expr);
    },
    async shot(file, full) {
      const r = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: !!full });
      fs.writeFileSync(file, Buffer.from(r.data, "base64"));
    },
    async metric(name) {
      const { metrics } = await send("Performance.getMetrics");
      const m = metrics.find((x) => x.name === name);
      return m ? m.value : null;
    },
    close() { c.ws.close(); },
  };
  return t;
}

module.exports = { tab, sleep, until, connect };
