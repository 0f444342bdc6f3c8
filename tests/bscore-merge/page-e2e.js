// page-e2e.js - drive bscore-merge's scoring pages in headless Chromium over
// the DevTools protocol (https://chromedevtools.github.io/devtools-protocol/),
// with node's own WebSocket (node --experimental-websocket), as a rater would:
// keyboard only, one page per pass of the context-collapse rubric.
//
// node --experimental-websocket page-e2e.js PORT PAGEDIR DOWNLOADDIR OUTDIR [SHOT.png]
// Prints one JSON object of observations on stdout; exits 1 on a failure to
// drive the page (the TAP script checks the observations and the exports).
"use strict";
const fs = require("fs");
const path = require("path");

const [port, pageDir, dlDir, outDir, shot] = process.argv.slice(2);
const PASSES = ["sheet-1-factual_accuracy", "sheet-2-hallucinations", "sheet-3-completeness", "sheet-4-citation_fidelity"];
const obs = { passes: {} };
const cdp = require(path.join(__dirname, "../lib/cdp.js"));
const { sleep, until } = cdp;

// The DevTools connection of tests/lib/cdp.js, with wait(): the next event
// METHOD whose params satisfy PRED, within MS milliseconds; and downloads:
// every Browser.download* event, kept, since a download's events can come
// while the keys that start it are still being sent (a waiter set after
// them would miss them).
async function connect() {
  const c = await cdp.connect(port);
  const waiters = [];
  const downloads = [];
  c.listeners.push((msg) => {
    if (msg.method && msg.method.startsWith("Browser.download"))
      downloads.push(msg);
    for (let i = 0; i < waiters.length; i++)
      if (waiters[i].method === msg.method && (!waiters[i].pred || waiters[i].pred(msg.params))) {
        waiters.splice(i, 1)[0].res(msg.params);
        i--;
      }
  });
  const wait = (method, pred, ms = 15000) => new Promise((res, rej) => {
    const w = { method, pred, res };
    waiters.push(w);
    setTimeout(() => { const i = waiters.indexOf(w); if (i >= 0) { waiters.splice(i, 1); rej(new Error("timeout waiting for " + method)); } }, ms);
  });
  return { ws: c.ws, send: c.send, wait, downloads };
}

