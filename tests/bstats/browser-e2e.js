// browser-e2e.js - bstats' figures and results browser in headless Chromium
// over the DevTools protocol (https://chromedevtools.github.io/devtools-protocol/),
// with node's own WebSocket (node --experimental-websocket).
//
// node --experimental-websocket browser-e2e.js PORT PAGE.html FIGDIR SHOTDIR
// Prints one JSON object of observations on stdout (browser.t checks them);
// screenshots of every figure and of the page go to SHOTDIR.
"use strict";
const fs = require("fs");
const path = require("path");

const [port, page, figDir, shotDir] = process.argv.slice(2);
const obs = { figures: {}, page: {} };

const { tab } = require(path.join(__dirname, "../lib/cdp.js"));

async function main() {
  const t = await tab(port);
  const { events, evaluate, open } = t;
  const shot = (file) => t.shot(path.join(shotDir, file), true);

  // Figures: every text inside the figure, no two labels overlapping.
  for (const f of fs.readdirSync(figDir).filter((n) => n.endsWith(".svg")).sort()) {
    await open("file://" + path.resolve(figDir, f), 800, 900);
    obs.figures[f] = await evaluate(`(() => {
      const svg = document.documentElement, W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
      const boxes = Array.from(document.querySelectorAll("text")).map((t) => { const b = t.getBoundingClientRect(); return { t: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height }; });
      const outside = boxes.filter((b) => b.x < 0 || b.y < 0 || b.x + b.w > W + 0.5 || b.y + b.h > H + 0.5).map((b) => b.t);
      const overlaps = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1)
            overlaps.push(a.t + " / " + b.t);
        }
      return { texts: boxes.length, outside, overlaps, width: W, height: H };
    })()`);
    await shot(f.replace(/\.svg$/, ".png"));
  }

  // The results browser.
  events.requests = [];
  await open("file://" + path.resolve(page), 1280, 900);
  for (let i = 0; i < 1200 && !(await evaluate(`document.body.dataset.ready || ""`)); i++) await new Promise((r) => setTimeout(r, 50));
  const p = obs.page;
  p.requests = events.requests.filter((u) => !u.startsWith("file://") && !u.startsWith("data:"));
  p.report_headings = await evaluate(`document.querySelectorAll("#report h2, #report h3").length`);
  p.report_tables = await evaluate(`document.querySelectorAll("#report table").length`);
  p.sign = await evaluate(`document.getElementById("sign").textContent`);
  p.figures = await evaluate(`document.querySelectorAll("#figures svg").length`);
  p.count = await evaluate(`document.getElementById("count").textContent`);
  p.rows = await evaluate(`document.querySelectorAll("#pair-rows tr.row").length`);
  await shot("browser.png");
  const change = (id, value) => evaluate(`(() => { const e = document.getElementById(${JSON.stringify(id)}); e.value = ${JSON.stringify(value)}; e.dispatchEvent(new Event("change")); return document.getElementById("count").textContent; })()`);
  p.site_options = await evaluate(`Array.from(document.getElementById("f-site").options).map((o) => o.value).filter(Boolean)`);
  p.count_site = await change("f-site", "S1");
  p.sites_shown = await evaluate(`Array.from(new Set(Array.from(document.querySelectorAll("#pair-rows tr.row")).map((r) => r.cells[0].textContent)))`);
  await change("f-site", "");
  p.count_b = await change("f-outcome", "B");
  p.outcomes_b = await evaluate(`Array.from(new Set(Array.from(document.querySelectorAll("#pair-rows tr.row")).map((r) => r.cells[7].textContent)))`);
  await change("f-outcome", "");
  await change("f-metric", "tok");
  await change("f-sort", "desc");
  p.deltas_desc = await evaluate(`Array.from(document.querySelectorAll("#pair-rows tr.row")).map((r) => r.cells[6].textContent).filter((t) => t !== "–").map(Number)`);
  await change("f-sort", "id");
  await change("f-metric", "acc");
  // Open the hostile pair (its question carries markup) with the keyboard.
  p.opened = await evaluate(`(() => {
    const r = Array.from(document.querySelectorAll("#pair-rows tr.row")).find((r) => r.cells[0].textContent.includes("<"));
    if (!r) return null;
    r.focus();
    r.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    const d = r.nextSibling;
    return { expanded: r.getAttribute("aria-expanded"), question: d.querySelector(".question").textContent,
      responses: Array.from(d.querySelectorAll("pre.response")).map((e) => e.textContent),
      contents: Array.from(d.querySelectorAll("details.content summary")).map((e) => e.textContent),
      site_cell: r.cells[0].textContent };
  })()`);
  p.open_content = await evaluate(`(() => { const d = document.querySelector("details.content"); d.open = true; return d.querySelector("pre") ? d.querySelector("pre").textContent.length : 0; })()`);
  p.injected = await evaluate(`({ imgs: document.querySelectorAll("img").length, scripts: document.querySelectorAll("script").length, pwned: typeof window.__pwned !== "undefined" })`);
  await shot("browser-open.png");
  p.console = events.console;
  p.exceptions = events.exceptions;
  process.stdout.write(JSON.stringify(obs) + "\n");
  t.close();
}

main().catch((e) => { process.stderr.write(String(e.stack || e) + "\n"); process.exit(1); });
