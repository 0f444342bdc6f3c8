/*
 * bscore-merge scoring page (bscore-merge blind --html).  Everything it needs
 * is in #page-data; it talks to nothing but the browser's local storage,
 * where the scores are saved after every change (key "ctxbench-page:" +
 * page_id), and the downloads it writes on export: NDJSON or CSV rows that
 * `bscore-merge merge` reads.  The rubric's rules are evaluated here from
 * their expression trees with a third value, unknown, for fields scored in
 * other passes: a rule is enforced when this pass decides it.
 */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("page-data").textContent);
  var R = D.rubric, ITEMS = D.items, N = ITEMS.length;
  var STORE = "ctxbench-page:" + D.page_id;
  var UNKNOWN = { unknown: true };
  var $ = function (id) { return document.getElementById(id); };

  /* ------------------------------------------------------------ fields */
  var FIELDS = R.fields, byName = {}, countOf = {};
  FIELDS.forEach(function (f) { byName[f.name] = f; });
  FIELDS.forEach(function (f) {
    if (f.type === "records" && f.count_field && byName[f.count_field]) countOf[f.count_field] = f.name;
  });
  function isNotes(f) { return f.type === "text" && f.merge === "concat"; }
  function choicesOf(f) {
    var out = [];
    if (f.type === "bool") {
      out = [{ value: false, label: "no" }, { value: true, label: "yes" }];
      (f.scale || []).forEach(function (s) { out.forEach(function (o) { if (o.value === s.value && s.label) o.label = s.label; }); });
      return out;
    }
    if (f.type === "enum") return (f.values || []).map(function (v) { return { value: v.value, label: v.label || String(v.value), criteria: v.criteria }; });
    if (f.type === "integer" && typeof f.min === "number" && typeof f.max === "number" && f.max - f.min <= 9) {
      var sc = {};
      (f.scale || []).forEach(function (s) { if (s.value !== undefined) sc[String(s.value)] = s; });
      if (f.nullable) out.push({ value: null, label: (sc["null"] && sc["null"].label) || "N/A", criteria: sc["null"] && sc["null"].criteria });
      for (var v = f.min; v <= f.max; v++) out.push({ value: v, label: sc[v] ? sc[v].label : String(v), criteria: sc[v] && sc[v].criteria });
      return out;
    }
    return null;
  }
  function keyOf(f, c, i, all) {
    if (c.value === null) return "-";
    if (f.type === "integer") return String(c.value);
    if (f.type === "bool") return c.value ? "1" : "0";
    var nn = all.filter(function (x) { return x.value !== null; }).indexOf(c);
    return nn < 9 ? String(nn + 1) : nn === 9 ? "0" : "";
  }

  /* ------------------------------------------------------------ state */
  var S = load();
  function fresh() { return { v: 1, rater_id: D.rater_id || "", pos: 0, items: {}, spot: { done: [], log: [], pending: null } }; }
  function load() {
    var s = null;
    try { s = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { s = null; }
    if (!s || s.v !== 1) s = fresh();
    if (!s.rater_id && D.rater_id) s.rater_id = D.rater_id;
    return s;
  }
  var saveError = false;
  function save() {
    try { localStorage.setItem(STORE, JSON.stringify(S)); saveError = false; }
    catch (e) { saveError = true; }
    progress();
  }
  function rec(i) {
    var id = ITEMS[i].response_id;
    if (!S.items[id]) {
      var pre = {};
      Object.keys(ITEMS[i].prefill || {}).forEach(function (k) { pre[k] = ITEMS[i].prefill[k]; });
      S.items[id] = { values: pre, done: false, date: null };
    }
    return S.items[id];
  }
  function today() {
    var d = new Date(), p = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate());
  }
  function doneCount() { var n = 0; ITEMS.forEach(function (it) { var r = S.items[it.response_id]; if (r && r.done) n++; }); return n; }

  /* ------------------------------------------------------------ rules */
  function isU(v) { return v === UNKNOWN; }
  function truthy(v) {
    if (v === null || v === undefined || v === false) return false;
    if (typeof v === "number") return v !== 0;
    if (typeof v === "string") return v.length > 0;
    if (Array.isArray(v)) return v.length > 0;
    return true;
  }
  function cmp(a, b) {
    if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 ? 0 : a < b ? -1 : 1;
    if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : 1;
    if (a === null && b === null) return 0;
    return undefined;
  }
  function attr(fieldName, itemEnums, val, name) {
    var defs = itemEnums[fieldName];
    if (!defs || val === null || val === undefined) return null;
    for (var i = 0; i < defs.length; i++) if (cmp(defs[i].value, val) === 0) return defs[i][name] === undefined ? null : defs[i][name];
    return null;
  }
  /* The evaluator of expr.c with unknown: row[name] === UNKNOWN for fields of other passes. */
  function ev(e, row, enums) {
    if (!e) return null;
    switch (e.k) {
      case "lit": return e.v;
      case "field": {
        var v = row[e.name];
        if (isU(v)) return UNKNOWN;
        if (v === undefined) return null;
        if (!e.sub) return v;
        return Array.isArray(v) ? v.map(function (x) { return x && x[e.sub] !== undefined ? x[e.sub] : null; }) : [];
      }
      case "call": {
        if (e.name === "attr") {
          var val = row[e.args[0].name], an = ev(e.args[1], row, enums);
          if (isU(val) || isU(an)) return UNKNOWN;
          return attr(e.args[0].name, enums, val, an);
        }
        var a = ev(e.args[0], row, enums);
        if (isU(a)) return UNKNOWN;
        if (e.name === "count") return Array.isArray(a) ? a.length : 0;
        if (e.name === "sum") return Array.isArray(a) ? a.reduce(function (s, x) { return typeof x === "number" ? s + x : s; }, 0) : 0;
        var b = ev(e.args[1], row, enums);
        if (isU(b)) return UNKNOWN;
        if (e.name === "in") return Array.isArray(b) && b.some(function (x) { return cmp(a, x) === 0; });
        if (typeof a === "number" && typeof b === "number") return e.name === "max" ? Math.max(a, b) : Math.min(a, b);
        return null;
      }
      case "un": {
        var x = ev(e.a, row, enums);
        if (isU(x)) return UNKNOWN;
        return e.op === "not" ? !truthy(x) : typeof x === "number" ? -x : null;
      }
      case "bin": {
        var l = ev(e.a, row, enums);
        if (e.op === "and" || e.op === "or") {
          var r = ev(e.b, row, enums);
          var lt = isU(l) ? UNKNOWN : truthy(l), rt = isU(r) ? UNKNOWN : truthy(r);
          if (e.op === "and") return lt === false || rt === false ? false : isU(lt) || isU(rt) ? UNKNOWN : true;
          return lt === true || rt === true ? true : isU(lt) || isU(rt) ? UNKNOWN : false;
        }
        var rr = ev(e.b, row, enums);
        if (isU(l) || isU(rr)) return UNKNOWN;
        var c = cmp(l, rr);
        switch (e.op) {
          case "==": return c === 0;
          case "!=": return c !== 0;
          case "<": case "<=": case ">": case ">=":
            if (c === undefined || l === null) return false;
            return e.op === "<" ? c < 0 : e.op === "<=" ? c <= 0 : e.op === ">" ? c > 0 : c >= 0;
          default:
            if (typeof l !== "number" || typeof rr !== "number") return null;
            return e.op === "+" ? l + rr : e.op === "-" ? l - rr : e.op === "*" ? l * rr : rr !== 0 ? l / rr : null;
        }
      }
    }
    return null;
  }

  /* The row the rules see: this pass's values, unknown for everything else. */
  function ruleRow(values) {
    var row = { rater_kind: "human" };
    FIELDS.forEach(function (f) {
      var v = values[f.name];
      if (countOf[f.name]) v = (values[countOf[f.name]] || []).length;
      if (v === undefined) v = f.type === "text" ? "" : (f["default"] !== undefined ? f["default"] : null);
      if (f.type === "records") v = (values[f.name] || []).map(function (it) { return finishItem(f, it); });
      row[f.name] = v;
    });
    /* Fields of other passes are unknown here. */
    return new Proxy(row, {
      get: function (t, k) { return Object.prototype.hasOwnProperty.call(t, k) ? t[k] : UNKNOWN; }
    });
  }
  function itemEnums(f) {
    var m = {};
    (f.items || []).forEach(function (it) { if (it.type === "enum") m[it.name] = it.values || []; });
    return m;
  }
  function finishItem(f, it) {
    var o = {};
    (f.items || []).forEach(function (sub) {
      var v = it[sub.name];
      o[sub.name] = v === undefined || v === "" ? (sub.type === "text" ? "" : null) : v;
    });
    (f.item_derived_ast || []).forEach(function (d) {
      if (d.when && !truthy(ev(d.when, o, itemEnums(f)))) return;
      var v = d.expr ? ev(d.expr, o, itemEnums(f)) : null;
      if (!isU(v)) o[d.name] = v;
    });
    return o;
  }

  /* Every problem that keeps the current values from being complete. */
  function problems(values) {
    var out = [], row = ruleRow(values);
    FIELDS.forEach(function (f) {
      if (countOf[f.name]) {
        if (values[countOf[f.name]] === undefined)
          out.push({ field: countOf[f.name], msg: (f.label || f.name) + ": press 0 for none, or add a record (h)" });
        return;
      }
      var v = values[f.name];
      if (f.type === "records") {
        (v || []).forEach(function (it, i) {
          var o = finishItem(f, it);
          (f.items || []).forEach(function (sub) {
            if (sub.required && (o[sub.name] === null || o[sub.name] === ""))
              out.push({ field: f.name, rec: i, sub: sub.name, msg: (f.label || f.name) + " " + (i + 1) + ": " + (sub.label || sub.name) + " is required" });
          });
          (f.item_rules_ast || []).forEach(function (r) {
            if (ev(r.when, o, itemEnums(f)) === true && ev(r.require, o, itemEnums(f)) === false)
              out.push({ field: f.name, rec: i, msg: (f.label || f.name) + " " + (i + 1) + ": " + r.message });
          });
        });
        return;
      }
      var optional = !f.required || (f.optional_when_ast && ev(f.optional_when_ast, row, {}) === true);
      var empty = v === undefined || (typeof v === "string" && v.trim() === "") || (v === null && !f.nullable) ||
        (Array.isArray(v) && !v.length && f.required);
      if (empty && !optional) out.push({ field: f.name, msg: (f.label || f.name) + " is required" });
      if (typeof v === "number" && ((typeof f.min === "number" && v < f.min) || (typeof f.max === "number" && v > f.max)))
        out.push({ field: f.name, msg: (f.label || f.name) + ": out of range" });
      if (f.type === "integer" && typeof v === "number" && Math.floor(v) !== v) out.push({ field: f.name, msg: (f.label || f.name) + ": a whole number" });
    });
    R.rules.forEach(function (r) {
      if (ev(r.when, row, {}) === true && ev(r.require, row, {}) === false) {
        var fld = null;
        FIELDS.forEach(function (f) { if (isNotes(f) && JSON.stringify(r.require).indexOf('"' + f.name + '"') >= 0) fld = f.name; });
        out.push({ field: fld, msg: r.message, rule: r.id });
      }
    });
    return out;
  }
  /* Whether a rule makes the notes required right now (to mark the label). */
  function notesRequired(values, notes) {
    if (notes.required) return true;
    var probe = JSON.parse(JSON.stringify(values));
    probe[notes.name] = "";
    return problems(probe).some(function (p) { return p.field === notes.name && p.rule; });
  }

  /* ------------------------------------------------------------ view */
  var mode = "score";		/* score | spot | compare */
  var active = 0;			/* index into the choice groups */
  var groups = [];		/* [{name, fieldset, choices, set(v), rec?}] */

  function cur() { return S.spot.pending ? S.spot.pending.items[S.spot.pending.at] : S.pos; }
  function values() {
    if (S.spot.pending) return S.spot.pending.values;
    return rec(S.pos).values;
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === "class") e.className = attrs[k]; else if (k === "for") e.htmlFor = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function progress() {
    var n = doneCount();
    $("progress").textContent = n + " of " + N + " scored" + (saveError ? " (not saved: storage full or off)" : "");
    $("progress-bar").max = N || 1;
    $("progress-bar").value = n;
  }

  function render() {
    var i = cur(), it = ITEMS[i], r = rec(i);
    $("pos").textContent = "Response " + (i + 1) + " of " + N;
    $("rid").textContent = it.response_id;
    var st = $("state");
    if (S.spot.pending) { st.textContent = "spot-check"; st.className = "state open"; }
    else { st.textContent = r.done ? "scored" : "not scored"; st.className = "state " + (r.done ? "done" : "open"); }
    $("question").textContent = it.question || "";
    $("gold").textContent = it.gold_answer || "";
    $("response").textContent = it.response || "";
    var ul = $("source-urls");
    ul.textContent = "";
    (it.source_urls || []).forEach(function (u) { ul.appendChild(el("li", { "class": "mono" }, u)); });
    $("source-sections").textContent = (it.source_sections || []).length ? "Sections: " + it.source_sections.join("; ") : "";
    var sc = $("source-content");
    sc.hidden = !it.source;
    sc.textContent = it.source || "";
    var h = $("hints");
    h.textContent = "";
    if (it.citation_hint) h.appendChild(el("p", { "class": "hint" }, "Citation hint (not a score): " + it.citation_hint));
    if (it.completeness_hint) h.appendChild(el("p", { "class": "hint" }, "Completeness hint (not a score): " + it.completeness_hint));
    var b = $("spot-banner");
    if (S.spot.pending) {
      b.hidden = false;
      b.textContent = "Spot-check " + (S.spot.pending.at + 1) + " of " + S.spot.pending.items.length +
        ": score this earlier response again; your earlier score is hidden until you save (spec 002).";
    } else b.hidden = true;
    renderForm();
    $("problems").textContent = "";
    $("compare").hidden = mode !== "compare";
    document.title = D.title + " \u2014 " + (i + 1) + "/" + N;
  }

  function renderForm() {
    var form = $("form"), vals = values();
    form.textContent = "";
    groups = [];
    FIELDS.forEach(function (f) {
      if (countOf[f.name]) return;		/* shown with its records */
      var fs = el("fieldset", { "class": "field", id: "f-" + f.name });
      var lg = el("legend", null, (f.label || f.name) + (f.section ? " (" + f.section + ")" : ""));
      fs.appendChild(lg);
      if (f.description) fs.appendChild(el("p", { "class": "desc", id: "d-" + f.name }, f.description));
      var ch = choicesOf(f);
      if (ch) {
        var box = el("div", { "class": "choices", role: "radiogroup", "aria-labelledby": "f-" + f.name + "-l" });
        lg.id = "f-" + f.name + "-l";
        ch.forEach(function (c, ci) {
          var id = "c-" + f.name + "-" + ci, k = keyOf(f, c, ci, ch);
          var lab = el("label", { "class": "choice", "for": id });
          var inp = el("input", { type: "radio", name: f.name, id: id });
          inp.checked = Object.prototype.hasOwnProperty.call(vals, f.name) && vals[f.name] === c.value;
          if (!Object.prototype.hasOwnProperty.call(vals, f.name) && f["default"] !== undefined && f["default"] === c.value && f.type === "bool") inp.checked = false;
          inp.addEventListener("change", function () { setValue(f.name, c.value); });
          lab.appendChild(inp);
          var t = el("span");
          t.appendChild(el("span", { "class": "k" }, k ? "[" + k + "] " : ""));
          t.appendChild(document.createTextNode(c.label));
          if (c.criteria) t.appendChild(el("span", { "class": "crit" }, c.criteria));
          lab.appendChild(t);
          box.appendChild(lab);
        });
        fs.appendChild(box);
        groups.push({ name: f.name, fieldset: fs, choices: ch, field: f });
      } else if (f.type === "records") {
        renderRecords(f, fs, vals);
      } else if (isNotes(f)) {
        var ta = el("textarea", { id: "i-" + f.name, rows: "3" });
        var l2 = el("label", { "for": "i-" + f.name, id: "l-" + f.name }, "Notes (n)");
        if (notesRequired(vals, f)) l2.className = "req";
        ta.value = vals[f.name] || "";
        ta.addEventListener("input", function () { setValue(f.name, ta.value, true); });
        fs.appendChild(l2);
        fs.appendChild(ta);
      } else {
        var inp2 = el("input", { id: "i-" + f.name, type: f.type === "integer" || f.type === "number" ? "number" : "text" });
        if (typeof f.min === "number") inp2.min = f.min;
        if (typeof f.max === "number") inp2.max = f.max;
        var l3 = el("label", { "for": "i-" + f.name }, f.type === "list" ? "Comma-separated" : "Value");
        var v = vals[f.name];
        inp2.value = v === undefined || v === null ? "" : Array.isArray(v) ? v.join(",") : String(v);
        inp2.addEventListener("input", function () {
          var s = inp2.value, val = s;
          if (f.type === "integer" || f.type === "number") val = s.trim() === "" ? undefined : Number(s);
          else if (f.type === "list") val = s.split(",").map(function (x) { return x.trim(); }).filter(function (x) { return x; });
          setValue(f.name, val, true);
        });
        fs.appendChild(l3);
        fs.appendChild(inp2);
        if (f.scale) {
          var sl = el("ul", { "class": "guidance" });
          f.scale.forEach(function (s) { sl.appendChild(el("li", null, (s.min !== undefined ? s.min + "\u2013" + s.max : String(s.value)) + ": " + s.label + (s.criteria ? " \u2014 " + s.criteria : ""))); });
          fs.appendChild(sl);
        }
      }
      if (f.checklist) {
        var cl = el("ul", { "class": "guidance", "aria-label": "Checklist" });
        f.checklist.forEach(function (g) { cl.appendChild(el("li", null, "\u2610 " + g)); });
        fs.appendChild(cl);
      }
      if (f.guidance) {
        var gl = el("ul", { "class": "guidance", "aria-label": "Guidance" });
        f.guidance.forEach(function (g) { gl.appendChild(el("li", null, g)); });
        fs.appendChild(gl);
      }
      form.appendChild(fs);
    });
    if (active >= groups.length) active = 0;
    markActive();
  }

  function renderRecords(f, fs, vals) {
    var list = vals[f.name] || [], cf = f.count_field && byName[f.count_field];
    if (cf) {
      var n = list.length, answered = Object.prototype.hasOwnProperty.call(vals, f.name);
      fs.appendChild(el("p", { "class": "desc", id: "count-" + f.name, "aria-live": "polite" },
        (cf.label || cf.name) + ": " + (answered || n ? String(n) : "not given yet") + " \u2014 press 0 for none; select text in the response and press h to add one."));
      if (cf.guidance) {
        var gl = el("ul", { "class": "guidance" });
        cf.guidance.forEach(function (g) { gl.appendChild(el("li", null, g)); });
        fs.appendChild(gl);
      }
    }
    list.forEach(function (it, ri) {
      var box = el("div", { "class": "record", role: "group", "aria-label": "Record " + (ri + 1) });
      box.appendChild(el("strong", null, "Record " + (ri + 1)));
      (f.items || []).forEach(function (sub) {
        var ch = sub.type === "enum" ? choicesOf(sub) : null;
        if (ch) {
          var g = el("div", { "class": "choices", role: "radiogroup", "aria-label": sub.label || sub.name, id: "r-" + f.name + "-" + ri + "-" + sub.name });
          ch.forEach(function (c, ci) {
            var id = "c-" + f.name + "-" + ri + "-" + sub.name + "-" + ci, k = keyOf(sub, c, ci, ch);
            var lab = el("label", { "class": "choice", "for": id });
            var inp = el("input", { type: "radio", name: f.name + "-" + ri + "-" + sub.name, id: id });
            inp.checked = it[sub.name] === c.value;
            inp.addEventListener("change", function () { setItem(f.name, ri, sub.name, c.value); });
            lab.appendChild(inp);
            var t = el("span");
            t.appendChild(el("span", { "class": "k" }, k ? "[" + k + "] " : ""));
            t.appendChild(document.createTextNode(c.value + " " + c.label));
            if (c.criteria) t.appendChild(el("span", { "class": "crit" }, c.criteria));
            lab.appendChild(t);
            g.appendChild(lab);
          });
          box.appendChild(g);
          groups.push({ name: f.name + "." + ri + "." + sub.name, fieldset: box, choices: ch, field: sub, rec: { field: f.name, i: ri, sub: sub.name } });
        } else {
          var id2 = "i-" + f.name + "-" + ri + "-" + sub.name;
          var lab2 = el("label", { "for": id2 }, (sub.label || sub.name));
          if (sub.required) lab2.className = "req";
          var inp2 = sub.name === "model_text_span" ? el("textarea", { id: id2, rows: "2" }) : el("input", { id: id2, type: sub.type === "integer" ? "number" : "text" });
          inp2.value = it[sub.name] === undefined || it[sub.name] === null ? "" : String(it[sub.name]);
          inp2.addEventListener("input", function () {
            var v = inp2.value;
            setItem(f.name, ri, sub.name, sub.type === "integer" ? (v.trim() === "" ? null : Number(v)) : v, true);
          });
          box.appendChild(lab2);
          box.appendChild(inp2);
        }
      });
      var rm = el("button", { type: "button" }, "Remove record " + (ri + 1));
      rm.addEventListener("click", function () { removeItem(f.name, ri); });
      box.appendChild(rm);
      fs.appendChild(box);
    });
    var add = el("button", { type: "button", id: "add-" + f.name }, "Add from the selected text (h)");
    add.addEventListener("mousedown", function (e) { e.preventDefault(); });
    add.addEventListener("click", function () { addRecord(f.name); });
    fs.appendChild(add);
  }

  function markActive() {
    groups.forEach(function (g, gi) { g.fieldset.classList.toggle("active", gi === active); });
  }
  function setValue(name, v, noRender) {
    var vals = values();
    if (v === undefined) delete vals[name]; else vals[name] = v;
    touched();
    if (!noRender) renderForm();
    else refreshNotesLabel();
  }
  function refreshNotesLabel() {
    FIELDS.forEach(function (f) {
      var l = $("l-" + f.name);
      if (l && isNotes(f)) l.className = notesRequired(values(), f) ? "req" : "";
    });
  }
  function setItem(field, i, sub, v, noRender) {
    var vals = values();
    vals[field][i][sub] = v;
    touched();
    if (!noRender) renderForm(); else refreshNotesLabel();
  }
  function removeItem(field, i) {
    var vals = values();
    vals[field].splice(i, 1);
    touched();
    renderForm();
  }
  function addRecord(field) {
    var f = byName[field], vals = values(), span = "";
    var sel = window.getSelection(), resp = $("response");
    if (sel && sel.rangeCount && resp.contains(sel.anchorNode) && resp.contains(sel.focusNode)) span = sel.toString().trim();
    var it = {};
    (f.items || []).forEach(function (sub) { it[sub.name] = sub.name === "model_text_span" ? span : sub.type === "text" ? "" : null; });
    if (!vals[field]) vals[field] = [];
    vals[field].push(it);
    touched();
    renderForm();
    var ri = vals[field].length - 1;
    for (var gi = 0; gi < groups.length; gi++) if (groups[gi].rec && groups[gi].rec.field === field && groups[gi].rec.i === ri) { active = gi; break; }
    markActive();
    var first = document.querySelector("#r-" + field + "-" + ri + "-" + ((f.items || []).filter(function (s) { return s.type === "enum"; })[0] || {}).name + " input");
    focusAfterKey(first);
    say("Record " + (ri + 1) + " added" + (span ? " with the selected text" : " (no text was selected in the response)"));
  }
  function touched() {
    if (!S.spot.pending) { var r = rec(S.pos); if (r.done) { r.done = false; r.reopened = true; } }
    save();
  }
  function say(msg) { $("progress").setAttribute("data-msg", msg); var p = $("problems"); p.textContent = ""; p.appendChild(el("p", { role: "status" }, msg)); p.className = "info"; }

  /*
   * Focus moved by a shortcut waits for the key's keyup, so that the key's
   * own character never lands in the field it opens.
   */
  var keyDown = false, deferred = null;
  function focusAfterKey(x) {
    if (!x) return;
    if (keyDown) deferred = x; else x.focus();
  }

  /* A digit (or '-') for the active group. */
  function digit(k) {
    var g = groups[active];
    var t = document.activeElement;
    if (t && t.type === "radio") for (var gi = 0; gi < groups.length; gi++) if (groups[gi].fieldset.contains(t)) { g = groups[gi]; active = gi; break; }
    if (!g) {
      var cnt = FIELDS.filter(function (f) { return f.type === "records" && f.count_field; })[0];
      if (cnt && k === "0") { noRecords(cnt); return true; }
      var num = document.querySelector("#form input[type=number]");
      if (num && k !== "-") { num.focus(); num.value += k; num.dispatchEvent(new Event("input")); return true; }
      return false;
    }
    if (k === "0") {
      var rf = FIELDS.filter(function (f) { return f.type === "records" && f.count_field; })[0];
      if (rf && !g.rec && !groups.some(function (x) { return !x.rec; })) { noRecords(rf); return true; }
    }
    var ch = g.choices, pick = null;
    ch.forEach(function (c, ci) { if (keyOf(g.field, c, ci, ch) === k) pick = c; });
    if (!pick) { say("No choice " + k + " for " + (g.field.label || g.field.name)); return true; }
    if (g.rec) {
      setItem(g.rec.field, g.rec.i, g.rec.sub, pick.value);
      var nx = document.getElementById("i-" + g.rec.field + "-" + g.rec.i + "-claim") ||
        document.querySelector("#r-" + g.rec.field + "-" + g.rec.i + "-" + g.rec.sub + " input:checked");
      focusAfterKey(nx);
      return true;
    }
    setValue(g.name, pick.value);
    var vals = values();
    for (var j = active + 1; j < groups.length; j++) if (!groups[j].rec && !Object.prototype.hasOwnProperty.call(vals, groups[j].name)) { active = j; break; }
    markActive();
    var c = document.querySelector("#f-" + g.name + " input:checked");
    if (document.activeElement && document.activeElement.type === "radio" && c) c.focus();
    return true;
  }
  function noRecords(f) {
    var vals = values();
    if ((vals[f.name] || []).length) { say("Remove the records first to give 0"); return; }
    vals[f.name] = [];
    touched();
    renderForm();
  }

  /* ------------------------------------------------------------ moving */
  function showProblems(ps) {
    var p = $("problems");
    p.textContent = "";
    p.className = "";
    var ul = el("ul");
    ps.forEach(function (x) { ul.appendChild(el("li", null, x.msg)); });
    p.appendChild(el("strong", null, "Not saved yet:"));
    p.appendChild(ul);
    var f = ps[0] && ps[0].field && byName[ps[0].field];
    if (f && isNotes(f)) $("i-" + f.name).focus();
    else if (f) {
      for (var gi = 0; gi < groups.length; gi++) if (groups[gi].name === f.name) { active = gi; markActive(); break; }
      if (ps[0].rec !== undefined && ps[0].sub) { var x = document.getElementById("i-" + f.name + "-" + ps[0].rec + "-" + ps[0].sub); if (x) x.focus(); }
    }
  }
  function submit() {
    if (mode === "compare") return;
    var ps = problems(values());
    if (ps.length) { showProblems(ps); return; }
    if (S.spot.pending) { spotSaved(); return; }
    var r = rec(S.pos);
    r.done = true;
    r.date = today();
    delete r.reopened;
    save();
    if (maybeSpot()) return;
    go(nextOpen(S.pos));
  }
  function nextOpen(from) {
    for (var k = 1; k <= N; k++) { var i = (from + k) % N; if (!rec(i).done) return i; }
    return Math.min(from + 1, N - 1);
  }
  function go(i) {
    if (S.spot.pending) return;
    if (i < 0 || i >= N) return;
    S.pos = i;
    active = 0;
    save();
    render();
    if (doneCount() === N) say("All " + N + " responses are scored: export them (e).");
  }

  /* ------------------------------------------------------------ spot-checks (spec 002) */
  function rng(str) {
    var h = 2166136261;
    for (var i = 0; i < str.length; i++) { h ^= str.charCodeAt(i); h = Math.imul(h, 16777619); }
    return function () {		/* mulberry32 */
      h = (h + 0x6D2B79F5) | 0;
      var t = Math.imul(h ^ (h >>> 15), 1 | h);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function maybeSpot() {
    var every = D.spot_check_every, n = doneCount();
    if (!every || n % every !== 0 || S.spot.done.indexOf(n) >= 0) return false;
    S.spot.done.push(n);
    var cand = [];
    ITEMS.forEach(function (it, i) { if (i !== S.pos && rec(i).done) cand.push(i); });
    var rnd = rng(D.page_id + ":" + n), pick = [];
    while (cand.length && pick.length < D.spot_check_items) pick.push(cand.splice(Math.floor(rnd() * cand.length), 1)[0]);
    if (!pick.length) { save(); return false; }
    S.spot.pending = { milestone: n, items: pick, at: 0, values: {}, back: S.pos };
    mode = "spot";
    active = 0;
    save();
    render();
    say("Spot-check after " + n + " scored responses: " + pick.length + " earlier response" + (pick.length > 1 ? "s" : "") + " to score again.");
    return true;
  }
  function scoreFields() {
    return FIELDS.filter(function (f) { return !isNotes(f) && f.type !== "text" && f.type !== "list" && !countOf[f.name]; });
  }
  function discrepancy(a, b) {
    var worst = 0, parts = [];
    scoreFields().forEach(function (f) {
      var x = a[f.name], y = b[f.name], d;
      if (f.type === "records") {
        var nx = (x || []).length, ny = (y || []).length;
        d = nx === ny ? 0 : Math.abs(nx - ny) / Math.max(1, nx, ny);
        x = nx; y = ny;
      } else if (typeof x === "number" && typeof y === "number" && typeof f.min === "number" && typeof f.max === "number" && f.max > f.min) {
        d = Math.abs(x - y) / (f.max - f.min);
      } else {
        d = JSON.stringify(x === undefined ? null : x) === JSON.stringify(y === undefined ? null : y) ? 0 : 1;
      }
      parts.push({ field: f.name, earlier: x === undefined ? null : x, again: y === undefined ? null : y, d: d });
      if (d > worst) worst = d;
    });
    return { worst: worst, parts: parts };
  }
  function spotSaved() {
    var p = S.spot.pending, i = p.items[p.at], earlier = rec(i).values;
    var dc = discrepancy(earlier, p.values);
    p.last = { response_id: ITEMS[i].response_id, milestone: p.milestone, earlier: JSON.parse(JSON.stringify(earlier)),
      again: JSON.parse(JSON.stringify(p.values)), discrepancy: Math.round(dc.worst * 1000) / 1000 };
    if (dc.worst > 0.15) {
      mode = "compare";
      save();
      var c = $("compare");
      c.textContent = "";
      c.hidden = false;
      c.appendChild(el("strong", null, "Your two scores differ (discrepancy " + p.last.discrepancy + " > 0.15): review both."));
      var ul = el("ul");
      dc.parts.forEach(function (x) { if (x.d > 0) ul.appendChild(el("li", null, x.field + ": earlier " + JSON.stringify(x.earlier) + ", now " + JSON.stringify(x.again))); });
      c.appendChild(ul);
      var l = el("label", { "for": "spot-note" }, "Rubric interpretation note (optional)");
      var t = el("textarea", { id: "spot-note", rows: "2" });
      c.appendChild(l); c.appendChild(t);
      var keep = el("button", { type: "button", id: "spot-keep" }, "Keep the earlier score (k)");
      var use = el("button", { type: "button", id: "spot-use" }, "Use the new score (u)");
      keep.addEventListener("click", function () { resolve("kept"); });
      use.addEventListener("click", function () { resolve("adopted"); });
      c.appendChild(keep); c.appendChild(use);
      keep.focus();
      return;
    }
    resolve("agree");
  }
  function resolve(how) {
    var p = S.spot.pending, note = $("spot-note");
    p.last.resolution = how;
    p.last.note = note ? note.value : "";
    p.last.at = new Date().toISOString();
    p.last.rater_id = S.rater_id;
    S.spot.log.push(p.last);
    if (how === "adopted") {
      var r = rec(p.items[p.at]);
      r.values = JSON.parse(JSON.stringify(p.values));
      r.date = today();
    }
    delete p.last;
    p.at++;
    p.values = {};
    mode = "spot";
    if (p.at >= p.items.length) {
      var back = p.back;
      S.spot.pending = null;
      mode = "score";
      save();
      go(nextOpen(back));
      say("Spot-check done.");
      return;
    }
    save();
    render();
  }

  /* ------------------------------------------------------------ export */
  function exportRows() {
    var rows = [];
    ITEMS.forEach(function (it) {
      var r = S.items[it.response_id];
      if (!r || !r.done) return;
      var o = { row: it.row, response_id: it.response_id, rater_id: S.rater_id, rater_kind: "human", scoring_date: r.date || today() };
      if (D.self_check) o.self_check = "yes";
      o.rubric = R.rubric;
      FIELDS.forEach(function (f) {
        var v = r.values[f.name];
        if (countOf[f.name]) v = (r.values[countOf[f.name]] || []).length;
        else if (f.type === "records") v = (v || []).map(function (x) {
          var y = {};
          (f.items || []).forEach(function (sub) { var z = x[sub.name]; if (z !== null && z !== undefined && z !== "") y[sub.name] = z; });
          return y;
        });
        else if (v === undefined) v = f.type === "text" ? "" : f["default"] !== undefined ? f["default"] : null;
        o[f.name] = v;
      });
      rows.push(o);
    });
    return rows;
  }
  function csvCell(v) {
    var s = v === null || v === undefined ? "" : Array.isArray(v) ? v.join(",") : String(v);
    if (/^[=+\-@]/.test(s)) s = " " + s;
    return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function stem() { return D.export_base + "-" + (S.rater_id || "rater").replace(/[^A-Za-z0-9._-]/g, "_") + "-" + today(); }
  function exportFiles(format) {
    var rows = exportRows(), files = [];
    if (format === "ndjson") {
      files.push({ name: stem() + ".ndjson", type: "application/x-ndjson", text: rows.map(function (r) { return JSON.stringify(r) + "\n"; }).join("") });
      return files;
    }
    var head = ["row", "response_id", "rater_id", "rater_kind", "scoring_date"];
    if (D.self_check) head.push("self_check");
    var plain = FIELDS.filter(function (f) { return f.type !== "records"; });
    plain.forEach(function (f) { head.push(f.name); });
    var lines = [head.map(csvCell).join(",")];
    rows.forEach(function (r) {
      lines.push(head.map(function (h) {
        var f = byName[h], v = r[h];
        if (f && f.nullable && v === null) return "N/A";
        return csvCell(v);
      }).join(","));
    });
    files.push({ name: stem() + ".csv", type: "text/csv", text: lines.join("\r\n") + "\r\n" });
    FIELDS.filter(function (f) { return f.type === "records"; }).forEach(function (f) {
      var h2 = ["response_id", "rater_id"];
      if (D.self_check) h2.push("self_check");
      (f.items || []).forEach(function (sub) { h2.push(sub.name); });
      var l2 = [h2.map(csvCell).join(",")];
      rows.forEach(function (r) {
        (r[f.name] || []).forEach(function (x) {
          l2.push(h2.map(function (h) { return csvCell(h === "response_id" || h === "rater_id" || h === "self_check" ? r[h] : x[h]); }).join(","));
        });
      });
      files.push({ name: (D.set ? D.set + "-" : "") + "records-" + f.name + "-" + (S.rater_id || "rater").replace(/[^A-Za-z0-9._-]/g, "_") + "-" + today() + ".csv", type: "text/csv", text: l2.join("\r\n") + "\r\n" });
    });
    return files;
  }
  function download(file) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([file.text], { type: file.type }));
    a.download = file.name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  function doExport(format) {
    if (!S.rater_id.trim()) { say("Enter your rater id first."); $("rater").focus(); return; }
    var n = doneCount();
    if (!n) { say("Nothing scored yet."); return; }
    if (n < N && !window.confirm(n + " of " + N + " responses are scored; export those " + n + "?")) return;
    exportFiles(format).forEach(download);
    say("Exported " + n + " scored response" + (n > 1 ? "s" : "") + " as " + format.toUpperCase() + ".");
  }
  function exportSpotLog() {
    download({ name: D.export_base + "-spot-checks-" + (S.rater_id || "rater").replace(/[^A-Za-z0-9._-]/g, "_") + "-" + today() + ".ndjson",
      type: "application/x-ndjson", text: S.spot.log.map(function (r) { return JSON.stringify(r) + "\n"; }).join("") });
  }

  /* ------------------------------------------------------------ keys */
  var KEYS = [
    ["0\u20139", "score the highlighted field (enum and record choices: 1, 2, \u2026); 0 for no records"],
    ["-", "N/A where the rubric allows it"], ["\u2191 \u2193", "move between fields"],
    ["Enter", "save and go to the next unscored response"], ["j / \u2192", "next response (not saved)"],
    ["k / \u2190", "previous response"], ["n", "write notes (Esc leaves, Ctrl+Enter saves)"],
    ["h", "add a record from the text selected in the response"], ["s", "show or hide the sources"],
    ["e / c", "export NDJSON / CSV"], ["?", "this help"]
  ];
  function typing(t) { return t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT" || (t.tagName === "INPUT" && t.type !== "radio" && t.type !== "checkbox")); }
  document.addEventListener("keyup", function () {
    keyDown = false;
    if (deferred) { var x = deferred; deferred = null; x.focus(); }
  });
  document.addEventListener("keydown", function (e) {
    var t = e.target, k = e.key;
    keyDown = true;
    if ($("help").open) return;
    if (typing(t)) {
      if (k === "Escape") { t.blur(); e.preventDefault(); }
      else if (k === "Enter" && (e.ctrlKey || e.metaKey)) { t.blur(); submit(); e.preventDefault(); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (mode === "compare") {
      if (k === "k") { resolve("kept"); e.preventDefault(); }
      else if (k === "u") { resolve("adopted"); e.preventDefault(); }
      return;
    }
    var handled = true;
    if (/^[0-9]$/.test(k) || k === "-") handled = digit(k);
    else if (k === "Enter" && t.tagName !== "BUTTON" && t.tagName !== "SUMMARY" && t.tagName !== "A") submit();
    else if (k === "j" || (k === "ArrowRight" && t.type !== "radio")) go(S.pos + 1);
    else if (k === "k" || (k === "ArrowLeft" && t.type !== "radio")) go(S.pos - 1);
    else if (k === "ArrowDown" && t.type !== "radio") { active = Math.min(active + 1, groups.length - 1); markActive(); }
    else if (k === "ArrowUp" && t.type !== "radio") { active = Math.max(active - 1, 0); markActive(); }
    else if (k === "n") { var nf = FIELDS.filter(isNotes)[0]; if (nf) focusAfterKey($("i-" + nf.name)); }
    else if (k === "h") { var rf = FIELDS.filter(function (f) { return f.type === "records"; })[0]; if (rf) addRecord(rf.name); else handled = false; }
    else if (k === "s") { var d = $("sources-box"); d.open = !d.open; if (d.open && !$("source-content").hidden) $("source-content").focus(); }
    else if (k === "e") doExport("ndjson");
    else if (k === "c") doExport("csv");
    else if (k === "?") $("help").showModal();
    else handled = false;
    if (handled) e.preventDefault();
  });

  /* ------------------------------------------------------------ start */
  var dl = $("help-keys");
  KEYS.forEach(function (p) { dl.appendChild(el("dt", null, p[0])); dl.appendChild(el("dd", null, p[1])); });
  var rater = $("rater");
  rater.value = S.rater_id;
  rater.addEventListener("input", function () { S.rater_id = rater.value.trim(); save(); });
  $("btn-export").addEventListener("click", function () { doExport("ndjson"); });
  $("btn-export-csv").addEventListener("click", function () { doExport("csv"); });
  $("btn-spot-log").addEventListener("click", exportSpotLog);
  $("btn-help").addEventListener("click", function () { $("help").showModal(); });
  $("btn-prev").addEventListener("click", function () { go(S.pos - 1); });
  $("btn-next").addEventListener("click", function () { go(S.pos + 1); });
  $("btn-save").addEventListener("click", submit);
  if (S.spot.pending) mode = "spot";
  if (S.pos >= N) S.pos = 0;
  progress();
  if (N) render(); else $("question").textContent = "This sheet holds no responses.";
  /* For tests and scripts: the state and the export without downloading. */
  window.ctxbenchPage = {
    state: function () { return JSON.parse(JSON.stringify(S)); },
    view: function () { var i = cur(); return { pos: i, response_id: ITEMS[i] && ITEMS[i].response_id, mode: mode, spot: !!S.spot.pending, done: doneCount(), total: N, problems: $("problems").textContent }; },
    exportFiles: exportFiles
  };
})();
