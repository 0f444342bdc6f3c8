// browser.js - the results browser of bstats --html: the report rendered
// from its Markdown, and every pair of the study, filterable and sortable.
// Every string from the data reaches the page through textContent, never as
// markup; the page loads nothing (its Content-Security-Policy allows this
// script and its style by hash, and nothing else).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };

  // ------------------------------------------------ Markdown (the report)
  const ENT = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": "\"" };
  const PUNCT = " \t.,;:!?()[]{}\"'-";
  // Inline: \x escapes, **bold**, _italic_ (not inside words), `code`, entities.
  function inline(parent, s) {
    let cur = parent, text = "";
    const stack = [];
    const flush = () => { if (text) { cur.appendChild(document.createTextNode(text)); text = ""; } };
    const toggle = (tag) => {
      flush();
      if (stack.length && stack[stack.length - 1].tag === tag) {
        stack.pop();
        cur = stack.length ? stack[stack.length - 1].node : parent;
      } else {
        const n = el(tag);
        cur.appendChild(n);
        stack.push({ tag, node: n });
        cur = n;
      }
    };
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\" && i + 1 < s.length) { text += s[++i]; continue; }
      if (c === "&") {
        const m = /^&(lt|gt|amp|quot);/.exec(s.slice(i));
        if (m) { text += ENT[m[0]]; i += m[0].length - 1; continue; }
      }
      if (c === "*" && s[i + 1] === "*") { toggle("strong"); i++; continue; }
      if (c === "`") { toggle("code"); continue; }
      if (c === "_") {
        const before = i === 0 || PUNCT.includes(s[i - 1]);
        const after = i + 1 >= s.length || PUNCT.includes(s[i + 1]);
        const open = stack.length && stack[stack.length - 1].tag === "em";
        if ((open && after) || (!open && before && !after)) { toggle("em"); continue; }
      }
      text += c;
    }
    flush();
  }
  function cells(line) {
    const out = [];
    let cur = "";
    for (let i = 1; i < line.length; i++) {
      if (line[i] === "\\" && i + 1 < line.length) { cur += line[i] + line[i + 1]; i++; continue; }
      if (line[i] === "|") { out.push(cur.trim()); cur = ""; continue; }
      cur += line[i];
    }
    return out;
  }
  function renderMarkdown(root, md) {
    const lines = md.split("\n");
    let i = 0;
    while (i < lines.length) {
      const l = lines[i];
      let m;
      if (!l.trim()) { i++; continue; }
      if ((m = /^(#{1,3}) (.*)$/.exec(l))) {
        const h = el("h" + Math.min(m[1].length + 1, 4));
        inline(h, m[2]);
        root.appendChild(h);
        i++;
      } else if (l.startsWith("|")) {
        const t = el("table"), head = cells(l);
        const tr = el("tr");
        head.forEach((c) => { const th = el("th"); th.scope = "col"; inline(th, c); tr.appendChild(th); });
        const thead = el("thead"); thead.appendChild(tr); t.appendChild(thead);
        const tb = el("tbody");
        i += 2;
        while (i < lines.length && lines[i].startsWith("|")) {
          const r = el("tr");
          cells(lines[i]).forEach((c) => { const td = el("td"); inline(td, c); r.appendChild(td); });
          tb.appendChild(r);
          i++;
        }
        t.appendChild(tb);
        root.appendChild(t);
      } else if (/^ *- /.test(l)) {
        const ul = el("ul");
        let last = null;
        while (i < lines.length && /^ *- /.test(lines[i])) {
          const nested = /^ {2,}- /.test(lines[i]);
          const li = el("li");
          inline(li, lines[i].replace(/^ *- /, ""));
          if (nested && last) {
            let sub = last.querySelector("ul");
            if (!sub) { sub = el("ul"); last.appendChild(sub); }
            sub.appendChild(li);
          } else {
            ul.appendChild(li);
            last = li;
          }
          i++;
        }
        root.appendChild(ul);
      } else {
        const p = el("p");
        let txt = [];
        while (i < lines.length && lines[i].trim() && !/^(#|\||- )/.test(lines[i])) txt.push(lines[i++]);
        inline(p, txt.join(" "));
        root.appendChild(p);
      }
    }
  }

  // ------------------------------------------------------------ pairs
  const pairs = data.pairs;
  const METRIC = { acc: "d_acc", hall: "d_hall", tok: "d_tok" };
  const outcome = (p, m) => {
    const d = p[METRIC[m]];
    if (d === null || d === undefined) return "excluded";
    return d > 0 ? "B" : d < 0 ? "A" : "tie";
  };
  const OUTCOME_TEXT = { B: "B better", A: "A better", tie: "tie", excluded: "excluded or unpaired" };

  function fillSelect(sel, values, label) {
    sel.appendChild(new Option("all " + label, ""));
    values.forEach((v) => sel.appendChild(new Option(v, v)));
  }
  const natural = new Intl.Collator("en", { numeric: true }).compare;
  const uniq = (f) => Array.from(new Set(pairs.map(f).filter((v) => v !== null && v !== undefined))).sort(natural);
  fillSelect($("f-site"), uniq((p) => p.site), "sites");
  fillSelect($("f-model"), uniq((p) => p.model), "models");
  fillSelect($("f-complexity"), uniq((p) => p.complexity), "levels");

  let shown = 0, current = [];
  function filtered() {
    const site = $("f-site").value, model = $("f-model").value, cx = $("f-complexity").value;
    const m = $("f-metric").value, oc = $("f-outcome").value, sort = $("f-sort").value;
    const out = pairs.filter((p) => (!site || p.site === site) && (!model || p.model === model) &&
      (!cx || p.complexity === cx) && (!oc || outcome(p, m) === oc));
    if (sort !== "id") {
      const k = METRIC[m], dir = sort === "desc" ? -1 : 1;
      out.sort((a, b) => {
        const x = a[k], y = b[k];
        if (x === null && y === null) return a.order - b.order;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x - y) * dir || a.order - b.order;
      });
    }
    return out;
  }
  function scoreText(side) {
    if (!side) return "missing";
    if (side.excluded) return "excluded: " + side.excluded;
    return "acc " + side.fa + ", hall " + side.hc + ", tok " + side.tok;
  }
  function kv(dl, k, v) {
    dl.appendChild(el("dt", null, k));
    dl.appendChild(el("dd", v === null || v === undefined ? "missing" : null, v === null || v === undefined ? "not recorded" : v));
  }
  function sideBox(p, c) {
    const side = p[c], box = el("div", "side " + c.toLowerCase());
    box.appendChild(el("h4", null, c === "A" ? "Condition A (HTML, readability)" : "Condition B (llms.txt Markdown)"));
    if (!side) { box.appendChild(el("p", "missing", "no record of this condition")); return box; }
    const dl = el("dl", "kv");
    if (side.excluded) kv(dl, "excluded", side.excluded);
    kv(dl, "factual accuracy", side.fa);
    kv(dl, "hallucinations", side.hc);
    kv(dl, "completeness", side.comp);
    kv(dl, "citation fidelity", side.cf === null ? "n/a" : side.cf);
    kv(dl, "input tokens", side.tok);
    kv(dl, "reference tokens", side.reftok);
    kv(dl, "gold coverage", side.gold_coverage);
    kv(dl, "response id", side.response_id);
    box.appendChild(dl);
    box.appendChild(el("h5", null, "Response"));
    box.appendChild(side.response === null ? el("p", "missing", "no response text in the scored records") : el("pre", "response", side.response));
    const content = side.content === null ? null : data.contents[side.content];
    const det = el("details", "content");
    det.appendChild(el("summary", null, content === null || content === undefined ?
      "content not in the scored records (merge with bscore-merge merge --keep-texts)" :
      "Condition " + c + " content (" + content.length + " characters)"));
    if (content !== null && content !== undefined) det.appendChild(el("pre", null, content));
    box.appendChild(det);
    return box;
  }
  function detail(p) {
    const tr = el("tr", "detail"), td = el("td");
    td.colSpan = 8;
    const q = data.questions[p.qkey] || {};
    td.appendChild(el("h4", null, "Question"));
    td.appendChild(el("p", "question", q.question_text || "(no question text in the records)"));
    td.appendChild(el("h4", null, "Gold answer"));
    td.appendChild(el("p", "gold", q.gold_answer || "(no gold answer in the records)"));
    const info = el("dl", "kv");
    kv(info, "tier", p.tier);
    kv(info, "sector", p.sector);
    kv(info, "Δ accuracy (B − A)", p.d_acc);
    kv(info, "Δ hallucinations (A − B)", p.d_hall);
    kv(info, "Δ tokens (A − B)", p.d_tok);
    kv(info, "parity: B in A / A in B", p.parity ? p.parity.b_in_a + " / " + p.parity.a_in_b : null);
    kv(info, "pair drift", p.parity ? String(p.parity.drift) : null);
    td.appendChild(info);
    const sides = el("div", "sides");
    sides.appendChild(sideBox(p, "A"));
    sides.appendChild(sideBox(p, "B"));
    td.appendChild(sides);
    tr.appendChild(td);
    return tr;
  }
  function row(p) {
    const m = $("f-metric").value, tr = el("tr", "row"), oc = outcome(p, m);
    tr.tabIndex = 0;
    tr.dataset.order = p.order;
    [p.site, p.question, p.model, p.complexity, scoreText(p.A), scoreText(p.B)].forEach((v) => tr.appendChild(el("td", null, v === null ? "" : v)));
    const d = p[METRIC[m]];
    tr.appendChild(el("td", "delta", d === null ? "–" : (d > 0 ? "+" : "") + d));
    tr.appendChild(el("td", "o-" + oc, OUTCOME_TEXT[oc]));
    const toggle = () => {
      const next = tr.nextSibling;
      if (next && next.classList.contains("detail")) { next.remove(); tr.setAttribute("aria-expanded", "false"); return; }
      tr.after(detail(p));
      tr.setAttribute("aria-expanded", "true");
    };
    tr.addEventListener("click", toggle);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    return tr;
  }
  function more() {
    const body = $("pair-rows"), stop = Math.min(current.length, shown + 200);
    for (; shown < stop; shown++) body.appendChild(row(current[shown]));
    $("more").hidden = shown >= current.length;
  }
  function update() {
    current = filtered();
    shown = 0;
    $("pair-rows").textContent = "";
    $("count").textContent = current.length + " of " + pairs.length + " pairs";
    more();
  }

  $("sign").textContent = "Sign convention: " + data.sign + ".  Δ = B − A for scores, A − B for hallucinations and tokens.";
  renderMarkdown($("report"), data.report);
  ["f-site", "f-model", "f-complexity", "f-metric", "f-outcome", "f-sort"].forEach((id) => $(id).addEventListener("change", update));
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  $("more").addEventListener("click", more);
  update();
})();
