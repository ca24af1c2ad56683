"use strict";
// profdiff's stalls strip: each run's stretches over 16 ms on one time
// scale, from D.stalls. Clicking a stall over 50 ms says what ran in it,
// highlights those functions in the flame graph (its search box) and gives
// the --window command that narrows the report to it. Text only reaches the
// page through textContent.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const S = D.stalls;
  const $ = (id) => document.getElementById(id);
  if (!S || !S.runs.length) return;
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  function dur(ns) {
    const a = Math.abs(ns);
    if (a === 0) return "0";
    const units = [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]];
    for (const [f, u] of units) {
      if (a >= f || f === 1) {
        const x = ns / f, ax = Math.abs(x);
        return (ax >= 100 ? x.toFixed(0) : ax >= 10 ? x.toFixed(1) : x.toFixed(2)) + " " + u;
      }
    }
  }
  const span = Math.max(S.hi - S.lo, 1);
  const pos = (t) => (100 * (t - S.lo)) / span + "%";
  $("stalls-section").hidden = false;
  $("stalls-note").textContent =
    "Per run, " + S.source + ": stretches over 16 ms (orange) and over 50 ms (red). " +
    (S.longest.length ? "Click a red one for what ran in it; its functions light up in the flame graph." : "No stretch over 50 ms.");
  const strips = $("stalls-strips");
  const byRun = new Map();
  S.longest.forEach((l, i) => {
    const k = l.run + ":" + l.start;
    byRun.set(k, i);
  });
  const marks = [];
  S.runs.forEach((run, ri) => {
    const row = el("div", null, "stall-row");
    row.appendChild(el("div", run.label, "stall-label"));
    const strip = el("div", null, "stall-strip");
    for (const [start, d] of run.long) {
      const m = el("div", null, "stall" + (d > 50e6 ? " long" : ""));
      m.style.left = pos(start);
      m.style.width = (100 * d) / span + "%";
      m.title = dur(d) + " at " + dur(start);
      const i = byRun.get(ri + ":" + start);
      if (i !== undefined) {
        m.dataset.stall = String(i);
        m.addEventListener("click", () => select(i, m));
      }
      marks.push(m);
      strip.appendChild(m);
    }
    row.appendChild(strip);
    strips.appendChild(row);
  });
  const axis = el("div", null, "stall-axis");
  for (let k = 0; k <= 4; k++) axis.appendChild(el("span", dur(S.lo + (span * k) / 4)));
  strips.appendChild(axis);
  function select(i, m) {
    for (const x of marks) x.classList.remove("sel");
    m.classList.add("sel");
    const l = S.longest[i];
    const det = $("stalls-detail");
    det.textContent = "";
    det.appendChild(el("div", l.text));
    const cmd = el("div", "Narrow the report to it: ");
    cmd.appendChild(el("code", l.command));
    det.appendChild(cmd);
    location.hash = "stall=" + i;
    const q = $("search");
    if (q && l.match) {
      q.value = l.match;
      q.dispatchEvent(new Event("input"));
    }
  }
  // #stall=N opens with the Nth longest stall selected (a link to it).
  const h = /(^#|&)stall=(\d+)(&|$)/.exec(location.hash);
  if (h) {
    const m = marks.find((x) => x.dataset.stall === h[2]);
    if (m) select(Number(h[2]), m);
  }
})();
