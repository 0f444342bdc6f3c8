// html-e2e.js - the results browser of bstats --html used as a researcher
// uses it, in headless Chromium (tests/lib/cdp.js): search, the URL
// fragment, the CSV export, the model x condition grid, a pair's evidence
// and transcript, changed facts, the compare view, with the keyboard.
//
// node --experimental-websocket html-e2e.js PORT SCENARIO PAGE SHOTDIR [DLDIR]
//   hostile  PAGE from html-gen.py ... hostile (DLDIR receives the CSV)
//   compare  PAGE written with --compare
//   demo     PAGE = make demo's examples/out/results.html
//   large    PAGE of the generated full-size study: time and memory
// Prints one JSON object of observations on stdout (html-browser.t checks
// them); screenshots go to SHOTDIR.
"use strict";
const fs = require("fs");
const path = require("path");
const { tab, sleep } = require(path.join(__dirname, "..", "lib", "cdp.js"));

const [port, scenario, page, shotDir, dlDir] = process.argv.slice(2);
const url = "file://" + path.resolve(page);
const obs = {};
const J = JSON.stringify;

// Expressions run in the page.
const COUNT = `document.getElementById("count").textContent`;
const ROWS = `Array.from(document.querySelectorAll("#pair-rows tr.row")).map((r) => Array.from(r.cells).map((c) => c.textContent))`;
const OPEN = `(() => { const r = document.querySelector("#pair-rows tr.row[aria-expanded=true]"); return r ? Array.from(r.cells).slice(0, 3).map((c) => c.textContent) : null; })()`;
const HANDLERS = `Array.from(document.querySelectorAll("*")).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).length`;
const INJECTED = `({ imgs: document.querySelectorAll("img").length, scripts: document.querySelectorAll("script").length, pwned: typeof window.__pwned !== "undefined" })`;
const change = (id, v) => `(() => { const e = document.getElementById(${J(id)}); e.value = ${J(v)}; e.dispatchEvent(new Event("change")); return document.getElementById("count").textContent; })()`;
const DETAIL = `document.querySelector("#pair-rows tr.detail")`;
// The open detail's evidence: facts, marks, credit lines, responses.
const EVIDENCE = `(() => {
  const d = ${DETAIL};
  const marks = (sel) => Array.from(d.querySelectorAll(sel)).map((m) => m.textContent);
  return {
    question: d.querySelector(".question").textContent,
    gold_marks: marks(".gold mark.term"),
    facts: Array.from(d.querySelectorAll(".changed-facts tbody tr")).map((r) => Array.from(r.cells).map((c) => c.querySelector("code") ? c.querySelector("code").textContent : c.textContent)),
    facts_kv: Array.from(d.querySelectorAll(".facts dl dt")).map((t) => t.textContent + ": " + t.nextSibling.textContent),
    credit: Array.from(d.querySelectorAll(".side p.credit")).map((p) => p.textContent),
    notes: Array.from(d.querySelectorAll(".side > dl.kv dt")).filter((t) => t.textContent === "rater's notes").map((t) => t.nextSibling.textContent),
    credited_a: marks(".side.a pre.response mark.credited"),
    credited_b: marks(".side.b pre.response mark.credited"),
    responses: marks("pre.response"),
    context_terms_a: marks(".side.a details.content mark.term").length,
    permalink: d.querySelector("a.permalink").getAttribute("href"),
    other: Array.from(d.querySelectorAll("dl.other-run")).map((x) => x.textContent),
  };
})()`;
const TRANSCRIPT = `(() => {
  const d = ${DETAIL}, p = Array.from(d.querySelectorAll("[role=tabpanel]")).find((x) => !x.hidden);
  const side = (c) => {
    const s = p.querySelector(".transcript." + c), rec = {};
    s.querySelectorAll("dl.record dt").forEach((t) => { rec[t.textContent] = t.nextSibling.textContent; });
    const u = s.querySelector("details.prompt-user");
    if (u) u.open = true;
    const body = s.querySelector("pre.request-body"), parsed = (() => { try { return JSON.parse(body.textContent); } catch (e) { return null; } })();
    return { note: (s.querySelector("p.note") || {}).textContent, system: (s.querySelector("pre.prompt-system") || {}).textContent,
      body: body ? body.textContent : null, body_system: parsed ? parsed.messages[0].content : null,
      body_user: parsed ? parsed.messages[parsed.messages.length - 1].content : null, body_lines: body ? body.textContent.split("\\n").length : 0,
      request_missing: (s.querySelector("p.request-missing") || {}).textContent,
      user_summary: u ? u.querySelector("summary").textContent : null, user: u && u.querySelector("pre") ? u.querySelector("pre").textContent : null,
      raw: (s.querySelector("pre.response-raw") || Array.from(s.querySelectorAll("h5 + p.missing")).pop() || {}).textContent, record: rec };
  };
  return { tab: document.activeElement.textContent, a: side("a"), b: side("b") };
})()`;

