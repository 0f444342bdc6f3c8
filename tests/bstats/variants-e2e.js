// variants-e2e.js - the results browser of a study with condition variants
// (issue 30) in headless Chromium (tests/lib/cdp.js): the model x condition
// grid has a column per variant beside A and B, and the page runs without
// a script error.
//
// node --experimental-websocket variants-e2e.js PORT PAGE
// Prints one JSON object of observations on stdout (variants.t checks it).
"use strict";
const path = require("path");
const { tab } = require(path.join(__dirname, "..", "lib", "cdp.js"));

const [port, page] = process.argv.slice(2);

(async () => {
  const t = await tab(port);
  await t.open("file://" + path.resolve(page), 1280, 900);
  const obs = {
    grid: await t.evaluate(`Array.from(document.querySelectorAll("#grid-table tr")).map((r) => Array.from(r.cells).map((c) => c.textContent))`),
    count: await t.evaluate(`document.getElementById("count").textContent`),
    rows: await t.evaluate(`document.querySelectorAll("#pair-rows tr.row").length`),
  };
  obs.exceptions = t.events.exceptions;
  console.log(JSON.stringify(obs));
  t.close();
})().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
