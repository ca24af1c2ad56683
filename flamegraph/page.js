"use strict";
// profdiff's flame graph: an icicle of the merged call tree, drawn on a
// canvas from the JSON in #data. Names from profiles only ever reach the
// page as text (textContent, canvas fillText), never as markup.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const N = D.parent.length;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const kids = Array.from({ length: N }, () => []);
  for (let i = 1; i < N; i++) kids[D.parent[i]].push(i);
  const sides = D.sides.length;
  const fnOf = (i) => (D.function[i] >= 0 ? D.functions[D.function[i]] : ["all", "", ""]);
  const VERDICT = ["~", "better", "worse", "new", "gone"];

  // Durations as the text report writes them: three significant digits.
  function dur(ns) {
    if (ns === null || ns === undefined || !isFinite(ns)) return "-";
    const a = Math.abs(ns);
    const units = [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]];
    for (const [f, u] of units) {
      if (a >= f || f === 1) {
        const x = ns / f;
        const ax = Math.abs(x);
        const s = ax >= 100 ? x.toFixed(0) : ax >= 10 ? x.toFixed(1) : x.toFixed(2);
        return (a === 0 ? "0" : s) + (a === 0 ? "" : " " + u);
      }
    }
  }
  const sdur = (ns) => (ns > 0 ? "+" : ns < 0 ? "-" : "") + dur(Math.abs(ns));
  const pct = (x) => (x === null || x === undefined || !isFinite(x) ? "-" : (x > 0 ? "+" : "") + x.toFixed(1) + "%");
  const fmtP = (p) => (p === null || p === undefined ? "-" : p < 0.001 ? "<0.001" : p.toFixed(3));

  // Header, headline, paths, tables, warnings.
  $("title").textContent = D.title || "profdiff";
  for (const s of D.sides) $("sides").appendChild(el("div", s));
  const hl = $("headline");
  if (D.compared) {
    const tr = el("tr");
    for (const h of ["", "before", "after", "change"]) tr.appendChild(el("th", h));
    hl.appendChild(tr);
  }
  for (const row of D.headline) {
    const tr = el("tr");
    row.forEach((c, i) => tr.appendChild(el(i === 0 ? "th" : "td", c)));
    hl.appendChild(tr);
  }
  // Resources: a table per step and group, a row per measure, a column
  // per side (mean ±σ, and beside a variant its change and verdict).
  for (const t of D.resources || []) {
    $("resources-section").hidden = false;
    if (t.step) $("resources").appendChild(el("h3", "Step " + t.step));
    const table = el("table");
    table.className = "resources";
    const head = el("tr");
    for (const h of t.header) head.appendChild(el("th", h));
    table.appendChild(head);
    for (const row of t.rows) {
      const tr = el("tr");
      row.forEach((c, i) => tr.appendChild(el(i === 0 ? "th" : "td", c)));
      table.appendChild(tr);
    }
    $("resources").appendChild(table);
  }
  if (!D.compared) $("paths-section").hidden = true;
  $("paths-note").textContent = D.pathsNote || "";
  (D.paths || []).forEach((p) => {
    const li = el("li");
    const a = el("a", p.text);
    a.href = "#";
    a.addEventListener("click", (e) => {
      e.preventDefault();
      zoomTo(p.nodes[p.nodes.length - 1]);
      search(null);
    });
    li.appendChild(a);
    $("paths").appendChild(li);
  });
  if (!D.warnings.length) $("warnings-section").hidden = true;
  for (const w of D.warnings) $("warnings").appendChild(el("li", w));
  // The tables show at most six columns, so that they fit their panel:
  // the name (with, for a function, its package and location below it),
  // then for a comparison one measure's before, after, Δ%, verdict and p
  // (each row's deciding measure, or self or total as chosen), for one
  // profile self, self%, total and total%. Names are shortened in the
  // middle to their column; the whole row is in the row's tooltip.
  // A click on a row selects its function's (or package's) frames in the
  // graph; a click on a frame marks its rows here.
  const measureFont = (() => {
    const c = document.createElement("canvas").getContext("2d");
    return (font) => {
      c.font = font;
      return (s) => c.measureText(s).width;
    };
  })();
  // mid shortens s in the middle to fit px pixels as measured by width.
  function mid(s, px, width) {
    if (width(s) <= px) return s;
    let lo = 1, hi = s.length - 1, best = "…";
    while (lo <= hi) {
      const keep = (lo + hi) >> 1;
      const head = Math.ceil(keep / 2), tail = keep - head;
      const t = s.slice(0, head) + "…" + (tail > 0 ? s.slice(s.length - tail) : "");
      if (width(t) <= px) {
        best = t;
        lo = keep + 1;
      } else hi = keep - 1;
    }
    return best;
  }
  const tables = {};
  function fillTable(id, t) {
    const tab = $(id);
    const fns = id === "functions";
    $(id + "-title").textContent = t.title + (t.rows.length < t.total ? " (top " + t.rows.length + " of " + t.total + ")" : "");
    const pkgCol = fns ? t.headers.length - 2 : -1, locCol = fns ? t.headers.length - 1 : -1;
    // Data columns of a comparison (after the name): self before, after,
    // Δ%, verdict, total before, after, Δ%, verdict, Δshare, p (the
    // deciding measure's), self p, total p.
    const measureSel = $(id + "-measure");
    if (!D.compared) measureSel.parentElement.hidden = true;
    const measureOf = (r) => {
      const m = measureSel.value;
      if (m !== "deciding") return m;
      // the measure marked * decides; with neither real, self, unless
      // the row has no self time at all (a caller: its total says more)
      if (t.rows[r][8].endsWith("*")) return "total";
      if (t.rows[r][4].endsWith("*")) return "self";
      return t.keys[r][1] === 0 && t.keys[r][2] === 0 ? "total" : "self";
    };
    // The columns shown: [header, cell text of row r, sort key of row r].
    const columns = () => {
      const name = [fns ? "function" : "package", (r) => t.rows[r][0], null];
      if (!D.compared) return [name].concat([1, 2, 3, 4].map((j) => [t.headers[j], (r) => t.rows[r][j], (r) => t.keys[r][j]]));
      const base = (r) => (measureOf(r) === "self" ? 1 : 5);
      const pcol = (r) => (measureOf(r) === "self" ? 11 : 12);
      const m = measureSel.value;
      const label = m === "deciding" ? "" : m + " ";
      return [
        name,
        [label + "before", (r) => t.rows[r][base(r)], (r) => t.keys[r][base(r)]],
        ["after", (r) => t.rows[r][base(r) + 1], (r) => t.keys[r][base(r) + 1]],
        ["Δ%", (r) => t.rows[r][base(r) + 2], (r) => t.keys[r][base(r) + 2]],
        ["verdict", (r) => (m === "deciding" ? measureOf(r) + " " : "") + t.rows[r][base(r) + 3].replace(/\*$/, ""), (r) => t.keys[r][base(r) + 2]],
        ["p", (r) => t.rows[r][pcol(r)], (r) => -t.keys[r][pcol(r)]],
      ];
    };
    const tip = (r) => {
      const row = t.rows[r];
      const lines = [row[0]];
      if (fns) lines.push(row[pkgCol] + (row[locCol] ? "  " + row[locCol] : ""));
      if (D.compared) {
        lines.push("self: " + row[1] + " → " + row[2] + " " + row[3] + " " + row[4] + " p=" + row[11]);
        lines.push("total: " + row[5] + " → " + row[6] + " " + row[7] + " " + row[8] + " p=" + row[12]);
        lines.push("Δshare " + row[9] + " (* the measure that decides the row)");
      } else lines.push("self " + row[1] + " (" + row[2] + "), total " + row[3] + " (" + row[4] + ") " + D.per);
      return lines.join("\n");
    };
    let order = t.rows.map((_, i) => i);
    let by = -1, rev = false;
    const trs = [];
    const draw = () => {
      tab.textContent = "";
      const cols = columns();
      const head = el("tr");
      cols.forEach(([h, , k], j) => {
        const th = el("th", h, j === by ? "sorted" : "");
        th.title = "sort";
        th.addEventListener("click", () => {
          rev = by === j ? !rev : false;
          by = j;
          order.sort((a, b) => {
            const x = k ? Math.abs(k(b)) - Math.abs(k(a)) : t.rows[a][0].localeCompare(t.rows[b][0]);
            return rev ? -x : x;
          });
          draw();
        });
        head.appendChild(th);
      });
      const thead = el("thead");
      thead.appendChild(head);
      tab.appendChild(thead);
      const body = el("tbody");
      tab.appendChild(body);
      trs.length = 0;
      for (const r of order) {
        const tr = el("tr");
        tr.title = tip(r);
        cols.forEach(([, text], j) => {
          if (j > 0) {
            tr.appendChild(el("td", text(r), "num"));
            return;
          }
          const td = el("td", null, "name");
          td.appendChild(el("div", t.rows[r][0], "nm"));
          if (fns) td.appendChild(el("div", t.rows[r][pkgCol] + (t.rows[r][locCol] ? " · " + t.rows[r][locCol] : ""), "sub"));
          tr.appendChild(td);
        });
        tr.addEventListener("click", () => selectRow(id, r));
        tr.dataset.row = r;
        body.appendChild(tr);
        trs[r] = tr;
      }
      shorten();
      mark();
    };
    // Names shortened in the middle to the width their column has.
    const shorten = () => {
      for (const tr of trs) {
        if (!tr) continue;
        const td = tr.firstChild;
        const px = td.clientWidth - 12;
        if (px <= 0) continue;
        for (const d of td.children) {
          const full = d.dataset.full || d.textContent;
          d.dataset.full = full;
          d.textContent = mid(full, px, measureFont(getComputedStyle(d).font));
        }
      }
    };
    // The rows of what the graph has selected get the class "selected".
    const mark = () => {
      trs.forEach((tr, r) => {
        if (tr) tr.classList.toggle("selected", !!selection && rowSelected(id, t, r));
      });
    };
    measureSel.addEventListener("change", draw);
    tables[id] = { t: t, draw: draw, mark: mark, shorten: shorten, trs: trs };
    draw();
  }
  // selection is what the graph has selected: {fn} (a function of the
  // page's functions) or {pkg} (a package's name), null for nothing.
  let selection = null;
  function rowSelected(id, t, r) {
    if (id === "functions") return selection.fn !== undefined && t.fn[r] === selection.fn;
    const pkg = selection.fn !== undefined ? D.functions[selection.fn][1] : selection.pkg;
    return t.rows[r][0] === pkg;
  }
  // A node is selected when its function is, or its package is.
  function nodeSelected(i) {
    if (!selection || i <= 0 || D.function[i] < 0) return false;
    if (selection.fn !== undefined) return D.function[i] === selection.fn;
    return D.functions[D.function[i]][1] === selection.pkg;
  }
  // selectRow selects a row's function or package in the graph: zoomed to
  // the frame all its frames are under, its frames outlined, and the
  // source of its heaviest frame shown.
  function selectRow(id, r) {
    const t = tables[id].t;
    if (id === "functions") {
      if (t.fn[r] < 0) return;
      selection = { fn: t.fn[r] };
    } else selection = { pkg: t.rows[r][0] };
    const nodes = [];
    for (let i = 1; i < N; i++) if (nodeSelected(i)) nodes.push(i);
    let lca = nodes.length ? nodes[0] : 0;
    const anc = (i) => {
      const a = new Set();
      for (; i >= 0; i = D.parent[i]) a.add(i);
      return a;
    };
    for (const n of nodes) {
      const a = anc(n);
      while (!a.has(lca)) lca = D.parent[lca];
    }
    // zoom to the common caller's frame (the frame itself when it is one)
    let heaviest = -1;
    for (const n of nodes) if (heaviest < 0 || value(n) > value(heaviest)) heaviest = n;
    if (heaviest >= 0) showSource(heaviest);
    for (const k in tables) tables[k].mark();
    zoomTo(lca);
    const fl = $("flame");
    if (fl.scrollIntoView) fl.scrollIntoView({ block: "nearest" });
  }
  // selectNode selects a clicked frame's function and marks its rows.
  function selectNode(i) {
    selection = i > 0 && D.function[i] >= 0 ? { fn: D.function[i] } : null;
    for (const k in tables) tables[k].mark();
    const tr = tables.functions && tables.functions.trs.find((x) => x && x.classList.contains("selected"));
    if (tr && tr.scrollIntoView) tr.scrollIntoView({ block: "nearest" });
    return tr ? +tr.dataset.row : -1;
  }
  fillTable("packages", D.packages);
  fillTable("functions", D.functionTable);

  // Controls.
  const widthSel = $("width");
  const modes = D.compared ? [["union", "before + after (nothing vanishes)"], ["0", "before"], ["1", "after"]] : [["0", "total time"]];
  for (const [v, t] of modes) {
    const o = el("option", t);
    o.value = v;
    widthSel.appendChild(o);
  }
  if (!D.compared) {
    $("metric").parentElement.hidden = true;
    $("palette").parentElement.hidden = true;
    $("judge").parentElement.hidden = true;
  }
  // A node's width: its time on the side chosen, or on both added up.
  const widthOf = (times, i) => {
    const m = widthSel.value;
    if (m === "union") {
      let s = 0;
      for (let k = 0; k < sides; k++) s += times[k][i];
      return s;
    }
    return times[+m][i];
  };
  const value = (i) => widthOf(D.total, i);
  const selfValue = (i) => widthOf(D.self, i);
  // The time of a node's callees left out of the tree (under the share),
  // drawn as one "other" frame beside its callees.
  const otherValue = (i) => {
    let v = value(i) - selfValue(i);
    for (const k of kids[i]) v -= value(k);
    return v > 0 ? v : 0;
  };

  // Colours.
  function hashHue(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 16777619);
    }
    return ((h >>> 0) % 360);
  }
  // A frame's judged change: its function's over all its calls (so that a
  // function that moved under a new caller is one change, not a gone
  // frame and a new one), or the frame's own on its call path.
  function judged(i, metric) {
    if (i === 0 || D.function[i] < 0) return [0, null, null];
    const self = metric === "self";
    if ($("judge").value === "path") {
      return self ? [D.judged.selfVerdict[i], D.judged.selfPct[i], D.judged.selfP[i]] : [D.judged.totalVerdict[i], D.judged.totalPct[i], D.judged.totalP[i]];
    }
    const f = D.function[i];
    return self ? [D.fnJudged.selfVerdict[f], D.fnJudged.selfPct[f], D.fnJudged.selfP[f]] : [D.fnJudged.totalVerdict[f], D.fnJudged.totalPct[f], D.fnJudged.totalP[f]];
  }
  let scale = 100; // the |Δ%| of full colour: the largest real change, up to 100%
  function computeScale() {
    const m = $("metric").value;
    let mx = 0;
    for (let i = 1; i < N; i++) {
      const [v, p] = judged(i, m);
      if ((v === 1 || v === 2) && p !== null) mx = Math.max(mx, Math.abs(p));
    }
    scale = Math.min(100, Math.max(mx, 10));
  }
  function colour(i) {
    if (!D.compared) {
      const pkg = fnOf(i)[1];
      return i === 0 ? "hsl(0,0%,80%)" : "hsl(" + hashHue(pkg) + ",55%,72%)";
    }
    const [v, p] = judged(i, $("metric").value);
    if (v === 0 || v === undefined) return "hsl(0,0%,82%)";
    const ob = $("palette").value === "ob";
    const slower = v === 2 || v === 3;
    const hue = slower ? (ob ? 30 : 0) : (ob ? 210 : 220);
    const t = v >= 3 ? 1 : Math.min(1, Math.abs(p === null ? 100 : p) / scale);
    return "hsl(" + hue + "," + (45 + 40 * t) + "%," + (82 - 34 * t) + "%)";
  }
  function legend() {
    const lg = $("legend");
    lg.textContent = "";
    if (!D.compared) {
      lg.appendChild(el("span", "colour: package (the same package, the same colour); width: total time " + D.per));
      return;
    }
    const ob = $("palette").value === "ob";
    const m = $("metric").value;
    const bar = el("span", null, "bar");
    const steps = [-1, -0.5, -0.2, 0.2, 0.5, 1];
    for (const s of steps) {
      const sw = el("span", null, "swatch");
      const hue = s > 0 ? (ob ? 30 : 0) : (ob ? 210 : 220);
      const t = Math.abs(s);
      sw.style.background = "hsl(" + hue + "," + (45 + 40 * t) + "%," + (82 - 34 * t) + "%)";
      sw.title = pct(s * scale);
      bar.appendChild(sw);
    }
    lg.appendChild(el("span", "faster " + pct(-scale)));
    lg.appendChild(bar);
    lg.appendChild(el("span", pct(scale) + " slower"));
    const grey = el("span", null, "swatch");
    grey.style.background = "hsl(0,0%,82%)";
    lg.appendChild(grey);
    lg.appendChild(el("span", "not judged real"));
    const nw = el("span", null, "swatch new");
    lg.appendChild(nw);
    lg.appendChild(el("span", "new"));
    const gn = el("span", null, "swatch gone");
    lg.appendChild(gn);
    lg.appendChild(el("span", "gone"));
    lg.appendChild(el("span", "colour: change of " + m + " time " + D.per + ", after the noise test, of " + ($("judge").value === "path" ? "each frame on its call path" : "each frame's function over all its calls")));
  }

  // Layout and drawing.
  const canvas = $("canvas");
  const ctx = canvas.getContext("2d");
  const ROW = 18;
  let zoom = 0;
  let rects = []; // per depth: [x0, x1, node], sorted by x
  let matched = null; // Set of nodes matching the search
  let selectedDrawn = 0; // frames drawn outlined as selected
  function depthOf(i) {
    let d = 0;
    while (D.parent[i] >= 0) {
      i = D.parent[i];
      d++;
    }
    return d;
  }
  function draw() {
    const W = Math.max(300, $("flame").clientWidth);
    const dpr = window.devicePixelRatio || 1;
    rects = [];
    const ancestors = [];
    for (let a = zoom; a >= 0; a = D.parent[a]) ancestors.unshift(a);
    // Depth of the deepest drawn frame, to size the canvas.
    let maxDepth = ancestors.length;
    const items = [];
    ancestors.forEach((a, d) => items.push([0, W, a, d]));
    const total = value(zoom) || 1;
    const stack = [[zoom, 0, W, ancestors.length - 1]];
    while (stack.length) {
      const [i, x0, x1, d] = stack.pop();
      const ks = kids[i].slice().sort((a, b) => value(b) - value(a));
      let x = x0;
      for (const k of ks) {
        const w = (value(k) / total) * W;
        if (w < 0.5) continue;
        items.push([x, x + w, k, d + 1]);
        maxDepth = Math.max(maxDepth, d + 2);
        stack.push([k, x, x + w, d + 1]);
        x += w;
      }
      const ow = (otherValue(i) / total) * W;
      if (ow >= 1) {
        items.push([x, x + ow, -1 - i, d + 1]);
        maxDepth = Math.max(maxDepth, d + 2);
      }
    }
    const H = maxDepth * ROW + 4;
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    canvas.style.width = W + "px";
    canvas.style.height = H + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    let grey = 0, coloured = 0, newCount = 0, goneCount = 0, faster = 0, slower = 0;
    selectedDrawn = 0;
    for (const [x0, x1, i, d] of items) {
      const y = d * ROW;
      const w = Math.max(x1 - x0 - 1, 0.5);
      if (i < 0) {
        ctx.fillStyle = "#f1f1f1";
        ctx.fillRect(x0, y, w, ROW - 1);
        ctx.strokeStyle = "#d4d4d4";
        ctx.strokeRect(x0 + 0.5, y + 0.5, Math.max(w - 1, 0), ROW - 2);
        if (w > 40) {
          ctx.fillStyle = "#777";
          ctx.fillText("other", x0 + 3, y + ROW / 2);
        }
        (rects[d] = rects[d] || []).push([x0, x1, i]);
        continue;
      }
      const c = colour(i);
      ctx.fillStyle = c;
      ctx.fillRect(x0, y, w, ROW - 1);
      if (c === "hsl(0,0%,82%)") grey++;
      else coloured++;
      const v = D.compared ? judged(i, $("metric").value)[0] : 0;
      if (v === 1 || v === 4) faster++;
      if (v === 2 || v === 3) slower++;
      if (v === 3 || v === 4) {
        // new: dashed frame; gone: struck through.
        ctx.save();
        ctx.strokeStyle = "#111";
        ctx.lineWidth = 1.5;
        if (v === 3) {
          ctx.setLineDash([4, 2]);
          ctx.strokeRect(x0 + 0.75, y + 0.75, Math.max(w - 1.5, 0), ROW - 2.5);
          newCount++;
        } else {
          ctx.beginPath();
          ctx.moveTo(x0, y + ROW / 2);
          ctx.lineTo(x0 + w, y + ROW / 2);
          ctx.stroke();
          goneCount++;
        }
        ctx.restore();
      }
      if (nodeSelected(i)) {
        ctx.save();
        ctx.strokeStyle = "#111";
        ctx.lineWidth = 3;
        ctx.strokeRect(x0 + 1.5, y + 1.5, Math.max(w - 3, 0), ROW - 4);
        ctx.restore();
        selectedDrawn++;
      }
      if (matched && matched.has(i)) {
        ctx.save();
        ctx.strokeStyle = "#d0008f";
        ctx.lineWidth = 2;
        ctx.strokeRect(x0 + 1, y + 1, Math.max(w - 2, 0), ROW - 3);
        ctx.restore();
      }
      if (w > 28) {
        const f = fnOf(i);
        let label = f[0];
        const room = Math.floor((w - 6) / 6.2);
        if (label.length > room) label = label.slice(0, Math.max(room - 1, 1)) + "…";
        ctx.fillStyle = "#111";
        ctx.fillText(label, x0 + 3, y + ROW / 2);
      }
      (rects[d] = rects[d] || []).push([x0, x1, i]);
    }
    for (const r of rects) if (r) r.sort((a, b) => a[0] - b[0]);
    crumbs(ancestors);
    selftest(items.length, grey, coloured, newCount, goneCount, faster, slower);
  }
  function crumbs(ancestors) {
    const c = $("crumbs");
    c.textContent = "";
    ancestors.forEach((a, k) => {
      if (k > 0) c.appendChild(el("span", " › "));
      const b = el("a", fnOf(a)[0]);
      b.href = "#";
      b.addEventListener("click", (e) => {
        e.preventDefault();
        zoomTo(a);
      });
      c.appendChild(b);
    });
  }
  function zoomTo(i) {
    zoom = i;
    draw();
  }
  function nodeAt(x, y) {
    const d = Math.floor(y / ROW);
    const r = rects[d];
    if (!r) return null;
    let lo = 0, hi = r.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (x < r[m][0]) hi = m - 1;
      else if (x >= r[m][1]) lo = m + 1;
      else return r[m][2];
    }
    return null;
  }
  function tipText(i) {
    if (i < 0) {
      const p = -1 - i;
      const per = [];
      for (let s = 0; s < sides; s++) {
        let v = D.total[s][p] - D.self[s][p];
        for (const k of kids[p]) v -= D.total[s][k];
        per.push((D.compared ? ["before", "after"][s] + " " : "") + dur(Math.max(v, 0)));
      }
      return ["other", "callees of " + fnOf(p)[0] + " under " + (100 * D.minShare).toFixed(2) + "% of on-CPU time each, merged", per.join(", ") + " " + D.per];
    }
    const f = fnOf(i);
    const lines = [f[0], f[1] + (f[2] ? "  " + f[2] : "")];
    const on = D.total.map((t) => t[0]);
    if (!D.compared) {
      lines.push("total " + dur(D.total[0][i]) + " (" + ((100 * D.total[0][i]) / (on[0] || 1)).toFixed(1) + "%), self " + dur(D.self[0][i]) + " (" + ((100 * D.self[0][i]) / (on[0] || 1)).toFixed(1) + "%) " + D.per);
      return lines;
    }
    for (const [name, vals, ver, pc, pv] of [["total", D.total, D.judged.totalVerdict, D.judged.totalPct, D.judged.totalP], ["self", D.self, D.judged.selfVerdict, D.judged.selfPct, D.judged.selfP]]) {
      lines.push("this frame's " + name + ": " + dur(vals[0][i]) + " → " + dur(vals[1][i]) + "  " + sdur(vals[1][i] - vals[0][i]) + " " + pct(pc[i]) + "  " + VERDICT[ver[i]] + "  p " + fmtP(pv[i]));
    }
    if (D.function[i] >= 0) {
      const f = D.function[i];
      lines.push("the function over all its calls: total " + pct(D.fnJudged.totalPct[f]) + " " + VERDICT[D.fnJudged.totalVerdict[f]] + " p " + fmtP(D.fnJudged.totalP[f]) +
        ", self " + pct(D.fnJudged.selfPct[f]) + " " + VERDICT[D.fnJudged.selfVerdict[f]] + " p " + fmtP(D.fnJudged.selfP[f]));
    }
    lines.push(D.per);
    return lines;
  }
  canvas.addEventListener("mousemove", (e) => {
    const r = canvas.getBoundingClientRect();
    const i = nodeAt(e.clientX - r.left, e.clientY - r.top);
    const tip = $("tip");
    if (i === null) {
      tip.hidden = true;
      return;
    }
    tip.textContent = "";
    tipText(i).forEach((l, k) => tip.appendChild(el("div", l, k === 0 ? "tip-name" : "")));
    tip.hidden = false;
    tip.style.left = Math.min(e.pageX + 12, window.scrollX + window.innerWidth - tip.offsetWidth - 8) + "px";
    tip.style.top = e.pageY + 14 + "px";
  });
  canvas.addEventListener("mouseleave", () => ($("tip").hidden = true));
  canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect();
    const i = nodeAt(e.clientX - r.left, e.clientY - r.top);
    if (i !== null && i >= 0) {
      selectNode(i);
      zoomTo(i);
      showSource(i);
    }
  });
  // The clicked frame's function's source, with each line's self time per
  // side (the page holds them when written with per-line times). When the
  // function's text differs between the builds, both texts are aligned as
  // a line diff: rows only before marked -, only after +, each with its
  // own side's time; a moved line shows both numbers and its verdict.
  // A row: [before line, after line, mark, text, self per side..., verdict].
  function showSource(i) {
    const sec = $("source-section");
    const f = D.function[i];
    const src = D.sources && f >= 0 ? D.sources[f] : null;
    if (!src) {
      sec.hidden = true;
      return 0;
    }
    const fn = D.functions[f];
    $("source-title").textContent = fn[0] + "  " + fn[2];
    $("source-note").textContent = src.note + (src.aligned ? (src.note ? " " : "") + "The builds' texts differ: - before only, + after only, each with its own side's time." : "");
    const t = $("source");
    t.textContent = "";
    const head = el("tr");
    const labels = (src.aligned ? ["old", "new"] : ["line"]).concat(D.compared ? ["before", "after", "change", "", ""] : ["self", ""]);
    for (const h of labels) head.appendChild(el("th", h));
    t.appendChild(head);
    const num = (n) => (n > 0 ? String(n) : "");
    for (const row of src.rows) {
      const unattributed = row[0] === 0 && row[1] === 0;
      const tr = el("tr", null, row[2] === "-" ? "removed" : row[2] === "+" ? "added" : "");
      if (src.aligned) tr.appendChild(el("td", num(row[0])));
      tr.appendChild(el("td", num(src.aligned ? row[1] : row[0])));
      const times = row.slice(4, row.length - 1);
      for (const x of times) tr.appendChild(el("td", x ? dur(x) : "."));
      if (D.compared) {
        tr.appendChild(el("td", times[0] || times[1] ? sdur(times[1] - times[0]) : ""));
        tr.appendChild(el("td", row[row.length - 1], "verdict"));
      }
      tr.appendChild(el("td", unattributed ? "(unattributed: samples that recorded no line)" : (row[2] === " " ? "  " : row[2] + " ") + row[3], "code"));
      t.appendChild(tr);
    }
    sec.hidden = false;
    return src.rows.length;
  }
  $("reset").addEventListener("click", () => zoomTo(0));
  function search(text) {
    if (text === null) {
      $("search").value = "";
      text = "";
    }
    matched = null;
    $("match").textContent = "";
    if (text) {
      let re;
      try {
        re = new RegExp(text, "i");
      } catch (err) {
        re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
      }
      matched = new Set();
      for (let i = 1; i < N; i++) {
        const f = fnOf(i);
        if (re.test(f[0]) || re.test(f[1]) || re.test(f[2])) matched.add(i);
      }
      // The share of time under matching frames, each counted once.
      let covered = 0;
      for (const i of matched) {
        let a = D.parent[i], inner = false;
        while (a > 0) {
          if (matched.has(a)) {
            inner = true;
            break;
          }
          a = D.parent[a];
        }
        if (!inner) covered += value(i);
      }
      $("match").textContent = matched.size + " frames, " + ((100 * covered) / (value(0) || 1)).toFixed(1) + "% of on-CPU time";
    }
    draw();
  }
  $("search").addEventListener("input", (e) => search(e.target.value));
  for (const id of ["width", "metric", "palette", "judge"]) {
    $(id).addEventListener("change", () => {
      if (D.compared) computeScale();
      legend();
      search($("search").value);
    });
  }
  const otherNote = [];
  D.other.forEach((o, s) => {
    if (o > 0) otherNote.push((D.compared ? ["before", "after"][s] + ": " : "") + dur(o));
  });
  $("other").textContent = otherNote.length
    ? "Frames under " + (100 * D.minShare).toFixed(2) + "% of on-CPU time on every side (--min-frame-share) are merged into one \"other\" frame below their caller: " + otherNote.join(", ") + " " + D.per + " in all."
    : "";

  // What a test in a browser reads back.
  function selftest(drawn, grey, coloured, newCount, goneCount, faster, slower) {
    let bad = false;
    for (const arr of [D.self, D.total]) for (const side of arr) for (const x of side) if (!isFinite(x)) bad = true;
    const text = document.body.innerText || "";
    if (/NaN|Infinity/.test(text)) bad = true;
    $("selftest").textContent = JSON.stringify({
      nodes: N, drawn: drawn, grey: grey, coloured: coloured, newFrames: newCount, goneFrames: goneCount, faster: faster, slower: slower,
      judge: $("judge").value,
      rootWidth: D.total.map((t) => t[0]), zoom: zoom, notFinite: bad, tip: N > 1 ? tipText(1) : [],
      resources: performance.getEntriesByType("resource").length,
      sourceRows: sourceRows, sourceNote: $("source-note").textContent,
      selectedDrawn: selectedDrawn, layout: layout(), clicks: clicks,
    });
  }
  // layout: what would scroll sideways, and the tables' columns.
  function layout() {
    const de = document.documentElement, aside = document.querySelector("aside");
    const tabs = {};
    for (const id of ["headline", "packages", "functions"]) {
      const tb = $(id);
      const head = tb.querySelector("tr");
      tabs[id] = { columns: head ? head.children.length : 0, width: Math.ceil(tb.getBoundingClientRect().width) };
    }
    return { viewport: window.innerWidth, scrollWidth: de.scrollWidth, asideWidth: aside.clientWidth, asideScrollWidth: aside.scrollWidth, tables: tabs };
  }
  // #clicktest clicks, as a user would, the heaviest row of the functions
  // table that has frames, then a frame of another function in the graph,
  // and records what each selected.
  let clicks = null;
  function clickTest() {
    const ft = tables.functions;
    const r = ft.t.fn.findIndex((f) => f >= 0);
    if (r < 0) return { row: -1 };
    ft.trs[r].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const out = { row: r, rowFunction: D.functions[ft.t.fn[r]][0], selectedDrawn: selectedDrawn, zoom: zoom, rowMarked: ft.trs[r].classList.contains("selected") };
    // a frame of another function that has a row, in the whole graph:
    // click its middle
    zoomTo(0);
    for (let d = 0; d < rects.length; d++) {
      for (const [x0, x1, i] of rects[d] || []) {
        if (i <= 0 || x1 - x0 < 4 || D.function[i] === ft.t.fn[r]) continue;
        const row = ft.t.fn.indexOf(D.function[i]);
        if (row < 0) continue;
        const b = canvas.getBoundingClientRect();
        canvas.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: b.left + (x0 + x1) / 2, clientY: b.top + d * ROW + ROW / 2 }));
        out.frameFunction = D.functions[D.function[i]][0];
        out.frameRow = row;
        out.markedRows = ft.trs.filter((x) => x && x.classList.contains("selected")).map((x) => +x.dataset.row);
        return out;
      }
    }
    return out;
  }
  // #judge=path opens judging each frame on its own call path.
  if (/(^#|&)judge=path(&|$)/.test(location.hash)) $("judge").value = "path";
  // #source opens the source of the heaviest frame that has one;
  // #source=NAME, of the heaviest frame of the function named NAME.
  let sourceRows = 0;
  const sourceHash = /(?:^#|&)source(?:=([^&]*))?(?:&|$)/.exec(location.hash);
  if (sourceHash && D.sources) {
    const name = sourceHash[1] === undefined ? null : decodeURIComponent(sourceHash[1]);
    let best = -1;
    for (let i = 1; i < N; i++) {
      const f = D.function[i];
      if (f >= 0 && D.sources[f] && (name === null || D.functions[f][0] === name) && (best < 0 || D.total[sides - 1][i] > D.total[sides - 1][best])) best = i;
    }
    if (best > 0) sourceRows = showSource(best);
  }
  window.addEventListener("resize", () => {
    draw();
    for (const k in tables) tables[k].shorten();
  });
  if (D.compared) computeScale();
  legend();
  draw();
  if (/(^#|&)clicktest(&|$)/.test(location.hash)) {
    clicks = clickTest();
    draw();
  }
})();