// Type into the search field and press Enter (the form's submit, which
// searches at once instead of after the typing pause).
async function search(t, text) {
  await t.evaluate(`(() => { const e = document.getElementById("f-search"); e.value = ${J(text)}; e.dispatchEvent(new Event("input"));
    document.getElementById("filters").requestSubmit(); })()`);
  return { count: await t.evaluate(COUNT), rows: (await t.evaluate(ROWS)).map((r) => r.slice(0, 3).join(" | ")) };
}

// Open the pair of fragment hash by loading the page with it.
async function openByHash(t, hash) {
  await t.open("about:blank");
  await t.open(url + hash);
  await t.until(`document.body.dataset.ready`);
  return t.evaluate(OPEN);
}

async function hostile(t) {
  await t.open(url);
  await t.until(`document.body.dataset.ready`);
  obs.count = await t.evaluate(COUNT);
  obs.grid = await t.evaluate(`Array.from(document.querySelectorAll("#grid-table tr")).map((r) => Array.from(r.cells).map((c) => c.textContent))`);
  await t.evaluate(`document.getElementById("grid").scrollIntoView()`);
  await t.shot(path.join(shotDir, "html-grid.png"));
  // A grid cell, reached with the keyboard, filters the table.
  obs.grid_click = await t.evaluate(`(() => { const b = document.querySelector("#grid-table button.cell[data-model='model-00']"); b.focus(); return b.dataset.model; })()`);
  await t.key("Enter");
  obs.grid_filtered = { model: await t.evaluate(`document.getElementById("f-model").value`), count: await t.evaluate(COUNT),
    models: Array.from(new Set((await t.evaluate(ROWS)).map((r) => r[2]))) };
  await t.evaluate(change("f-model", ""));
  // Search.
  obs.search_context = await search(t, "needle-context-q1");
  obs.search_response = await search(t, "NEEDLE-RESPONSE-Q4");
  obs.search_gold = await search(t, "=hyperlink");
  obs.search_none = await search(t, "no such words anywhere");
  await search(t, "");
  // Filters and sort into the fragment; the fragment back into a fresh page.
  await t.evaluate(change("f-site", "S001"));
  await t.evaluate(change("f-metric", "tok"));
  await t.evaluate(change("f-sort", "desc"));
  obs.hash_written = await t.evaluate(`location.hash`);
  obs.restored_open = await openByHash(t, obs.hash_written + "&pair=S001/S001-Q01/model-02");
  obs.restored = await t.evaluate(`({ site: document.getElementById("f-site").value, metric: document.getElementById("f-metric").value,
    sort: document.getElementById("f-sort").value, count: ${COUNT}, hash: location.hash,
    focused: document.activeElement.classList.contains("row") })`);
  // A hostile pair by its permalink.
  const evil = '<img src=x onerror="window.__pwned=1">';
  const hash = "#pair=" + [evil, "S002-Q01", "m<b>1</b>"].map(encodeURIComponent).join("/");
  obs.hostile_open = await openByHash(t, hash);
  obs.hostile_evidence = await t.evaluate(EVIDENCE);
  // Q0 of model-00: the changed facts, located in both contexts.
  obs.q0_open = await openByHash(t, "#pair=S001/S001-Q01/model-00");
  obs.q0 = await t.evaluate(EVIDENCE);
  obs.located = await t.evaluate(`(() => {
    const d = ${DETAIL}, out = {};
    d.querySelectorAll("button.locate").forEach((b) => {
      b.click();
      const m = d.querySelector(".side." + b.dataset.cond.toLowerCase() + ' mark[data-fact="' + b.dataset.fact + '"]');
      out[b.dataset.fact + b.dataset.cond] = m ? { text: m.textContent, near: m.parentNode.textContent.slice(Math.max(0, m.parentNode.textContent.indexOf(m.textContent) - 60), m.parentNode.textContent.indexOf(m.textContent)).length > 0, cls: m.className } : b.textContent;
    });
    return out;
  })()`);
  obs.fact_marks = await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("mark.fact")).map((m) => m.className + ":" + m.textContent)`);
  await t.evaluate(`${DETAIL}.querySelector("button.locate").scrollIntoView({ block: "center" })`);
  await t.shot(path.join(shotDir, "html-evidence.png"));
  // The transcript tab, with the keyboard: focus Evidence, ArrowRight.
  await t.evaluate(`${DETAIL}.querySelector("button.tab").focus()`);
  await t.key("ArrowRight");
  obs.transcript = await t.evaluate(TRANSCRIPT);
  await t.evaluate(`${DETAIL}.scrollIntoView()`);
  await t.shot(path.join(shotDir, "html-transcript.png"));
  // Q4 (raw answer with thinking) and Q6 (an error with a bearer token).
  await openByHash(t, "#pair=S001/S001-Q05/model-00");
  await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("button.tab"))[1].click()`);
  obs.transcript_q4 = await t.evaluate(TRANSCRIPT);
  await openByHash(t, "#pair=S001/S001-Q07/model-00");
  await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("button.tab"))[1].click()`);
  obs.transcript_q6 = await t.evaluate(TRANSCRIPT);
  // Q2 of model-00: an answer from binfer's cache.
  await openByHash(t, "#pair=S001/S001-Q02/model-00");
  await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("button.tab"))[1].click()`);
  obs.transcript_hit = await t.evaluate(TRANSCRIPT);
  await t.evaluate(`${DETAIL}.querySelector(".transcript.a dl.record").scrollIntoView({ block: "center" })`);
  await t.shot(path.join(shotDir, "html-transcript-record.png"));
  // Q8: records merged without --keep-texts, no body.
  await openByHash(t, "#pair=S001/S001-Q08/model-00");
  await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("button.tab"))[1].click()`);
  obs.transcript_nobody = await t.evaluate(TRANSCRIPT);
  // A row opened and closed with the keyboard.
  await t.open(url);
  await t.until(`document.body.dataset.ready`);
  await t.evaluate(`document.querySelector("#pair-rows tr.row").focus()`);
  await t.key("Enter");
  obs.key_open = { expanded: await t.evaluate(`document.querySelector("#pair-rows tr.row").getAttribute("aria-expanded")`), hash: await t.evaluate(`location.hash`) };
  await t.key("Enter");
  obs.key_close = { expanded: await t.evaluate(`document.querySelector("#pair-rows tr.row").getAttribute("aria-expanded")`), hash: await t.evaluate(`location.hash`) };
  // CSV of the filtered rows, downloaded as a user downloads it.
  await t.evaluate(change("f-site", "S001"));
  obs.csv_count = await t.evaluate(COUNT);
  await t.evaluate(`document.getElementById("export").click()`);
  const file = path.join(dlDir, "ctxbench-pairs.csv");
  for (let i = 0; i < 600 && !fs.existsSync(file); i++) await sleep(100);
  obs.csv_file = fs.existsSync(file);
  obs.injected = await t.evaluate(INJECTED);
  obs.handlers = await t.evaluate(HANDLERS);
}

async function compare(t) {
  await t.open(url);
  await t.until(`document.body.dataset.ready`);
  obs.count = await t.evaluate(COUNT);
  obs.compare = await t.evaluate(`(() => {
    const c = document.getElementById("compare");
    const tables = Array.from(c.querySelectorAll("h3")).map((h) => ({ title: h.textContent,
      rows: Array.from(h.nextElementSibling.querySelectorAll("tbody tr")).map((r) => ({ cls: r.className, cells: Array.from(r.cells).map((x) => x.textContent) })) }));
    return { hidden: c.hidden, nav: !document.getElementById("nav-compare").hidden, title: c.querySelector("h2").textContent,
      summary: c.querySelector(".compare-summary").textContent, tables };
  })()`);
  await t.evaluate(`document.getElementById("compare").scrollIntoView()`);
  await t.shot(path.join(shotDir, "html-compare.png"));
  // The first differing rating's link opens that pair, with the other run's scores.
  obs.link = await t.evaluate(`(() => { const a = document.querySelector("#compare table a"); a.click(); return a.textContent; })()`);
  await t.until(`document.querySelector("#pair-rows tr.detail")`);
  obs.opened = await t.evaluate(OPEN);
  obs.evidence = await t.evaluate(EVIDENCE);
  obs.injected = await t.evaluate(INJECTED);
  obs.handlers = await t.evaluate(HANDLERS);
}

// make demo's page: every pair's credited terms against the rater's notes.
async function demo(t) {
  await t.open(url);
  await t.until(`document.body.dataset.ready`);
  obs.count = await t.evaluate(COUNT);
  obs.pairs = await t.evaluate(`(() => {
    const out = [];
    for (const r of Array.from(document.querySelectorAll("#pair-rows tr.row"))) {
      r.click();
      const ev = ${EVIDENCE.replace(/\n/g, " ")};
      const d = ${DETAIL};
      out.push({ id: Array.from(r.cells).slice(0, 3).map((c) => c.textContent).join(" "), credit: ev.credit, notes: ev.notes, facts: ev.facts,
        contents: Array.from(d.querySelectorAll("details.content summary")).map((s) => s.textContent), credited: ev.credited_a.length + ev.credited_b.length });
      r.click();
    }
    return out;
  })()`);
  const facts = obs.pairs.find((p) => p.facts.length);
  if (facts) {
    const [site, q, m] = facts.id.split(" ");
    await openByHash(t, "#pair=" + [site, q, m].map(encodeURIComponent).join("/"));
    obs.fact_marks = await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("mark.fact")).map((m) => m.className + ":" + m.textContent)`);
  }
  await openByHash(t, "#pair=" + (await t.evaluate(`encodeURIComponent(${J("S001")})`)) + "/S001-Q01/extractive-baseline");
  await t.evaluate(`Array.from(${DETAIL}.querySelectorAll("button.tab"))[1].click()`);
  obs.transcript = await t.evaluate(TRANSCRIPT);
  await t.shot(path.join(shotDir, "html-demo-transcript.png"));
  obs.exceptions = t.events.exceptions;
}

