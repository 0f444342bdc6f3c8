// browser.js - the results browser of bstats --html: the report rendered
// from its Markdown, a model x condition grid, and every pair of the study,
// searchable, filterable, sortable and exportable as CSV, each with its
// evidence (gold-answer terms and changed facts marked in both responses and
// contexts) and its transcript (what binfer recorded); the filters, the
// sort and the open pair live in the URL fragment; with --compare, a second
// run beside this one.  Every string from the data reaches the page through
// textContent, never as markup; the page loads nothing (its
// Content-Security-Policy allows this script and its style by hash, and
// nothing else).
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
  const SIDE_METRIC = { acc: "fa", hall: "hc", tok: "tok" };
  const outcome = (p, m) => {
    const d = p[METRIC[m]];
    if (d === null || d === undefined) return "excluded";
    return d > 0 ? "B" : d < 0 ? "A" : "tie";
  };
  const OUTCOME_TEXT = { B: "B better", A: "A better", tie: "tie", excluded: "excluded or unpaired" };
  const isNum = (v) => typeof v === "number" && isFinite(v);
  // Three decimals; a small non-zero value (a p-value) as 4.86e-5, not 0.
  const fmt = (v) => (!isNum(v) ? v : v !== 0 && Math.abs(v) < 0.001 ? v.toExponential(2) : String(Math.round(v * 1000) / 1000));
  const pairId = (p) => [p.site, p.question, p.model];
  const pairKey = (p) => pairId(p).join("\u001f");

  function fillSelect(sel, values, label) {
    sel.appendChild(new Option("all " + label, ""));
    values.forEach((v) => sel.appendChild(new Option(v, v)));
  }
  const natural = new Intl.Collator("en", { numeric: true }).compare;
  const uniq = (f) => Array.from(new Set(pairs.map(f).filter((v) => v !== null && v !== undefined))).sort(natural);
  fillSelect($("f-site"), uniq((p) => p.site), "sites");
  fillSelect($("f-model"), uniq((p) => p.model), "models");
  fillSelect($("f-complexity"), uniq((p) => p.complexity), "levels");

  // Search: question, gold answer, both responses and both contexts,
  // case-insensitive; each question and context is searched once, not
  // once per model.
  const lower = new Map();
  const low = (s) => {
    if (s === null || s === undefined) return "";
    let v = lower.get(s);
    if (v === undefined) { v = s.toLowerCase(); if (s.length > 200) lower.set(s, v); }
    return v;
  };
  function matcher(needle) {
    if (!needle) return () => true;
    const n = needle.toLowerCase(), qhit = new Map(), chit = new Map();
    const inQ = (k) => {
      if (!qhit.has(k)) { const q = data.questions[k] || {}; qhit.set(k, low(q.question_text).includes(n) || low(q.gold_answer).includes(n)); }
      return qhit.get(k);
    };
    const inC = (k) => {
      if (k === null || k === undefined) return false;
      if (!chit.has(k)) chit.set(k, low(data.contents[k]).includes(n));
      return chit.get(k);
    };
    const inSide = (s) => s && (low(s.response).includes(n) || inC(s.content));
    return (p) => inQ(p.qkey) || inSide(p.A) || inSide(p.B);
  }

  const FILTERS = { site: "f-site", model: "f-model", cx: "f-complexity", metric: "f-metric", outcome: "f-outcome", sort: "f-sort", search: "f-search" };
  const DEFAULTS = { metric: "acc", sort: "id" };
  let shown = 0, current = [], openPair = null;
  function filtered() {
    const site = $("f-site").value, model = $("f-model").value, cx = $("f-complexity").value;
    const m = $("f-metric").value, oc = $("f-outcome").value, sort = $("f-sort").value;
    const hit = matcher($("f-search").value.trim());
    const out = pairs.filter((p) => (!site || p.site === site) && (!model || p.model === model) &&
      (!cx || p.complexity === cx) && (!oc || outcome(p, m) === oc) && hit(p));
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

  // ------------------------------------------------ the URL fragment
  // #site=S1&model=M&metric=tok&sort=desc&search=TEXT&pair=SITE/QUESTION/MODEL:
  // every filter and the open pair, each component percent-encoded.
  function writeHash() {
    const parts = [];
    Object.keys(FILTERS).forEach((k) => {
      const v = $(FILTERS[k]).value;
      if (v && v !== DEFAULTS[k]) parts.push(k + "=" + encodeURIComponent(v));
    });
    if (openPair) parts.push("pair=" + pairId(openPair).map(encodeURIComponent).join("/"));
    const h = parts.length ? "#" + parts.join("&") : "";
    if (location.hash !== h) history.replaceState(null, "", h || location.pathname + location.search);
  }
  function readHash() {
    const h = location.hash.slice(1);
    if (!h.includes("=")) return null;
    const st = {};
    h.split("&").forEach((kv) => {
      const i = kv.indexOf("=");
      if (i < 0) return;
      try {
        const k = kv.slice(0, i), v = kv.slice(i + 1);
        st[k] = k === "pair" ? v.split("/").map(decodeURIComponent) : decodeURIComponent(v);
      } catch (e) { /* a malformed component is ignored */ }
    });
    return st;
  }
  function applyHash() {
    const st = readHash();
    if (!st) return;
    Object.keys(FILTERS).forEach((k) => {
      const e = $(FILTERS[k]), v = st[k] === undefined ? (DEFAULTS[k] || "") : st[k];
      if (e.tagName === "SELECT" && !Array.from(e.options).some((o) => o.value === v)) return;
      e.value = v;
    });
    update(false);
    if (Array.isArray(st.pair) && st.pair.length === 3) {
      const key = st.pair.join("\u001f"), i = current.findIndex((p) => pairKey(p) === key);
      if (i >= 0) {
        while (shown <= i) more();
        const tr = $("pair-rows").querySelector('tr.row[data-order="' + current[i].order + '"]');
        if (tr && tr.getAttribute("aria-expanded") !== "true") tr.toggleDetail();
        if (tr) { tr.focus(); tr.scrollIntoView({ block: "start" }); }
      }
    }
  }

  // ------------------------------------------------ highlighting
  // A word as common/words.h has it: a run of letters, marks and digits.
  const WORD = /[\p{L}\p{Mn}\p{Mc}\p{Nd}\p{Nl}\p{No}]+/gu;
  const prefix5 = (w) => Array.from(w).slice(0, 5).join("");
  // Where a changed fact's value stands in text: near its key's first
  // identifier (a table row, "... defaults to 3"), or a code line as it is.
  function factRanges(text, f, value, cls, id) {
    const out = [], v = value.trim();
    if (!v) return out;
    if (f.kind === "code" || v.length >= 12) {
      for (let i = text.indexOf(v); i >= 0 && out.length < 20; i = text.indexOf(v, i + v.length))
        out.push([i, i + v.length, cls, id]);
      return out;
    }
    const anchor = (f.key.match(/[A-Za-z_][\w.-]{2,}/) || [null])[0];
    const tl = text.toLowerCase(), vl = v.toLowerCase();
    const bound = (i, n) => !/[\w.]/.test(text[i - 1] || " ") && !/\w/.test(text[i + n] || " ") &&
      !(text[i + n] === "." && /\d/.test(text[i + n + 1] || ""));
    const scan = (from, to) => {
      for (let i = tl.indexOf(vl, from); i >= 0 && i < to; i = tl.indexOf(vl, i + 1))
        if (bound(i, v.length)) { out.push([i, i + v.length, cls, id]); return; }
    };
    if (anchor) {
      const al = anchor.toLowerCase();
      for (let a = tl.indexOf(al); a >= 0 && out.length < 20; a = tl.indexOf(al, a + al.length))
        scan(Math.max(0, a - 160), a + al.length + 240);
    } else if (v.length >= 3) {
      scan(0, text.length);
    }
    return out;
  }
  // text as nodes: gold-answer terms marked (credited ones apart), changed
  // facts marked over them; every piece of text stays text.
  function highlight(text, q, credited, facts) {
    const frag = document.createDocumentFragment();
    if (text === null || text === undefined) return frag;
    const terms = new Set((q && q.terms) || []);
    const ranges = facts.slice().sort((a, b) => a[0] - b[0]);
    const marks = [];
    let r = 0;
    for (const m of text.matchAll(WORD)) {
      const s = m.index, e = s + m[0].length, w = m[0].toLowerCase();
      while (r < ranges.length && ranges[r][1] <= s) r++;
      if (r < ranges.length && ranges[r][0] < e) continue;
      if (credited && credited.has(prefix5(w))) marks.push([s, e, "term credited", null]);
      else if (terms.has(w)) marks.push([s, e, "term", null]);
    }
    const all = marks.concat(ranges).sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [s, e, cls, id] of all) {
      if (s < at) continue;
      if (s > at) frag.appendChild(document.createTextNode(text.slice(at, s)));
      const mk = el("mark", cls, text.slice(s, e));
      if (id) mk.dataset.fact = id;
      mk.title = cls.startsWith("fact") ? "a fact that differs between the conditions" :
        cls === "term credited" ? "a gold-answer term the autoscore rule credits" : "a gold-answer term";
      frag.appendChild(mk);
      at = e;
    }
    if (at < text.length) frag.appendChild(document.createTextNode(text.slice(at)));
    return frag;
  }
  const creditedSet = (q, side) => side.credited ? new Set(side.credited.map((i) => prefix5(q.terms[i]))) : null;

  // ------------------------------------------------ one pair, opened
  function kv(dl, k, v) {
    const none = v === null || v === undefined;
    dl.appendChild(el("dt", null, k));
    dl.appendChild(el("dd", none ? "missing" : null, none ? "not recorded" : fmt(v)));
  }
  // Hallucinations an autoscore rating never assessed (000 §10): "–", not 0.
  const hallText = (r) => (r.hc === null ? "–" : String(r.hc));
  function scoreText(side) {
    if (!side) return "missing";
    if (side.excluded) return "excluded: " + side.excluded;
    return "acc " + side.fa + ", hall " + hallText(side) + ", tok " + side.tok;
  }
  function scores(dl, s) {
    if (s.excluded) kv(dl, "excluded", s.excluded);
    kv(dl, "factual accuracy", s.fa);
    kv(dl, "hallucinations", s.hc === null && !s.excluded ? "– (not assessed by " + (s.rater_kind || "this rater") + ")" : s.hc);
    kv(dl, "completeness", s.comp);
    kv(dl, "citation fidelity", s.cf === null ? "n/a" : s.cf);
    kv(dl, "rater", s.rater === null ? null : s.rater + (s.rater_kind ? " (" + s.rater_kind + ")" : ""));
    kv(dl, "rater's notes", s.notes);
  }
  function factsOf(p, c) {
    const f = p.facts;
    if (!f || !f.changed) return [];
    return f.changed.flatMap((x, i) => factRanges(contentOf(p[c]) || "", x, c === "A" ? x.a : x.b, "fact fact-" + c.toLowerCase(), "f" + i));
  }
  const contentOf = (side) => (side && side.content !== null ? data.contents[side.content] : null);
  function sideBox(p, c, q) {
    const side = p[c], box = el("div", "side " + c.toLowerCase());
    box.appendChild(el("h4", null, c === "A" ? "Condition A (HTML, readability)" : "Condition B (llms.txt Markdown)"));
    if (!side) { box.appendChild(el("p", "missing", "no record of this condition")); return box; }
    const dl = el("dl", "kv");
    scores(dl, side);
    kv(dl, "input tokens", side.tok);
    kv(dl, "reference tokens", side.reftok);
    kv(dl, "gold coverage", side.gold_coverage);
    kv(dl, "response id", side.response_id);
    box.appendChild(dl);
    if (side.other) {
      box.appendChild(el("h5", null, "In " + data.compare.label));
      const od = el("dl", "kv other-run");
      scores(od, side.other);
      box.appendChild(od);
    }
    box.appendChild(el("h5", null, "Response"));
    if (side.response === null) {
      box.appendChild(el("p", "missing", "no response text in the scored records"));
    } else {
      if (side.credit) {
        const names = (side.credited || []).map((i) => q.terms[i]);
        box.appendChild(el("p", "credit", "The autoscore rule credits " + side.credit[0] + " of " + side.credit[1] +
          " gold-answer terms" + (names.length ? ": " + names.join(", ") : "") +
          (side.rater_kind === "autoscore" ? " (this rating is autoscore's)" : " (this rating is not autoscore's: see the rater's notes)")));
      }
      const pre = el("pre", "response");
      pre.appendChild(highlight(side.response, q, creditedSet(q, side), []));
      box.appendChild(pre);
    }
    const content = contentOf(side);
    const det = el("details", "content");
    det.appendChild(el("summary", null, content === null || content === undefined ?
      "content not in the scored records (merge with bscore-merge merge --keep-texts)" :
      "Condition " + c + " content (" + content.length + " characters)"));
    if (content !== null && content !== undefined) {
      const pre = el("pre", null);
      pre.appendChild(highlight(content, q, null, factsOf(p, c)));
      det.appendChild(pre);
    }
    box.appendChild(det);
    return box;
  }
  function factsBox(p) {
    const f = p.facts, box = el("div", "facts");
    box.appendChild(el("h4", null, "Facts of the two conditions (bctx)"));
    if (!f) { box.appendChild(el("p", "missing", "no fact comparison in the records")); return box; }
    const dl = el("dl", "kv");
    kv(dl, "facts of B found in A", f.b_in_a);
    kv(dl, "facts of A found in B", f.a_in_b);
    kv(dl, "pair drift", p.parity ? String(p.parity.drift) : null);
    kv(dl, "gold facts only in A", f.gold_only_a ? f.gold_only_a.join(", ") || "none" : null);
    kv(dl, "gold facts only in B", f.gold_only_b ? f.gold_only_b.join(", ") || "none" : null);
    box.appendChild(dl);
    if (!f.changed.length) { box.appendChild(el("p", null, "No fact changed between the conditions.")); return box; }
    const t = el("table", "changed-facts"), hr = el("tr");
    ["fact", "Condition A (HTML)", "Condition B (Markdown)"].forEach((h) => { const th = el("th", null, h); th.scope = "col"; hr.appendChild(th); });
    const th = el("thead"); th.appendChild(hr); t.appendChild(th);
    const tb = el("tbody");
    f.changed.forEach((x, i) => {
      const tr = el("tr");
      tr.appendChild(el("td", "fact-key", (x.kind ? x.kind + ": " : "") + x.key));
      ["A", "B"].forEach((c) => {
        const td = el("td", "fact-" + c.toLowerCase());
        td.appendChild(el("code", null, c === "A" ? x.a : x.b));
        const b = el("button", "locate", "show in " + c);
        b.type = "button";
        b.dataset.fact = "f" + i;
        b.dataset.cond = c;
        td.appendChild(b);
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    box.appendChild(t);
    if (f.changed_count > f.changed.length) box.appendChild(el("p", "missing", f.changed_count + " facts changed; the records list the first " + f.changed.length));
    return box;
  }
  // The request body binfer recorded, pretty-printed: the body parsed (the
  // page holds it with the prompts and the context's content cut out of its
  // messages, since they are in the page once) and indented; a body that is
  // no JSON as it is.
  function requestBodyText(body, tx, side) {
    if (body.text !== undefined) return body.text;
    const b = JSON.parse(JSON.stringify(body.json)), content = contentOf(side) || "";
    const pr = tx.prompt ? data.prompts[tx.prompt] : {};
    const user = pr.user !== undefined ? pr.user : pr.before + content + pr.after;
    body.cuts.forEach((c) => {
      b.messages[c.message].content = c.prompt === "system" ? pr.system : c.prompt === "user" ? user : c.before + content + c.after;
    });
    return JSON.stringify(b, null, 2);
  }
  // The request of a transcript: the body as sent, or what the records say
  // of it when they do not hold it.
  function requestBox(box, tx, side) {
    box.appendChild(el("h5", null, "Request"));
    if (tx.engine === "extractive") {
      box.appendChild(el("p", "note", "No request was sent: the extractive engine answers from the content itself."));
    } else if (tx.body) {
      const req = tx.request || {};
      box.appendChild(el("p", "note", "The body binfer " + (req.sent === false ? "built but did not send (the prompt does not fit)" : "sent to " + (req.url || "the server")) +
        ", parsed and indented" + (req.body_masked ? "; credentials in it masked" : "") + ". SHA-256 of the bytes sent: " + (req.body_sha256 || "not recorded") + "."));
      box.appendChild(el("pre", "request-body", requestBodyText(tx.body, tx, side)));
      return;
    } else if (tx.request) {
      box.appendChild(el("p", "missing request-missing", "The request body is not in the scored records (merge with bscore-merge merge --keep-texts); SHA-256 of the bytes sent: " + (tx.request.body_sha256 || "not recorded") + "."));
    } else {
      box.appendChild(el("p", "note", "This record's binfer did not record the request body it sent; it records the request's hash (the cache key) and the fields below. The prompt is shown as the record holds it."));
    }
    const pr = tx.prompt ? data.prompts[tx.prompt] : null;
    if (!pr) {
      box.appendChild(el("p", "missing", "no prompt in the scored records (merge with bscore-merge merge --keep-texts)"));
      return;
    }
    box.appendChild(el("h6", null, "System prompt"));
    box.appendChild(pr.system === null ? el("p", "missing", "none recorded") : el("pre", "prompt-system", pr.system));
    box.appendChild(el("h6", null, "User prompt"));
    const user = pr.user !== undefined ? pr.user : pr.before + (contentOf(side) || "") + pr.after;
    const det = el("details", "prompt-user");
    det.appendChild(el("summary", null, user === null ? "none recorded" : "user prompt (" + (user || "").length + " characters)"));
    if (user !== null) det.appendChild(el("pre", null, user));
    box.appendChild(det);
  }
  // Where the answer came from: the cache or a request of this run.
  function cacheText(tx) {
    const c = tx.cache;
    if (!c) return tx.request_hash ? "binfer's cache entry " + tx.request_hash.slice(0, 2) + "/" + tx.request_hash + ".json (whether this answer was read from the cache is not recorded)" : null;
    return (c.hit ? "cache hit" : "fresh request") + ", key " + c.key + (c.first_obtained ? ", first obtained " + c.first_obtained : "") +
      (c.request_rebuilt ? "; the cache entry held no request: the body is the one binfer built again (same key)" : "");
  }
  // The request's own facts: where it went, the server, the warm-up.
  function requestRows(dl, tx) {
    const r = tx.request;
    if (!r) return;
    kv(dl, "request sent", String(r.sent));
    kv(dl, "request URL", r.url);
    kv(dl, "server that answered", [r.server, r.server_version].filter((x) => x !== null && x !== undefined).join(" ") || null);
    kv(dl, "warm-up requests before", r.warmup_requests);
  }
  // The side of a transcript: what binfer recorded, nothing rebuilt.
  function transcriptBox(p, c) {
    const side = p[c], box = el("div", "side transcript " + c.toLowerCase());
    box.appendChild(el("h4", null, "Condition " + c));
    if (!side) { box.appendChild(el("p", "missing", "no record of this condition")); return box; }
    const tx = Object.assign({}, side.tx ? data.runs[side.tx.run] : {}, side.tx);
    // the request and body skeleton the page holds once (requests, bodies)
    if (typeof tx.request === "number") tx.request = Object.assign({ body_sha256: tx.body_sha256 }, data.requests[tx.request]);
    if (tx.body && typeof tx.body.json === "number") tx.body = { json: data.bodies[tx.body.json], cuts: tx.body.cuts };
    if (tx.cache && !tx.cache.key) tx.cache = Object.assign({ key: tx.request_hash }, tx.cache);
    requestBox(box, tx, side);
    box.appendChild(el("h5", null, "Response record"));
    const dl = el("dl", "kv record");
    [["model", "model_id"], ["engine", "engine"], ["server", "server"], ["server version", "server_version"],
      ["endpoint", "endpoint"], ["model identity", "model_identity"], ["model digest", "model_digest"],
      ["num_ctx", "num_ctx"], ["finish_reason", "finish_reason"], ["output truncated", "output_truncated"],
      ["thinking stripped", "thinking_stripped"], ["input tokens", "input_token_count"],
      ["expected prompt tokens", "expected_prompt_tokens"], ["prompt tokens evaluated", "prompt_eval_count"],
      ["output tokens", "output_token_count"], ["error", "error"]].forEach(([k, f]) => kv(dl, k, tx[f] === undefined ? null : typeof tx[f] === "boolean" ? String(tx[f]) : tx[f]));
    const t = tx.timings;
    kv(dl, "timings (ms)", t ? ["total_ms", "load_ms", "prompt_ms", "eval_ms"].map((k) => k.replace("_ms", "") + " " + (t[k] === null || t[k] === undefined ? "–" : fmt(t[k]))).join(", ") : null);
    kv(dl, "request hash", tx.request_hash);
    requestRows(dl, tx);
    kv(dl, "cache provenance", cacheText(tx));
    box.appendChild(dl);
    box.appendChild(el("h5", null, "Response as sent"));
    if (tx.response_raw) box.appendChild(el("pre", "response-raw", tx.response_raw));
    else box.appendChild(el("p", "missing", tx.raw_same ? "the same as the response text" : "no raw response in the scored records"));
    return box;
  }
  function tabs(panels) {
    const wrap = el("div", "tabs"), list = el("div", "tablist");
    list.setAttribute("role", "tablist");
    wrap.appendChild(list);
    const btns = panels.map(([name, build], i) => {
      const b = el("button", "tab", name), panel = el("div", "panel");
      b.type = "button";
      b.setAttribute("role", "tab");
      panel.setAttribute("role", "tabpanel");
      const select = () => {
        btns.forEach(([o, op]) => { o.setAttribute("aria-selected", "false"); o.tabIndex = -1; op.hidden = true; });
        b.setAttribute("aria-selected", "true");
        b.tabIndex = 0;
        panel.hidden = false;
        if (!panel.firstChild) panel.appendChild(build());
      };
      b.addEventListener("click", select);
      b.addEventListener("keydown", (e) => {
        const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
        if (!d) return;
        const [n] = btns[(i + d + btns.length) % btns.length];
        n.click();
        n.focus();
      });
      list.appendChild(b);
      wrap.appendChild(panel);
      return [b, panel, select];
    });
    btns[0][2]();
    return wrap;
  }
  function evidence(p, q) {
    const f = document.createDocumentFragment();
    f.appendChild(el("h4", null, "Question"));
    f.appendChild(el("p", "question", q.question_text || "(no question text in the records)"));
    f.appendChild(el("h4", null, "Gold answer"));
    const g = el("p", "gold");
    if (q.gold_answer) g.appendChild(highlight(q.gold_answer, q, null, []));
    else g.textContent = "(no gold answer in the records)";
    f.appendChild(g);
    const leg = el("p", "legend");
    leg.appendChild(el("mark", "term", "gold-answer term"));
    leg.appendChild(el("mark", "term credited", "credited by the autoscore rule"));
    leg.appendChild(el("mark", "fact fact-a", "changed fact, A"));
    leg.appendChild(el("mark", "fact fact-b", "changed fact, B"));
    f.appendChild(leg);
    const info = el("dl", "kv");
    kv(info, "tier", p.tier);
    kv(info, "sector", p.sector);
    kv(info, "Δ accuracy (B − A)", p.d_acc);
    kv(info, "Δ hallucinations (A − B)", p.d_hall);
    kv(info, "Δ tokens (A − B)", p.d_tok);
    kv(info, "parity: B in A / A in B", p.parity ? fmt(p.parity.b_in_a) + " / " + fmt(p.parity.a_in_b) : null);
    kv(info, "pair drift", p.parity ? String(p.parity.drift) : null);
    f.appendChild(info);
    f.appendChild(factsBox(p));
    const sides = el("div", "sides");
    sides.appendChild(sideBox(p, "A", q));
    sides.appendChild(sideBox(p, "B", q));
    f.appendChild(sides);
    const wrap = el("div");
    wrap.appendChild(f);
    wrap.addEventListener("click", (e) => {
      const b = e.target.closest("button.locate");
      if (!b) return;
      const side = wrap.querySelector(".side." + b.dataset.cond.toLowerCase());
      const det = side.querySelector("details.content");
      if (det) det.open = true;
      const mk = side.querySelector('mark[data-fact="' + b.dataset.fact + '"]');
      if (mk) { mk.scrollIntoView({ block: "center" }); mk.classList.add("located"); } else b.textContent = "not located in " + b.dataset.cond;
    });
    return wrap;
  }
  function detail(p) {
    const tr = el("tr", "detail"), td = el("td");
    td.colSpan = 8;
    const q = data.questions[p.qkey] || {};
    const link = el("a", "permalink", "link to this pair");
    link.href = "#pair=" + pairId(p).map(encodeURIComponent).join("/");
    td.appendChild(link);
    td.appendChild(tabs([["Evidence", () => evidence(p, q)], ["Transcript", () => {
      const s = el("div", "sides");
      s.appendChild(transcriptBox(p, "A"));
      s.appendChild(transcriptBox(p, "B"));
      return s;
    }]]));
    tr.appendChild(td);
    return tr;
  }
  function row(p) {
    const m = $("f-metric").value, tr = el("tr", "row"), oc = outcome(p, m);
    tr.tabIndex = 0;
    tr.dataset.order = p.order;
    [p.site, p.question, p.model, p.complexity, scoreText(p.A), scoreText(p.B)].forEach((v) => tr.appendChild(el("td", null, v === null ? "" : v)));
    const d = p[METRIC[m]];
    tr.appendChild(el("td", "delta", d === null ? "–" : (d > 0 ? "+" : "") + fmt(d)));
    tr.appendChild(el("td", "o-" + oc, OUTCOME_TEXT[oc]));
    tr.toggleDetail = () => {
      const next = tr.nextSibling;
      if (next && next.classList.contains("detail")) {
        next.remove();
        tr.setAttribute("aria-expanded", "false");
        if (openPair === p) { openPair = null; writeHash(); }
        return;
      }
      tr.after(detail(p));
      tr.setAttribute("aria-expanded", "true");
      openPair = p;
      writeHash();
    };
    tr.addEventListener("click", tr.toggleDetail);
    tr.addEventListener("keydown", (e) => { if (e.target === tr && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tr.toggleDetail(); } });
    return tr;
  }
  function more() {
    const body = $("pair-rows"), stop = Math.min(current.length, shown + 200);
    for (; shown < stop; shown++) body.appendChild(row(current[shown]));
    $("more").hidden = shown >= current.length;
  }
  function update(hash) {
    current = filtered();
    shown = 0;
    openPair = null;
    $("pair-rows").textContent = "";
    $("count").textContent = current.length + " of " + pairs.length + " pairs";
    more();
    grid();
    if (hash !== false) writeHash();
  }

  // ------------------------------------------------ the conditions
  // A and B, then the variants the study ran (issue 30), by name, in the
  // grid and the CSV; a variant's rating of a pair sits in p.variants.
  const CONDS = ["A", "B"].concat((data.conditions || []).filter((c) => c !== "A" && c !== "B").sort());
  const VARIANTS = CONDS.slice(2);
  const sideOf = (p, c) => (c === "A" || c === "B" ? p[c] : (p.variants || {})[c]);

  // ------------------------------------------------ CSV of the filtered rows
  // Text cells a spreadsheet would take for a formula get a leading space,
  // as raw-data.csv's do (common/csv.h, csv_write_text); numbers stay.
  function csvCell(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "number") return String(v);
    let s = String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = " " + s;
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function csv() {
    const m = $("f-metric").value;
    const head = ["site_id", "question_id", "model_id", "complexity", "tier", "question_text", "gold_answer"];
    ["A", "B"].forEach((c) => head.push(c + "_excluded", c + "_factual_accuracy", c + "_hallucination_count", c + "_completeness", c + "_input_token_count", c + "_response_text"));
    head.push("delta_accuracy", "delta_hallucinations", "delta_tokens", "outcome_" + m, "pair_drift");
    VARIANTS.forEach((c) => head.push(c + "_excluded", c + "_factual_accuracy", c + "_hallucination_count", c + "_completeness", c + "_input_token_count"));
    const lines = [head.join(",")];
    current.forEach((p) => {
      const q = data.questions[p.qkey] || {}, r = [p.site, p.question, p.model, p.complexity, p.tier, q.question_text, q.gold_answer];
      ["A", "B"].forEach((c) => {
        const s = p[c] || {};
        r.push(p[c] ? s.excluded : "missing", s.fa, s.hc, s.comp, s.tok, s.response);
      });
      r.push(p.d_acc, p.d_hall, p.d_tok, OUTCOME_TEXT[outcome(p, m)], p.parity ? String(p.parity.drift) : null);
      VARIANTS.forEach((c) => { const s = sideOf(p, c); r.push(s ? s.excluded : "missing", s && s.fa, s && s.hc, s && s.comp, s && s.tok); });
      lines.push(r.map(csvCell).join(","));
    });
    return lines.join("\r\n") + "\r\n";
  }
  function exportCsv() {
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([csv()], { type: "text/csv;charset=utf-8" }));
    a.download = "ctxbench-pairs.csv";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  // ------------------------------------------------ model x condition grid
  // Mean of the chosen metric per model and condition over the pairs the
  // site and complexity filters keep; a cell filters the table by model.
  function grid() {
    const site = $("f-site").value, cx = $("f-complexity").value, m = $("f-metric").value;
    const k = SIDE_METRIC[m], rows = new Map();
    const acc = (model) => {
      if (!rows.has(model)) { const r = { d: [0, 0] }; CONDS.forEach((c) => { r[c] = [0, 0]; }); rows.set(model, r); }
      return rows.get(model);
    };
    pairs.forEach((p) => {
      if ((site && p.site !== site) || (cx && p.complexity !== cx)) return;
      [p.model, ""].forEach((model) => {
        const r = acc(model);
        CONDS.forEach((c) => { const s = sideOf(p, c); if (s && !s.excluded && isNum(s[k])) { r[c][0] += s[k]; r[c][1]++; } });
        if (isNum(p[METRIC[m]])) { r.d[0] += p[METRIC[m]]; r.d[1]++; }
      });
    });
    const t = $("grid-table");
    t.textContent = "";
    const hr = el("tr");
    ["model"].concat(CONDS.map((c) => (c === "A" || c === "B" ? "Condition " : "") + c), ["Δ (" + (m === "acc" ? "B − A" : "A − B") + ")"]).forEach((h) => { const th = el("th", null, h); th.scope = "col"; hr.appendChild(th); });
    const th = el("thead"); th.appendChild(hr); t.appendChild(th);
    const tb = el("tbody");
    const models = Array.from(rows.keys()).filter(Boolean).sort(natural).concat([""]);
    models.forEach((model) => {
      const r = rows.get(model), tr = el("tr", model ? null : "all");
      const h = el("th", null, model || "all models");
      h.scope = "row";
      tr.appendChild(h);
      CONDS.map((c) => r[c]).concat([r.d]).forEach(([sum, n]) => {
        const td = el("td"), b = el("button", "cell", n ? fmt(sum / n) + " (n = " + n + ")" : "– (n = 0)");
        b.type = "button";
        b.dataset.model = model;
        td.appendChild(b);
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    $("grid-caption").textContent = "Mean " + { acc: "factual accuracy", hall: "hallucinations", tok: "input tokens" }[m] +
      " per model and condition (excluded ratings left out; Δ over complete pairs)" + (site ? ", site " + site : "") + (cx ? ", " + cx : "") + ". A cell shows that model's pairs.";
  }
  $("grid-table").addEventListener("click", (e) => {
    const b = e.target.closest("button.cell");
    if (!b) return;
    $("f-model").value = b.dataset.model;
    update();
    $("pairs").scrollIntoView();
  });

  // ------------------------------------------------ two runs compared
  function tableOf(parent, head, rows) {
    const t = el("table", "compare-table"), hr = el("tr");
    head.forEach((h) => { const th = el("th", null, h); th.scope = "col"; hr.appendChild(th); });
    const th = el("thead"); th.appendChild(hr); t.appendChild(th);
    const tb = el("tbody");
    rows.forEach((r) => {
      const tr = el("tr", r.cls || null);
      r.cells.forEach((c) => {
        const td = el("td");
        if (c && c.href) { const a = el("a", null, c.text); a.href = c.href; td.appendChild(a); } else td.textContent = c === null || c === undefined ? "–" : fmt(c);
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    parent.appendChild(t);
  }
  const link = (x) => ({ text: x.site + " / " + x.question + " / " + x.model, href: "#pair=" + [x.site, x.question, x.model].map(encodeURIComponent).join("/") });
  const rating = (r) => (r.excluded ? "excluded: " + r.excluded : "acc " + r.fa + ", hall " + hallText(r) + ", comp " + r.comp + (r.cf === null ? "" : ", cite " + r.cf)) + (r.rater ? " by " + r.rater : "");
  function compareView() {
    const c = data.compare, root = $("compare");
    if (!c) return;
    root.hidden = false;
    $("nav-compare").hidden = false;
    root.appendChild(el("h2", null, "This run against " + c.label));
    const changedTests = c.results.filter((r) => r.verdict_changed).length;
    root.appendChild(el("p", "compare-summary", c.changed.length + " ratings differ, " + c.same + " agree; " +
      c.turned.length + " pair outcomes turned; " + changedTests + " test verdicts changed (α = " + fmt(c.alpha) + "); " +
      c.only_this.length + " ratings only in this run, " + c.only_other.length + " only in " + c.label + "."));
    root.appendChild(el("h3", null, "Test results, verdict changes first"));
    tableOf(root, ["test", "hypothesis", "metric", "subset", "p (this)", "p (" + c.label + ")", "effect (this)", "effect (" + c.label + ")", "verdict"],
      c.results.map((r) => ({ cls: r.verdict_changed ? "changed" : r.changed ? "moved" : null, cells: [r.test, r.hypothesis, r.metric, r.subset, r.this.p, r.other.p, r.this.effect, r.other.effect,
        r.verdict_changed ? "changed: " + (r.this.significant ? "significant" : "not significant") + " here" : r.changed ? "same, numbers moved" : "same"] })));
    root.appendChild(el("h3", null, "Ratings that differ"));
    tableOf(root, ["pair", "condition", "fields", "this run", c.label], c.changed.map((x) => ({ cls: "changed", cells: [link(x), x.cond, x.fields.join(", "), rating(x.this), rating(x.other)] })));
    root.appendChild(el("h3", null, "Pair outcomes that turned"));
    tableOf(root, ["pair", "metric", "this run", c.label], c.turned.map((x) => ({ cls: "changed", cells: [link(x), x.metric, x.this, x.other] })));
    const only = (title, list) => {
      root.appendChild(el("h3", null, title + " (" + list.length + ")"));
      tableOf(root, ["site", "question", "model", "condition"], list.slice(0, 500).map((x) => ({ cells: [x.site, x.question, x.model, x.cond] })));
    };
    only("Ratings only in this run", c.only_this);
    only("Ratings only in " + c.label, c.only_other);
  }

  $("sign").textContent = "Sign convention: " + data.sign + ".  Δ = B − A for scores, A − B for hallucinations and tokens.";
  renderMarkdown($("report"), data.report);
  ["f-site", "f-model", "f-complexity", "f-metric", "f-outcome", "f-sort"].forEach((id) => $(id).addEventListener("change", () => update()));
  let typing = null;
  $("f-search").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => update(), 250); });
  $("filters").addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(typing); update(); });
  $("more").addEventListener("click", more);
  $("export").addEventListener("click", exportCsv);
  window.addEventListener("hashchange", applyHash);
  compareView();
  update(false);
  applyHash();
  document.body.dataset.ready = String(Math.round(performance.now()));
})();
