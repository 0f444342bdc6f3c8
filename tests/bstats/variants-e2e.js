// variants-e2e.js - the results browser of a study with condition variants
// (issue 30) in headless Chromium (tests/lib/cdp.js): the model x condition
// grid has a column per variant beside A and B, and the page runs without
// a script error; the CSV export has the variants' columns (into DLDIR).
//
// node --experimental-websocket variants-e2e.js PORT PAGE DLDIR
// Prints one JSON object of observations on stdout (variants.t checks it).
"use strict";
const fs = require("fs");
const path = require("path");
const { tab, sleep } = require(path.join(__dirname, "..", "lib", "cdp.js"));

const [port, page, dlDir] = process.argv.slice(2);

(async () => {
  const t = await tab(port, { downloads: dlDir });
  await t.open("file://" + path.resolve(page), 1280, 900);
  const obs = {
    grid: await t.evaluate(`Array.from(document.querySelectorAll("#grid-table tr")).map((r) => Array.from(r.cells).map((c) => c.textContent))`),
    count: await t.evaluate(`document.getElementById("count").textContent`),
    rows: await t.evaluate(`document.querySelectorAll("#pair-rows tr.row").length`),
  };
  await t.evaluate(`document.getElementById("export").click()`);
  const file = path.join(dlDir, "ctxbench-pairs.csv");
  for (let i = 0; i < 600 && !fs.existsSync(file); i++) await sleep(100);
  obs.csv_file = fs.existsSync(file);
  obs.exceptions = t.events.exceptions;
  console.log(JSON.stringify(obs));
  t.close();
})().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