// The full-size study: load, interaction and memory, measured (not asserted).
async function large(t) {
  const t0 = Date.now();
  await t.open(url);
  await t.until(`document.body.dataset.ready`, 60000);
  obs.load_ms = Date.now() - t0;
  obs.heap_mb = Math.round((await t.metric("JSHeapUsedSize")) / 1048576);
  obs.nodes = await t.metric("Nodes");
  obs.count = await t.evaluate(COUNT);
  obs.rows = (await t.evaluate(ROWS)).length;
  let t1 = Date.now();
  obs.search = await search(t, "needle-context-q1");
  obs.search_ms = Date.now() - t1;
  await search(t, "");
  t1 = Date.now();
  obs.last_open = await openByHash(t, "#sort=desc&metric=tok&pair=S036/S036-Q06/model-19");
  obs.fragment_ms = Date.now() - t1;
  obs.heap_after_mb = Math.round((await t.metric("JSHeapUsedSize")) / 1048576);
  await t.shot(path.join(shotDir, "html-large.png"));
}

async function main() {
  const t = await tab(port, { downloads: dlDir });
  await { hostile, compare, demo, large }[scenario](t);
  obs.requests = t.events.requests.filter((u) => !u.startsWith("file://") && !u.startsWith("data:") && !u.startsWith("blob:") && u !== "about:blank");
  obs.exceptions = t.events.exceptions;
  obs.csp = t.events.console.filter((m) => /Content Security Policy|Refused/.test(m));
  process.stdout.write(JSON.stringify(obs) + "\n");
  t.close();
}

main().catch((e) => { process.stderr.write(String(e.stack || e) + "\n"); process.exit(1); });