const KEYCODES = { Enter: 13, Escape: 27, "-": 189 };
async function main() {
  const c = await connect();
  await c.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dlDir, eventsEnabled: true });
  const { targetId } = await c.send("Target.createTarget", { url: "about:blank" });
  const { sessionId: s } = await c.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (m, p) => c.send(m, p, s);
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Emulation.setDeviceMetricsOverride", { width: 1366, height: 768, deviceScaleFactor: 1, mobile: false });
  c.wait("Page.javascriptDialogOpening", null, 600000).then(() => send("Page.handleJavaScriptDialog", { accept: true })).catch(() => {});

  const evaluate = async (expr) => {
    const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error("page: " + JSON.stringify(r.exceptionDetails).slice(0, 400));
    return r.result.value;
  };
  const key = async (k) => {
    const code = /^[0-9]$/.test(k) ? "Digit" + k : k.length === 1 ? "Key" + k.toUpperCase() : k;
    const vk = KEYCODES[k] || (k.length === 1 ? k.toUpperCase().charCodeAt(0) : 0);
    const text = k === "Enter" ? "\r" : k.length === 1 ? k : undefined;
    await send("Input.dispatchKeyEvent", { type: "keyDown", key: k, code, windowsVirtualKeyCode: vk, text });
    await send("Input.dispatchKeyEvent", { type: "keyUp", key: k, code, windowsVirtualKeyCode: vk });
  };
  const type = (t) => send("Input.insertText", { text: t });
  const open = async (file) => {
    const loaded = c.wait("Page.loadEventFired", null);
    await send("Page.navigate", { url: "file://" + path.resolve(pageDir, file) });
    await loaded;
  };
  const reload = async () => {
    const loaded = c.wait("Page.loadEventFired", null);
    await send("Page.reload", {});
    await loaded;
  };
  const view = () => evaluate("window.ctxbenchPage.view()");

  let first = null, second = null, spotDiscrepancy = false;
  for (const [pi, base] of PASSES.entries()) {
    const o = obs.passes[base] = { spots: 0, problems: [] };
    await open(base + ".html");
    const ids = await evaluate("JSON.parse(document.getElementById('page-data').textContent).items.map(i => i.response_id)");
    first = ids[0];
    second = ids[1];
    o.total = ids.length;
    o.rater_prefilled = await evaluate("document.getElementById('rater').value");
    o.focus_order = await evaluate("Array.from(document.querySelectorAll('a,button,input,textarea,summary')).filter(e => !e.disabled && e.offsetParent !== null).length");
    o.unlabelled = await evaluate("Array.from(document.querySelectorAll('input,textarea')).filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.id)");
    let steps = 0, reloaded = false;
    const spotsSeen = new Set();
    for (;;) {
      const v = await view();
      if (++steps > 60) throw new Error(base + ": the page did not finish: " + JSON.stringify(v));
      if (!v.spot && v.done === v.total) break;
      if (pi === 0 && !reloaded && v.done === 3 && !v.spot) {
        reloaded = true;
        // localStorage.setItem returns before Chromium's storage service has
        // the write (the renderer sends it on asynchronously), so a reload
        // sent within milliseconds of the last key can load the state from
        // before it: under load, make check saw this.  A rater reloads
        // seconds later; the test reloads again, a few times, until the
        // state is back (the page does not write on load, so a stale load
        // loses nothing), and a state never back still fails.
        const before = await evaluate("JSON.stringify(window.ctxbenchPage.state())");
        let after, tries = 0;
        do {
          if (tries)
            await sleep(250);
          await reload();
          tries++;
          after = await evaluate("JSON.stringify(window.ctxbenchPage.state())");
        } while (after !== before && tries < 8);
        const v2 = await view();
        o.reload = { same_state: before === after, tries, done: v2.done, progress: await evaluate("document.getElementById('progress').textContent"),
          rater: await evaluate("document.getElementById('rater').value") };
        continue;
      }
      if (v.spot) spotsSeen.add(v.response_id + "@" + (await evaluate("window.ctxbenchPage.state().spot.pending.milestone")));
      o.spots = spotsSeen.size;
      const rid = v.response_id;
      if (base === PASSES[0]) {
        if (rid === first) {
          await key("2");
          await key("Enter");
          const p = (await view()).problems;
          if (!v.spot) {
            o.problems.push(p);
            o.focus_after_problem = await evaluate("document.activeElement.id");
          }
          await type("Names the fork but not libSQL.");
          await key("Escape");
        } else {
          await key("3");
        }
      } else if (base === PASSES[1]) {
        if (rid === first) {
          const span = await evaluate(`(() => { const r = document.getElementById('response'), t = r.firstChild;
            const rg = document.createRange(); rg.setStart(t, 0); rg.setEnd(t, Math.min(t.length, 40));
            const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(rg); return sel.toString().trim(); })()`);
          if (!v.spot) o.span = span;
          await key("h");
          await key("1");
          await type("An unsupported claim");
          await key("Escape");
          await key("Enter");
          if (!v.spot) o.problems.push((await view()).problems);
          await type("The source does not say this.");
          await key("Escape");
        } else {
          await key("0");
        }
      } else if (base === PASSES[2]) {
        if (v.spot && !spotDiscrepancy) {
          spotDiscrepancy = true;
          await key("0");
          await key("Enter");
          o.compare = await evaluate("document.getElementById('compare').hidden ? '' : document.getElementById('compare').textContent");
          o.compare_mode = (await view()).mode;
          await key("k");
          continue;
        }
        await key("1");
      } else {
        if (rid === second) {
          await key("n");
          await type("No attribution asked for.");
          await key("Escape");
          await key("-");
        } else {
          await key("2");
        }
      }
      await key("Enter");
    }
    o.state = await evaluate("window.ctxbenchPage.state()");
    if (base === PASSES[1]) {
      if (shot) {
        // Show a response with its record for the screenshot.
        await evaluate(`(() => { const i = JSON.parse(document.getElementById('page-data').textContent).items; return 0; })()`);
        await key("k"); await key("k"); await key("k"); await key("k"); await key("k"); await key("k"); await key("k"); await key("k");
        const png = await send("Page.captureScreenshot", { format: "png" });
        fs.writeFileSync(shot, Buffer.from(png.data, "base64"));
      }
      for (const f of await evaluate("window.ctxbenchPage.exportFiles('csv')"))
        fs.writeFileSync(path.join(outDir, f.name), f.text);
    }
    // Export through the page's own key and the browser's download: this
    // download (its guid and file name, from downloadWillBegin), completed,
    // and its file under that name.  Waiting for any "completed" event, then
    // listing the new files, could take another download's event, and find
    // this file still .crdownload or the last pass's file just renamed.
    const mark = c.downloads.length;
    await key("e");
    const begun = await until(() => c.downloads.slice(mark).find((m) => m.method === "Browser.downloadWillBegin"),
      15000, "Browser.downloadWillBegin");
    const { guid, suggestedFilename: name } = begun.params;
    await until(() => c.downloads.some((m) => m.method === "Browser.downloadProgress" &&
      m.params.guid === guid && m.params.state === "completed"), 15000, "the download's completion");
    o.download = await until(() => fs.existsSync(path.join(dlDir, name)) && [name], 15000, name);
    o.spot_log = (await evaluate("window.ctxbenchPage.state()")).spot.log.length;
  }
  // The other rubrics' pages: they render, take keys and refuse incomplete scores.
  obs.smoke = {};
  const errors = [];
  const onErr = () => c.wait("Runtime.exceptionThrown", null, 600000).then((p) => { errors.push(p.exceptionDetails.text); onErr(); }).catch(() => {});
  onErr();
  for (const extra of (process.env.BSM_SMOKE || "").split(" ").filter(Boolean)) {
    await open(extra);
    const r = { fields: await evaluate("document.querySelectorAll('#form fieldset').length") };
    await key("Enter");
    r.refused = (await view()).problems;
    await key("5");
    r.after_digit = await evaluate("JSON.stringify(window.ctxbenchPage.state().items)");
    r.errors = errors.slice();
    obs.smoke[path.basename(extra)] = r;
  }
  process.stdout.write(JSON.stringify(obs) + "\n");
  c.ws.close();
}

main().then(() => process.exit(0), (e) => { process.stderr.write("page-e2e: " + (e && e.stack || e) + "\n"); process.stdout.write(JSON.stringify(obs) + "\n"); process.exit(1); });
